"""A shot decided in one pass (``plain.plain_shot``) gets the state the general decision
(``verdict.settle_general``) gives, over made-up matches (hypothesis): pins falling, rocking and
put up (or forgotten), holes and the referee's answers about them, balls off the table, a strike
sensor or none, contacts with and without named whites, rest positions, late pins, the referee's
fouls and other calls, undo; and only a shot with a pin down before it, a late settle or a
named white goes the general way."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_kegle_helpers import pins_put_up

from tablesense.errors import TablesenseError
from tablesense.events import Contact, parse_event
from tablesense.rules import find_engine
from tablesense.rules.kegle.geometry import PINS
from tablesense.rules.kegle.plain import plain_shot
from tablesense.rules.kegle.verdict import settle_general
from tablesense.rules.shot_engine import ShotRecord

ENGINE = find_engine("kegle")

ball = st.sampled_from(["red", "white", None])
pin_down = st.builds(lambda p, by: {"type": "pin", "pin": p, "state": "down", **({"ball": by} if by else {})},
                     st.integers(1, 5), st.sampled_from([None, None, None, None, "red", "white", "cue"]))
sensor = st.one_of(
    st.builds(lambda c, b: {"type": "cushion", "cushion": c, "ball": b}, st.integers(1, 4), ball),
    pin_down, pin_down,
    st.builds(lambda p: {"type": "pin", "pin": p, "state": "up"}, st.integers(1, 5)),  # a pin rocking
    st.sampled_from([{"type": "contact", "balls": ["red", "white"]},
                     {"type": "contact", "balls": ["white", "red"]},
                     {"type": "contact", "balls": ["red", "white"], "white": 1},
                     {"type": "contact", "balls": ["red", "white"], "white": 2},
                     {"type": "contact", "balls": ["white", "white"]}]),
    st.builds(lambda p, b: {"type": "pocket", "pocket": p, "ball": b}, st.integers(1, 6), ball),
    st.builds(lambda b: {"type": "off_table", "ball": b}, st.sampled_from(["red", "white"])),
)


def _played(cushions: list[int], contacts: int, pins: list[int], early: bool) -> list[dict[str, Any]]:
    """A shot as most are: cushions, the red on the whites, pins falling after (or one before)."""
    out: list[dict[str, Any]] = [{"type": "cushion", "cushion": c, "ball": "red"} for c in cushions]
    falls = [{"type": "pin", "pin": p, "state": "down"} for p in pins]
    if early and falls:
        out.append(falls.pop(0))
    out.extend({"type": "contact", "balls": ["red", "white"]} for _ in range(contacts))
    return out + falls


played = st.builds(_played, st.one_of(st.just([]), st.lists(st.integers(1, 4), max_size=3)),
                   st.integers(0, 2),
                   st.lists(st.integers(1, 5), max_size=3), st.sampled_from([False, False, False, True]))
events = st.one_of(played, played, played, st.lists(sensor, max_size=6))
# a ball keeps a pin off its spot
on_a_pin = st.builds(lambda pin, who: {who: list(PINS[pin]),
                                       "white" if who == "red" else "red": [0.2, 0.2]},
                     st.integers(1, 5), st.sampled_from(["red", "white"]))
positions = st.one_of(
    st.none(), st.none(), st.none(), on_a_pin,
    st.fixed_dictionaries({"red": st.tuples(st.floats(0.0, 2.0), st.floats(0.0, 1.0)).map(list),
                           "white": st.lists(st.tuples(st.floats(0.0, 2.0), st.floats(0.0, 1.0)).map(list),
                                             min_size=1, max_size=2)}),
)
call = st.sampled_from([
    {"type": "call", "call": "carom"},
    {"type": "call", "call": "foul", "foul": "foot"},
    {"type": "call", "call": "foul", "foul": "jumped"},
    {"type": "call", "call": "foul", "foul": "red-in-hole"},
    {"type": "call", "call": "foul", "foul": "three-reds"},
    {"type": "call", "call": "foul", "foul": "no-cushion"},
    {"type": "call", "call": "undo"},
    {"type": "call", "call": "answer", "question": "q1", "answer": "red"},
    {"type": "call", "call": "answer", "question": "q1", "answer": "white"},
    {"type": "call", "call": "answer", "question": "q2", "answer": "red"},
    {"type": "call", "call": "outlay"},
    {"type": "call", "call": "blocked", "pin": 3},
    {"type": "call", "call": "hands"},
    {"type": "call", "call": "replay"},
    {"type": "pin", "pin": 2, "state": "down"},  # a late pin
])
after = st.one_of(st.just([]), st.just([]), st.just([]), st.lists(call, min_size=1, max_size=2))
shot = st.tuples(
    st.booleans(),  # a strike first (on a table with a strike sensor)
    st.sampled_from(["red", "red", "red", "red", "red", "white"]),  # the ball struck
    events,
    st.sampled_from([False, False, False, False, True]),  # two events' times swapped (a line out of order)
    positions,
    after,
    st.sampled_from(["all", "all", "all", "toppled", "none"]),  # the pins put up after the rest
)


def states(shots: list[Any], distance: int, strikes: bool, first: str | None) -> list[Any]:
    """Every state of the match the shots make (a refused event is skipped, as a replay does)."""
    t = 0.0
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": distance}))
    out = [state]
    if first is not None:
        state = ENGINE.apply(state, parse_event({"t": 0.1, "type": "call", "call": "start", "player": first}))
    for struck, ball_struck, events, shuffled, where, calls, put_up in shots:
        objs: list[dict[str, Any]] = []
        if strikes and struck:
            objs.append({"type": "strike", "ball": ball_struck})
        objs.extend(events)
        times = [t + 0.1 * (k + 1) for k in range(len(objs))]
        if shuffled and len(times) > 1:
            times[0], times[1] = times[1], times[0]
        t = (times[-1] if times else t) + 0.1
        timed = [{"t": round(x, 3), **o} for x, o in zip(times, objs, strict=True)]
        rest: dict[str, Any] = {"type": "rest"}
        if where is not None:
            rest["positions"] = where
        timed.append({"t": round(t, 3), **rest})
        for call in calls:
            t += 0.1
            timed.append({"t": round(t, 3), **call})
        for p in pins_put_up(events, put_up):
            t += 0.1
            timed.append({"t": round(t, 3), "type": "pin", "pin": p, "state": "up"})
        for obj in timed:
            try:
                state = ENGINE.apply(state, parse_event(obj))
            except TablesenseError:
                continue
            out.append(state)
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(shot, min_size=1, max_size=30), st.integers(4, 40), st.booleans(),
       st.sampled_from([None, "p1", "p2"]))
def test_a_shot_is_scored_in_one_pass_as_the_general_decision_scores_it(
        shots: list[Any], distance: int, strikes: bool, first: str | None) -> None:
    for state in states(shots, distance, strikes, first):
        shot, before = state.shot, state.before
        if shot is None or before is None or shot.rest is None:
            continue
        quick = plain_shot(before, shot)
        if quick is not None:
            general = settle_general(before, shot)
            assert quick == general
            assert tuple(quick.rulings) == tuple(general.rulings)
        else:  # only these go the general way
            sc = before.score
            assert (shot.late or (sc.pin_ups and shot.events and (sc.pins_down or sc.blocked))
                    or any(type(e) is Contact and e.extra for e in shot.events))


def _first_shot(*lines: dict[str, Any]) -> tuple[Any, ShotRecord]:
    """The state before the first shot of a new match and that shot, from its events."""
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": 60}))
    for obj in lines:
        state = ENGINE.apply(state, parse_event(obj))
    assert state.shot is not None and state.shot.rest is not None
    return state.before, state.shot


def test_a_shot_that_topples_pins_after_the_carambole_is_decided_in_one_pass() -> None:
    before, shot = _first_shot(
        {"t": 1, "type": "strike", "ball": "red"}, {"t": 2, "type": "contact", "balls": ["red", "white"]},
        {"t": 3, "type": "contact", "balls": ["red", "white"]},
        {"t": 4, "type": "pin", "pin": 1, "state": "down"},
        {"t": 5, "type": "rest"})
    quick = plain_shot(before, shot)
    assert quick is not None and quick.score.points == (6, 0) and quick == settle_general(before, shot)


def test_a_late_pin_goes_the_general_way_and_a_foul_called_after_the_rest_does_not() -> None:
    before, shot = _first_shot({"t": 1, "type": "strike", "ball": "red"},
                               {"t": 2, "type": "contact", "balls": ["red", "white"]},
                               {"t": 3, "type": "rest"})
    pin = parse_event({"t": 4, "type": "pin", "pin": 1, "state": "down"})
    assert plain_shot(before, msgspec.structs.replace(shot, late=(pin,))) is None
    before, shot = _first_shot({"t": 1, "type": "strike", "ball": "red"}, {"t": 2, "type": "rest"},
                               {"t": 3, "type": "call", "call": "foul", "foul": "foot"})
    quick = plain_shot(before, shot)
    assert quick is not None and quick.at_table == "p2" and quick == settle_general(before, shot)


def test_a_ball_in_a_hole_named_by_nobody_is_asked_about_in_one_pass_as_the_general_way_asks() -> None:
    shot_lines = [{"t": 1, "type": "strike", "ball": "red"},
                  {"t": 3, "type": "pin", "pin": 1, "state": "down"},
                  {"t": 2, "type": "pocket", "pocket": 2},  # a line out of order
                  {"t": 4, "type": "rest"}]
    before, shot = _first_shot(*shot_lines)
    quick = plain_shot(before, shot)
    assert quick is not None and quick == settle_general(before, shot)
    assert [q.id for q in quick.questions] == ["q1"] and quick.score.points == (2, 0)
    answer = {"t": 5, "type": "call", "call": "answer", "question": "q1", "answer": "red"}
    before, answered = _first_shot(*shot_lines, answer)
    quick = plain_shot(before, answered)
    assert quick is not None and quick == settle_general(before, answered)
    assert quick.score.last is not None and quick.score.last.faults == ("kegle.fault.red-in-hole",)


def test_the_shot_that_ends_the_match_is_decided_in_one_pass() -> None:
    def pins(t: float, *down: int) -> list[dict[str, Any]]:
        return [{"t": t, "type": "strike", "ball": "red"},
                *({"t": t + 0.1 * k, "type": "pin", "pin": p, "state": "down"}
                  for k, p in enumerate(down, 1)),
                {"t": t + 0.9, "type": "rest"}]

    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": 4}))
    for obj in [*pins(1, 1), *pins(2), *pins(3, 1, 2)]:  # A: 2 and out; B: 4, his distance
        state = ENGINE.apply(state, parse_event(obj))
    quick = plain_shot(state.before, state.shot)
    assert quick is not None and quick == settle_general(state.before, state.shot)
    assert quick.winner == "p2" and quick.ended is not None and quick.ended.rule == "kegle.same-series"


def test_the_second_shot_in_a_row_toppling_pins_without_a_cushion_is_a_fault_in_one_pass_too() -> None:
    def topples(t: float, pin: int, cushion: bool) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [{"t": t, "type": "strike", "ball": "red"}]
        if cushion:
            out.append({"t": t + 0.1, "type": "cushion", "cushion": 1, "ball": "red"})
        return [*out, {"t": t + 0.2, "type": "contact", "balls": ["red", "white"]},
                {"t": t + 0.3, "type": "pin", "pin": pin, "state": "down"}, {"t": t + 0.4, "type": "rest"}]

    before, shot = _first_shot(*topples(1, 1, True), {"t": 1.5, "type": "pin", "pin": 1, "state": "up"},
                               *topples(2, 2, False), {"t": 2.5, "type": "pin", "pin": 2, "state": "up"},
                               *topples(3, 3, False))
    quick = plain_shot(before, shot)
    assert quick is not None and quick == settle_general(before, shot)
    assert quick.rulings[-1].rule == "kegle.fault.no-cushion" and quick.at_table == "p2"
