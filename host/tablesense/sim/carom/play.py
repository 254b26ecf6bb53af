"""Carom as the simulator plays it (``sim.match``, found by ``games.part(game, "play",
room="sim")``): the set-up, the player, what the referee calls, the balls the referee puts back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...events import Setup
from ...rules.carom.game import GAME
from ..physics import Happening
from ..players import CAROM_BALL, CaromPlayer, Player, carom_made
from ..tables import TableSpec

if TYPE_CHECKING:
    from ..match import MatchSim


def setup(players: dict[str, str], opts: Mapping[str, Any]) -> Setup:
    """The discipline (libre unless given), the targets (8 each unless given), the table's size
    and the club's profile if given."""
    discipline = str(opts.get("discipline", "libre"))
    targets = opts.get("targets", {"p1": 8, "p2": 8})
    if isinstance(targets, int):
        targets = {"p1": targets, "p2": targets}
    extra = {"table": opts["table"]} if "table" in opts else {}
    return Setup(t=0.0, game=GAME.name, players=players, discipline=discipline,
                 profile=opts.get("club"), targets=dict(targets), extra=extra)


def player(spec: TableSpec, seed: int, skill: float, discipline: str) -> Player:
    return CaromPlayer(spec, seed=seed, skill=skill, discipline=discipline)


def called(happenings: list[Happening], side: str, discipline: str) -> bool:
    """The referee calls a carom the sensors cannot see (the discipline's)."""
    return carom_made(happenings, CAROM_BALL[side], discipline)


def reconcile(sim: MatchSim, state: dict[str, Any]) -> None:
    """A ball off the table: all three back on the opening spots, the player at the table's on his."""
    if len(sim.table.balls) == 3:
        return
    side = state.get("at_table") or "p1"
    cue, other = CAROM_BALL[side], CAROM_BALL["p2" if side == "p1" else "p1"]
    spots = sim.spec.spots
    start = {"red": spots["boven"], other: spots["beneden"], cue: spots["rechts"]}
    for ball in list(sim.table.balls):
        sim.table.remove(ball)
    for ball, xy in start.items():
        sim.table.place(ball, xy)
