"""A season's schedule and its team nights: pure, no I/O.

- ``round_robin``: every entrant (a player, a duo or a team) meets every other, at home and
  away (the second half mirrors the first with the homes swapped), by the circle method; an
  odd number of entrants gives each a round off.
- ``schedule``: the rounds of each group (a café's A and B series play their own round-robin
  side by side), dated from the first date every ``every`` days.
- ``assign``: which result was played for which fixture. A team night's matches carry its
  fixture (the pub tagged them, or the league found the night they were played at); a
  scheduled match between two players is the first of their fixtures not yet played.
- ``night``: a team night's score: the sum of each team's players' points under the scheme,
  and the team points it gives (``Scheme.team_result``: 2/1/0); ``team_standings`` adds up
  the nights.
- ``pairings``: who plays whom on a night (``Scheme.night``): player 1 against player 1
  (``ranks``), every player twice (``twice``: visitebiljart), or everyone against everyone.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field

from .scheme import Scheme
from .standings import Player, Result
from .store import Fixture, Team


def round_robin(entrants: list[str], home_and_away: bool = True) -> list[list[tuple[str, str]]]:
    """The rounds of a round-robin: each a list of (home, away)."""
    names: list[str | None] = list(entrants)
    if len(names) % 2:
        names.append(None)  # a round off
    n = len(names)
    rounds: list[list[tuple[str, str]]] = []
    for r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = names[i], names[n - 1 - i]
            if a is None or b is None:
                continue
            pairs.append((a, b) if (r + i) % 2 == 0 else (b, a))
        rounds.append(pairs)
        names = [names[0], names[-1], *names[1:-1]]
    if home_and_away:
        rounds += [[(b, a) for a, b in rnd] for rnd in rounds]
    return rounds


def schedule(groups: dict[str, list[str]], start: dt.date, every: int = 7,
             home_and_away: bool = True) -> list[Fixture]:
    """Every group's round-robin, round k of each on ``start + (k - 1) * every`` days."""
    out: list[Fixture] = []
    for group, entrants in sorted(groups.items()):
        for k, pairs in enumerate(round_robin(entrants, home_and_away), start=1):
            day = (start + dt.timedelta(days=(k - 1) * every)).isoformat()
            out += [Fixture(0, group, k, day, home, away) for home, away in pairs]
    return sorted(out, key=lambda f: (f.date, f.group, f.round))


def pairings(how: str, home: list[str], away: list[str]) -> list[tuple[str, str]]:
    """Who plays whom on a team night, home player first."""
    if not home or not away:
        return []
    if how == "all":
        return [(h, a) for h in home for a in away]
    if how == "twice":
        out = []
        for i, h in enumerate(home):
            for a in dict.fromkeys((away[i % len(away)], away[(i + 1) % len(away)])):
                out.append((h, a))
        return out
    return list(zip(home, away))


def assign(fixtures: list[Fixture], results: Iterable[tuple[int, Result]],
           teams: bool) -> dict[int, list[int]]:
    """Fixture id -> the ids of the results played for it."""
    out = Assignment(fixtures, teams)
    for rid, r in results:
        out.add(rid, r)
    return out.played


class Assignment:
    """The results played for each fixture, as they come in (in the order they were entered):
    the night a team competition's result names; else the fixture it names, or the first
    one of its two players not played yet."""

    def __init__(self, fixtures: list[Fixture], teams: bool) -> None:
        self.teams = teams
        #: fixture id -> the ids of the results played for it
        self.played: dict[int, list[int]] = {f.id: [] for f in fixtures}
        self._open: dict[frozenset[str], list[Fixture]] = {}
        if not teams:
            for f in fixtures:  # in date order
                self._open.setdefault(frozenset((f.home, f.away)), []).append(f)

    def add(self, rid: int, r: Result) -> None:
        out = self.played
        if self.teams:
            if r.fixture in out and not r.barrage:
                out[r.fixture].append(rid)
            return
        if r.barrage:
            return
        waiting = self._open.get(frozenset((r.p1, r.p2)))
        if r.fixture is not None and r.fixture in out:
            out[r.fixture].append(rid)
            if waiting:
                waiting[:] = [f for f in waiting if f.id != r.fixture]
        elif waiting:
            out[waiting.pop(0).id].append(rid)


@dataclass(slots=True)
class Night:
    """A team night as it stands: each team's players' points added up, and what it gives."""

    fixture: Fixture
    home_points: int = 0
    away_points: int = 0
    matches: int = 0
    expected: int = 0  # the matches its pairings make
    team_points: tuple[int, int] | None = None  # None: nothing played yet

    def to_dict(self) -> dict[str, object]:
        f = self.fixture
        return {"fixture": f.id, "date": f.date, "round": f.round, "group": f.group, "home": f.home,
                "away": f.away, "points": [self.home_points, self.away_points], "matches": self.matches,
                "expected": self.expected,
                "team_points": list(self.team_points) if self.team_points is not None else None}


def night(fixture: Fixture, results: list[Result], team_of: dict[str, str], scheme: Scheme,
          expected: int = 0) -> Night:
    """A night's score from the results played for it (``team_of``: player -> team)."""
    out = Night(fixture, expected=expected)
    for r in results:
        out.matches += 1
        for i, name in enumerate((r.p1, r.p2)):
            team = team_of.get(name)
            if team == fixture.home:
                out.home_points += r.points[i]
            elif team == fixture.away:
                out.away_points += r.points[i]
    if out.matches:
        out.team_points = scheme.team_result(out.home_points, out.away_points)
    return out


@dataclass(slots=True)
class TeamStanding:
    name: str
    pub: str
    group: str = ""
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    team_points: int = 0
    points_for: int = 0
    points_against: int = 0
    nights: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "pub": self.pub, "group": self.group, "played": self.played,
                "won": self.won, "drawn": self.drawn, "lost": self.lost, "team_points": self.team_points,
                "points_for": self.points_for, "points_against": self.points_against}


def team_standings(teams: list[Team], nights: list[Night]) -> list[TeamStanding]:
    """Teams ordered by team points, then the points their players made."""
    rows = {t.name: TeamStanding(t.name, t.pub, t.group) for t in teams}
    for n in nights:
        if n.team_points is None:
            continue
        f = n.fixture
        for name, mine, theirs, tp in ((f.home, n.home_points, n.away_points, n.team_points[0]),
                                       (f.away, n.away_points, n.home_points, n.team_points[1])):
            row = rows.setdefault(name, TeamStanding(name, "?"))
            row.played += 1
            row.team_points += tp
            row.points_for += mine
            row.points_against += theirs
            row.nights.append(f.id)
            if mine > theirs:
                row.won += 1
            elif mine == theirs:
                row.drawn += 1
            else:
                row.lost += 1
    return sorted(rows.values(), key=lambda r: (r.group, -r.team_points, -r.points_for, r.points_against,
                                                r.name))


def rosters(players: list[Player]) -> dict[str, list[str]]:
    """Team -> its players, in the order they were added (player 1, 2 ...)."""
    out: dict[str, list[str]] = {}
    for p in players:
        if p.team:
            out.setdefault(p.team, []).append(p.name)
    return out


def status(fixtures: list[Fixture], played: dict[int, list[int]], today: str) -> dict[str, list[Fixture]]:
    """The schedule split into what is played, what is next (the first date with a fixture not
    played, from ``today`` on or overdue) and the rest."""
    done = [f for f in fixtures if played.get(f.id)]
    waiting = [f for f in fixtures if not played.get(f.id)]
    overdue = [f for f in waiting if f.date < today]
    ahead = [f for f in waiting if f.date >= today]
    first = ahead[0].date if ahead else None
    nxt = [f for f in ahead if f.date == first]
    later = [f for f in ahead if f.date != first]
    return {"played": done, "overdue": overdue, "next": nxt, "later": later}
