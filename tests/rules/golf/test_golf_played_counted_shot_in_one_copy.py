"""A played golf shot of several events, a cushion first, that ``resolve.plain`` does not take (an own
goal, the opponent's ball in a goal, a ball off the table, a ball no sensor named: ``counted_shot``)
or that wins the frame with the shooter's last ball (``plain``'s frame end), made by
``played.whole_played`` with its played links in its one copy, gives the state ``ShotEngine.whole_played``
gives, links and all: over made-up played states and shots (hypothesis: one to three cushions, then
one to four balls of either player or none into either goal or off the table, more than a player has
in play too; one against one and duos, a table that reports strikes or not, positions before the shot
and at its rest or none, questions open, the states before the shots eight deep and more, the events
since the base shared or not, near ``KEEP_EVERY``; the frame won by several of the shooter's goals:
test_golf_played_goal_shot_in_one_copy.py), and over whole logs played (such shots, the
referee's calls after them at different moments, answers, spots, undos) against the base's step."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from test_golf_helpers import SINGLE, cushion, goal, off, rest, setup
from test_golf_one_event_shot import before_shot
from test_golf_played_shot_in_one_copy import _played, played_both

from tablesense.events import Cushion, Goal, OffTable, Rest, Strike
from tablesense.replay import Replay
from tablesense.rules.golf.engine import GolfEngine
from tablesense.rules.golf.geometry import ATTACKS
from tablesense.rules.golf.state import GolfState
from tablesense.rules.shot_engine import KEEP_EVERY, ShotEngine

_BALLS = ["p1", "p1", "p2", "p2", None]


@st.composite
def a_counted_shot(draw: Any) -> tuple[GolfState, list[Any], Rest]:
    """A state before a shot, and a shot of one to three cushions, then one to four balls (either
    player's or none; into either goal or off the table; at times in order or not, the same time too),
    now and then a strike among them; the rest (with positions now and then)."""
    state = draw(before_shot())
    events: list[Any] = [Cushion(t=1.0 + 0.1 * k, cushion=draw(st.integers(1, 4)))
                         for k in range(draw(st.integers(1, 3)))]
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.sampled_from([1.5, 1.6, 1.7, 1.55]))
        ball = draw(st.sampled_from(_BALLS))
        if draw(st.integers(0, 2)) == 0:
            events.append(OffTable(t=at, ball=ball))
        else:
            events.append(Goal(t=at, goal=draw(st.sampled_from(["A", "B"])), ball=ball))
    if draw(st.integers(0, 7)) == 0:
        events.insert(draw(st.integers(1, len(events))), Strike(t=1.05, ball=draw(st.sampled_from(_BALLS))))
    rest = Rest(t=draw(st.sampled_from([4.0, 4.0, 4.0, 4])),
                positions={"p1": [[0.2, 0.3]], "p2": []} if draw(st.integers(0, 7)) == 0 else None)
    return state, events, rest


@settings(max_examples=1500, deadline=None)
@given(a_counted_shot(), st.sampled_from([0, 1, 5, KEEP_EVERY - 9, KEEP_EVERY - 6]), st.booleans(),
       st.sampled_from([0, 1, 4, 7, 8, 9]))
def test_a_played_counted_shot_in_one_copy_is_the_state_the_base_gives(
        shot: tuple[GolfState, list[Any], Rest], n: int, shared: bool, depth: int) -> None:
    state, events, rest_ = shot
    quick = played_both(state, events, rest_, n, shared, depth)
    if quick is None:
        return
    event("the frame won" if quick.frame != state.frame or quick.ended is not None
          else "a question" if quick.questions else "the turn kept" if quick.at_table == state.at_table
          else "the turn passed")


def _no_steps(*args: Any) -> None:
    raise AssertionError("whole's steps taken")


@pytest.mark.parametrize(("shot", "what"), [
    ([Cushion(t=1.0, cushion=1), Goal(t=1.5, goal=ATTACKS["p2"], ball="p2")], "the opponent's ball"),
    ([Cushion(t=1.0, cushion=1), OffTable(t=1.5, ball="p1")], "own ball off"),
    ([Cushion(t=1.0, cushion=1), Goal(t=1.5, goal=ATTACKS["p1"], ball=None)], "a ball no sensor named"),
])
def test_a_played_counted_shot_takes_the_one_copy(monkeypatch: pytest.MonkeyPatch, shot: list[Any],
                                                 what: str) -> None:
    """A played shot of a cushion and a ball ``plain`` does not take is made without ``whole``'s
    steps, the events since the base grown by the shot and its rest."""
    engine = GolfEngine()
    base = GolfState(players=(("p1", "Ann"), ("p2", "Bob")))
    state = _played(GolfState(players=base.players, at_table="p1"), base, 3, False, 0)
    monkeypatch.setattr(GolfEngine, "steps", _no_steps)
    new = GolfEngine.whole_played(engine, state, shot, Rest(t=3.0))
    assert new is not None and new.at_table == "p2", what
    assert len(new.since) == 3 + len(shot) + 1


def test_a_played_shot_of_the_shooters_last_ball_takes_the_one_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    """A played shot of a cushion and the shooter's last ball wins the frame without ``whole``'s steps."""
    engine = GolfEngine()
    base = GolfState(players=(("p1", "Ann"), ("p2", "Bob")))
    state = _played(GolfState(players=base.players, at_table="p1", balls_left=(1, 3)), base, 3, False, 0)
    monkeypatch.setattr(GolfEngine, "steps", _no_steps)
    new = GolfEngine.whole_played(engine, state, [Cushion(t=1.0, cushion=1),
                                                  Goal(t=1.5, goal=ATTACKS["p1"], ball="p1")], Rest(t=3.0))
    assert new is not None and new.frame == 2 and new.frames_won == (1, 0)
    assert len(new.since) == 3 + 3


@st.composite
def a_played_log(draw: Any) -> list[str]:
    """A match's lines: shots of one or two cushions and then balls of either player or none into a
    goal or off the table (or nothing), now and then a strike first or positions at the rest; after
    shots, at different moments (while the balls roll, after the rest, after the next shot), the
    referee's answers, spots, fouls and undos."""
    lines: list[dict[str, Any]] = [setup(SINGLE)]
    t = 1.0
    strikes = draw(st.booleans())
    for _ in range(draw(st.integers(1, 14))):
        shot: list[dict[str, Any]] = []
        if strikes:
            shot.append({"t": t, "type": "strike", "ball": draw(st.sampled_from(["p1", "p2"]))})
        shot += [cushion(t + 0.1 * (k + 1)) for k in range(draw(st.integers(1, 2)))]
        for k in range(draw(st.integers(0, 3))):
            ball = draw(st.sampled_from(_BALLS))
            at = t + 0.5 + 0.1 * k
            shot.append(off(at, ball) if draw(st.integers(0, 3)) == 0
                        else goal(at, draw(st.sampled_from(["A", "B"])), ball))
        positions = {"p1": [[0.2, 0.3]], "p2": [[0.5, 0.5]]} if draw(st.integers(0, 5)) == 0 else None
        if draw(st.integers(0, 6)) == 0:  # a call while the balls roll
            shot.append({"t": t + 0.9, "type": "call", "call": "foul", "foul": "touch"})
        shot.append(rest(t + 2.0, positions))
        for _ in range(draw(st.integers(0, 2))):  # calls after the rest
            kind = draw(st.sampled_from(["answer", "spot", "undo", "foul", "off_table_opponent"]))
            at = t + 2.5
            if kind == "answer":
                question = f"q{draw(st.integers(1, 4))}"
                shot.append({"t": at, "type": "call", "call": "answer", "question": question,
                             "answer": draw(st.sampled_from(["p1", "p2", None]))})
            elif kind == "spot":
                ball, spot = draw(st.sampled_from(["p1", "p2"])), draw(st.integers(1, 5))
                shot.append({"t": at, "type": "call", "call": "spot", "ball": ball, "spot": spot})
            elif kind == "foul":
                shot.append({"t": at, "type": "call", "call": "foul", "foul": "touch"})
            elif kind == "off_table_opponent":
                shot.append({"t": at, "type": "call", "call": "foul", "foul": "off_table_opponent"})
            else:
                shot.append({"t": at, "type": "call", "call": "undo"})
        lines += shot
        t += 5.0
    lines += [{"t": t, "type": "call", "call": "undo"}] * draw(st.integers(0, 3))
    return [json.dumps(x) for x in lines]


def _replayed(lines: list[str]) -> tuple[str, list[Any]]:
    rep = Replay().feed_lines(lines)
    return json.dumps(rep.to_json(), sort_keys=True, default=repr), [str(e) for e in rep.errors]


@settings(max_examples=300, deadline=None)
@given(a_played_log())
def test_a_played_log_of_counted_shots_calls_and_undos_ends_where_the_bases_step_ends(
        lines: list[str]) -> None:
    quick = _replayed(lines)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(GolfEngine, "whole_played", ShotEngine.whole_played)
        assert _replayed(lines) == quick
    event("errors" if quick[1] else "no error")
