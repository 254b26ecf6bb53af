"""Golf billiards table geometry, in metres.

Frame (EVENTS.md): origin at the corner of the bed to the left of goal A when you
stand behind goal A and look down the table; ``x`` runs along the long side from
goal A's short cushion (x = 0) to goal B's short cushion (x = LENGTH); ``y`` runs
across the table (0 .. WIDTH). Positions are ball centres, on the playing surface.

The seed text (seeds/golf.md) gives the bed (1.80 x 0.90 m), the 12 pegs (a cross of
eight in the middle, the "bos", and two goal pegs per goal), 61.5 mm balls, fifteen
zones, the triangles and five replacement spots, but its drawing is not available.
Every other dimension below is our choice, documented in docs/golf.md:

- goals: a round hole of 75 mm on the long axis, its centre 60 mm from the short
  cushion; the two goal pegs flank it 60 mm either side of the axis, 40 mm from the
  short cushion;
- the bos: four pegs on the long axis and four on the short axis, 70 mm and 140 mm
  from the centre of the table; pegs are 20 mm thick;
- zones: a 5 x 3 grid (five bands along the table, three across), numbered 1..15
  from goal A, row by row (``y`` low to high); zone 8 is the bos zone;
- triangles at each goal: base on the short cushion, apex on the long axis; large:
  base the full width, apex 0.45 m out; small: base 0.40 m wide, apex 0.20 m out;
- shot line: across the table, 0.15 m from the short cushion of the goal attacked;
  "above" the line means between it and that cushion;
- left and right for the replacement spots: as seen by the offender standing at
  their defending end and looking towards the goal they attack.

Pure data and small pure functions; no I/O.
"""

import math
from typing import NamedTuple

LENGTH = 1.80
WIDTH = 0.90
CENTRE = (LENGTH / 2, WIDTH / 2)
BALL_DIAMETER = 0.0615
BALL_RADIUS = BALL_DIAMETER / 2
BALL_MASS = 0.210  # kg, the middle of the 207-213 g of the seed
BALLS_PER_PLAYER = 5
PEG_RADIUS = 0.010
PEG_HEIGHT = 0.040
CUSHION_HEIGHT = 0.037
GOAL_RADIUS = 0.0375
GOAL_SETBACK = 0.060  # goal centre from its short cushion
GOAL_PEG_SETBACK = 0.040  # goal pegs from the short cushion
GOAL_PEG_OFFSET = 0.060  # goal pegs either side of the long axis
BOS_SPACING = 0.070  # the cross: pegs at 1 and 2 spacings from the centre
SPOT_CLEARANCE = 0.003  # spots 1/2: 3 mm clear of the goal peg
ZONE_COLUMNS = 5
ZONE_ROWS = 3
SHOT_LINE_DISTANCE = 0.15
LARGE_TRIANGLE_DEPTH = 0.45
SMALL_TRIANGLE_DEPTH = 0.20
SMALL_TRIANGLE_BASE = 0.40
START_DISTANCE = 0.55  # the row of a player's balls at the start, from their defending cushion

Point = tuple[float, float]

#: the rules of seeds/golf.md this module embodies
RULES = ("golf.table", "golf.balls")


class Peg(NamedTuple):
    name: str
    x: float
    y: float
    radius: float = PEG_RADIUS


class Cushion(NamedTuple):
    """A cushion as a segment of the bed's edge; numbers as the cushion sensors use them."""

    number: int
    a: Point
    b: Point


# cushion 1: goal A's short cushion, 2: the long cushion at y = WIDTH,
# 3: goal B's short cushion, 4: the long cushion at y = 0
CUSHIONS: tuple[Cushion, ...] = (
    Cushion(1, (0.0, 0.0), (0.0, WIDTH)),
    Cushion(2, (0.0, WIDTH), (LENGTH, WIDTH)),
    Cushion(3, (LENGTH, 0.0), (LENGTH, WIDTH)),
    Cushion(4, (0.0, 0.0), (LENGTH, 0.0)),
)

GOALS: dict[str, Point] = {
    "A": (GOAL_SETBACK, WIDTH / 2),
    "B": (LENGTH - GOAL_SETBACK, WIDTH / 2),
}

#: goal each player attacks and defends (EVENTS.md: p1 defends A, attacks B)
ATTACKS = {"p1": "B", "p2": "A"}
DEFENDS = {"p1": "A", "p2": "B"}


def _goal_pegs(goal: str) -> tuple[Peg, Peg]:
    x = GOAL_PEG_SETBACK if goal == "A" else LENGTH - GOAL_PEG_SETBACK
    cy = WIDTH / 2
    return (
        Peg(f"{goal}-low", x, cy - GOAL_PEG_OFFSET),
        Peg(f"{goal}-high", x, cy + GOAL_PEG_OFFSET),
    )


def _bos() -> tuple[Peg, ...]:
    cx, cy = CENTRE
    s = BOS_SPACING
    return (
        Peg("bos-A2", cx - 2 * s, cy), Peg("bos-A1", cx - s, cy),
        Peg("bos-B1", cx + s, cy), Peg("bos-B2", cx + 2 * s, cy),
        Peg("bos-low2", cx, cy - 2 * s), Peg("bos-low1", cx, cy - s),
        Peg("bos-high1", cx, cy + s), Peg("bos-high2", cx, cy + 2 * s),
    )


GOAL_PEGS: dict[str, tuple[Peg, Peg]] = {"A": _goal_pegs("A"), "B": _goal_pegs("B")}
BOS_PEGS: tuple[Peg, ...] = _bos()
PEGS: tuple[Peg, ...] = BOS_PEGS + GOAL_PEGS["A"] + GOAL_PEGS["B"]
assert len(PEGS) == 12


# --- zones ---------------------------------------------------------------------

ZONE_X = tuple(LENGTH * i / ZONE_COLUMNS for i in range(ZONE_COLUMNS + 1))
ZONE_Y = tuple(WIDTH * j / ZONE_ROWS for j in range(ZONE_ROWS + 1))
BOS_ZONE = 8


def zone_rect(zone: int) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of zone 1..15."""
    if not 1 <= zone <= ZONE_COLUMNS * ZONE_ROWS:
        raise ValueError(f"zone must be 1..{ZONE_COLUMNS * ZONE_ROWS}, not {zone}")
    col, row = divmod(zone - 1, ZONE_ROWS)
    return ZONE_X[col], ZONE_Y[row], ZONE_X[col + 1], ZONE_Y[row + 1]


def zone_of(p: Point) -> int | None:
    """The zone (1..15) a ball at ``p`` lies in, or None when it lies on a zone line
    (its footprint crosses an inner zone boundary)."""
    x, y = p
    r = BALL_RADIUS
    for b in ZONE_X[1:-1]:
        if abs(x - b) < r:
            return None
    for b in ZONE_Y[1:-1]:
        if abs(y - b) < r:
            return None
    col = min(int(x / (LENGTH / ZONE_COLUMNS)), ZONE_COLUMNS - 1)
    row = min(int(y / (WIDTH / ZONE_ROWS)), ZONE_ROWS - 1)
    return col * ZONE_ROWS + row + 1


def zone_lines_of(p: Point) -> frozenset[str]:
    """The zone lines a ball at ``p`` lies on (``x=0.36``, ``y=0.3``...); empty when inside a zone."""
    x, y = p
    r = BALL_RADIUS
    lines = {f"x={b:.2f}" for b in ZONE_X[1:-1] if abs(x - b) < r}
    lines |= {f"y={b:.2f}" for b in ZONE_Y[1:-1] if abs(y - b) < r}
    return frozenset(lines)


def long_cushion_zone(p: Point) -> bool:
    """True when the ball lies in a zone along a long cushion (row 1 or 3) or on a line."""
    z = zone_of(p)
    return z is None or (z - 1) % ZONE_ROWS != 1


# --- triangles -------------------------------------------------------------------

def triangle(goal: str, size: str) -> tuple[Point, Point, Point]:
    """The ``large`` or ``small`` triangle at ``goal``: two base corners on the short
    cushion, the apex on the long axis."""
    cy = WIDTH / 2
    if size == "large":
        half, depth = WIDTH / 2, LARGE_TRIANGLE_DEPTH
    elif size == "small":
        half, depth = SMALL_TRIANGLE_BASE / 2, SMALL_TRIANGLE_DEPTH
    else:
        raise ValueError(f"triangle size is 'large' or 'small', not {size!r}")
    if goal == "A":
        return (0.0, cy - half), (0.0, cy + half), (depth, cy)
    if goal == "B":
        return (LENGTH, cy - half), (LENGTH, cy + half), (LENGTH - depth, cy)
    raise ValueError(f"goal is 'A' or 'B', not {goal!r}")


def in_triangle(p: Point, goal: str, size: str) -> bool:
    """True when the ball's centre is inside the triangle or its footprint touches the
    line (the seed: a ball on the line of the triangle counts as inside)."""
    (ax, ay), (_bx, by), (cx, cy) = triangle(goal, size)
    x, y = p
    # distance from the short cushion towards the apex, and half-width allowed there
    depth = abs(cx - ax)
    d = x if goal == "A" else LENGTH - x
    half = abs(by - ay) / 2
    # signed distance to the two slanted sides (outward positive)
    slant = math.hypot(depth, half)
    off = abs(y - cy)
    dist = (off * depth + d * half - half * depth) / slant
    return d >= -BALL_RADIUS and dist <= BALL_RADIUS


def attacking_triangle(player: str, size: str) -> tuple[str, str]:
    """(goal, size) of the player's attacking triangle: at the goal they attack."""
    return ATTACKS[player], size


def defensive_triangle(player: str, size: str) -> tuple[str, str]:
    """(goal, size) of the player's defensive triangle: at the goal they defend."""
    return DEFENDS[player], size


def above_shot_line(p: Point, goal: str) -> bool:
    """True when a ball lies on or above the shot line in front of ``goal``."""
    d = p[0] if goal == "A" else LENGTH - p[0]
    return d <= SHOT_LINE_DISTANCE + BALL_RADIUS


# --- replacement spots ------------------------------------------------------------

def _left_sign(player: str) -> float:
    """+1 when the player's left is towards high ``y`` (p1 looks along +x), else -1."""
    return 1.0 if player == "p1" else -1.0


def replacement_spot(player: str, spot: int) -> Point:
    """Where a penalised ball of ``player`` (the offender) is placed, spots 1..5.

    1/2: left/right corner of goal peg and short cushion at the offender's attacking
    goal, touching the cushion, 3 mm clear of the peg (outside the goal pegs);
    3: in the bos on the long axis, against the outer peg on the attacking side;
    4/5: left/right, behind and against the two short-axis pegs, on the defending side.
    """
    if player not in ATTACKS:
        raise ValueError(f"player is 'p1' or 'p2', not {player!r}")
    left = _left_sign(player)
    toward_attack = 1.0 if player == "p1" else -1.0
    cx, cy = CENTRE
    touch = PEG_RADIUS + BALL_RADIUS
    if spot in (1, 2):
        x = LENGTH - BALL_RADIUS if player == "p1" else BALL_RADIUS
        side = left if spot == 1 else -left
        return x, cy + side * (GOAL_PEG_OFFSET + PEG_RADIUS + SPOT_CLEARANCE + BALL_RADIUS)
    if spot == 3:
        return cx + toward_attack * (2 * BOS_SPACING + touch), cy
    if spot in (4, 5):
        side = left if spot == 4 else -left
        half_gap = BOS_SPACING / 2
        dx = math.sqrt(touch * touch - half_gap * half_gap)
        return cx - toward_attack * dx, cy + side * 1.5 * BOS_SPACING
    raise ValueError(f"replacement spot must be 1..5, not {spot}")


REPLACEMENT_SPOTS: dict[str, dict[int, Point]] = {
    p: {n: replacement_spot(p, n) for n in range(1, 6)} for p in ("p1", "p2")
}


def start_positions(player: str) -> tuple[Point, ...]:
    """Where a player's five balls stand at the start of a frame (our choice: in a row
    across the table, 0.55 m in front of their defending short cushion, just clear of
    the large defensive triangle so that the opening turn owes it nothing)."""
    x = START_DISTANCE if DEFENDS[player] == "A" else LENGTH - START_DISTANCE
    return tuple((x, WIDTH * (k + 1) / 6) for k in range(BALLS_PER_PLAYER))
