"""Keglebillard faults (seeds/kegle.md, seed paragraph 5): one ``Fault`` row each.

A row (``tablesense.rules.fault.Fault``) holds the catalogue id every ruling on it cites,
the seed paragraph(s) as the catalogue's ``seed`` column writes them, what it costs
(``Cost``), the other names a referee may write for it (read at the input edge,
``tablesense.rules.kegle.names``), and the referee panel's button for it.

Every fault ends the series and gives the table to the opponent; the points of the
faulty shot do not count (our reading, see seeds/kegle.md). A few faults also decide
how the opponent starts: a jumped ball gives a new outlay (``outlay``), the red in a
hole puts the red in hand (``red_in_hand``).

Where the engine finds a fault alone, the check is a named function citing the seed
paragraph in ``tablesense.rules.kegle.checks`` (grep the paragraph's number). The
sentences are in ``texts/<lang>/kegle.ftl``.
"""

from typing import NamedTuple

from ...errors import IllegalCall
from ..fault import Button, Fault

JUMPED_BALL = "kegle.fault.jumped-ball"
PINS_NOT_UP = "kegle.fault.pins-not-up"
BALLS_MOVING = "kegle.fault.balls-moving"
TOUCH = "kegle.fault.touch"
TOUCHE = "kegle.fault.touche"
PUSH = "kegle.fault.push"
FROZEN = "kegle.fault.frozen"
FOOT = "kegle.fault.foot"
MARKS = "kegle.fault.marks"
RED_IN_HOLE = "kegle.fault.red-in-hole"
RED_TOPPLES_PIN = "kegle.fault.red-topples-pin"
PIN_BY_CUE = "kegle.fault.pin-by-cue"
TOUCH_TOPPLED_PIN = "kegle.fault.touch-toppled-pin"
NO_CUSHION = "kegle.fault.no-cushion"
THREE_REDS = "kegle.fault.three-reds"


class Cost(NamedTuple):
    """What a keglebillard fault costs besides the series and the shot's points."""

    #: the opponent starts from a new outlay (seed 11.2)
    outlay: bool = False
    #: the opponent places the red behind the lower string (seed 9.4)
    red_in_hand: bool = False


#: the series and the shot's points, nothing more
SERIES = Cost()

FAULTS: tuple[Fault[Cost], ...] = (
    Fault(JUMPED_BALL, "5.1, 11.1, 11.2", Cost(outlay=True),
          ("jumped", "jump", "off-table", "off", "jump-ball", "jumped-off", "ball-off-table",
           "ball-off", "off-the-table", "left-table", "red-off", "white-off"),
          Button("jumped-ball")),
    Fault(PINS_NOT_UP, "5.2, 7.9", SERIES,
          ("pins", "pin-not-up", "pins-down", "pin-down", "pins-not-set", "pins-not-standing"),
          Button("pins-not-up")),
    Fault(BALLS_MOVING, "5.2, 7.9", SERIES,
          ("not-still", "moving", "early", "before-rest", "too-early", "balls-not-still",
           "moving-balls", "ball-moving", "shot-too-early"),
          Button("balls-moving", common=True, place=6)),
    Fault(TOUCH, "5.3", SERIES,
          ("hand", "touched", "wrong-ball", "touch-ball", "ball-touched", "cue-ball-touch", "hand-ball",
           "touched-ball"),
          Button("touch", common=True, place=1)),
    Fault(TOUCHE, "5.4 A", SERIES,
          ("touché", "not-tip", "miscue", "not-cue-tip", "touche-a"),
          Button("touche", common=True, place=2)),
    Fault(PUSH, "5.4 B", SERIES,
          ("cue-contact", "cue-in-contact", "double-hit", "push-shot", "pushed", "double-touch",
           "double-contact", "touche-b"),
          Button("push", common=True, place=3)),
    Fault(FROZEN, "5.4 C", SERIES,
          ("frozen-ball", "touching-ball", "frozen-balls", "touching-balls", "balls-touching", "touche-c"),
          Button("frozen")),
    Fault(FOOT, "5.5", SERIES,
          ("no-foot-on-floor", "foot-off-floor", "no-foot", "feet", "foot-on-floor", "feet-off-floor",
           "off-floor", "no-feet", "floor"),
          Button("foot", common=True, place=4)),
    Fault(MARKS, "5.6", SERIES,
          ("rail-marks", "marking", "mark", "direction-marks", "marks-on-rail", "chalk-marks",
           "hold-points"),
          Button("marks")),
    Fault(RED_IN_HOLE, "5.7, 10.1", Cost(red_in_hand=True),
          ("red-pocketed", "red-in-pocket", "red-pocket", "red-hole", "red-potted", "pocketed-red",
           "potted-red", "scratch", "cue-ball-pocketed", "cue-ball-in-pocket", "cue-ball-in-hole",
           "cue-ball-potted"),
          Button("red-in-hole")),
    Fault(RED_TOPPLES_PIN, "5.8, 8.1", SERIES,
          ("red-pin", "red-toppled-pin", "red-topples", "red-pins", "red-hits-pin",
           "red-knocks-pin", "pin-by-red", "red-topple"),
          Button("red-topples-pin")),
    Fault(PIN_BY_CUE, "5.9", SERIES,
          ("cue-topples-pin", "body", "clothes", "bridge", "pin-by-body", "cue-pin", "pin-cue",
           "pin-by-bridge", "pin-by-clothes", "body-pin", "sleeve"),
          Button("pin-by-cue", common=True, place=5)),
    Fault(TOUCH_TOPPLED_PIN, "5.10", SERIES,
          ("touched-pin", "touch-pin", "toppled-pin", "touched-toppled-pin", "touch-fallen-pin",
           "touch-toppled", "touched-toppled", "pin-touched"),
          Button("touch-toppled-pin")),
    Fault(NO_CUSHION, "5.11", SERIES,
          ("no-rail", "rail", "cushion", "no-rail-contact", "no-cushion-contact", "no-cushions",
           "no-rails", "every-other"),
          Button("no-cushion")),
    Fault(THREE_REDS, "5.12", SERIES,
          ("3-reds", "three-red", "three-reds-no-pin", "3-reds-no-pin", "three-reds-without-pin",
           "three-shots-no-pin", "three-shots-without-pin"),
          Button("three-reds")),
)

BY_ID: dict[str, Fault[Cost]] = {f.id: f for f in FAULTS}


def fault(fault_id: str | None) -> Fault[Cost]:
    """The fault with the canonical id ``fault_id``, or ``IllegalCall`` listing the known ones."""
    found = BY_ID.get(fault_id or "")
    if found is None:
        known = ", ".join(f.id.removeprefix("kegle.fault.") for f in FAULTS)
        raise IllegalCall(f"unknown keglebillard fault {fault_id or ''!r} (known: {known})")
    return found
