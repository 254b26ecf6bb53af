"""Danish templates: golf billiards (golfbillard; keys as ``en_golf``'s, same placeholders).

The words are the scoreboard's (``web/i18n/da.json``): mål, erstatningspunkt, pind,
zonespil, forsvars- and angrebstrekant, skudlinje; a frame is a ``sæt`` in a sentence.
A name owning a ball is put in the genitive (``da_common.genitive``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .da_common import genitive
from .golf_fouls import FoulPhrases, foul_templates

#: what each foul is (seeds/golf.md, in Danish)
FOUL_WORDS: dict[str, str] = {
    "golf.foul.foot": "spillede uden en fod på gulvet",
    "golf.foul.jump": "spillede direkte over pinde eller kugler",
    "golf.foul.lift": "løftede kuglen over den nærmeste bande fra langbandezonen",
    "golf.foul.hard-shot": "hårdt, hurtigt stød mod målet fra under skudlinjen",
    "golf.foul.aim-behind": "stillede sig bag en af modstanderens kugler",
    "golf.foul.opponent-ball": "spillede med en af modstanderens kugler",
    "golf.foul.not-at-rest": "sigtede eller spillede før kuglerne lå stille",
    "golf.foul.touch": "rørte en kugle",
    "golf.foul.touch.no-shot": "rørte en kugle uden at spille et stød",
    "golf.foul.touch.own-ball": "rørte en af sine egne kugler i zonespillet",
    "golf.foul.touch.opponent-ball": "rørte en af modstanderens kugler i zonespillet",
    "golf.foul.hold.own-ball": "holdt en af sine egne kugler tilbage, puffede til den eller afbøjede den",
    "golf.foul.hold.opponent-ball": "holdt en af modstanderens kugler tilbage, puffede til den eller "
                                    "afbøjede den",
    "golf.foul.push": "holdt køspidsen mod kuglen (skubbestød)",
    "golf.foul.touching-ball": "flyttede en kugle der lå an, uden at spille væk fra den",
    "golf.foul.push-through": "skubbede igennem på en kugle der ligger an mod den forreste eller yderste "
                              "sidepind",
    "golf.foul.own-ball": "spillede sin egen kugle direkte på en anden af sine egne kugler",
    "golf.triangle.defensive": "lod sin kugle blive i den store forsvarstrekant",
    "golf.triangle.defensive.several": "fik ingen af sine kugler ud af den store forsvarstrekant",
    "golf.triangle.attacking": "endte i den store angrebstrekant, mens forsvarerens kugle ligger i den "
                               "lille trekant",
    "golf.zone.leave": "ingen kugle forlod sin zone i zonespillet",
    "golf.duo.opening": "den forkerte spiller i duoen tog åbningsstødet",
    "golf.duo.order": "spillede uden for duoens rækkefølge",
    "golf.duo.consult": "makkeren pegede, gestikulerede eller kom inden for 1 meter",
    "golf.own-goal": "spillede sin egen kugle i sit eget mål (dømt af dommeren)",
    "golf.clock": "spillede ikke inden for tiden (50 s, TIME, 10 s)",
}


PHRASES: FoulPhrases = {
    "turn_lost": ': turen er tabt', "back": ', de flyttede kugler lægges tilbage',
    "played_spot": ', den spillede kugle kommer på et erstatningspunkt',
    "points_out": ', {opponent} udpeger en kugle, der kommer på et erstatningspunkt',
    "touched_spot": ', den rørte kugle kommer på et erstatningspunkt',
    "touched_goal": ', den rørte kugle går i målet og tæller for {opponent}',
    "triangle": ', kuglen kommer på et erstatningspunkt',
    "several": ', alle {balls} kugler kommer på erstatningspunkter',
}


def _opens(p: Mapping[str, Any]) -> str:
    """Who opens: in a duo the member who plays (``member``: 0 or 1 of the side's names)."""
    who = str(p["player"])
    member = p.get("member")
    if isinstance(member, int):
        names = who.split(" & ")
        who = names[member] if member < len(names) else who
    return f"{who} åbner sæt {p['frame']}"


def _double_finish(p: Mapping[str, Any]) -> str:
    return (f"begge sidste kugler faldt i samme stød; {genitive(p['player'])} faldt først, "
            f"{p.get('gap_us', '?')} µs tidligere")


def _goal_opponent_ball(p: Mapping[str, Any]) -> str:
    return f"{genitive(p['player'])} kugle i mål {p['goal']} tæller for {p['player']}; turen skifter"


def _opponent_off(tail: str) -> Any:
    return lambda p: (f"{genitive(p['opponent'])} kugle af bordet går i målet; den spillede kugle "
                      f"kommer på et erstatningspunkt{tail}")


def _one_one(p: Mapping[str, Any]) -> str:
    return (f"ved 1/1 sendte {p['player']} {genitive(p['opponent'])} kugle af bordet og scorede: "
            f"{p['player']} taber sættet")


def _spot_choice(p: Mapping[str, Any]) -> str:
    return f"{p['player']} vælger erstatningspunkt {p['spot']} til {genitive(p['ball'])} kugle"


def _fallback_chosen(p: Mapping[str, Any]) -> str:
    return f"punkt 1-3 kan ikke bruges: {genitive(p['ball'])} kugle på erstatningspunkt {p['spot']}"


_GOAL_LOST = "; det gyldige mål i dette stød koster turen"

TEMPLATES: dict[str, Any] = {
    # questions
    "golf.goal:whose": "Hvis kugle faldt i mål {goal}?",
    "golf.off-table.own:whose": "Hvis kugle røg af bordet?",
    # the count
    "golf.goal": "gyldigt mål i mål {goal}: {player} bliver ved bordet",
    "golf.goal:turn-lost": "gyldigt mål i mål {goal}: det tæller, men stødet koster {player} turen",
    "golf.own-goal:count": "egen kugle i eget mål {goal}: tæller ikke, kuglen kommer på et "
                           "erstatningspunkt, turen skifter",
    "golf.goal.opponent-ball": _goal_opponent_ball,
    "golf.goal.edge": "kuglen faldt først efter at den lå stille: den tæller ikke og lægges tilbage på "
                      "målkanten",
    "golf.goal.edge:late": "kuglen faldt i mål {goal} efter at kuglerne lå stille: den tæller ikke og "
                           "lægges tilbage på målkanten",
    "golf.turn": "intet gyldigt mål med egen kugle: turen går til {opponent}",
    # off the table, wedged
    "golf.off-table.own": "egen kugle af bordet: på et erstatningspunkt",
    "golf.off-table.own:goal-lost": "egen kugle af bordet: på et erstatningspunkt" + _GOAL_LOST,
    "golf.off-table.opponent": _opponent_off(""),
    "golf.off-table.opponent:goal-lost": _opponent_off(_GOAL_LOST),
    "golf.off-table.one-one": _one_one,
    "golf.off-table.on-cushion": "kuglen blev liggende på banden, en målpind eller målhætten: det tæller "
                                 "som af bordet",
    "golf.off-table.rail-return": "kuglen kom tilbage på dugen fra rammen: ingen straf",
    "golf.wedged.attacking-goal": "kilet fast mellem pindene i det mål, den angriber, fri af dugen: "
                                  "et gyldigt mål",
    "golf.wedged.defending-goal": "kilet fast mellem pindene i sit eget mål: på et erstatningspunkt",
    "golf.wedged.cushion": "kilet fast mellem en pind og den korte bande: frigjort og lagt løst",
    # replacement spots
    "golf.spot.choice": _spot_choice,
    "golf.spot.fallback": "erstatningspunkt 1-3 er optaget: kuglen kommer på erstatningspunkt {spot}",
    "golf.spot.fallback:chosen": _fallback_chosen,
    "golf.spot.fallback:named": _spot_choice,
    "golf.spot.repeat": "fejl fra erstatningspunkt {from_spot}: kuglen kommer på erstatningspunkt {spot}",
    # zone play, frames, the match
    "golf.zone.play": "en spiller har én kugle tilbage: zonespillet begynder",
    "golf.frame.double-finish": _double_finish,
    "golf.frame.opening": _opens,
    "golf.duo.deciding": _opens,
    "golf.frame.opening:second": "sæt {frame}: {player} åbner; den anden spiller åbner andet sæt",
    "golf.frame.opening:deciding": "sæt {frame}: {player} åbner; afgørende sæt: åbningen afgøres igen "
                                   "(et 'start'-kald), som standard som i sæt 1",
}
# the score after the frame (best of three): ``what`` is the score, "1-0" .. "2-1"
for _a, _b in ((1, 0), (0, 1), (1, 1), (2, 0), (0, 2), (2, 1), (1, 2)):
    TEMPLATES[f"golf.frame.won:{_a}-{_b}"] = f"sæt {{frame}} til {{player}} ({_a}-{_b})"
    if 2 in (_a, _b):
        TEMPLATES[f"golf.match.won:{_a}-{_b}"] = f"{{player}} vinder kampen {_a}-{_b}"
TEMPLATES.update(foul_templates(FOUL_WORDS, PHRASES))
