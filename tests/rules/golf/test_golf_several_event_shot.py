"""A golf shot of two or three events taken by ``single.several`` (cushions, goals and balls off the
table of named balls on a table that reports no strike, no position at the rest: the cut, the record
and ``plain`` / ``counted_shot`` / ``general`` without ``steps``' checks of each event) gets the state,
or the refusal, ``GolfEngine.steps`` gives: over made-up states and shots (hypothesis: every cut phase
and settle, a table that reports strikes, goals of either ball into either goal or of no ball, more
balls down than a side has in play, strikes and contacts among the events, questions and balls
waiting, a rest with positions, times that are not floats) and over made-up logs (a strike sensor or
none, rests with positions or none, fouls and answers at different moments, undos), replayed whole
(``apply``) and played, to the same account as with the step turned off."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import msgspec
import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st
from test_golf_helpers import MadeLog, golf_matches, replayed_and_played
from test_golf_one_event_shot import before_shot
from test_golf_whole_shot_balls_down import UNDONE_TWICE

from tablesense.errors import TablesenseError
from tablesense.events import Contact, Cushion, Goal, OffTable, Rest, Strike
from tablesense.rules.golf import single
from tablesense.rules.golf.engine import GolfEngine
from tablesense.rules.golf.state import GolfState

ENGINE = GolfEngine()
replace = msgspec.structs.replace


@contextmanager
def steps_only() -> Iterator[None]:
    """Every shot of several events through ``GolfEngine.steps`` (``single.several`` off)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(single, "several", lambda engine, state, events, rest: engine.steps(state, events, rest))
        yield


def whole_of(state: GolfState, events: list[Any], rest: Rest) -> Any:
    """``GolfEngine.whole`` of the shot: the state after it, None, or the refusal (its type and text)."""
    try:
        return ENGINE.whole(state, events, rest)
    except TablesenseError as e:
        return type(e), str(e)


@st.composite
def several_events(draw: Any) -> tuple[list[Any], Rest]:
    """Two or three sensor events (now and then four) and the rest after them: goals of either ball
    into either goal, cushions, balls off the table, a ball no sensor named, now and then a strike or
    a contact; the times floats, now and then an int; a rest with positions now and then."""
    events: list[Any] = []
    t = draw(st.sampled_from([1.0, 1.2, 2.5, 1]))
    for _ in range(draw(st.sampled_from([2, 2, 3, 3, 4]))):
        kind = draw(st.integers(0, 11))
        ball = draw(st.sampled_from(["p1", "p2", "p1", "p2", None]))
        if kind < 5:
            events.append(Goal(t=t, goal=draw(st.sampled_from(["A", "B"])), ball=ball))
        elif kind < 8:
            events.append(Cushion(t=t, cushion=draw(st.integers(1, 4))))
        elif kind < 10:
            events.append(OffTable(t=t, ball=ball))
        elif kind < 11:
            events.append(Strike(t=t, ball=draw(st.sampled_from(["p1", "p2"]))))
        else:
            events.append(Contact(t=t, balls=("p1", "p2")))
        t += draw(st.sampled_from([0.0, 0.25, 0.5]))
    rest = Rest(t=draw(st.sampled_from([4.0, 4.0, 4])),
                positions={"p1": [[0.2, 0.3]], "p2": []} if draw(st.integers(0, 5)) == 0 else None)
    return events, rest


@settings(max_examples=1500, deadline=None)
@given(before_shot(), several_events(), st.booleans())
def test_a_shot_of_several_events_in_one_pass_is_the_state_the_general_steps_give(
        state: GolfState, shot: tuple[list[Any], Rest], plain_table: bool) -> None:
    events, rest = shot
    if plain_table:  # half the states as a recorded match's most are: no strike sensor, nothing held or open
        state = replace(state, held=(), ended=None, in_shot=False,
                        cut=replace(state.cut, strike_sensor=False, strikes=False,
                                    phase="settling" if state.cut.phase == "settling" else "idle"))
        events = [e for e in events if type(e) is not Strike and type(e) is not Contact] or events
    quick = whole_of(state, events, rest)
    with steps_only():
        general = whole_of(state, events, rest)
    assert quick == general
    if quick is not None and not isinstance(quick, tuple):
        assert list(quick.rulings) == list(general.rulings)
        assert quick.checkpoint is state and quick.before == general.before
    taken = single.several(single._NO_STEPS, state, events, rest)  # the pass alone: no general steps
    assert taken is None or taken == quick
    event("one pass" if taken is not None else "refused" if isinstance(quick, tuple)
          else "general steps" if quick is not None else "not whole")


SETUPS = [{"type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}},
          {"type": "setup", "game": "golf", "players": {"p1": ["Ann", "Cor"], "p2": ["Bob", "Dirk"]}}]
EVENTS: list[dict[str, Any]] = [
    {"type": "cushion", "cushion": 1, "ball": None}, {"type": "goal", "goal": "B", "ball": "p1"},
    {"type": "goal", "goal": "A", "ball": "p2"}, {"type": "goal", "goal": "A", "ball": "p1"},
    {"type": "goal", "goal": "B", "ball": "p2"}, {"type": "goal", "goal": "B", "ball": None},
    {"type": "off_table", "ball": "p2"}, {"type": "off_table", "ball": "p1"},
]
RESTS: list[dict[str, Any]] = [{}, {}, {}, {"positions": {"p1": [[0.5, 0.4]], "p2": [[0.3, 0.2]]}}]
CALLS: list[dict[str, Any]] = [{"type": "call", **call} for call in [
    {"call": "foul", "foul": "touch"}, {"call": "foul", "foul": "push"}, {"call": "time"},
    {"call": "answer", "question": "q1", "answer": "p1"}, {"call": "spot", "ball": "p1", "spot": 2},
    {"call": "undo"}, {"call": "undo"},
]]


def several_shot(draw: Any, log: MadeLog, match: dict[str, Any]) -> None:
    """A shot of one to three events (two or three most often), a call while the balls roll now
    and then, a rest with positions now and then, calls after it (undos among them)."""
    rolling = draw(st.integers(0, 6)) == 0
    for k in range(draw(st.sampled_from([1, 2, 2, 3, 3]))):
        log.add(draw(st.sampled_from(EVENTS)))
        log.t += 0.5
        if k == 0 and rolling:
            log.add(draw(st.sampled_from(CALLS)))
            log.t += 0.25
    log.add({"type": "rest", **draw(st.sampled_from(RESTS))})
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 1, 2]))):
        log.t += 0.5
        log.add(draw(st.sampled_from(CALLS)))


@st.composite
def logs(draw: Any) -> list[str]:
    """Golf matches on a table with a strike sensor or none, up to 16 shots of ``several_shot``."""
    return golf_matches(draw, SETUPS, several_shot, shots=16)


@settings(max_examples=200, deadline=None)
@given(logs())
@example([json.dumps(line) for line in UNDONE_TWICE])
def test_a_log_of_shots_of_several_events_ends_where_it_ends_with_the_pass_off(lines: list[str]) -> None:
    quick = replayed_and_played(lines)
    with steps_only():
        assert replayed_and_played(lines) == quick
