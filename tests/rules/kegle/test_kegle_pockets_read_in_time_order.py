"""A shot's pockets read in the one pass (``plain._read_any``: the pocket events gathered in ``t``
order as they are read, a line out of order sorted by time alone, the pockets naming no ball and the
referee's answers read only where there are any) give the state the general decision
(``verdict.settle_general``) gives, over made-up shots heavy in pockets (hypothesis): several
pockets naming red, white or no ball, lines in any order and at the same time, a strike sensor or
none, balls off the table, rest positions or none, the referee's answers to this shot's questions
or the last one's, other calls, undo."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tablesense.errors import TablesenseError
from tablesense.events import parse_event
from tablesense.rules import find_engine
from tablesense.rules.kegle.plain import plain_shot
from tablesense.rules.kegle.verdict import settle_general

ENGINE = find_engine("kegle")

pocket = st.builds(lambda p, b: {"type": "pocket", "pocket": p, **({"ball": b} if b else {})},
                   st.integers(1, 6), st.sampled_from([None, None, "red", "white"]))
sensor = st.one_of(
    pocket, pocket, pocket,
    st.builds(lambda c, b: {"type": "cushion", "cushion": c, "ball": b}, st.integers(1, 4),
              st.sampled_from(["red", "white", None])),
    st.builds(lambda p: {"type": "pin", "pin": p, "state": "down"}, st.integers(1, 5)),
    st.just({"type": "contact", "balls": ["red", "white"]}),
    st.builds(lambda b: {"type": "off_table", "ball": b}, st.sampled_from(["red", "white", None])),
)
answer = st.builds(lambda q, a: {"type": "call", "call": "answer", "question": f"q{q}", "answer": a},
                   st.integers(1, 4), st.sampled_from(["red", "white", "red", "nobody"]))
other_call = st.sampled_from([{"type": "call", "call": "carom"}, {"type": "call", "call": "undo"},
                              {"type": "call", "call": "foul", "foul": "foot"}])
after = st.one_of(st.just([]), st.lists(answer, min_size=1, max_size=3),
                  st.lists(st.one_of(answer, other_call), min_size=1, max_size=2))
positions = st.sampled_from([None, None, {"red": [0.4, 0.3], "white": [1.5, 0.7]},
                             {"red": [1.0, 0.2], "white": [[0.3, 0.5], [1.7, 0.6]]}])
shot = st.tuples(
    st.booleans(),  # a strike first, where the table reports strikes
    st.lists(sensor, min_size=1, max_size=7),
    st.lists(st.integers(0, 4), min_size=7, max_size=7),  # each line's time, in tenths: any order, ties
    positions,
    after,
)


def _lines(shots: list[Any], strikes: bool) -> list[dict[str, Any]]:
    """The match's lines: each shot's events at times in any order after the last rest (ties too),
    its rest, the calls after it, the pins put up."""
    lines: list[dict[str, Any]] = [{"t": 0, "type": "setup", "game": "kegle",
                                    "players": {"p1": "A", "p2": "B"}, "distance": 40}]
    t = 0.0
    for struck, events, tenths, where, calls in shots:
        objs = ([{"type": "strike", "ball": "red"}] if strikes and struck else []) + list(events)
        for k, obj in enumerate(objs):
            lines.append({"t": round(t + 0.1 + 0.1 * tenths[k % len(tenths)], 3), **obj})
        t += 1.0
        lines.append({"t": round(t, 3), "type": "rest", **({"positions": where} if where else {})})
        for obj in calls:
            t += 0.1
            lines.append({"t": round(t, 3), **obj})
        for pin in range(1, 6):
            t += 0.1
            lines.append({"t": round(t, 3), "type": "pin", "pin": pin, "state": "up"})
        t += 0.1
    return lines


def _states(lines: list[dict[str, Any]]) -> list[Any]:
    """Every state of the match (``apply`` of each line, a refused one skipped as a replay does)."""
    state = ENGINE.new_state(parse_event(lines[0]))
    out = [state]
    for obj in lines[1:]:
        try:
            state = ENGINE.apply(state, parse_event(obj))
        except TablesenseError:
            continue
        out.append(state)
    return out


_SHOTS = st.lists(shot, min_size=1, max_size=6)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_SHOTS, st.booleans())
@example([(False, [{"type": "cushion", "cushion": 2, "ball": "red"}, {"type": "pocket", "pocket": 1},
                   {"type": "pocket", "pocket": 2, "ball": "red"}, {"type": "pocket", "pocket": 3}],
           [2, 1, 0, 1, 0, 0, 0], None,
           [{"type": "call", "call": "answer", "question": "q2", "answer": "white"}])], False)
@example([(False, [{"type": "pocket", "pocket": 4, "ball": "white"},
                   {"type": "pocket", "pocket": 5, "ball": "red"},
                   {"type": "cushion", "cushion": 1, "ball": "red"}],
           [1, 1, 0, 0, 0, 0, 0], None, [])], False)
def test_a_shots_pockets_read_in_one_pass_decide_it_as_the_general_decision_does(
        shots: list[Any], strikes: bool) -> None:
    for state in _states(_lines(shots, strikes)):
        shot, before = state.shot, state.before
        if shot is None or before is None or shot.rest is None:
            continue
        quick = plain_shot(before, shot)
        if quick is not None:
            general = settle_general(before, shot)
            assert quick == general
            assert tuple(quick.rulings) == tuple(general.rulings)
