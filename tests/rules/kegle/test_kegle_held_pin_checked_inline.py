"""A pin set up between keglebillard shots, held in one step with its check inline
(``KegleEngine.held_pin``), gives the state the base's step (``ShotEngine.held_pin``: the engine's
``check``, then one copy of the state) gives, or refuses it as the base does, from every state of
made-up matches (hypothesis: pins falling, rocking and put up, a strike sensor or none, lines out
of order, pockets, calls) and for pins naming nothing, a ball or a ball no table has."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_kegle_plain_shot import shot, states

from tablesense.errors import TablesenseError
from tablesense.events import parse_event
from tablesense.rules import find_engine
from tablesense.rules.shot_engine import ShotEngine

ENGINE = find_engine("kegle")

#: a pin set up, naming nothing, what toppled it, or a ball no keglebillard table has
pin_up = st.tuples(st.integers(1, 5), st.sampled_from([None, None, None, "red", "cue", "yellow"]))


def _held(step: Any, state: Any, pin: Any) -> Any:
    try:
        return step(state, pin)
    except TablesenseError as exc:
        return type(exc)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(shot, min_size=1, max_size=20), st.integers(4, 40), st.booleans(), pin_up)
def test_a_pin_set_up_is_held_with_its_check_inline_as_the_base_holds_it(
        shots: list[Any], distance: int, strikes: bool, up: tuple[int, str | None]) -> None:
    number, ball = up
    for state in states(shots, distance, strikes, None):
        t = state.cut.last_t or 0.0
        pin = parse_event({"t": round(t + 0.05, 3), "type": "pin", "pin": number, "state": "up",
                           **({"ball": ball} if ball else {})})
        base = _held(lambda s, p: ShotEngine.held_pin(ENGINE, s, p), state, pin)
        assert _held(ENGINE.held_pin, state, pin) == base


def test_the_pins_set_up_after_a_shot_are_held_in_one_step_each() -> None:
    """After a shot's rest: each pin set up is held (one more in ``held``, the state before it its
    undo point), the one that names a ball no table has is refused as the base refuses it."""
    lines = [{"t": 0, "type": "setup", "game": "kegle", "players": {"p1": "A", "p2": "B"}},
             {"t": 1.0, "type": "strike", "ball": "red"},
             {"t": 1.2, "type": "cushion", "cushion": 1, "ball": "red"},
             {"t": 1.4, "type": "pin", "pin": 2, "state": "down"},
             {"t": 1.5, "type": "pin", "pin": 3, "state": "down"},
             {"t": 2.0, "type": "rest"}]
    state = ENGINE.new_state(parse_event(lines[0]))
    for obj in lines[1:]:
        state = ENGINE.apply(state, parse_event(obj))
    for k, number in enumerate((2, 3)):
        pin = parse_event({"t": 2.5 + k, "type": "pin", "pin": number, "state": "up"})
        held = ENGINE.held_pin(state, pin)
        assert held is not None
        assert held == ShotEngine.held_pin(ENGINE, state, pin) == ENGINE.apply(state, pin)
        assert held.held[-1] is pin and held.checkpoint is state
        state = held
    odd = parse_event({"t": 5.0, "type": "pin", "pin": 1, "state": "up", "ball": "yellow"})
    refused = _held(lambda s, p: ShotEngine.held_pin(ENGINE, s, p), state, odd)
    assert isinstance(refused, type) and _held(ENGINE.held_pin, state, odd) is refused
