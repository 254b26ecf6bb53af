"""Forbidden corner zones of libre, judged on the balls' positions at rest (seeds/carom.md).

``object_balls_zone`` tells whether both object balls of a player lie in one corner
triangle ("carom.zone.entree") and whether that needed a ball on the line
("carom.zone.line": on the line counts against the player, i.e. in the zone).
"""

from __future__ import annotations

from typing import Any

from .geometry import ON_LINE, ZONE_LEG, CaromTable


def ball_xy(positions: dict[str, Any] | None, ball: str) -> tuple[float, float] | None:
    """The (x, y) of ``ball`` in ``rest.positions``, or None when it is not given."""
    if not positions:
        return None
    xy = positions.get(ball, _MISSING)
    if xy is _MISSING:
        return None
    if xy and isinstance(xy[0], list):  # a list of points: a carom ball has one
        xy = xy[0]
    return float(xy[0]), float(xy[1])


_MISSING: Any = object()


def object_balls_zone(positions: dict[str, Any] | None, object_balls: tuple[str, str],
                      table: CaromTable) -> tuple[str | None, bool]:
    """Seed 003 Art. 5.7; 004 "ENTREE", carom.zone.entree / Seed 004 "Ligt de bal precies op de
    schuine lijn", carom.zone.line: (corner, on_line) when both object balls lie in one
    corner's zone, ``on_line`` when that needed a ball on the diagonal (counted against the
    player: in the zone); else (None, False)."""
    first = ball_xy(positions, object_balls[0])
    if first is None:
        return None, False
    corner = table.zone_of(*first)
    if corner is None:
        return None, False
    second = ball_xy(positions, object_balls[1])
    if second is None or table.zone_of(*second) != corner:
        return None, False
    on_line = table.zone_of(*first, on_line=0.0) is None or table.zone_of(*second, on_line=0.0) is None
    return corner, on_line


def still_in(positions: dict[str, Any] | None, object_balls: tuple[str, str], corner: str,
             table: CaromTable) -> bool | None:
    """Seed 003 Art. 5.7; 004 "Binnen deze zone mogen ten hoogste 2", carom.dedans.reste: whether
    both object balls still lie in ``corner``'s zone; None if positions are unknown."""
    found, _ = object_balls_zone(positions, object_balls, table)
    if positions is None or any(ball_xy(positions, b) is None for b in object_balls):
        return None
    return found == corner


__all__ = ["ON_LINE", "ZONE_LEG", "ball_xy", "object_balls_zone", "still_in"]
