"""A referee's call that amends a golf shot the general way (``GolfEngine.amend``, ``_amended``: the
call added to the shot, the shot resolved again from the state before it, the shot stage's fields
and the undo point put in the one copy ``resolve.staged`` makes) gives the state the base's
``ShotEngine.amend`` gives (``resolve`` of the amended shot, then a copy with the stage's fields),
or the same refusal, over made-up states and shots (hypothesis: every foul by its names, ``time``,
``off_table``, ``rail``, ``edge``, ``wedged``, an answer, a ``spot``, after shots of
test_golf_foul_amends_at_once.py, the shot at rest or still rolling); and applied as a call, the
state the base's ``apply`` gives with the base's ``amend``."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from test_golf_foul_amends_at_once import CALLS, PLAYER, shot_after
from test_golf_plain_shot import before_shot

from tablesense.errors import TablesenseError
from tablesense.events import parse_event
from tablesense.rules import find_engine
from tablesense.rules.golf.engine import GolfEngine
from tablesense.rules.golf.resolve import resolve
from tablesense.rules.shot_engine import Run, ShotEngine, ShotRecord, canonical

ENGINE = find_engine("golf")
replace = msgspec.structs.replace

OTHER_CALLS = st.sampled_from([
    {"call": "off_table", "ball": "p2"}, {"call": "rail", "ball": "p1"}, {"call": "edge", "ball": "p2"},
    {"call": "wedged", "ball": "p1", "where": "cushion"},
    {"call": "answer", "question": "q1", "answer": "p2"},
    {"call": "spot", "ball": "p1", "spot": 2}, {"call": "foul", "foul": "hold_back_opponent_ball"},
    {"call": "foul", "foul": "off_table_opponent"},
])


def _of(step: Any, *args: Any) -> Any:
    try:
        return step(*args)
    except (TablesenseError, KeyError) as e:  # (a foul's name no step knows: the same in both ways)
        return type(e), str(e)


@settings(max_examples=600, deadline=None)
@given(before_shot(), shot_after(), st.one_of(CALLS, OTHER_CALLS), PLAYER, st.floats(4.05, 60.0),
       st.booleans(), st.booleans())
def test_a_call_amending_its_shot_in_one_copy_is_the_state_the_base_amend_gives(
        before: Any, played: Any, called: dict[str, Any], player: str | None, t: float, rolling: bool,
        run: bool) -> None:
    shooter, events, rest, late, calls = played
    if rolling:  # a call while the balls roll: the shot has no rest yet (its events a ``Run`` now and then)
        shot = ShotRecord(player=shooter, events=Run(list(events), len(events)) if run else events)
    else:
        shot = ShotRecord(player=shooter, events=events, rest=rest, late=late, calls=calls)
    now = resolve(before, replace(shot, events=tuple(shot.events)))
    cut = replace(before.cut, shot=before.cut.shot + 1, last_t=None if rolling else rest.t)  # the shot's cut
    state = replace(now, before=before, shot=shot, cut=cut, in_shot=rolling, checkpoint=before)
    obj = {"t": t, "type": "call", **called}
    if player is not None:
        obj["player"] = player
    call = parse_event(obj)
    named = canonical(ENGINE.vocabulary(state), call)  # (``amend`` takes a call as ``apply`` names it)
    quick = _of(GolfEngine.amend, ENGINE, state, named)
    general = _of(ShotEngine.amend, ENGINE, state, named)
    assert quick == general
    if not isinstance(quick, tuple):
        assert quick.checkpoint is state.checkpoint and general.checkpoint is state.checkpoint
        assert list(quick.rulings) == list(general.rulings)
    event("refused" if isinstance(quick, tuple) else "rolling" if rolling else "at rest")
    # applied as a call: the state (or refusal) the base's ``apply`` gives with the base's ``amend``
    applied = _of(ENGINE.apply, state, call)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(GolfEngine, "_amended", _general)
        mp.setattr(GolfEngine, "amend", ShotEngine.amend)
        want = _of(lambda s, c: ShotEngine.apply(ENGINE, s, c), state, call)
    assert applied == want
    if not isinstance(applied, tuple):
        assert (applied.checkpoint is state) == (want.checkpoint is state)


def _general(engine: Any, state: Any, call: Any, checkpoint: Any) -> Any:
    """``_amended`` the general way: the base's ``amend``, then a copy with the undo point."""
    return replace(ShotEngine.amend(engine, state, call), checkpoint=checkpoint)
