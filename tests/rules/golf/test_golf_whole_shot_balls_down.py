"""A golf shot taken at once (``GolfEngine.whole``) counts each player's goals and balls off the
table as its events go, and refuses the one that goes down after its owner's last ball in play
as ``apply`` of each event does (same error, same line); a shot of cushions alone passes the turn
in one step (``resolve.missed``). Logs of such shots end where their lines one at a time do."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_golf_helpers import replayed_and_played, seen

from tablesense.replay import Replay, effective_lines

SETUPS = [{"type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}},
          {"type": "setup", "game": "golf", "players": {"p1": ["Ann", "Cor"], "p2": ["Bob", "Dirk"]}}]
#: a shot's events: many goals of one ball (more than it has in play), balls off, cushions, a strike
EVENTS: list[dict[str, Any]] = [
    {"type": "cushion", "cushion": 1, "ball": None}, {"type": "cushion", "cushion": 3, "ball": None},
    {"type": "goal", "goal": "B", "ball": "p1"}, {"type": "goal", "goal": "A", "ball": "p2"},
    {"type": "goal", "goal": "A", "ball": "p1"}, {"type": "goal", "goal": "B", "ball": None},
    {"type": "off_table", "ball": "p1"}, {"type": "off_table", "ball": "p2"},
    {"type": "strike", "ball": "p1"}, {"type": "contact", "balls": ["p1", "p2"]},
]
RESTS: list[dict[str, Any]] = [{}, {}, {"positions": {"p1": [[0.5, 0.4]], "p2": [[0.3, 0.2]]}}]


@st.composite
def logs(draw: Any) -> list[str]:
    """Golf matches of shots of one to nine events (cushions alone often), the odd foul or undo."""
    lines: list[str] = []
    t = 0.0
    for _ in range(draw(st.integers(1, 3))):
        lines.append(json.dumps({"t": t, **draw(st.sampled_from(SETUPS))}))
        for _ in range(draw(st.integers(1, 25))):
            cushions = draw(st.booleans())
            for _ in range(draw(st.integers(1, 9))):
                t += 0.5
                event = EVENTS[draw(st.integers(0, 1))] if cushions else draw(st.sampled_from(EVENTS))
                lines.append(json.dumps({"t": t, **event}))
            t += 1.0
            lines.append(json.dumps({"t": t, "type": "rest", **draw(st.sampled_from(RESTS))}))
            call = draw(st.sampled_from([None, None, None, "touch", "undo"]))
            if call == "touch":
                lines.append(json.dumps({"t": t + 0.5, "type": "call", "call": "foul", "foul": "touch"}))
            elif call == "undo":  # back to the state before the shot (its ``checkpoint``)
                lines.append(json.dumps({"t": t + 0.5, "type": "call", "call": "undo"}))
            t += 2.0
        t += 10.0
    return lines


def _missed(t: float) -> list[dict[str, Any]]:
    """A shot of one cushion at ``t`` and its rest a second later."""
    return [{"t": t, "type": "cushion", "cushion": 1, "ball": None}, {"t": t + 1.0, "type": "rest"}]


#: a played match undone after a shot of its strike, goal and rest, then again after three shots of
#: cushions: the undo must rebuild the state, not hand back the one the replay holds (found by this
#: test against a shortcut tried in stop 43, docs/performance.md, branch loop11)
UNDONE_TWICE = [
    {"t": 0.0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}},
    *[e for k in range(11) for e in _missed(0.5 + 3.5 * k)],
    {"t": 48.5, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}},
    {"t": 49.0, "type": "cushion", "cushion": 1, "ball": None}, {"t": 50.0, "type": "rest"},
    {"t": 52.5, "type": "strike", "ball": "p1"}, {"t": 53.5, "type": "rest"},
    {"t": 56.0, "type": "goal", "goal": "B", "ball": "p1"}, {"t": 57.0, "type": "rest"},
    {"t": 57.5, "type": "call", "call": "undo"},
    *[e for k in range(3) for e in _missed(59.5 + 3.5 * k)],
    {"t": 68.0, "type": "call", "call": "undo"},
]


@settings(max_examples=150, deadline=None)
@given(logs())
@example([json.dumps(line) for line in UNDONE_TWICE])
def test_a_golf_log_of_whole_shots_ends_where_its_lines_one_at_a_time_do(lines: list[str]) -> None:
    each = []
    for history in (10**6, None):  # a whole log's replay (``apply``), a table played (``play``)
        rep = Replay(history=history)
        for n, text in effective_lines(lines):
            rep.feed_line(text, n)
        each.append(seen(rep))
    assert replayed_and_played(lines) == each


def test_a_goal_after_the_last_ball_in_play_is_refused_in_a_shot_taken_at_once() -> None:
    setup = json.dumps({"t": 0.0, **SETUPS[0]})
    goals = [json.dumps({"t": 1.0 + i / 10, "type": "goal", "goal": "B", "ball": "p1"}) for i in range(6)]
    lines = [setup, *goals, json.dumps({"t": 3.0, "type": "rest"})]
    rep = Replay(history=10**6).feed_counted(effective_lines(lines), guard=True)
    assert [e.line for e in rep.errors] == [7]
    assert "p1 has no balls left in play" in rep.errors[0].error
