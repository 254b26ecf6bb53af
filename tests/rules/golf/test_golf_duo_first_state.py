"""A golf set-up of two names a side starts from one kept state (``engine._duo_first``, kept in
``_FRESH_DUO`` by the four names) that is the state, or the refusal, ``GolfEngine.new_state``'s general
way gives: over made-up set-ups (hypothesis: every format word or none, sides of one, two or three
names, names that are not strings, one name against a pair), asked once and again; and over made-up
logs of duo and single matches (a strike sensor or none, rests with positions or none, calls after
the rest or while the balls roll, undos), replayed whole (``apply``) and played, to the same account
as with the kept states off."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st
from test_golf_helpers import replayed_and_played
from test_golf_several_event_shot import logs
from test_golf_whole_shot_balls_down import UNDONE_TWICE

from tablesense.errors import TablesenseError
from tablesense.events import Setup
from tablesense.rules.golf import engine as golf_engine
from tablesense.rules.golf.engine import GolfEngine

ENGINE = GolfEngine()
NAME = st.sampled_from(["Ann", "Bob", "Cor", "Dirk", "ann", ""])
SIDE = st.one_of(NAME, st.lists(NAME, min_size=1, max_size=3),
                 st.lists(st.one_of(NAME, st.integers(0, 2)), min_size=2, max_size=2))


@contextmanager
def general_way() -> Iterator[None]:
    """Every set-up through ``new_state``'s general way (no kept duo state)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(golf_engine, "_duo_first", lambda p1, p2: None)
        yield


def new_state_of(setup: Any) -> Any:
    """``GolfEngine.new_state`` of ``setup``: the state, or the refusal (its type and text)."""
    try:
        return ENGINE.new_state(setup)
    except TablesenseError as e:
        return type(e), str(e)


@settings(max_examples=600, deadline=None)
@given(SIDE, SIDE, st.sampled_from([None, "", "duo", "Duo", "single", "singles", "pairs", "doubles", "x"]))
def test_a_duo_set_up_starts_from_the_state_the_general_way_gives(p1: Any, p2: Any, fmt: str | None) -> None:
    # (made as the engine may be handed it, names the log's checks would refuse too: ``new_state`` alone)
    setup = Setup(t=0.0, game="golf", players={"p1": p1, "p2": p2}, format=fmt)
    first, again = new_state_of(setup), new_state_of(setup)  # the second from the kept state, if any
    with general_way():
        general = new_state_of(setup)
    assert first == general and again == general
    if not isinstance(general, tuple):
        assert ENGINE.to_json(again) == ENGINE.to_json(general)
    event("kept" if golf_engine._duo_first(p1, p2) is not None else "general way"
          if type(p1) is list and type(p2) is list else "not a pair of lists")


@settings(max_examples=100, deadline=None)
@given(logs())
@example([json.dumps(line) for line in UNDONE_TWICE])
def test_a_log_of_duo_matches_ends_where_it_ends_with_the_kept_states_off(lines: list[str]) -> None:
    quick = replayed_and_played(lines)
    with general_way():
        assert replayed_and_played(lines) == quick
