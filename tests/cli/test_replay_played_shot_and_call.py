"""A played table (``Replay()``, ``feed_lines``: every undo kept, ``play``) takes a carom shot and
the referee's plain ``carom`` on the line after its rest in one step too
(``ShotEngine.whole_called_played``): every state an undo can reach is the one the shot and the
call taken apart reach. For every recorded carom match, logged each way
test_replay_shot_and_call.py logs it (undos after the calls among them), and with a state kept
whole every few events (``KEEP_EVERY``, so that the step meets that boundary): the last state
with all its links (the states before shots, the ``Redo``s an undo replays, the events since the
base) compared value by value, and an undo after another from it to the set-up, each state's
JSON and value the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from test_replay_shot_and_call import LOGS, logged

from tablesense.events import Call
from tablesense.replay import Replay
from tablesense.rules import shot_engine
from tablesense.rules.carom.engine import CaromEngine
from tablesense.rules.shot_engine import Redo, Trace


def shape(obj: Any, memo: dict[int, Any]) -> Any:
    """``obj`` as plain values, every link followed: a state's fields (a ``Trace`` as its events),
    a ``Redo``'s, the states before shots; shared states given once (by their order found)."""
    if (isinstance(obj, msgspec.Struct) and hasattr(obj, "checkpoint")) or type(obj) is Redo:
        key = id(obj)
        if key in memo:
            return ("seen", memo[key][0])
        memo[key] = (len(memo), obj)  # (kept alive: its id stays its own)
        return (type(obj).__name__, tuple(shape(getattr(obj, f), memo) for f in obj.__struct_fields__))
    if type(obj) is Trace:
        return ("trace", tuple(obj))
    return obj


def walked(rep: Replay) -> list[Any]:
    """The states an undo after another reaches from the replay's last one, as JSON and value
    (their links left out), until an undo is refused."""
    engine, state = rep.engine, rep.state
    out: list[Any] = []
    while engine is not None and state is not None and len(out) < 2_000:
        out.append((engine.to_json(state), msgspec.structs.replace(
            state, checkpoint=None, before=None, base=None, since=())))
        t = state.rulings[-1].t if len(state.rulings) else 0.0
        try:
            state = engine.play(state, Call(t=t, call="undo"))
        except Exception as exc:
            out.append(repr(exc))
            break
    return out


def played(lines: list[str]) -> tuple[Any, ...]:
    rep = Replay().feed_lines(lines)
    return shape(rep.state, {}), rep.errors, rep.to_json(), rep.events, walked(rep)


@pytest.mark.parametrize("keep", [shot_engine.KEEP_EVERY, 7])
@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_a_played_table_takes_a_shot_and_its_carom_call_in_one_step_with_every_undo_the_same(
        path: Path, keep: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shot_engine, "KEEP_EVERY", keep)
    lines = path.read_text(encoding="utf-8").splitlines()
    fast = {way: played(log) for way, log in logged(lines)}
    monkeypatch.setattr(CaromEngine, "takes_called", False)
    for way, log in logged(lines):
        assert played(log) == fast[way], f"{way}: the shot and its call in one step end or undo elsewhere"


@pytest.mark.parametrize("keep", [shot_engine.KEEP_EVERY, 7])
def test_a_played_table_takes_the_recorded_shots_and_their_calls_in_one_step(
        keep: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shot_engine, "KEEP_EVERY", keep)
    taken = []
    step = CaromEngine.whole_called_played

    def counted(self: CaromEngine, *args: Any) -> Any:
        new = step(self, *args)
        taken.append(new is not None)
        return new

    monkeypatch.setattr(CaromEngine, "whole_called_played", counted)
    for path in LOGS:
        for _, log in logged(path.read_text(encoding="utf-8").splitlines()):
            played(log)
    assert sum(taken) > 100
    assert not all(taken)  # (and refused now and then: a state kept whole, a call it is not)
