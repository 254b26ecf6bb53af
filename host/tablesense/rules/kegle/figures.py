"""Keglebillard's figures as a club's score sheet counts them (``tablesense.club_figures``, found by
``games.part(game, "figures")``): ``read`` the engine's state into its record, ``screens`` the
record as the screens' JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...club_figures import SIDES, KegleFigures, KeglePlayer, Series


def read(state: Any, names: Mapping[str, str], moyennes: Mapping[str, Any]) -> KegleFigures:
    """Every series of each player, the highest, the average, the distance."""
    sc = state.score
    players = []
    for i, p in enumerate(SIDES):
        starts = sc.series_starts[i]  # the player's points as each of his series began
        ends = (*starts[1:], sc.points[i]) if starts else ()
        playing = state.at_table == p and not state.finished and sc.shots > 0
        series = tuple(Series(n, max(0, b - a), b, playing=playing and n == len(starts))
                       for n, (a, b) in enumerate(zip(starts, ends, strict=True), start=1))
        count = len(series)
        players.append(KeglePlayer(p, names.get(p, p), series, sc.points[i], sc.distance[i],
                                   max((s.points for s in series), default=0),
                                   round(sc.points[i] / count, 2) if count else 0.0))
    return KegleFigures(sc.first, (players[0], players[1]))


def screens(k: KegleFigures) -> dict[str, Any]:
    """The figures as the screens' JSON (``view.club``)."""
    return {"game": "kegle", "players": {p.player: {
        "points": p.points, "distance": p.distance, "remaining": p.remaining,
        "series": [s.points for s in p.series], "highest": p.highest,
        "average": round(p.points / len(p.series), 1) if p.series else 0.0,
    } for p in k.players}}
