"""Golf billiards as the simulator plays it (``sim.match``, found by ``games.part(game, "play",
room="sim")``): the set-up, the player, what the referee calls, the balls the referee puts back."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...events import Setup
from ...rules.golf.game import GAME
from ...rules.golf.geometry import ATTACKS
from ..physics import Happening, Table
from ..players import GolfPlayer, Player
from ..tables import TableSpec, owner

if TYPE_CHECKING:
    from ..match import MatchSim


def setup(players: dict[str, str], opts: Mapping[str, Any]) -> Setup:
    return Setup(t=0.0, game=GAME.name, players=players)


def player(spec: TableSpec, seed: int, skill: float, discipline: str) -> Player:
    return GolfPlayer(spec, seed=seed, skill=skill, discipline=discipline)


def called(happenings: list[Happening], side: str, discipline: str) -> bool:
    """The referee calls no carom: golf's sensors see every goal."""
    return False


def reconcile(sim: MatchSim, state: dict[str, Any]) -> None:
    """A new frame: the balls back at the start; else a ball the engine took off is off (the
    one nearest its goal), one it put back is on its first free replacement spot."""
    key = sim.frame()
    if key != sim.frame_seen:
        sim.frame_seen = key
        sim.table = Table(sim.spec)
        return
    left = state.get("balls_left") or {}
    on = sim.table.balls
    for side in ("p1", "p2"):
        mine = [b for b in on if owner(b) == side]
        want = int(left.get(side, len(mine)))
        if len(mine) > want:
            goal = sim.spec.goals[ATTACKS[side]]
            mine.sort(key=lambda b: math.dist(sim.table.positions()[b], goal))
            for b in mine[: len(mine) - want]:
                sim.table.remove(b)
        elif len(mine) < want:
            free_names = [f"{side}.{k}" for k in range(1, 6) if f"{side}.{k}" not in on]
            spots = [sim.spec.spots[f"{side}.{n}"] for n in range(1, 6)]
            for name in free_names[: want - len(mine)]:
                sim.table.place(name, sim.free_spot(spots))
