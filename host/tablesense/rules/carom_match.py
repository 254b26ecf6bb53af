"""The score of a carom match (``Match``) and its mutable working copy (``Draft``).

``Match`` is the immutable record a ``CaromState`` holds: targets, caroms, innings,
runs, the equalising inning, the outlay, the zone status, the evidence of the last
shot, the match points. Resolving a shot copies it into a ``Draft``, changes that
local copy and freezes it again: one copy per shot instead of one per change.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .base import Ruling


@dataclass(frozen=True, slots=True)
class Match:
    discipline: str = "libre"
    profile: str = "kampioen"
    scheme: str = "de-bruijn"
    table: str = "match"
    targets: tuple[int, int] = (20, 20)
    caroms: tuple[int, int] = (0, 0)
    innings: tuple[int, int] = (0, 0)
    high_run: tuple[int, int] = (0, 0)
    run: int = 0
    breaker: str = "p1"
    shots: int = 0
    nastoot: bool = False
    from_outlay: bool = True
    zone: str | None = None
    zone_corner: str | None = None
    positions: dict[str, Any] | None = None
    announcement: str | None = None
    evidence: dict[str, Any] | None = None
    points: tuple[int, int] | None = None


MATCH_FIELDS = tuple(f.name for f in fields(Match))


class Draft:
    """A mutable copy of a ``Match`` plus the turn, the result and new rulings."""

    __slots__ = (*MATCH_FIELDS, "at_table", "finished", "names", "rulings", "winner")

    discipline: str
    profile: str
    scheme: str
    table: str
    targets: tuple[int, int]
    caroms: tuple[int, int]
    innings: tuple[int, int]
    high_run: tuple[int, int]
    run: int
    breaker: str
    shots: int
    nastoot: bool
    from_outlay: bool
    zone: str | None
    zone_corner: str | None
    positions: dict[str, Any] | None
    announcement: str | None
    evidence: dict[str, Any] | None
    points: tuple[int, int] | None

    def __init__(self, m: Match, at_table: str | None, finished: bool, winner: str | None,
                 names: dict[str, Any] | None = None) -> None:
        _load(self, m)
        self.at_table = at_table
        self.finished = finished
        self.winner = winner
        self.rulings: list[Ruling] = []
        self.names = names or {}

    def name(self, player: str) -> str:
        """The player's name for ruling texts (a team's names joined)."""
        name = self.names.get(player, player)
        return " & ".join(name) if isinstance(name, list) else str(name)

    def rule(self, t: float, rule: str, player: str | None = None, text: str = "", **data: Any) -> None:
        self.rulings.append(Ruling(t=t, rule=rule, player=player, text=text, data=tuple(data.items())))

    def freeze(self) -> Match:
        return _freeze(self)  # type: ignore[no-any-return]

    def add(self, i: int, name: str, value: int) -> None:
        """Set player ``i``'s entry of the pair ``name`` (caroms, innings, high_run)."""
        pair = getattr(self, name)
        setattr(self, name, (value, pair[1]) if i == 0 else (pair[0], value))


def _compile(src: str, name: str) -> Any:
    scope: dict[str, Any] = {"Match": Match}
    exec(src, scope)
    return scope[name]


# straight-line copies between Match and Draft (a loop over the fields costs twice as much)
_load = _compile("def load(d, m):\n" + "".join(f"    d.{n} = m.{n}\n" for n in MATCH_FIELDS), "load")
_freeze = _compile("def freeze(d):\n    return Match(" + ", ".join(f"d.{n}" for n in MATCH_FIELDS) + ")\n",
                   "freeze")
