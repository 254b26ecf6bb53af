"""A season of two halves (najaar, voorjaar): the next half starts from the last half's
moyennes ("carom.league.moyenne"), and the year's standings combine both halves.

Pure: competitions' players and results in, players and standings out.
"""

from __future__ import annotations

from . import part
from .standings import Player, Result, Standing, standings


def next_half_players(players: list[Player], results: list[Result], game: str = "carom") -> list[Player]:
    """The players of the next half with the moyennes the last half gave them (keglebillard:
    their series average over it; golf: as they were), in their groups and duos: the game's
    league part's ``next_half``."""
    half: list[Player] = part.of(game).next_half(players, results)
    return half


def year_standings(halves: list[tuple[list[Player], list[Result]]], order: tuple[str, ...] = ("points",),
                   game: str = "carom") -> list[Standing]:
    """The standings of a year played in halves: every half's matches counted together."""
    players: dict[str, Player] = {}
    results: list[Result] = []
    for half_players, half_results in halves:
        for p in half_players:
            players.setdefault(p.name, p)
        results += half_results
    return standings(list(players.values()), results, order, game)
