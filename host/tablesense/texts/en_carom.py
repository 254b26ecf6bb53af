"""English templates: carom (keys: rule id, or "rule id:what"; see ``tablesense.texts``).

``{player}`` and ``{opponent}`` are the players' names; the other fields are the ruling's
parameters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: the fouls' words (the ``foul`` parameter of a ``:fault`` ruling)
FOUL_WORDS: dict[str, str] = {
    "touch": "a ball touched", "touch-remove-object": "a ball touched to remove something",
    "touch-moved": "balls moved", "push": "push shot", "foot": "no foot on the floor",
    "stool": "the stool used without leave", "wrong-ball": "the wrong ball played",
    "moving-balls": "played before the balls were still", "smoking": "smoking in the inning",
    "jump": "a ball jumped off the table", "woodwork": "the woodwork touched",
    "reste-dedans": "RESTE DEDANS", "opening-shot": "the opening shot not by the rules",
    "no-blame": "no blame on the player", "poedel": "POEDEL", "masse": "massé or piqué",
}
#: what a player chooses with a frozen ball (``rules.carom.profiles.Frozen.choices``)
CHOICES: dict[str, str] = {
    "outlay": "the balls to the starting position", "play": "play a ball not frozen, or off the cushion",
    "masse": "play it loose with a massé or piqué", "spot": "cue ball and frozen ball on the spots",
}
#: the forbidden zones' corners (``rules.carom.geometry.CORNERS``; the head is where one breaks)
CORNERS: dict[str, str] = {
    "head-left": "bottom left", "head-right": "bottom right",
    "foot-right": "top right", "foot-left": "top left",
}
SCHEMES: dict[str, str] = {"de-bruijn": "de Bruijn system"}


def _word(table: Mapping[str, str], value: Any) -> str:
    return table.get(str(value), str(value).replace("-", " "))


def _fault(p: Mapping[str, Any]) -> str:
    return "fault: " + _word(FOUL_WORDS, p["foul"])


def _inning(p: Mapping[str, Any]) -> str:
    run = p["run"]
    return f"{run} carom{'' if run == 1 else 's'} in the inning"


def _note(what: str) -> Any:
    """A note's sentence: the referee's own words, or what the rule is about."""
    return lambda p: str(p["text"]) if "text" in p else what


def _cushions(discipline: str) -> Any:
    return f"{{cushions}} cushion(s) before the third ball; {discipline} needs {{need}}"


#: the rules a foul may be ruled under (``rules.carom.profiles``): each says "fault: ..."
FAULT_RULES = (
    "carom.foul.touch", "carom.foul.touch.remove-object", "carom.foul.touch.moved", "carom.foul.push",
    "carom.foul.foot", "carom.foul.stool", "carom.foul.wrong-ball", "carom.foul.moving-balls",
    "carom.foul.smoking", "carom.jump", "carom.jump.driebanden", "carom.dedans.reste",
    "carom.opening-shot.direct", "carom.opening-shot.cushion", "carom.foul.no-blame", "carom.poedel",
)

TEMPLATES: dict[str, Any] = {
    **{f"{rule}:fault": _fault for rule in FAULT_RULES},
    "carom.foul.woodwork:fault": "fault: woodwork (the balls stay where they lie)",
    "carom.outlay:break": "{player} breaks from the outlay",
    "carom.outlay:respot": "all balls to the outlay",
    "carom.referee.amend": "the referee's {call} call amends the last shot",
    "carom.frozen": lambda p: "frozen ball: " + _word(CHOICES, p["choice"]),
    "carom.frozen.libre": lambda p: "frozen ball: " + _word(CHOICES, p["choice"]),
    "carom.frozen.driebanden": lambda p: "frozen ball: " + _word(CHOICES, p["choice"]),
    "carom.foul.no-blame": "a fault the player is not to blame for: the shot does not count",
    "carom.bandstoten": _cushions("bandstoten"),
    "carom.driebanden": _cushions("driebanden"),
    "carom.libre": _cushions("libre"),
    "carom.wrong-ball.counted": "the referee counted the carom made with the wrong ball: it stands",
    "carom.foul.carom-void": "the carom of a faulty shot does not count",
    "carom.carom": "carom {made}",
    "carom.last-carom": "{player} has made the target of {target}",
    "carom.poedel": "POEDEL {player}",
    "carom.inning.end": _inning,
    "carom.series": "series of {run}",
    "carom.nastoot": "{player} plays the equalising inning (outlay)",
    "carom.draw": "both targets made: a draw",
    "carom.match.won": "{player} wins",
    "carom.shot-clock:timeout": "{player} takes a time-out: {seconds} s more ({left} left)",
    "carom.innings-limit": "the {innings} innings are up: {player} wins on the share of the target",
    "carom.innings-limit:draw": "the {innings} innings are up with the same share of the target: a draw",
    "carom.match.won:short": "the equalising inning fell short: {player} wins",
    "carom.match-points.de-bruijn": lambda p: (f"match points {p['p1']}-{p['p2']} "
                                               f"({_word(SCHEMES, p['scheme'])})"),
    "carom.zone": "a ball has left the zone",
    "carom.zone.line": "a ball on the line counts as in the zone",
    "carom.zone.dedans": lambda p: f"DEDANS ({_word(CORNERS, p['corner'])})",
    "carom.zone.entree": lambda p: f"ENTREE ({_word(CORNERS, p['corner'])})",
    "carom.countdown": "{player}: {left} to go",
    # the referee's notes (``note`` calls)
    "carom.referee.warning": _note("the referee warns the player"),
    "carom.referee.show-ball": _note("the referee shows the player his ball"),
    "carom.referee.duties": _note("the referee's duties"),
    "carom.referee.change": _note("the referee changes"),
    "carom.protest": _note("a protest is made to the referee"),
    "carom.interruption": _note("the match is interrupted"),
    "carom.schedule": _note("the match schedule"),
    "carom.board-decides": _note("the board decides"),
}
