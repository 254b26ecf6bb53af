"""A replay gathers a shot's events (``ShotEngine.admit``, ``gather``) instead of making a state
per event: whatever the log, the state it ends in, its errors and what an undo goes back to are
those of the same events applied one at a time (``Replay.feed_line``), for a live table
(``play``) and a whole log's replay (``apply``) alike."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import MATCHES

from tablesense.events import Call
from tablesense.replay import Replay, effective_lines
from tablesense.rules.shot_engine import KEEP_EVERY, RUN_FROM

LOGS = sorted(MATCHES.glob("*/*.jsonl"))


def _seen(rep: Replay) -> dict[str, Any]:
    """What a replay shows, and what it holds for the next event and for an undo."""
    out: dict[str, Any] = {"json": rep.to_json(), "events": rep.events}
    state, engine = rep.state, rep.engine
    if state is None or engine is None:
        return out
    out["shot"] = state.shot
    out["cut"] = state.cut
    out["in_shot"] = state.in_shot
    out["since"] = len(state.since)
    if state.checkpoint is not None:
        t = state.rulings[-1].t if len(state.rulings) else 0.0
        undone = engine.play(state, Call(t=t, call="undo"))
        out["undone"] = engine.to_json(undone)
        out["undone_shot"] = undone.shot
    return out


def _one_at_a_time(lines: list[str], history: int | None) -> Replay:
    rep = Replay(history=history)
    for n, text in effective_lines(lines):
        rep.feed_line(text, n)
    return rep


def _gathered(lines: list[str], history: int | None) -> Replay:
    rep = Replay(history=history)
    if history is None:
        return rep.feed_lines(lines)
    return rep.feed_counted(effective_lines(lines))


def _same(lines: list[str]) -> None:
    for history in (None, 10**6):
        assert _seen(_gathered(lines, history)) == _seen(_one_at_a_time(lines, history))


@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_recorded_match_ends_where_its_events_one_at_a_time_do(path: Path) -> None:
    _same(path.read_text(encoding="utf-8").splitlines())


SETUPS = {
    "golf": {"type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}},
    "kegle": {"type": "setup", "game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}},
    "carom": {"type": "setup", "game": "carom", "discipline": "libre", "players": {"p1": "Ann", "p2": "Bob"},
              "targets": {"p1": 1000, "p2": 1000}},
}
#: each game's events: a shot's, some its table refuses (a ball it has not, a sensor it has not),
#: the rest, the calls
EVENTS = {
    "golf": [{"type": "strike", "ball": "p1"}, {"type": "strike", "ball": "p2"},
             {"type": "contact", "balls": ["p1", "p2"]}, {"type": "goal", "goal": "B", "ball": "p1"},
             {"type": "goal", "goal": "A", "ball": "p2"}, {"type": "goal", "goal": "C", "ball": None},
             {"type": "off_table", "ball": "p2"}, {"type": "pin", "pin": 1, "state": "down"},
             {"type": "strike", "ball": "p3"}, {"type": "cushion", "cushion": 1}],
    "kegle": [{"type": "strike", "ball": "white"}, {"type": "cushion", "cushion": 2, "ball": "white"},
              {"type": "contact", "balls": ["white", "red"]}, {"type": "pin", "pin": 3, "state": "down"},
              {"type": "pin", "pin": 3, "state": "up"}, {"type": "pocket", "pocket": 2, "ball": "red"},
              {"type": "pocket", "pocket": 4, "ball": None}, {"type": "off_table", "ball": "white"},
              {"type": "strike", "ball": "yellow"}, {"type": "goal", "goal": "B", "ball": "p1"}],
    "carom": [{"type": "strike", "ball": "yellow"}, {"type": "strike", "ball": "white"},
              {"type": "cushion", "cushion": 1, "ball": "yellow"},
              {"type": "cushion", "cushion": 3, "ball": "W"},
              {"type": "contact", "balls": ["yellow", "red"]},
              {"type": "contact", "balls": ["yellow", "white"]},
              {"type": "off_table", "ball": "red"}, {"type": "pin", "pin": 1, "state": "down"},
              {"type": "cushion", "cushion": 2, "ball": "green"}],
}
AROUND = [{"type": "rest"}, {"type": "call", "call": "undo"}, {"type": "call", "call": "foul"},
          {"type": "call", "call": "replay"}]


@st.composite
def logs(draw: Any) -> list[str]:
    game = draw(st.sampled_from(sorted(SETUPS)))
    lines = [json.dumps({"t": 0, **SETUPS[game]})]
    t = 1.0
    for _ in range(draw(st.integers(1, 12))):
        for _ in range(draw(st.integers(0, 70))):
            t += draw(st.sampled_from([0.1, 0.1, 0.3, -0.05, -2.0]))  # now and then the clock runs back
            lines.append(json.dumps({"t": round(max(t, 0.0), 3), **draw(st.sampled_from(EVENTS[game]))}))
        t += 1.0
        lines.append(json.dumps({"t": round(t, 3), **draw(st.sampled_from(AROUND))}))
        if draw(st.booleans()):
            lines.append("not json")
    return lines


@settings(max_examples=60, deadline=None)
@given(logs())
def test_a_log_of_any_events_ends_where_its_events_one_at_a_time_do(lines: list[str]) -> None:
    _same(lines)


def test_a_shot_longer_than_a_kept_state_span_ends_and_undoes_as_one_event_at_a_time() -> None:
    # a live table keeps a whole state every KEEP_EVERY events: a shot grows across it; its events
    # pass RUN_FROM (kept in a shared list, not a tuple) on the way
    assert KEEP_EVERY > RUN_FROM
    lines = [json.dumps({"t": 0, **SETUPS["carom"]}),
             json.dumps({"t": 1.0, "type": "strike", "ball": "yellow"})]
    for k in range(3 * KEEP_EVERY):
        lines.append(json.dumps({"t": 1.0 + 0.001 * (k + 1), "type": "cushion", "cushion": k % 4 + 1,
                                 "ball": "yellow"}))
    _same(lines)
    _same([*lines, json.dumps({"t": 30.0, "type": "contact", "balls": ["yellow", "red"]}),
           json.dumps({"t": 31.0, "type": "rest"})])
