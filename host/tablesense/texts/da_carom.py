"""Danish templates: carom (fripartie, enbande, trebande; keys as ``en_carom``'s).

The words are the scoreboard's (``web/i18n/da.json``): fejl, touché, skubbestød, indgang,
serie, udlæg, dommer, ENTREE and DEDANS; a carom that is no carom is announced "NUL". The
parameters that are words (a foul, a frozen ball's choice, a corner, a call) are put in
Danish here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .da_common import plural
from .en_carom import FAULT_RULES

#: a foul's canonical id (``rules.carom.profiles.FOULS``) as the referee announces it
FOUL_WORDS: dict[str, str] = {
    "touch": "TOUCHÉ",
    "touch-remove-object": "TOUCHÉ (rørte en kugle for at fjerne noget)",
    "touch-moved": "TOUCHÉ (flyttede kuglerne)",
    "push": "skubbestød",
    "foot": "ingen fod på gulvet",
    "stool": "brugte en skammel uden tilladelse",
    "wrong-ball": "forkert kugle",
    "moving-balls": "stødte før kuglerne lå stille",
    "smoking": "røg under indgangen",
    "jump": "kugle sprang af bordet",
    "woodwork": "rørte træværket",
    "reste-dedans": "RESTE DEDANS",
    "opening-shot": "åbningsstødet fulgte ikke reglerne",
    "no-blame": "uden spillerens skyld",
    "poedel": "NUL",
    "masse": "massé eller piqué",
}
#: what a player chooses with a frozen ball (``rules.carom.profiles.Frozen.choices``)
CHOICES: dict[str, str] = {
    "outlay": "kuglerne på udlægget",
    "play": "spil på en kugle den ikke ligger an mod eller fra en fri bande",
    "masse": "spil fri med massé eller piqué",
    "spot": "stødkuglen og den anliggende kugle på deres punkter",
}
#: the forbidden zones' corners (``rules.carom.geometry.CORNERS``; the head is where one breaks)
CORNERS: dict[str, str] = {
    "head-left": "nederst til venstre", "head-right": "nederst til højre",
    "foot-right": "øverst til højre", "foot-left": "øverst til venstre",
}
#: the referee's calls that amend a shot
CALLS: dict[str, str] = {"carom": "carambole", "foul": "fejl"}
SCHEMES: dict[str, str] = {"de-bruijn": "de Bruijn-systemet"}
#: the disciplines' Danish names
DISCIPLINES: dict[str, str] = {"libre": "fripartie", "bandstoten": "enbande", "driebanden": "trebande"}


def _word(table: Mapping[str, str], value: Any) -> str:
    return table.get(str(value), str(value).replace("-", " "))


def _fault(p: Mapping[str, Any]) -> str:
    return "fejl: " + _word(FOUL_WORDS, p["foul"])


def _inning(p: Mapping[str, Any]) -> str:
    run = p["run"]
    return f"{run} {plural(run, 'carambole', 'caramboler')} i indgangen"


def _note(what: str) -> Any:
    """A note's sentence: the referee's own words, or what the rule is about."""
    return lambda p: str(p["text"]) if "text" in p else what


def _cushions(discipline: str) -> Any:
    name = DISCIPLINES[discipline]
    return lambda p: (f"{p['cushions']} {plural(p['cushions'], 'bande', 'bander')} før tredje kugle; "
                      f"{name} kræver {p['need']}")


def _frozen(p: Mapping[str, Any]) -> str:
    return "anliggende kugle: " + _word(CHOICES, p["choice"])


def _zone(name: str) -> Any:
    return lambda p: f"{name} ({_word(CORNERS, p['corner'])})"


TEMPLATES: dict[str, Any] = {
    **{f"{rule}:fault": _fault for rule in FAULT_RULES},
    "carom.opening-shot.direct:fault": "fejl: åbningsstødet gik ikke direkte på den røde",
    "carom.opening-shot.cushion:fault": "fejl: åbningsstødet gik ikke fra den røde via en eller flere bander",
    "carom.foul.woodwork:fault": "fejl: rørte træværket (kuglerne bliver liggende, hvor de ligger)",
    "carom.outlay:break": "{player} åbner fra udlægget",
    "carom.outlay:respot": "alle kugler på udlægget",
    "carom.referee.amend": lambda p: f"dommerens kendelse '{_word(CALLS, p['call'])}' retter sidste stød",
    "carom.frozen": _frozen,
    "carom.frozen.libre": _frozen,
    "carom.frozen.driebanden": _frozen,
    "carom.foul.no-blame": "en fejl spilleren ikke har skyld i: stødet tæller ikke",
    "carom.bandstoten": _cushions("bandstoten"),
    "carom.driebanden": _cushions("driebanden"),
    "carom.libre": _cushions("libre"),
    "carom.wrong-ball.counted": "dommeren talte carambolen med den forkerte kugle: den står ved magt",
    "carom.foul.carom-void": "carambolen i et fejlstød tæller ikke",
    "carom.carom": "carambole {made}",
    "carom.last-carom": "{player} har nået målet på {target}",
    "carom.poedel": "NUL {player}",
    "carom.inning.end": _inning,
    "carom.series": "serie på {run}",
    "carom.nastoot": "{player} spiller udligningsindgangen (fra udlægget)",
    "carom.draw": "begge har nået deres mål: uafgjort",
    "carom.match.won": "{player} vinder",
    "carom.shot-clock:timeout": "{player} tager en time-out: {seconds} s mere ({left} tilbage)",
    "carom.innings-limit": "de {innings} indgange er brugt: {player} vinder på andelen af målet",
    "carom.innings-limit:draw": "de {innings} indgange er brugt med samme andel af målet: uafgjort",
    "carom.match.won:short": "udligningsindgangen slog ikke til: {player} vinder",
    "carom.match-points.de-bruijn": lambda p: (f"matchpoint {p['p1']}-{p['p2']} "
                                               f"({_word(SCHEMES, p['scheme'])})"),
    "carom.zone": "en kugle har forladt zonen",
    "carom.zone.line": "en kugle på linjen regnes som i zonen",
    "carom.zone.dedans": _zone("DEDANS"),
    "carom.zone.entree": _zone("ENTREE"),
    "carom.countdown": "{player}: {left} mangler",
    # the referee's notes (``note`` calls)
    "carom.referee.warning": _note("dommeren advarer spilleren"),
    "carom.referee.show-ball": _note("dommeren viser spilleren hvilken kugle der er hans"),
    "carom.referee.duties": _note("dommerens pligter"),
    "carom.referee.change": _note("dommerskifte"),
    "carom.protest": _note("der protesteres til dommeren"),
    "carom.interruption": _note("kampen afbrydes"),
    "carom.schedule": _note("kampprogrammet"),
    "carom.board-decides": _note("bestyrelsen afgør"),
}
