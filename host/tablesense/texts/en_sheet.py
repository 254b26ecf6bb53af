"""English: the printable score sheet's words (``tablesense sheet``, ``tablesense.sheet.page``).
Keys ``sheet:<word>``; the result line is ``en_summary``'s."""

from __future__ import annotations

from typing import Any

TEMPLATES: dict[str, Any] = {
    "sheet:title": "Score sheet",
    "sheet:game.golf": "Golf billiards",
    "sheet:game.kegle": "Keglebillard",
    "sheet:game.carom": "Carom",
    "sheet:discipline.libre": "straight rail",
    "sheet:discipline.bandstoten": "one-cushion",
    "sheet:discipline.driebanden": "three-cushion",
    "sheet:table": "Table",
    "sheet:match": "Match",
    "sheet:started": "Started",
    "sheet:ended": "Ended",
    "sheet:result": "Result",
    "sheet:player": "Player",
    "sheet:print": "Print",
    "sheet:errors": "Lines of the log left out",
    # carom: the scorer's sheet
    "sheet:inning": "Inning",
    "sheet:run": "Run",
    "sheet:total": "Total",
    "sheet:equalising": "equalising inning",
    "sheet:equalising-mark": "E",
    "sheet:playing": "at the table",
    "sheet:caroms": "Caroms",
    "sheet:target": "Target",
    "sheet:percent": "% of target",
    "sheet:innings": "Innings",
    "sheet:moyenne": "Moyenne tonight",
    "sheet:registered": "Registered moyenne",
    "sheet:high-run": "High run",
    "sheet:match-points": "Match points",
    "sheet:breaker": "{name} broke",
    # keglebillard
    "sheet:series": "Series",
    "sheet:points": "Points",
    "sheet:series-count": "Series",
    "sheet:highest": "Highest series",
    "sheet:average": "Average per series",
    "sheet:distance": "Distance",
    "sheet:first": "{name} shot first",
    # golf
    "sheet:frame": "Frame",
    "sheet:frame-winner": "Won by",
    "sheet:balls-left": "Balls left: {name}",
    "sheet:turns": "Turns",
    "sheet:frames-won": "Frames won",
    "sheet:best-of": "best of {n} frames",
    "sheet:in-play": "in play",
    # signatures
    "sheet:signatures": "Signatures",
    "sheet:referee": "Referee",
    "sheet:scorer": "Scorer",
}
