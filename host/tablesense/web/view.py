"""What the screens show beyond the engine's state, made on the host in the table's language.

``view(table, snapshot)`` is the pub's snapshot hook (``Pub.view``): the last shot told
in one line, what undo would take back, the players' ball colours. The pages only
display it; ``panel(table)`` is what the referee panel draws its buttons from.
"""

from __future__ import annotations

from itertools import islice
from typing import Any

from ..pub import Table
from ..store import effective_lines
from . import fouls, last_shot, spots, undo
from .pages import strings

#: the balls a player plays, by game: the TV paints each player's card in their ball's colour
#: (golf: the stock sets are red and yellow, hardware/profiles/golf.toml's learned colours;
#: carom: p1 the yellow, p2 the white, docs/events.md; keglebillard: both play the red)
COLOURS: dict[str, dict[str, str]] = {
    "golf": {"p1": "red", "p2": "yellow"},
    "carom": {"p1": "yellow", "p2": "white"},
}


def view(tab: Table, snap: dict[str, Any]) -> dict[str, Any]:
    match = snap.get("match")
    if match is None:
        return {}
    s = strings(tab.lang)
    game = match["game"]
    players = match.get("players") or {}
    state = snap.get("state") or {}
    lines = [e.line for e in effective_lines(tab.log)[1:]]
    since = last_shot.shot_start(islice(reversed(lines), 400))
    rulings = [r for r in state.get("rulings") or () if float(r.get("t", 0.0)) > since]
    return {
        "last_shot": last_shot.tell(game, rulings, state, players, s),
        "undo": undo.describe(undo.last_unit(lines), game, players, s),
        "colours": COLOURS.get(game, {}),
    }


def panel(tab: Table, state: dict[str, Any] | None) -> dict[str, Any]:
    """The referee panel's buttons for the table's match: its fouls (common first, the
    ones its rules or format do not know left out), golf's replacement spots."""
    if tab.match is None:
        return {"game": None, "fouls": []}
    s = strings(tab.lang)
    game = tab.match.game
    state = state or {}
    profile = state.get("profile") if game == "carom" else state.get("format") or "single"
    zone = state.get("zone_play")
    out: dict[str, Any] = {
        "game": game, "lang": tab.lang,
        "fouls": fouls.buttons(game, s, profile if isinstance(profile, str) else None,
                               zone if isinstance(zone, bool) else None),
    }
    if game == "golf":
        out["table"] = spots.drawing()
    return out
