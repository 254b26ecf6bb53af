"""The referee's answer about a shot with pockets, checked by ``KegleEngine._answered`` without the
sets it made (``engine._asked_by``: the question one the shot asks, compared a number at a time; an
answer written as an option is its own ball): the same verdict as the set of the questions asked and
``as_option`` / ``pocket_ball`` of the answer, over made-up questions (hypothesis: ids as written, in
other cases, with spaces, numbers, none, unhashable), shots with pockets naming a ball or none, and
answers of every spelling; and ``whole_called`` of the recorded shape with each equals the shot and
the answer applied apart."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.events import Call, Pocket, Rest, parse_event
from tablesense.rules import find_engine
from tablesense.rules.kegle.engine import _asked_by
from tablesense.rules.kegle.names import POCKET_OPTIONS, pocket_ball
from tablesense.rules.records import as_option

ENGINE = find_engine("kegle")

written = st.one_of(st.builds(lambda n: f"q{n}", st.integers(0, 7)),
                    st.sampled_from(["Q1", " q1", "q01", "", "q"]))
#: a question as a ``Call`` may hold it made in code (a line's is a string)
question = st.one_of(written, st.integers(0, 3), st.none())
answer = st.sampled_from(["red", "white", "Red", "WHITE", " red", True, False, "maybe", 3, None, "yes"])
pocket = st.builds(lambda b: {"type": "pocket", "pocket": 2, "ball": b},
                   st.sampled_from([None, None, "red", "white"]))
cushion = st.just({"type": "cushion", "cushion": 2, "ball": "red"})


@settings(max_examples=400, deadline=None)
@given(question, st.integers(1, 4), st.lists(st.one_of(pocket, cushion), max_size=5))
def test_a_question_checked_a_number_at_a_time_is_one_the_set_of_those_asked_holds(
        q: Any, first: int, objs: list[dict[str, Any]]) -> None:
    events = [parse_event({"t": 1.0 + k, **o}) for k, o in enumerate(objs)]
    count = sum(1 for e in events if type(e) is Pocket and e.ball is None)
    assert _asked_by(q, first, events) is (q in {f"q{n}" for n in range(first, first + count)})


def test_an_unhashable_question_raises_as_the_set_did() -> None:
    events = [parse_event({"t": 1.0, "type": "pocket", "pocket": 2})]
    for q in (["q1"], {"q": 1}):
        try:
            _asked_by(q, 1, events)
        except TypeError:
            continue
        raise AssertionError("an unhashable question passed")


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.sampled_from(["red", "white", "Red", "WHITE", " red"]), answer),
       st.one_of(st.just("q1"), written))  # the question this shot asks, and its spellings, often
def test_the_recorded_shape_with_any_answer_is_the_shot_and_the_answer_applied_apart(a: Any, q: Any) -> None:
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": 100}))
    table = [parse_event({"t": 1.0, "type": "cushion", "cushion": 2, "ball": "red"}),
             parse_event({"t": 3.0, "type": "pin", "pin": 1, "state": "down"}),
             parse_event({"t": 2.0, "type": "pocket", "pocket": 2, "ball": None})]
    rest = parse_event({"t": 4.0, "type": "rest"})
    call = parse_event({"t": 5.0, "type": "call", "call": "answer", "question": q, "answer": a})
    assert type(rest) is Rest and type(call) is Call
    taken = as_option(a, POCKET_OPTIONS)
    took = ENGINE.whole_called(state, table, rest, call)
    if q != "q1" or taken not in POCKET_OPTIONS:
        assert took is None
        return
    assert took is not None and took.shot is not None and took.shot.calls[0].answer == pocket_ball(taken)
    apart = ENGINE.apply(ENGINE.whole(state, table, rest), call)
    assert msgspec.structs.replace(took, checkpoint=None) == msgspec.structs.replace(apart, checkpoint=None)
