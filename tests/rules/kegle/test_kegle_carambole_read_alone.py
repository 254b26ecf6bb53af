"""A referee's ``carom`` after a keglebillard shot's rest asks whether the contacts already
counted the carambole (``KegleEngine._call_carom``: then the call only confirms it). It reads
that alone (``shot.carambole``), as the shot's whole reading (``shot.read_shot``) has it, over
made-up shots (hypothesis): red-white contacts either way round, naming their white or not, the
same white twice, contacts of other balls, pins, cushions, pockets, lines out of order."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.events import parse_event
from tablesense.rules.kegle.shot import carambole, read_shot

_BALLS = st.sampled_from([["red", "white"], ["white", "red"], ["red", "white"], ["white", "white"],
                          ["red", "red"], ["white", "yellow"]])


@st.composite
def shot_events(draw: Any) -> list[Any]:
    out = []
    for _ in range(draw(st.integers(0, 8))):
        t = draw(st.floats(0.0, 5.0))
        kind = draw(st.sampled_from(["contact", "contact", "contact", "pin", "cushion", "pocket"]))
        if kind == "contact":
            obj: dict[str, Any] = {"type": "contact", "balls": draw(_BALLS)}
            white = draw(st.sampled_from([None, None, "w1", "w2", 1]))
            if white is not None:
                obj["white"] = white
        elif kind == "pin":
            state = draw(st.sampled_from(["down", "up"]))
            obj = {"type": "pin", "pin": draw(st.integers(1, 5)), "state": state}
        elif kind == "cushion":
            obj = {"type": "cushion", "cushion": draw(st.integers(1, 4))}
        else:
            obj = {"type": "pocket", "pocket": draw(st.integers(1, 6)), "ball": None}
        out.append(parse_event({"t": t, **obj}))
    return out


@settings(max_examples=400, deadline=None)
@given(shot_events(), st.frozensets(st.integers(1, 5)))
def test_a_carom_call_reads_the_carambole_as_the_whole_shot_reading_does(events: list[Any],
                                                                          pins: frozenset[int]) -> None:
    assert carambole(events) == read_shot(events, pins).carambole


def test_two_contacts_naming_the_same_white_are_no_carambole() -> None:
    same = [parse_event({"t": k, "type": "contact", "balls": ["red", "white"], "white": "w1"})
            for k in (1, 2)]
    assert not carambole(same)
    both = [*same, parse_event({"t": 3, "type": "contact", "balls": ["white", "red"], "white": "w2"})]
    assert carambole(both)
