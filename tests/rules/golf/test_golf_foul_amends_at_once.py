"""A foul the referee calls after a golf shot's rest amends the shot in one step
(``amend.called_foul``) into the state the general way makes (the call added to the shot, the
whole shot resolved again from the state before it), and a foul or the clock's ``time`` with
no shot to amend stands alone in one step (``amend.stood_alone``) as resolving it does, over
made-up states and shots (hypothesis): every foul by its names (those that put the balls back,
count a ball, add spots of their own, a ball off the table, the clock), naming the shooter, the
other player or nobody, with a ball count; shots of cushions and goals, a strike of the
shooter's ball, now and then the opponent's, a contact, a ball off the table, positions, a late
drop or a call before; zone play, balls on replacement spots, a duo, questions and balls
waiting from the shot before; then the opponent's ``spot`` calls for the balls the foul put on
a replacement spot (a spot taken, a ball not waiting), each the same."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import msgspec
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from test_golf_helpers import applied
from test_golf_plain_shot import before_shot, shot_of

from tablesense.events import Contact, Goal, OffTable, Rest, Strike, parse_event
from tablesense.rules import find_engine
from tablesense.rules.golf import amend
from tablesense.rules.golf.resolve import resolve
from tablesense.rules.shot_engine import ShotRecord

ENGINE = find_engine("golf")
#: ``amend``'s steps, as they are (``_same`` watches them)
_STEPS = {name: getattr(amend, name) for name in ("called_foul", "called_spot", "stood_alone")}
replace = msgspec.structs.replace

#: the referee's call after the rest: fouls by the names a referee uses (the touches most often)
CALLS = st.sampled_from([
    {"call": "foul", "foul": "touch"}, {"call": "foul", "foul": "touch"}, {"call": "touch"},
    {"call": "foul", "foul": "push"}, {"call": "foul", "foul": "foot"}, {"call": "foul", "foul": "jump"},
    {"call": "foul", "foul": "touch-own"}, {"call": "foul", "foul": "touch-opponent"},
    {"call": "foul", "foul": "hold-own"}, {"call": "foul", "foul": "hold-opponent"},
    {"call": "foul", "foul": "wrong-ball"}, {"call": "foul", "foul": "not-at-rest"},
    {"call": "foul", "foul": "aim-behind"}, {"call": "foul", "foul": "order"},
    {"call": "foul", "foul": "zone"}, {"call": "foul", "foul": "own-goal"},
    {"call": "foul", "foul": "triangle"}, {"call": "foul", "foul": "triangle-several", "balls": 3},
    {"call": "foul", "foul": "attacking-triangle"}, {"call": "foul", "foul": "touch-no-shot"},
    {"call": "foul", "foul": "off_table"}, {"call": "time"}, {"call": "foul", "foul": "push", "balls": 2},
])
PLAYER = st.sampled_from([None, None, "p1", "p2"])
#: the ball a ``spot`` call names: the shooter's (the one waiting) most often
SPOT_BALL = st.sampled_from(["shooter", "shooter", "p1", "p2"])
POSITIONS = {"p1": [[0.3, 0.4], [0.5, 0.6]], "p2": [[0.9, 0.4]]}


@st.composite
def shot_after(draw: Any) -> tuple[str | None, tuple[Any, ...], Rest, tuple[Any, ...], tuple[Any, ...]]:
    """A shot's shooter, events, rest, late drops and calls before this one: the plain shot
    most often."""
    shooter, events = draw(shot_of())
    odd = draw(st.sampled_from([9, 9, 9, 9, 9, 9, 0, 1, 2, 3, 4, 5, 6]))
    if odd == 0:
        events = (*events, Strike(t=0.1, ball=draw(st.sampled_from(["p1", "p2", None]))))
    elif odd == 6:
        events = (Strike(t=0.0, ball=shooter or "p1"), *events)
    elif odd == 1:
        events = (*events, Contact(t=0.2, balls=("p1", "p1")))
    elif odd == 2:
        events = (*events, OffTable(t=0.3, ball=draw(st.sampled_from(["p1", "p2", None]))))
    rest = Rest(t=4.0, positions=POSITIONS if odd == 3 else None)
    late = (Goal(t=4.2, goal="A", ball="p2"),) if odd == 4 else ()
    jump = {"t": 4.1, "type": "call", "call": "foul", "foul": "golf.foul.jump"}
    calls = (parse_event(jump),) if odd == 5 else ()
    return shooter, events, rest, late, calls


@contextmanager
def general_way() -> Iterator[None]:
    """The foul and the spot amending their shot the general way only (``amend`` off)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(amend, "called_foul", lambda state, call: None)
        mp.setattr(amend, "called_spot", lambda state, call: None)
        mp.setattr(amend, "stood_alone", lambda before, unit: None)
        yield


def _same(state: Any, call: Any) -> Any:
    """``apply`` of ``call`` to ``state`` with ``amend``'s steps on (``event``: which made the
    state) and off: the two the same; the state (or the error) it made."""
    taken: list[str] = []

    def spy(name: str, original: Any) -> Any:
        def step(*args: Any) -> Any:
            made = original(*args)
            taken.append(f"{name}: " + ("at once" if made is not None else "the general way"))
            return made
        return step

    with pytest.MonkeyPatch.context() as mp:
        for name, original in _STEPS.items():
            mp.setattr(amend, name, spy(name, original))
        quick = applied(state, call)
    for what in taken:
        event(what)
    with general_way():
        general = applied(state, call)
    assert quick == general
    if not isinstance(quick, tuple):
        assert ENGINE.to_json(quick) == ENGINE.to_json(general)
        assert quick.checkpoint is state
    return quick


@settings(max_examples=600, deadline=None)
@given(before_shot(), shot_after(), CALLS, PLAYER, st.floats(4.05, 60.0),
       st.lists(st.tuples(SPOT_BALL, st.integers(1, 5)), min_size=1, max_size=3))
def test_a_foul_called_after_the_rest_amends_the_shot_as_resolving_it_again_does(
        before: Any, played: Any, called: dict[str, Any], player: str | None, t: float,
        spots: list[tuple[str, int]]) -> None:
    shooter, events, rest, late, calls = played
    shot = ShotRecord(player=shooter, events=events, rest=rest, late=late, calls=calls)
    after = resolve(before, shot)
    state = replace(after, before=before, shot=shot, cut=before.cut, in_shot=False, checkpoint=before)
    obj = {"t": t, "type": "call", **called}
    if player is not None:
        obj["player"] = player
    state = _same(state, parse_event(obj))
    for n, (ball, spot) in enumerate(spots):  # the opponent names the spots of the balls waiting
        if isinstance(state, tuple) or not state.spot_wait:
            break
        ball = (shooter or "p1") if ball == "shooter" else ball
        named = {"t": t + 1 + n, "type": "call", "call": "spot", "ball": ball, "spot": spot}
        state = _same(state, parse_event(named))


@settings(max_examples=300, deadline=None)
@given(before_shot(), shot_after(), st.sampled_from(["hold-opponent", "hold_back_opponent_ball"]), PLAYER,
       st.floats(4.05, 60.0), st.integers(1, 5))
def test_the_opponents_ball_held_back_amends_the_shot_as_resolving_it_again_does(
        before: Any, played: Any, name: str, player: str | None, t: float, spot: int) -> None:
    shooter, events, rest, late, calls = played
    shot = ShotRecord(player=shooter, events=events, rest=rest, late=late, calls=calls)
    after = resolve(before, shot)
    state = replace(after, before=before, shot=shot, cut=before.cut, in_shot=False, checkpoint=before)
    obj = {"t": t, "type": "call", "call": "foul", "foul": name}
    if player is not None:
        obj["player"] = player
    state = _same(state, parse_event(obj))
    if not isinstance(state, tuple) and state.spot_wait:  # the opponent names the spot of the ball played
        _same(state, parse_event({"t": t + 1, "type": "call", "call": "spot", "ball": state.spot_wait[0][1],
                                  "spot": spot}))


def test_a_touch_after_a_plain_shot_takes_the_step_at_once() -> None:
    state = _after({"t": 1, "type": "goal", "goal": "B", "ball": "p1"}, {"t": 2, "type": "rest"})
    assert state.balls_left == (4, 5) and state.at_table == "p1"
    call = parse_event({"t": 3, "type": "call", "call": "foul", "foul": "golf.foul.touch"})  # canonical
    quick = amend.called_foul(state, call)
    assert quick is not None and quick.balls_left == (5, 5) and quick.at_table == "p2"
    assert [b for _, b, _ in quick.spot_wait] == ["p1"]
    with general_way():
        assert ENGINE.apply(state, call) == quick


def test_the_opponents_ball_held_back_counts_for_them_at_once() -> None:
    """The opponent's ball held back goes into the goal: it counts for them, the shooter's ball waits
    for its spot, the turn passes; in one step, the state the general way gives."""
    plain = _after({"t": 1, "type": "cushion", "cushion": 1}, {"t": 2, "type": "rest"})
    held = parse_event({"t": 3, "type": "call", "call": "foul", "foul": "golf.foul.hold.opponent-ball"})
    quick = amend.called_foul(plain, held)
    assert quick is not None and quick.balls_left == (5, 4) and quick.at_table == "p2"
    assert [b for _, b, _ in quick.spot_wait] == ["p1"]
    with general_way():
        assert ENGINE.apply(plain, held) == quick


def _after(*objs: dict[str, Any]) -> Any:
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "golf",
                                          "players": {"p1": "Ann", "p2": "Bob"}}))
    for obj in objs:
        state = ENGINE.apply(state, parse_event(obj))
    return state


def test_a_foul_that_counts_a_ball_or_a_shot_not_plain_goes_the_general_way() -> None:
    touch = parse_event({"t": 3, "type": "call", "call": "foul", "foul": "golf.foul.touch"})
    plain = _after({"t": 1, "type": "cushion", "cushion": 1}, {"t": 2, "type": "rest"})
    assert amend.called_foul(plain, touch) is not None
    held = parse_event({"t": 3, "type": "call", "call": "foul", "foul": "golf.foul.hold.opponent-ball"})
    last = msgspec.structs.replace(plain, before=msgspec.structs.replace(plain.before, balls_left=(5, 1)))
    assert amend.called_foul(last, held) is None  # the opponent's held ball, their last, wins them the frame
    struck = _after({"t": 0.5, "type": "strike", "ball": "p2"}, {"t": 1, "type": "cushion", "cushion": 1},
                    {"t": 2, "type": "rest"})
    assert amend.called_foul(struck, touch) is None  # the opponent's ball played: a foul seen too
    placed = _after({"t": 1, "type": "cushion", "cushion": 1},
                    {"t": 2, "type": "rest", "positions": {"p1": [[0.3, 0.4]]}})
    assert amend.called_foul(placed, touch) is None  # positions: spots may fall back


def test_the_clock_run_out_between_shots_stands_alone_in_one_step() -> None:
    state = _after({"t": 1, "type": "cushion", "cushion": 1}, {"t": 2, "type": "rest"})
    assert state.at_table == "p2"
    time = parse_event({"t": 60, "type": "call", "call": "time"})
    quick = ENGINE.apply(state, time)
    assert quick.at_table == "p1" and [r.rule for r in quick.rulings][-1] == "golf.clock"
    with general_way():
        assert ENGINE.apply(state, time) == quick
    unit = quick.shot
    assert unit is not None and unit.calls and amend.stood_alone(state, unit) is not None
