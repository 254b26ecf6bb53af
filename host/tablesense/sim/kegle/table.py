"""Keglebillard's table as the simulator builds it (``sim.tables.table_spec``, found by
``games.part(game, "table", room="sim")``): its numbers read from the rules' geometry
(``rules/kegle/geometry.py``), so the simulated table is the one the rules measure on."""

from __future__ import annotations

from ...rules.kegle import geometry as k
from ...rules.kegle.game import GAME
from ..tables import TableSpec, box


def table(size: str = "match") -> TableSpec:
    """The keglebillard table (one size)."""
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
        game=GAME.name, length=k.LENGTH, width=k.WIDTH, ball_radius=k.BALL_RADIUS, ball_mass=0.150,
        start=start, pockets=dict(k.POCKETS), pocket_radius=mouth, pins=dict(k.PINS),
        pin_radius=k.PIN_HEAD_DIAMETER / 2, spots=spots,
        cushions=box(k.LENGTH, k.WIDTH, numbers),
    )
