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
