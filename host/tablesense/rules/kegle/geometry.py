"""Keglebillard table geometry, in metres.

The table: a Danish keglebillard pocket table with a playing surface (the cloth
inside the cushion noses) of 2.24 m x 1.12 m, the common bodega size. Pockets,
spots and pins follow DDBU practice; where the rule text does not give a figure,
the value here is our choice and says so.

Frame (docs/events.md): metres from the corner left of the *head* cushion, seen by a
player standing at the head cushion and looking down the table. ``x`` runs along the
long side (0 at the head cushion, ``LENGTH`` at the foot cushion), ``y`` across
(0 on the left long cushion, ``WIDTH`` on the right one).

Numbering (the sensor channels and the events use these numbers):

- cushions: 1 head (x = 0), 2 left long (y = 0), 3 foot (x = LENGTH), 4 right long
  (y = WIDTH);
- pockets, going round the table from the origin: 1 head-left corner, 2 left middle,
  3 foot-left corner, 4 foot-right corner, 5 right middle, 6 head-right corner;
- pins, a cross of five on the centre spot: 1 the centre pin, 2 towards the head,
  3 towards the foot, 4 towards the left cushion, 5 towards the right cushion.

The two white-ball spots lie on the long axis, one in the middle of each half
(x = LENGTH/4 and 3*LENGTH/4). The two *strings* are the lines across the table
through the spots; the head string bounds the head "kitchen" (x < HEAD_STRING_X)
where the red is placed for the outlay of a player shooting from the head, and the
foot string the foot kitchen. The middle line (x = LENGTH/2) divides the halves.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

#: playing surface inside the cushion noses
LENGTH: Final = 2.24
WIDTH: Final = 1.12
#: ball diameter (our choice: the 52.5 mm set used on bodega pocket tables)
BALL_DIAMETER: Final = 0.0525
BALL_RADIUS: Final = BALL_DIAMETER / 2
#: cushion nose height above the cloth
CUSHION_HEIGHT: Final = 0.036

#: cushion number -> (name, axis, value): the cushion is the line axis == value
CUSHIONS: Final[dict[int, tuple[str, str, float]]] = {
    1: ("head", "x", 0.0),
    2: ("left", "y", 0.0),
    3: ("foot", "x", LENGTH),
    4: ("right", "y", WIDTH),
}
LONG_CUSHIONS: Final = frozenset({2, 4})
SHORT_CUSHIONS: Final = frozenset({1, 3})

#: pocket number -> centre of the pocket opening, at the cushion line
POCKETS: Final[dict[int, tuple[float, float]]] = {
    1: (0.0, 0.0),
    2: (LENGTH / 2, 0.0),
    3: (LENGTH, 0.0),
    4: (LENGTH, WIDTH),
    5: (LENGTH / 2, WIDTH),
    6: (0.0, WIDTH),
}
#: mouth widths (our choice, tight bodega pockets)
CORNER_POCKET_MOUTH: Final = 0.11
MIDDLE_POCKET_MOUTH: Final = 0.12
CORNER_POCKETS: Final = frozenset({1, 3, 4, 6})
MIDDLE_POCKETS: Final = frozenset({2, 5})

#: centre spot, the middle of the table, where the centre pin stands
CENTRE: Final = (LENGTH / 2, WIDTH / 2)
#: distance from the centre pin to each of the four outer pins (our choice)
PIN_SPACING: Final = 0.065
#: pin body: small turned wooden skittle (our choice of figures)
PIN_HEIGHT: Final = 0.028
PIN_BASE_DIAMETER: Final = 0.008
PIN_HEAD_DIAMETER: Final = 0.011
#: pin number -> spot
PINS: Final[dict[int, tuple[float, float]]] = {
    1: CENTRE,
    2: (CENTRE[0] - PIN_SPACING, CENTRE[1]),
    3: (CENTRE[0] + PIN_SPACING, CENTRE[1]),
    4: (CENTRE[0], CENTRE[1] - PIN_SPACING),
    5: (CENTRE[0], CENTRE[1] + PIN_SPACING),
}

#: the middle line across the table, dividing the head half from the foot half
MIDDLE_LINE_X: Final = LENGTH / 2
#: the two strings (lines across the table through the white spots)
HEAD_STRING_X: Final = LENGTH / 4
FOOT_STRING_X: Final = 3 * LENGTH / 4
#: white-ball spots: "head" in the head half, "foot" in the foot half
WHITE_SPOTS: Final[dict[str, tuple[float, float]]] = {
    "head": (HEAD_STRING_X, WIDTH / 2),
    "foot": (FOOT_STRING_X, WIDTH / 2),
}


def half(x: float) -> str:
    """``"head"`` or ``"foot"``: the half of the table a ball at ``x`` lies in.

    A ball exactly on the middle line belongs to neither; this returns ``"middle"``
    so the caller applies seed rules 9.3 and 9.5 for that case.
    """
    if x < MIDDLE_LINE_X:
        return "head"
    if x > MIDDLE_LINE_X:
        return "foot"
    return "middle"


def opposite(side: str) -> str:
    """The other half: ``head`` <-> ``foot``."""
    return "foot" if side == "head" else "head"


def in_kitchen(x: float, side: str) -> bool:
    """True if a ball centre at ``x`` is behind the string of ``side`` (head or foot)."""
    if side == "head":
        return x < HEAD_STRING_X
    return x > FOOT_STRING_X


def on_table(x: float, y: float) -> bool:
    """True if a ball centre at (x, y) lies on the playing surface."""
    return BALL_RADIUS <= x <= LENGTH - BALL_RADIUS and BALL_RADIUS <= y <= WIDTH - BALL_RADIUS


def blocks_pin(ball: tuple[float, float], pin: int) -> bool:
    """True if a ball at ``ball`` stops pin ``pin`` from standing on its spot (rule 8.3)."""
    px, py = PINS[pin]
    dx, dy = ball[0] - px, ball[1] - py
    clear = BALL_RADIUS + PIN_HEAD_DIAMETER / 2
    return dx * dx + dy * dy < clear * clear


def ball_points(value: Any) -> list[tuple[float, float]]:
    """The points of a rest ``positions`` value: ``[x, y]``, ``[[x, y], ...]`` or ``[]``."""
    if not isinstance(value, list) or not value:
        return []
    points = value if isinstance(value[0], list) else [value]
    return [(float(p[0]), float(p[1])) for p in points if isinstance(p, list) and len(p) == 2]


#: a ball whose centre lies outside this box round the centre spot keeps no pin off its spot: the
#: outer pins stand ``PIN_SPACING`` from it, a ball blocks within ``BALL_RADIUS`` and half a pin's
#: head of a spot (``blocks_pin``), and a centimetre more leaves no rounding to doubt
_FAR: Final = PIN_SPACING + BALL_RADIUS + PIN_HEAD_DIAMETER / 2 + 0.01
_BOX_X: Final = (CENTRE[0] - _FAR, CENTRE[0] + _FAR)
_BOX_Y: Final = (CENTRE[1] - _FAR, CENTRE[1] + _FAR)


def blocked_pins(positions: Mapping[str, Any], pins: Iterable[int]) -> tuple[list[int], list[int]]:
    """Rule 8.3: of ``pins`` (in their order), those a ball at rest keeps off their spot (rest
    ``positions``), and of those the ones only a red lies on. A rest whose every ball lies far
    from the pins (``away_from_pins``: nearly every one) blocks none, found without a check of
    each pin; any other rest is checked pin by pin (``blocked_near``)."""
    if away_from_pins(positions):
        return [], []
    return blocked_near(positions, pins)


def away_from_pins(positions: Mapping[str, Any]) -> bool:
    """Every ball of ``positions`` is written as ``[x, y]`` or ``[[x, y], ...]`` of floats and lies
    outside the box ``_BOX_X`` by ``_BOX_Y`` round the centre spot (no pin's spot within its reach;
    compared, no arithmetic). False for anything else (an empty or odd value, an integer, a ball
    near the pins): ``blocked_near`` reads those as ``ball_points`` does."""
    (x0, x1), (y0, y1) = _BOX_X, _BOX_Y
    for at in positions.values():
        if type(at) is not list or not at:
            return False
        x = at[0]
        if type(x) is list:
            for point in at:
                if type(point) is not list or len(point) != 2:
                    return False
                x, y = point
                if type(x) is not float or type(y) is not float or (x0 <= x <= x1 and y0 <= y <= y1):
                    return False
        else:
            if len(at) != 2:
                return False
            y = at[1]
            if type(x) is not float or type(y) is not float or (x0 <= x <= x1 and y0 <= y <= y1):
                return False
    return True


def blocked_near(positions: Mapping[str, Any], pins: Iterable[int]) -> tuple[list[int], list[int]]:
    """``blocked_pins`` checked pin by pin: each ball's points (``ball_points``) against each pin's
    spot (``blocks_pin``)."""
    balls = [(name, xy) for name, at in positions.items() for xy in ball_points(at)]
    blocked: list[int] = []
    by_red: list[int] = []
    for pin in pins:
        on = [name for name, xy in balls if blocks_pin(xy, pin)]
        if on:
            blocked.append(pin)
            if all(name.startswith("red") for name in on):
                by_red.append(pin)
    return blocked, by_red
