"""``tablesense league ACTION ... --db FILE``: competitions of every game (docs/league.md).

Actions: ``create``, ``list``, ``show``, ``add-player``, ``add-team``, ``add-result``,
``import`` (stored match logs), ``schedule``, ``standings`` and ``moyennes``; ``--db`` goes
before or after the action. Every mistake is one line on stderr and exit status 1 (a log
file that cannot be read: 2), never a traceback.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..command_line.options import add_db, also_after_action, need
from ..errors import IllegalCall, TablesenseError
from ..league import (
    LeagueStore,
    NotACompetitionMatch,
    lines_from_store,
    part,
)
from ..league import commands as league_commands
from ..league.fixtures import schedule
from ..league.games import check_entry, members_text, side_name
from ..league.ingest import Members, discipline_of, enter, fits, team_night
from ..league.limits import MAX_LINE_CHARS, MAX_LOG_LINES
from ..league.matchlog import replay_match
from ..league.report import report
from ..league.scheme import BUILTIN, GAMES, SchemeError, resolve
from ..league.season import next_half_players
from ..league.store import DISCIPLINES, HALVES, Competition, Fixture, _result_from
from ..rules.carom.targets import SCHEMES

EXAMPLES = """
tablesense league create "Najaar 2026" --season 2026-2027 --half najaar --discipline libre --db club.db
tablesense league add-player "Najaar 2026" Ann --moyenne 1.2 --db club.db
tablesense league add-result "Najaar 2026" Ann Bob --caroms 30 20 --innings 25 --db club.db
tablesense league standings "Najaar 2026" --db club.db
tablesense league create "Golf 2026" --game golf --db golf.db
"""



def add_arguments(p: argparse.ArgumentParser) -> None:
    add_db(p, "the competition database (SQLite; `create` makes it when missing); before or after the action")
    sub = p.add_subparsers(dest="action", metavar="ACTION", title="actions")

    def action(name: str, text: str, example: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=text, description=text[:1].upper() + text[1:] + ".",
                              epilog=f"example:\n  {example}",
                              formatter_class=argparse.RawDescriptionHelpFormatter)

    c = action("create", "create a competition (a half season, a series of team nights, ...)",
               'tablesense league create "Najaar 2026" --season 2026-2027 --db club.db')
    c.add_argument("name", help="the competition's name, as the other actions name it")
    c.add_argument("--game", default="carom", choices=GAMES, help="the game played (default carom)")
    c.add_argument("--season", default="", help="the season, e.g. 2026-2027")
    c.add_argument("--half", choices=HALVES,
                   help="which half of the season (carom: default najaar; golf, keglebillard: none unless "
                        "given)")
    c.add_argument("--discipline", default="libre", choices=DISCIPLINES,
                   help="the carom discipline played (default libre)")
    c.add_argument("--profile", default="club", metavar="ID",
                   help="carom: the club's rule profile, kampioen (alias club) or liemers (default club)")
    c.add_argument("--scheme", metavar="NAME|FILE",
                   help="what a match gives, how a tie is decided: a built-in scheme ("
                        + ", ".join(BUILTIN) + ") or a TOML/JSON file (docs/league.md); default: "
                        "de-bruijn, golf-frames, kegle-handicap")
    c.add_argument("--points", choices=SCHEMES, help="carom: the same as --scheme with a built-in name")
    c.add_argument("--after", metavar="COMP",
                   help="the half before: its players, with the moyennes it gave them")

    lst = action("list", "list the competitions", "tablesense league list --db club.db")

    sh = action("show", "the competition: its game, scheme, players, teams and schedule",
                'tablesense league show "Najaar 2026" --db club.db')
    sh.add_argument("competition", help="the competition's name")
    sh.add_argument("--json", action="store_true", help="one JSON object")

    a = action("add-player", "add a player (or a golf duo) before the first result",
               'tablesense league add-player "Najaar 2026" Ann --moyenne 1.2 --db club.db')
    a.add_argument("competition", help="the competition's name")
    a.add_argument("name", help="the player's name (a duo: the duo's name)")
    a.add_argument("--moyenne", "--average", dest="moyenne", type=float, metavar="X",
                   help="his strength: carom, his moyenne (caroms per inning); keglebillard, his series "
                        "average (points per series, the distance follows from it)")
    a.add_argument("--group", default="", metavar="G", help="his group: the A or B series of the competition")
    a.add_argument("--members", nargs=2, metavar=("P1", "P2"), help="golf: the duo's two players")
    a.add_argument("--team", default="", metavar="TEAM", help="the team he plays for (league add-team)")

    tm = action("add-team", "add a team and its home pub (a team competition's nights are played there)",
                'tablesense league add-team "Visite 2026" "De Kroeg 1" --pub kroeg --db league.db')
    tm.add_argument("competition", help="the competition's name")
    tm.add_argument("name", help="the team's name")
    tm.add_argument("--pub", required=True, metavar="PUB", help="its home pub (the pub's name in the league)")
    tm.add_argument("--group", default="", metavar="G", help="its group (A, B ...)")

    r = action("add-result", "enter a played match; P1 broke (carom: the yellow ball)",
               'tablesense league add-result "Najaar 2026" Ann Bob --caroms 30 20 --innings 25 --db club.db')
    r.add_argument("competition", help="the competition's name")
    r.add_argument("p1", help="the player who broke (carom: yellow ball; golf: opened frame 1)")
    r.add_argument("p2", help="his opponent")
    r.add_argument("--caroms", type=int, nargs=2, metavar=("P1", "P2"), help="carom: caroms each player made")
    r.add_argument("--innings", type=int, nargs="+", metavar="N",
                   help="carom: innings (one number, or one per player)")
    r.add_argument("--targets", type=int, nargs=2, metavar=("P1", "P2"),
                   help="carom: targets (default: moyenne x 25, at least 20; kampioen: at least 20, "
                        "003 Art. 11.5)")
    r.add_argument("--high-run", type=int, nargs=2, default=(0, 0), metavar=("P1", "P2"),
                   help="carom: each player's highest run (default 0 0)")
    r.add_argument("--frames", type=int, nargs=2, metavar=("P1", "P2"), help="golf: frames each won (2-1)")
    r.add_argument("--balls", type=int, nargs=2, metavar=("P1", "P2"),
                   help="golf: balls each scored over the frames (default five a frame won)")
    r.add_argument("--scored", type=int, nargs=2, metavar=("P1", "P2"),
                   help="keglebillard: points each scored")
    r.add_argument("--series", type=int, metavar="N", help="keglebillard: the series each played")
    r.add_argument("--highest", type=int, nargs=2, metavar=("P1", "P2"),
                   help="keglebillard: each player's highest series")
    r.add_argument("--night", type=int, metavar="FIXTURE",
                   help="team competition: the night it was played for")
    r.add_argument("--barrage", action="store_true",
                   help="the match deciding a tie at the top (barrage, deciding game, shoot-out)")
    r.add_argument("--visitor", metavar="NAME", help="the visiting player (liemers: he breaks, so he is P1)")

    i = action("import", "take results from stored match logs (JSONL files, or the pub's log)",
               'tablesense league import "Najaar 2026" examples/club/1-ann-bob.jsonl --db club.db')
    i.add_argument("competition", help="the competition's name")
    i.add_argument("logs", nargs="*", metavar="LOG", help="match logs as JSONL files")
    i.add_argument("--store", metavar="DB", help="the pub's match log (tablesense run --db)")
    i.add_argument("--match", type=int, action="append", default=[], metavar="ID",
                   help="a match id in --store (repeat for more)")
    i.add_argument("--night", type=int, metavar="FIXTURE",
                   help="team competition: the night they were played for")
    i.add_argument("--barrage", action="store_true",
                   help="the matches decide a tie at the top (barrage, deciding game, shoot-out)")

    sc = action("schedule", "make the season's round-robin (home and away) with dates, or show it",
                'tablesense league schedule "Najaar 2026" --start 2026-09-21 --every 7 --db club.db')
    sc.add_argument("competition", help="the competition's name")
    sc.add_argument("--start", metavar="YYYY-MM-DD", help="the first round's date (makes the schedule)")
    sc.add_argument("--every", type=int, default=None, metavar="DAYS",
                    help="with --start: days between rounds (default 7)")
    sc.add_argument("--once", action="store_true",
                    help="with --start: a single round-robin (no return matches)")
    sc.add_argument("--replace", action="store_true",
                    help="with --start: make it anew though one exists (none played yet)")
    sc.add_argument("--json", action="store_true", help="one JSON object")

    subs = [c, lst, sh, a, tm, r, i, sc]
    for name, text in (("standings", "standings by the competition's scheme (teams: their nights too)"),
                       ("moyennes", "carom: each player's new moyenne and next target; keglebillard: the "
                                    "new series average and next distance")):
        st = action(name, text, f'tablesense league {name} "Najaar 2026" --db club.db')
        st.add_argument("competition", help="the competition's name")
        st.add_argument("--json", action="store_true", help="one JSON object instead of a table")
        subs.append(st)
    subs += league_commands.add_actions(action)
    also_after_action(p, subs, "--db")


def run(args: argparse.Namespace) -> int:
    if args.action is None:
        actions = ", ".join((*_ACTIONS, *league_commands.ACTIONS))
        print(f"tablesense league: say what to do: {actions} (see tablesense league --help)", file=sys.stderr)
        return 2
    if args.action in league_commands.ACTIONS:
        return league_commands.run(args)
    if not need(args.db, "tablesense league", "the competition database with --db FILE"):
        return 2
    if args.action != "create" and not Path(args.db).exists():  # only create makes the file
        print(f"tablesense league: {args.db} does not exist (tablesense league create NAME --db {args.db} "
              "makes it)", file=sys.stderr)
        return 2
    fresh = args.action == "create" and not Path(args.db).exists()
    code = 1
    try:
        with LeagueStore(args.db) as store:
            code = _ACTIONS[args.action](store, args)
            return code
    except (TablesenseError, NotACompetitionMatch) as exc:
        print(f"tablesense league: {exc}", file=sys.stderr)
        return 1
    finally:
        if fresh and code != 0:  # a create refused leaves no empty database behind
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(args.db + suffix).unlink(missing_ok=True)


# --- competitions -------------------------------------------------------------------------------

def _create(store: LeagueStore, args: argparse.Namespace) -> int:
    before = store.competition(args.after) if args.after else None
    if args.points and args.scheme:
        print("tablesense league: --points and --scheme say the same; give one", file=sys.stderr)
        return 1
    if args.points and not part.of(args.game).DISCIPLINES:
        print(f"tablesense league: --points is carom's; a {args.game} competition takes --scheme",
              file=sys.stderr)
        return 1
    named = args.scheme or args.points
    if named is None and before is not None:
        scheme = before.record
    else:
        try:
            scheme = resolve(named, args.game)
        except SchemeError as exc:
            print(f"tablesense league: {exc}", file=sys.stderr)
            return 1
    comp = store.create(args.name, args.season, args.half, args.discipline, args.profile, scheme, args.game)
    if before is not None:  # the next half starts from the last half's moyennes
        for p in next_half_players(store.players(before), store.results(before), before.game):
            store.add_player(comp, p.name, p.moyenne, p.group, p.members)
    if part.of(comp.game).DISCIPLINES:
        print(f"created {comp.name}: {comp.half} {comp.season} {comp.discipline}, profile {comp.profile}, "
              f"{comp.scheme} points".replace("  ", " "))
    else:
        print(f"created {comp.name}: {_when(comp)}scheme {comp.scheme}")
    if before is not None:
        print(f"{len(store.players(comp))} players from {before.name}, with the moyennes it gave them")
    return 0


def _when(comp: Competition) -> str:
    """"najaar 2026-2027, " as the titles say it (a half without a season: "najaar, "; golf and
    keglebillard have a half only when it was asked for: the season, if any)."""
    when = f"{comp.half} {comp.season}".strip()
    return f"{when}, " if when else ""


def _list(store: LeagueStore, args: argparse.Namespace) -> int:
    for comp in store.competitions():
        n = len(store.players(comp))
        kind = f"{comp.discipline}\t{comp.profile}" if part.of(comp.game).DISCIPLINES else \
            f"{comp.game}\t{comp.scheme}"
        print(f"{comp.name}\t{f'{comp.half} {comp.season}'.strip()}\t{kind}\t{n} players")
    return 0


def _show(store: LeagueStore, args: argparse.Namespace) -> int:
    comp = store.competition(args.competition)
    players, teams, fixtures = store.players(comp), store.teams(comp), store.fixtures(comp)
    if args.json:
        print(json.dumps({"competition": comp.name, "game": comp.game, "season": comp.season,
                          "half": comp.half or None, "discipline": comp.discipline or None,
                          "profile": comp.profile or None,
                          "scheme": comp.record.to_dict(),
                          "players": [{"name": p.name, "strength": p.moyenne, "group": p.group,
                                       "members": list(p.members), "team": p.team} for p in players],
                          "teams": [{"name": t.name, "pub": t.pub, "group": t.group} for t in teams],
                          "fixtures": len(fixtures)}))
        return 0
    what = f"{comp.discipline}, profile {comp.profile}" if part.of(comp.game).DISCIPLINES else comp.game
    print(f"{comp.name} ({_when(comp)}{what})")
    for line in comp.record.lines():
        print(f"  {line}")
    for t in teams:
        names = [p.name for p in players if p.team == t.name]
        print(f"team {t.name} (home: {t.pub}{', group ' + t.group if t.group else ''}): {', '.join(names)}")
    for p in players:
        if p.team:
            continue
        strength = part.of(comp.game).strength(comp.record, p)
        print(f"player {members_text(p)}{strength}{', group ' + p.group if p.group else ''}")
    if fixtures:
        print(f"schedule: {len(fixtures)} fixtures, {fixtures[0].date} to {fixtures[-1].date} "
              "(tablesense league schedule shows them)")
    return 0


# --- entrants ------------------------------------------------------------------------------------

def _add_player(store: LeagueStore, args: argparse.Namespace) -> int:
    comp = store.competition(args.competition)
    own = part.of(comp.game)
    what = own.needs_strength(comp.record)
    if args.moyenne is None and what is not None:
        print(f"tablesense league: a player of {comp.name} needs {what}", file=sys.stderr)
        return 1
    p = store.add_player(comp, args.name, args.moyenne or 0.0, args.group, tuple(args.members or ()),
                         args.team)
    where = (f" for {p.team}" if p.team else "") + (f" in group {p.group}" if p.group else "")
    print(own.joins(comp.record, p, comp.name, where))
    return 0


def _add_team(store: LeagueStore, args: argparse.Namespace) -> int:
    comp = store.competition(args.competition)
    t = store.add_team(comp, args.name, args.pub, args.group)
    print(f"{t.name} joins {comp.name}, at home in {t.pub}" + (f", group {t.group}" if t.group else ""))
    return 0


# --- results -------------------------------------------------------------------------------------

def _members(store: LeagueStore, comp: Competition) -> Members:
    players = store.players(comp)
    teams = {t.name: t for t in store.teams(comp)}
    return Members(comp, frozenset(p.name for p in players), {}, {p.name: p for p in players}, teams,
                   tuple(store.fixtures(comp)))


def _add_result(store: LeagueStore, args: argparse.Namespace) -> int:
    comp = store.competition(args.competition)
    p1, p2 = store.player(comp, args.p1), store.player(comp, args.p2)
    scheme = comp.record
    own = part.of(comp.game)
    others = dict.fromkeys(k for g in part.names() for k in part.of(g).ENTRY if k not in own.ENTRY)
    wrong = [f"--{k}" for k in others if getattr(args, k)]
    if wrong:
        print(f"tablesense league: {', '.join(wrong)} is not for a {comp.game} match", file=sys.stderr)
        return 1
    result = own.by_hand(args, comp, p1, p2)
    check_entry(comp.profile, scheme, result, p1, p2)
    m = _members(store, comp)
    if m.teams and not args.barrage:
        _needs_night(comp, args.night)
        result = replace(result, fixture=team_night(m, p1, p2, None, None, args.night))
    store.add_result(comp, result)
    print(_result_line(result))
    return 0


def _needs_night(comp: Competition, night: int | None) -> None:
    if night is None:
        raise IllegalCall(f"{comp.name} is played in team nights: say which with --night FIXTURE "
                          "(tablesense league schedule lists them)")


def _import(store: LeagueStore, args: argparse.Namespace) -> int:
    comp = store.competition(args.competition)
    if bool(args.store) != bool(args.match):
        print("tablesense league: --store and --match go together", file=sys.stderr)
        return 1
    if not args.logs and not args.match:
        print("tablesense league: import needs match logs (files, or --store DB --match ID)", file=sys.stderr)
        return 1
    from .replay import is_edges_file

    sources: list[tuple[str, list[str]]] = []
    for path in args.logs:
        lines = _read_log(path)
        if isinstance(lines, tuple):
            print(f"tablesense league: {lines[1]}", file=sys.stderr)
            return lines[0]
        if is_edges_file(iter(lines)):  # said as replay and sheet say it
            print(f"tablesense league: {path} is an edges file (sensor edges for the firmware, not a match "
                  f"log): play it with tablesense sim {path}", file=sys.stderr)
            return 2
        sources.append((path, lines))
    for match_id in args.match:
        sources.append((f"{args.store}#{match_id}", lines_from_store(args.store, match_id)))
    m = _members(store, comp)
    if m.teams and not args.barrage:
        _needs_night(comp, args.night)
    results = []
    seen: dict[str, str] = {}
    for where, lines in sources:  # every log checked before any result is entered
        try:
            match = replay_match(lines)
            why = fits(comp, match.game, discipline_of(match))
            if why is not None:
                raise NotACompetitionMatch(why)
            e1, e2 = (m.entrant("", match.players.get(side)) for side in ("p1", "p2"))
            for side, e in (("p1", e1), ("p2", e2)):
                if e is None:
                    raise NotACompetitionMatch(f"{side_name(match.players.get(side))!r} is not a player of "
                                               f"{comp.name}")
            assert e1 is not None and e2 is not None
            result = enter(m, match, e1, e2, where, fixture=args.night, barrage=args.barrage)
            had = seen.get(match.digest) or store.digest_source(match.digest)
            if had is not None:
                raise NotACompetitionMatch(f"the same match as {had}, entered already: one log counts once")
        except (NotACompetitionMatch, IllegalCall) as exc:
            print(f"tablesense league: {where}: {exc}", file=sys.stderr)
            return 1
        seen[match.digest] = where
        results.append((result, match.digest))
    for result, digest in results:
        store.add_result(comp, result, digest)
        print(_result_line(result))
    return 0


def _read_log(path: str) -> list[str] | tuple[int, str]:
    """A match log's lines, or the exit status and why it is not read (one line): 2 for a file
    that cannot be read or is empty (docs/cli.md), 1 for one far longer than any match log,
    which is not read whole: the first line too many is enough to say so."""
    lines: list[str] = []
    try:
        with open(path, encoding="utf-8") as fh:
            while True:
                text = fh.readline(MAX_LINE_CHARS + 2)
                if not text:
                    break
                if len(text) > MAX_LINE_CHARS + 1:
                    return 1, (f"{path}: line {len(lines) + 1} is longer than {MAX_LINE_CHARS:,} characters: "
                               "no event line is")
                lines.append(text.rstrip("\r\n"))
                if len(lines) > MAX_LOG_LINES:
                    return 1, f"{path}: more than {MAX_LOG_LINES:,} lines: no match log is this long"
    except OSError as exc:
        return 2, f"cannot read {path}: {exc.strerror}"
    except UnicodeDecodeError:
        return 2, f"cannot read {path}: it is not UTF-8 text (a match log is JSON Lines)"
    if not any(text.strip() for text in lines):
        return 2, f"{path} is empty: a match log has one event per line"
    return lines


# --- the schedule --------------------------------------------------------------------------------

def _schedule(store: LeagueStore, args: argparse.Namespace) -> int:
    comp = store.competition(args.competition)
    teams, players = store.teams(comp), store.players(comp)
    making = [o for o, given in (("--every", args.every is not None), ("--once", args.once),
                                 ("--replace", args.replace)) if given]
    if making and args.start is None:  # not left unsaid while the schedule is only shown
        print(f"tablesense league: {' '.join(making)} goes with --start YYYY-MM-DD (making the schedule)",
              file=sys.stderr)
        return 2
    every = 7 if args.every is None else args.every
    if args.start is not None:
        try:
            start = dt.date.fromisoformat(args.start)
        except ValueError:
            print(f"tablesense league: --start is a date YYYY-MM-DD, not {args.start!r}", file=sys.stderr)
            return 1
        if not 1 <= every <= 365:
            print(f"tablesense league: --every is 1 to 365 days, not {every}", file=sys.stderr)
            return 1
        had = store.fixtures(comp)
        if had and not args.replace:
            print(f"tablesense league: {comp.name} has a schedule already ({len(had)} fixtures); --replace "
                  "makes a new one", file=sys.stderr)
            return 1
        data = report(comp, players, _results(store, comp), teams, had, "0000-00-00")
        if had and data["schedule"]["played"]:
            print(f"tablesense league: {comp.name}'s schedule has played fixtures; it is not made anew",
                  file=sys.stderr)
            return 1
        groups: dict[str, list[str]] = {}
        entrants = [(t.name, t.group) for t in teams] if teams else [(p.name, p.group) for p in players]
        for name, group in entrants:
            groups.setdefault(group, []).append(name)
        if not any(len(v) > 1 for v in groups.values()):
            print(f"tablesense league: {comp.name} has fewer than two {'teams' if teams else 'players'} to "
                  "schedule", file=sys.stderr)
            return 1
        store.set_schedule(comp, schedule(groups, start, every, not args.once))
    fixtures = store.fixtures(comp)
    data = report(comp, players, _results(store, comp), teams, fixtures, dt.date.today().isoformat())
    if args.json:
        print(json.dumps({"competition": comp.name, "fixtures": [_fixture_dict(f, teams) for f in fixtures],
                          **{k: [x["fixture"] for x in v] for k, v in data["schedule"].items()}}))
        return 0
    if not fixtures:
        print(f"{comp.name} has no schedule (tablesense league schedule COMP --start YYYY-MM-DD makes it)")
        return 0
    status = {x["fixture"]: k for k in ("played", "next", "overdue") for x in data["schedule"][k]}
    pubs = {t.name: t.pub for t in teams}
    # the fixture (a team competition's night: ``--night FIXTURE``), ..., the home team's pub
    # (a team competition's: a club's players play at the club), played / next / overdue
    table: list[tuple[Any, ...]] = [("night" if teams else "#", "round", "date", "group", "home", "away",
                                     *(("pub",) if teams else ()), "status")]
    for f in fixtures:
        table.append((f.id, f.round, f.date, f.group or "-", f.home, f.away,
                      *((pubs.get(f.home, "-"),) if teams else ()), status.get(f.id, "")))
    _print_table(table)
    return 0


def _fixture_dict(f: Fixture, teams: list[Any]) -> dict[str, Any]:
    pubs = {t.name: t.pub for t in teams}
    return {"fixture": f.id, "round": f.round, "date": f.date, "group": f.group, "home": f.home,
            "away": f.away, "pub": pubs.get(f.home)}


def _results(store: LeagueStore, comp: Competition) -> list[tuple[int, Any]]:
    rows = store.db.execute("SELECT id, data FROM results WHERE competition_id=? ORDER BY id", (comp.id,))
    return [(rid, _result_from(json.loads(d))) for rid, d in rows]


# --- standings -------------------------------------------------------------------------------------

def _standings(store: LeagueStore, args: argparse.Namespace) -> int:
    comp = store.competition(args.competition)
    data = report(comp, store.players(comp), _results(store, comp), store.teams(comp), store.fixtures(comp),
                  dt.date.today().isoformat())
    if args.json:
        data.pop("schedule", None)
        print(json.dumps(data))
        return 0
    own = part.of(comp.game)
    what = (f"{comp.discipline}, {comp.scheme} points" if own.DISCIPLINES else
            f"{comp.game}, scheme {comp.scheme}")
    print(f"{comp.name} ({_when(comp)}{what})")
    decider = comp.record.decider
    schedule = data.get("schedule") or {}
    to_play = sum(len(schedule.get(k, [])) for k in ("overdue", "next", "later"))  # not the winner yet
    for g in data["groups"]:
        if g["group"]:
            print(f"group {g['group']}")
        head = ("#", "player", *(h for h, _ in own.COLUMNS))
        table: list[tuple[Any, ...]] = [head]
        for n, row in enumerate(g["standings"], 1):
            cells = []
            for _, key in own.COLUMNS:
                v = row[key]
                cells.append(f"{v:.{own.AVERAGE_DECIMALS}f}" if key == "average" else v)
            table.append((n, row["name"], *cells))
        _print_table(table)
        if g["winner"] and to_play:
            print(f"leader: {g['winner']} ({to_play} scheduled matches still to play)")
        elif g["winner"]:
            print(f"winner: {g['winner']}")
        elif g["decider"] and decider:
            print(f"level at the top: a {decider} match decides between {' and '.join(g['decider'])}")
        elif g["decider"]:
            print(f"level at the top: {' and '.join(g['decider'])} share the title")
    if "teams" in data:
        print("teams")
        table = [("#", "team", "home", "nights", "won", "drawn", "lost", "team points", "points", "against")]
        for n, t in enumerate(data["teams"], 1):
            table.append((n, t["name"], t["pub"], t["played"], t["won"], t["drawn"], t["lost"],
                          t["team_points"], t["points_for"], t["points_against"]))
        _print_table(table)
    return 0


def _moyennes(store: LeagueStore, args: argparse.Namespace) -> int:
    comp = store.competition(args.competition)
    own = part.of(comp.game)
    if own.STRENGTH is None:
        print(f"tablesense league: {comp.name} is {comp.game}: a {comp.game} player has no moyenne or "
              "distance", file=sys.stderr)
        return 1
    key, word, then = own.STRENGTH  # ("moyennes", "moyenne", "target"): carom
    rows = own.new_strengths(comp.record, store.players(comp), store.results(comp))
    if args.json:
        print(json.dumps({"competition": comp.name, key: rows}))
        return 0
    table: list[tuple[Any, ...]] = [("player", f"old {word}", f"new {word}", f"next {then}")]
    places = own.AVERAGE_DECIMALS
    table += [(r["name"], f"{r['old']:.{places}f}", f"{r['new']:.{places}f}", r[then]) for r in rows]
    _print_table(table)
    return 0


def _result_line(r: Any) -> str:
    who = {"p1": f"{r.p1} wins", "p2": f"{r.p2} wins", "draw": "a draw"}[r.winner]
    kind = "barrage " if r.barrage else ""
    night = f" (night {r.fixture})" if r.fixture is not None else ""
    line: str = part.of(r.game).result_line(r, kind, who, night)
    return line


def _print_table(rows: list[tuple[Any, ...]]) -> None:
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(str(v).ljust(w) if isinstance(v, str) and not v[:1].isdigit() else str(v).rjust(w)
                        for v, w in zip(row, widths)).rstrip())


_ACTIONS = {"create": _create, "list": _list, "show": _show, "add-player": _add_player, "add-team": _add_team,
            "add-result": _add_result, "import": _import, "schedule": _schedule, "standings": _standings,
            "moyennes": _moyennes}
