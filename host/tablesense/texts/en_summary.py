"""English: the score line of each game (the replay account, the pub's results), a match's
result and the replay account's own lines. Keys ``summary.<game>`` / ``summary.<game>:<part>``,
``result:<how>``, ``account:<line>``;
filled by ``tablesense.texts.phrase`` with the players' names already put in."""

from __future__ import annotations

from typing import Any

TEMPLATES: dict[str, Any] = {
    "summary.golf": "frame {frame}: balls left p1 {left1}, p2 {left2}; frames {won1}-{won2}",
    "summary.golf:zone-play": "zone play",
    "summary.golf:at-table": "{name} ({side}) at the table",
    "summary.golf:waiting": "waiting for: {ids}",
    "summary.golf:spot": "replacement spot to name for: {balls}",
    "summary.carom:player": "{name} {caroms}/{target} in {innings}",
    "summary.kegle:player": "{side} {name} {points} ({series} series)",
    "summary.kegle:distance": "to {distance}",
    "summary.kegle:at-table": "{side} at the table, this series {run}",
    "result:draw": "a draw",
    "result:won": "won by {winner}",
    "result:finished": "finished",
    "result:in-play": "in play, {side} at the table",
    "account:match": "match: {game}",
    "account:shot": "shot {shot}: {score}",
    "account:settled": "shot {shot} settled: {score}",
    "account:incident": "between shots: {score}",
    "account:result": "result: {result}",
}
