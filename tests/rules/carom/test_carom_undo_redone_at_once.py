"""An undo of a shot taken with the referee's call after its rest (``whole_called``) goes back to the
state after the shot's rest, which the step keeps as a ``Redo`` (the state before the shot, the
shot's events and its rest ``apply``'d again). ``CaromEngine.redo`` makes that state in one step
(``whole``) where ``whole`` takes the shot. Held over made-up matches (hypothesis) to the base's way
(``ShotEngine.redo``: each event applied again, one at a time), each ``Redo`` on its own and a whole
replay (bounded history and every undo kept) with the step off: full-information shots with a strike
sensor or none, shots the cushion sensors alone saw, calls during the shot, calls after the rest
(caroms, fouls naming a player or none, notes, undo), calls timed before the shot's own events,
positions or none, every discipline, both club profiles, small targets and innings limits."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from test_carom_call_amends_at_once import ENGINE, called_shots_of, lines_of
from test_carom_foul_after_rest_in_one_step import ends, match, replayed

from tablesense.replay import Replay, history_for
from tablesense.rules.carom.engine import CaromEngine
from tablesense.rules.shot_engine import Redo, ShotEngine


@contextmanager
def one_at_a_time() -> Iterator[None]:
    """``CaromEngine.redo`` off: every ``Redo`` made again the base's way."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(CaromEngine, "redo", ShotEngine.redo)
        yield


def redone_both_ways(lines: list[str]) -> int:
    """Each shot of the log with a call on the line after its rest, taken in one step where
    ``whole_called`` takes it: its ``Redo`` made again both ways, compared; how many ``whole`` made."""
    taken = 0
    for *_shot, fused in called_shots_of(lines):
        if fused is not None:
            back = fused.checkpoint
            assert type(back) is Redo and back.applied
            quick = ENGINE.redo(back)
            assert quick == ShotEngine.redo(ENGINE, back)
            assert ENGINE.to_json(quick) == ENGINE.to_json(ShotEngine.redo(ENGINE, back))
            taken += ENGINE.whole(back.base, back.events[:-1], back.events[-1]) is not None  # type: ignore[arg-type]
    return taken


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*match)
def test_a_shot_redone_at_once_is_the_shot_applied_again_one_event_at_a_time(
        shots: list[Any], discipline: str, profile: str, targets: tuple[int, int], limit: int | None,
        first: str | None) -> None:
    redone_both_ways(lines_of(shots, discipline, profile, targets, limit, first))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*match)
def test_a_replay_whose_undos_are_redone_at_once_ends_where_one_applying_each_event_does(
        shots: list[Any], discipline: str, profile: str, targets: tuple[int, int], limit: int | None,
        first: str | None) -> None:
    lines = lines_of(shots, discipline, profile, targets, limit, first)
    quick = ends(lines)
    with one_at_a_time():
        assert ends(lines) == quick


def _log(*objs: dict[str, Any], discipline: str, profile: str) -> list[str]:
    setup = {"t": 0, "type": "setup", "game": "carom", "discipline": discipline, "profile": profile,
             "players": {"p1": "A", "p2": "B"}, "targets": {"p1": 5, "p2": 5}}
    return [json.dumps(o) for o in (setup, *objs)]


@pytest.mark.parametrize("discipline", ["libre", "bandstoten", "driebanden"])
@pytest.mark.parametrize("profile", ["club", "liemers"])
@pytest.mark.parametrize("shot", [
    [{"t": 1, "type": "cushion", "cushion": 1}, {"t": 1.5, "type": "cushion", "cushion": 2}],
    [{"t": 1, "type": "strike", "ball": "yellow"}, {"t": 1.2, "type": "contact", "balls": ["yellow", "red"]},
     {"t": 1.4, "type": "cushion", "cushion": 3, "ball": "yellow"}],
], ids=["cushions", "sensed"])
@pytest.mark.parametrize("call", [{"call": "carom"}, {"call": "foul", "foul": "touch"}],
                         ids=["carom", "foul"])
def test_an_undo_of_a_shot_and_its_call_goes_back_to_the_rest_in_one_step(
        discipline: str, profile: str, shot: list[dict[str, Any]], call: dict[str, Any]) -> None:
    lines = _log(*shot, {"t": 2, "type": "rest"}, {"t": 3, "type": "call", **call},
                 {"t": 4, "type": "call", "call": "undo"}, discipline=discipline, profile=profile)
    assert redone_both_ways(lines) == 1  # the step taken, the redo made by ``whole``
    rep = Replay(history=history_for(1)).feed_lines(lines)
    assert not rep.errors and rep.state.shot is not None and rep.state.shot.calls == ()
    at_rest = replayed(lines[:-2], None)
    json_, errors, _events, rulings = replayed(lines, history_for(1))
    assert (json_, errors, rulings) == (at_rest[0], at_rest[1], at_rest[3])  # back at the rest
    with one_at_a_time():
        json_, errors, _events, rulings = replayed(lines, history_for(1))
    assert (json_, errors, rulings) == (at_rest[0], at_rest[1], at_rest[3])
