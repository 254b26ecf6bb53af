"""The TV's plan of the table: the bed to scale, each ball where the last rest put it.

``last_positions(lines)`` finds the positions the last rest reported (a camera's rest and
the motion sensor's rest of the same moment count as one). ``drawing(game, setup, state,
positions)`` turns them into what the TV draws, in metres: the bed of the game (carom's
size from the setup), the balls in their real colours, and the game's marks (libre's
corner zones, the one the balls lie in marked; golf's goals, pegs and large triangles;
keglebillard's pockets and pins). Each game declares its part: ``rules/<game>/plan.py``
(``BALLS``, ``bed(setup)``, ``marks(length, width, state)``), found through
``tablesense.games``. Junk in the positions (not numbers, not finite, far off the bed, unknown balls, more
balls than the game has) is left out; a ball a little past a cushion is drawn against it.
No usable ball: no plan.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from typing import Any

from .. import games

#: rests this close in time are one rest told by two sources (the camera and the motion sensor)
SAME_REST = 0.5
#: how far off the bed a reported centre may lie and still be drawn (against the cushion)
SLACK = 0.1


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
    part = games.part(game, "plan")
    if part is None:
        raise games.UnknownGame(f"unknown game {game!r} (games: {', '.join(games.names())})")
    bed: tuple[float, float, float] = part.bed(setup)
    return bed


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
    part = games.part(game, "plan")
    for name, most in (part.BALLS if part is not None else {}).items():
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


def drawing(game: str, setup: Mapping[str, Any], state: Mapping[str, Any],
            positions: Mapping[str, Any] | None, colours: Mapping[str, str]) -> dict[str, Any] | None:
    """What the TV draws of the last rest, or None when it reported no ball to draw;
    ``colours``: golf's players' ball colours (``view.colours``)."""
    part = games.part(game, "plan")
    if not positions or part is None:
        return None
    length, width, r = part.bed(setup)
    drawn = balls(game, positions, length, width, r, colours)
    if not drawn:
        return None
    out: dict[str, Any] = {"game": game, "length": length, "width": width, "ball": _r(r), "balls": drawn}
    return out | part.marks(length, width, state)
