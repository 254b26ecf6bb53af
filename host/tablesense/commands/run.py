"""``tablesense run``: serve the pub -- one link per table, the match log, the web app.

    tablesense run --serial /dev/ttyUSB0 --serial /dev/ttyUSB1 --profile golf --profile carom

Tables are numbered 1, 2, ... in the order of their ``--serial``; ``--profile`` pairs with
``--serial`` by position (one ``--profile`` serves every port). ``--tables N`` adds tables
without a link (a table refereed by hand). A port that is not there is one line and exit
2; with ``--wait`` (the systemd unit's) the pub starts and the link waits for the board.

The web app serves the pub's network (``0.0.0.0:8080``), and the start says the address
the referee QR codes carry: this PC's on that network (``command_line.phone_address``).
``--http 127.0.0.1:PORT`` keeps it on this PC, with one line saying phones cannot reach it.

What runs is ``tablesense.pipeline`` (each table's port to its events, the pub, the web app
and the league following it); this module reads the command line into it and says where it is.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any
from urllib.parse import quote, urlsplit

from ..command_line.options import add_db, add_http, add_lang, add_serial
from ..command_line.phone_address import EVERY_ADDRESS, phone_address
from ..command_line.serial_port import serial_problem, url_mistake
from ..errors import TablesenseError
from ..link.lines import BAUD, baud

EXAMPLES = """
tablesense run --serial /dev/serial/by-id/usb-Silicon_Labs_CP2102-if00-port0 --profile golf
tablesense run --serial /dev/ttyUSB0 --serial /dev/ttyUSB1 --profile golf --profile carom --http 8080
tablesense run --tables 2 --db pub.db --lang nl
tablesense run --tables 1 --http 127.0.0.1:8080   # this PC only: no phone reaches it
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_serial(p, repeat=True)
    p.add_argument("--profile", action="append", default=[], metavar="ID",
                   help="table profile per --serial (golf, kegle, carom or a TOML file); default golf")
    p.add_argument("--baud", type=baud, default=None, metavar="N",
                   help=f"baud rate of the tables' serial ports (default: each profile's, else {BAUD})")
    p.add_argument("--camera", action="append", default=[], metavar="DEVICE",
                   help="an overhead camera per --serial, by position (docs/camera.md; calibrate it first)")
    p.add_argument("--tables", type=int, default=0, metavar="N",
                   help="tables without a link, refereed by hand")
    add_http(p, host="0.0.0.0", old_port="--port-http")
    add_db(p, "the match log, SQLite (default tablesense.db)", default="tablesense.db")
    add_lang(p, "language of new tables", default="en")
    p.add_argument("--public-url", type=public_url, default="", metavar="URL",
                   help="how phones reach this host, for the referee QR code (default: this PC's address "
                        "on the pub's network, printed at start)")
    p.add_argument("--tv-code", default="", metavar="CODE",
                   help="the pub's code that pairs a TV with a table (/table/N?tv=CODE shows the referee "
                        "QR code there); default: one per table, printed at start")
    p.add_argument("--wait", action="store_true",
                   help="start even when a serial port is not there yet, and wait for its board "
                        "(default: exit 2)")
    p.add_argument("--league", metavar="URL", help="the league's broker, mqtt://PUB:PASSWORD@HOST:1883 "
                   "(or the password in TABLESENSE_BROKER_PASSWORD; docs/league.md): every finished "
                   "match and the live tables go there")
    p.add_argument("--pub", metavar="NAME", help="this pub's name in the league (its broker user)")


def plan(ports: list[str], profiles: list[str], extra: int) -> list[tuple[str, str | None, str | None]]:
    """(table id, port, profile) per table; raises ValueError with the reason for a bad combination."""
    if len(profiles) > 1 and len(profiles) != len(ports):
        raise ValueError(f"give one --profile for all ports or one per --serial ({len(ports)} ports, "
                         f"{len(profiles)} profiles)")
    if extra < 0:
        raise ValueError("--tables must be 0 or more")
    if not ports and not extra:
        raise ValueError("give a table: --serial PORT (one per table) or --tables N")
    if profiles and not ports:
        raise ValueError("--profile goes with --serial (a table without a link has no sensors)")
    profs = profiles * len(ports) if len(profiles) == 1 else profiles or ["golf"] * len(ports)
    out: list[tuple[str, str | None, str | None]] = [
        (str(n), port, prof) for n, (port, prof) in enumerate(zip(ports, profs), start=1)
    ]
    out += [(str(len(ports) + n), None, None) for n in range(1, extra + 1)]
    return out


def public_url(text: str) -> str:
    """``--public-url``: an http(s) address with a host (a path after it, behind a reverse
    proxy); the QR codes carry it, so anything else would reach no phone. "" (the default):
    none given."""
    if not text:
        return text
    parts = urlsplit(text)
    try:
        parts.port  # noqa: B018 (a port that is no number 1-65535 raises)
    except ValueError:
        parts = parts._replace(netloc="")
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise argparse.ArgumentTypeError(f"{text!r} is not an address phones can open "
                                         "(http://192.168.1.20:8080, https://pub.example.org)")
    return text


def check_http_port(value: int, *, allow_any: bool = False) -> str | None:
    """Why ``value`` is not a TCP port to serve on (1..65535; 0 = any free one when
    ``allow_any``), or None."""
    low = 0 if allow_any else 1
    if low <= value <= 65535:
        return None
    return f"the web port must be {low}..65535{' (0: any free one)' if allow_any else ''}, not {value}"


def _serial_problem(tables: list[tuple[str, str | None, str | None]], wait: bool) -> str | None:
    """The first table's port that is not there, with the hint that ``--wait`` waits for it
    (nothing when ``wait``: the link waits); its profile is checked first. A URL no board can
    ever answer at (``url_mistake``) is said even with ``wait``, without the hint: waiting
    cannot mend it."""
    from ..link.translate import table_profile

    for _tid, port, prof in tables:
        if port is not None and prof is not None:
            table_profile(prof)  # a bad profile is the first thing said
            mistake = url_mistake(port)
            if mistake:
                return mistake
            problem = None if wait else serial_problem(port)
            if problem:
                return f"{problem} (--wait: start and wait for it)"
    return None


def league_link(url: str | None, pub: str | None) -> Any:
    """The broker of ``--league`` with ``--pub`` (None without), or ValueError saying what is wrong."""
    if url is None and pub is None:
        return None
    if url is None or pub is None:
        raise ValueError("--league and --pub go together")
    from ..league.broker_url import check_pub_name, parse_broker_url

    check_pub_name(pub)
    return parse_broker_url(url)


def run(args: argparse.Namespace) -> int:
    from ..command_line.extras import needs

    missing = needs("tablesense run", "cv2", "numpy") if args.camera else None  # --camera: the camera extra
    if missing:
        print(missing, file=sys.stderr)
        return 2
    problem = check_http_port(args.http.port)  # a fixed port: the pub's TVs and phones keep its address
    if problem:
        print(f"tablesense run: --http: {problem}", file=sys.stderr)
        return 2
    from ..pipeline import LinkStatuses, serve, table_feeds

    try:
        league = league_link(args.league, args.pub)
        tables = plan(args.serial, args.profile, args.tables)
        problem = _serial_problem(tables, args.wait)
        if problem:
            print(f"tablesense run: {problem}", file=sys.stderr)
            return 2
        statuses = LinkStatuses()
        sources = table_feeds(tables, args.baud, statuses, args.camera)
    except (ValueError, OSError, TablesenseError) as exc:
        print(f"tablesense run: {exc}", file=sys.stderr)
        return 2
    from ..link.translate import table_profile
    from ..web.guard import tv_code
    from ..web.lan import lan_address

    every = args.http.host in EVERY_ADDRESS
    phones = phone_address(args.http.host, args.public_url, lan_address() if every else None)

    def ready(url: str, pub: Any) -> None:
        bound = url.rsplit(":", 1)[1]
        base = phones.at(bound)  # what the referee QR codes carry
        here = f"http://127.0.0.1:{bound}"
        site = base if every and not args.public_url else url
        also = f" (on this PC {here}/)" if every and site != here else ""
        print(f"tablesense: {len(tables)} table(s), scoreboard on {site}/{also}  (match log: {args.db})",
              flush=True)
        for tid, port, prof in tables:
            link = f"{port} ({prof})" if port else "no link"
            print(f"  table {tid}: {link}  TV {site}/table/{tid}  referee {base}/ref/{tid}?token="
                  f"{pub.table(tid).token}", flush=True)
        for tid, _port, _prof in tables:  # open once on the pub's own TV: it shows the referee QR code
            print(f"  the pub's TV of table {tid}: {site}/table/{tid}?tv="  # a --tv-code "a&b" too
                  f"{quote(tv_code(pub.table(tid).token, args.tv_code), safe='')}", flush=True)
        print(f"  phones: the referee QR code on each TV carries {base}/ref/N?token=...", flush=True)
        if phones.warning:
            print(f"tablesense run: {phones.warning}", file=sys.stderr, flush=True)
        if league is not None:
            print(f"  league: {args.pub} on {league}", flush=True)

    try:  # SIGTERM (systemd's stop) arrives as Ctrl-C does (tablesense.cli): exit 0
        games = {tid: (table_profile(prof).game,) for tid, _port, prof in tables if prof}  # the set-up form's
        asyncio.run(serve(sources, host=args.http.host, port=args.http.port, db=args.db, lang=args.lang,
                          public_url=phones.base, on_ready=ready, tv_code=args.tv_code, games=games,
                          statuses=statuses, league=(args.pub, league) if league is not None else None))
    except KeyboardInterrupt:
        return 0
    except OSError as exc:
        print(f"tablesense run: cannot serve on {args.http}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    except TablesenseError as exc:
        print(f"tablesense run: {exc}", file=sys.stderr)
        return 2
    return 0
