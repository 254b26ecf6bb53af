"""Keglebillard faults (seeds/kegle.md, seed paragraph 5): their ids and what they decide.

Every fault ends the series and gives the table to the opponent; the points of the
faulty shot do not count (our reading, see seeds/kegle.md). A few faults also decide
how the opponent starts: a jumped ball gives a new outlay (``outlay``), the red in a
hole puts the red in hand (``red_in_hand``).

The engine sees canonical ids only: the names a referee writes are read at the input
edge (``tablesense.rules.kegle.names``); their sentences are in ``texts/<lang>/kegle.ftl``.
"""

from __future__ import annotations

from typing import NamedTuple

from ...errors import IllegalCall
from .names import (
    BALLS_MOVING,
    FOOT,
    FROZEN,
    JUMPED_BALL,
    MARKS,
    NO_CUSHION,
    PIN_BY_CUE,
    PINS_NOT_UP,
    PUSH,
    RED_IN_HOLE,
    RED_TOPPLES_PIN,
    THREE_REDS,
    TOUCH,
    TOUCH_TOPPLED_PIN,
    TOUCHE,
)


class Fault(NamedTuple):
    id: str
    outlay: bool = False  # the opponent starts from a new outlay
    red_in_hand: bool = False  # the opponent places the red behind the lower string


FAULTS: tuple[Fault, ...] = (
    Fault(JUMPED_BALL, outlay=True),
    Fault(PINS_NOT_UP),
    Fault(BALLS_MOVING),
    Fault(TOUCH),
    Fault(TOUCHE),
    Fault(PUSH),
    Fault(FROZEN),
    Fault(FOOT),
    Fault(MARKS),
    Fault(RED_IN_HOLE, red_in_hand=True),
    Fault(RED_TOPPLES_PIN),
    Fault(PIN_BY_CUE),
    Fault(TOUCH_TOPPLED_PIN),
    Fault(NO_CUSHION),
    Fault(THREE_REDS),
)

BY_ID: dict[str, Fault] = {f.id: f for f in FAULTS}


def fault(fault_id: str | None) -> Fault:
    """The fault with the canonical id ``fault_id``, or ``IllegalCall`` listing the known ones."""
    found = BY_ID.get(fault_id or "")
    if found is None:
        known = ", ".join(f.id.removeprefix("kegle.fault.") for f in FAULTS)
        raise IllegalCall(f"unknown keglebillard fault {fault_id or ''!r} (known: {known})")
    return found
