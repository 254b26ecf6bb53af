"""Dutch templates: carom (libre, bandstoten, driebanden; keys as ``en_carom``'s).

The words are the club texts' (seeds 003 and 004): TOUCHE, RIJEN, UITGESPRONGEN, POEDEL,
ENTREE, DEDANS, RESTE DEDANS, beginpositie (acquit), nastoot, beurt, serie, arbiter; the
parameters that are words (a foul, a frozen ball's choice, a corner, a call) are put in
Dutch here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .en_carom import FAULT_RULES
from .nl_common import plural

#: a foul's canonical id (``rules.carom.profiles.FOULS``) as the arbiter announces it
FOUL_WORDS: dict[str, str] = {
    "touch": "TOUCHE",
    "touch-remove-object": "TOUCHE (bal aangeraakt om iets te verwijderen)",
    "touch-moved": "TOUCHE (ballen verplaatst)",
    "push": "RIJEN (gebiljardeerd)",
    "foot": "geen voet op de vloer",
    "stool": "bankje gebruikt zonder toestemming",
    "wrong-ball": "verkeerde bal",
    "moving-balls": "gestoten voor de ballen stil lagen",
    "smoking": "roken tijdens de beurt",
    "jump": "UITGESPRONGEN",
    "woodwork": "houtwerk geraakt",
    "reste-dedans": "RESTE DEDANS",
    "opening-shot": "afstoot niet volgens de regels",
    "no-blame": "zonder schuld van de speler",
    "poedel": "POEDEL",
    "masse": "massé of piqué",
}
#: what a player chooses with a frozen ball (``rules.carom.profiles.Frozen.choices``)
CHOICES: dict[str, str] = {
    "outlay": "de ballen in de beginpositie",
    "play": "spelen van een niet vastliggende bal of van losse band",
    "masse": "losspelen met een kopstoot (massé of piqué)",
    "spot": "speelbal en vastliggende bal op de acquits",
}
#: the forbidden zones' corners (``rules.carom.geometry.CORNERS``; the head is where one breaks)
CORNERS: dict[str, str] = {
    "head-left": "linksonder", "head-right": "rechtsonder",
    "foot-right": "rechtsboven", "foot-left": "linksboven",
}
#: the referee's calls that amend a shot
CALLS: dict[str, str] = {"carom": "carambole", "foul": "fout"}
SCHEMES: dict[str, str] = {"de-bruijn": "de Bruijn-systeem"}


def _word(table: Mapping[str, str], value: Any) -> str:
    return table.get(str(value), str(value).replace("-", " "))


def _fault(p: Mapping[str, Any]) -> str:
    return "fout: " + _word(FOUL_WORDS, p["foul"])


def _inning(p: Mapping[str, Any]) -> str:
    run = p["run"]
    return f"{run} {plural(run, 'carambole', 'caramboles')} in de beurt"


def _note(what: str) -> Any:
    """A note's sentence: the referee's own words, or what the rule is about."""
    return lambda p: str(p["text"]) if "text" in p else what


def _cushions(discipline: str) -> Any:
    return lambda p: (f"{p['cushions']} {plural(p['cushions'], 'band', 'banden')} voor de derde bal; "
                      f"{discipline} vraagt er {p['need']}")


def _frozen(p: Mapping[str, Any]) -> str:
    return "vastliggende bal: " + _word(CHOICES, p["choice"])


def _zone(name: str) -> Any:
    return lambda p: f"{name} ({_word(CORNERS, p['corner'])})"


TEMPLATES: dict[str, Any] = {
    **{f"{rule}:fault": _fault for rule in FAULT_RULES},
    "carom.opening-shot.direct:fault": "fout: afstoot niet rechtstreeks via de rode bal",
    "carom.opening-shot.cushion:fault": "fout: afstoot niet van de rode bal via één of meer banden",
    "carom.foul.woodwork:fault": "fout: houtwerk geraakt (de ballen blijven liggen waar ze liggen)",
    "carom.outlay:break": "{player} stoot af vanuit de beginpositie",
    "carom.outlay:respot": "alle ballen in de beginpositie",
    "carom.referee.amend": lambda p: f"de beslissing '{_word(CALLS, p['call'])}' van de arbiter "
                                     f"wijzigt de laatste stoot",
    "carom.frozen": _frozen,
    "carom.frozen.libre": _frozen,
    "carom.frozen.driebanden": _frozen,
    "carom.foul.no-blame": "een fout zonder schuld van de speler: de stoot telt niet",
    "carom.bandstoten": _cushions("bandstoten"),
    "carom.driebanden": _cushions("driebanden"),
    "carom.libre": _cushions("libre"),
    "carom.wrong-ball.counted": "de arbiter telde de carambole met de verkeerde bal: die blijft geldig",
    "carom.foul.carom-void": "de carambole van een foute stoot telt niet",
    "carom.carom": "carambole {made}",
    "carom.last-carom": "{player} heeft de partij van {target} uitgemaakt",
    "carom.poedel": "POEDEL {player}",
    "carom.inning.end": _inning,
    "carom.series": "serie van {run}",
    "carom.nastoot": "{player} speelt de nastoot (vanuit de beginpositie)",
    "carom.draw": "beide spelers hebben hun partij uitgemaakt: remise",
    "carom.match.won": "{player} wint",
    "carom.shot-clock:timeout": "{player} neemt een time-out: {seconds} s extra (nog {left})",
    "carom.innings-limit": ("de beurtenlimiet van {innings} is bereikt: {player} wint op het percentage "
                            "van de partij"),
    "carom.innings-limit:draw": "de beurtenlimiet van {innings} is bereikt, gelijk percentage: remise",
    "carom.match.won:short": "de nastoot bleef te kort: {player} wint",
    "carom.match-points.de-bruijn": lambda p: (f"wedstrijdpunten {p['p1']}-{p['p2']} "
                                               f"({_word(SCHEMES, p['scheme'])})"),
    "carom.zone": "een bal heeft de verboden zone verlaten",
    "carom.zone.line": "een bal op de lijn geldt als in de zone",
    "carom.zone.dedans": _zone("DEDANS"),
    "carom.zone.entree": _zone("ENTREE"),
    "carom.countdown": "{player}: nog {left}",
    # the referee's notes (``note`` calls)
    "carom.referee.warning": _note("de arbiter waarschuwt de speler"),
    "carom.referee.show-ball": _note("de arbiter wijst de speler zijn speelbal aan"),
    "carom.referee.duties": _note("de taken van de arbiter"),
    "carom.referee.change": _note("wisseling van arbiter"),
    "carom.protest": _note("protest bij de arbiter"),
    "carom.interruption": _note("de partij wordt onderbroken"),
    "carom.schedule": _note("het wedstrijdschema"),
    "carom.board-decides": _note("het bestuur beslist"),
}
