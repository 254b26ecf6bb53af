"""Forbidden corner zones of libre, judged on the balls' positions at rest (seeds/carom.md).

``object_balls_zone`` tells whether both object balls of a player lie in one corner
triangle ("carom.zone.entree") and whether that needed a ball on the line
("carom.zone.line": on the line counts against the player, i.e. in the zone).
"""

from __future__ import annotations

from typing import Any

from .geometry import _REACH, ON_LINE, TABLES, ZONE_LEG, CaromTable
from .geometry import table as carom_table

#: no position given (``ball_xy``)
_MISSING: Any = object()


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


def object_balls_zone(positions: dict[str, Any] | None, object_balls: tuple[str, str],
                      table: CaromTable) -> tuple[str | None, bool]:
    """Seed 003 Art. 5.7; 004 "ENTREE", carom.zone.entree / Seed 004 "Ligt de bal precies op de
    schuine lijn", carom.zone.line: (corner, on_line) when both object balls lie in one
    corner's zone, ``on_line`` when that needed a ball on the diagonal (counted against the
    player: in the zone); else (None, False).

    The answer for balls near a corner is kept for the next call with the same ``positions`` (the
    same dict: a position is never changed in place, ``resolve.outlay``), object balls and table: a
    shot's decision asks it two or three times (``in_a_corner``, ``reste_dedans``, the zone's rulings)."""
    global _last
    last = _last
    if positions is last[0] and table is last[2] and object_balls == last[1]:
        return last[3]  # type: ignore[no-any-return]
    first = ball_xy(positions, object_balls[0])
    if first is None:
        return None, False
    x, y = first  # far from every corner (``zone_of``'s first test, inline): in none
    width, length = table.width, table.length
    across, along = width - y, length - x
    near_x = x if x <= along else along
    near_y = y if y <= across else across
    if near_x + near_y > _REACH:
        return None, False
    # ``zone_of`` of each ball, inline where its quick answer holds (a ball on the bed, within reach of
    # its nearest corner, on a bed more than twice the reach wide and no wider than long): that
    # corner; and ``zone_of(..., on_line=0.0)`` (the reach without the line: ``ZONE_LEG``) there is
    # None exactly when the ball lies beyond the leg. Anywhere else ``zone_of`` is asked
    wide = _REACH + _REACH < width <= length
    if wide and near_x >= 0.0 and near_y >= 0.0:
        corner: str | None = (("head-left" if y <= across else "head-right") if x <= along
                              else ("foot-left" if y <= across else "foot-right"))
        first_line: bool | None = near_x + near_y > ZONE_LEG
    else:
        corner, first_line = table.zone_of(x, y), None
    answer: tuple[str | None, bool] = (None, False)
    if corner is not None:
        second = ball_xy(positions, object_balls[1])
        if second is not None:
            u, v = second
            across, along = width - v, length - u
            near_u = u if u <= along else along
            near_v = v if v <= across else across
            if near_u + near_v > _REACH:
                other = second_line = None
            elif wide and near_u >= 0.0 and near_v >= 0.0:
                other = (("head-left" if v <= across else "head-right") if u <= along
                         else ("foot-left" if v <= across else "foot-right"))
                second_line = near_u + near_v > ZONE_LEG
            else:
                other, second_line = table.zone_of(u, v), None
            if other == corner:
                if first_line is None:
                    first_line = table.zone_of(x, y, on_line=0.0) is None
                if not first_line and second_line is None:
                    second_line = table.zone_of(u, v, on_line=0.0) is None
                answer = corner, first_line or bool(second_line)
    _last = (positions, object_balls, table, answer)
    return answer


#: ``object_balls_zone``'s last answer for balls near a corner: its positions, object balls, table and
#: answer (none yet: a key no call gives)
_last: tuple[Any, Any, Any, tuple[str | None, bool]] = (_MISSING, None, None, (None, False))


def in_a_corner(positions: dict[str, Any] | None, object_balls: tuple[str, str], bed: str) -> bool:
    """``object_balls_zone(positions, object_balls, table(bed))[0] is not None``: both object balls
    lie in one corner's zone. Its common case at once: the first object ball given as a list of
    two floats (as a rest's positions decode) far from every corner of a known bed (the first
    test of ``CaromTable.zone_of``, the same arithmetic): not in a corner. Anything else asks
    ``object_balls_zone``."""
    if positions:
        xy = positions.get(object_balls[0])
        if type(xy) is list and len(xy) == 2:
            x, y = xy
            size = _BEDS.get(bed) if type(bed) is str else None
            if type(x) is float and type(y) is float and size is not None:
                across, along = size[1] - y, size[0] - x  # (``zone_of``)
                if (x if x <= along else along) + (y if y <= across else across) > _REACH:
                    return False
    return object_balls_zone(positions, object_balls, carom_table(bed))[0] is not None


#: each bed's (length, width) by its name (``in_a_corner``)
_BEDS = {name: (tab.length, tab.width) for name, tab in TABLES.items()}


def still_in(positions: dict[str, Any] | None, object_balls: tuple[str, str], corner: str,
             table: CaromTable) -> bool | None:
    """Seed 003 Art. 5.7; 004 "Binnen deze zone mogen ten hoogste 2", carom.dedans.reste: whether
    both object balls still lie in ``corner``'s zone; None if positions are unknown."""
    found, _ = object_balls_zone(positions, object_balls, table)
    if positions is None or ball_xy(positions, object_balls[0]) is None \
            or ball_xy(positions, object_balls[1]) is None:
        return None
    return found == corner


__all__ = ["ON_LINE", "ZONE_LEG", "ball_xy", "in_a_corner", "object_balls_zone", "still_in"]
