"""Keglebillard's common shot with the referee's call on the line after its rest, decided in one
function (``plain.common_shot`` with the call: a ``carom``, a ``foul``, an ``undo``; and a faulty
shot, the faults its sensors show or the shots before it in a row), ends where the longer way ends
(``KegleEngine.whole_called`` with the one function turned off: ``whole``'s record of the shot, then
``_called`` and ``plain_shot`` with the call), rulings, the state before the shot and what an undo of
the call goes back to included, over made-up matches (hypothesis: pins put up between shots and held
until the strike, a strike sensor or none, shots with no cushion or no pin in a row, fouls by name and
by player, the names as a referee may write them, calls the step does not take) and over every
recorded keglebillard match replayed whole."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_kegle_common_shot import common
from test_kegle_plain_shot import shot as shots
from test_kegle_whole_shot_and_call import applied, called, shot_and_call

from tablesense.errors import TablesenseError
from tablesense.events import Call, Rest, parse_event
from tablesense.replay import Replay, history_for
from tablesense.rules import find_engine
from tablesense.rules.kegle import engine as kegle_engine
from tablesense.rules.kegle import plain
from tablesense.rules.shot_engine import SHOT_KINDS, canonical

ENGINE = find_engine("kegle")
MATCHES = Path(__file__).resolve().parents[2] / "matches" / "kegle"

#: shots with no cushion, or that topple nothing: faults of shots in a row, decided with the call
bare = st.tuples(st.just(True), st.just("red"),
                 st.sampled_from([[{"type": "pin", "pin": 2, "state": "down"}],
                                  [{"type": "contact", "balls": ["red", "white"]},
                                   {"type": "pin", "pin": 4, "state": "down"}],
                                  [{"type": "cushion", "cushion": 1, "ball": "red"}],
                                  [{"type": "contact", "balls": ["red", "white"]},
                                   {"type": "contact", "balls": ["white", "red"]}]]),
                 st.just(False), st.none(), st.just([]), st.sampled_from(["all", "toppled", "none"]))


def _step(state: Any, table: list[Any], rest: Rest, call: Call, quick: bool) -> Any:
    plain.QUICK = quick
    try:
        return ENGINE.whole_called(state, table, rest, call)
    except TablesenseError as exc:
        return type(exc)
    finally:
        plain.QUICK = True


def _play(played: list[Any], distance: int, strikes: bool) -> list[str]:
    """Play the match: each shot and its call in one step with the one function and without,
    compared; then ``apply`` of each line. Returns the calls the one function took with their shot."""
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": distance}))
    t, taken = 0.0, []
    for drawn, call_obj in played:
        table, rest, call, t = shot_and_call(drawn, call_obj, strikes, t)
        if table and all(type(e) in SHOT_KINDS for e in table) and not state.in_shot:
            quick, longer = _step(state, table, rest, call, True), _step(state, table, rest, call, False)
            assert quick == longer
            if quick is not None and not isinstance(quick, type):
                assert tuple(quick.rulings) == tuple(longer.rulings)
                assert quick.before == longer.before and quick.checkpoint == longer.checkpoint
                assert quick.shot == longer.shot
                facts = plain.common_facts(table)
                named = canonical(ENGINE.vocabulary(state), call)  # (``whole_called``'s names)
                if facts and plain.common_shot(state, table, rest, facts, named) is not None:
                    taken.append(call.call)
        state, t = applied(state, drawn, call_obj, table, rest, t)
    return taken


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.one_of(common, common, bare, shots), called), min_size=1, max_size=25),
       st.integers(4, 60), st.booleans())
def test_a_common_shot_and_its_call_in_one_function_end_where_the_longer_way_ends(
        played: list[Any], distance: int, strikes: bool) -> None:
    _play(played, distance, strikes)


def test_a_match_of_called_shots_is_taken_by_the_one_function() -> None:
    """Pins, caramboles, a carom called, fouls called on a scoring shot and with the second pin
    set-up in a row without a cushion, an undo: each with its shot in one function, each equal to
    the longer way's; a foul called on the player not at the table goes the slow way."""
    pins = [{"type": "cushion", "cushion": 1, "ball": "red"}, {"type": "pin", "pin": 2, "state": "down"}]
    no_cushion = [{"type": "contact", "balls": ["red", "white"]}, {"type": "pin", "pin": 3, "state": "down"}]
    miss = [{"type": "cushion", "cushion": 3, "ball": "red"}]
    match = [((True, "red", pins, False, None, [], "toppled"), {"call": "carom"}),
             ((True, "red", pins, False, None, [], "toppled"), {"call": "carom"}),
             ((True, "red", no_cushion, False, None, [], "toppled"), {"call": "carom"}),
             ((True, "red", no_cushion, False, None, [], "toppled"), {"call": "foul", "foul": "touch"}),
             ((True, "red", miss, False, None, [], "toppled"), {"call": "undo"}),
             ((True, "red", miss, False, None, [], "toppled"), {"call": "carom"}),
             ((True, "red", miss, False, None, [], "toppled"),
              {"call": "foul", "foul": "foot", "player": "p1"}),
             ((True, "red", pins, False, None, [], "toppled"), {"call": "foul", "foul": "touch"}),
             ((True, "red", pins, False, None, [], "toppled"), {"call": "carom"})]
    assert _play(match, 60, True) == ["carom", "carom", "carom", "foul", "undo", "carom", "foul", "carom"]


def test_three_reds_called_caramboles_in_a_row_are_a_fault_decided_with_the_call() -> None:
    """Three shots in a row that topple no pin, each a carambole the referee calls: the third is the
    three-reds fault (checks.three_reds), decided in one function with its carom call as the longer
    way decides it."""
    miss = (True, "red", [{"type": "cushion", "cushion": 3, "ball": "red"}], False, None, [], "toppled")
    assert _play([(miss, {"call": "carom"})] * 3, 60, True) == ["carom", "carom", "carom"]
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": 60}))
    t = 0.0
    for _ in range(3):
        table = [parse_event({"t": t + 1, "type": "strike", "ball": "red"}),
                 parse_event({"t": t + 2, "type": "cushion", "cushion": 3, "ball": "red"})]
        rest = parse_event({"t": t + 3, "type": "rest"})
        call = parse_event({"t": t + 4, "type": "call", "call": "carom"})
        assert type(rest) is Rest and type(call) is Call
        state = ENGINE.whole_called(state, table, rest, call)
        t += 5
    assert state.score.last.faults == ("kegle.fault.three-reds",) and state.at_table == "p2"


def test_a_first_shot_after_pins_set_up_and_their_rest_leaves_its_call_to_the_slow_way() -> None:
    """Pins set up and the table's rest after them before the match's first shot: incidents since
    the last rest, which an amending call applies again (``amend``): the shot and its call are not
    taken in one step, with the one function or without."""
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}}))
    for raw in ({"t": 1, "type": "pin", "pin": 1, "state": "up"}, {"t": 2, "type": "rest"}):
        state = ENGINE.apply(state, parse_event(raw))
    assert state.after is not None and state.shot is None
    table = [parse_event({"t": 3, "type": "strike", "ball": "red"}),
             parse_event({"t": 3.5, "type": "cushion", "cushion": 1, "ball": "red"}),
             parse_event({"t": 4, "type": "pin", "pin": 2, "state": "down"})]
    rest = parse_event({"t": 5, "type": "rest"})
    assert type(rest) is Rest
    for raw in ({"call": "carom"}, {"call": "foul", "foul": "touch"}, {"call": "undo"}):
        call = parse_event({"t": 6, "type": "call", **raw})
        assert type(call) is Call
        assert _step(state, table, rest, call, True) is None
        assert _step(state, table, rest, call, False) is None


def test_every_recorded_match_ends_where_it_ends_without_the_one_function(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every recorded keglebillard match, one after another, replayed as ``tablesense replay --json``
    replays (a bounded history: the shot and its call in one step): the same JSON, errors and events
    with the one function and without, and the one function takes shots with their calls."""
    lines: list[str] = []
    for path in sorted(MATCHES.glob("*.jsonl")):
        lines.extend(x for x in path.read_text(encoding="utf-8").splitlines() if x.strip())
    taken: list[str] = []

    def counted(*args: Any) -> Any:
        new = plain.common_shot(*args)
        if new is not None and len(args) > 4 and args[4] is not None:
            taken.append(args[4].call)
        return new

    monkeypatch.setattr(kegle_engine, "common_shot", counted)
    outs = []
    for quick in (True, False):
        plain.QUICK = quick
        try:
            rep = Replay(history=history_for(8)).feed_lines(lines)
        finally:
            plain.QUICK = True
        outs.append((json.dumps(rep.to_json()), [str(e) for e in rep.errors], rep.events))
    assert outs[0] == outs[1]
    assert {"carom", "foul"} <= set(taken)
