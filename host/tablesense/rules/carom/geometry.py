"""Carom table geometry in metres: bed sizes, cushions, acquit spots, forbidden corner zones.

Frame (docs/events.md): the origin is the corner of the bed to the left of the head
cushion, seen by a player standing behind the head cushion and looking down the
table; ``x`` runs along the long side towards the foot cushion (0 .. length),
``y`` across the table to the right (0 .. width). All sizes are of the playing bed,
measured to the nose of the cushions.

Cushions are numbered 1..4 counter-clockwise seen from above, starting at the head:

- 1: the head cushion (short, ``x = 0``), behind which the opening shot is played;
- 2: the right long cushion (``y = width``);
- 3: the foot cushion (short, ``x = length``);
- 4: the left long cushion (``y = 0``).

Acquit spots (the seeds' names): ``boven`` (top spot, on the long axis a quarter of
the length from the foot cushion: the red), ``beneden`` (bottom spot, a quarter of
the length from the head cushion: the opponent's white), ``links``/``rechts`` (on the
head string, each side of ``beneden``: the breaking player's ball) and ``midden``
(the centre of the bed). The side spots sit 182 mm from the axis on the match table
(the UMB figure) and proportionally to the bed width on smaller tables.

Forbidden corner zones (libre, seed 004): a right triangle in each corner whose two
legs run 21 cm along the long and the short cushion. A ball lying exactly on the
diagonal line is decided against the player, which for the object balls means "in
the zone": ``in_zone`` counts a ball as inside when its contact point is in the
triangle or no further than ``ON_LINE`` beyond the diagonal (the painted line's half
width).
"""

from __future__ import annotations

import math

import msgspec

BALL_DIAMETER = 0.0615
BALL_RADIUS = BALL_DIAMETER / 2
ZONE_LEG = 0.21
#: half the width of the painted diagonal: a contact point this close beyond it is "on the line"
ON_LINE = 0.002
#: how far from a corner (along both cushions together) a point in its zone may lie
_REACH = ZONE_LEG + ON_LINE * math.sqrt(2)
_MATCH_SIDE_SPOT = 0.182

CUSHIONS: dict[int, str] = {1: "head", 2: "right long", 3: "foot", 4: "left long"}
SPOT_NAMES = ("boven", "beneden", "links", "rechts", "midden")
#: corners by the two cushions that meet there
CORNERS: dict[str, tuple[int, int]] = {"head-left": (1, 4), "head-right": (1, 2),
                                       "foot-right": (3, 2), "foot-left": (3, 4)}


class CaromTable(msgspec.Struct, frozen=True):
    """One bed size; every position method answers in the frame of this module."""

    name: str
    length: float
    width: float

    @property
    def side_spot_offset(self) -> float:
        return _MATCH_SIDE_SPOT * self.width / 1.42

    def spot(self, name: str) -> tuple[float, float]:
        """The acquit spot ``name`` (boven, beneden, links, rechts, midden) as (x, y)."""
        mid = self.width / 2
        quarter = self.length / 4
        spots = {
            "boven": (self.length - quarter, mid),
            "beneden": (quarter, mid),
            "links": (quarter, mid - self.side_spot_offset),
            "rechts": (quarter, mid + self.side_spot_offset),
            "midden": (self.length / 2, mid),
        }
        try:
            return spots[name]
        except KeyError:
            raise ValueError(f"unknown acquit spot {name!r} (spots: {', '.join(SPOT_NAMES)})") from None

    def corner_points(self) -> dict[str, tuple[float, float]]:
        return {"head-left": (0.0, 0.0), "head-right": (0.0, self.width),
                "foot-right": (self.length, self.width), "foot-left": (self.length, 0.0)}

    def zone_of(self, x: float, y: float, leg: float = ZONE_LEG, on_line: float = ON_LINE) -> str | None:
        """The corner whose forbidden triangle holds the contact point (x, y), or None.

        A point on the diagonal (within ``on_line``) counts as inside: against the player.
        """
        reach = _REACH if leg == ZONE_LEG and on_line == ON_LINE else leg + on_line * math.sqrt(2)
        length, width = self.length, self.width
        across, along = width - y, length - x
        near_x = x if x <= along else along  # the nearest corner's distances, as ``min``
        near_y = y if y <= across else across
        if near_x + near_y > reach:  # far from every corner
            return None
        if near_x >= 0.0 and near_y >= 0.0 and reach + reach < width <= length:
            # on the bed (no distance below 0: 0 <= x <= length, 0 <= y <= width), within reach of
            # its nearest corner: no other corner is (each lies half the bed's width or more away),
            # and the walk below finds that one at the same distance (``abs(x - length)`` is
            # ``length - x``): the nearest, at once
            if x <= along:
                return "head-left" if y <= across else "head-right"
            return "foot-left" if y <= across else "foot-right"
        for corner, (cx, cy) in self.corner_points().items():
            if abs(x - cx) + abs(y - cy) <= reach:
                return corner
        return None

    def in_zone(self, x: float, y: float) -> bool:
        return self.zone_of(x, y) is not None

    def on_bed(self, x: float, y: float) -> bool:
        """Whether a ball centre at (x, y) fits on the bed (not through a cushion)."""
        r = BALL_RADIUS - 1e-9
        return r <= x <= self.length - r and r <= y <= self.width - r

    def cushion_line(self, cushion: int) -> tuple[tuple[float, float], tuple[float, float]]:
        """The nose line of ``cushion`` (1..4) as two end points."""
        L, W = self.length, self.width
        lines = {1: ((0.0, 0.0), (0.0, W)), 2: ((0.0, W), (L, W)),
                 3: ((L, 0.0), (L, W)), 4: ((0.0, 0.0), (L, 0.0))}
        if cushion not in lines:
            raise ValueError(f"cushion must be 1..4, not {cushion!r}")
        return lines[cushion]


MATCH = CaromTable("match", 2.84, 1.42)
TABLES: dict[str, CaromTable] = {
    "match": MATCH,
    "2.30": CaromTable("2.30", 2.30, 1.15),
    "2.10": CaromTable("2.10", 2.10, 1.05),
    "1.90": CaromTable("1.90", 1.90, 0.95),
}


def table(name: str | None = None) -> CaromTable:
    """The bed called ``name`` ("match", "2.30", "2.10", "1.90"); the match table by default."""
    if name is None:
        return MATCH
    try:
        return TABLES[str(name)]
    except KeyError:
        raise ValueError(f"unknown carom table {name!r} (tables: {', '.join(TABLES)})") from None


def opening_positions(tab: CaromTable = MATCH, side: str = "rechts",
                      cue: str = "yellow", other: str = "white") -> dict[str, tuple[float, float]]:
    """The outlay: red on boven, ``other`` on beneden, the breaking ``cue`` ball on links or rechts."""
    if side not in ("links", "rechts"):
        raise ValueError(f"the cue ball goes on 'links' or 'rechts', not {side!r}")
    return {"red": tab.spot("boven"), other: tab.spot("beneden"), cue: tab.spot(side)}
