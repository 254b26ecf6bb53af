"""A golf shot of one sensor event and its rest taken in one step (``single.one_event``: the
shooter's valid goal, a cushion alone, the opponent's ball into a goal, an own goal, a ball off
the table) gets the state ``GolfEngine.steps`` (``whole``'s general steps) give (the cut, the record,
``resolve.plain`` / ``missed`` / ``counted.counted_shot``), over made-up states and shots
(hypothesis: every cut phase and settle, a table that reports strikes, goals of either ball into
either goal or of no ball, balls off the table, the frame and the match won, zone play starting,
a duo's turn passing, questions and balls waiting, a rest with positions, times that are not
floats); and every recorded golf match ends where it ends with the step turned off, applied and
played."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from unittest import mock

import msgspec
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from paths import MATCHES

from tablesense.events import Cushion, Goal, OffTable, Rest, Strike
from tablesense.replay import Replay, history_for
from tablesense.rules.golf import single
from tablesense.rules.golf.engine import GolfEngine
from tablesense.rules.golf.state import GOLF_CUTTER, GolfState
from tablesense.rules.records import Ended, Question, Ruling
from tablesense.rules.shot_engine import ShotRecord
from tablesense.shots import Cutter

BALL = st.sampled_from(["p1", "p2"])
_ODD_PHASES = ["open", "closed", "settling"]


@st.composite
def before_shot(draw: Any) -> GolfState:
    duo = draw(st.booleans())
    players = (("p1", ("Ann", "Cor")), ("p2", ("Bob", "Dirk"))) if duo else (("p1", "Ann"), ("p2", "Bob"))
    common = draw(st.booleans())  # half the states as a recorded match's most are: nothing open or held
    balls = (draw(st.integers(1, 5)), draw(st.integers(1, 5)))  # a frame with a side out is over
    frame = draw(st.integers(1, 3))
    won = {1: (0, 0), 2: draw(st.sampled_from([(1, 0), (0, 1)])), 3: (1, 1)}[frame]
    cut = Cutter(strike_sensor=not common and draw(st.booleans()),
                 window=draw(st.sampled_from([GOLF_CUTTER.window, None, 0.5])), game="golf",
                 shot=draw(st.integers(0, 9)),
                 phase=draw(st.sampled_from(["idle", "settling"] if common else _ODD_PHASES)),
                 last_t=draw(st.sampled_from([None, 0.0, 0.5, 0.9, 1.0])),
                 strikes=not common and draw(st.booleans()))
    last = ShotRecord(player="p1", events=(Cushion(t=0.1, cushion=1),), rest=Rest(t=0.2)) \
        if draw(st.booleans()) else None
    waiting = draw(st.integers(0, 3)) == 0
    return GolfState(
        players=players, duo=duo, balls_left=balls, frame=frame, frames_won=won,
        zone_play=draw(st.booleans()) or 1 in balls, at_table=draw(st.sampled_from(["p1", "p2", None])),
        first_opener=draw(BALL), first_members=(draw(st.integers(0, 1)), draw(st.integers(0, 1))),
        members=(draw(st.integers(0, 1)), draw(st.integers(0, 1))), frame_units=draw(st.integers(0, 30)),
        asked=draw(st.integers(0, 3)), placed=(draw(st.sampled_from([None, 1, 4])), None),
        placements=(("p1", 2),) if draw(st.booleans()) else (),
        positions=(((0.1, 0.2),), ()) if draw(st.booleans()) else None,
        rulings=GolfState().rulings + tuple(Ruling(t=0.1 * k, rule="golf.turn", player="p1")
                                            for k in range(draw(st.integers(0, 3)))),
        questions=(Question(id="q1", t=0.5, rule="golf.goal", options=("p1", "p2")),) if waiting else (),
        spot_wait=((0.5, "p1", "spot0"),) if waiting and draw(st.booleans()) else (),
        cut=cut, shot=last, before=GolfState() if last is not None else None,
        held=(Goal(t=0.3, goal="A", ball="p2"),) if not common and draw(st.booleans()) else (),
        ended=Ended(rule="golf.match.won", winner="p1") if not common and draw(st.booleans()) else None,
    )


@st.composite
def one_event(draw: Any) -> tuple[Any, Rest]:
    """One sensor event and the rest after it: goals most often (either ball, either goal, no
    ball), cushions, now and then a ball off the table or a strike; the times floats, now and
    then an int; a rest with positions now and then."""
    at = draw(st.sampled_from([1.0, 1.2, 1.4, 2.5, 3.0, 1]))
    kind = draw(st.integers(0, 9))
    if kind < 3:  # the shooter's valid goal most often (the shooter p1, or none: p1)
        first: Any = Goal(t=at, goal="B", ball="p1")
    elif kind < 4:  # p1's own goal, or p2's ball into either goal
        first = Goal(t=at, goal=draw(st.sampled_from(["A", "B"])), ball=draw(st.sampled_from(["p1", "p2"])))
    elif kind < 5:
        first = Goal(t=at, goal=draw(st.sampled_from(["A", "B"])),
                     ball=draw(st.sampled_from(["p1", "p2", None])))
    elif kind < 8:
        first = Cushion(t=at, cushion=draw(st.integers(1, 4)))
    elif kind < 9:
        first = OffTable(t=at, ball=draw(st.sampled_from(["p1", "p2", "p1", "p2", None])))
    else:
        first = Strike(t=at, ball=draw(BALL))
    rest = Rest(t=draw(st.sampled_from([4.0, 4.0, 4])),
                positions={"p1": [[0.2, 0.3]], "p2": []} if draw(st.integers(0, 5)) == 0 else None)
    return first, rest


@settings(max_examples=1500, deadline=None)
@given(before_shot(), one_event())
def test_a_shot_of_one_event_in_one_step_is_the_state_the_general_steps_give(
        state: GolfState, shot: tuple[Any, Rest]) -> None:
    first, rest = shot
    engine = GolfEngine()
    quick = engine.whole(state, [first], rest)
    with mock.patch.object(GolfEngine, "whole", GolfEngine.steps):
        general = engine.whole(state, [first], rest)
    assert quick == general
    if quick is not None:
        assert list(quick.rulings) == list(general.rulings)  # type: ignore[union-attr]
        assert quick.checkpoint is state and quick.before == general.before  # type: ignore[union-attr]
    taken = single.one_event(state, first, rest)
    assert taken is None or taken == quick  # the one step alone, as ``whole`` takes it
    event("one step" if taken is not None else "general steps" if quick is not None else "not whole")
    if taken is not None:
        ball = getattr(first, "ball", None)
        theirs = " on the opponent's ball" if ball not in (state.at_table or "p1", None) else ""
        event("one step: " + ("match won" + theirs if taken.ended else "frame won" + theirs
                              if taken.frame != state.frame else
                              "whose ball? asked" if taken.asked != state.asked else
                              "zone play starts" if taken.zone_play and not state.zone_play else
                              "turn passes" if type(first) is Cushion else
                              "the opponent's ball" if first.ball != (state.at_table or "p1") else
                              "goal" if taken.at_table == first.ball else "own goal"))


@settings(max_examples=600, deadline=None)
@given(before_shot(), BALL, st.booleans(), st.sampled_from(["A", "B"]), st.sampled_from([1.2, 2.5]),
       st.booleans())
def test_an_own_goal_the_opponents_ball_or_a_ball_off_in_one_step_is_the_state_the_general_steps_give(
        state: GolfState, shooter: str, own: bool, other_goal: str, at: float, off: bool) -> None:
    state = msgspec.structs.replace(state, at_table=shooter)
    ball = shooter if own else ("p2" if shooter == "p1" else "p1")
    first: Any = OffTable(t=at, ball=ball) if off else \
        Goal(t=at, goal=("A" if shooter == "p1" else "B") if own else other_goal, ball=ball)
    rest = Rest(t=4.0)
    engine = GolfEngine()
    quick = engine.whole(state, [first], rest)
    with mock.patch.object(GolfEngine, "whole", GolfEngine.steps):
        general = engine.whole(state, [first], rest)
    assert quick == general
    if quick is not None:
        assert list(quick.rulings) == list(general.rulings)  # type: ignore[union-attr]
    taken = single.one_event(state, first, rest)
    what = "ball off" if off else "goal" if own else "ball in a goal"
    event(("own " if own else "the opponent's ") + what + (": one step" if taken is not None else ""))


@settings(max_examples=400, deadline=None)
@given(before_shot(), st.sampled_from(["A", "B", None]), st.sampled_from([1.2, 2.5]))
def test_a_ball_no_sensor_named_in_one_step_is_the_state_the_general_steps_give(
        state: GolfState, goal: str | None, at: float) -> None:
    first: Any = OffTable(t=at, ball=None) if goal is None else Goal(t=at, goal=goal, ball=None)
    rest = Rest(t=4.0)
    engine = GolfEngine()
    quick = engine.whole(state, [first], rest)
    with mock.patch.object(GolfEngine, "whole", GolfEngine.steps):
        general = engine.whole(state, [first], rest)
    assert quick == general
    if quick is not None:
        assert list(quick.rulings) == list(general.rulings)  # type: ignore[union-attr]
    taken = single.one_event(state, first, rest)
    if taken is not None:
        assert taken.questions and taken.asked == state.asked + 1  # whose ball? asked, nothing counted
        assert taken.balls_left == state.balls_left
    event(("a goal" if goal else "a ball off") + (": one step" if taken is not None else ""))


LOGS = sorted((MATCHES / "golf").glob("*.jsonl"))


def _replayed(lines: list[str], played: bool) -> str:
    rep = Replay() if played else Replay(history=history_for(sum('"undo"' in line for line in lines)))
    rep.feed_lines(lines)
    return json.dumps(rep.to_json(), sort_keys=True, default=repr)


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_a_recorded_golf_match_ends_where_it_ends_without_the_one_step_shot(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    for played in (False, True):
        quick = _replayed(lines, played)
        with mock.patch.object(GolfEngine, "whole", GolfEngine.steps):
            assert _replayed(lines, played) == quick
