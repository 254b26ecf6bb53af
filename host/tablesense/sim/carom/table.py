"""Carom's table as the simulator builds it (``sim.tables.table_spec``, found by
``games.part(game, "table", room="sim")``): its numbers read from the rules' geometry
(``rules/carom/geometry.py``), so the simulated table is the one the rules measure on."""

from __future__ import annotations

from ...rules.carom import geometry as carom_geo
from ...rules.carom.game import GAME
from ..tables import TableSpec, UnknownTable


def table(size: str = "match") -> TableSpec:
    """A carom table of ``size`` (match, or a smaller one: ``rules.carom.geometry``)."""
    try:
        tab = carom_geo.table(size)
    except ValueError as exc:
        raise UnknownTable(str(exc)) from None
    spots = {name: tab.spot(name) for name in carom_geo.SPOT_NAMES}
    start = carom_geo.opening_positions(tab, "rechts", cue="yellow", other="white")
    return TableSpec(
        game=GAME.name, length=tab.length, width=tab.width, ball_radius=carom_geo.BALL_RADIUS,
        start=dict(start), spots=spots,
        cushions={n: tab.cushion_line(n) for n in carom_geo.CUSHIONS},
    )
