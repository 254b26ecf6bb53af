"""Club competition logic, pure: results in, standings and new moyennes out (seeds/carom.md).

- "carom.league.winner": the standings are ordered by match points (then average);
  the winner is the player with the most points.
- "carom.league.barrage": players level on points at the top play a barrage match;
  its result decides the order between them. A barrage counts for nothing else (no
  match points, not in the moyenne).
- "carom.league.moyenne": a player's new moyenne is his caroms / innings over the
  half season's matches (3 decimals); a player without innings keeps his moyenne.
- "carom.target.minimum": every match of a kampioen competition is a match for the club
  championship (003 Art. 11.1), whose targets are at least 20 caroms (Art. 11.5); a
  result with a smaller target, entered or imported, is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import IllegalCall
from ..rules.carom_profiles import MINIMUM_PROFILES
from ..rules.carom_targets import below_minimum, match_points, target_from_moyenne


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    moyenne: float


@dataclass(frozen=True, slots=True)
class Result:
    """One played match: p1 broke with the yellow ball."""

    p1: str
    p2: str
    caroms: tuple[int, int]
    innings: tuple[int, int]
    targets: tuple[int, int]
    winner: str  # "p1" | "p2" | "draw"
    points: tuple[int, int]
    high_run: tuple[int, int] = (0, 0)
    barrage: bool = False
    source: str = ""


@dataclass(slots=True)
class Standing:
    name: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points: int = 0
    caroms: int = 0
    innings: int = 0
    high_run: int = 0
    barrage_won: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def average(self) -> float:
        return round(self.caroms / self.innings, 3) if self.innings else 0.0

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "played": self.played, "won": self.won, "drawn": self.drawn,
                "lost": self.lost, "points": self.points, "caroms": self.caroms, "innings": self.innings,
                "average": self.average, "high_run": self.high_run}


def decide(caroms: tuple[int, int], targets: tuple[int, int]) -> str:
    """Who won a match played to the targets (the equalising inning makes a draw possible)."""
    done = (caroms[0] >= targets[0], caroms[1] >= targets[1])
    if done == (True, True):
        return "draw"
    if done[1]:
        return "p2"
    if done[0]:
        return "p1"
    raise IllegalCall(f"neither player reached his target ({caroms[0]}/{targets[0]}, "
                      f"{caroms[1]}/{targets[1]}): a match is played to the target (carom.target.play-out)")


def check_minimum(profile: str, p1: str, p2: str, targets: tuple[int, int]) -> None:
    """"carom.target.minimum" (003 Art. 11.5): in a competition of a profile with a minimum
    (kampioen) both targets are at least 20, or ``IllegalCall`` names the one below it."""
    if profile not in MINIMUM_PROFILES:
        return
    why = below_minimum({p1: targets[0], p2: targets[1]})
    if why is not None:
        raise IllegalCall(why)


def make_result(p1: Player, p2: Player, caroms: tuple[int, int], innings: tuple[int, int],
                targets: tuple[int, int] | None = None, scheme: str = "de-bruijn",
                high_run: tuple[int, int] = (0, 0), barrage: bool = False, source: str = "",
                rounding: str = "half-up", profile: str | None = None) -> Result:
    """A result entered by hand: targets from the moyennes unless given, winner and points worked out.
    With the competition's ``profile``, given targets below its minimum are refused (``check_minimum``)."""
    if p1.name == p2.name:
        raise IllegalCall("a player cannot play himself")
    if min(caroms) < 0 or min(innings) < 0:
        raise IllegalCall("caroms and innings cannot be negative")
    if targets is None:
        targets = (target_from_moyenne(p1.moyenne, rounding), target_from_moyenne(p2.moyenne, rounding))
    elif profile is not None:
        check_minimum(profile, p1.name, p2.name, targets)
    if caroms[0] > targets[0] or caroms[1] > targets[1]:
        raise IllegalCall(f"more caroms than the target ({caroms} of {targets}): "
                          "a player stops at his target (carom.last-carom)")
    winner = decide(caroms, targets)
    if innings[0] != innings[1]:
        raise IllegalCall(f"innings {innings[0]} and {innings[1]} differ: yellow (the first player) breaks "
                          "and white's last inning makes them equal (carom.nastoot)")
    points = match_points(scheme, winner, caroms, targets)
    return Result(p1.name, p2.name, caroms, innings, targets, winner, points, high_run, barrage, source)


def standings(players: list[Player], results: list[Result]) -> list[Standing]:
    """Players ordered by match points, the barrage deciding a tie at the top."""
    table = {p.name: Standing(p.name) for p in players}
    for r in results:
        for name in (r.p1, r.p2):
            if name not in table:
                table[name] = Standing(name)
        if r.barrage:
            if r.winner in ("p1", "p2"):
                table[r.p1 if r.winner == "p1" else r.p2].barrage_won += 1
            continue
        for i, name in enumerate((r.p1, r.p2)):
            row = table[name]
            row.played += 1
            row.points += r.points[i]
            row.caroms += r.caroms[i]
            row.innings += r.innings[i]
            row.high_run = max(row.high_run, r.high_run[i])
            me = "p1" if i == 0 else "p2"
            if r.winner == "draw":
                row.drawn += 1
            elif r.winner == me:
                row.won += 1
            else:
                row.lost += 1
    rows = sorted(table.values(), key=lambda s: (-s.points, -s.barrage_won, -s.average, s.name))
    return rows


def winner(rows: list[Standing]) -> tuple[str | None, list[str]]:
    """"carom.league.winner": (the winner or None, the players who must play a barrage)."""
    if not rows or rows[0].played == 0:
        return None, []
    top = [r for r in rows if r.points == rows[0].points]
    if len(top) == 1:
        return top[0].name, []
    best = max(r.barrage_won for r in top)
    leaders = [r for r in top if r.barrage_won == best]
    if len(leaders) == 1 and best > 0:
        return leaders[0].name, []
    return None, [r.name for r in leaders]


def new_moyennes(players: list[Player], results: list[Result]) -> list[tuple[Player, float, int]]:
    """"carom.league.moyenne": (player, new moyenne, its target) over the half season's matches."""
    rows = {r.name: r for r in standings(players, results)}
    out = []
    for p in players:
        row = rows.get(p.name)
        moyenne = row.average if row is not None and row.innings else p.moyenne
        out.append((p, moyenne, target_from_moyenne(moyenne)))
    return out


def check_visitor_breaks(profile: str, p1: str, p2: str, visitor: str | None) -> None:
    """"carom.league.visitors-break" (liemers): in O.B.B. matches the visiting player breaks (p1)."""
    if visitor is None or profile != "liemers":
        return
    if visitor not in (p1, p2):
        raise IllegalCall(f"the visitor {visitor!r} does not play in this match ({p1} - {p2})")
    if visitor != p1:
        raise IllegalCall(f"{visitor} is the visitor and breaks with the yellow ball: give him first "
                          "(carom.league.visitors-break)")
