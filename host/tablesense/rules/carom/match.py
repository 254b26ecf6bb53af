"""The state of a carom match: the score (``Match``), the engine state (``CaromState``) and
the working copy a shot is resolved on (``Draft``).

``Match`` is the immutable record a ``CaromState`` holds: the club's profile, targets,
caroms, innings, runs, the equalising inning, the outlay, the zone status, the evidence
of the last shot, the match points. Both are frozen msgspec Structs: a copy with changes
shares every field that did not change. Resolving a shot works on a ``Draft``, which
holds the fields a shot commonly reads or sets (``HOT``) in slots and reads the others from
the ``Match`` before the shot: freezing it is one new record per shot, however many things
changed.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ..base import Ruling
from ..shot_engine import MatchState
from .profiles import DEFAULT_PROFILE, Profile
from .shot import Evidence

replace = msgspec.structs.replace


class Match(msgspec.Struct, frozen=True, gc=False):
    discipline: str = "libre"
    profile: Profile = DEFAULT_PROFILE
    scheme: str = "de-bruijn"
    table: str = "match"
    targets: tuple[int, int] = (20, 20)
    caroms: tuple[int, int] = (0, 0)
    innings: tuple[int, int] = (0, 0)
    high_run: tuple[int, int] = (0, 0)
    run: int = 0
    #: each player's runs, one per inning ended (the score sheet's column of caroms per inning)
    runs: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    #: the set-up's ``innings_limit`` (a competition's beurtenlimiet): None, play to the targets
    innings_limit: int | None = None
    #: the set-up's ``shot_clock`` (seconds a shot, driebanden competitions) and the time-outs
    #: each player may take (``timeouts``), with those taken so far
    shot_clock: int | None = None
    timeouts: int = 0
    timeouts_used: tuple[int, int] = (0, 0)
    breaker: str = "p1"
    #: shots that counted (a blameless one does not)
    shots: int = 0
    #: a shot has been played (a ``rest`` before it only places the balls)
    played: bool = False
    nastoot: bool = False
    from_outlay: bool = True
    zone: str | None = None
    zone_corner: str | None = None
    positions: dict[str, Any] | None = None
    announcement: str | None = None
    evidence: Evidence | None = None
    points: tuple[int, int] | None = None


class CaromState(MatchState, frozen=True, kw_only=True):
    m: Match = Match()


class _Before:
    """A ``Draft`` attribute the shot rarely sets (``COLD``): the ``Match`` field before it. A
    non-data descriptor, so a field the shot sets (the instance's ``__dict__``) hides it, and
    reading one it has not set is one call, not a failed lookup and ``__getattr__``."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, draft: Draft | None, owner: type | None = None) -> Any:
        if draft is None:
            return self
        return getattr(draft.base, self.name)


#: the ``Match`` fields a shot reads or sets on the common path (the score, the run, where
#: the balls lie, the zone): a ``Draft`` holds them in slots, copied from the ``Match`` before
#: the shot, so that reading one is a slot's read, not a descriptor's call (``freeze`` and
#: ``__init__`` name each: a test holds them to this list)
HOT = ("run", "caroms", "high_run", "innings", "runs", "positions", "zone", "zone_corner", "nastoot",
       "shots", "played", "announcement", "from_outlay", "evidence")
#: the others (the set-up's, the time-outs, the match points): read through to the ``Match``
COLD = tuple(f for f in Match.__struct_fields__ if f not in HOT)


class Draft:
    """A shot's working copy of a ``Match`` plus the turn, the result and new rulings.

    Reading a field the shot has not set reads the ``Match`` before it; ``freeze`` makes
    the new ``Match`` from what was set: the ``HOT`` fields (slots, filled from the
    ``Match`` when the draft is made) that are no longer the ``Match``'s, and the ``COLD``
    ones set (the instance's ``__dict__``)."""

    __slots__ = ("__dict__", "at_table", "base", "ended", "finished", "rulings", "winner", *HOT)
    base: Match
    at_table: str | None
    finished: bool
    winner: str | None
    rulings: list[Ruling]
    #: why the match ended: the rule and its parameters (``ShotEngine.end``)
    ended: tuple[str, dict[str, Any]] | None
    run: int
    caroms: tuple[int, int]
    high_run: tuple[int, int]
    innings: tuple[int, int]
    runs: tuple[tuple[int, ...], tuple[int, ...]]
    positions: dict[str, Any] | None
    zone: str | None
    zone_corner: str | None
    nastoot: bool
    shots: int
    played: bool
    announcement: str | None
    from_outlay: bool
    evidence: Evidence | None

    def __init__(self, m: Match, at_table: str | None, finished: bool, winner: str | None) -> None:
        self.base = m
        self.at_table = at_table
        self.finished = finished
        self.winner = winner
        self.rulings = []
        self.ended = None
        # ``HOT``, one by one (a statement each is cheaper than one getter of them all)
        self.run = m.run
        self.caroms = m.caroms
        self.high_run = m.high_run
        self.innings = m.innings
        self.runs = m.runs
        self.positions = m.positions
        self.zone = m.zone
        self.zone_corner = m.zone_corner
        self.nastoot = m.nastoot
        self.shots = m.shots
        self.played = m.played
        self.announcement = m.announcement
        self.from_outlay = m.from_outlay
        self.evidence = m.evidence

    def rule(self, t: float, rule: str, player: str | None = None, what: str | None = None,
             **params: Any) -> None:
        """A ruling as data: its sentence is the template of ``rule`` (or ``rule:what``)."""
        data = tuple(params.items()) if what is None else (("what", what), *params.items())
        self.rulings.append(Ruling(t, rule, player, data))  # (by position: no keywords to match)

    def freeze(self) -> Match:
        """The new ``Match``: made whole from the ``HOT`` slots and the rest of the ``Match``
        before (one call with every field in ``Match``'s order is cheaper than a ``replace``
        naming the fields changed), then the ``COLD`` fields the shot set."""
        b = self.base
        m = Match(b.discipline, b.profile, b.scheme, b.table, b.targets, self.caroms, self.innings,
                  self.high_run, self.run, self.runs, b.innings_limit, b.shot_clock, b.timeouts,
                  b.timeouts_used, b.breaker, self.shots, self.played, self.nastoot, self.from_outlay,
                  self.zone, self.zone_corner, self.positions, self.announcement, self.evidence, b.points)
        changes = self.__dict__
        return replace(m, **changes) if changes else m


for _field in COLD:
    setattr(Draft, _field, _Before(_field))
del _field
