"""Golf's replacement spots as the referee panel draws them (``tablesense.geometry.golf``).

The panel draws the bed, its goals and pegs, and for the ball that waits the five spots
of its owner: 1-3 the opponent's choice (``golf.spot.choice``), 4 and 5 only when the
other balls cover 1-3 (``golf.spot.fallback``).
"""

from __future__ import annotations

from typing import Any

from ..geometry import golf as g

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
