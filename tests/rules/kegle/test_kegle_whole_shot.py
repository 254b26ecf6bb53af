"""A keglebillard shot taken at once by its one pass (``KegleEngine.whole``: its events checked and
read together, the pins set up before its strike put up in the same copy of the state as the
last shot closes) ends where the base's way (``ShotEngine.whole``) and ``apply`` of each of its
events in turn end, or refuses what they refuse, over made-up matches (hypothesis): pins falling,
rocking and put up between shots (held until the strike on a table that reports strikes), lines
out of order, holes (pockets among common shots: the one pass takes them too), balls off the
table, a white struck, pins naming what toppled them, contacts naming their white, a ball no
keglebillard table has, fouls, undo."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_kegle_helpers import apply_after, apply_each, outcome, pins_put_up
from test_kegle_plain_shot import after, played, positions
from test_kegle_plain_shot import shot as shots

from tablesense.events import Event, Rest, parse_event
from tablesense.rules import find_engine
from tablesense.rules.kegle.plain import LATE, common_facts
from tablesense.rules.shot_engine import SHOT_KINDS, ShotEngine

ENGINE = find_engine("kegle")

#: events the one pass gives to the base's way: a ball no keglebillard table has, a pin naming its toppler
odd = st.sampled_from([
    {"type": "cushion", "cushion": 2, "ball": "yellow"},
    {"type": "strike", "ball": "p1"},
    {"type": "contact", "balls": ["red", "yellow"]},
    {"type": "pin", "pin": 4, "state": "down", "ball": "red"},
    {"type": "pin", "pin": 4, "state": "down", "ball": "cue"},
])


#: pockets among a shot's events: naming a ball or none (the one pass takes the shot, ``_read_any``
#: reads it), a ball no keglebillard table has (refused), or with a field more
pocket = st.builds(lambda p, b: {"type": "pocket", "pocket": p, **({"ball": b} if b else {})},
                   st.integers(1, 6), st.sampled_from([None, None, "red", "white", "white", "yellow"]))
pocket_odd = st.one_of(pocket, pocket, pocket, st.just({"type": "pocket", "pocket": 3, "note": "x"}))


def _among(events: list[dict[str, Any]], pockets: list[tuple[int, dict[str, Any]]]) -> list[dict[str, Any]]:
    out = list(events)
    for at, obj in pockets:
        out.insert(min(at, len(out)), obj)
    return out


#: shots as most are (``played``) with up to two pockets among their events, a strike first or not
#: (struck on the red)
with_pockets = st.builds(_among, played, st.lists(st.tuples(st.integers(0, 6), pocket_odd), max_size=2))
common_shots = st.tuples(st.booleans(), st.just("red"), with_pockets, st.just(False), positions, after,
                         st.sampled_from(["all", "all", "all", "toppled", "none"]))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(shots, min_size=1, max_size=25), st.integers(4, 40), st.booleans(),
       st.lists(st.tuples(st.integers(0, 24), st.integers(0, 4), odd), max_size=3))
def test_a_shot_taken_at_once_in_one_pass_ends_where_the_base_and_each_event_do(
        played: list[Any], distance: int, strikes: bool, odds: list[tuple[int, int, dict[str, Any]]]) -> None:
    _play_and_compare(played, distance, strikes, odds)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(common_shots, min_size=1, max_size=25), st.integers(40, 200), st.booleans(),
       st.lists(st.tuples(st.integers(0, 24), st.integers(0, 4), odd), max_size=2))
def test_a_shot_with_pockets_taken_in_one_pass_ends_where_the_base_and_each_event_do(
        played: list[Any], distance: int, strikes: bool, odds: list[tuple[int, int, dict[str, Any]]]) -> None:
    _play_and_compare(played, distance, strikes, odds)


#: shots with one or two pockets among their events (logged out of order below), the pins put up
#: after the rest or not (held pins: the one pass leaves such a shot to the base's way)
late_shots = st.tuples(st.booleans(), st.just("red"),
                       st.builds(_among, played, st.lists(st.tuples(st.integers(0, 6), pocket), min_size=1,
                                                          max_size=2)),
                       st.just(False), positions, after, st.sampled_from(["none", "none", "all", "toppled"]))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(late_shots, min_size=1, max_size=25), st.integers(40, 200), st.booleans(),
       st.lists(st.integers(1, 6), min_size=25, max_size=25))
def test_a_shot_with_pockets_logged_out_of_order_taken_in_one_pass_ends_where_the_base_and_each_event_do(
        played: list[Any], distance: int, strikes: bool, turns: list[int]) -> None:
    """The recorded matches' shape: a shot's lines logged out of ``t`` order (its times turned
    round, the pocket often the earliest and logged last), on a table with a strike sensor (the
    base takes a drop before the shot's start out of it) or without one, pins held before it."""
    _play_and_compare(played, distance, strikes, [], turns)


def _play_and_compare(played: list[Any], distance: int, strikes: bool,
                      odds: list[tuple[int, int, dict[str, Any]]], turns: list[int] | None = None) -> None:
    """Play the match, each shot's table events ``whole`` once (against the base's way and ``apply``
    of each), then ``apply`` of each of its lines (the calls after its rest, the pins set up);
    ``turns``: each shot's times turned round by so many places (its lines out of order)."""
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": distance}))
    t = 0.0
    for k, (struck, ball_struck, events, shuffled, where, calls, put_up) in enumerate(played):
        objs: list[dict[str, Any]] = []
        if strikes and struck:
            objs.append({"type": "strike", "ball": ball_struck})
        objs.extend(events)
        for at, where_odd, obj in odds:
            if at == k:
                objs.insert(min(where_odd, len(objs)), obj)
        times = [t + 0.1 * (i + 1) for i in range(len(objs))]
        if shuffled and len(times) > 1:
            times[0], times[1] = times[1], times[0]
        t = (times[-1] if times else t) + 0.1
        if turns and times:
            turn = turns[k % len(turns)] % len(times)
            times = times[turn:] + times[:turn]
        table = [parse_event({"t": round(x, 3), **o}) for x, o in zip(times, objs, strict=True)]
        rest = parse_event({"t": round(t, 3), "type": "rest", **({"positions": where} if where else {})})
        assert type(rest) is Rest
        if table and all(type(e) in SHOT_KINDS for e in table) and not state.in_shot:
            quick = outcome(ENGINE.whole, state, table, rest)
            base = outcome(lambda s, e, r: ShotEngine.whole(ENGINE, s, e, r), state, table, rest)
            assert quick == base
            if quick is not None and not isinstance(quick, type):
                assert quick == apply_each(state, table, rest)
                assert tuple(quick.rulings) == tuple(base.rulings)
        after: list[dict[str, Any]] = list(calls)
        after.extend({"type": "pin", "pin": p, "state": "up"} for p in pins_put_up(events, put_up))
        state, t = apply_after(state, table, rest, after, t)


def test_the_common_shot_is_read_in_one_pass_and_a_shot_out_of_order_is_not() -> None:
    def events(*objs: dict[str, Any]) -> list[Event]:
        return [parse_event({"t": 1 + 0.1 * i, **o}) for i, o in enumerate(objs)]

    strike, cushion = {"type": "strike", "ball": "red"}, {"type": "cushion", "cushion": 1, "ball": "red"}
    contact = {"type": "contact", "balls": ["red", "white"]}
    pin = {"type": "pin", "pin": 3, "state": "down"}
    assert common_facts(events(strike, cushion, contact, contact, pin)) == ([3], 1, True, [])
    # a pin down before the red touched a white, in a shot with contacts: the red's (8.1)
    assert common_facts(events(strike, pin, contact)) == ([3], 0, False, ["kegle.fault.red-topples-pin"])
    late_first = events(cushion, pin)
    late_first.reverse()
    assert common_facts(late_first) is LATE  # (read by ``_read_any``, in ``t`` order)
    # a pocket: the shot is common but for it, read with its balls (``plain._read_any``)
    assert common_facts(events(strike, {"type": "pocket", "pocket": 2})) == ()
    assert common_facts(events(strike, pin, {"type": "pocket", "pocket": 2, "ball": "white"})) == ()
    assert common_facts(events(strike, {"type": "pocket", "pocket": 2, "ball": "yellow"})) is None
    late_pocket = events(cushion, {"type": "pocket", "pocket": 2})
    late_pocket.reverse()
    assert common_facts(late_pocket) is LATE and not LATE  # (read by ``_read_any``, in ``t`` order)
    late_strike = events(strike, cushion, {"type": "pocket", "pocket": 2})
    late_strike.reverse()
    assert common_facts(late_strike) is None  # (the base finds the shot's start from its strike)
    late_off = events(cushion, {"type": "pocket", "pocket": 2}, {"type": "off_table", "ball": "red"})
    late_off.reverse()
    assert common_facts(late_off) is LATE
    off = {"type": "off_table", "ball": "red"}
    assert common_facts(events(strike, {"type": "pocket", "pocket": 2}, off)) == ()
    # a ball off the table, a pin naming its toppler, rocking or falling twice, a white struck:
    # ``_read_any``'s; out of order with a strike or a pin rising: the base's (``_before_shot``)
    named = {"type": "pin", "pin": 3, "state": "down", "ball": "cue"}
    up = {"type": "pin", "pin": 3, "state": "up"}
    assert common_facts(events(cushion, off)) == ()
    assert common_facts(events(cushion, named)) == ()
    assert common_facts(events(cushion, pin, up, pin)) == ()
    assert common_facts(events({"type": "strike", "ball": "white"}, pin)) == ()
    assert common_facts(events(named, up)) is None  # (pins alone: perhaps the pin referee's hands)
    assert common_facts(events(up, cushion)) is None  # (a pin set up opens no shot)
    assert common_facts(events(cushion, {**named, "ball": "foot"})) is None  # (``check`` refuses it)
    late_up = events(cushion, pin, up)
    late_up.reverse()
    assert common_facts(late_up) is None
    late_struck = events(strike, cushion, off)
    late_struck.reverse()
    assert common_facts(late_struck) is None
