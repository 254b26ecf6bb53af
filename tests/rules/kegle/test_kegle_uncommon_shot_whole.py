"""A keglebillard shot the common pass refuses but ``_read_any`` reads (``plain._uncommon``: a ball off
the table, a pin naming what toppled it, a pin falling twice or rocking back up, a white struck,
pockets among them; its lines in ``t`` order or turned round) is taken by ``KegleEngine.whole``'s one
pass and ends where the base's way (``ShotEngine.whole``: ``check`` of each event, ``_before_shot``,
``staged``) and ``apply`` of each of its events end, or is refused where they refuse; with the
referee's call on the line after its rest (``whole_called``) it ends where the shot and the call
apart end. Over made-up matches (hypothesis): a strike sensor or none, strikes seen or not, pins put
up and held before the next shot, positions at the rest or none, answers (to this shot's questions
or an old one), fouls, caroms and undos after the rest, and undo of the shot; a call other than an
answer after an uncommon shot is left apart (``whole_called`` answers None)."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_kegle_helpers import apply_after, apply_each, outcome, pins_put_up
from test_kegle_plain_shot import after as calls_after
from test_kegle_plain_shot import positions

from tablesense.events import Call, Event, Rest, parse_event
from tablesense.rules import find_engine
from tablesense.rules.kegle.plain import LATE, common_facts
from tablesense.rules.shot_engine import SHOT_KINDS, Redo, ShotEngine

ENGINE = find_engine("kegle")

_BALL = st.sampled_from(["red", "white", None, "red", "white", None, "yellow"])
#: the events ``_uncommon`` takes, and those next to them it leaves to the base (a ball or a toppler
#: no keglebillard table has, a contact naming its white)
uncommon = st.one_of(
    st.builds(lambda c, b: {"type": "cushion", "cushion": c, "ball": b}, st.integers(1, 4), _BALL),
    st.builds(lambda b: {"type": "off_table", **({"ball": b} if b else {})}, _BALL),
    st.builds(lambda p, by, key: {"type": "pin", "pin": p, "state": "down", **({key: by} if by else {})},
              st.integers(1, 5), st.sampled_from([None, None, "red", "white", "pin", "cue", "foot"]),
              st.sampled_from(["ball", "by"])),
    st.builds(lambda p: {"type": "pin", "pin": p, "state": "up"}, st.integers(1, 5)),  # a pin rocking
    st.sampled_from([{"type": "contact", "balls": ["red", "white"]},
                     {"type": "contact", "balls": ["white", "red"]},
                     {"type": "contact", "balls": ["white", "white"]},
                     {"type": "contact", "balls": ["red", "white"], "white": 1}]),
    st.builds(lambda p, b: {"type": "pocket", "pocket": p, **({"ball": b} if b else {})},
              st.integers(1, 6), _BALL),
)
#: the same shot's events as the recorded matches have them: a cushion, a pin falling, a ball off the
#: table (or a pin naming its toppler)
recorded = st.builds(lambda ball, named: [{"type": "cushion", "cushion": 1, "ball": "red"},
                                          {"type": "pin", "pin": 2, "state": "down", **named},
                                          {"type": "off_table", **({"ball": ball} if ball else {})}],
                     st.sampled_from([None, "red", "white"]), st.sampled_from([{}, {"ball": "red"}]))
#: pins alone that fall and stand again, one naming its toppler or not: the pin referee's hands where
#: he is setting pins up (``_by_hand``), on a table with no strike sensor
hands = st.builds(lambda p, named: [{"type": "pin", "pin": p, "state": "down", **named},
                                    {"type": "pin", "pin": p, "state": "up"}],
                  st.integers(1, 5), st.sampled_from([{}, {"ball": "cue"}]))
#: a shot with a pocket naming no ball (the question an answer after the rest is about): a cushion, the
#: pocket, a ball off the table or a pin falling
pocketed = st.builds(lambda p, then: [{"type": "cushion", "cushion": 1, "ball": "red"},
                                      {"type": "pocket", "pocket": p}, *then],
                     st.integers(1, 6), st.sampled_from([[], [{"type": "off_table", "ball": "white"}],
                                                         [{"type": "pin", "pin": 3, "state": "down"}]]))
called = st.sampled_from([
    None, None, None,
    {"call": "carom"}, {"call": "foul", "foul": "touch"}, {"call": "undo"},
    # the questions this shot asks, numbered on from the state's (``_asked``), or an old one
    {"call": "answer", "question": 1, "answer": "red"},
    {"call": "answer", "question": 2, "answer": "white"},
    {"call": "answer", "question": 1, "answer": "Red"},
    {"call": "answer", "question": "q1", "answer": "white"},
])
shots = st.tuples(
    st.sampled_from([None, None, "red", "white"]),  # a strike first (where strikes are logged), on which ball
    st.one_of(st.lists(uncommon, min_size=1, max_size=6), recorded, hands, pocketed),
    st.integers(0, 6),  # the times turned round by so many places (lines logged out of order)
    positions,
    called,
    calls_after,
    st.sampled_from(["all", "toppled", "none", "none"]),  # the pins put up after the rest
)


def _asked(call_obj: dict[str, Any] | None, asked: int) -> dict[str, Any] | None:
    """``call_obj`` with a question given as a number (the shot's first, second) named as the state
    that has asked ``asked`` questions numbers it next ("q4" after three)."""
    if call_obj is None or type(call_obj.get("question")) is not int:
        return call_obj
    return {**call_obj, "question": f"q{asked + call_obj['question']}"}


def _base_whole(state: Any, events: list[Event], rest: Rest) -> Any:
    return ShotEngine.whole(ENGINE, state, events, rest)


def _held_to_the_base(state: Any, table: list[Event], rest: Rest, call: Call | None) -> None:
    """``whole`` equals the base's ``whole`` and ``apply`` of each event; ``whole_called`` equals the
    shot then the call apart (the undo of the call, a ``Redo``, made again: the state after the rest)."""
    quick = outcome(ENGINE.whole, state, table, rest)
    base = outcome(_base_whole, state, table, rest)
    assert quick == base
    if quick is not None and not isinstance(quick, type):
        assert quick == apply_each(state, table, rest)
        assert tuple(quick.rulings) == tuple(base.rulings)
    if call is None:
        return
    both = outcome(ENGINE.whole_called, state, table, rest, call)
    if common_facts(table) == () and call.call != "answer":
        assert both is None  # an uncommon shot's call other than an answer: the shot and call apart
    if both is None or isinstance(both, type):
        return
    assert quick is not None and not isinstance(quick, type)
    apart = outcome(ENGINE.apply, quick, call)
    back = both.checkpoint
    if type(back) is Redo:
        assert ENGINE.redo(back) == quick
        unmarked = msgspec.structs.replace
        assert unmarked(both, checkpoint=None) == unmarked(apart, checkpoint=None)
    else:
        assert both == apart
    assert tuple(both.rulings) == tuple(apart.rulings)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(shots, min_size=1, max_size=20), st.integers(10, 60), st.booleans(), st.booleans())
def test_a_shot_the_common_pass_refuses_ends_in_one_pass_where_the_base_and_each_event_do(
        played: list[Any], distance: int, sensor: bool, strikes: bool) -> None:
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": distance}))
    if sensor:  # a table with a strike sensor: a shot opens at the strike, or a ball seen rolling
        state = msgspec.structs.replace(state, cut=msgspec.structs.replace(state.cut, strike_sensor=True))
    t = 0.0
    for struck, events, turn, where, call_obj, calls, put_up in played:
        objs: list[dict[str, Any]] = []
        if strikes and struck is not None:
            objs.append({"type": "strike", "ball": struck})
        objs.extend(events)
        times = [round(t + 0.1 * (i + 1), 3) for i in range(len(objs))]
        t = times[-1] + 0.1
        turn %= len(times)
        times = times[turn:] + times[:turn]
        table = [parse_event({"t": x, **o}) for x, o in zip(times, objs, strict=True)]
        rest = parse_event({"t": round(t, 3), "type": "rest", **({"positions": where} if where else {})})
        call_obj = _asked(call_obj, state.asked)
        call = None if call_obj is None else parse_event({"t": round(t + 0.05, 3), "type": "call",
                                                          **call_obj})
        assert type(rest) is Rest and (call is None or type(call) is Call)
        if all(type(e) in SHOT_KINDS for e in table) and not state.in_shot:
            _held_to_the_base(state, table, rest, call)
        after: list[dict[str, Any]] = ([] if call_obj is None else [call_obj]) + list(calls)
        after.extend({"type": "pin", "pin": p, "state": "up"} for p in pins_put_up(events, put_up))
        state, t = apply_after(state, table, rest, after, t)


def test_the_recorded_shapes_go_the_one_pass() -> None:
    """The recorded matches' shots the base took before (a pin naming the red, a ball off the table,
    logged in order or with the off-table line late) are ``_read_any``'s now; a strike logged late
    or a pin rising in a shot out of order stay the base's."""
    def events(*objs: dict[str, Any]) -> list[Event]:
        return [parse_event({"t": 1 + 0.1 * i, **o}) for i, o in enumerate(objs)]

    cushion = {"type": "cushion", "cushion": 1, "ball": "red"}
    pin = {"type": "pin", "pin": 2, "state": "down"}
    off = {"type": "off_table", "ball": "white"}
    assert common_facts(events(cushion, {**pin, "ball": "red"})) == ()
    assert common_facts(events(cushion, pin, off)) == ()
    late = events(cushion, pin, off)
    late.insert(0, late.pop())
    assert common_facts(late) is LATE
    start = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": 30}))
    rest = Rest(t=2.0)
    for shot in (events(cushion, {**pin, "ball": "red"}), events(cushion, pin, off), late):
        quick = ENGINE.whole(start, shot, rest)
        assert quick is not None and quick == ShotEngine.whole(ENGINE, start, shot, rest)
