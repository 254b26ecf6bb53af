"""The two club profiles of carom (seeds/carom.md), each a ``Profile`` record: everything a
club's rules change is read here.

``kampioen`` is seed 003, the club championship rules (alias ``club``); ``liemers`` is
seed 004, the O.B.B. "Liemers" rules. The engine asks its profile record (which fouls,
which rule a foul is ruled under, whether touching the woodwork re-spots, how an opening
shot must go, what is announced) and never compares a profile's name. The faults
themselves are ``rules.carom.fouls.FAULTS`` (a row names the profiles that know it where
not both); a profile says only what it changes in them. The names a set-up may use for a
profile are in ``tablesense.rules.carom.names``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import msgspec
from msgspec import field

from ...errors import IllegalCall
from .fouls import BY_NAME
from .names import profile_name

#: the ball each player plays (docs/events.md): p1 the yellow (marked), p2 the white
CUE_BALL = {"p1": "yellow", "p2": "white"}
#: "carom.equipment": two white balls (one marked, here yellow) and one red
CAROM_BALLS = frozenset({"yellow", "white", "red"})
#: cushions the cue ball needs before the third ball
CUSHIONS_NEEDED = {"libre": 0, "bandstoten": 1, "driebanden": 3}
DISCIPLINE_RULE = {"libre": "carom.libre", "bandstoten": "carom.bandstoten", "driebanden": "carom.driebanden"}
MASSE_RULE = "carom.masse"


class Frozen(msgspec.Struct, frozen=True):
    """What a frozen ball allows (``frozen`` call): the rule and the player's choices."""

    rule: str
    choices: tuple[str, ...]


class Profile(msgspec.Struct, frozen=True):
    """A club's rules: what differs between seed 003 and seed 004."""

    name: str
    seed: str
    #: why massé and piqué are refused as a foul (``carom.masse``)
    masse: str
    #: the catalogue id a foul is ruled under where it differs from its ``FAULTS`` row's id
    foul_rules: Mapping[str, str] = field(default_factory=dict)
    #: the fouls that are a jump here though their ``FAULTS`` row is not one (all balls to their spots)
    jumps: frozenset[str] = frozenset()
    #: per discipline: the rule a jump is ruled under where it differs
    jump_rules: Mapping[str, str] = field(default_factory=dict)
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
        """Whether this profile's text names the fault ``foul`` (a short name of ``FAULTS``)."""
        fault = BY_NAME.get(foul)
        return fault is not None and (not fault.then.profiles or self.name in fault.then.profiles)

    def foul_rule(self, foul: str, discipline: str) -> str:
        """The catalogue id ``foul`` is ruled under in this profile and ``discipline``."""
        if self.respots(foul) and discipline in self.jump_rules:
            return self.jump_rules[discipline]
        return self.foul_rules.get(foul, BY_NAME[foul].id)

    def respots(self, foul: str) -> bool:
        """Whether ``foul`` is a jump that puts balls back on their spots: a ball off the table
        in both profiles (its ``FAULTS`` row), touching the woodwork where the text says so
        (``jumps``)."""
        return BY_NAME[foul].then.jump or foul in self.jumps

    def frozen_rule(self, discipline: str) -> Frozen:
        return self.frozen_by_discipline.get(discipline, self.frozen)


_SHARED_NOTES = ("carom.referee.show-ball", "carom.referee.duties", "carom.board-decides")

KAMPIOEN = Profile(
    name="kampioen", seed="003",
    masse=("massé and piqué are allowed at the player's own risk in profile kampioen "
           f"({MASSE_RULE}): not a fault"),
    # 003 Art. 4: "als hij buiten het biljart terecht is gekomen of de omlijsting heeft geraakt":
    # touching the frame is a jump
    foul_rules=MappingProxyType({"woodwork": "carom.jump"}),
    jumps=frozenset({"woodwork"}),
    opening_direct=True,
    counted_wrong_ball_stands=True,
    frozen=Frozen("carom.frozen", ("outlay", "play")),
    notes=("carom.referee.warning", *_SHARED_NOTES, "carom.schedule"),
    competition_minimum=True,
)

LIEMERS = Profile(
    name="liemers", seed="004",
    masse="massé and piqué are no fault in profile liemers",
    # 004 A: "het raken van het houtwerk langs de banden"; E: "In al deze gevallen blijven de
    # ballen in de positie, die voor het maken van de fout is ontstaan": touching the woodwork is
    # its ``FAULTS`` row, carom.foul.woodwork, no jump; only balls off the table are spotted
    foul_rules=MappingProxyType({"opening-shot": "carom.opening-shot.cushion"}),
    jump_rules=MappingProxyType({"driebanden": "carom.jump.driebanden"}),
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

