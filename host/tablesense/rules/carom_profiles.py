"""Carom club profiles, foul names, targets and match-point schemes (seeds/carom.md).

Two clubs' texts become two profiles: ``kampioen`` (seed 003, the club championship
rules, alias ``club``) and ``liemers`` (seed 004, the O.B.B. "Liemers" rules).
Everything here is a pure lookup or a small calculation.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal
from typing import Any

from ..errors import IllegalCall

PROFILES = ("kampioen", "liemers")
PROFILE_ALIASES = {
    "club": "kampioen", "kampioen": "kampioen", "003": "kampioen", "clubkampioenschap": "kampioen",
    "liemers": "liemers", "obb": "liemers", "004": "liemers",
}
DEFAULT_PROFILE = "kampioen"

#: the ball each player plays (docs/events.md): p1 the yellow (marked), p2 the white
CUE_BALL = {"p1": "yellow", "p2": "white"}
#: "carom.equipment": two white balls (one marked, here yellow) and one red
CAROM_BALLS = frozenset({"yellow", "white", "red"})

#: countdown ("carom.countdown", liemers): caroms to go that the referee announces
COUNTDOWN_FROM = {"libre": 5, "bandstoten": 5, "driebanden": 3}
#: cushions the cue ball needs before the third ball
CUSHIONS_NEEDED = {"libre": 0, "bandstoten": 1, "driebanden": 3}
DISCIPLINE_RULE = {"libre": "carom.libre", "bandstoten": "carom.bandstoten", "driebanden": "carom.driebanden"}


@dataclass(frozen=True, slots=True)
class Foul:
    """One kind of fault: its catalogue id and the profiles whose text names it."""

    rule: str
    profiles: tuple[str, ...] = PROFILES
    jump: bool = False


FOULS: dict[str, Foul] = {
    "touch": Foul("carom.foul.touch"),
    "touch-remove-object": Foul("carom.foul.touch.remove-object"),
    "touch-moved": Foul("carom.foul.touch.moved"),
    "push": Foul("carom.foul.push"),
    "foot": Foul("carom.foul.foot"),
    "stool": Foul("carom.foul.stool", ("liemers",)),
    "wrong-ball": Foul("carom.foul.wrong-ball"),
    "moving-balls": Foul("carom.foul.moving-balls", ("liemers",)),
    "smoking": Foul("carom.foul.smoking", ("liemers",)),
    "jump": Foul("carom.jump", jump=True),
    "woodwork": Foul("carom.jump", jump=True),
    "reste-dedans": Foul("carom.dedans.reste"),
    "opening-shot": Foul("carom.opening-shot.direct"),
    "no-blame": Foul("carom.foul.no-blame"),
    "poedel": Foul("carom.poedel"),
}

#: what referees and scenario writers call the fouls (Dutch words of the seeds, English guesses);
#: matched after lower-casing and dropping ``_``, ``-``, ``.`` and spaces ("off_table" = "off-table")
FOUL_SYNONYMS = {
    "touche": "touch", "hand": "touch", "chalk": "touch", "touched": "touch", "touching": "touch",
    "touch-ball": "touch", "touched-ball": "touch", "ball-touched": "touch", "clothing": "touch",
    "kledingstuk": "touch", "dropped-chalk": "touch", "chalk-dropped": "touch", "krijt": "touch",
    "aanraken": "touch", "aanraking": "touch",
    "remove-object": "touch-remove-object", "remove": "touch-remove-object",
    "moved": "touch-moved", "moved-balls": "touch-moved", "move": "touch-moved", "moved-ball": "touch-moved",
    "verplaatsen": "touch-moved",
    "rijen": "push", "biljarderen": "push", "gebiljardeerd": "push", "pushing": "push",
    "push-shot": "push", "pushed": "push", "push-stroke": "push", "double-hit": "push",
    "double-contact": "push", "double-touch": "push",
    "no-foot-on-floor": "foot", "foot-off-floor": "foot", "no-foot": "foot", "feet": "foot",
    "feet-off-floor": "foot", "foot-fault": "foot", "no-feet-on-floor": "foot", "feet-off-ground": "foot",
    "foot-off-ground": "foot", "no-foot-on-ground": "foot", "voet": "foot", "geen-voet": "foot",
    "both-feet-off-floor": "foot", "feet-off-the-floor": "foot", "foot-off-the-floor": "foot",
    "foot-on-floor": "foot", "one-foot-on-floor": "foot",
    "bench": "stool", "bankje": "stool",
    "verkeerde-bal": "wrong-ball", "wrong": "wrong-ball", "wrong-cue-ball": "wrong-ball",
    "played-wrong-ball": "wrong-ball", "opponents-ball": "wrong-ball", "wrongball": "wrong-ball",
    "jumped": "jump", "uitspringen": "jump", "uitgesprongen": "jump", "off-table": "jump",
    "ball-off-table": "jump", "jumped-ball": "jump", "ball-jumped": "jump", "jump-ball": "jump",
    "off": "jump", "left-table": "jump", "jump-driebanden": "jump", "off-the-table": "jump",
    "ball-off": "jump", "jump-off-table": "jump", "ball-left-table": "jump", "out-of-table": "jump",
    "ball-out": "jump", "jumped-off-table": "jump",
    "frame": "woodwork", "omlijsting": "woodwork", "houtwerk": "woodwork", "wood": "woodwork",
    "hout": "woodwork", "rail": "woodwork", "wooden-rail": "woodwork", "touched-woodwork": "woodwork",
    "woodwork-touched": "woodwork", "houtwerk-geraakt": "woodwork",
    "dedans": "reste-dedans", "dedans-reste": "reste-dedans", "reste": "reste-dedans",
    "zone": "reste-dedans", "forbidden-zone": "reste-dedans", "verboden-zone": "reste-dedans",
    "zone-fault": "reste-dedans",
    "afstoot": "opening-shot", "opening": "opening-shot", "break": "opening-shot",
    "opening-shot-direct": "opening-shot", "opening-shot-cushion": "opening-shot", "acquit": "opening-shot",
    "moving": "moving-balls", "not-at-rest": "moving-balls", "balls-moving": "moving-balls",
    "moving-ball": "moving-balls", "before-rest": "moving-balls", "played-before-rest": "moving-balls",
    "smoke": "smoking", "cigarette": "smoking", "cigar": "smoking", "pipe": "smoking", "sigaret": "smoking",
    "not-to-blame": "no-blame", "no-fault": "no-blame", "blameless": "no-blame", "interference": "no-blame",
    "outside-interference": "no-blame", "passer-by": "no-blame", "geen-schuld": "no-blame",
    "zonder-schuld": "no-blame",
    "nul": "poedel", "miss": "poedel", "no-carom": "poedel", "invalid-carom": "poedel",
}


def _compact(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch not in "-_. ")


#: every accepted spelling, compacted, to its foul key
_FOUL_LOOKUP: dict[str, str] = {}


_MASSE = frozenset({"masse", "massé", "pique", "piqué", "pikeren", "masseren"})
MASSE_RULE = "carom.masse"


#: words that name a profile inside a longer name ("O.B.B. Liemers", "seed-004", "club championship")
PROFILE_WORDS = (("liemers", "liemers"), ("obb", "liemers"), ("004", "liemers"), ("zevenaar", "liemers"),
                 ("kampioen", "kampioen"), ("003", "kampioen"), ("club", "kampioen"))


def resolve_profile(name: str | None) -> str:
    """The profile a setup names: an alias, or a name that holds exactly one profile's word."""
    if name is None:
        return DEFAULT_PROFILE
    key = name.strip().lower()
    if key in PROFILE_ALIASES:
        return PROFILE_ALIASES[key]
    compact = "".join(ch for ch in key if ch.isalnum())
    found = {profile for word, profile in PROFILE_WORDS if word in compact}
    if len(found) == 1:
        return found.pop()
    raise IllegalCall(f"unknown carom profile {name!r} (profiles: kampioen (alias club), liemers)")


def _unaccented(text: str) -> str:
    """``text`` without diacritics: "touché" is "touche", "massé" is "masse"."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


def normalise_foul(name: str, profile: str) -> str:
    """The short foul name for what a referee typed, or ``IllegalCall`` listing the known ones."""
    key = _unaccented(name).strip().lower().replace("_", "-").replace(" ", "-")
    for prefix in ("carom.", "carom-"):
        if key.startswith(prefix):
            key = key[len(prefix):]
    key = key.replace(".", "-")
    if key.startswith("foul-"):
        key = key[len("foul-"):]
    if key in _MASSE:
        if profile == "kampioen":
            raise IllegalCall("massé and piqué are allowed at the player's own risk in profile kampioen "
                              f"({MASSE_RULE}): not a fault")
        raise IllegalCall("massé and piqué are no fault in profile liemers")
    key = _FOUL_LOOKUP.get(_compact(key), key)
    foul = FOULS.get(key)
    if foul is None or profile not in foul.profiles:
        known = ", ".join(k for k, f in FOULS.items() if profile in f.profiles)
        what = "unknown foul" if foul is None else f"not a foul in profile {profile}"
        raise IllegalCall(f"{what}: {name!r} (fouls: {known})")
    return key


_FOUL_LOOKUP.update({_compact(k): k for k in FOULS})
_FOUL_LOOKUP.update({_compact(k): v for k, v in FOUL_SYNONYMS.items()})


#: liemers (004 A, E): touching the woodwork along the cushions is a fault of its own, the balls
#: stay where they lie; only balls off the table (or frozen) go back to the starting position
WOODWORK_RULE = "carom.foul.woodwork"


def respots(key: str, profile: str) -> bool:
    """Whether the foul ``key`` is a jump that puts balls back on their spots.

    A ball off the table is one in both profiles. Touching the woodwork is one only in
    kampioen (003 Art. 4: "als hij buiten het biljart terecht is gekomen of de omlijsting
    heeft geraakt"); under liemers it is a fault that leaves the balls where they lie
    (004 A: "het raken van het houtwerk langs de banden"; E: "In al deze gevallen blijven
    de ballen in de positie, die voor het maken van de fout is ontstaan").
    """
    if key == "woodwork":
        return profile != "liemers"
    return FOULS[key].jump


def foul_rule(key: str, profile: str, discipline: str) -> str:
    """The catalogue id a foul is ruled under in this profile and discipline."""
    if key == "opening-shot":
        return "carom.opening-shot.direct" if profile == "kampioen" else "carom.opening-shot.cushion"
    if key == "woodwork" and profile == "liemers":
        return WOODWORK_RULE
    if FOULS[key].jump and profile == "liemers" and discipline == "driebanden":
        return "carom.jump.driebanden"
    return FOULS[key].rule


# --- targets ("carom.target.moyenne", "carom.target.minimum") ----------------------------

ROUNDINGS = {"half-up": ROUND_HALF_UP, "down": ROUND_FLOOR, "up": ROUND_CEILING}
ROUNDING_ALIASES = {"halfup": "half-up", "round": "half-up", "nearest": "half-up", "normal": "half-up",
                    "down": "down", "floor": "down",
                    "up": "up", "ceil": "up", "ceiling": "up"}


def _by_alias(name: Any, aliases: dict[str, str], known: Any, what: str) -> str:
    """``name`` written loosely (case, spaces, '_' or '-') looked up in ``aliases``."""
    key = "".join(ch for ch in str(name).lower() if ch.isalnum())
    found = aliases.get(key)
    if found is None:
        raise IllegalCall(f"setup: unknown {what} {name!r} ({what}s: {', '.join(known)})")
    return found


def resolve_rounding(name: Any) -> str:
    """A rounding by name (``half_up``, ``floor``, ``ceil`` ...), or ``IllegalCall``."""
    return _by_alias(name, ROUNDING_ALIASES, ROUNDINGS, "rounding")
MULTIPLIER = 25
MINIMUM_TARGET = 20


def target_from_moyenne(moyenne: float, rounding: str = "half-up", multiplier: float = MULTIPLIER,
                        minimum: int = MINIMUM_TARGET) -> int:
    """Moyenne × 25, rounded (half up by default; "down" or "up"), never below 20."""
    if rounding not in ROUNDINGS:
        raise IllegalCall(f"unknown rounding {rounding!r} (roundings: {', '.join(ROUNDINGS)})")
    exact = Decimal(str(moyenne)) * Decimal(str(multiplier))
    value = int(exact.quantize(Decimal(1), rounding=ROUNDINGS[rounding]))
    return max(minimum, value)


#: the profiles whose text sets a minimum target for its championship matches (003 Art. 11.5)
MINIMUM_PROFILES = ("kampioen",)
MINIMUM_RULE = "carom.target.minimum"


def championship_match(profile: str, extra: dict[str, Any]) -> bool:
    """A match for the club championship's competition (003 Art. 11.1 "Wedstrijden voor de
    onderlinge competitie"): a ``kampioen`` setup whose ``competition`` names the competition
    (or is ``true``). Other matches at the club (a friendly, a demonstration) set what target
    they like; 004 (liemers) has no minimum."""
    if profile not in MINIMUM_PROFILES:
        return False
    marker = extra.get("competition")
    return marker is True or (isinstance(marker, str) and bool(marker.strip()))


def below_minimum(targets: dict[str, int], minimum: int = MINIMUM_TARGET) -> str | None:
    """``MINIMUM_RULE`` (003 Art. 11.5 "Het minimaal aantal te behalen caramboles bedraagt 20"):
    why explicit targets are refused, naming the first one below the minimum; None when
    every target is at least ``minimum``. ``targets`` maps a player (or a name) to his target."""
    for who, value in targets.items():
        if value < minimum:
            return (f"target {value} for {who} is below the minimum of {minimum} caroms of a club "
                    f"championship match ({MINIMUM_RULE}, 003 Art. 11.5)")
    return None


def targets_for(setup_targets: dict[str, int] | None, moyennes: dict[str, float] | None,
                extra: dict[str, Any], championship: bool = False) -> tuple[tuple[int, int], tuple[str, str]]:
    """The two targets and, per player, the rule that set each. In a ``championship`` match
    explicit targets below the minimum are refused (``MINIMUM_RULE``); targets from the
    moyennes are raised to it."""
    rounding = resolve_rounding(extra.get("rounding", "half-up"))
    multiplier = extra.get("multiplier", MULTIPLIER)
    minimum = extra.get("minimum", MINIMUM_TARGET)
    if not isinstance(multiplier, (int, float)) or isinstance(multiplier, bool) or multiplier <= 0:
        raise IllegalCall(f"setup: multiplier must be a positive number, not {multiplier!r}")
    if not isinstance(minimum, int) or isinstance(minimum, bool) or minimum < 1:
        raise IllegalCall(f"setup: minimum must be a positive integer, not {minimum!r}")
    if championship and setup_targets:
        why = below_minimum({p: int(v) for p, v in setup_targets.items()}, minimum)
        if why is not None:
            raise IllegalCall(f"setup: {why}")
    out: list[int] = []
    how: list[str] = []
    for p in ("p1", "p2"):
        if setup_targets and p in setup_targets:
            out.append(int(setup_targets[p]))
            how.append("carom.target.play-out")
        elif moyennes and p in moyennes:
            out.append(target_from_moyenne(moyennes[p], rounding, multiplier, minimum))
            how.append("carom.target.moyenne")
        else:
            out.append(minimum)
            how.append("carom.target.minimum")
    return (out[0], out[1]), (how[0], how[1])


# --- match points ("carom.match-points.de-bruijn") ----------------------------------------

SCHEMES = ("de-bruijn", "win-draw-loss", "percentage")
SCHEME_ALIASES = {"debruijn": "de-bruijn", "bruijn": "de-bruijn", "windrawloss": "win-draw-loss",
                  "wdl": "win-draw-loss", "210": "win-draw-loss",
                  "percentage": "percentage", "percent": "percentage", "pct": "percentage"}


def resolve_scheme(name: Any) -> str:
    """A match-point scheme by name: ``de Bruijn`` = ``de_bruijn`` = ``de-bruijn``."""
    return _by_alias(name, SCHEME_ALIASES, SCHEMES, "match-point scheme")


def match_points(scheme: str, winner: str | None, made: tuple[int, int],
                 targets: tuple[int, int]) -> tuple[int, int]:
    """Points for (p1, p2) of a finished match under ``scheme``."""
    def share(i: int, scale: int) -> int:
        return math.floor(min(made[i], targets[i]) * scale / targets[i])

    if scheme == "de-bruijn":
        if winner == "draw":
            return (10, 10)
        return tuple(11 if winner == p else min(9, share(i, 10))  # type: ignore[return-value]
                     for i, p in enumerate(("p1", "p2")))
    if scheme == "win-draw-loss":
        if winner == "draw":
            return (1, 1)
        return (2, 0) if winner == "p1" else (0, 2)
    if scheme == "percentage":
        return (share(0, 100), share(1, 100))
    raise IllegalCall(f"unknown match-point scheme {scheme!r} (schemes: {', '.join(SCHEMES)})")
