"""Keglebillard faults (seeds/kegle.md, seed paragraph 5): ids, words and synonyms.

Every fault ends the series and gives the table to the opponent; the points of the
faulty shot do not count (our reading, see seeds/kegle.md). A few faults also decide
how the opponent starts: a jumped ball gives a new outlay (``outlay``), the red in a
hole puts the red in hand (``red_in_hand``).

``find_fault(name)`` accepts the full id (``kegle.fault.touch``), the short name
(``touch``), any case, ``_``, ``-`` or spaces, with or without the ``kegle.`` and
``fault.`` prefixes, and the synonyms below; anything else is an ``IllegalCall``
listing the known names.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..errors import IllegalCall


class Fault(NamedTuple):
    id: str
    text: str
    aliases: tuple[str, ...] = ()
    outlay: bool = False  # the opponent starts from a new outlay
    red_in_hand: bool = False  # the opponent places the red behind the lower string


JUMPED_BALL = "kegle.fault.jumped-ball"
PINS_NOT_UP = "kegle.fault.pins-not-up"
RED_IN_HOLE = "kegle.fault.red-in-hole"
RED_TOPPLES_PIN = "kegle.fault.red-topples-pin"
PIN_BY_CUE = "kegle.fault.pin-by-cue"
NO_CUSHION = "kegle.fault.no-cushion"
THREE_REDS = "kegle.fault.three-reds"

FAULTS: tuple[Fault, ...] = (
    Fault("kegle.fault.jumped-ball", "a ball jumped off the table", ("jumped", "jump", "off-table", "off"),
          outlay=True),
    Fault("kegle.fault.pins-not-up", "played before the pins were put up", ("pins", "pin-not-up")),
    Fault("kegle.fault.balls-moving", "played before the balls lay still",
          ("not-still", "moving", "early", "before-rest")),
    Fault("kegle.fault.touch", "touched a ball with the hand, the cue or an object", ("hand", "touched")),
    Fault("kegle.fault.touche", "touche: touched a ball with something other than the cue tip",
          ("touché", "not-tip")),
    Fault("kegle.fault.push", "the cue was in contact with the red when it hit a ball or a cushion",
          ("cue-contact", "cue-in-contact", "double-hit")),
    Fault("kegle.fault.frozen", "played directly on a ball touching another without freeing it",
          ("frozen-ball", "touching-ball")),
    Fault("kegle.fault.foot", "played without a foot on the floor",
          ("no-foot-on-floor", "foot-off-floor", "no-foot", "feet")),
    Fault("kegle.fault.marks", "made direction marks on the rail", ("rail-marks", "marking", "mark")),
    Fault("kegle.fault.red-in-hole", "the red went in a hole", ("red-pocketed", "red-in-pocket"),
          red_in_hand=True),
    Fault("kegle.fault.red-topples-pin", "the red toppled a pin",
          ("red-pin", "red-toppled-pin", "red-topples")),
    Fault("kegle.fault.pin-by-cue", "a pin was toppled by the cue, a bridge, clothes or the body",
          ("cue-topples-pin", "body", "clothes", "bridge", "pin-by-body")),
    Fault("kegle.fault.touch-toppled-pin", "touched a toppled pin", ("touched-pin", "touch-pin")),
    Fault("kegle.fault.no-cushion", "no ball touched a cushion the second time in a row the pins were put up",
          ("no-rail", "rail", "cushion")),
    Fault("kegle.fault.three-reds", "three reds in a row without a pin", ("3-reds", "three-red")),
)

BY_ID: dict[str, Fault] = {f.id: f for f in FAULTS}


def _norm(name: str) -> str:
    key = re.sub(r"[\s_]+", "-", name.strip().lower())
    for prefix in ("kegle.", "fault.", "foul."):
        if key.startswith(prefix):
            key = key[len(prefix):]
    return key


_BY_NAME: dict[str, Fault] = {}
for _f in FAULTS:
    _BY_NAME[_norm(_f.id)] = _f
    for _a in _f.aliases:
        _BY_NAME[_norm(_a)] = _f


def find_fault(name: str) -> Fault:
    """The fault a referee means by ``name``, or ``IllegalCall`` listing the known ones."""
    fault = _BY_NAME.get(_norm(name))
    if fault is None:
        known = ", ".join(_norm(f.id) for f in FAULTS)
        raise IllegalCall(f"unknown keglebillard fault {name!r} (known: {known})")
    return fault
