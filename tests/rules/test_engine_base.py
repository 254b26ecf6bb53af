"""What the engine base does for every game: answers, undo, calls after the end."""

from __future__ import annotations

import json

import pytest

from tablesense.errors import IllegalCall
from tablesense.events import parse_event
from tablesense.replay import Replay

SETUP = {"t": 0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}


def _play(*events: dict) -> Replay:
    rep = Replay()
    for ev in (SETUP, *events):
        rep.apply(parse_event(ev))
    return rep


def _unknown_ball_goal() -> Replay:
    rep = _play({"t": 1, "type": "goal", "goal": "A", "ball": None}, {"t": 2, "type": "rest"})
    assert [q["id"] for q in rep.to_json()["questions"]] == ["q1"]
    return rep


def test_an_answer_written_loosely_is_read_as_the_option_it_names() -> None:
    rep = _unknown_ball_goal()
    rep.apply(parse_event({"t": 3, "type": "call", "call": "answer", "question": "q1", "answer": " P2 "}))
    state = rep.to_json()
    assert state["questions"] == [] and state["balls_left"]["p2"] == 4


def test_an_answer_that_is_no_option_is_refused_and_the_question_stays_open() -> None:
    rep = _unknown_ball_goal()
    with pytest.raises(IllegalCall, match=r"must be one of \['p1', 'p2'\]"):
        rep.apply(parse_event({"t": 3, "type": "call", "call": "answer", "question": "q1",
                               "answer": "maybe"}))
    with pytest.raises(IllegalCall, match="no open question 'q9'"):
        rep.apply(parse_event({"t": 3, "type": "call", "call": "answer", "question": "q9", "answer": "p1"}))
    assert [q["id"] for q in rep.to_json()["questions"]] == ["q1"]


def test_undo_takes_back_the_whole_last_shot_then_the_one_before() -> None:
    rep = _play({"t": 1, "type": "goal", "goal": "B", "ball": "p1"}, {"t": 2, "type": "rest"},
                {"t": 3, "type": "goal", "goal": "B", "ball": "p1"}, {"t": 4, "type": "rest"})
    assert rep.to_json()["balls_left"]["p1"] == 3
    rep.apply(parse_event({"t": 5, "type": "call", "call": "undo"}))
    assert rep.to_json()["balls_left"]["p1"] == 4
    rep.apply(parse_event({"t": 6, "type": "call", "call": "undo"}))
    after = rep.to_json()
    assert after["balls_left"]["p1"] == 5 and after["rulings"] == []
    with pytest.raises(IllegalCall, match="nothing to undo"):
        rep.apply(parse_event({"t": 7, "type": "call", "call": "undo"}))
    json.dumps(after)  # the state stays plain JSON
