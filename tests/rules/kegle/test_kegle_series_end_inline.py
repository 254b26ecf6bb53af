"""A series' end decided inside keglebillard's one-function shot (``plain.common_shot``: the match
over, a draw, the opponent's last series, the break, written out there) gives the state the longer
way gives (``whole`` with the one function off: ``plain_shot``, which asks ``series.series_over``),
over scores made up near each player's distance (hypothesis): who shot first, each one's distance,
points, series, the last series and the break already given or not, a shot that scores, misses or
is faulty, with the referee's carom or foul after its rest or no call."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.events import Rest, parse_event
from tablesense.rules import find_engine
from tablesense.rules.kegle import plain
from tablesense.rules.kegle.state import Score

ENGINE = find_engine("kegle")
SETUP = parse_event({"t": 0, "type": "setup", "game": "kegle", "players": {"p1": "A", "p2": "B"},
                     "distance": 20})

#: a shot's events: pins it topples, red-white contacts (two: the carambole), cushions
SHOTS = {
    "two pins": [{"type": "cushion", "cushion": 1, "ball": "red"}, {"type": "pin", "pin": 2, "state": "down"},
                 {"type": "pin", "pin": 4, "state": "down"}],
    "carambole": [{"type": "cushion", "cushion": 2, "ball": "red"},
                  {"type": "contact", "balls": ["red", "white"]},
                  {"type": "contact", "balls": ["white", "red"]}],
    "miss": [{"type": "cushion", "cushion": 3, "ball": "red"}],
    "five pins and carambole": [{"type": "contact", "balls": ["red", "white"]},
                                {"type": "contact", "balls": ["red", "white"]},
                                *({"type": "pin", "pin": p, "state": "down"} for p in range(1, 6))],
    "pin before contact (fault)": [{"type": "cushion", "cushion": 4, "ball": "red"},
                                   {"type": "pin", "pin": 1, "state": "down"},
                                   {"type": "contact", "balls": ["red", "white"]}],
}

scores = st.fixed_dictionaries({
    "distance": st.tuples(st.integers(4, 24), st.integers(4, 24)),
    "first": st.sampled_from(["p1", "p2"]),
    "points": st.tuples(st.integers(0, 26), st.integers(0, 26)),
    "series": st.tuples(st.integers(0, 3), st.integers(0, 3)),
    "shots": st.integers(0, 2),
    "run": st.integers(0, 8),
    "last_series": st.booleans(),
    "break_taken": st.booleans(),
    "announced": st.tuples(st.booleans(), st.booleans()),
    "outlay": st.sampled_from([None, "p1", "p2"]),
    "red_in_hand": st.sampled_from([None, "p1", "p2"]),
})


#: the referee's call after the rest, or none: a carambole, a foul costing a new outlay or the red in hand
CALLS = [None, {"call": "carom"}, {"call": "foul", "foul": "kegle.fault.jumped-ball"},
         {"call": "foul", "foul": "kegle.fault.red-in-hole"}]


def _whole(state: Any, events: list[Any], rest: Rest, quick: bool, call: Any = None) -> Any:
    plain.QUICK = quick
    try:
        if call is not None:
            return ENGINE.whole_called(state, events, rest, call)
        return ENGINE.whole(state, events, rest)
    finally:
        plain.QUICK = True


def _shot(name: str) -> tuple[list[Any], Rest]:
    events = [parse_event({"t": 1.0 + 0.1 * k, **o}) for k, o in enumerate(SHOTS[name])]
    rest = parse_event({"t": 2.0, "type": "rest"})
    assert type(rest) is Rest
    return events, rest


@settings(max_examples=400, deadline=None)
@given(scores, st.sampled_from(["p1", "p2"]), st.sampled_from(sorted(SHOTS)), st.sampled_from(CALLS))
def test_a_series_end_in_the_one_function_gives_what_series_over_gives(
        fields: dict[str, Any], at_table: str, name: str, said: dict[str, Any] | None) -> None:
    start = ENGINE.new_state(SETUP)
    state = msgspec.structs.replace(start, score=Score(**fields), at_table=at_table)
    events, rest = _shot(name)
    call = None if said is None else parse_event({"t": 2.5, "type": "call", **said})
    facts = plain.common_facts(events)
    assert facts and plain.common_shot(state, events, rest, facts, call) is not None  # the one function's
    quick, longer = _whole(state, events, rest, True, call), _whole(state, events, rest, False, call)
    assert quick == longer
    assert tuple(quick.rulings) == tuple(longer.rulings)
    assert quick.ended == longer.ended and quick.score == longer.score and quick.at_table == longer.at_table


def _ends(fields: dict[str, Any], at_table: str, name: str) -> Any:
    state = msgspec.structs.replace(ENGINE.new_state(SETUP), score=Score(**fields), at_table=at_table)
    return _whole(state, *_shot(name), True)


def test_each_end_of_a_series_is_reached_by_the_one_function() -> None:
    base = {"distance": (20, 20), "first": "p1", "series": (2, 1), "shots": 1, "run": 2}
    # p2 (second) ends the equal series with p1 at the distance: p1 wins
    won = _ends({**base, "points": (20, 10), "series": (2, 2)}, "p2", "miss")
    assert won.ended.winner == "p1" and won.ended.rule == "kegle.same-series"
    # both at the distance: a draw
    draw = _ends({**base, "points": (20, 16), "series": (2, 2), "last_series": True, "break_taken": True},
                 "p2", "two pins")
    assert draw.ended.winner == "draw" and draw.ended.rule == "kegle.draw"
    # p1 (first) reaches it: p2's last series, from a new outlay, announced
    last = _ends({**base, "points": (17, 5), "break_taken": True}, "p1", "carambole")
    assert last.ended is None and last.score.last_series and last.score.outlay == "p2"
    assert [r.rule for r in last.rulings][-2:] == ["kegle.distance", "kegle.last-series"]
    assert ("kegle.last-series:announce", ()) in last.score.announcements
    # half the distance, the first time: the break
    brk = _ends({**base, "points": (10, 5), "announced": (True, False)}, "p1", "miss")
    assert brk.score.break_taken and brk.score.break_due and brk.at_table == "p2"
    assert brk.score.announcements == (("kegle.break:announce", ()),)
