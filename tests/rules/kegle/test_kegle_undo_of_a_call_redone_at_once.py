"""An undo of the referee's call after a shot's rest goes back to the state after the rest, kept as
a ``Redo`` of the state before the shot and the shot's lines (``KegleEngine.whole_called``); redone,
``KegleEngine.redo`` takes the shot at once (``whole``) where the base's ``ShotEngine.redo`` applies
each line again. The two give the same state, over made-up matches (hypothesis): shots of
``test_kegle_plain_shot``'s strategy (pins, holes, balls off the table, contacts naming their white,
lines out of order, rest positions or none), a strike sensor or none, the referee's calls after the
rest of ``test_kegle_whole_shot_and_call``'s list, then more calls and pins put up (so that the next
shot starts from states with questions open, incidents, pins held), and every state of the match as
the base of a ``Redo`` of the next shot, whether ``whole`` takes it or not, undo included."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_kegle_helpers import outcome
from test_kegle_plain_shot import shot as shots
from test_kegle_whole_shot_and_call import applied, called, shot_and_call

from tablesense.errors import TablesenseError
from tablesense.events import Call, Rest, parse_event
from tablesense.rules import find_engine
from tablesense.rules.shot_engine import Redo, ShotEngine

ENGINE = find_engine("kegle")


def _same_redone(back: Redo) -> None:
    """``KegleEngine.redo`` of ``back`` is the base's (each line applied again), its rulings too."""
    quick = outcome(ENGINE.redo, back)
    slow = outcome(lambda r: ShotEngine.redo(ENGINE, r), back)
    assert quick == slow
    if not isinstance(slow, type):
        assert tuple(quick.rulings) == tuple(slow.rulings)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(shots, called), min_size=1, max_size=16), st.integers(4, 40), st.booleans())
def test_a_shot_redone_at_once_for_an_undo_is_the_state_each_line_applied_again_gives(
        played: list[Any], distance: int, strikes: bool) -> None:
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": distance}))
    t = 0.0
    for drawn, call_obj in played:
        table, rest, call, t = shot_and_call(drawn, call_obj, strikes, t)
        if table:
            # any state of the match as the base (a shot open, pins held, questions asked, over)
            _same_redone(Redo(state, (*table, rest), True))
            try:
                quick = ENGINE.whole_called(state, table, rest, call)
            except TablesenseError:
                quick = None
            if quick is not None and type(quick.checkpoint) is Redo:
                _same_redone(quick.checkpoint)
                # the undo of the call, as a replay applies it: the state after the rest
                undone = ENGINE.apply(quick, parse_event({"t": round(t + 0.05, 3), "type": "call",
                                                         "call": "undo"}))
                assert undone == ShotEngine.redo(ENGINE, quick.checkpoint)
        state, t = applied(state, drawn, call_obj, table, rest, t)


def _recorded_shape() -> tuple[Any, list[Any], Rest, Call]:
    """The recorded matches' shot: a cushion, a pin, a pocket naming no ball logged after the pin
    with an earlier time, the rest, and the referee's answer "red" on the line after it."""
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": 100}))
    table = [parse_event({"t": 1.0, "type": "cushion", "cushion": 2, "ball": "red"}),
             parse_event({"t": 3.0, "type": "pin", "pin": 1, "state": "down"}),
             parse_event({"t": 2.0, "type": "pocket", "pocket": 2, "ball": None})]
    rest = parse_event({"t": 4.0, "type": "rest"})
    call = parse_event({"t": 5.0, "type": "call", "call": "answer", "question": "q1", "answer": "red"})
    assert type(rest) is Rest and type(call) is Call
    return state, table, rest, call


def test_an_answer_undone_is_redone_without_applying_a_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """The undo of the answer after the recorded shape: the question open again, no line applied."""
    state, table, rest, call = _recorded_shape()
    quick = ENGINE.whole_called(state, table, rest, call)
    assert quick is not None and type(quick.checkpoint) is Redo and quick.checkpoint.applied
    slow = ShotEngine.redo(ENGINE, quick.checkpoint)

    def refused(*_: Any) -> Any:
        raise AssertionError("a line applied again")

    monkeypatch.setattr(type(ENGINE), "apply", refused)
    undone = ENGINE.redo(quick.checkpoint)
    assert undone == slow and [q.id for q in undone.questions] == ["q1"]


def test_a_redo_that_is_no_whole_shot_is_applied_line_by_line() -> None:
    """A ``Redo`` whose lines are not a shot and its rest (a pin set up first, a call among them) is
    the base's: each line applied again."""
    state, table, rest, call = _recorded_shape()
    up = parse_event({"t": 0.5, "type": "pin", "pin": 1, "state": "up"})
    for events in ((up, *table, rest), (*table, call, rest)):
        back = Redo(state, events, True)
        assert ENGINE.redo(back) == ShotEngine.redo(ENGINE, back)
