"""The two club profiles of carom (seeds/carom.md), each a ``Profile`` record: everything a
club's rules change is read here.

``kampioen`` is seed 003, the club championship rules (alias ``club``); ``liemers`` is
seed 004, the O.B.B. "Liemers" rules. The engine asks its profile record (which fouls,
which rule a foul is ruled under, whether touching the woodwork re-spots, how an opening
shot must go, what is announced) and never compares a profile's name. The names a set-up
may use for a profile are in ``tablesense.rules.carom.names``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ...errors import IllegalCall
from .names import profile_name

#: the ball each player plays (docs/events.md): p1 the yellow (marked), p2 the white
CUE_BALL = {"p1": "yellow", "p2": "white"}
#: "carom.equipment": two white balls (one marked, here yellow) and one red
CAROM_BALLS = frozenset({"yellow", "white", "red"})
#: cushions the cue ball needs before the third ball
CUSHIONS_NEEDED = {"libre": 0, "bandstoten": 1, "driebanden": 3}
DISCIPLINE_RULE = {"libre": "carom.libre", "bandstoten": "carom.bandstoten", "driebanden": "carom.driebanden"}
MASSE_RULE = "carom.masse"
#: liemers (004 A, E): touching the woodwork along the cushions is a fault of its own, the balls
#: stay where they lie; only balls off the table (or frozen) go back to the starting position
WOODWORK_RULE = "carom.foul.woodwork"


@dataclass(frozen=True, slots=True)
class Foul:
    """One kind of fault: the catalogue id it is ruled under and whether it is a jump (the
    balls go back to their spots)."""

    rule: str
    jump: bool = False


#: every fault by its canonical id (``tablesense.rules.carom.names`` reads the referees' names)
FOULS: dict[str, Foul] = {
    "touch": Foul("carom.foul.touch"),
    "touch-remove-object": Foul("carom.foul.touch.remove-object"),
    "touch-moved": Foul("carom.foul.touch.moved"),
    "push": Foul("carom.foul.push"),
    "foot": Foul("carom.foul.foot"),
    "stool": Foul("carom.foul.stool"),
    "wrong-ball": Foul("carom.foul.wrong-ball"),
    "moving-balls": Foul("carom.foul.moving-balls"),
    "smoking": Foul("carom.foul.smoking"),
    "jump": Foul("carom.jump", jump=True),
    "woodwork": Foul("carom.jump", jump=True),
    "reste-dedans": Foul("carom.dedans.reste"),
    "opening-shot": Foul("carom.opening-shot.direct"),
    "no-blame": Foul("carom.foul.no-blame"),
    "poedel": Foul("carom.poedel"),
}
_BOTH_FOULS = ("touch", "touch-remove-object", "touch-moved", "push", "foot", "wrong-ball", "jump",
               "woodwork", "reste-dedans", "opening-shot", "no-blame", "poedel")


@dataclass(frozen=True, slots=True)
class Frozen:
    """What a frozen ball allows (``frozen`` call): the rule and the player's choices."""

    rule: str
    choices: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Profile:
    """A club's rules: what differs between seed 003 and seed 004."""

    name: str
    seed: str
    #: the fouls its text names (canonical ids of ``FOULS``)
    fouls: tuple[str, ...]
    #: why massé and piqué are refused as a foul (``carom.masse``)
    masse: str
    #: the catalogue id a foul is ruled under where it differs from ``FOULS``
    foul_rules: Mapping[str, str] = field(default_factory=dict)
    #: per discipline: the rule a jump is ruled under where it differs
    jump_rules: Mapping[str, str] = field(default_factory=dict)
    #: touching the woodwork is a jump (all balls to the outlay); else the balls stay
    woodwork_jumps: bool = True
    #: the disciplines in which only the jumped balls go to their spots (not all three to the outlay)
    spot_jumped_balls: frozenset[str] = frozenset()
    #: the opening shot must hit the red first without a cushion before it (else: with the
    #: cue ball's cushions before the third ball outnumbering those before the first)
    opening_direct: bool = True
    #: a carom the referee counted stands though made with the wrong ball (003 Art. 5.12)
    counted_wrong_ball_stands: bool = False
    #: per discipline: caroms to go from which the referee announces the countdown; empty: none
    countdown_from: Mapping[str, int] = field(default_factory=dict)
    #: the frozen ball's rule and choices, and per discipline where they differ
    frozen: Frozen = Frozen("carom.frozen", ("outlay", "play"))
    frozen_by_discipline: Mapping[str, Frozen] = field(default_factory=dict)
    #: the procedural rules its referee records with a ``note`` call
    notes: tuple[str, ...] = ()
    #: notes its text forbids, and why
    refused_notes: Mapping[str, str] = field(default_factory=dict)
    #: explicit targets of a competition match must be at least the minimum (003 Art. 11.5)
    competition_minimum: bool = False

    def knows(self, foul: str) -> bool:
        return foul in self.fouls

    def foul_rule(self, foul: str, discipline: str) -> str:
        """The catalogue id ``foul`` is ruled under in this profile and ``discipline``."""
        if FOULS[foul].jump and self.respots(foul) and discipline in self.jump_rules:
            return self.jump_rules[discipline]
        return self.foul_rules.get(foul, FOULS[foul].rule)

    def respots(self, foul: str) -> bool:
        """Whether ``foul`` is a jump that puts balls back on their spots. A ball off the table
        is one in both profiles; touching the woodwork only where the text says so."""
        if foul == "woodwork":
            return self.woodwork_jumps
        return FOULS[foul].jump

    def frozen_rule(self, discipline: str) -> Frozen:
        return self.frozen_by_discipline.get(discipline, self.frozen)


_SHARED_NOTES = ("carom.referee.show-ball", "carom.referee.duties", "carom.board-decides")

KAMPIOEN = Profile(
    name="kampioen", seed="003",
    fouls=_BOTH_FOULS,
    masse=("massé and piqué are allowed at the player's own risk in profile kampioen "
           f"({MASSE_RULE}): not a fault"),
    foul_rules=MappingProxyType({"opening-shot": "carom.opening-shot.direct"}),
    # 003 Art. 4: "als hij buiten het biljart terecht is gekomen of de omlijsting heeft geraakt"
    woodwork_jumps=True,
    opening_direct=True,
    counted_wrong_ball_stands=True,
    frozen=Frozen("carom.frozen", ("outlay", "play")),
    notes=("carom.referee.warning", *_SHARED_NOTES, "carom.schedule"),
    competition_minimum=True,
)

LIEMERS = Profile(
    name="liemers", seed="004",
    fouls=(*_BOTH_FOULS, "stool", "moving-balls", "smoking"),
    masse="massé and piqué are no fault in profile liemers",
    # 004 A: "het raken van het houtwerk langs de banden"; E: "In al deze gevallen blijven de
    # ballen in de positie, die voor het maken van de fout is ontstaan"
    foul_rules=MappingProxyType({"opening-shot": "carom.opening-shot.cushion",
                       "woodwork": WOODWORK_RULE}),
    jump_rules=MappingProxyType({"driebanden": "carom.jump.driebanden"}),
    woodwork_jumps=False,
    spot_jumped_balls=frozenset({"driebanden"}),
    opening_direct=False,
    countdown_from=MappingProxyType({"libre": 5, "bandstoten": 5, "driebanden": 3}),
    frozen=Frozen("carom.frozen.libre", ("outlay", "play")),
    frozen_by_discipline=MappingProxyType(
        {"driebanden": Frozen("carom.frozen.driebanden", ("play", "masse", "spot"))}),
    notes=(*_SHARED_NOTES, "carom.referee.change", "carom.protest", "carom.interruption"),
    refused_notes=MappingProxyType({"carom.referee.warning":
                          "carom.referee.warning: under liemers the referee may not warn a player "
                          "of a fault he is about to make"}),
)

PROFILES: dict[str, Profile] = {p.name: p for p in (KAMPIOEN, LIEMERS)}
DEFAULT_PROFILE = KAMPIOEN
#: the profiles whose text sets a minimum target for its competition matches (003 Art. 11.5)
MINIMUM_PROFILES = tuple(p.name for p in PROFILES.values() if p.competition_minimum)


def resolve_profile(name: str | None) -> str:
    """The name of the profile a setup names (``profile_name``), or ``IllegalCall``."""
    return profile(name).name


def profile(name: str | None) -> Profile:
    """The profile a setup names: one of its names, or a name holding one profile's word."""
    if name is None:
        return DEFAULT_PROFILE
    found = profile_name(name)
    if found is None:
        raise IllegalCall(f"unknown carom profile {name!r} (profiles: kampioen (alias club), liemers)")
    return PROFILES[found]

