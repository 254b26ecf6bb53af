"""The referee's answer to "which ball fell in pocket N?" after a shot's rest, taken in one step
(``KegleEngine._answer``: the shot decided once more by ``plain_shot`` with the answer, in one
copy of the state) ends where the base's way ends (``ShotEngine._answer``: the question closed,
``on_answer``, ``amend``, ``resolve``), or refuses what it refuses, over made-up matches
(hypothesis): shots with pockets naming a ball or none, logged in order and out of it, other
calls about the shot before the answer, pins put up after the rest, a strike sensor or none;
every open question answered with each option as a referee writes it, and with none."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_kegle_helpers import outcome
from test_kegle_plain_shot import states
from test_kegle_whole_shot import common_shots, late_shots

from tablesense.events import Call, parse_event
from tablesense.rules import find_engine
from tablesense.rules.shot_engine import ShotEngine

ENGINE = find_engine("kegle")

ANSWERS = ("red", "White", True, False, "maybe", 3, None)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(common_shots, late_shots), min_size=1, max_size=20), st.integers(10, 200),
       st.booleans(), st.sampled_from([None, "p1", "p2"]))
def test_an_answer_after_the_rest_in_one_step_ends_where_the_base_s_answer_does(
        shots: list[Any], distance: int, strikes: bool, first: str | None) -> None:
    for state in states(shots, distance, strikes, first):
        if state.in_shot or not state.questions:
            continue
        asked = [q.id for q in state.questions]
        for question in (*asked, f"q{state.asked + 1}"):
            for answer in ANSWERS:
                call = parse_event({"t": 1e6, "type": "call", "call": "answer", "question": question,
                                    "answer": answer})
                assert type(call) is Call
                quick = outcome(ENGINE._answer, state, call)
                base = outcome(lambda s, c: ShotEngine._answer(ENGINE, s, c), state, call)
                assert quick == base
                if not isinstance(quick, type):
                    assert tuple(quick.rulings) == tuple(base.rulings)


def test_an_answer_about_a_late_pocket_line_closes_its_question_and_scores_the_fault() -> None:
    """The recorded matches' shape: the pocket logged after the shot's later lines; the answer
    "red" after the rest is the player's fault, "white" is none; an undo opens the question again."""
    lines = [{"t": 0, "type": "setup", "game": "kegle", "players": {"p1": "A", "p2": "B"}, "distance": 100},
             {"t": 2.0, "type": "cushion", "cushion": 2, "ball": "red"},
             {"t": 3.0, "type": "pin", "pin": 1, "state": "down"},
             {"t": 1.0, "type": "pocket", "pocket": 2, "ball": None},
             {"t": 4.0, "type": "rest"}]
    state = None
    for obj in lines:
        event = parse_event(obj)
        state = ENGINE.new_state(event) if state is None else ENGINE.apply(state, event)  # type: ignore[arg-type]
    assert state is not None and [q.id for q in state.questions] == ["q1"]
    for answer, faults in (("red", ("kegle.fault.red-in-hole",)), ("white", ())):
        call = parse_event({"t": 5.0, "type": "call", "call": "answer", "question": "q1", "answer": answer})
        after = ENGINE.apply(state, call)
        assert after.questions == () and after.score.last.faults == faults
        assert after == ShotEngine._answer(ENGINE, state, call)  # type: ignore[arg-type]
        assert ENGINE.apply(after, parse_event({"t": 6.0, "type": "call", "call": "undo"})) == state
