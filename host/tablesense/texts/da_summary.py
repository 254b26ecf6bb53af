"""Danish: each game's score line, a match's result, the replay account's lines (keys as
``en_summary``)."""

from __future__ import annotations

from typing import Any

from .da_common import plural

TEMPLATES: dict[str, Any] = {
    "summary.golf": "sæt {frame}: kugler tilbage p1 {left1}, p2 {left2}; sæt {won1}-{won2}",
    "summary.golf:zone-play": "zonespil",
    "summary.golf:at-table": "{name} ({side}) ved bordet",
    "summary.golf:waiting": "venter på: {ids}",
    "summary.golf:spot": "erstatningspunkt skal vælges til: {balls}",
    "summary.carom:player": "{name} {caroms}/{target} på {innings} indgange",
    "summary.kegle:player": lambda p: (f"{p['side']} {p['name']} {p['points']} "
                                       f"({p['series']} {plural(p['series'], 'serie', 'serier')})"),
    "summary.kegle:distance": "til {distance}",
    "summary.kegle:at-table": "{side} ved bordet, denne serie {run}",
    "result:draw": "uafgjort",
    "result:won": "vundet af {winner}",
    "result:finished": "slut",
    "result:in-play": "i spil, {side} ved bordet",
    "account:match": "kamp: {game}",
    "account:shot": "stød {shot}: {score}",
    "account:settled": "stød {shot} afgjort: {score}",
    "account:incident": "mellem stød: {score}",
    "account:result": "resultat: {result}",
}
