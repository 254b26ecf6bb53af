"""A referee's call applied by golf (``GolfEngine._called``) is named by golf's vocabulary kept at the
first call (``engine._VOCABULARY``, not asked of ``vocabulary`` at every call): over made-up states and
shots (hypothesis: the shots of test_golf_foul_amends_at_once.py at rest or still rolling) and calls
of every foul name and spelling, the other calls and their balls spelled loosely, the state (or the
refusal) is the one the base's ``apply`` gives (``ShotEngine._call``: ``vocabulary(state)`` asked at
the call), with the vocabulary kept and with it not yet kept; what is kept is ``vocabulary``'s
answer itself."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_golf_foul_amends_at_once import PLAYER, shot_after
from test_golf_foul_names_looked_up_once import KNOWN, SPELLED
from test_golf_plain_shot import before_shot

from tablesense.errors import TablesenseError
from tablesense.events import parse_event
from tablesense.rules import find_engine
from tablesense.rules.golf import engine as golf_engine
from tablesense.rules.golf.engine import GolfEngine
from tablesense.rules.golf.resolve import resolve
from tablesense.rules.shot_engine import ShotEngine, ShotRecord

ENGINE = find_engine("golf")
replace = msgspec.structs.replace

BALLS = st.sampled_from([None, "p1", "p2", "P1", " p2 ", "ball1", "opponent"])
NAMES = st.sampled_from(KNOWN + SPELLED)
OTHERS = st.sampled_from(["off_table", "Off-Table", "rail", "edge", "time", "TIME", "spot", "undo", "Undo"])
CALLS = st.one_of(
    st.builds(lambda name, ball: {"call": "foul", "foul": name, "ball": ball}, NAMES, BALLS),
    st.builds(lambda name, ball: {"call": name, "ball": ball}, NAMES, BALLS),
    st.builds(lambda name, ball: {"call": name, "ball": ball}, OTHERS, BALLS),
    st.just({"call": "answer", "question": "q1", "answer": "p2"}),
)


def _of(step: Any, *args: Any) -> Any:
    try:
        return step(*args)
    except (TablesenseError, KeyError, ValueError) as e:  # (the same refusal both ways)
        return type(e), str(e)


@settings(max_examples=500, deadline=None)
@given(before_shot(), shot_after(), CALLS, PLAYER, st.floats(4.05, 60.0), st.booleans(), st.booleans())
def test_a_call_named_by_the_kept_vocabulary_is_the_state_the_base_apply_gives(
        before: Any, played: Any, called: dict[str, Any], player: str | None, t: float, rolling: bool,
        kept: bool) -> None:
    shooter, events, rest, late, calls = played
    if rolling:  # a call while the balls roll: the shot has no rest yet
        shot = ShotRecord(player=shooter, events=events)
    else:
        shot = ShotRecord(player=shooter, events=events, rest=rest, late=late, calls=calls)
    now = resolve(before, shot)
    cut = replace(before.cut, shot=before.cut.shot + 1, last_t=None if rolling else rest.t)
    state = replace(now, before=before, shot=shot, cut=cut, in_shot=rolling, checkpoint=before)
    obj = {"t": t, "type": "call", **{k: v for k, v in called.items() if v is not None}}
    if player is not None:
        obj["player"] = player
    try:
        call = parse_event(obj)
    except TablesenseError:  # a line the log's reader refuses never reaches the engine
        assume(False)
    with pytest.MonkeyPatch.context() as mp:
        if not kept:  # the first call: the vocabulary asked, then kept
            mp.setattr(golf_engine, "_VOCABULARY", [])
        applied = _of(ENGINE.apply, state, call)
        assert golf_engine._VOCABULARY == [ENGINE.vocabulary(state)]
        assert golf_engine._VOCABULARY[0] is ENGINE.vocabulary(state)
    with pytest.MonkeyPatch.context() as mp:  # the base's ``_call``: the vocabulary asked at the call
        mp.setattr(GolfEngine, "_called", lambda self, s, c: ShotEngine._call(self, s, c))
        want = _of(ENGINE.apply, state, call)
    assert applied == want
