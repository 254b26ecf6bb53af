"""A replay takes a pin set up between shots in one step (``ShotEngine.held_pin``): from any
state a keglebillard match reaches (its events applied one at a time: shots, settles, pins
set up and knocked over, strikes, calls), the state it makes for a pin set up is the one
``apply`` makes, or it makes none (and the replay applies the pin as ever); where ``apply``
refuses the pin, it makes none or raises too. Only an engine whose ``apply`` is the base's
holds pins so (``takes_held``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import MATCHES

from tablesense.events import Pin, parse_event
from tablesense.replay import Replay, effective_lines
from tablesense.rules import find_engine
from tablesense.rules.shot_engine import ShotEngine

#: what a keglebillard table and its referee log between and in shots
STEPS = [
    {"type": "strike", "ball": "white"}, {"type": "cushion", "cushion": 2, "ball": "white"},
    {"type": "contact", "balls": ["white", "red"]}, {"type": "pin", "pin": 3, "state": "down"},
    {"type": "pin", "pin": 3, "state": "up"}, {"type": "pin", "pin": 1, "state": "down", "ball": "red"},
    {"type": "pin", "pin": 1, "state": "up"}, {"type": "pocket", "pocket": 2, "ball": "red"},
    {"type": "rest"}, {"type": "rest"}, {"type": "call", "call": "undo"}, {"type": "call", "call": "foul",
                                                                         "foul": "pins-not-up"},
]
#: the pins set up that are tried at each state: plain, with what put them up, one a table has not
PINS = [{"type": "pin", "pin": p, "state": "up"} for p in (1, 3, 5)] + [
    {"type": "pin", "pin": 2, "state": "up", "ball": "cue"},
    {"type": "pin", "pin": 4, "state": "up", "ball": "p9"}]
SETUP = {"type": "setup", "game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}}


def _held_as_applied(engine: Any, state: Any, pin: Pin) -> None:
    try:
        want: Any = engine.apply(state, pin)
    except Exception as exc:
        want = type(exc)
    try:
        got = engine.held_pin(state, pin)
    except Exception as exc:
        assert want is type(exc), f"held_pin raised {exc!r} where apply gave {want!r}"
        return
    if got is not None:
        assert got == want
        assert got.checkpoint is state and got.held[-1] is pin


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.05, 0.2, 1.0, 4.0]), st.sampled_from(STEPS)), max_size=40),
       st.booleans())
def test_a_pin_set_up_between_shots_is_held_as_apply_holds_it(steps: list[tuple[float, dict[str, Any]]],
                                                              strike_sensor: bool) -> None:
    engine = find_engine("kegle")
    state = engine.new_state(parse_event({"t": 0.0, **SETUP}))  # type: ignore[arg-type]
    if strike_sensor:
        state = engine.apply(state, parse_event({"t": 0.01, "type": "strike", "ball": "white"}))
    t = 0.01
    for dt, step in steps:
        t += dt
        for raw in PINS:
            _held_as_applied(engine, state, parse_event({"t": round(t, 3), **raw}))  # type: ignore[arg-type]
        try:
            state = engine.apply(state, parse_event({"t": round(t, 3), **step}))
        except Exception:
            continue


@pytest.mark.parametrize("path", sorted(MATCHES.glob("kegle/*.jsonl")), ids=lambda p: p.stem)
def test_every_pin_set_up_of_a_recorded_match_is_held_as_apply_holds_it(path: Path) -> None:
    rep = Replay(history=10**6)
    for n, text in effective_lines(path.read_text(encoding="utf-8").splitlines()):
        event = json.loads(text) if text.startswith("{") else None
        if rep.state is not None and isinstance(event, dict) and event.get("type") == "pin" \
                and event.get("state") == "up":
            _held_as_applied(rep.engine, rep.state, parse_event(event))  # type: ignore[arg-type]
        rep.feed_line(text, n)


def test_only_an_engine_holding_pins_with_the_bases_apply_takes_them_in_one_step() -> None:
    takes = {game: type(find_engine(game)).takes_held for game in ("golf", "kegle", "carom")}
    assert takes == {"golf": False, "kegle": True, "carom": False}
    assert ShotEngine.takes_held is False
