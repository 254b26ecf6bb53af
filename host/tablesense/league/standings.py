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
from ..rules.carom.profiles import MINIMUM_PROFILES
from ..rules.carom.targets import below_minimum, target_from_moyenne
from .part import of as _part
from .scheme import Scheme, builtin


@dataclass(frozen=True, slots=True)
class Player:
    """A competition's entrant: a player (carom: his moyenne; keglebillard: his series
    average, the strength his distance follows from; golf: none), or a golf duo (``members``:
    its two players), in a group (a café's A or B series, each with its own standings and
    round-robin) and a team (``team``) if the competition has them."""

    name: str
    moyenne: float
    group: str = ""
    members: tuple[str, ...] = ()
    team: str = ""


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
    #: the game, and its own figures (carom's are the ones above; ``targets`` are a
    #: keglebillard match's distances)
    game: str = "carom"
    frames: tuple[int, int] = (0, 0)  # golf: frames won
    balls: tuple[int, int] = (0, 0)  # golf: balls scored, over the frames
    scored: tuple[int, int] = (0, 0)  # keglebillard: points scored
    series: tuple[int, int] = (0, 0)  # keglebillard: series played
    highest: tuple[int, int] = (0, 0)  # keglebillard: the highest series
    openers: tuple[str, ...] = ()  # golf: who opened each frame (golf.frame.opening)
    bonus: tuple[int, int] = (0, 0)  # carom: bonus points, counted in ``points``
    fixture: int | None = None  # the team night (or scheduled match) it was played for


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
    game: str = "carom"
    group: str = ""
    frames_won: int = 0
    frames_lost: int = 0
    balls_won: int = 0
    balls_lost: int = 0
    scored: int = 0
    series: int = 0
    highest: int = 0

    @property
    def average(self) -> float:
        """Carom: caroms per inning (3 decimals); keglebillard: points per series (2 decimals)."""
        average: float = _part(self.game).average(self)
        return average

    def value(self, column: str) -> float:
        """A column the standings can be ordered by (``scheme.ORDER_COLUMNS``)."""
        if column == "frames":
            return self.frames_won - self.frames_lost
        if column == "balls":
            return self.balls_won - self.balls_lost
        if column == "average":
            return self.average
        return float(getattr(self, column))

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"name": self.name, "played": self.played, "won": self.won}
        out.update(_part(self.game).row(self))
        if self.group:
            out["group"] = self.group
        return out


_DEFAULT_ORDER = ("points",)


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
                targets: tuple[int, int] | None = None, scheme: str | Scheme = "de-bruijn",
                high_run: tuple[int, int] = (0, 0), barrage: bool = False, source: str = "",
                rounding: str = "half-up", profile: str | None = None) -> Result:
    """A carom result entered by hand: targets from the moyennes unless given, winner and points
    worked out under ``scheme`` (a built-in's name or a record: its bonus, its innings cap).
    With the competition's ``profile``, given targets below its minimum are refused (``check_minimum``)."""
    record = builtin(scheme, "carom") if isinstance(scheme, str) else scheme
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
    if innings[0] != innings[1]:
        raise IllegalCall(f"innings {innings[0]} and {innings[1]} differ: yellow (the first player) breaks "
                          "and white's last inning makes them equal (carom.nastoot)")
    cap = record.innings_cap
    if cap is not None and innings[0] > cap:
        raise IllegalCall(f"{innings[0]} innings; this competition's matches end at {cap}")
    if cap is not None and innings[0] == cap and caroms[0] < targets[0] and caroms[1] < targets[1]:
        left, right = caroms[0] * targets[1], caroms[1] * targets[0]  # at the cap: the higher share wins
        winner = "draw" if left == right else ("p1" if left > right else "p2")
    else:
        winner = decide(caroms, targets)
    points = record.carom_points(winner, caroms, targets)
    bonus = record.carom_bonus(winner, caroms, innings, (p1.moyenne, p2.moyenne))
    total = (points[0] + bonus[0], points[1] + bonus[1])
    return Result(p1.name, p2.name, caroms, innings, targets, winner, total, high_run, barrage, source,
                  bonus=bonus)


def standings(players: list[Player], results: list[Result], order: tuple[str, ...] = _DEFAULT_ORDER,
              game: str = "carom") -> list[Standing]:
    """Players ordered by ``order`` (a scheme's columns; carom: match points,
    "carom.league.winner"), a decider (barrage, deciding game, shoot-out) breaking a tie at the
    top; then by the game's other figures."""
    table = new_table(players, game)
    for r in results:
        count_result(table, r, game)
    return ordered(table, order, game)


def new_table(players: list[Player], game: str = "carom") -> dict[str, Standing]:
    """A row for each player, nothing played yet (``count_result`` adds a result to it)."""
    return {p.name: Standing(p.name, game=game, group=p.group) for p in players}


def count_result(table: dict[str, Standing], r: Result, game: str = "carom") -> None:
    """Add one result to the rows of ``table`` (a row for a name it does not know yet)."""
    for name in (r.p1, r.p2):
        if name not in table:
            table[name] = Standing(name, game=game)
    if r.barrage:
        if r.winner in ("p1", "p2"):
            table[r.p1 if r.winner == "p1" else r.p2].barrage_won += 1
        return
    for i, name in enumerate((r.p1, r.p2)):
        _count(table[name], r, i)


def ordered(table: dict[str, Standing], order: tuple[str, ...] = _DEFAULT_ORDER,
            game: str = "carom") -> list[Standing]:
    """The rows of ``table`` in the standings' order (``standings``)."""
    then = tuple(c for c in _part(game).THEN if c not in order)  # after the order and a decider
    return sorted(table.values(), key=lambda s: (*(-s.value(c) for c in order), -s.barrage_won,
                                                 *(-s.value(c) for c in then), s.name))


def _count(row: Standing, r: Result, i: int) -> None:
    row.played += 1
    row.points += r.points[i]
    me = "p1" if i == 0 else "p2"
    if r.winner == "draw":
        row.drawn += 1
    elif r.winner == me:
        row.won += 1
    else:
        row.lost += 1
    _part(row.game).count(row, r, i)


def winner(rows: list[Standing], order: tuple[str, ...] = _DEFAULT_ORDER) -> tuple[str | None, list[str]]:
    """"carom.league.winner": (the winner or None, the players level at the top on every column
    of ``order``, who must play the decider: "carom.league.barrage")."""
    if not rows or rows[0].played == 0:
        return None, []
    first = tuple(rows[0].value(c) for c in order)
    top = [r for r in rows if tuple(r.value(c) for c in order) == first]
    if len(top) == 1:
        return top[0].name, []
    best = max(r.barrage_won for r in top)
    leaders = [r for r in top if r.barrage_won == best]
    if len(leaders) == 1 and best > 0:
        return leaders[0].name, []
    return None, [r.name for r in leaders]


def new_moyennes(players: list[Player], results: list[Result],
                 game: str = "carom") -> list[tuple[Player, float, int]]:
    """"carom.league.moyenne": (player, new moyenne, its target) over the half season's matches
    (those of ``game``)."""
    rows = {r.name: r for r in standings(players, [r for r in results if r.game == game], game=game)}
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
