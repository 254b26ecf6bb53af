"""Carom's bed as the TV's plan draws it (``web/plan.py``): its balls, its size (the set-up's
``table``), libre's forbidden corner triangles with the one the object balls lie in marked."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any

from . import geometry as gc
from .engine import _bed as carom_bed

#: the balls: name -> how many of it
BALLS = {"white": 1, "yellow": 1, "red": 1}


def bed(setup: Mapping[str, Any]) -> tuple[float, float, float]:
    """(length, width, ball radius) of the bed the set-up's ``table`` names."""
    name = setup.get("table")
    return _bed(name if isinstance(name, (str, int, float)) else None)


@lru_cache(maxsize=16)  # a few bed names a pub uses
def _bed(name: str | float | None) -> tuple[float, float, float]:
    try:
        tab = carom_bed(name)
    except Exception:  # the engine refused that setup already: the match bed
        tab = gc.MATCH
    return tab.length, tab.width, gc.BALL_RADIUS


def marks(length: float, width: float, state: Mapping[str, Any]) -> dict[str, Any]:
    """libre's forbidden corner triangles, the corner the object balls lie in marked."""
    if state.get("discipline") != "libre":
        return {}
    zones = _corner_zones(length, width)
    zone = state.get("zone")
    marked = zone if isinstance(zone, str) and any(z["corner"] == zone for z in zones) else None
    return {"zones": zones, "zone": marked}


@cache
def _corner_zones(length: float, width: float) -> list[dict[str, Any]]:
    leg = gc.ZONE_LEG
    corners = {"head-left": (0.0, 0.0, 1, 1), "head-right": (0.0, width, 1, -1),
               "foot-right": (length, width, -1, -1), "foot-left": (length, 0.0, -1, 1)}
    return [{"corner": c, "points": [[_r(x), _r(y)], [_r(x + sx * leg), _r(y)], [_r(x), _r(y + sy * leg)]]}
            for c, (x, y, sx, sy) in corners.items()]


def _r(v: float) -> float:
    return round(v, 4)
