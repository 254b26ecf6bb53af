"""``tablesense league ACTION ... --db FILE``: the club competition (docs/league.md).

Actions: ``create``, ``list``, ``add-player``, ``add-result``, ``import`` (stored match
logs), ``standings`` and ``moyennes``; ``--db`` goes before or after the action. Every
mistake is one line on stderr and exit status 1 (a log file that cannot be read: 2),
never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..command_line.options import add_db, also_after_action, need
from ..errors import IllegalCall, TablesenseError
from ..league import (
    LeagueStore,
    NotACompetitionMatch,
    check_minimum,
    check_visitor_breaks,
    lines_from_store,
    make_result,
    new_moyennes,
    standings,
    winner,
)
from ..league import commands as league_commands
from ..league.ingest import fits
from ..league.limits import MAX_LINE_CHARS, MAX_LOG_LINES
from ..league.matchlog import carom_result, replay_match
from ..league.season import next_half_players
from ..league.store import DISCIPLINES, HALVES
from ..rules.carom_targets import SCHEMES

EXAMPLES = """
tablesense league create "Najaar 2026" --season 2026-2027 --half najaar --discipline libre --db club.db
tablesense league add-player "Najaar 2026" Ann --moyenne 1.2 --db club.db
tablesense league add-result "Najaar 2026" Ann Bob --caroms 30 20 --innings 25 --db club.db
tablesense league standings "Najaar 2026" --db club.db
"""

ACTIONS = "create, list, add-player, add-result, import, standings or moyennes"


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_db(p, "the competition database (SQLite; created if missing); before or after the action")
    sub = p.add_subparsers(dest="action", metavar="ACTION", title="actions")

    def action(name: str, text: str, example: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=text, description=text[:1].upper() + text[1:] + ".",
                              epilog=f"example:\n  {example}",
                              formatter_class=argparse.RawDescriptionHelpFormatter)

    c = action("create", "create a competition (one half season)",
               'tablesense league create "Najaar 2026" --season 2026-2027 --db club.db')
    c.add_argument("name", help="the competition's name, as the other actions name it")
    c.add_argument("--season", default="", help="the season, e.g. 2026-2027")
    c.add_argument("--half", default="najaar", choices=HALVES,
                   help="which half of the season (default najaar)")
    c.add_argument("--discipline", default="libre", choices=DISCIPLINES,
                   help="the carom discipline played (default libre)")
    c.add_argument("--profile", default="club", metavar="ID",
                   help="the club's rule profile: kampioen (alias club) or liemers (default club)")
    c.add_argument("--points", default="de-bruijn", choices=SCHEMES,
                   help="match-point scheme (default de-bruijn)")
    c.add_argument("--after", metavar="COMP",
                   help="the half before: its players, with the moyennes it gave them")

    lst = action("list", "list the competitions", "tablesense league list --db club.db")

    a = action("add-player", "add a player with his moyenne (before the first result)",
               'tablesense league add-player "Najaar 2026" Ann --moyenne 1.2 --db club.db')
    a.add_argument("competition", help="the competition's name")
    a.add_argument("name", help="the player's name")
    a.add_argument("--moyenne", type=float, metavar="X", required=True,
                   help="his moyenne: caroms per inning at the start of the competition")

    r = action("add-result", "enter a played match; P1 broke with the yellow ball",
               'tablesense league add-result "Najaar 2026" Ann Bob --caroms 30 20 --innings 25 --db club.db')
    r.add_argument("competition", help="the competition's name")
    r.add_argument("p1", help="the player who broke (yellow ball)")
    r.add_argument("p2", help="his opponent")
    r.add_argument("--caroms", type=int, nargs=2, metavar=("P1", "P2"), required=True,
                   help="caroms each player made")
    r.add_argument("--innings", type=int, nargs="+", metavar="N", required=True,
                   help="innings (one number, or one per player)")
    r.add_argument("--targets", type=int, nargs=2, metavar=("P1", "P2"),
                   help="targets (default: moyenne x 25, at least 20; kampioen: at least 20, "
                        "003 Art. 11.5)")
    r.add_argument("--high-run", type=int, nargs=2, default=(0, 0), metavar=("P1", "P2"),
                   help="each player's highest run (default 0 0)")
    r.add_argument("--barrage", action="store_true", help="a barrage match deciding a tie")
    r.add_argument("--visitor", metavar="NAME", help="the visiting player (liemers: he breaks, so he is P1)")

    i = action("import", "take results from stored match logs (JSONL files, or the pub's log)",
               'tablesense league import "Najaar 2026" examples/club/1-ann-bob.jsonl --db club.db')
    i.add_argument("competition", help="the competition's name")
    i.add_argument("logs", nargs="*", metavar="LOG", help="match logs as JSONL files")
    i.add_argument("--store", metavar="DB", help="the pub's match log (tablesense run --db)")
    i.add_argument("--match", type=int, action="append", default=[], metavar="ID",
                   help="a match id in --store (repeat for more)")
    i.add_argument("--barrage", action="store_true", help="the matches are barrage matches deciding a tie")

    subs = [c, lst, a, r, i]
    for name, text in (("standings", "standings by match points"),
                       ("moyennes", "each player's new moyenne and next target")):
        st = action(name, text, f'tablesense league {name} "Najaar 2026" --db club.db')
        st.add_argument("competition", help="the competition's name")
        st.add_argument("--json", action="store_true", help="one JSON object instead of a table")
        subs.append(st)
    subs += league_commands.add_actions(action)
    also_after_action(p, subs, "--db")


def run(args: argparse.Namespace) -> int:
    if args.action is None:
        print(f"tablesense league: say what to do: {ACTIONS}", file=sys.stderr)
        return 2
    if args.action in league_commands.ACTIONS:
        return league_commands.run(args)
    if not need(args.db, "tablesense league", "the competition database with --db FILE"):
        return 2
    if args.action != "create" and not Path(args.db).exists():  # only create makes the file
        print(f"tablesense league: {args.db} does not exist (tablesense league create NAME --db {args.db} "
              "makes it)", file=sys.stderr)
        return 2
    try:
        with LeagueStore(args.db) as store:
            return _ACTIONS[args.action](store, args)
    except (TablesenseError, NotACompetitionMatch) as exc:
        print(f"tablesense league: {exc}", file=sys.stderr)
        return 1


def _create(store: LeagueStore, args: argparse.Namespace) -> int:
    before = store.competition(args.after) if args.after else None
    comp = store.create(args.name, args.season, args.half, args.discipline, args.profile, args.points)
    if before is not None:  # the next half starts from the last half's moyennes
        for p in next_half_players(store.players(before), store.results(before)):
            store.add_player(comp, p.name, p.moyenne)
    print(f"created {comp.name}: {comp.half} {comp.season} {comp.discipline}, profile {comp.profile}, "
          f"{comp.scheme} points".replace("  ", " "))
    if before is not None:
        print(f"{len(store.players(comp))} players from {before.name}, with the moyennes it gave them")
    return 0


def _list(store: LeagueStore, args: argparse.Namespace) -> int:
    for comp in store.competitions():
        n = len(store.players(comp))
        print(f"{comp.name}\t{comp.half} {comp.season}\t{comp.discipline}\t{comp.profile}\t{n} players")
    return 0


def _add_player(store: LeagueStore, args: argparse.Namespace) -> int:
    comp = store.competition(args.competition)
    p = store.add_player(comp, args.name, args.moyenne)
    print(f"{p.name} joins {comp.name} with moyenne {p.moyenne:.3f}")
    return 0


def _add_result(store: LeagueStore, args: argparse.Namespace) -> int:
    comp = store.competition(args.competition)
    if len(args.innings) > 2:
        print("tablesense league: --innings takes one number or two", file=sys.stderr)
        return 1
    innings = (args.innings[0], args.innings[-1])
    check_visitor_breaks(comp.profile, args.p1, args.p2, args.visitor)
    p1, p2 = store.player(comp, args.p1), store.player(comp, args.p2)
    targets = tuple(args.targets) if args.targets else None
    result = make_result(p1, p2, tuple(args.caroms), innings, targets, comp.scheme, tuple(args.high_run),
                         args.barrage, "entered", profile=comp.profile)
    store.add_result(comp, result)
    print(_result_line(result))
    return 0


def _import(store: LeagueStore, args: argparse.Namespace) -> int:
    comp = store.competition(args.competition)
    if bool(args.store) != bool(args.match):
        print("tablesense league: --store and --match go together", file=sys.stderr)
        return 1
    if not args.logs and not args.match:
        print("tablesense league: import needs match logs (files, or --store DB --match ID)", file=sys.stderr)
        return 1
    sources: list[tuple[str, list[str]]] = []
    for path in args.logs:
        lines = _read_log(path)
        if isinstance(lines, tuple):
            print(f"tablesense league: {lines[1]}", file=sys.stderr)
            return lines[0]
        sources.append((path, lines))
    for match_id in args.match:
        sources.append((f"{args.store}#{match_id}", lines_from_store(args.store, match_id)))
    results = []
    seen: dict[str, str] = {}
    for where, lines in sources:  # every log checked before any result is entered
        try:
            match = replay_match(lines)
            result = carom_result(match, source=where, barrage=args.barrage)
            why = fits(comp, match.game, match.discipline or "libre")
            if why is not None:
                raise NotACompetitionMatch(why)
            check_minimum(comp.profile, result.p1, result.p2, result.targets)
            had = seen.get(match.digest) or store.digest_source(match.digest)
            if had is not None:
                raise NotACompetitionMatch(f"the same match as {had}, entered already: one log counts once")
        except (NotACompetitionMatch, IllegalCall) as exc:
            print(f"tablesense league: {where}: {exc}", file=sys.stderr)
            return 1
        seen[match.digest] = where
        for name in (result.p1, result.p2):
            store.player(comp, name)
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


def _standings(store: LeagueStore, args: argparse.Namespace) -> int:
    comp = store.competition(args.competition)
    rows = standings(store.players(comp), store.results(comp))
    champ, barrage = winner(rows)
    if args.json:
        print(json.dumps({"competition": comp.name, "standings": [r.to_dict() for r in rows],
                          "winner": champ, "barrage": barrage}))
        return 0
    title = f"{comp.name} ({comp.half} {comp.season}, {comp.discipline}, {comp.scheme} points)"
    print(title.replace("  ", " "))
    head = ("#", "player", "played", "won", "drawn", "lost", "points", "caroms", "innings", "average",
            "high run")
    table: list[tuple[Any, ...]] = [head]
    for n, r in enumerate(rows, 1):
        table.append((n, r.name, r.played, r.won, r.drawn, r.lost, r.points, r.caroms, r.innings,
                      f"{r.average:.3f}", r.high_run))
    _print_table(table)
    if champ:
        print(f"winner: {champ}")
    elif barrage:
        print(f"level on points at the top: a barrage match decides between {' and '.join(barrage)}")
    return 0


def _moyennes(store: LeagueStore, args: argparse.Namespace) -> int:
    comp = store.competition(args.competition)
    rows = new_moyennes(store.players(comp), store.results(comp))
    if args.json:
        print(json.dumps({"competition": comp.name, "moyennes": [
            {"name": p.name, "old": p.moyenne, "new": new, "target": target} for p, new, target in rows]}))
        return 0
    table: list[tuple[Any, ...]] = [("player", "old moyenne", "new moyenne", "next target")]
    table += [(p.name, f"{p.moyenne:.3f}", f"{new:.3f}", target) for p, new, target in rows]
    _print_table(table)
    return 0


def _result_line(r: Any) -> str:
    who = {"p1": f"{r.p1} wins", "p2": f"{r.p2} wins", "draw": "a draw"}[r.winner]
    kind = "barrage " if r.barrage else ""
    return (f"{kind}{r.p1} {r.caroms[0]}/{r.targets[0]} - {r.p2} {r.caroms[1]}/{r.targets[1]} "
            f"in {r.innings[0]} innings: {who}; points {r.points[0]}-{r.points[1]}")


def _print_table(rows: list[tuple[Any, ...]]) -> None:
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(str(v).ljust(w) if isinstance(v, str) and not v[:1].isdigit() else str(v).rjust(w)
                        for v, w in zip(row, widths)).rstrip())


_ACTIONS = {"create": _create, "list": _list, "add-player": _add_player, "add-result": _add_result,
            "import": _import, "standings": _standings, "moyennes": _moyennes}
