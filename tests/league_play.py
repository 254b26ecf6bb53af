"""Carom matches for the league tests, played into a real ``Pub`` (its SQLite match log),
and the standings worked out directly from the match logs for comparison.

No tests here.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from test_carom_helpers import Table, setup

from tablesense.events import parse_event
from tablesense.league import Player, result_from_lines, standings
from tablesense.pub import Pub

TARGET = 20
#: when the tests' matches start (epoch seconds, 2026-09-21): a league takes no match dated
#: before 2000 or after 2100
START = 1_790_000_000.0


def match_events(p1: str, p2: str, first: int, second: int,
                 equalising: int | None = None) -> list[dict[str, Any]]:
    """Two innings to 20 each: p1 makes ``first`` (< 20) then misses, p2 makes ``second`` (< 20)
    then misses; p1 completes his 20; p2's equalising inning makes ``equalising`` (default
    20 - ``second`` - 1) and misses."""
    t = Table(setup(targets={"p1": TARGET, "p2": TARGET}))
    t.events[0]["players"] = {"p1": p1, "p2": p2}
    t.run(first).piezo()
    t.run(second).piezo()
    t.run(TARGET - first)
    t.run(max(0, TARGET - second - 1) if equalising is None else equalising).piezo()
    return t.events


def play(pub: Pub, table: str, events: list[dict[str, Any]]) -> int:
    """Play a match on a pub's table as the referee and the sensors would; its match id."""
    pub.start_match(table, {k: v for k, v in events[0].items() if k not in ("t", "type")})
    for ev in events[1:]:  # a referee's call with the time of the table's clock it was made at
        pub.submit(table, parse_event(ev), source="referee" if ev["type"] == "call" else "table")
    match = pub.table(table).match
    assert match is not None and match.ended is not None, "the match did not finish"
    return match.id


def direct_standings(players: list[Player], logs: list[list[str]]) -> list[dict[str, Any]]:
    """The standings from the match logs themselves, through the rule engine."""
    return [r.to_dict() for r in standings(players, [result_from_lines(lines) for lines in logs])]


def lines_of(events: list[dict[str, Any]]) -> list[str]:
    return [json.dumps(e) for e in events]


def long_match_lines(p1: str, p2: str, lines: int, shot: int = 999) -> list[str]:
    """A finished match whose log is about ``lines`` lines long (a log as long as the league
    reads, and as slow to replay): it opens with innings in which both players miss, each
    shot running along the cushions ``shot`` times."""
    t = Table(setup(targets={"p1": TARGET, "p2": TARGET}))
    t.events[0]["players"] = {"p1": p1, "p2": p2}
    normal = len(match_events(p1, p2, 5, 7))
    for _ in range(max(0, lines - normal) // (2 * (shot + 1))):
        t.piezo(cushions=shot).piezo(cushions=shot)
    t.run(5).piezo()
    t.run(7).piezo()
    t.run(TARGET - 5)
    t.run(TARGET - 7 - 1).piezo()
    return [json.dumps(e, separators=(",", ":")) for e in t.events]


# --- golf and keglebillard ---------------------------------------------------------------------

def golf_events(p1: Any, p2: Any, frames: list[tuple[str, int]]) -> list[dict[str, Any]]:
    """A golf match (``p1``/``p2``: a name, or a duo's two names) of ``frames``: each the
    frame's winner ("p1"/"p2") and the balls the other scored in it (0-4). The seed's opening
    order (golf.frame.opening): p1 opens frame 1, p2 frame 2, p1 a deciding frame; in each
    frame the opener misses first if he wins it, the loser scores his balls and misses, the
    winner scores his five."""
    t = 1.0
    duo = isinstance(p1, list)
    events: list[dict[str, Any]] = [{"t": 0, "type": "setup", "game": "golf", "players": {"p1": p1, "p2": p2},
                                     **({"format": "duo"} if duo else {})}]

    def goals(player: str, n: int) -> None:
        nonlocal t
        goal = "B" if player == "p1" else "A"
        for _ in range(n):
            events.extend([{"t": t, "type": "goal", "goal": goal, "ball": player},
                           {"t": t + 1, "type": "rest"}])
            t += 2

    def miss() -> None:
        nonlocal t
        events.extend([{"t": t, "type": "cushion", "cushion": 2, "ball": None}, {"t": t + 1, "type": "rest"}])
        t += 2

    for k, (winner, other_balls) in enumerate(frames, start=1):
        opener = "p2" if k == 2 else "p1"
        loser = "p2" if winner == "p1" else "p1"
        if opener == winner:
            miss()
        goals(loser, other_balls)
        miss()
        goals(winner, 5)
        t += 10
    return events


def kegle_events(p1: str, p2: str, distances: tuple[int, int], per_series: tuple[int, int],
                 first: str = "p1") -> list[dict[str, Any]]:
    """A keglebillard match: each player's series make ``per_series`` points (pins, two each, at
    most five a shot; a miss ends the series) until his distance; the same number of series
    for both (kegle.same-series), ``first`` shooting first (a start call: kegle.lag)."""
    t = 0.0
    setup = {"t": 0, "type": "setup", "game": "kegle", "players": {"p1": p1, "p2": p2},
             "targets": {"p1": distances[0], "p2": distances[1]}}
    events: list[dict[str, Any]] = [setup]

    def ev(kind: str, **kw: Any) -> None:
        nonlocal t
        t = round(t + 0.25, 6)
        events.append({"t": t, "type": kind, **kw})

    if first != "p1":
        ev("call", call="start", player=first)
    order = [first, "p2" if first == "p1" else "p1"]
    points = {"p1": 0, "p2": 0}
    idx = {"p1": 0, "p2": 1}
    while True:
        for player in order:
            made = 0
            while made < per_series[idx[player]] and points[player] < distances[idx[player]]:
                pins = min(5, (per_series[idx[player]] - made + 1) // 2)
                t += 1.0
                ev("cushion", cushion=2, ball="red")
                for pin in range(1, pins + 1):
                    ev("pin", pin=pin, state="down")
                ev("rest")
                for pin in range(1, pins + 1):
                    ev("pin", pin=pin, state="up")
                made += 2 * pins
                points[player] += 2 * pins
            if points[player] < distances[idx[player]]:
                t += 1.0
                ev("cushion", cushion=1, ball="red")
                ev("rest")
        if any(points[p] >= distances[idx[p]] for p in points):
            return events


def game_lines(events: list[dict[str, Any]]) -> list[str]:
    return [json.dumps(e) for e in events]


def pub_logs(path: str) -> list[list[str]]:
    """Every match of a pub's SQLite match log, as its effective event lines (oldest first)."""
    from tablesense.store import Store, effective_lines

    store = Store(path)
    try:
        matches = reversed(store.matches(limit=1000))
        return [[e.line for e in effective_lines(store.events(m.id))] for m in matches]
    finally:
        store.close()


def direct_table(scheme: Any, players: list[Player], logs: list[list[str]]) -> list[dict[str, Any]]:
    """A competition's standings worked out from the match logs themselves: each replayed by the
    rule engine, read and scored under ``scheme`` (the moyennes of ``players`` for a bonus)."""
    from tablesense.league import games
    from tablesense.league.matchlog import replay_match

    by_name = {p.name: p for p in players}
    results = []
    for lines in logs:
        match = replay_match(lines)
        r = games.read(match, scheme)
        results.append(games.score(r, scheme, (by_name[r.p1], by_name[r.p2])))
    game = results[0].game if results else "carom"
    return [s.to_dict() for s in standings(players, results, scheme.order, game)]
