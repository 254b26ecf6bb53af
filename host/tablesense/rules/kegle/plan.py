"""Keglebillard's bed as the TV's plan draws it (``web/plan.py``): its balls, its size, its
pockets and pins."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from . import geometry as gk

#: the balls: name -> how many of it (alike balls come as a list of [x, y])
BALLS = {"red": 1, "white": 2}


def bed(setup: Mapping[str, Any]) -> tuple[float, float, float]:
    """(length, width, ball radius): keglebillard has one table."""
    return gk.LENGTH, gk.WIDTH, gk.BALL_RADIUS


def marks(length: float, width: float, state: Mapping[str, Any]) -> dict[str, Any]:
    return _marks()  # cached: the same lists each time, never changed


@cache
def _marks() -> dict[str, Any]:
    def mouth(n: int) -> float:
        return gk.MIDDLE_POCKET_MOUTH if n in gk.MIDDLE_POCKETS else gk.CORNER_POCKET_MOUTH

    pockets = [[_r(x), _r(y), _r(mouth(n) / 2)] for n, (x, y) in gk.POCKETS.items()]
    pins = [[n, _r(x), _r(y)] for n, (x, y) in gk.PINS.items()]
    return {"pockets": pockets, "pins": pins, "pin": _r(gk.PIN_HEAD_DIAMETER)}


def _r(v: float) -> float:
    return round(v, 4)
