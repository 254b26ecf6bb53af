"""The opponent's ``spot`` for the shooter's ball that a counted golf shot put on a replacement spot
(an own goal, a ball of the shooter's off the table, the opponent's ball off it) is taken in one step
(``amend.spot_counted``: the spot's ruling after the shot's) into the state, or the refusal, the
general way gives (``GolfEngine._amended``: the shot resolved again with the call;
``amend.spot_counted`` off): over made-up states (hypothesis: the states of
test_golf_one_event_shot.py, shots of one to three cushions, goals and balls off the table, a strike
now and then, a rest with positions, a late drop or a call before, zone play starting, the frame
won; spots 1 to 5 for either ball) and over made-up logs (a table with a strike sensor or none,
spots named after the rest, after a foul or never, twice, undos after them), replayed whole
(``apply``) and played, to the same account."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import msgspec
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from test_golf_helpers import MadeLog, applied, golf_matches, replayed_and_played
from test_golf_one_event_shot import before_shot

from tablesense.errors import TablesenseError
from tablesense.events import Call, Cushion, Goal, OffTable, Rest, Strike
from tablesense.rules.golf import amend
from tablesense.rules.golf.engine import GolfEngine
from tablesense.rules.golf.state import GolfState

replace = msgspec.structs.replace
ENGINE = GolfEngine()


@contextmanager
def general_way() -> Iterator[None]:
    """A spot through ``GolfEngine._amended`` only (``amend.spot_counted`` off)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(amend, "spot_counted", lambda state, call, item: None)
        yield


@st.composite
def counted(draw: Any) -> tuple[list[Any], Rest]:
    """One to three events: own goals and balls off the table most often, the opponent's balls off,
    valid goals, cushions, a strike now and then; the rest, with positions now and then."""
    events: list[Any] = []
    for k in range(draw(st.integers(1, 3))):
        at = 1.0 + 0.2 * k
        kind = draw(st.integers(0, 6))
        ball = draw(st.sampled_from(["p1", "p2"]))
        if kind < 2:
            events.append(Goal(t=at, goal=draw(st.sampled_from(["A", "B"])), ball=ball))
        elif kind < 4:
            events.append(OffTable(t=at, ball=ball))
        elif kind < 6:
            events.append(Cushion(t=at, cushion=draw(st.integers(1, 4))))
        else:
            events.append(Strike(t=at, ball=ball))
    positions = {"p1": [[0.2, 0.3]], "p2": [[0.6, 0.3]]} if draw(st.integers(0, 5)) == 0 else None
    return events, Rest(t=4.0, positions=positions)


@settings(max_examples=1000, deadline=None)
@given(before_shot(), counted(), st.sampled_from(["shooter", "shooter", "shooter", "p1", "p2"]),
       st.integers(1, 5), st.sampled_from(["plain", "plain", "plain", "late", "call", "twice"]))
def test_a_spot_after_a_counted_shot_in_one_step_is_the_state_the_general_way_gives(
        before: GolfState, shot: tuple[list[Any], Rest], ball: str, spot: int, odd: str) -> None:
    events, rest = shot
    try:
        state = ENGINE.steps(before, events, rest)
    except TablesenseError:
        state = None
    if state is None or not state.spot_wait or state.shot is None:
        event("no ball waiting")
        return
    last = state.shot
    if odd == "late":  # a drop after the rest, in the shot
        state = replace(state, shot=replace(last, late=(Goal(t=4.2, goal="A", ball="p2"),)))
    elif odd == "call":  # a call about the shot before the spot
        state = replace(state, shot=replace(last, calls=(Call(t=4.1, call="rail", ball="p1"),)))
    named = (last.player or "p1") if ball == "shooter" else ball
    call = Call(t=5.0, call="spot", ball=named, spot=spot)
    taken: list[Any] = []
    original = amend.spot_counted

    def spy(state: Any, call: Any, item: Any) -> Any:
        made = original(state, call, item)
        taken.append(made)
        return made

    again = Call(t=5.5, call="spot", ball=named, spot=6 - spot)  # (``twice``: a second spot after it)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(amend, "spot_counted", spy)
        quick = [applied(state, call)]
        if odd == "twice" and isinstance(quick[0], GolfState):
            quick.append(applied(quick[0], again))
    event(f"{odd}: " + ("one step" if any(m is not None for m in taken) else "the general way" if taken
                        else "not asked"))
    with general_way():
        general = [applied(state, call)]
        if odd == "twice" and isinstance(general[0], GolfState):
            general.append(applied(general[0], again))
    assert quick == general
    for one, other in zip(quick, general):
        if isinstance(one, GolfState):
            assert list(one.rulings) == list(other.rulings)
            assert ENGINE.to_json(one) == ENGINE.to_json(other)
    if isinstance(quick[0], GolfState):
        assert quick[0].checkpoint is state


SETUPS = [{"type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}},
          {"type": "setup", "game": "golf", "players": {"p1": ["Ann", "Cor"], "p2": ["Bob", "Dirk"]}}]
EVENTS: list[dict[str, Any]] = [
    {"type": "goal", "goal": "A", "ball": "p1"}, {"type": "goal", "goal": "B", "ball": "p2"},
    {"type": "off_table", "ball": "p2"}, {"type": "off_table", "ball": "p1"},
    {"type": "goal", "goal": "B", "ball": "p1"}, {"type": "cushion", "cushion": 2, "ball": None},
]
RESTS: list[dict[str, Any]] = [{}, {}, {}, {"positions": {"p1": [[0.5, 0.4]], "p2": [[0.3, 0.2]]}}]
MOMENTS = ["after", "after", "after", "foul", "twice", "none"]


def spot_shot(draw: Any, log: MadeLog, match: dict[str, Any]) -> None:
    """A shot of one to three events (own goals and balls off the table often), a rest with
    positions now and then, the opponent's spots at one of the ``MOMENTS``, an undo now and then."""
    for _ in range(draw(st.integers(1, 3))):
        log.add(draw(st.sampled_from(EVENTS)))
        log.t += 0.5
    log.add({"type": "rest", **draw(st.sampled_from(RESTS))})
    moment = draw(st.sampled_from(MOMENTS))
    if moment == "foul":
        log.t += 0.5
        log.add({"type": "call", "call": "foul", "foul": "touch"})
    for _ in range({"none": 0, "twice": 2}.get(moment, 1)):
        log.t += 0.5
        log.add({"type": "call", "call": "spot", "ball": draw(st.sampled_from(["p1", "p2"])),
                 "spot": draw(st.integers(1, 5))})
    if draw(st.integers(0, 4)) == 0:
        log.t += 0.5
        log.add({"type": "call", "call": "undo"})


@st.composite
def logs(draw: Any) -> list[str]:
    """Golf matches on a table with a strike sensor or none, shots of ``spot_shot``."""
    return golf_matches(draw, SETUPS, spot_shot)


@settings(max_examples=150, deadline=None)
@given(logs())
def test_a_log_of_spots_at_any_moment_ends_where_the_general_way_does(lines: list[str]) -> None:
    quick = replayed_and_played(lines)
    with general_way():
        assert replayed_and_played(lines) == quick
