"""The three physical tables the simulator builds: sizes, balls, pegs, goals, pockets, pins.

Coordinates follow docs/events.md: metres from the corner left of goal A (golf) or of the
head cushion (kegle, carom); ``x`` along the long side, ``y`` across. Cushions are
numbered 1 head (``x = 0``), 2 the long cushion at ``y = width``, 3 foot (``x = length``),
4 the long cushion at ``y = 0``.

``table_spec(game, size)`` is the one place that knows the numbers. It takes them from
the engine engineers' ``tablesense.geometry.<game>`` modules when those define them and
falls back to the constants below otherwise, so switching source is a one-line change.
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, field
from typing import Any

from ..errors import TablesenseError

XY = tuple[float, float]

BALL_RADIUS = 0.0615 / 2
BALL_MASS = 0.210

#: carom table sizes (playing area, metres): match table and the common smaller ones
CAROM_SIZES: dict[str, XY] = {
    "match": (2.84, 1.42),
    "2.30": (2.30, 1.15),
    "2.10": (2.10, 1.05),
}


class UnknownTable(TablesenseError, ValueError):
    """No table of that game or size."""


@dataclass(frozen=True, slots=True)
class TableSpec:
    """Everything physical about one table, in metres and kilograms."""

    game: str
    length: float
    width: float
    ball_radius: float = BALL_RADIUS
    ball_mass: float = BALL_MASS
    #: ball name -> starting position; golf balls are named ``p1.1`` .. ``p2.5``
    start: dict[str, XY] = field(default_factory=dict)
    pegs: tuple[XY, ...] = ()
    peg_radius: float = 0.009
    #: golf goal name ("A"/"B") -> centre of the hole; a ball whose centre comes
    #: within ``goal_radius`` of it drops
    goals: dict[str, XY] = field(default_factory=dict)
    goal_radius: float = 0.034
    #: pocket number (1..6) -> pocket centre; a ball whose centre comes within
    #: ``pocket_radius`` drops
    pockets: dict[int, XY] = field(default_factory=dict)
    pocket_radius: float = 0.055
    #: pin number (1..5) -> spot
    pins: dict[int, XY] = field(default_factory=dict)
    pin_radius: float = 0.012
    pin_mass: float = 0.030
    #: named spots where a referee puts a ball back (replacement spots, white spots, ...)
    spots: dict[str, XY] = field(default_factory=dict)
    cushion_restitution: float = 0.78
    ball_restitution: float = 0.93

    @property
    def ball_names(self) -> tuple[str, ...]:
        return tuple(self.start)

    def cushion_segments(self) -> dict[int, tuple[XY, XY]]:
        """Cushion number -> its rubber line (the ball's edge touches it)."""
        length, width = self.length, self.width
        return {
            1: ((0.0, 0.0), (0.0, width)),
            2: ((0.0, width), (length, width)),
            3: ((length, width), (length, 0.0)),
            4: ((length, 0.0), (0.0, 0.0)),
        }

    def on_bed(self, xy: XY, margin: float = 0.0) -> bool:
        x, y = xy
        r = self.ball_radius - margin
        return r <= x <= self.length - r and r <= y <= self.width - r


def owner(ball: str) -> str:
    """The sensor name of a ball: golf balls ``p1.3`` -> ``p1``; others unchanged."""
    return ball.split(".", 1)[0]


# --- fallback constants ------------------------------------------------------------------------


def _golf() -> TableSpec:
    length, width = 1.80, 0.90
    cx, cy = length / 2, width / 2
    # the cross ("bos"): eight pegs on the two axes through the middle
    cross = [(cx + d, cy) for d in (-0.24, -0.12, 0.12, 0.24)] + [
        (cx, cy + d) for d in (-0.22, -0.11, 0.11, 0.22)
    ]
    goal_x = 0.10
    goals = {"A": (goal_x, cy), "B": (length - goal_x, cy)}
    goal_pegs = [(goal_x, cy - 0.075), (goal_x, cy + 0.075),
                 (length - goal_x, cy - 0.075), (length - goal_x, cy + 0.075)]
    start: dict[str, XY] = {}
    for i in range(5):
        y = 0.15 + 0.15 * i
        start[f"p1.{i + 1}"] = (0.42, y)  # p1 defends A, attacks B
        start[f"p2.{i + 1}"] = (length - 0.42, y)
    spots = {
        # replacement spots 1..3 are on the side of the offender's attacking goal: "<n>B"
        # is used by p1 (attacks B), "<n>A" by p2
        "1A": (0.0 + BALL_RADIUS + 0.003, cy - 0.12), "2A": (BALL_RADIUS + 0.003, cy + 0.12),
        "3A": (cx - 0.24 - 0.009 - BALL_RADIUS, cy),
        "1B": (length - BALL_RADIUS - 0.003, cy - 0.12), "2B": (length - BALL_RADIUS - 0.003, cy + 0.12),
        "3B": (cx + 0.24 + 0.009 + BALL_RADIUS, cy),
    }
    return TableSpec(game="golf", length=length, width=width, start=start,
                     pegs=tuple(cross + goal_pegs), goals=goals, spots=spots)


def _kegle() -> TableSpec:
    length, width = 2.10, 1.05
    cx, cy = length / 2, width / 2
    d = 0.065
    pins = {1: (cx - d, cy), 2: (cx, cy - d), 3: (cx, cy), 4: (cx, cy + d), 5: (cx + d, cy)}
    pockets = {1: (0.0, 0.0), 2: (cx, -0.01), 3: (length, 0.0),
               4: (length, width), 5: (cx, width + 0.01), 6: (0.0, width)}
    spots = {"white_head": (length / 4, cy), "white_foot": (3 * length / 4, cy),
             "red_kitchen": (length / 8, cy)}
    start = {"red": (length / 8, cy - 0.1), "white.1": (length / 4, cy), "white.2": (3 * length / 4, cy)}
    return TableSpec(game="kegle", length=length, width=width, start=start, pins=pins,
                     pockets=pockets, spots=spots)


def _carom(size: str) -> TableSpec:
    try:
        length, width = CAROM_SIZES[size]
    except KeyError:
        raise UnknownTable(
            f"unknown carom table size {size!r} (sizes: {', '.join(CAROM_SIZES)})") from None
    cy = width / 2
    spots = {"upper": (3 * length / 4, cy), "lower": (length / 4, cy),
             "left": (length / 4, cy + 0.1825), "right": (length / 4, cy - 0.1825)}
    start = {"yellow": spots["right"], "white": spots["lower"], "red": spots["upper"]}
    return TableSpec(game="carom", length=length, width=width, start=start, spots=spots)


def _from_geometry(game: str, spec: TableSpec) -> TableSpec:
    """Take the size of the table from ``tablesense.geometry.<game>`` when it is there."""
    try:
        geo: Any = importlib.import_module(f"tablesense.geometry.{game}")
    except ImportError:
        return spec
    length = getattr(geo, "LENGTH", None) or getattr(geo, "TABLE_LENGTH", None)
    width = getattr(geo, "WIDTH", None) or getattr(geo, "TABLE_WIDTH", None)
    if isinstance(length, (int, float)) and isinstance(width, (int, float)) and game != "carom":
        if not math.isclose(length, spec.length) or not math.isclose(width, spec.width):
            from dataclasses import replace

            spec = replace(spec, length=float(length), width=float(width))
    return spec


def table_spec(game: str, size: str = "match") -> TableSpec:
    """The physical table for ``game`` (``golf``, ``kegle``, ``carom``); carom takes a ``size``."""
    if game == "golf":
        return _from_geometry("golf", _golf())
    if game == "kegle":
        return _from_geometry("kegle", _kegle())
    if game == "carom":
        return _carom(size)
    raise UnknownTable(f"unknown game {game!r} (games: golf, kegle, carom)")
