"""The TV's plan of the table: the bed to scale, each ball where the last rest put it.

``last_positions(lines)`` finds the positions the last rest reported (a camera's rest and
the motion sensor's rest of the same moment count as one). ``drawing(game, setup, state,
positions)`` turns them into what the TV draws, in metres: the bed of the game (carom's
size from the setup), the balls in their real colours, libre's corner zones (the one the
balls lie in marked), golf's goals, pegs and large triangles, keglebillard's pockets and
pins. Junk in the positions (not numbers, not finite, far off the bed, unknown balls, more
balls than the game has) is left out; a ball a little past a cushion is drawn against it.
No usable ball: no plan.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from functools import cache, lru_cache
from typing import Any

from ..rules.carom import geometry as gc
from ..rules.carom.engine import _bed as carom_bed
from ..rules.golf import geometry as gg
from ..rules.kegle import geometry as gk
from . import spots

#: rests this close in time are one rest told by two sources (the camera and the motion sensor)
SAME_REST = 0.5
#: how far off the bed a reported centre may lie and still be drawn (against the cushion)
SLACK = 0.1
#: the balls each game has: name -> how many of it (alike balls come as a list of [x, y])
BALLS: dict[str, dict[str, int]] = {
    "carom": {"white": 1, "yellow": 1, "red": 1},
    "kegle": {"red": 1, "white": 2},
    "golf": {"p1": gg.BALLS_PER_PLAYER, "p2": gg.BALLS_PER_PLAYER},
}


def last_positions(lines: Iterable[str]) -> dict[str, Any] | None:
    """The positions the last rest reported (newest lines first), or None when it reported
    none; a rest of the same moment from another source may carry them."""
    newest: float | None = None
    for line in lines:
        if newest is not None and '"rest"' not in line:
            t = _time(line)
            if t is not None and t < newest - SAME_REST:
                return None
            continue
        if '"rest"' not in line:
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(obj, dict) or obj.get("type") != "rest":
            continue
        t = obj.get("t")
        t = float(t) if isinstance(t, (int, float)) else 0.0
        if newest is None:
            newest = t
        elif t < newest - SAME_REST:
            return None
        positions = obj.get("positions")
        if isinstance(positions, dict) and positions:
            return positions
    return None


def _time(line: str) -> float | None:
    try:
        t = json.loads(line).get("t")
    except (json.JSONDecodeError, AttributeError):
        return None
    return float(t) if isinstance(t, (int, float)) else None


def bed(game: str, setup: Mapping[str, Any]) -> tuple[float, float, float]:
    """(length, width, ball radius) of the game's bed; carom's from the setup's ``table``."""
    if game == "golf":
        return gg.LENGTH, gg.WIDTH, gg.BALL_RADIUS
    if game == "kegle":
        return gk.LENGTH, gk.WIDTH, gk.BALL_RADIUS
    name = setup.get("table")
    return _carom_bed(name if isinstance(name, (str, int, float)) else None)


@lru_cache(maxsize=16)  # a few bed names a pub uses
def _carom_bed(name: str | float | None) -> tuple[float, float, float]:
    try:
        tab = carom_bed(name)
    except Exception:  # the engine refused that setup already: the match bed
        tab = gc.MATCH
    return tab.length, tab.width, gc.BALL_RADIUS


def _point(v: Any, length: float, width: float, r: float) -> tuple[float, float] | None:
    """A ball centre on the bed, or None for junk (a little past a cushion: against it)."""
    if not (isinstance(v, list) and len(v) == 2):
        return None
    if not all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in v):
        return None
    x, y = float(v[0]), float(v[1])
    if not (math.isfinite(x) and math.isfinite(y)):
        return None
    if not (-SLACK <= x <= length + SLACK and -SLACK <= y <= width + SLACK):
        return None
    return round(min(max(x, r), length - r), 4), round(min(max(y, r), width - r), 4)


def balls(game: str, positions: Mapping[str, Any], length: float, width: float, r: float,
          colours: Mapping[str, str]) -> list[dict[str, Any]]:
    """The game's balls of ``positions`` that can be drawn: ball, colour, x, y (a ball's
    colour is its name, golf's the player's colour in ``colours``)."""
    out: list[dict[str, Any]] = []
    for name, most in BALLS.get(game, {}).items():
        v = positions.get(name)
        if not isinstance(v, list) or not v:
            continue
        items = v if isinstance(v[0], list) else [v]
        for p in items[:most]:
            xy = _point(p, length, width, r)
            if xy is not None:
                out.append({"ball": name, "colour": colours.get(name, name), "x": xy[0], "y": xy[1]})
    return out


def _r(v: float) -> float:
    return round(v, 4)


@cache
def _corner_zones(length: float, width: float) -> list[dict[str, Any]]:
    leg = gc.ZONE_LEG
    corners = {"head-left": (0.0, 0.0, 1, 1), "head-right": (0.0, width, 1, -1),
               "foot-right": (length, width, -1, -1), "foot-left": (length, 0.0, -1, 1)}
    return [{"corner": c, "points": [[_r(x), _r(y)], [_r(x + sx * leg), _r(y)], [_r(x), _r(y + sy * leg)]]}
            for c, (x, y, sx, sy) in corners.items()]


def _carom_zones(length: float, width: float, state: Mapping[str, Any]) -> dict[str, Any]:
    """libre's forbidden corner triangles, the corner the object balls lie in marked."""
    if state.get("discipline") != "libre":
        return {}
    zones = _corner_zones(length, width)
    zone = state.get("zone")
    marked = zone if isinstance(zone, str) and any(z["corner"] == zone for z in zones) else None
    return {"zones": zones, "zone": marked}


@cache
def _golf_marks() -> dict[str, Any]:
    d = spots.drawing()
    triangles = [[[_r(x), _r(y)] for x, y in gg.triangle(goal, "large")] for goal in ("A", "B")]
    return {"goals": list(d["goals"].values()), "pegs": d["pegs"], "peg": d["peg"], "triangles": triangles}


@cache
def _kegle_marks() -> dict[str, Any]:
    def mouth(n: int) -> float:
        return gk.MIDDLE_POCKET_MOUTH if n in gk.MIDDLE_POCKETS else gk.CORNER_POCKET_MOUTH

    pockets = [[_r(x), _r(y), _r(mouth(n) / 2)] for n, (x, y) in gk.POCKETS.items()]
    pins = [[n, _r(x), _r(y)] for n, (x, y) in gk.PINS.items()]
    return {"pockets": pockets, "pins": pins, "pin": _r(gk.PIN_HEAD_DIAMETER)}


def drawing(game: str, setup: Mapping[str, Any], state: Mapping[str, Any],
            positions: Mapping[str, Any] | None, colours: Mapping[str, str]) -> dict[str, Any] | None:
    """What the TV draws of the last rest, or None when it reported no ball to draw;
    ``colours``: golf's players' ball colours (``view.COLOURS``)."""
    if not positions or game not in BALLS:
        return None
    length, width, r = bed(game, setup)
    drawn = balls(game, positions, length, width, r, colours)
    if not drawn:
        return None
    out: dict[str, Any] = {"game": game, "length": length, "width": width, "ball": _r(r), "balls": drawn}
    if game == "carom":
        out |= _carom_zones(length, width, state)
    elif game == "golf":
        out |= _golf_marks()  # cached: the same lists each time, never changed
    else:
        out |= _kegle_marks()
    return out
