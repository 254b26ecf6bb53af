"""Golf rules decided from ball positions at rest (simulator, camera): zones and triangles.

A player's five balls are alike, so "a ball left its zone" is decided on the multiset
of places each side's balls occupy: a zone number, or the set of zone lines a ball
lies on. Plain functions returning a bool; the engine turns them into rulings.
"""

from __future__ import annotations

from collections import Counter

from .geometry import (
    ATTACKS,
    BALL_DIAMETER,
    DEFENDS,
    REPLACEMENT_SPOTS,
    Point,
    in_triangle,
    zone_lines_of,
    zone_of,
)
from .state import IDX, Positions


def _place(p: Point, owner: str) -> object:
    if in_triangle(p, DEFENDS[owner], "large"):
        return "defensive-triangle"  # not a zone for the defender's balls
    z = zone_of(p)
    return z if z is not None else zone_lines_of(p)


def zone_left(before: Positions, after: Positions, shooter: str) -> bool:
    """Seed "Zone play: Obligations", golf.zone.leave: True when the zone obligation is met:
    some ball changed place (zone, line or triangle), or a ball of the shooter lies in their
    large attacking triangle (it need not change zone)."""
    goal = ATTACKS[shooter]
    if any(in_triangle(p, goal, "large") for p in before[IDX[shooter]]):
        return True
    for owner in ("p1", "p2"):
        i = IDX[owner]
        if Counter(_place(p, owner) for p in before[i]) != Counter(_place(p, owner) for p in after[i]):
            return True
    return False


def in_defensive_triangle(points: tuple[Point, ...], owner: str, size: str = "large") -> int:
    """How many of ``owner``'s balls lie in their ``size`` defensive triangle (line counts)."""
    goal = DEFENDS[owner]
    return sum(1 for p in points if in_triangle(p, goal, size))


def defensive_triangle_kept(start: Positions, end: Positions, player: str) -> int:
    """Seed "Balls in the large defensive triangle", golf.triangle.defensive,
    golf.triangle.defensive.several: balls of ``player`` that lay in their defensive triangle
    at the start of the turn when none has left it by the end; 0 when the rule is met."""
    n0 = in_defensive_triangle(start[IDX[player]], player)
    n1 = in_defensive_triangle(end[IDX[player]], player)
    return n0 if n0 and n1 >= n0 else 0


def attacking_triangle_broken(before: Positions, after: Positions, shooter: str) -> bool:
    """Seed "Fouls", golf.triangle.attacking: the defender had a ball in their defensive
    triangle before the shot, and after it the shooter's ball lies in the large attacking
    triangle while a defender's ball lies in the small triangle."""
    defender = "p2" if shooter == "p1" else "p1"
    goal = ATTACKS[shooter]
    d = IDX[defender]
    if not any(in_triangle(p, goal, "large") for p in before[d]):
        return False
    return any(in_triangle(p, goal, "small") for p in after[d]) and any(
        in_triangle(p, goal, "large") for p in after[IDX[shooter]]
    )


def spot_taken(owner: str, n: int, positions: Positions, ignore: str | None = None) -> bool:
    """Whether a ball covers ``owner``'s replacement spot ``n`` (within a ball's diameter); the
    balls of ``ignore`` do not count (the ball to be placed, when it is its owner's only one)."""
    sx, sy = REPLACEMENT_SPOTS[owner][n]
    balls = positions[0] + positions[1] if ignore is None else positions[1 - IDX[ignore]]
    return any((x - sx) ** 2 + (y - sy) ** 2 < BALL_DIAMETER**2 for x, y in balls)


def free_spot(owner: str, positions: Positions) -> int | None:
    """Seed "Replacement spots", golf.spot.fallback: when spots 1-3 of ``owner`` are all
    covered by a ball, the first free of 4 and 5 (the fall-back); None when one of 1-3 is free
    (the opponent chooses)."""
    if not all(spot_taken(owner, n, positions) for n in (1, 2, 3)):
        return None
    for n in (4, 5):
        if not spot_taken(owner, n, positions):
            return n
    return 5


def repeat_spot(owner: str, fouled: tuple[int, ...], positions: Positions | None) -> int:
    """Seed "Replacement spots", golf.spot.repeat: the first replacement spot from which no foul
    shot has been played yet, and that no other ball makes unusable (the positions at the rest,
    when there are any; the ball to be placed is its owner's only one and does not count).
    Without such a spot, the first not fouled from; with none, spot 5."""
    spots = [n for n in range(1, 6) if n not in fouled]
    if positions is not None:
        usable = [n for n in spots if not spot_taken(owner, n, positions, ignore=owner)]
        if usable:
            return usable[0]
    return spots[0] if spots else 5


def _listed(nums: list[str], word: str) -> str:
    return nums[0] if len(nums) == 1 else f"{', '.join(nums[:-1])} {word} {nums[-1]}"


def spot_refused(owner: str, positions: Positions | None, spot: int) -> str | None:
    """Seed "Replacement spots", golf.spot.choice: why the opponent cannot name replacement spot
    ``spot`` for ``owner``'s ball, or None when the choice stands. "If the position of the other
    balls makes these replacement spots unusable": a spot a ball covers in the last rest's
    positions is unusable, and spots 4 and 5 are only for when the positions show spots 1-3 all
    unusable (``golf.spot.fallback``). No positions: the referee's word."""
    if positions is None:
        return None
    if spot_taken(owner, spot, positions):
        free = [str(n) for n in range(1, 4) if not spot_taken(owner, n, positions)]
        if not free:
            free = [str(n) for n in (4, 5) if not spot_taken(owner, n, positions)]
        instead = f": choose spot {_listed(free, 'or')}" if free else ""
        return (f"'spot' call: replacement spot {spot} is unusable, a ball lies on it in the positions "
                f"of the last rest (golf.spot.choice){instead}; {owner}'s ball is still waiting")
    return fallback_refused(owner, positions, spot)


def fallback_refused(owner: str, positions: Positions | None, spot: int) -> str | None:
    """"golf.spot.fallback": spots 4 and 5 are only for when the other balls make spots
    1-3 unusable. Why a chosen spot 4 or 5 is refused when the positions show one of 1-3
    free (and which to use instead); None when the choice stands (no positions: the
    referee's word)."""
    if spot not in (4, 5) or positions is None:
        return None
    free = [n for n in (1, 2, 3) if not spot_taken(owner, n, positions)]
    if not free:
        return None
    nums = [str(n) for n in free]
    return (f"'spot' call: replacement spot {spot} is only for when spots 1-3 are unusable "
            f"(golf.spot.fallback), and the positions show spot{'s' if len(nums) > 1 else ''} "
            f"{_listed(nums, 'and')} free for {owner}'s ball: choose spot {_listed(nums, 'or')} "
            "(golf.spot.choice)")
