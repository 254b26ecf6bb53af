"""Keglebillard's "which ball fell in pocket N?" asked in one copy of the state (``holes.ask_pockets``)
gives what asking each question (``ShotEngine.ask``) and then taking the answered ones out gives
(hypothesis: pockets naming no ball, questions already open and asked before, answers to some, to
none, to questions that were never asked, and calls that are no answers)."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.events import Call, Pocket, parse_event
from tablesense.rules import find_engine
from tablesense.rules.kegle.fouls import RED_IN_HOLE
from tablesense.rules.kegle.holes import ask_pockets
from tablesense.rules.kegle.names import POCKET_OPTIONS
from tablesense.rules.records import Question
from tablesense.rules.shot_engine import ShotEngine

ENGINE = find_engine("kegle")
START = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                      "players": {"p1": "A", "p2": "B"}}))


def _asked_each(state: Any, unknown: list[tuple[int, Pocket]], calls: tuple[Call, ...],
                player: str | None) -> Any:
    """The questions asked one by one, the answered ones taken out after (the longer way)."""
    if not unknown:
        return state
    for i, e in unknown:
        state = ShotEngine.ask(state, e.t, RED_IN_HOLE, options=POCKET_OPTIONS, player=player,
                               what="which-ball", pocket=e.pocket, index=i)
    answered = {c.question for c in calls if c.call == "answer"}
    if answered:
        kept = tuple(q for q in state.questions if q.id not in answered)
        state = msgspec.structs.replace(state, questions=kept)
    return state


pockets = st.lists(st.tuples(st.integers(0, 9), st.integers(1, 6)), max_size=4)
open_ids = st.lists(st.integers(1, 8), max_size=3, unique=True)
calls = st.lists(st.one_of(st.tuples(st.just("answer"), st.integers(1, 9)),
                           st.tuples(st.sampled_from(["carom", "foul", "undo"]), st.just(0))), max_size=4)


@settings(max_examples=400, deadline=None)
@given(pockets, open_ids, st.integers(0, 5), calls, st.sampled_from([None, "p1", "p2"]))
def test_asking_in_one_copy_gives_what_asking_each_and_taking_the_answered_out_gives(
        where: list[tuple[int, int]], ids: list[int], asked: int, said: list[tuple[str, int]],
        player: str | None) -> None:
    questions = tuple(Question(id=f"q{n}", t=0.5, rule=RED_IN_HOLE) for n in ids)
    state = msgspec.structs.replace(START, questions=questions, asked=asked)
    unknown = [(i, Pocket(t=1.0 + 0.1 * k, pocket=pocket)) for k, (i, pocket) in enumerate(where)]
    made = tuple(Call(t=3.0, call=kind, question=f"q{n}", answer=True) if kind == "answer"
                 else Call(t=3.0, call=kind) for kind, n in said)
    one, each = ask_pockets(state, unknown, made, player), _asked_each(state, unknown, made, player)
    assert one == each
    assert one.questions == each.questions and one.asked == each.asked


def test_an_answered_pocket_is_counted_but_not_asked() -> None:
    unknown = [(1, Pocket(t=1.0, pocket=2)), (3, Pocket(t=1.5, pocket=4))]
    state = ask_pockets(START, unknown, (Call(t=2.0, call="answer", question="q1", answer="red"),), "p1")
    assert state.asked == 2
    assert [(q.id, dict(q.data)["pocket"]) for q in state.questions] == [("q2", 4)]
