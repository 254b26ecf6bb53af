"""A shot that ends the inning without a counted carom, the match going on (a fault, too few
cushions), decided in one pass (``faulted.faulted_shot``, asked first by ``CaromEngine._played``),
gets the state the general decision (``decide`` on a ``Draft``) gives, over made-up matches
(hypothesis): full-information shots with a strike sensor or none, shots the cushion sensors alone
saw, the wrong ball struck, balls off the table, fouls of every kind called during the shot or after
its rest, notes, frozen balls, undo, the balls at rest or not and near the corners (libre's zones,
a carom left in dedans), every discipline, both profiles, small targets, innings limits."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_carom_plain_shot import ENGINE, MATCH_DRAWS, events, place, sensor, states

from tablesense.events import parse_event
from tablesense.rules.carom import faulted
from tablesense.rules.carom.plain import shot_facts
from tablesense.rules.carom.profiles import CUE_BALL

FOULS = ["touch", "touch-remove-object", "push", "foot", "wrong-ball", "jump", "woodwork", "poedel",
         "no-blame", "opening-shot", "reste-dedans", "moving-balls"]
foul = st.sampled_from(FOULS).map(lambda f: {"type": "call", "call": "foul", "foul": f})
note = {"type": "call", "call": "note", "rule": "carom.referee.show-ball"}
during = st.one_of(foul, st.sampled_from([{"type": "call", "call": "carom"}, note]))
shot_events = st.one_of(events, st.lists(st.one_of(sensor, sensor, during), min_size=1, max_size=6))
#: the calls after the rest: none most often, fouls, the referee's carom, a note, a frozen ball, undo
after = st.one_of(st.just([]), st.just([]), st.lists(foul, min_size=1, max_size=2), st.sampled_from([
    [{"type": "call", "call": "carom"}],
    [{"type": "call", "call": "foul", "foul": "touch"}, {"type": "call", "call": "carom"}],
    [{"type": "call", "call": "note", "rule": "carom.referee.show-ball"}],
    [{"type": "call", "call": "frozen", "choice": "outlay"}],
    [{"type": "call", "call": "undo"}],
    [{"type": "call", "call": "foul", "foul": "push"}, {"type": "call", "call": "undo"}],
]))
#: the balls at rest: not given, anywhere, or near the head-left corner (its zone, its line)
cornered = st.one_of(st.tuples(st.floats(0.03, 0.12), st.floats(0.03, 0.12)).map(list),
                     st.just([0.111, 0.1]), st.just([0.15, 0.1]))
positions = st.one_of(st.none(), st.fixed_dictionaries({"yellow": place, "white": place, "red": place}),
                      st.fixed_dictionaries({"yellow": place, "white": cornered, "red": cornered}),
                      st.fixed_dictionaries({"yellow": cornered, "white": place, "red": cornered}))
shot = st.tuples(shot_events, positions, after)


def _both_ways(before: Any, shot_: Any) -> tuple[Any, Any]:
    """``_played`` of the shot with the one pass asked first, and without it."""
    quick = ENGINE._played(before, shot_, shot_.rest)
    faulted.ON = False
    try:
        general = ENGINE._played(before, shot_, shot_.rest)
    finally:
        faulted.ON = True
    return quick, general


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(shot, min_size=1, max_size=30),
       st.sampled_from(["libre", "libre", "bandstoten", "driebanden"]),
       *MATCH_DRAWS)
def test_a_shot_ending_the_inning_without_a_carom_is_decided_as_the_general_decision_decides_it(
        shots: list[Any], discipline: str, profile: str, targets: tuple[int, int], limit: int | None,
        first: str | None) -> None:
    for state in states(shots, discipline, profile, targets, limit, first):
        shot_, before = state.shot, state.before
        if shot_ is None or before is None or shot_.rest is None:
            continue
        quick, general = _both_ways(before, shot_)
        assert quick == general
        assert tuple(quick.rulings) == tuple(general.rulings)


def _last(*lines: dict[str, Any], discipline: str = "libre", profile: str = "club") -> tuple[Any, Any]:
    """The state before the last shot of a new match and that shot, from its lines."""
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "carom", "discipline": discipline,
                                          "profile": profile, "players": {"p1": "A", "p2": "B"},
                                          "targets": {"p1": 3, "p2": 3}}))
    for obj in lines:
        state = ENGINE.apply(state, parse_event(obj))
    return state.before, state.shot


def _quick(before: Any, shot_: Any) -> Any:
    facts = shot_facts(shot_, CUE_BALL[before.at_table or "p1"])
    return faulted.faulted_shot(before, shot_, shot_.rest, facts)


@pytest.mark.parametrize(("calls", "rules"), [
    ([{"t": 3, "type": "call", "call": "foul", "foul": "touch"}],
     ["carom.foul.touch", "carom.poedel", "carom.referee.amend"]),
    ([{"t": 3, "type": "call", "call": "foul", "foul": "push"}, {"t": 4, "type": "call", "call": "carom"}],
     ["carom.foul.push", "carom.foul.carom-void", "carom.poedel", "carom.referee.amend",
      "carom.referee.amend"]),
])
def test_a_foul_after_the_rest_is_decided_in_one_pass(calls: list[dict[str, Any]], rules: list[str]) -> None:
    before, shot_ = _last({"t": 1, "type": "cushion", "cushion": 1}, {"t": 2, "type": "rest"}, *calls)
    quick = _quick(before, shot_)
    assert quick is not None and quick.at_table == "p2" and quick.m.innings == (1, 0)
    assert quick == _both_ways(before, shot_)[1]
    assert [r.rule for r in quick.rulings] == rules


def test_too_few_cushions_for_driebanden_end_the_inning_in_one_pass() -> None:
    before, shot_ = _last({"t": 1, "type": "contact", "balls": ["yellow", "red"]},
                          {"t": 1.5, "type": "cushion", "cushion": 1, "ball": "yellow"},
                          {"t": 2, "type": "contact", "balls": ["yellow", "white"]}, {"t": 3, "type": "rest"},
                          discipline="driebanden")
    quick = _quick(before, shot_)
    assert quick is not None and [r.rule for r in quick.rulings] == ["carom.driebanden", "carom.poedel"]


def test_a_ball_off_the_table_puts_the_balls_in_the_starting_position_in_one_pass() -> None:
    before, shot_ = _last({"t": 1, "type": "cushion", "cushion": 1},
                          {"t": 1.5, "type": "off_table", "ball": "red"},
                          {"t": 2, "type": "rest", "positions": {"yellow": [0.1, 0.1], "white": [0.05, 0.1],
                                                                "red": [0.1, 0.05]}})
    quick = _quick(before, shot_)
    assert quick is not None and quick == _both_ways(before, shot_)[1]
    assert [r.rule for r in quick.rulings] == ["carom.jump", "carom.poedel", "carom.outlay"]
    assert quick.m.from_outlay and quick.m.zone is None and quick.at_table == "p2"


def test_a_jump_in_liemers_driebanden_goes_the_general_way() -> None:
    """The jumped balls to their spots, the others where they lie: ``decide``'s."""
    before, shot_ = _last({"t": 1, "type": "cushion", "cushion": 1},
                          {"t": 1.5, "type": "off_table", "ball": "red"},
                          {"t": 2, "type": "rest"}, discipline="driebanden", profile="liemers")
    assert _quick(before, shot_) is None
    assert "carom.jump.driebanden" in [r.rule for r in ENGINE._played(before, shot_, shot_.rest).rulings]


@pytest.mark.parametrize("lines", [
    # a blameless shot (void)
    [{"t": 1, "type": "cushion", "cushion": 1}, {"t": 2, "type": "rest"},
     {"t": 3, "type": "call", "call": "foul", "foul": "no-blame"}],
    # a note after the rest
    [{"t": 1, "type": "cushion", "cushion": 1}, {"t": 2, "type": "rest"},
     {"t": 2.5, "type": "call", "call": "foul", "foul": "touch"},
     {"t": 3, "type": "call", "call": "note", "rule": "carom.referee.show-ball"}],
])
def test_what_the_one_pass_leaves_to_the_general_way(lines: list[dict[str, Any]]) -> None:
    before, shot_ = _last(*lines)
    assert _quick(before, shot_) is None
