"""A season of two halves (najaar, voorjaar): the next half starts from the last half's
moyennes ("carom.league.moyenne"), and the year's standings combine both halves.

Pure: competitions' players and results in, players and standings out.
"""

from __future__ import annotations

from dataclasses import replace

from .standings import Player, Result, Standing, new_moyennes, standings


def next_half_players(players: list[Player], results: list[Result], game: str = "carom") -> list[Player]:
    """The players of the next half with the moyennes the last half gave them (keglebillard:
    their series average over it; golf: as they were), in their groups and duos."""
    if game == "golf":
        return [replace(p, team="") for p in players]
    if game == "kegle":
        rows = {r.name: r for r in standings(players, results, game="kegle")}
        return [replace(p, team="", moyenne=rows[p.name].average if p.name in rows and rows[p.name].series
                        else p.moyenne) for p in players]
    return [replace(p, moyenne=moyenne, team="") for p, moyenne, _ in new_moyennes(players, results)]


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
