"""The three physical tables the simulator builds: sizes, balls, pegs, goals, pockets, pins.

Coordinates follow docs/events.md: metres from the corner left of goal A (golf) or of the
head cushion (kegle, carom); ``x`` along the long side, ``y`` across. Cushion, pocket and
pin numbers are those of the table's geometry module.

``table_spec(game, size)`` is the one place that knows the numbers: it reads them from the
engines' geometry modules (``tablesense.rules.golf.geometry``, ``.kegle``, ``.carom``), so the
simulated table is the table the rules measure positions on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import games
from ..errors import TablesenseError
from ..rules.carom import geometry as carom_geo
from ..rules.golf import geometry as golf_geo
from ..rules.kegle import geometry as kegle_geo

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


# --- the three tables --------------------------------------------------------------------------


def _box(length: float, width: float, numbers: dict[str, int]) -> dict[int, tuple[XY, XY]]:
    """The four cushion lines of a ``length`` x ``width`` bed, numbered as ``numbers`` says."""
    lines = {"head": ((0.0, 0.0), (0.0, width)), "foot": ((length, 0.0), (length, width)),
             "y0": ((0.0, 0.0), (length, 0.0)), "yW": ((0.0, width), (length, width))}
    return {numbers[side]: line for side, line in lines.items()}


def _golf() -> TableSpec:
    g = golf_geo
    start: dict[str, XY] = {}
    for player in ("p1", "p2"):
        for i, xy in enumerate(g.start_positions(player), start=1):
            start[f"{player}.{i}"] = xy
    spots = {f"{player}.{n}": xy for player, by_n in g.REPLACEMENT_SPOTS.items() for n, xy in by_n.items()}
    return TableSpec(
        game="golf", length=g.LENGTH, width=g.WIDTH, ball_radius=g.BALL_RADIUS, ball_mass=g.BALL_MASS,
        start=start, pegs=tuple((p.x, p.y) for p in g.PEGS), peg_radius=g.PEG_RADIUS,
        goals=dict(g.GOALS), goal_radius=g.GOAL_RADIUS, spots=spots,
        cushions={c.number: (c.a, c.b) for c in g.CUSHIONS},
    )


def _kegle() -> TableSpec:
    k = kegle_geo
    numbers = {"head": 0, "foot": 0, "y0": 0, "yW": 0}
    for number, (_name, axis, value) in k.CUSHIONS.items():
        if axis == "x":
            numbers["head" if value == 0 else "foot"] = number
        else:
            numbers["y0" if value == 0 else "yW"] = number
    _cx, cy = k.CENTRE
    spots = {"white_head": k.WHITE_SPOTS["head"], "white_foot": k.WHITE_SPOTS["foot"],
             "red_head": (k.HEAD_STRING_X / 2, cy), "red_foot": (k.LENGTH - k.HEAD_STRING_X / 2, cy)}
    start = {"red": (k.HEAD_STRING_X / 2, cy + 0.12), "white.1": k.WHITE_SPOTS["head"],
             "white.2": k.WHITE_SPOTS["foot"]}
    mouth = min(k.CORNER_POCKET_MOUTH, k.MIDDLE_POCKET_MOUTH) / 2
    return TableSpec(
        game="kegle", length=k.LENGTH, width=k.WIDTH, ball_radius=k.BALL_RADIUS, ball_mass=0.150,
        start=start, pockets=dict(k.POCKETS), pocket_radius=mouth, pins=dict(k.PINS),
        pin_radius=k.PIN_HEAD_DIAMETER / 2, spots=spots,
        cushions=_box(k.LENGTH, k.WIDTH, numbers),
    )


def _carom(size: str) -> TableSpec:
    try:
        tab = carom_geo.table(size)
    except ValueError as exc:
        raise UnknownTable(str(exc)) from None
    spots = {name: tab.spot(name) for name in carom_geo.SPOT_NAMES}
    start = carom_geo.opening_positions(tab, "rechts", cue="yellow", other="white")
    return TableSpec(
        game="carom", length=tab.length, width=tab.width, ball_radius=carom_geo.BALL_RADIUS,
        start=dict(start), spots=spots,
        cushions={n: tab.cushion_line(n) for n in carom_geo.CUSHIONS},
    )


def table_spec(game: str, size: str = "match") -> TableSpec:
    """The physical table for ``game`` (``golf``, ``kegle``, ``carom``); carom takes a ``size``."""
    if game == "golf":
        return _golf()
    if game == "kegle":
        return _kegle()
    if game == "carom":
        return _carom(size)
    raise UnknownTable(f"unknown game {game!r} (games: {', '.join(games.names())})")
