"""A golf shot and the referee's call on the line after its rest (a foul, an undo, any call), taken
by a replay in one step (``GolfEngine.whole_called``, found by ``Replay._feed_chunk`` from the batch's
kinds: ``replay._after_rests``), leave the same match as the two lines taken apart: the same state,
errors, rulings and count after every recorded golf match, logged each way test_replay_fast_paths.py
logs it and with undos after calls, and after made-up logs (hypothesis: shots of one or two events,
calls of every kind by their names, names of no call, calls before the rest's time, blank lines,
lines that do not decode, a match of another game after the golf one)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import MATCHES
from test_replay_fast_paths import ways

from tablesense.replay import Replay, _after_rests, history_for
from tablesense.rules.golf.engine import GolfEngine

LOGS = sorted((MATCHES / "golf").glob("*.jsonl"))
#: a state's links to older states
LINKS = {"checkpoint": None, "before": None}


def replayed(lines: list[str], history: int | str | None = "as undone") -> tuple[Any, ...]:
    """The replay's end (``history``: a bounded one as deep as the log's undos, or None: played)."""
    if history == "as undone":
        history = history_for(sum('"undo"' in line for line in lines))
    rep = Replay(history=history)  # type: ignore[arg-type]
    rep.feed_lines(lines)
    state = rep.state
    bare = None if state is None else msgspec.structs.replace(state, **LINKS)  # type: ignore[type-var]
    return bare, rep.errors, rep.to_json(), rep.events


def undone(lines: list[str], times: int) -> list[str]:
    """The log with ``times`` undos after every third referee's call (lines that do not decode kept)."""
    out: list[str] = []
    calls = 0
    for line in lines:
        out.append(line)
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict) and obj.get("type") == "call" and obj.get("call") != "undo":
            calls += 1
            if calls % 3 == 0:
                out += [json.dumps({"t": obj.get("t"), "type": "call", "call": "undo"})] * times
    return out


def logged(lines: list[str]) -> list[tuple[str, list[str]]]:
    return [*ways(lines), ("an undo after every third call", undone(lines, 1)),
            ("two undos after every third call", undone(lines, 2))]


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_a_golf_shot_and_the_call_after_its_rest_in_one_step_leave_the_match_they_leave_apart(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    logs = logged(path.read_text(encoding="utf-8").splitlines())
    fast = {way: replayed(log) for way, log in logs}
    monkeypatch.setattr(GolfEngine, "takes_called", False)
    for way, log in logs:
        assert replayed(log) == fast[way], f"{way}: the shot and its call in one step end elsewhere"


def test_the_recorded_golf_matches_take_shots_and_their_calls_in_one_step(
        monkeypatch: pytest.MonkeyPatch) -> None:
    taken = []
    step = GolfEngine.whole_called

    def counted(self: GolfEngine, *args: Any) -> Any:
        new = step(self, *args)
        taken.append(new is not None)
        return new

    monkeypatch.setattr(GolfEngine, "whole_called", counted)
    for path in LOGS:
        for _, log in logged(path.read_text(encoding="utf-8").splitlines()):
            replayed(log)
    assert sum(taken) > 100


def test_a_played_golf_match_takes_its_shot_and_call_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*args: Any) -> Any:
        raise AssertionError("a played match took golf's shot and call in one step")

    for path in LOGS[:6]:
        lines = path.read_text(encoding="utf-8").splitlines()
        fast = replayed(lines, None)
        monkeypatch.setattr(GolfEngine, "whole_called_played", refused)
        monkeypatch.setattr(GolfEngine, "whole_called", refused)
        assert replayed(lines, None)[1:] == fast[1:]  # (a played state holds its own traces)
        monkeypatch.undo()


def test_the_rests_before_a_line_no_shot_takes_are_found_in_the_batch_kinds() -> None:
    assert _after_rests("srxsrsrrxx") == {1, 7}
    assert _after_rests("ssrsr") == frozenset()
    assert _after_rests("xrx") == {1}


CALLS = [
    {"call": "foul", "foul": "touch"}, {"call": "touch"}, {"call": "foul", "foul": "push"},
    {"call": "foul", "foul": "foot"}, {"call": "foul", "foul": "order"}, {"call": "foul", "foul": "own-goal"},
    {"call": "foul", "foul": "triangle"}, {"call": "foul", "foul": "held_back"},
    {"call": "foul", "foul": "jump"},
    {"call": "foul", "foul": "no-such-foul"}, {"call": "undo"}, {"call": "Undo"}, {"call": "time"},
    {"call": "spot", "spot": 2}, {"call": "spot", "ball": "p1", "spot": 3},
    {"call": "start", "player": "p2"},
    {"call": "answer", "question": "q1", "answer": "p2"}, {"call": "rail", "ball": "p1"},
    {"call": "edge", "ball": "p2"}, {"call": "off_table", "ball": "p2"},
    {"call": "carom"}, {"call": "nonsense"},
]
EVENTS = [
    {"type": "cushion", "cushion": 1, "ball": None}, {"type": "cushion", "cushion": 3, "ball": "p1"},
    {"type": "goal", "goal": "g2", "ball": "p1"}, {"type": "goal", "goal": "g1", "ball": "p2"},
    {"type": "goal", "goal": "g1", "ball": "p1"}, {"type": "off_table", "ball": "p2"},
    {"type": "off_table", "ball": "p1"},
]
#: a unit of a made-up log: a shot (its events, a rest) and maybe a call after it, or a line of its own
UNIT = st.one_of(
    st.tuples(st.just("shot"), st.lists(st.sampled_from(EVENTS), min_size=1, max_size=2),
              st.one_of(st.none(), st.sampled_from(CALLS)), st.sampled_from(["p1", "p2", None, None]),
              st.sampled_from([0.5, 0.5, 0.5, -0.5])),
    st.tuples(st.just("line"), st.sampled_from(["", "not json", '{"t": 1.0, "type": "rest"}',
                                                '{"t": 0.0, "type": "call", "call": "undo"}'])),
    st.tuples(st.just("call"), st.sampled_from(CALLS)),
)


def made_log(units: list[Any], other: bool) -> list[str]:
    out = [json.dumps({"t": 0.0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}})]
    t = 1.0
    for unit in units:
        if unit[0] == "line":
            out.append(unit[1])
            continue
        if unit[0] == "call":
            out.append(json.dumps({"t": t, "type": "call", **unit[1]}))
            t += 1.0
            continue
        _, events, call, player, late = unit
        for e in events:
            out.append(json.dumps({"t": t, **e}))
            t += 1.0
        out.append(json.dumps({"t": t, "type": "rest"}))
        if call is not None:
            named = {"player": player} if player is not None else {}
            out.append(json.dumps({"t": t + late, "type": "call", **call, **named}))
        t += 1.0
    if other:
        players = {"p1": "Ann", "p2": "Bob"}
        out.append(json.dumps({"t": t, "type": "setup", "game": "carom", "players": players}))
        out.append(json.dumps({"t": t + 1, "type": "cushion", "cushion": 1, "ball": "white"}))
        out.append(json.dumps({"t": t + 2, "type": "rest"}))
        out.append(json.dumps({"t": t + 2, "type": "call", "call": "carom"}))
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(UNIT, max_size=40), st.booleans(), st.sampled_from(["as undone", 0, 3, None]))
def test_made_up_golf_logs_end_the_same_with_the_shot_and_call_in_one_step_or_apart(
        units: list[Any], other: bool, history: int | str | None) -> None:
    lines = made_log(units, other)
    fast = replayed(lines, history)
    GolfEngine.takes_called = False
    try:
        slow = replayed(lines, history)
    finally:
        GolfEngine.takes_called = True
    if history is None:  # played: a state holds its own traces (its errors, rulings and count compared)
        fast, slow = fast[1:], slow[1:]
    assert fast == slow
