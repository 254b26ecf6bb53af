"""The golf billiards match state.

A frozen msgspec Struct on the shot stage's ``MatchState``: the base keeps the shot
(``before``, ``shot``, ``cut``); this holds only the game. The state after a shot is a
pure function of the state before it and the shot (``golf.resolve.resolve``).

Per-player values are pairs indexed 0 for p1 and 1 for p2 (``IDX``).
"""

from __future__ import annotations

from typing import Any

from ...shots import Cutter
from ..shot_engine import MatchState
from .game import GAME
from .geometry import BALLS_PER_PLAYER, Point

IDX = {"p1": 0, "p2": 1}
SIDES = ("p1", "p2")

#: ball positions at rest, per player: the points of the balls still on the bed
Positions = tuple[tuple[Point, ...], tuple[Point, ...]]
#: the cut of a golf table (no strike sensor; the settle window of golf, given here: the cut
#: would look it up at each drop, ``shots.settle_window``)
GOLF_CUTTER = Cutter(game="golf", window=GAME.settle_s)


class GolfState(MatchState, frozen=True, kw_only=True):
    game: str = "golf"
    cut: Cutter = GOLF_CUTTER
    duo: bool = False
    frame: int = 1
    frames_won: tuple[int, int] = (0, 0)
    balls_left: tuple[int, int] = (BALLS_PER_PLAYER, BALLS_PER_PLAYER)
    zone_play: bool = False
    first_opener: str = "p1"
    first_members: tuple[int, int] = (0, 0)
    members: tuple[int, int] = (0, 0)  # duo: the member of each side who plays its next turn
    frame_units: int = 0  # shots and stand-alone calls in this frame
    clock: tuple[str, float] | None = None  # (player, start)
    positions: Positions | None = None
    turn_positions: Positions | None = None
    placed: tuple[int | None, int | None] = (None, None)  # spot of each side's last replaced ball
    fouled_from: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    placements: tuple[tuple[str, int], ...] = ()  # (ball, spot) decided by the last unit
    #: penalised balls whose replacement spot the opponent has not named yet (a ``spot``
    #: call names it): (t, ball, key)
    spot_wait: tuple[tuple[float, str, str], ...] = ()
    frame_winners: tuple[str, ...] = ()
    #: each frame decided, as it ended: the balls p1 and p2 had left and its turns (the
    #: state after the deciding shot racks the next frame: the score sheet's frame by frame)
    frame_ends: tuple[tuple[int, int, int], ...] = ()


def pair_set(pair: tuple[Any, Any], player: str, value: Any) -> tuple[Any, Any]:
    return (value, pair[1]) if player == "p1" else (pair[0], value)


def norm_positions(raw: dict[str, Any] | None) -> Positions | None:
    """``rest.positions`` as points per side; ``None`` when absent or not golf balls."""
    if not raw:
        return None
    out: list[tuple[Point, ...]] = []
    for side in SIDES:
        v = raw.get(side, [])
        if v and isinstance(v[0], (int, float)):
            v = [v]
        out.append(tuple((float(p[0]), float(p[1])) for p in v))
    return out[0], out[1]
