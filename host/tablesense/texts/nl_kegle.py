"""Dutch templates: keglebillard (keys as ``en_kegle``'s, same placeholders).

The words are the scoreboard's (``web/i18n/nl.json``): kegel, zak, band, serie, afstand,
"nog N" for what is left; the referee's announcements are keyed as in English.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .nl_common import plural


def _count(value: Any) -> int:
    """How many items a rendered list parameter names ("1, 3" -> 2)."""
    return len(str(value).split(", ")) if value not in (None, "", "?") else 0


def _pins(p: Mapping[str, Any]) -> str:
    n = _count(p["pins"])
    return f"{n} {plural(n, 'kegel', 'kegels')}: {p['points']} punten"


def _falls(p: Mapping[str, Any]) -> str:
    ball = p.get("ball") or "een bal"
    return f"{ball} viel in zak {p['pocket']} nadat hij stil lag: hij wordt teruggelegd, geen fout"


def _same_series(p: Mapping[str, Any]) -> str:
    n = p["series"]
    return (f"{p['player']} wint: afstand bereikt, beiden speelden {n} "
            f"{plural(n, 'serie', 'series')}")


def _fault(what: str) -> str:
    return f"fout: {what}; de stoot levert niets op"


TEMPLATES: dict[str, Any] = {
    "kegle.lag": "{player} stoot als eerste, vanuit de beginopstelling",
    "kegle.outlay": "nieuwe beginopstelling na een uitgesprongen bal",
    "kegle.outlay.request": "nieuwe beginopstelling voor {player}",
    "kegle.pin": _pins,
    "kegle.carambole": "carambole: {points} punten",
    "kegle.series": "geen punten: serie van {run} voorbij",
    "kegle.distance": "afstand bereikt",
    "kegle.shot:late-pin": "kegel {pin} viel nadat de ballen stil lagen: hij hoort bij de stoot, die pas "
                           "voorbij was toen ballen en kegels stil stonden",
    "kegle.shot:by-hand": "kegel {pin} tussen de stoten omgestoten, geen bal geraakt: geen stoot; hij wordt "
                          "weer rechtgezet",
    "kegle.shot:hands": "de scheidsrechter: dat waren de handen van de kegelzetter, geen bal gespeeld: geen "
                        "stoot, de beurt blijft",
    "kegle.break": "de helft van de afstand: 5 minuten pauze",
    "kegle.last-series": "laatste serie, vanuit een nieuwe beginopstelling",
    "kegle.same-series": _same_series,
    "kegle.draw": "beide spelers bereikten de afstand: gelijkspel",
    "kegle.announce.remaining": "nog {remaining}",
    "kegle.pin-blocked": "kegel {pin} kan niet staan door een bal",
    "kegle.white-in-hole": "een witte in zak {pocket}: hij komt op de stip tegenover de andere witte",
    "kegle.red-in-hand": "de rode komt tussen de onderste band en de onderste lijn",
    "kegle.ball-falls": _falls,
    "kegle.ball-falls:replay": "een bal viel nadat hij stil lag: de stoot wordt overgespeeld",
    "kegle.disqualified": "{player} wordt als verliezer aangewezen; {opponent} wint",
    # the question about a pocket event that names no ball
    "kegle.fault.red-in-hole:which-ball": "Welke bal viel in zak {pocket}?",
    # the faults (a ruling against the player at the table)
    "kegle.fault.jumped-ball": _fault("een bal sprong van de tafel"),
    "kegle.fault.pins-not-up": _fault("gestoten voor de kegels stonden"),
    "kegle.fault.balls-moving": _fault("gestoten voor de ballen stil lagen"),
    "kegle.fault.touch": _fault("een bal aangeraakt met de hand, de keu of een voorwerp"),
    "kegle.fault.touche": _fault("touché: een bal geraakt met iets anders dan de pomerans"),
    "kegle.fault.push": _fault("de keu raakte de rode nog toen die een bal of een band raakte"),
    "kegle.fault.frozen": _fault("rechtstreeks op een vastliggende bal gespeeld zonder hem vrij te spelen"),
    "kegle.fault.foot": _fault("gestoten zonder een voet op de grond"),
    "kegle.fault.marks": _fault("richtingstekens op de band gemaakt"),
    "kegle.fault.red-in-hole": _fault("de rode ging in een gat"),
    "kegle.fault.red-topples-pin": _fault("de rode wierp een kegel om"),
    "kegle.fault.pin-by-cue": _fault("een kegel omgeworpen door de keu, een bok, kleding of het lichaam"),
    "kegle.fault.touch-toppled-pin": _fault("een omgevallen kegel aangeraakt"),
    "kegle.fault.no-cushion": _fault("voor de tweede keer op rij dat de kegels werden opgezet raakte "
                                     "geen bal een band"),
    "kegle.fault.three-reds": _fault("drie keer rood op rij zonder kegel"),
    # the referee's announcements
    "kegle.announce.remaining:announce": "nog {remaining}",
    "kegle.distance:announce": "afstand bereikt",
    "kegle.last-series:announce": "laatste serie",
    "kegle.break:announce": "5 minuten pauze",
}
