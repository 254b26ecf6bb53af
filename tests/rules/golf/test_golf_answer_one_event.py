"""The referee's answer naming the ball of a golf shot of one event that no sensor named (a goal or
a ball off the table) is taken by the one-event step (``single.answered``) into the state, or the
refusal, the general way gives (``GolfEngine._amended``: the shot resolved again with the answer;
``single.answered`` off): over made-up states (hypothesis: the states of test_golf_one_event_shot.py,
a table with a strike sensor or none, a rest with positions or none, a shooter not the player at
the table, a late drop or a call before the answer, a question open before the match's first shot,
the cut moved on after the rest, answers of either ball, none, written loosely,
to another question) and over made-up logs (answers after the rest, after another call or never,
undos after them), replayed whole (``apply``) and played, to the same account."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import msgspec
import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st
from test_golf_helpers import MadeLog, applied, golf_matches, replayed_and_played
from test_golf_one_event_shot import before_shot

from tablesense.events import Call, Goal, OffTable, Rest
from tablesense.rules.golf import single
from tablesense.rules.golf.engine import GolfEngine
from tablesense.rules.golf.state import GolfState
from tablesense.rules.records import Question

replace = msgspec.structs.replace
ENGINE = GolfEngine()
ANSWERS = st.sampled_from(["p1", "p2", "p1", "p2", "P2", None, "p3"])


@contextmanager
def general_way() -> Iterator[None]:
    """An answer through ``GolfEngine._amended`` only (``single.answered`` off)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(single, "answered", lambda state, question, call: None)
        yield


@st.composite
def unnamed(draw: Any) -> tuple[Any, Rest]:
    """A goal into either goal or a ball off the table, no ball named, and its rest: with positions
    now and then."""
    first = OffTable(t=1.2, ball=None) if draw(st.integers(0, 2)) == 0 else \
        Goal(t=1.2, goal=draw(st.sampled_from(["A", "B"])), ball=None)
    positions = {"p1": [[0.2, 0.3]], "p2": []} if draw(st.integers(0, 4)) == 0 else None
    return first, Rest(t=4.0, positions=positions)


#: the match's first shot, a goal no sensor named, after a question left open (the one-event step keeps
#: it open where ``resolve.start_of`` closes it: ``single.answered`` leaves such a state to the general way)
FIRST = GolfState(players=(("p1", "Ann"), ("p2", "Bob")), at_table="p2", balls_left=(1, 2), zone_play=True)


@settings(max_examples=800, deadline=None)
@example(FIRST, (Goal(t=1.2, goal="A", ball=None), Rest(t=4.0)), "p2", "own", "first")
@given(before_shot(), unnamed(), ANSWERS, st.sampled_from(["own", "own", "own", "other"]),
       st.sampled_from(["plain", "plain", "plain", "late", "call", "shooter", "first", "cut"]))
def test_an_answer_naming_a_one_event_shots_ball_is_the_state_the_general_way_gives(
        before: GolfState, shot: tuple[Any, Rest], answer: Any, question: str, odd: str) -> None:
    first, rest = shot
    if odd == "first":  # the match's first shot, a question (of a shot undone) still open before it
        before = replace(before, shot=None, before=None,
                         questions=(Question(id="q9", t=0.5, rule="golf.goal", options=("p1", "p2")),))
    state = ENGINE.steps(before, [first], rest)
    if state is None or not state.questions:
        event("no question asked")
        return
    last = state.shot
    assert last is not None
    if odd == "late":  # a drop after the rest, in the shot
        state = replace(state, shot=replace(last, late=(Goal(t=4.2, goal="A", ball="p2"),)))
    elif odd == "call":  # a call about the shot before the answer
        state = replace(state, shot=replace(last, calls=(Call(t=4.1, call="foul", foul="golf.foul.touch"),)))
    elif odd == "shooter":  # a shot the player at the table did not play
        state = replace(state, shot=replace(last, player="p2" if last.player == "p1" else "p1"))
    elif odd == "cut":  # the cut moved on after the rest (an incident open)
        state = replace(state, cut=replace(state.cut, incident_open=True))
    qid = state.questions[-1].id if question == "own" else "q1"
    call = Call(t=5.0, call="answer", question=qid, answer=answer)
    taken: list[Any] = []
    original = single.answered

    def spy(state: Any, question: Any, call: Any) -> Any:
        made = original(state, question, call)
        taken.append(made)
        return made

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(single, "answered", spy)
        quick = applied(state, call)
    event(f"{odd}: " + ("one step" if any(m is not None for m in taken) else "the general way" if taken
                        else "not asked"))
    with general_way():
        general = applied(state, call)
    assert quick == general
    if not isinstance(quick, tuple):
        assert list(quick.rulings) == list(general.rulings)
        assert ENGINE.to_json(quick) == ENGINE.to_json(general)
        assert quick.checkpoint is state and quick.before is state.before


SETUPS = [{"type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}},
          {"type": "setup", "game": "golf", "players": {"p1": ["Ann", "Cor"], "p2": ["Bob", "Dirk"]}}]
EVENTS: list[dict[str, Any]] = [
    {"type": "goal", "goal": "A", "ball": None}, {"type": "goal", "goal": "B", "ball": None},
    {"type": "off_table", "ball": None}, {"type": "goal", "goal": "B", "ball": "p1"},
    {"type": "goal", "goal": "A", "ball": "p2"}, {"type": "cushion", "cushion": 2, "ball": None},
]
RESTS: list[dict[str, Any]] = [{}, {}, {}, {"positions": {"p1": [[0.5, 0.4]], "p2": [[0.3, 0.2]]}}]
#: when the answer comes: right after the rest, after a foul called, or never
MOMENTS = ["after", "after", "after", "foul", "none"]


def answer_shot(draw: Any, log: MadeLog, match: dict[str, Any]) -> None:
    """A shot of one event (a ball no sensor named most often) or two, a rest with positions now
    and then, the answer to "whose ball?" at one of the ``MOMENTS``, an undo now and then."""
    events = [draw(st.sampled_from(EVENTS)) for _ in range(draw(st.sampled_from([1, 1, 1, 2])))]
    for item in events:
        log.add(item)
        log.t += 0.5
    log.add({"type": "rest", **draw(st.sampled_from(RESTS))})
    unnamed = sum(1 for item in events if item["type"] != "cushion" and item["ball"] is None)
    asked = match.get("asked", 0)  # the questions asked so far in the match
    moment = draw(st.sampled_from(MOMENTS))
    if moment == "foul":
        log.t += 0.5
        log.add({"type": "call", "call": "foul", "foul": "touch"})
    if unnamed and moment != "none":
        log.t += 0.5
        answer = draw(st.sampled_from(["p1", "p2", "p2", None]))
        log.add({"type": "call", "call": "answer", "question": f"q{asked + 1}", "answer": answer})
    match["asked"] = asked + unnamed
    if draw(st.integers(0, 4)) == 0:
        log.t += 0.5
        log.add({"type": "call", "call": "undo"})


@st.composite
def logs(draw: Any) -> list[str]:
    """Golf matches on a table with a strike sensor or none, shots of ``answer_shot``."""
    return golf_matches(draw, SETUPS, answer_shot)


@settings(max_examples=150, deadline=None)
@given(logs())
def test_a_log_of_answers_at_any_moment_ends_where_the_general_way_does(lines: list[str]) -> None:
    quick = replayed_and_played(lines)
    with general_way():
        assert replayed_and_played(lines) == quick
