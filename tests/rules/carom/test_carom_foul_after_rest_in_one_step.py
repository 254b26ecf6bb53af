"""A whole shot and the referee's call on the line after its rest that amends it the general way,
in one step (``CaromEngine.whole_called``'s ``_amended``): a foul called after the rest, or a
``carom`` called after a shot the plain decision refuses (a carom left in dedans), resolved once
with the call (``resolve``), not at the rest and again at the call. Held over made-up matches
(hypothesis) to ``whole`` of the shot and ``apply`` of the call, and a whole replay (bounded
history and every undo kept) to one with the step off: full-information shots with a strike
sensor or none, shots the cushion sensors alone saw, calls during the shot, fouls of many kinds
after the rest (naming no player, the shooter or the other one; a foul the profile does not know),
positions or none, calls timed before the shot's own events, undo, every discipline, both club
profiles, small targets and innings limits."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_carom_call_amends_at_once import ENGINE, lines_of
from test_carom_plain_shot import MATCH_DRAWS, events, positions, zone_positions
from test_carom_whole_shot_and_call import fused_against_apart

from tablesense.events import Call, parse_event
from tablesense.replay import Replay, history_for
from tablesense.rules.carom.engine import CaromEngine
from tablesense.rules.shot_engine import Redo

#: what the referee calls after a rest, ``dt`` after it (a negative ``dt`` times the call before the
#: shot's own events): fouls of many kinds most often, naming a player or not
after = st.lists(st.tuples(st.sampled_from([
    {"call": "foul", "foul": "touch"}, {"call": "foul", "foul": "wrong-ball"},
    {"call": "foul", "foul": "wrong_ball"}, {"call": "foul", "foul": "push"},
    {"call": "foul", "foul": "touche", "player": "p1"}, {"call": "foul", "foul": "touche", "player": "p2"},
    {"call": "foul", "foul": "foot"}, {"call": "foul", "foul": "jumped_ball"},
    {"call": "foul", "foul": "touché"}, {"call": "foul", "foul": "no-blame"},
    {"call": "foul", "foul": "no-such-foul"}, {"call": "foul", "foul": "masse"},
    {"call": "foul", "foul": "touch", "ball": "red"},
    {"call": "carom"}, {"call": "carom"}, {"call": "carom", "player": "p2"},
    {"call": "note", "rule": "carom.referee.show-ball"}, {"call": "undo"},
]), st.sampled_from([0.1, 0.1, 0.1, -0.5, -5.0])), max_size=3)
shot = st.tuples(events, st.one_of(positions, zone_positions), after)
match = (st.lists(shot, min_size=1, max_size=20), st.sampled_from(["libre", "bandstoten", "driebanden"]),
         *MATCH_DRAWS)


@contextmanager
def apart() -> Iterator[None]:
    """``whole_called`` without its general way: the shot and the call taken apart, as before."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(CaromEngine, "_amended", lambda self, *args: None)
        yield


def replayed(lines: list[str], history: int | None) -> Any:
    rep = Replay(history=history)
    rep.feed_lines(lines)
    return (json.dumps(rep.to_json(), sort_keys=True, default=repr), [repr(e) for e in rep.errors],
            rep.events, list(rep.state.rulings))


def ends(lines: list[str]) -> list[Any]:
    """``lines`` replayed with a history that holds their undos and with every undo kept (played)."""
    return [replayed(lines, history_for(sum('"undo"' in x for x in lines))), replayed(lines, None)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*match)
def test_a_shot_and_the_foul_called_after_its_rest_in_one_step_are_the_two_apart(
        shots: list[Any], discipline: str, profile: str, targets: tuple[int, int], limit: int | None,
        first: str | None) -> None:
    fused_against_apart(lines_of(shots, discipline, profile, targets, limit, first))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*match)
def test_a_replay_with_the_foul_after_the_rest_in_one_step_ends_where_one_without_it_does(
        shots: list[Any], discipline: str, profile: str, targets: tuple[int, int], limit: int | None,
        first: str | None) -> None:
    lines = lines_of(shots, discipline, profile, targets, limit, first)
    quick = ends(lines)
    with apart():
        assert ends(lines) == quick


def _first(*objs: dict[str, Any], discipline: str = "libre", profile: str = "club") -> Any:
    setup = {"t": 0, "type": "setup", "game": "carom", "discipline": discipline, "profile": profile,
             "players": {"p1": "A", "p2": "B"}, "targets": {"p1": 3, "p2": 3}}
    evs = [parse_event(o) for o in (setup, *objs)]
    state = ENGINE.new_state(evs[0])
    return state, evs[1:-2], evs[-2], evs[-1]


def _both(state: Any, events: Any, rest: Any, call: Call) -> Any:
    fused = ENGINE.whole_called(state, events, rest, call)
    after_rest = ENGINE.whole(state, events, rest)
    return fused, after_rest, ENGINE.apply(after_rest, call)


@pytest.mark.parametrize("foul", [{"foul": "touch"}, {"foul": "push"}, {"foul": "wrong_ball"},
                                  {"foul": "touche", "player": "p1"}])
@pytest.mark.parametrize("discipline", ["libre", "bandstoten", "driebanden"])
@pytest.mark.parametrize("profile", ["club", "liemers"])
def test_a_foul_after_the_rest_takes_the_one_step(foul: dict[str, Any], discipline: str,
                                                  profile: str) -> None:
    state, evs, rest, call = _first({"t": 1, "type": "cushion", "cushion": 1}, {"t": 2, "type": "rest"},
                                    {"t": 3, "type": "call", "call": "foul", **foul},
                                    discipline=discipline, profile=profile)
    fused, after_rest, slow = _both(state, evs, rest, call)
    assert fused is not None and fused.shot is not None and len(fused.shot.calls) == 1
    assert msgspec_free(fused) == msgspec_free(slow) and ENGINE.to_json(fused) == ENGINE.to_json(slow)
    back = fused.checkpoint
    assert type(back) is Redo and back.base is state and ENGINE.redo(back) == after_rest
    assert fused.at_table == "p2"  # the inning ended by the foul


def msgspec_free(state: Any) -> Any:
    """``state`` but its undo's checkpoint (a ``Redo`` one way, the state after the rest the other)."""
    return ENGINE.to_json(state), state.m, state.rulings, state.shot, state.before, state.cut, state.at_table


def test_a_foul_naming_the_other_player_an_unknown_foul_or_a_ball_stay_apart() -> None:
    for foul in ({"foul": "touche", "player": "p2"}, {"foul": "no-such-foul"}, {"foul": "masse"},
                 {"foul": "touch", "ball": "red"}):
        state, evs, rest, call = _first({"t": 1, "type": "cushion", "cushion": 1}, {"t": 2, "type": "rest"},
                                        {"t": 3, "type": "call", "call": "foul", **foul})
        assert ENGINE.whole_called(state, evs, rest, call) is None, foul


def test_a_carom_called_after_a_carom_left_in_dedans_takes_the_one_step() -> None:
    zone = {"yellow": [1.4, 0.7], "white": [0.1, 0.1], "red": [0.05, 0.12]}
    lines = [{"t": 0.0, "type": "setup", "game": "carom", "discipline": "libre", "profile": "club",
              "players": {"p1": "A", "p2": "B"}, "targets": {"p1": 9, "p2": 9}}]
    t = 0.0
    for _ in range(3):  # into the corner's zone, dedans, then a carom left in dedans
        lines += [{"t": t + 1, "type": "cushion", "cushion": 1},
                  {"t": t + 2, "type": "rest", "positions": zone},
                  {"t": t + 3, "type": "call", "call": "carom"}]
        t += 3
    evs = [parse_event(o) for o in lines]
    state = ENGINE.new_state(evs[0])
    for e in evs[1:-3]:
        state = ENGINE.apply(state, e)
    assert state.m.zone == "dedans"
    fused, _after_rest, slow = _both(state, evs[-3:-2], evs[-2], evs[-1])
    assert fused is not None and msgspec_free(fused) == msgspec_free(slow)
    assert fused.at_table == "p2"  # a fault: the inning over
    with apart():
        assert ENGINE.whole_called(state, evs[-3:-2], evs[-2], evs[-1]) is None
