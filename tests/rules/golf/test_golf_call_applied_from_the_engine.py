"""A referee's call applied to a golf match (``GolfEngine.apply``, its ``_called``: the base's
``_call`` without its two frames, and without its copy of the state where the call's own step has
set ``checkpoint`` already) gives what the base's ``apply`` gives: the same state, its undo point
the state the call was applied to, or the same refusal, over made-up states and shots
(hypothesis: the fouls of every kind by their names, ``time``, ``spot``, ``start``, ``answer``,
``undo``, ``rail``, ``edge``, ``wedged``, ``off_table``, names of no call, naming the shooter, the
other player or nobody, after shots of test_golf_foul_amends_at_once.py), and then the spots that
follow."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import event, given, settings
from hypothesis import strategies as st
from test_golf_foul_amends_at_once import CALLS, PLAYER, shot_after
from test_golf_plain_shot import before_shot

from tablesense.errors import TablesenseError
from tablesense.events import parse_event
from tablesense.rules import find_engine
from tablesense.rules.golf.engine import GolfEngine
from tablesense.rules.golf.resolve import resolve
from tablesense.rules.shot_engine import ShotEngine, ShotRecord

ENGINE = find_engine("golf")
replace = msgspec.structs.replace

OTHER_CALLS = st.sampled_from([
    {"call": "spot", "spot": 2}, {"call": "spot", "ball": "p1", "spot": 3}, {"call": "spot", "spot": 7},
    {"call": "start", "player": "p2"}, {"call": "answer", "question": "q1", "answer": "p1"},
    {"call": "undo"}, {"call": "Undo"}, {"call": "rail", "ball": "p1"}, {"call": "edge", "ball": "p2"},
    {"call": "wedged", "ball": "p1", "where": "Cushion"}, {"call": "off_table", "ball": "p2"},
    {"call": "carom"}, {"call": "nonsense"}, {"call": "foul", "foul": "no-such-foul"},
])


def _of(engine_apply: Any, state: Any, call: Any) -> Any:
    try:
        return engine_apply(state, call)
    except TablesenseError as e:
        return type(e), str(e)


def _same(state: Any, call: Any) -> Any:
    """The call applied by the engine and by the base's ``apply``: the same; the state (or error)."""
    quick = _of(ENGINE.apply, state, call)
    base = _of(lambda s, c: ShotEngine.apply(ENGINE, s, c), state, call)
    assert quick == base
    if isinstance(quick, tuple):
        event("refused")
    else:
        event("undone" if call.call.lower() == "undo" else "applied")
        assert (quick.checkpoint is state) == (base.checkpoint is state)
        assert ENGINE.to_json(quick) == ENGINE.to_json(base)
    return quick


@settings(max_examples=500, deadline=None)
@given(before_shot(), shot_after(), st.one_of(CALLS, OTHER_CALLS), PLAYER, st.floats(4.05, 60.0),
       st.lists(st.integers(1, 5), max_size=2))
def test_a_call_the_engine_applies_is_the_state_the_base_applies(
        before: Any, played: Any, called: dict[str, Any], player: str | None, t: float,
        spots: list[int]) -> None:
    shooter, events, rest, late, calls = played
    shot = ShotRecord(player=shooter, events=events, rest=rest, late=late, calls=calls)
    after = resolve(before, shot)
    state = replace(after, before=before, shot=shot, cut=before.cut, in_shot=False, checkpoint=before)
    obj = {"t": t, "type": "call", **called}
    if player is not None:
        obj["player"] = player
    state = _same(state, parse_event(obj))
    for n, spot in enumerate(spots):  # the opponent names the spots of the balls waiting
        if isinstance(state, tuple) or not state.spot_wait:
            break
        named = {"t": t + 1 + n, "type": "call", "call": "spot", "ball": state.spot_wait[0][1], "spot": spot}
        state = _same(state, parse_event(named))


def test_a_foul_after_a_rest_is_applied_without_a_second_copy() -> None:
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "golf",
                                          "players": {"p1": "Ann", "p2": "Bob"}}))
    for obj in ({"t": 1, "type": "goal", "goal": "B", "ball": "p1"}, {"t": 2, "type": "rest"}):
        state = ENGINE.apply(state, parse_event(obj))
    touch = parse_event({"t": 3, "type": "call", "call": "touch"})
    made = ENGINE.apply(state, touch)
    assert made.checkpoint is state and made.balls_left == (5, 5) and made.at_table == "p2"
    assert made == ShotEngine.apply(ENGINE, state, touch)
    assert isinstance(ENGINE, GolfEngine)
