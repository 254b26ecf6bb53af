"""A pin set up between keglebillard shots in a match played (every undo kept: the live table, the
pub screens, ``Replay()``), held in one frame (``KegleEngine.held_pin_played``: the cut and the pin's
check inline), gives the state the base's step gives (``ShotEngine.held_pin_played``: ``_pin_cut``,
the engine's ``check``, then one copy with ``play``'s links) and the state ``play`` of the pin gives,
or refuses it as the base does, from every played state of made-up matches (hypothesis: pins falling,
rocking and put up, a strike sensor or none, lines out of order, pockets, calls) and for pins naming
nothing, a ball or a ball no table has."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_kegle_held_pin_checked_inline import pin_up
from test_kegle_helpers import pins_put_up
from test_kegle_plain_shot import shot

from tablesense.errors import TablesenseError
from tablesense.events import parse_event
from tablesense.rules import find_engine
from tablesense.rules.shot_engine import KEEP_EVERY, ShotEngine, Trace

ENGINE = find_engine("kegle")


def shot_lines(drawn: Any, strikes: bool, t: float) -> tuple[list[dict[str, Any]], dict[str, Any], float]:
    """A shot drawn from ``test_kegle_plain_shot.shot`` as log objects: its table events (a strike
    first where the table logs strikes) timed 0.1 s apart on from ``t``, its rest, and the rest's
    time (the drawn objects copied, not stamped: a strategy may draw one twice)."""
    struck, ball_struck, events, _shuffled, where, _calls, _put_up = drawn
    objs: list[dict[str, Any]] = []
    if strikes and struck:
        objs.append({"type": "strike", "ball": ball_struck})
    objs.extend(events)
    timed = []
    for obj in objs:
        t += 0.1
        timed.append({**obj, "t": round(t, 3)})
    t += 0.1
    return timed, {"t": round(t, 3), "type": "rest", **({"positions": where} if where else {})}, t


def _played(shots: list[Any], distance: int, strikes: bool) -> list[Any]:
    """Every state of the match the shots make, each line ``play``ed (a refused one skipped)."""
    t = 0.0
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": distance}))
    out = [state]
    for drawn in shots:
        objs, rest, t = shot_lines(drawn, strikes, t)
        objs.append(rest)
        events, calls, put_up = drawn[2], drawn[5], drawn[6]
        for call in calls:
            t += 0.1
            objs.append({"t": round(t, 3), **call})
        for p in pins_put_up(events, put_up):
            t += 0.1
            objs.append({"t": round(t, 3), "type": "pin", "pin": p, "state": "up"})
        for obj in objs:
            try:
                state = ENGINE.play(state, parse_event(obj))
            except TablesenseError:
                continue
            out.append(state)
    return out


def _held(step: Any, state: Any, pin: Any) -> Any:
    """The step's state, its events since the base as a tuple (a ``Trace`` equals only itself), or
    the error it raised, or None."""
    try:
        new = step(state, pin)
    except TablesenseError as exc:
        return type(exc)
    return None if new is None else msgspec.structs.replace(new, since=tuple(new.since))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(shot, min_size=1, max_size=20), st.integers(4, 40), st.booleans(), pin_up)
def test_a_pin_set_up_in_a_played_match_is_held_in_one_frame_as_the_base_and_play_hold_it(
        shots: list[Any], distance: int, strikes: bool, up: tuple[int, str | None]) -> None:
    number, ball = up
    for state in _played(shots, distance, strikes):
        t = state.cut.last_t or 0.0
        pin = parse_event({"t": round(t + 0.05, 3), "type": "pin", "pin": number, "state": "up",
                           **({"ball": ball} if ball else {})})
        base = _held(lambda s, p: ShotEngine.held_pin_played(ENGINE, s, p), state, pin)
        quick = _held(ENGINE.held_pin_played, state, pin)
        assert quick == base
        if quick is not None and not isinstance(quick, type):
            assert quick == _held(ENGINE.play, state, pin)
            assert quick.since == (*state.since, pin)


def test_the_pins_set_up_after_a_played_shot_are_held_and_undone_one_by_one() -> None:
    """After a played shot's rest each pin set up is held in one frame, as ``play`` holds it; an undo
    of each gives the state before it; a pin naming a ball no table has is refused as the base does;
    at ``KEEP_EVERY`` events since the base the step leaves the pin to ``play``."""
    lines = [{"t": 0, "type": "setup", "game": "kegle", "players": {"p1": "A", "p2": "B"}},
             {"t": 1.0, "type": "strike", "ball": "red"},
             {"t": 1.2, "type": "cushion", "cushion": 1, "ball": "red"},
             {"t": 1.4, "type": "pin", "pin": 2, "state": "down"},
             {"t": 1.5, "type": "pin", "pin": 3, "state": "down"},
             {"t": 2.0, "type": "rest"},
             {"t": 2.2, "type": "strike", "ball": "red"},
             {"t": 2.4, "type": "cushion", "cushion": 2, "ball": "red"},
             {"t": 2.6, "type": "pin", "pin": 1, "state": "down"},
             {"t": 3.0, "type": "rest"}]
    state = ENGINE.new_state(parse_event(lines[0]))
    for obj in lines[1:]:
        state = ENGINE.play(state, parse_event(obj))
    assert state.base is not None
    undo_points = []
    for k, number in enumerate((1, 2, 3)):
        pin = parse_event({"t": 3.5 + k, "type": "pin", "pin": number, "state": "up"})
        held = ENGINE.held_pin_played(state, pin)
        assert held is not None and held.held[-1] is pin
        assert _held(ENGINE.held_pin_played, state, pin) == _held(ENGINE.play, state, pin) == \
            _held(lambda s, p: ShotEngine.held_pin_played(ENGINE, s, p), state, pin)
        undo_points.append(state)
        state = held
    for k, before in enumerate(reversed(undo_points)):
        state = ENGINE.play(state, parse_event({"t": 7.0 + k, "type": "call", "call": "undo"}))
        assert state.held == before.held and state.cut == before.cut
        assert ENGINE.to_json(state) == ENGINE.to_json(before)
    odd = parse_event({"t": 9.0, "type": "pin", "pin": 1, "state": "up", "ball": "yellow"})
    refused = _held(lambda s, p: ShotEngine.held_pin_played(ENGINE, s, p), state, odd)
    assert isinstance(refused, type) and _held(ENGINE.held_pin_played, state, odd) is refused
    pin = parse_event({"t": 9.5, "type": "pin", "pin": 1, "state": "up"})
    full = msgspec.structs.replace(state, since=Trace([[pin] * KEEP_EVERY, None], KEEP_EVERY))
    assert ENGINE.held_pin_played(full, pin) is None and ShotEngine.held_pin_played(ENGINE, full, pin) is None


def test_a_pin_that_fell_after_the_rest_and_rises_again_is_left_to_play() -> None:
    """A pin falling after the shot's rest (its settle) and rising again is the shot's pin rocking
    back up (8.2), not a pin set up: neither step holds it, ``play`` takes it."""
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}}))
    for obj in ({"t": 1.0, "type": "strike", "ball": "red"},
                {"t": 1.2, "type": "cushion", "cushion": 1, "ball": "red"},
                {"t": 1.4, "type": "pin", "pin": 2, "state": "down"}, {"t": 2.0, "type": "rest"},
                {"t": 2.2, "type": "strike", "ball": "red"},
                {"t": 2.4, "type": "cushion", "cushion": 1, "ball": "red"},
                {"t": 3.0, "type": "rest"}, {"t": 3.1, "type": "pin", "pin": 4, "state": "down"}):
        state = ENGINE.play(state, parse_event(obj))
    assert state.base is not None and 4 in state.cut.settled_pins
    pin = parse_event({"t": 3.2, "type": "pin", "pin": 4, "state": "up"})
    assert ENGINE.held_pin_played(state, pin) is None
    assert ShotEngine.held_pin_played(ENGINE, state, pin) is None
    assert ENGINE.play(state, pin).held == ()
