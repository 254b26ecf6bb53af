"""What a club counts, from the match state: the figures of its paper score sheet.

``figures(setup, state, engine_state)`` gives numbers only (the pages put the words of the
table's language to them), the same for the TV, the overview, the referee panel and the
printable score sheet:

- carom: per player the caroms, the target and what remains, the innings and the run of
  each (the sheet's column per inning), the last five, the high run, tonight's moyenne
  beside the registered one (the set-up's ``moyennes``) and the share of the target made;
  the innings limit and the innings left, the equalising inning (nastoot) and whose it is,
  the shot clock and each player's time-outs left;
- keglebillard: per player the points of each series in turn, the highest series and the
  average per series, the distance and what remains;
- golf: the match as "best of 3 frames", the frames won and the frame in play.

Keglebillard's series are read from the states the match went through (each state's
``checkpoint`` is the one before its step: ``rules/shot_engine.py``), so undone shots are
not among them. Pure: no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..rules.golf.resolve import FRAMES_TO_WIN

PLAYERS = ("p1", "p2")
#: how many innings the TV lists (what club scoreboards show between shots)
LAST_INNINGS = 5


def figures(setup: Mapping[str, Any], state: Mapping[str, Any] | None,
            engine_state: Any = None) -> dict[str, Any]:
    """The club's figures of a match (``state``: the engine's JSON; ``engine_state``: the
    engine's own state, for keglebillard's series); {} for a match without a state."""
    if not state:
        return {}
    game = state.get("game") or setup.get("game")
    if game == "carom":
        return _carom(setup, state)
    if game == "kegle":
        return _kegle(state, engine_state)
    if game == "golf":
        return _golf(state)
    return {}


def _pair(state: Mapping[str, Any], key: str, p: str, default: Any = 0) -> Any:
    v = state.get(key)
    if isinstance(v, Mapping):
        return v.get(p, default)
    return default


def _carom(setup: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, Any]:
    moyennes = setup.get("moyennes") if isinstance(setup.get("moyennes"), Mapping) else {}
    breaker = state.get("breaker") or "p1"
    second = "p2" if breaker == "p1" else "p1"
    at = None if state.get("finished") else state.get("at_table")
    players: dict[str, Any] = {}
    for p in PLAYERS:
        caroms, target = int(_pair(state, "caroms", p)), int(_pair(state, "targets", p) or 0)
        innings = int(_pair(state, "innings", p))
        runs = [int(r) for r in _pair(state, "runs", p, [])]
        registered = moyennes.get(p) if isinstance(moyennes, Mapping) else None
        players[p] = {
            "caroms": caroms, "target": target, "remaining": max(0, target - caroms),
            "innings": innings, "runs": runs, "last": runs[-LAST_INNINGS:],
            "high_run": int(_pair(state, "high_run", p)),
            "run": int(state.get("current_run") or 0) if p == at else None,
            "average": round(caroms / innings, 3) if innings else 0.0,
            "moyenne": float(registered) if isinstance(registered, (int, float)) else None,
            "percent": math.floor(caroms * 100 / target) if target else None,
        }
    limit = state.get("innings_limit")
    played = max((players[p]["innings"] for p in PLAYERS), default=0)
    # the inning in play: the second player's innings so far, plus the one under way
    inning = players[second]["innings"] + (0 if state.get("finished") else 1)
    return {
        "game": "carom", "discipline": state.get("discipline"), "players": players,
        "innings_limit": limit if isinstance(limit, int) else None,
        "inning": min(inning, limit) if isinstance(limit, int) else inning,
        "innings_left": max(0, limit - players[second]["innings"]) if isinstance(limit, int) else None,
        "innings_played": played,
        "nastoot": second if state.get("nastoot") else None,
        "shot_clock": state.get("shot_clock"),
        "timeouts_left": state.get("timeouts_left"),
    }


def _kegle(state: Mapping[str, Any], engine_state: Any) -> dict[str, Any]:
    series = kegle_series(engine_state) if engine_state is not None else {p: [] for p in PLAYERS}
    players = {}
    for p in PLAYERS:
        points = int(_pair(state, "points", p))
        done = series[p]
        players[p] = {
            "points": points, "distance": _pair(state, "targets", p, state.get("distance")),
            "remaining": _pair(state, "remaining", p), "series": done,
            "highest": max(done, default=0),
            "average": round(points / len(done), 1) if done else 0.0,
        }
    return {"game": "kegle", "players": players}


def kegle_series(engine_state: Any) -> dict[str, list[int]]:
    """Each player's points series by series, oldest first (the last one perhaps still under
    way), from the states the match went through: a series starts where the engine counts
    one more for its player (``Score.series``), and holds the points made until the next."""
    chain = []
    s = engine_state
    while s is not None and hasattr(s, "score"):
        chain.append(s.score)
        s = getattr(s, "checkpoint", None)
    chain.reverse()
    out: dict[str, list[int]] = {}
    for i, p in enumerate(PLAYERS):
        starts: list[int] = []  # the player's points just before each of his series
        prev = None
        for score in chain:
            if prev is not None and score.series[i] > prev.series[i]:
                starts.extend([prev.points[i]] * (score.series[i] - prev.series[i]))
            prev = score
        now = chain[-1].points[i] if chain else 0
        ends = [*starts[1:], now] if starts else []
        out[p] = [max(0, b - a) for a, b in zip(starts, ends, strict=True)]
    return out


def _golf(state: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "game": "golf", "best_of": 2 * FRAMES_TO_WIN - 1, "frames_to_win": FRAMES_TO_WIN,
        "frame": state.get("frame"),
        "frames_won": {p: int(_pair(state, "frames_won", p)) for p in PLAYERS},
    }
