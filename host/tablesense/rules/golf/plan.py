"""Golf's bed as the TV's plan draws it (``web/plan.py``): its balls, its size, its goals,
pegs and large triangles."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from . import geometry as gg
from . import spots

#: the balls: name -> how many of it (alike balls come as a list of [x, y])
BALLS = {"p1": gg.BALLS_PER_PLAYER, "p2": gg.BALLS_PER_PLAYER}


def bed(setup: Mapping[str, Any]) -> tuple[float, float, float]:
    """(length, width, ball radius): golf has one table."""
    return gg.LENGTH, gg.WIDTH, gg.BALL_RADIUS


def marks(length: float, width: float, state: Mapping[str, Any]) -> dict[str, Any]:
    return _marks()  # cached: the same lists each time, never changed


@cache
def _marks() -> dict[str, Any]:
    d = spots.drawing()
    triangles = [[[_r(x), _r(y)] for x, y in gg.triangle(goal, "large")] for goal in ("A", "B")]
    return {"goals": list(d["goals"].values()), "pegs": d["pegs"], "peg": d["peg"], "triangles": triangles}


def _r(v: float) -> float:
    return round(v, 4)
