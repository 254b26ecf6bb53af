"""Danish templates: keglebillard (keys as ``en_kegle``'s, same placeholders).

The words are DDBU's (seeds/002) and the scoreboard's (``web/i18n/da.json``): kegle,
carambole, serie, stød, udlæg, hul, bande, distance, "N mangler"; the referee's
announcements are keyed as in English.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .da_common import plural


def _count(value: Any) -> int:
    """How many items a rendered list parameter names ("1, 3" -> 2)."""
    return len(str(value).split(", ")) if value not in (None, "", "?") else 0


def _pins(p: Mapping[str, Any]) -> str:
    n = _count(p["pins"])
    return f"{n} {plural(n, 'kegle', 'kegler')}: {p['points']} point"


def _falls(p: Mapping[str, Any]) -> str:
    ball = p.get("ball") or "en kugle"
    return f"{ball} faldt i hul {p['pocket']} efter at have ligget stille: den lægges tilbage, ingen fejl"


def _same_series(p: Mapping[str, Any]) -> str:
    n = p["series"]
    return (f"{p['player']} vinder: distancen er nået, begge har spillet {n} "
            f"{plural(n, 'serie', 'serier')}")


def _fault(what: str) -> str:
    return f"fejl: {what}; stødet giver ingen point"


TEMPLATES: dict[str, Any] = {
    "kegle.lag": "{player} starter, fra udlægget",
    "kegle.outlay": "nyt udlæg efter en kugle sprang af bordet",
    "kegle.outlay.request": "nyt udlæg til {player}",
    "kegle.pin": _pins,
    "kegle.carambole": "carambole: {points} point",
    "kegle.series": "ingen point: serien på {run} er slut",
    "kegle.distance": "distancen er nået",
    "kegle.shot:late-pin": "kegle {pin} væltede efter at kuglerne lå stille: den hører til stødet, som "
                           "først var slut, da kugler og kegler stod stille",
    "kegle.shot:by-hand": "kegle {pin} væltet mellem stødene, ingen kugle rørt: intet stød; den rejses igen",
    "kegle.shot:hands": "dommeren: det var keglerejserens hænder, ingen kugle spillet: intet stød, turen "
                        "bliver",
    "kegle.break": "halvdelen af distancen: 5 minutters pause",
    "kegle.last-series": "sidste serie, fra et nyt udlæg",
    "kegle.same-series": _same_series,
    "kegle.draw": "begge spillere nåede distancen: uafgjort",
    "kegle.announce.remaining": "{remaining} mangler",
    "kegle.pin-blocked": "kegle {pin} kan ikke stå på grund af en kugle",
    "kegle.white-in-hole": "en hvid i hul {pocket}: den kommer på punktet over for den anden hvide",
    "kegle.red-in-hand": "den røde lægges mellem den nederste bande og den nederste streg",
    "kegle.ball-falls": _falls,
    "kegle.ball-falls:replay": "en kugle faldt efter at have ligget stille: stødet spilles om",
    "kegle.disqualified": "{player} erklæres for taber; {opponent} vinder",
    # the question about a pocket event that names no ball
    "kegle.fault.red-in-hole:which-ball": "Hvilken kugle faldt i hul {pocket}?",
    # the faults (a ruling against the player at the table)
    "kegle.fault.jumped-ball": _fault("en kugle sprang af bordet"),
    "kegle.fault.pins-not-up": _fault("stødte før keglerne var rejst"),
    "kegle.fault.balls-moving": _fault("stødte før kuglerne lå stille"),
    "kegle.fault.touch": _fault("rørte en kugle med hånden, køen eller en genstand"),
    "kegle.fault.touche": _fault("touché: rørte en kugle med andet end læderet"),
    "kegle.fault.push": _fault("køen rørte stadig den røde, da den ramte en kugle eller en bande"),
    "kegle.fault.frozen": _fault("spillede direkte på en kugle der lå an, uden at frigøre den"),
    "kegle.fault.foot": _fault("stødte uden en fod på gulvet"),
    "kegle.fault.marks": _fault("lavede retningsmærker på banden"),
    "kegle.fault.red-in-hole": _fault("den røde gik i hul"),
    "kegle.fault.red-topples-pin": _fault("den røde væltede en kegle"),
    "kegle.fault.pin-by-cue": _fault("en kegle blev væltet af køen, en bro, tøjet eller kroppen"),
    "kegle.fault.touch-toppled-pin": _fault("rørte en væltet kegle"),
    "kegle.fault.no-cushion": _fault("ingen kugle ramte en bande, anden gang i træk efter at "
                                     "keglerne blev rejst"),
    "kegle.fault.three-reds": _fault("tre røde i træk uden kegle"),
    # the referee's announcements
    "kegle.announce.remaining:announce": "{remaining} mangler",
    "kegle.distance:announce": "distance",
    "kegle.last-series:announce": "sidste serie",
    "kegle.break:announce": "5 minutters pause",
}
