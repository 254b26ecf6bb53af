"""A whole shot and the referee's ``carom`` right after its rest, decided once
(``CaromEngine.whole_called``): the state ``whole`` of the shot and ``apply`` of the call give,
but for the undo's ``checkpoint`` (a ``Redo`` of the state before the shot and its lines, which
gives the state after the rest again), over made-up matches (hypothesis: the matches of
test_carom_call_amends_at_once.py)."""

from __future__ import annotations

import json
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_carom_call_amends_at_once import ENGINE, called_shots_of, lines_of, shot
from test_carom_plain_shot import MATCH_DRAWS

from tablesense.rules.shot_engine import Redo

replace = msgspec.structs.replace


def fused_against_apart(lines: list[str]) -> int:
    """Each shot of the log followed by a call, taken both ways from the state before it; how
    many were taken in one step."""
    taken = 0
    for state, events, rest, call, fused in called_shots_of(lines):
        if fused is not None:
            taken += 1
            after_rest = ENGINE.whole(state, events, rest)
            assert after_rest is not None
            apart = ENGINE.apply(after_rest, call)
            assert replace(fused, checkpoint=None) == replace(apart, checkpoint=None)
            assert ENGINE.to_json(fused) == ENGINE.to_json(apart)
            back = fused.checkpoint
            assert type(back) is Redo and back.base is state and tuple(back.events) == (*events, rest)
            assert back.applied and ENGINE.redo(back) == after_rest
    return taken


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(shot, min_size=1, max_size=20), st.sampled_from(["libre", "bandstoten", "driebanden"]),
       *MATCH_DRAWS)
def test_a_shot_and_the_carom_called_after_it_in_one_step_is_the_two_apart(
        shots: list[Any], discipline: str, profile: str, targets: tuple[int, int], limit: int | None,
        first: str | None) -> None:
    fused_against_apart(lines_of(shots, discipline, profile, targets, limit, first))


def test_a_cushion_shot_and_the_carom_called_after_it_take_the_one_step() -> None:
    setup = {"t": 0, "type": "setup", "game": "carom", "players": {"p1": "A", "p2": "B"},
             "targets": {"p1": 3, "p2": 3}}
    shot_and_call = ({"t": 1, "type": "cushion", "cushion": 1}, {"t": 2, "type": "rest"},
                     {"t": 3, "type": "call", "call": "carom"})
    lines = [json.dumps(o) for o in (setup, *shot_and_call)]
    assert fused_against_apart(lines) == 1
