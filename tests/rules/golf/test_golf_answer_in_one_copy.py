"""The referee's answer to "whose ball?" amends its golf shot in the one copy ``resolve.staged``
makes, the undo point put in it (``GolfEngine._answered``), and an ``undo`` is taken in ``_called``
itself: the state the base's ``_call`` gives (its ``_answer``: the question closed in a copy,
``on_answer``'s ``amend`` from that, a copy more for the undo point), or the same refusal, over
made-up states (hypothesis: a shot of one to three events with balls no sensor named, into a goal
or off the table, at rest or still rolling, questions of another shot; answers of either ball, none,
written loosely, not an option, to a question not open; undo points of none, a state, a ``Redo``);
and every recorded golf match, applied and played, ends where it ends the base's way."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from unittest import mock

import msgspec
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from test_golf_one_event_shot import LOGS, _replayed, before_shot
from test_golf_played_shot_in_one_copy import _read

from tablesense.errors import TablesenseError
from tablesense.events import Call, Cushion, Goal, OffTable, Rest
from tablesense.rules.golf.engine import GolfEngine
from tablesense.rules.golf.state import GolfState
from tablesense.rules.shot_engine import Redo, ShotEngine

replace = msgspec.structs.replace
ENGINE = GolfEngine()
_CALLED = GolfEngine._called  # (the step itself, before a test puts ``_base_called`` in its place)


def _of(step: Any, *args: Any) -> Any:
    try:
        return step(*args)
    except TablesenseError as e:
        return type(e), str(e)


def _base_called(engine: GolfEngine, state: GolfState, call: Call) -> Any:
    """``GolfEngine._called`` with an answer and an undo the base's way (``ShotEngine._call``)."""
    if call.call in ("answer", "undo"):
        return ShotEngine._call(engine, state, call)
    return _CALLED(engine, state, call)


@st.composite
def an_unnamed_shot(draw: Any) -> tuple[list[Any], Rest]:
    """One to three events, a ball no sensor named among them most often (a goal or off the table),
    and the rest."""
    events: list[Any] = []
    for k in range(draw(st.integers(1, 3))):
        at = 1.0 + 0.2 * k
        kind = draw(st.integers(0, 5))
        if kind < 2:
            events.append(Goal(t=at, goal=draw(st.sampled_from(["A", "B"])), ball=None))
        elif kind < 3:
            events.append(OffTable(t=at, ball=None))
        elif kind < 4:
            ball = draw(st.sampled_from(["p1", "p2"]))
            events.append(Goal(t=at, goal=draw(st.sampled_from(["A", "B"])), ball=ball))
        else:
            events.append(Cushion(t=at, cushion=draw(st.integers(1, 4))))
    return events, Rest(t=4.0)


ANSWERS = st.sampled_from(["p1", "p2", "P2", " p1 ", None, "yes", 3, "p3"])


@settings(max_examples=1500, deadline=None)
@given(before_shot(), an_unnamed_shot(), st.data(), ANSWERS, st.booleans())
def test_an_answer_in_one_copy_is_the_state_the_base_call_gives(
        before: GolfState, shot: tuple[list[Any], Rest], data: st.DataObject, answer: Any, rolling: bool,
) -> None:
    events, rest = shot
    state = _of(ENGINE.steps, before, events, rest)
    if not isinstance(state, GolfState):  # (a goal of a ball not in play: refused)
        event("no shot")
        return
    # a question open most often, now and then one that is not
    question = data.draw(st.sampled_from([q.id for q in state.questions] * 4 + ["q1", "q9"]))
    if rolling:  # the shot still rolling: an answer refused, as the base refuses it
        state = replace(state, in_shot=True)
    call = Call(t=5.0, call="answer", question=question, answer=answer)
    quick = _of(GolfEngine.apply, ENGINE, state, call)
    general = _of(_base_called, ENGINE, state, call)
    if isinstance(quick, GolfState):
        assert isinstance(general, GolfState)
        assert quick.checkpoint is state and general.checkpoint is state
        assert quick == general
        assert list(quick.rulings) == list(general.rulings)
        event("answered")
    else:
        assert quick == general
        event("refused")


@settings(max_examples=200, deadline=None)
@given(before_shot(), st.sampled_from(["none", "state", "redo"]))
def test_an_undo_in_called_is_the_state_the_base_call_gives(before: GolfState, back: str) -> None:
    base = GolfState(players=before.players)
    point = {"none": None, "state": base, "redo": Redo(base, (Cushion(t=0.5, cushion=1), Rest(t=0.9)))}[back]
    state = replace(before, checkpoint=point)
    call = Call(t=5.0, call="undo")
    quick = _of(GolfEngine.apply, ENGINE, state, call)
    general = _of(_base_called, ENGINE, state, call)
    if back == "redo":  # a state made again from its base: its links are new objects (``_read`` them)
        assert isinstance(quick, GolfState) and isinstance(general, GolfState)
        assert _read(quick) == _read(general)
        assert list(quick.rulings) == list(general.rulings)
    else:
        assert quick == general
    if back == "state":
        assert quick is base


def test_an_answer_amends_its_shot_without_the_bases_answer_step() -> None:
    """The answer of a ball no sensor named counts it for the player named, in one step."""
    state = GolfState(players=(("p1", "Ann"), ("p2", "Bob")), at_table="p1")
    after = ENGINE.whole(state, [Goal(t=1.0, goal="B", ball=None)], Rest(t=2.0))
    assert after is not None and [q.id for q in after.questions] == ["q1"]
    with mock.patch.object(ShotEngine, "_answer", side_effect=AssertionError("the base's step taken")):
        new = ENGINE.apply(after, Call(t=3.0, call="answer", question="q1", answer="p1"))
    assert new.checkpoint is after and not new.questions
    assert new.balls_left == (state.balls_left[0] - 1, state.balls_left[1])


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_a_recorded_golf_match_ends_where_it_ends_with_the_bases_answer_and_undo(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    for played in (False, True):
        quick = _replayed(lines, played)
        with mock.patch.object(GolfEngine, "_called", _base_called):
            assert _replayed(lines, played) == quick
