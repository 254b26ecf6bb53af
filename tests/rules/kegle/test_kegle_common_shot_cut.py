"""The cutter after keglebillard's one-function shot (``plain.common_shot``: ``shot_cut``'s common case
written out there) is the one ``shot_cut`` makes, and the shot's state the longer way's (``whole``
with the one function off), over cutters made up (hypothesis: a strike sensor or none, strikes seen
or not, every phase, settle windows, shot counts, an incident or a settle open) and shots opened by a
cushion, a contact, a strike or a pin (one that may settle the last shot, or the pin referee's), their
rest at a float or an int time, from a match's first state or after a shot."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.events import Contact, Cushion, Pin, Rest, Strike, parse_event
from tablesense.rules import find_engine
from tablesense.rules.kegle import plain
from tablesense.rules.shot_engine import shot_cut
from tablesense.shots import Cutter

ENGINE = find_engine("kegle")
START = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                      "players": {"p1": "A", "p2": "B"}, "distance": 30}))

cutters = st.builds(
    Cutter,
    strike_sensor=st.booleans(), window=st.sampled_from([None, 0.5, 3.0]), game=st.just("kegle"),
    shot=st.integers(0, 40), phase=st.sampled_from(["idle", "open", "settling", "closed"]),
    last_t=st.sampled_from([None, 0.2, 0.9]), settle_open=st.booleans(), incident_open=st.booleans(),
    settled_pins=st.sampled_from([frozenset(), frozenset({2})]), strikes=st.booleans(),
)
openers = st.sampled_from([
    Cushion(t=1.0, cushion=2, ball="red"), Contact(t=1.0, balls=("red", "white")), Strike(t=1.0, ball="red"),
    Strike(t=1.0), Pin(t=1.0, pin=1, state="down"),
])
#: a match's first shot, or one after a shot that toppled a pin and scored (its pins put up or not; a
#: table known to report a rest after the pin referee's hands)
_LAST = ENGINE.whole(START, [Cushion(t=0.1, cushion=1, ball="red"), Pin(t=0.15, pin=4, state="down")],
                     Rest(t=0.2))
states = st.sampled_from([START, _LAST, ENGINE.apply(_LAST, Pin(t=0.3, pin=4, state="up")),
                          msgspec.structs.replace(_LAST, setup_rests=True)])  # (the table reports his rest)
mores = st.lists(st.sampled_from([Cushion(t=1.1, cushion=1, ball="red"), Pin(t=1.2, pin=3, state="down"),
                                  Contact(t=1.3, balls=("white", "red"))]), max_size=3, unique_by=id)


def _whole(state: Any, events: list[Any], rest: Rest, quick: bool) -> Any:
    plain.QUICK = quick
    try:
        return ENGINE.whole(state, events, rest)
    finally:
        plain.QUICK = True


@settings(max_examples=400, deadline=None)
@given(states, cutters, openers, mores, st.sampled_from([2.0, 2]))
def test_the_one_functions_cutter_is_shot_cuts(start: Any, cut: Cutter, first: Any, more: list[Any],
                                               at: float) -> None:
    state = msgspec.structs.replace(start, cut=cut)
    events = sorted([first, *more], key=lambda e: e.t)
    rest = Rest(t=at)
    facts = plain.common_facts(events)
    quick = plain.common_shot(state, events, rest, facts) if facts else None
    if quick is not None:
        assert quick.cut == shot_cut(cut, first, rest)
    one, longer = _whole(state, events, rest, True), _whole(state, events, rest, False)
    assert one == longer
    if one is not None:
        assert tuple(one.rulings) == tuple(longer.rulings)


def test_a_strike_first_marks_the_cutter_and_a_cushion_keeps_it() -> None:
    rest = Rest(t=2.0)
    struck = plain.common_shot(START, [Strike(t=1.0, ball="red")], rest, ([], 0, False, []))
    rolled = plain.common_shot(START, [Cushion(t=1.0, cushion=1, ball="red")], rest, ([], 1, False, []))
    assert struck is not None and rolled is not None
    assert struck.cut.strikes and not rolled.cut.strikes
    assert struck.cut.shot == rolled.cut.shot == START.cut.shot + 1 and struck.cut.last_t == 2.0
