"""Golf's replacement spots as the referee panel draws them (``rules.golf.geometry``).

The panel draws the bed, its goals and pegs, and for the ball that waits the five spots
of its owner: 1-3 the opponent's choice (``golf.spot.choice``), 4 and 5 only when the
other balls cover 1-3 (``golf.spot.fallback``). ``allowed(owner, positions)`` says which
the rules allow now, from the balls' positions at the last rest when the table reports
them (a ball within a ball's diameter covers a spot).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import geometry as g

CHOICE = (1, 2, 3)
FALLBACK = (4, 5)


def _pegs() -> list[tuple[float, float]]:
    cx, cy = g.CENTRE
    pegs = []
    for k in (1, 2):
        d = k * g.BOS_SPACING
        pegs += [(cx - d, cy), (cx + d, cy), (cx, cy - d), (cx, cy + d)]
    for x in (g.GOAL_PEG_SETBACK, g.LENGTH - g.GOAL_PEG_SETBACK):
        pegs += [(x, cy - g.GOAL_PEG_OFFSET), (x, cy + g.GOAL_PEG_OFFSET)]
    return pegs


def drawing() -> dict[str, Any]:
    """The bed in metres: size, goals, pegs, each player's spots with whether they are
    a first choice (1-3) or a fallback (4, 5)."""
    cy = g.CENTRE[1]
    return {
        "length": g.LENGTH, "width": g.WIDTH, "ball": g.BALL_RADIUS, "peg": g.PEG_RADIUS,
        "goals": {"A": [g.GOAL_SETBACK, cy, g.GOAL_RADIUS],
                  "B": [g.LENGTH - g.GOAL_SETBACK, cy, g.GOAL_RADIUS]},
        "pegs": [[round(x, 4), round(y, 4)] for x, y in _pegs()],
        "spots": {p: [{"spot": n, "x": round(x, 4), "y": round(y, 4), "choice": n in CHOICE}
                      for n, (x, y) in sorted(spots.items())]
                  for p, spots in g.REPLACEMENT_SPOTS.items()},
    }


def _balls(positions: Mapping[str, Any]) -> list[tuple[float, float]]:
    """Every ball of ``rest.positions``: a ball's ``[x, y]``, or a player's list of them."""
    out: list[tuple[float, float]] = []
    for v in positions.values():
        items = v if isinstance(v, list) and v and isinstance(v[0], list) else [v]
        for p in items:
            if isinstance(p, list) and len(p) == 2 and all(isinstance(c, (int, float)) for c in p):
                out.append((float(p[0]), float(p[1])))
    return out


def allowed(owner: str, positions: Mapping[str, Any] | None) -> list[int]:
    """The spots the rules allow now for ``owner``'s ball: the free ones of 1-3; when the
    balls cover all three, the first free of 4 and 5 (5 when both are covered). Without
    positions the referee sees the table: 1-3, and 4-5 on their word."""
    if owner not in g.REPLACEMENT_SPOTS:
        return []
    if not positions:
        return [*CHOICE, *FALLBACK]
    balls = _balls(positions)

    def taken(n: int) -> bool:
        sx, sy = g.REPLACEMENT_SPOTS[owner][n]
        return any((x - sx) ** 2 + (y - sy) ** 2 < g.BALL_DIAMETER ** 2 for x, y in balls)

    free = [n for n in CHOICE if not taken(n)]
    if free:
        return free
    return [next((n for n in FALLBACK if not taken(n)), FALLBACK[-1])]
