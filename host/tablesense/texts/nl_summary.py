"""Dutch: each game's score line, a match's result, the replay account's lines (keys as
``en_summary``)."""

from __future__ import annotations

from typing import Any

from .nl_common import plural

TEMPLATES: dict[str, Any] = {
    "summary.golf": "spel {frame}: ballen over p1 {left1}, p2 {left2}; spellen {won1}-{won2}",
    "summary.golf:zone-play": "zonespel",
    "summary.golf:at-table": "{name} ({side}) aan tafel",
    "summary.golf:waiting": "wacht op: {ids}",
    "summary.golf:spot": "vervangplek te kiezen voor: {balls}",
    "summary.carom:player": "{name} {caroms}/{target} in {innings} beurten",
    "summary.kegle:player": lambda p: (f"{p['side']} {p['name']} {p['points']} "
                                       f"({p['series']} {plural(p['series'], 'serie', 'series')})"),
    "summary.kegle:distance": "tot {distance}",
    "summary.kegle:at-table": "{side} aan tafel, deze serie {run}",
    "result:draw": "remise",
    "result:won": "gewonnen door {winner}",
    "result:finished": "afgelopen",
    "result:in-play": "in spel, {side} aan tafel",
    "account:match": "wedstrijd: {game}",
    "account:shot": "stoot {shot}: {score}",
    "account:settled": "stoot {shot} nagekomen: {score}",
    "account:incident": "tussen stoten: {score}",
    "account:result": "uitslag: {result}",
}
