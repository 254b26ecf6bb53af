"""Dutch templates: golf billiards (golfbiljart; keys as ``en_golf``'s, same placeholders).

The words are the scoreboard's (``web/i18n/nl.json``): doel, vervangplek, pin, zonespel,
verdedigings- and aanvalsdriehoek, schotlijn; a frame is a ``spel`` in a sentence. A
foul's sentence is built from what it costs (``rules.golf.fouls``), as in English.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .golf_fouls import FoulPhrases, foul_templates

#: what each foul is (seeds/golf.md, in Dutch)
FOUL_WORDS: dict[str, str] = {
    "golf.foul.foot": "gespeeld zonder een voet op de grond",
    "golf.foul.jump": "rechtstreeks over pinnen of ballen gespeeld",
    "golf.foul.lift": "de bal vanuit de langebandzone over de dichtstbijzijnde band getild",
    "golf.foul.hard-shot": "harde, snelle stoot op het doel van onder de schotlijn",
    "golf.foul.aim-behind": "achter een bal van de tegenstander gaan staan",
    "golf.foul.opponent-ball": "met een bal van de tegenstander gespeeld",
    "golf.foul.not-at-rest": "gemikt of gespeeld voor de ballen stil lagen",
    "golf.foul.touch": "een bal aangeraakt",
    "golf.foul.touch.no-shot": "een bal aangeraakt zonder een stoot te spelen",
    "golf.foul.touch.own-ball": "in het zonespel een eigen bal aangeraakt",
    "golf.foul.touch.opponent-ball": "in het zonespel een bal van de tegenstander aangeraakt",
    "golf.foul.hold.own-ball": "een eigen bal tegengehouden, aangeduwd of afgebogen",
    "golf.foul.hold.opponent-ball": "een bal van de tegenstander tegengehouden, aangeduwd of afgebogen",
    "golf.foul.push": "de pomerans tegen de bal gehouden (duwstoot)",
    "golf.foul.touching-ball": "een rakende bal bewogen zonder ervan weg te spelen",
    "golf.foul.push-through": "doorgeduwd op een bal tegen de voorste of buitenste zijpin",
    "golf.foul.own-ball": "de eigen bal rechtstreeks op een andere eigen bal gespeeld",
    "golf.triangle.defensive": "de bal in de grote verdedigingsdriehoek laten liggen",
    "golf.triangle.defensive.several": "geen van de ballen uit de grote verdedigingsdriehoek gespeeld",
    "golf.triangle.attacking": "in de grote aanvalsdriehoek geëindigd terwijl de bal van de verdediger "
                               "in de kleine driehoek ligt",
    "golf.zone.leave": "in het zonespel verliet geen bal zijn zone",
    "golf.duo.opening": "de verkeerde speler van het duo nam de openingsstoot",
    "golf.duo.order": "buiten de volgorde van het duo gespeeld",
    "golf.duo.consult": "de partner wees, gebaarde of kwam binnen 1 meter",
    "golf.own-goal": "de eigen bal in het eigen doel gespeeld (gemeld door de scheidsrechter)",
    "golf.clock": "niet binnen de tijd gespeeld (50 s, TIME, 10 s)",
}


PHRASES: FoulPhrases = {
    "turn_lost": ': beurt verloren', "back": ', de verplaatste ballen worden teruggelegd',
    "played_spot": ', de gespeelde bal gaat naar een vervangplek',
    "points_out": ', {opponent} wijst een bal aan die naar een vervangplek gaat',
    "touched_spot": ', de aangeraakte bal gaat naar een vervangplek',
    "touched_goal": ', de aangeraakte bal gaat in het doel en telt voor {opponent}',
    "triangle": ', de bal gaat naar een vervangplek',
    "several": ', alle {balls} ballen gaan naar vervangplekken',
}


def _opens(p: Mapping[str, Any]) -> str:
    """Who opens: in a duo the member who plays (``member``: 0 or 1 of the side's names)."""
    who = str(p["player"])
    member = p.get("member")
    if isinstance(member, int):
        names = who.split(" & ")
        who = names[member] if member < len(names) else who
    return f"{who} opent spel {p['frame']}"


def _double_finish(p: Mapping[str, Any]) -> str:
    return (f"beide laatste ballen vielen in één stoot; die van {p['player']} viel eerst, "
            f"{p.get('gap_us', '?')} µs eerder")


_GOAL_LOST = "; het geldige doelpunt van deze stoot kost de beurt"
_OPPONENT_OFF = ("de bal van {opponent} van de tafel gaat in het doel; de gespeelde bal gaat naar een "
                 "vervangplek")
_SPOT_CHOICE = "{player} kiest vervangplek {spot} voor de bal van {ball}"

TEMPLATES: dict[str, Any] = {
    # questions
    "golf.goal:whose": "Wiens bal viel in doel {goal}?",
    "golf.off-table.own:whose": "Wiens bal ging van de tafel?",
    # the count
    "golf.goal": "geldig doelpunt in doel {goal}: {player} blijft aan tafel",
    "golf.goal:turn-lost": "geldig doelpunt in doel {goal}: het telt, maar deze stoot kost {player} de beurt",
    "golf.own-goal:count": "eigen bal in eigen doel {goal}: telt niet, de bal gaat naar een vervangplek, "
                           "de beurt gaat over",
    "golf.goal.opponent-ball": "de bal van {player} in doel {goal} telt voor {player}; de beurt gaat over",
    "golf.goal.edge": "de bal viel pas nadat hij stil lag: hij telt niet en wordt teruggelegd op de rand "
                      "van het doel",
    "golf.goal.edge:late": "de bal viel in doel {goal} nadat de ballen stil lagen: hij telt niet en wordt "
                           "teruggelegd op de rand van het doel",
    "golf.turn": "geen geldig doelpunt met een eigen bal: de beurt gaat naar {opponent}",
    # off the table, wedged
    "golf.off-table.own": "eigen bal van de tafel: naar een vervangplek",
    "golf.off-table.own:goal-lost": "eigen bal van de tafel: naar een vervangplek" + _GOAL_LOST,
    "golf.off-table.opponent": _OPPONENT_OFF,
    "golf.off-table.opponent:goal-lost": _OPPONENT_OFF + _GOAL_LOST,
    "golf.off-table.one-one": "bij 1/1 speelde {player} de bal van {opponent} van de tafel en scoorde: "
                              "{player} verliest het spel",
    "golf.off-table.on-cushion": "de bal bleef op de band, een doelpin of de doelkap liggen: hij geldt als "
                                 "van de tafel",
    "golf.off-table.rail-return": "de bal kwam van de rand terug op het laken: geen straf",
    "golf.wedged.attacking-goal": "klem tussen de pinnen van het doel dat hij aanvalt, los van het laken: "
                                  "een geldig doelpunt",
    "golf.wedged.defending-goal": "klem tussen de pinnen van het eigen doel: naar een vervangplek",
    "golf.wedged.cushion": "klem tussen een pin en de korte band: losgemaakt en los neergelegd",
    # replacement spots
    "golf.spot.choice": _SPOT_CHOICE,
    "golf.spot.fallback": "vervangplekken 1-3 zijn bezet: de bal gaat naar vervangplek {spot}",
    "golf.spot.fallback:chosen": "plekken 1-3 onbruikbaar: de bal van {ball} op vervangplek {spot}",
    "golf.spot.fallback:named": _SPOT_CHOICE,
    "golf.spot.repeat": "fout vanaf vervangplek {from_spot}: de bal gaat naar vervangplek {spot}",
    # zone play, frames, the match
    "golf.zone.play": "een speler heeft nog één bal: het zonespel begint",
    "golf.frame.double-finish": _double_finish,
    "golf.frame.opening": _opens,
    "golf.duo.deciding": _opens,
    "golf.frame.opening:second": "spel {frame}: {player} opent; de andere speler opent het tweede spel",
    "golf.frame.opening:deciding": "spel {frame}: {player} opent; beslissend spel: wie opent wordt opnieuw "
                                   "bepaald (een 'start'-beslissing), standaard zoals in spel 1",
}
# the score after the frame (best of three): ``what`` is the score, "1-0" .. "2-1"
for _a, _b in ((1, 0), (0, 1), (1, 1), (2, 0), (0, 2), (2, 1), (1, 2)):
    TEMPLATES[f"golf.frame.won:{_a}-{_b}"] = f"spel {{frame}} voor {{player}} ({_a}-{_b})"
    if 2 in (_a, _b):
        TEMPLATES[f"golf.match.won:{_a}-{_b}"] = f"{{player}} wint de partij {_a}-{_b}"
TEMPLATES.update(foul_templates(FOUL_WORDS, PHRASES))
