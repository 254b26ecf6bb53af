"""The three physical tables the simulator builds: sizes, balls, pegs, goals, pockets, pins.

Coordinates follow docs/events.md: metres from the corner left of goal A (golf) or of the
head cushion (kegle, carom); ``x`` along the long side, ``y`` across. Cushion, pocket and
pin numbers are those of the table's geometry module.

``table_spec(game, size)`` asks the game's own ``sim/<game>/table.py``, which reads the
numbers from the engines' geometry modules (``tablesense.rules.golf.geometry``, ``.kegle``,
``.carom``), so the simulated table is the table the rules measure positions on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import games
from ..errors import TablesenseError

XY = tuple[float, float]

BALL_RADIUS = 0.0615 / 2
BALL_MASS = 0.210



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
    #: cushion number (1..4) -> the two ends of its nose line
    cushions: dict[int, tuple[XY, XY]] = field(default_factory=dict)
    cushion_restitution: float = 0.78
    ball_restitution: float = 0.93

    @property
    def ball_names(self) -> tuple[str, ...]:
        return tuple(self.start)

    def cushion_segments(self) -> dict[int, tuple[XY, XY]]:
        """Cushion number -> its nose line (the ball's edge touches it)."""
        return self.cushions

    def on_bed(self, xy: XY, margin: float = 0.0) -> bool:
        x, y = xy
        r = self.ball_radius - margin
        return r <= x <= self.length - r and r <= y <= self.width - r


def owner(ball: str) -> str:
    """The sensor name of a ball: golf balls ``p1.3`` -> ``p1``; others unchanged."""
    return ball.split(".", 1)[0]


# --- what the tables share --------------------------------------------------------------------------


def box(length: float, width: float, numbers: dict[str, int]) -> dict[int, tuple[XY, XY]]:
    """The four cushion lines of a ``length`` x ``width`` bed, numbered as ``numbers`` says."""
    lines = {"head": ((0.0, 0.0), (0.0, width)), "foot": ((length, 0.0), (length, width)),
             "y0": ((0.0, 0.0), (length, 0.0)), "yW": ((0.0, width), (length, width))}
    return {numbers[side]: line for side, line in lines.items()}


def table_spec(game: str, size: str = "match") -> TableSpec:
    """The physical table for ``game`` (``golf``, ``kegle``, ``carom``); carom takes a ``size``:
    the game's own ``sim/<game>/table.py``."""
    known = games.find(game)
    own = games.part(game, "table", room="sim") if known is not None and known.name == game else None
    if own is None:
        raise UnknownTable(f"unknown game {game!r} (games: {', '.join(games.names())})")
    spec: TableSpec = own.table(size)
    return spec
