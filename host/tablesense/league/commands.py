"""The league's network actions of ``tablesense league`` (docs/league.md "A league across pubs"):

- ``serve --broker URL --db FILE [--http [HOST:]PORT]``: the league service;
- ``broker-config --dir DIR --pub NAME ...``: Mosquitto's password file, ACL and config;
- ``alias COMP NAME MEMBER [--pub PUB]``: the name a pub uses for a member;
- ``year COMP COMP``: the standings of a year played in two halves;
- ``barrage MATCH_ID``: a match a pub sent was a barrage.

``commands/league.py`` adds them to its parser and hands them here.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pwd
import socket
import sys
from collections.abc import Callable
from pathlib import Path

from ..errors import TablesenseError
from .broker_config import LEAGUE_USER, read_passwd
from .broker_config import write as write_config
from .broker_url import BrokerURLError, parse_broker_url
from .inbox import open_inbox
from .season import year_standings
from .store import LeagueError, LeagueStore

ACTIONS = ("serve", "broker-config", "alias", "year", "barrage")


def add_actions(action: Callable[[str, str, str], argparse.ArgumentParser]) -> list[argparse.ArgumentParser]:
    """The league-across-pubs actions, each made by ``action(name, help, example)``."""
    s = action("serve", "the league service: takes the pubs' matches from the broker, keeps the "
                        "standings, serves the league page",
               "tablesense league serve --broker mqtt://league:PASSWORD@broker:1883 --db league.db")
    s.add_argument("--broker", required=True, metavar="URL",
                   help="mqtt://league:PASSWORD@HOST:1883 (mqtts:// for TLS; ?ca=FILE)")
    s.add_argument("--http", default="127.0.0.1:8090", metavar="[HOST:]PORT",
                   help="where the league page is served (127.0.0.1:8090; 0: any free port; none: no page)")

    b = action("broker-config", "write Mosquitto's password file, ACL and config for the pubs",
               "tablesense league broker-config --dir /etc/mosquitto/tablesense --pub kroeg --pub zaal")
    b.add_argument("--dir", required=True, metavar="DIR", help="where passwd, acl and mosquitto.conf go")
    b.add_argument("--pub", action="append", default=[], metavar="NAME", required=True,
                   help="a pub of the league (repeat); it may write only under its own topics")
    b.add_argument("--broker-port", dest="port", type=int, default=1883, metavar="PORT",
                   help="the broker's port (1883; TLS: 8883)")
    b.add_argument("--bind", default="0.0.0.0", metavar="ADDRESS",
                   help="the address the broker listens on (default 0.0.0.0: every one)")
    b.add_argument("--broker-host", dest="host", default=socket.gethostname(), metavar="NAME",
                   help="the broker's name as the pubs reach it (default this machine's name)")
    b.add_argument("--tls-cert", metavar="FILE", help="the broker's certificate (with --tls-key)")
    b.add_argument("--tls-key", metavar="FILE", help="its private key")
    b.add_argument("--reset", action="append", default=[], metavar="NAME",
                   help="give this existing account a new password")
    b.add_argument("--json", action="store_true", help="the accounts as JSON")

    a = action("alias", "map the name a pub uses to a competition member",
               'tablesense league alias "Najaar 2026" "Annie" Ann --pub kroeg --db league.db')
    a.add_argument("competition", help="the competition's name")
    a.add_argument("name", help="the name as the pub's referee typed it")
    a.add_argument("member", help="the member of the competition")
    a.add_argument("--pub", default="", metavar="NAME", help="only for this pub's matches")

    r = action("barrage", "a match a pub sent was the barrage deciding a tie at the top",
               "tablesense league barrage kroeg:1:2026-11-20T20:00:00 --db league.db")
    r.add_argument("match", metavar="MATCH_ID", help="its id, PUB:TABLE:START (the league page lists them)")

    y = action("year", "the standings of a year played in halves (both halves' matches)",
               'tablesense league year "Najaar 2026" "Voorjaar 2027" --db league.db')
    y.add_argument("competitions", nargs="+", metavar="COMP", help="the halves' competitions, in order")
    y.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    return [s, b, a, r, y]


def run(args: argparse.Namespace) -> int:
    if args.action != "broker-config" and not getattr(args, "db", None):
        print(f"tablesense league: {args.action} needs --db FILE (the league database)", file=sys.stderr)
        return 2  # as every command says a missing option (docs/cli.md: exit 2, could not start)
    try:
        action = {"serve": _serve, "broker-config": _broker_config, "alias": _alias, "year": _year,
                  "barrage": _barrage}
        return action[args.action](args)
    except (TablesenseError, OSError) as exc:
        plain = isinstance(exc, OSError) and exc.filename and exc.strerror
        said = f"{exc.filename}: {exc.strerror}" if plain else exc  # not Python's "[Errno 2] ..."
        print(f"tablesense league: {said}", file=sys.stderr)
        return 1


def _http(text: str) -> tuple[str, int] | None:
    if text == "none":
        return None
    host, _, port = text.rpartition(":")
    try:
        number = int(port)
    except ValueError:
        number = -1
    if not 0 <= number <= 65535:
        raise BrokerURLError(f"--http is [HOST:]PORT with a port 0..65535, not {text!r}")
    return host or "127.0.0.1", number


def _serve(args: argparse.Namespace) -> int:
    from .service import serve

    _db(args)
    url = parse_broker_url(args.broker)
    http = _http(args.http)
    open_inbox(args.db).store.close()  # a database that cannot be opened: said now, not from a thread

    def ready(page: str | None) -> None:
        where = f"league page on {page}" if page else "no league page"
        print(f"tablesense league serve: {where}; broker {url}; database {args.db}", flush=True)

    try:
        asyncio.run(serve(url, args.db, http, ready))
    except KeyboardInterrupt:
        return 0
    return 0


def _run_broker(conf: Path) -> str:
    """How to start the broker on these files. Started as root, Mosquitto drops to the user
    ``mosquitto``, who cannot read a password file that root keeps to himself: the files
    (and the persistence folder) are given to that user first."""
    run = f"mosquitto -c {conf}"
    if os.geteuid() != 0:
        return run
    try:
        pwd.getpwnam("mosquitto")
    except KeyError:
        return run
    return f"chown -R mosquitto: {conf.parent} && {run} (as root Mosquitto runs as the user mosquitto)"


def _broker_config(args: argparse.Namespace) -> int:
    if bool(args.tls_cert) != bool(args.tls_key):
        raise BrokerURLError("--tls-cert and --tls-key go together")
    acl = Path(args.dir) / "acl"
    before = acl.read_text(errors="replace") if acl.is_file() else None
    dropped = sorted(set(read_passwd(Path(args.dir) / "passwd")) - {LEAGUE_USER, *args.pub})
    made = write_config(Path(args.dir), args.pub, args.port, args.bind, args.tls_cert, args.tls_key,
                        tuple(args.reset))
    changed = before is not None and before != acl.read_text()
    scheme = "mqtts" if args.tls_cert else "mqtt"
    rows = [{"user": a.user, "password": a.password,
             "url": f"{scheme}://{a.user}:{a.password}@{args.host}:{args.port}" if a.password else None}
            for a in made]
    if args.json:
        print(json.dumps({"dir": str(Path(args.dir).resolve()), "accounts": rows}))
        return 0
    conf = Path(args.dir).resolve() / "mosquitto.conf"
    print(f"wrote {conf.parent / 'passwd'}, {conf.parent / 'acl'} and {conf}; run: {_run_broker(conf)}")
    for row in rows:
        if row["url"] is None:
            print(f"  {row['user']}: password unchanged")
        elif row["user"] == LEAGUE_USER:
            print(f"  league: tablesense league serve --broker {row['url']} --db league.db")
        else:
            print(f"  pub {row['user']}: tablesense run ... --league {row['url']} --pub {row['user']}")
    print("the passwords are shown this once; the password file keeps only their hashes")
    if dropped:
        print(f"no account now for {', '.join(dropped)} (not given with --pub): run it again with every pub "
              "to keep theirs")
    if changed:  # e.g. a broker set up before team nights: the league may now tell the pubs theirs
        print("the ACL changed: a running Mosquitto reads it when restarted (or sent SIGHUP: kill -HUP "
              "its pid); until then it refuses what the new ACL allows, such as the team nights")
    return 0


def _alias(args: argparse.Namespace) -> int:
    inbox = open_inbox(_db(args))
    try:
        comp = inbox.store.competition(args.competition)
        inbox.alias(comp, args.name, args.member, args.pub)
    finally:
        inbox.store.close()
    where = f" in {args.pub}'s matches" if args.pub else ""
    print(f"{args.name}{where} is {args.member} in {comp.name}")
    return 0


def _db(args: argparse.Namespace) -> str:
    if not getattr(args, "db", None):
        raise BrokerURLError(f"{args.action} needs --db FILE (the league database)")
    return str(args.db)


def _barrage(args: argparse.Namespace) -> int:
    inbox = open_inbox(_db(args))
    try:
        r = inbox.mark_barrage(args.match)
    finally:
        inbox.store.close()
    print(f"{args.match} ({r.p1} - {r.p2}) is a barrage: it decides the order at the top and counts for "
          "nothing else")
    return 0


def _year(args: argparse.Namespace) -> int:
    with LeagueStore(_db(args)) as store:
        comps = [store.competition(name) for name in args.competitions]
        if len({c.game for c in comps}) > 1:
            raise LeagueError("a year is of one game: " + ", ".join(f"{c.name} is {c.game}" for c in comps))
        rows = year_standings([(store.players(c), store.results(c)) for c in comps], comps[0].record.order,
                              comps[0].game)
    if args.json:
        print(json.dumps({"competitions": [c.name for c in comps], "standings": [r.to_dict() for r in rows]}))
        return 0
    print(f"year: {' + '.join(c.name for c in comps)}")
    for n, r in enumerate(rows, 1):
        print(f"{n:>3}  {r.name:<20} played {r.played:>3}  points {r.points:>4}  average {r.average:.3f}")
    return 0
