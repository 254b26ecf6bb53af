"""Carom's figures as a club's score sheet counts them (``tablesense.club_figures``, found by
``games.part(game, "figures")``): ``read`` the engine's state into its record, ``screens`` the
record as the screens' JSON."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ...club_figures import LAST_INNINGS, SIDES, CaromFigures, CaromPlayer, Inning


def read(state: Any, names: Mapping[str, str], moyennes: Mapping[str, Any]) -> CaromFigures:
    """Every inning of each player, the nastoot, the moyennes, the target, the match points."""
    m = state.m
    second = "p2" if m.breaker == "p1" else "p1"
    equalising = second if m.nastoot else None
    players = []
    for i, p in enumerate(SIDES):
        playing = state.at_table == p and not state.finished
        last = m.innings[i] + (1 if playing else 0)  # the equalising inning is the last one
        innings, total = [], 0
        for n, run in enumerate(m.runs[i], start=1):
            total += run
            innings.append(Inning(n, run, total, equalising == p and n == last))
        if playing:  # the inning in play
            innings.append(Inning(last, m.run, m.caroms[i], equalising == p, playing=True))
        registered = moyennes.get(p)
        players.append(CaromPlayer(
            p, names.get(p, p), tuple(innings), m.caroms[i], m.targets[i], m.high_run[i],
            round(m.caroms[i] / m.innings[i], 3) if m.innings[i] else 0.0,
            float(registered) if isinstance(registered, (int, float)) and not isinstance(registered, bool)
            else None,
            m.points[i] if m.points is not None else None,
            m.timeouts - m.timeouts_used[i] if m.shot_clock else None))
    return CaromFigures(m.discipline, m.profile.name, m.breaker, (players[0], players[1]), equalising,
                        m.innings_limit, m.shot_clock, bool(state.finished))


def screens(c: CaromFigures) -> dict[str, Any]:
    """The figures as the screens' JSON (``view.club``)."""
    players = {}
    for p in c.players:
        runs = list(p.runs)
        players[p.player] = {
            "caroms": p.caroms, "target": p.target, "remaining": p.remaining,
            "innings": p.innings_played, "runs": runs, "last": runs[-LAST_INNINGS:],
            "high_run": p.high_run, "run": p.run, "average": p.moyenne, "moyenne": p.registered,
            "percent": math.floor(p.caroms * 100 / p.target) if p.target else None,
        }
    timeouts = ({p.player: p.timeouts_left for p in c.players} if c.shot_clock else None)
    return {
        "game": "carom", "discipline": c.discipline, "players": players,
        "innings_limit": c.innings_limit, "inning": c.inning, "innings_left": c.innings_left,
        "innings_played": max(p.innings_played for p in c.players),
        "nastoot": c.equalising, "shot_clock": c.shot_clock, "timeouts_left": timeouts,
    }
