"""Keglebillard as the simulator plays it (``sim.match``, found by ``games.part(game, "play",
room="sim")``): the set-up, the player, what the referee calls, the balls the referee puts back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...events import Setup
from ...rules.kegle.game import GAME
from ..physics import Happening
from ..players import KeglePlayer, Player, carambole_made
from ..tables import TableSpec

if TYPE_CHECKING:
    from ..match import MatchSim


def setup(players: dict[str, str], opts: Mapping[str, Any]) -> Setup:
    """To one distance for both (``distance``, 40 unless given)."""
    return Setup(t=0.0, game=GAME.name, players=players, distance=int(opts.get("distance", 40)))


def player(spec: TableSpec, seed: int, skill: float, discipline: str) -> Player:
    return KeglePlayer(spec, seed=seed, skill=skill, discipline=discipline)


def called(happenings: list[Happening], side: str, discipline: str) -> bool:
    """The referee calls a carambole the sensors cannot see."""
    return carambole_made(happenings)


def reconcile(sim: MatchSim, state: dict[str, Any]) -> None:
    """The red back in the kitchen, a white back on its spot (the other end from the other white)."""
    pos = sim.table.positions()
    if "red" not in pos:
        kitchen = [sim.spec.spots["red_head"], sim.spec.spots["red_foot"]]
        sim.table.place("red", sim.free_spot(kitchen))
    for name in ("white.1", "white.2"):
        pos = sim.table.positions()
        if name not in pos:
            other = next((xy for b, xy in pos.items() if b.startswith("white")), None)
            spot = "white_foot" if other is not None and other[0] < sim.spec.length / 2 else "white_head"
            sim.table.place(name, sim.free_spot([sim.spec.spots[spot]]))
