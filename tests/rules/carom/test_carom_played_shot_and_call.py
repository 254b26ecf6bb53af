"""A played table (``Replay()``: every undo kept) takes a shot and the referee's call on the line
after its rest in one step (``ShotEngine.whole_called_played``) where it can, and ends in the
state the shot and the call played apart end in, with every state an undo reaches from it the
same: over made-up carom matches (hypothesis: the matches of test_carom_call_amends_at_once.py,
their calls after the rest among them ``carom``, ``foul``, ``undo``, clocks run back, rests with
and without positions), with a state kept whole every few events or at the usual spacing."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_carom_call_amends_at_once import lines_of, shot
from test_carom_cushion_shot_at_once import CONTEXT, cushion_run
from test_carom_plain_shot import positions

from tablesense.events import Call
from tablesense.replay import Replay
from tablesense.rules import shot_engine
from tablesense.rules.carom.engine import CaromEngine
from tablesense.rules.shot_engine import Redo, Trace


def shape(obj: Any, memo: dict[int, Any]) -> Any:
    """``obj`` as plain values, every link followed (a ``Trace`` as its events, a ``Redo``'s
    base and events, the states before shots); a state met again named by the order found."""
    if type(obj) is Redo or (isinstance(obj, msgspec.Struct) and hasattr(obj, "checkpoint")):
        key = id(obj)
        if key in memo:
            return ("seen", memo[key][0])
        memo[key] = (len(memo), obj)
        return (type(obj).__name__, tuple(shape(getattr(obj, f), memo) for f in obj.__struct_fields__))
    if type(obj) is Trace:
        return ("trace", tuple(obj))
    return obj


def seen(lines: list[str]) -> tuple[Any, ...]:
    """The played replay's last state with its links, its errors, and the states an undo after
    another reaches from it (JSON and value)."""
    rep = Replay().feed_lines(lines)
    engine, state = rep.engine, rep.state
    undone: list[Any] = []
    while engine is not None and state is not None and len(undone) < 300:
        undone.append((engine.to_json(state), msgspec.structs.replace(
            state, checkpoint=None, before=None, base=None, since=())))
        try:
            state = engine.play(state, Call(t=0.0, call="undo"))
        except Exception as exc:
            undone.append(repr(exc))
            break
    return shape(rep.state, {}), rep.errors, rep.to_json(), rep.events, undone


def both_ways(lines: list[str], keep: int) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(shot_engine, "KEEP_EVERY", keep)
        fast = seen(lines)
        mp.setattr(CaromEngine, "takes_called", False)
        assert seen(lines) == fast


KEEP = st.sampled_from([3, 5, 8, shot_engine.KEEP_EVERY])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(shot, min_size=1, max_size=20), *CONTEXT, KEEP)
def test_made_up_played_matches_end_and_undo_alike_with_the_shot_and_call_in_one_step(
        shots: list[Any], discipline: str, profile: str, targets: tuple[int, int], limit: int | None,
        first: str | None, keep: int) -> None:
    both_ways(lines_of(shots, discipline, profile, targets, limit, first), keep)


called = st.sampled_from([[], [({"call": "carom"}, 0.1)], [({"call": "carom"}, 0.1)],
                          [({"call": "carom"}, 0.1), ({"call": "undo"}, 0.1)],
                          [({"call": "carom"}, 0.1), ({"call": "undo"}, 0.1), ({"call": "undo"}, 0.1)]])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(cushion_run, positions, called), min_size=1, max_size=25), *CONTEXT, KEEP)
def test_played_runs_of_called_cushion_shots_end_and_undo_alike(
        shots: list[Any], discipline: str, profile: str, targets: tuple[int, int], limit: int | None,
        first: str | None, keep: int) -> None:
    both_ways(lines_of(shots, discipline, profile, targets, limit, first), keep)


def test_a_played_cushion_shot_and_its_carom_call_are_taken_in_one_step() -> None:
    setup = {"t": 0, "type": "setup", "game": "carom", "profile": "liemers", "discipline": "libre",
             "players": {"p1": "A", "p2": "B"}, "targets": {"p1": 30, "p2": 30}}
    lines = [json.dumps(setup), json.dumps({"t": 1, "type": "cushion", "cushion": 1}),
             json.dumps({"t": 2, "type": "rest"}),
             json.dumps({"t": 3, "type": "cushion", "cushion": 2, "ball": "yellow"}),
             json.dumps({"t": 4, "type": "rest"}), json.dumps({"t": 5, "type": "call", "call": "carom"})]
    taken: list[bool] = []
    step = CaromEngine.whole_called_played
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(CaromEngine, "whole_called_played",
                   lambda self, *a: taken.append(True) or step(self, *a))  # type: ignore[func-returns-value]
        rep = Replay().feed_lines(lines)
    assert taken == [True]
    assert rep.state is not None and rep.engine is not None
    assert rep.engine.game_json(rep.state)["caroms"] == {"p1": 0, "p2": 1}  # (p1's poedel, then p2's carom)
    assert rep.state.at_table == "p2"
    # the call undone: p2's inning ended at the rest
    undone = rep.engine.play(rep.state, Call(t=6, call="undo"))
    assert undone.at_table == "p1" and rep.engine.game_json(undone)["caroms"] == {"p1": 0, "p2": 0}
