"""Golf billiards's table as the simulator builds it (``sim.tables.table_spec``, found by
``games.part(game, "table", room="sim")``): its numbers read from the rules' geometry
(``rules/golf/geometry.py``), so the simulated table is the one the rules measure on."""

from __future__ import annotations

from ...rules.golf import geometry as g
from ...rules.golf.game import GAME
from ..tables import XY, TableSpec


def table(size: str = "match") -> TableSpec:
    """The golf table (one size)."""
    start: dict[str, XY] = {}
    for player in ("p1", "p2"):
        for i, xy in enumerate(g.start_positions(player), start=1):
            start[f"{player}.{i}"] = xy
    spots = {f"{player}.{n}": xy for player, by_n in g.REPLACEMENT_SPOTS.items() for n, xy in by_n.items()}
    return TableSpec(
        game=GAME.name, length=g.LENGTH, width=g.WIDTH, ball_radius=g.BALL_RADIUS, ball_mass=g.BALL_MASS,
        start=start, pegs=tuple((p.x, p.y) for p in g.PEGS), peg_radius=g.PEG_RADIUS,
        goals=dict(g.GOALS), goal_radius=g.GOAL_RADIUS, spots=spots,
        cushions={c.number: (c.a, c.b) for c in g.CUSHIONS},
    )
