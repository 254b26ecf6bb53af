"""A keglebillard shot whose lines are out of ``t`` order (``common_facts``' ``LATE``) is read by
``plain._read_any`` sorted before its one pass (``late``), where any other shot is read as logged and
read again sorted at its first line out of order: the two give the same facts, over made-up shots
(hypothesis: pins falling, rocking and naming their toppler, cushions, contacts, strikes, pockets
naming a ball or none, balls off the table, times drawn from a few so that lines tie and turn round,
the referee's answers about the pockets or none, questions asked before). The pockets come in ``t``
order, stream order breaking ties (``shot.in_time_order``), each with the ball its event or the
answer about it names."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st
from test_kegle_plain_shot import sensor

from tablesense.events import Call, Pocket, parse_event
from tablesense.rules import find_engine
from tablesense.rules.kegle.holes import answers
from tablesense.rules.kegle.plain import _read_any
from tablesense.rules.shot_engine import ShotRecord

ENGINE = find_engine("kegle")
START = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                      "players": {"p1": "A", "p2": "B"}}))

answer = st.builds(lambda q, a: {"type": "call", "call": "answer", "question": f"q{q}", "answer": a},
                   st.integers(1, 4), st.sampled_from(["red", "white", True, False]))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(sensor, st.sampled_from([1.0, 1.5, 2.0, 2.5])), min_size=1, max_size=7),
       st.lists(answer, max_size=3), st.integers(0, 2))
def test_a_late_shot_read_sorted_first_gives_the_facts_read_as_logged_give(
        drawn: list[tuple[dict[str, Any], float]], answered: list[dict[str, Any]], asked: int) -> None:
    events = tuple(parse_event({"t": t, **o}) for o, t in drawn)
    calls = tuple(parse_event({"t": 3.0, **a}) for a in answered)
    assert all(type(c) is Call for c in calls)
    before = msgspec.structs.replace(START, asked=asked)
    shot = ShotRecord("p1", events, None, (), calls)  # type: ignore[arg-type]
    read = _read_any(before, shot)
    assert _read_any(before, shot, True) == read
    if read is None:
        return
    # the pockets in ``t`` order, stream order breaking ties, each with its ball or the answer's
    order = sorted(enumerate(events), key=lambda item: item[1].t)
    unknown = [(k, e) for k, e in enumerate(events) if type(e) is Pocket and e.ball is None]
    said = answers(before, unknown, calls)
    assert list(read[5]) == [(e.pocket, said.get(k) if e.ball is None else e.ball)
                             for k, e in order if type(e) is Pocket]
    assert list(read[4]) == unknown
