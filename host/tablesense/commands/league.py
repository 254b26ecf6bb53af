"""``tablesense league --db FILE ACTION ...``: the club competition (docs/league.md).

Actions: ``create``, ``list``, ``add-player``, ``add-result``, ``import`` (stored match
logs), ``standings`` and ``moyennes``. Every mistake is one line on stderr and exit
status 1, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import IllegalCall, TablesenseError
from ..league import (
    LeagueStore,
    NotACompetitionMatch,
    check_minimum,
    check_visitor_breaks,
    lines_from_store,
    make_result,
    new_moyennes,
    result_from_lines,
    standings,
    winner,
)
from ..league.store import DISCIPLINES, HALVES
from ..rules.carom_targets import SCHEMES


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", required=True, help="the competition database (SQLite; created if missing)")
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    c = sub.add_parser("create", help="create a competition (one half season)")
    c.add_argument("name")
    c.add_argument("--season", default="", help="e.g. 2026-2027")
    c.add_argument("--half", default="najaar", choices=HALVES)
    c.add_argument("--discipline", default="libre", choices=DISCIPLINES)
    c.add_argument("--profile", default="club", help="kampioen (alias club) or liemers")
    c.add_argument("--points", default="de-bruijn", choices=SCHEMES, help="match-point scheme")

    sub.add_parser("list", help="list the competitions")

    a = sub.add_parser("add-player", help="add a player with his moyenne (before the first result)")
    a.add_argument("competition")
    a.add_argument("name")
    a.add_argument("--moyenne", type=float, required=True)

    r = sub.add_parser("add-result", help="enter a played match; P1 broke with the yellow ball")
    r.add_argument("competition")
    r.add_argument("p1")
    r.add_argument("p2")
    r.add_argument("--caroms", type=int, nargs=2, required=True, metavar=("P1", "P2"))
    r.add_argument("--innings", type=int, nargs="+", required=True, metavar="N",
                   help="innings (one number, or one per player)")
    r.add_argument("--targets", type=int, nargs=2, metavar=("P1", "P2"),
                   help="targets (default: moyenne x 25, at least 20; kampioen: at least 20, "
                        "003 Art. 11.5)")
    r.add_argument("--high-run", type=int, nargs=2, default=(0, 0), metavar=("P1", "P2"))
    r.add_argument("--barrage", action="store_true", help="a barrage match deciding a tie")
    r.add_argument("--visitor", help="the visiting player (liemers: he breaks, so he is P1)")

    i = sub.add_parser("import", help="take results from stored match logs (JSONL files, or the pub's log)")
    i.add_argument("competition")
    i.add_argument("logs", nargs="*", metavar="LOG", help="match logs as JSONL files")
    i.add_argument("--store", metavar="DB", help="the pub's match log (tablesense run --db)")
    i.add_argument("--match", type=int, action="append", default=[], metavar="ID",
                   help="a match id in --store (repeat for more)")
    i.add_argument("--barrage", action="store_true")

    for name, text in (("standings", "standings by match points"), ("moyennes", "new moyennes")):
        s = sub.add_parser(name, help=text)
        s.add_argument("competition")
        s.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> int:
    try:
        with LeagueStore(args.db) as store:
            return _ACTIONS[args.action](store, args)
    except (TablesenseError, NotACompetitionMatch) as exc:
        print(f"tablesense league: {exc}", file=sys.stderr)
        return 1


def _create(store: LeagueStore, args: argparse.Namespace) -> int:
    comp = store.create(args.name, args.season, args.half, args.discipline, args.profile, args.points)
    print(f"created {comp.name}: {comp.half} {comp.season} {comp.discipline}, profile {comp.profile}, "
          f"{comp.scheme} points".replace("  ", " "))
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
        try:
            with open(path, encoding="utf-8") as fh:
                sources.append((path, fh.read().splitlines()))
        except OSError as exc:
            print(f"tablesense league: cannot read {path}: {exc.strerror}", file=sys.stderr)
            return 1
    for match_id in args.match:
        sources.append((f"{args.store}#{match_id}", lines_from_store(args.store, match_id)))
    results = []
    for where, lines in sources:  # every log checked before any result is entered
        try:
            result = result_from_lines(lines, source=where, barrage=args.barrage)
            check_minimum(comp.profile, result.p1, result.p2, result.targets)
        except (NotACompetitionMatch, IllegalCall) as exc:
            print(f"tablesense league: {where}: {exc}", file=sys.stderr)
            return 1
        results.append(result)
    for result in results:
        store.add_result(comp, result)
        print(_result_line(result))
    return 0


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
