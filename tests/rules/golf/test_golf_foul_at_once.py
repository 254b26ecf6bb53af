"""A referee's foul called after the rest of a golf shot is taken in one step from ``_called``
(``engine._foul_at_once``: ``call``, ``_foul``, ``_amend`` skipped) into the state, or the refusal,
the general way gives (``_foul_at_once`` off): over made-up states and shots (hypothesis: the shots
of test_golf_foul_amends_at_once.py, at rest or still rolling; every foul by its names, naming the
shooter, the other player or nobody), and over made-up logs (a table with a strike sensor or none,
rests with positions or none, fouls called while the balls roll, after the rest, after another call
or between shots, undos after them), replayed whole (``apply``) and played, to the same account."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import msgspec
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from test_golf_foul_amends_at_once import CALLS, PLAYER, shot_after
from test_golf_helpers import MadeLog, applied, golf_matches, replayed_and_played
from test_golf_plain_shot import before_shot

from tablesense.events import parse_event
from tablesense.rules import find_engine
from tablesense.rules.golf import engine as golf_engine
from tablesense.rules.golf.resolve import resolve
from tablesense.rules.shot_engine import ShotRecord

ENGINE = find_engine("golf")
replace = msgspec.structs.replace


@contextmanager
def general_way() -> Iterator[None]:
    """A foul after the rest through ``call``, ``_foul`` and ``_amend`` only (``_foul_at_once`` off)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(golf_engine, "_foul_at_once", lambda state, ev: None)
        yield


@settings(max_examples=500, deadline=None)
@given(before_shot(), shot_after(), CALLS, PLAYER, st.booleans())
def test_a_foul_after_the_rest_at_once_is_the_state_the_general_way_gives(
        before: Any, played: Any, called: dict[str, Any], player: str | None, rolling: bool) -> None:
    shooter, events, rest, late, calls = played
    if rolling:  # a call while the balls roll: the shot has no rest yet
        shot = ShotRecord(player=shooter, events=events)
    else:
        shot = ShotRecord(player=shooter, events=events, rest=rest, late=late, calls=calls)
    now = resolve(before, shot)
    cut = replace(before.cut, shot=before.cut.shot + 1, last_t=None if rolling else rest.t)
    state = replace(now, before=before, shot=shot, cut=cut, in_shot=rolling, checkpoint=before)
    obj = {"t": 4.5, "type": "call", **called}
    if player is not None:
        obj["player"] = player
    call = parse_event(obj)
    taken: list[Any] = []
    original = golf_engine._foul_at_once

    def spy(state: Any, ev: Any) -> Any:
        made = original(state, ev)
        taken.append(made)
        return made

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(golf_engine, "_foul_at_once", spy)
        quick = applied(state, call)
    event("at once" if any(m is not None for m in taken) else "asked, the general way" if taken
          else "not asked")
    with general_way():
        general = applied(state, call)
    assert quick == general
    if not isinstance(quick, tuple):
        assert ENGINE.to_json(quick) == ENGINE.to_json(general)
        assert list(quick.rulings) == list(general.rulings)
        assert quick.checkpoint is state  # an undo goes back to the state before the call


SETUPS = [{"type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}},
          {"type": "setup", "game": "golf", "players": {"p1": ["Ann", "Cor"], "p2": ["Bob", "Dirk"]}}]
EVENTS: list[dict[str, Any]] = [
    {"type": "cushion", "cushion": 1, "ball": None}, {"type": "goal", "goal": "B", "ball": "p1"},
    {"type": "goal", "goal": "A", "ball": "p2"}, {"type": "goal", "goal": "A", "ball": "p1"},
    {"type": "goal", "goal": "B", "ball": None}, {"type": "off_table", "ball": "p2"},
    {"type": "contact", "balls": ["p1", "p2"]},
]
RESTS: list[dict[str, Any]] = [{}, {}, {}, {"positions": {"p1": [[0.5, 0.4]], "p2": [[0.3, 0.2]]}}]
FOULS: list[dict[str, Any]] = [{"type": "call", **call} for call in [
    {"call": "foul", "foul": "touch"}, {"call": "foul", "foul": "touch"}, {"call": "touch"},
    {"call": "foul", "foul": "push"}, {"call": "foul", "foul": "hold-opponent"},
    {"call": "foul", "foul": "touch-own"}, {"call": "foul", "foul": "triangle"},
    {"call": "foul", "foul": "off_table"}, {"call": "foul", "foul": "touch-no-shot"}, {"call": "time"},
    {"call": "foul", "foul": "order"},
]]
#: when the foul is called: while the balls roll, after the rest, after another call, or none
MOMENTS = ["after", "after", "after", "rolling", "twice", "none", "none"]


def foul_shot(draw: Any, log: MadeLog, match: dict[str, Any]) -> None:
    """A shot of one to three events, a rest with positions now and then, fouls called at one of
    the ``MOMENTS``, an undo now and then."""
    moment = draw(st.sampled_from(MOMENTS))
    for k in range(draw(st.integers(1, 3))):
        log.add(draw(st.sampled_from(EVENTS)))
        log.t += 0.5
        if k == 0 and moment == "rolling":
            log.add(draw(st.sampled_from(FOULS)))
            log.t += 0.25
    log.add({"type": "rest", **draw(st.sampled_from(RESTS))})
    if moment in ("after", "twice"):
        log.t += 0.5
        log.add({**draw(st.sampled_from(FOULS)), **draw(st.sampled_from([{}, {}, {"player": "p1"},
                                                                          {"player": "p2"}]))})
    if moment == "twice":
        log.t += 0.5
        log.add(draw(st.sampled_from(FOULS)))
    if draw(st.integers(0, 4)) == 0:
        log.t += 0.5
        log.add({"type": "call", "call": "undo"})


@st.composite
def logs(draw: Any) -> list[str]:
    """Golf matches on a table with a strike sensor or none (one in two), shots of ``foul_shot``."""
    return golf_matches(draw, SETUPS, foul_shot, strike_sensor=st.booleans())


@settings(max_examples=150, deadline=None)
@given(logs())
def test_a_log_of_fouls_called_at_any_moment_ends_where_the_general_way_does(lines: list[str]) -> None:
    quick = replayed_and_played(lines)
    with general_way():
        assert replayed_and_played(lines) == quick
