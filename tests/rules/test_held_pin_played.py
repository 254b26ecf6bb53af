"""A played table (``Replay()``, ``feed_lines``: every undo kept, ``play``) takes a keglebillard pin
set up between shots in one step too (``ShotEngine.held_pin_played``): from any state a played
match reaches, the state it makes for a pin set up is the one ``play`` makes, links and all (the
``Redo`` an undo replays, the events since the state kept whole), or it makes none (``play``
then); where ``play`` refuses the pin it makes none or raises too. Every recorded keglebillard
match, played with and without the step, with a state kept whole every few events too, ends in
the same state, and an undo after another from it reaches the same states."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import MATCHES, ROOT
from test_held_pin import PINS, SETUP, STEPS
from test_replay_played_shot_and_call import shape, walked

from tablesense.events import Pin, parse_event
from tablesense.replay import Replay
from tablesense.rules import find_engine, shot_engine
from tablesense.rules.kegle.engine import KegleEngine

LOGS = sorted(MATCHES.glob("kegle/*.jsonl"))


def _held_as_played(engine: Any, state: Any, pin: Pin) -> bool:
    """Whether ``held_pin_played`` took ``pin`` (checked against ``play``)."""
    try:
        want: Any = engine.play(state, pin)
    except Exception as exc:
        want = type(exc)
    try:
        got = engine.held_pin_played(state, pin)
    except Exception as exc:
        assert want is type(exc), f"held_pin_played raised {exc!r} where play gave {want!r}"
        return False
    if got is None:
        return False
    assert shape(got, {}) == shape(want, {})
    assert got.held[-1] is pin and got.base is state.base
    return True


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.05, 0.2, 1.0, 4.0]), st.sampled_from(STEPS)), max_size=40),
       st.booleans(), st.sampled_from([shot_engine.KEEP_EVERY, 3]))
def test_a_pin_set_up_between_shots_is_held_as_play_holds_it(steps: list[tuple[float, dict[str, Any]]],
                                                             strike_sensor: bool, keep: int) -> None:
    engine = find_engine("kegle")
    old = shot_engine.KEEP_EVERY
    shot_engine.KEEP_EVERY = keep  # a state kept whole every few events: the step meets that boundary
    try:
        state = engine.new_state(parse_event({"t": 0.0, **SETUP}))  # type: ignore[arg-type]
        if strike_sensor:
            state = engine.play(state, parse_event({"t": 0.01, "type": "strike", "ball": "white"}))
        t = 0.01
        for dt, step in steps:
            t += dt
            for raw in PINS:
                _held_as_played(engine, state, parse_event({"t": round(t, 3), **raw}))  # type: ignore[arg-type]
            try:
                state = engine.play(state, parse_event({"t": round(t, 3), **step}))
            except Exception:
                continue
    finally:
        shot_engine.KEEP_EVERY = old


def played(lines: list[str]) -> tuple[Any, ...]:
    rep = Replay().feed_lines(lines)
    return shape(rep.state, {}), rep.errors, rep.to_json(), rep.events, walked(rep)


@pytest.mark.parametrize("keep", [shot_engine.KEEP_EVERY, 7])
def test_a_played_table_holds_each_recorded_pin_set_up_in_one_step_with_every_undo_the_same(
        keep: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shot_engine, "KEEP_EVERY", keep)
    logs = [path.read_text(encoding="utf-8").splitlines() for path in LOGS]
    taken = []
    step = KegleEngine.held_pin_played

    def counted(self: Any, state: Any, pin: Any) -> Any:
        new = step(self, state, pin)
        taken.append(new is not None)
        return new

    monkeypatch.setattr(KegleEngine, "held_pin_played", counted)
    fast = [played(lines) for lines in logs]
    assert sum(taken) > 50  # the recorded matches' pins set up between shots are taken so
    monkeypatch.setattr(KegleEngine, "takes_held", False)
    for path, lines, want in zip(LOGS, logs, fast, strict=True):
        assert played(lines) == want, f"{path.stem}: the pins held in one step end or undo elsewhere"


def test_only_keglebillard_holds_pins_in_one_step_when_played() -> None:
    from tablesense.replay import _steps

    holds = {game: _steps(find_engine(game), True)[2] is not None for game in ("golf", "kegle", "carom")}
    assert holds == {"golf": False, "kegle": True, "carom": False}


def test_the_bench_match_ends_the_same_with_its_pins_held_in_one_step(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("kegle_replay", ROOT / "bench" / "kegle_replay.py")
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    lines = bench.synthetic_match(400)
    fast = played(lines)
    monkeypatch.setattr(KegleEngine, "takes_held", False)
    assert played(lines) == fast
