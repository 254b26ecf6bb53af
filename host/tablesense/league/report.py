"""What a competition's tables say, for ``league standings`` and the league page: pure.

- one standings table per group (a café's A and B series; one table when it has none),
  ordered as its scheme says (``Scheme.order``), with the winner or the players level at the
  top who play the decider (barrage, deciding game, shoot-out; or a shared title);
- a team competition's nights (each team's players' points added up, the team points they
  give) and its team standings;
- its schedule: what is played, what is next, what is overdue (``fixtures.status``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .fixtures import Assignment, Night, night, pairings, rosters, status, team_standings
from .standings import Player, Result, Standing, count_result, new_table, ordered, winner
from .store import Competition, Fixture, Team


@dataclass(slots=True)
class GroupTable:
    group: str
    rows: list[Standing]
    winner: str | None
    decider: list[str]  # level at the top: they play the scheme's decider

    def to_dict(self) -> dict[str, Any]:
        return {"group": self.group, "standings": [r.to_dict() for r in self.rows], "winner": self.winner,
                "decider": self.decider}


def group_tables(comp: Competition, players: list[Player], results: list[Result]) -> list[GroupTable]:
    """The standings of each group of ``comp`` (players without a group: one table)."""
    tally = Tally(comp, players, [], [])
    for r in results:
        tally.add(0, r)
    return tally.group_tables()


def nights(comp: Competition, players: list[Player], teams: list[Team], fixtures: list[Fixture],
           results: list[tuple[int, Result]]) -> list[Night]:
    """Each fixture of a team competition as it stands."""
    tally = Tally(comp, players, teams, fixtures)
    for rid, r in results:
        tally.add(rid, r)
    return tally.nights()


def report(comp: Competition, players: list[Player], results: list[tuple[int, Result]], teams: list[Team],
           fixtures: list[Fixture], today: str) -> dict[str, Any]:
    """The competition's tables as data (``league standings --json``, the league page)."""
    tally = Tally(comp, players, teams, fixtures)
    for rid, r in results:
        tally.add(rid, r)
    return tally.report(today)


class Tally:
    """A competition's tables kept as its results come in, in the order they were entered:
    ``add`` counts one result in each table it belongs to (a group's standings, the
    fixture it was played for), so the league page does not count every result again
    for each new one. ``report`` is the same data as counting them all at once."""

    def __init__(self, comp: Competition, players: list[Player], teams: list[Team],
                 fixtures: list[Fixture]) -> None:
        self.comp, self.players, self.teams, self.fixtures = comp, players, teams, fixtures
        groups = sorted({p.group for p in players}) or [""]
        self._whole = len(groups) == 1  # one table: every result counts in it
        self._groups = [(g, {p.name for p in players if p.group == g},
                         new_table([p for p in players if p.group == g], comp.game)) for g in groups]
        self._assigned = Assignment(fixtures, teams=bool(teams))
        self._results: dict[int, Result] = {}  # a team competition's, for its nights

    def add(self, rid: int, r: Result) -> None:
        for _, names, table in self._groups:
            if self._whole or r.p1 in names or r.p2 in names:
                count_result(table, r, self.comp.game)
        self._assigned.add(rid, r)
        if self.teams:
            self._results[rid] = r

    def group_tables(self) -> list[GroupTable]:
        scheme = self.comp.record
        out = []
        for g, _, table in self._groups:
            rows = ordered(table, scheme.order, self.comp.game)
            champ, level = winner(rows, scheme.order)
            if scheme.decider is None and level:  # a shared title: nobody plays for it
                champ = None
            out.append(GroupTable(g, rows, champ, level))
        return out

    def nights(self) -> list[Night]:
        played = self._assigned.played
        team_of = {p.name: p.team for p in self.players if p.team}
        roster = rosters(self.players)
        out = []
        for f in self.fixtures:
            expected = len(pairings(self.comp.record.night, roster.get(f.home, []), roster.get(f.away, [])))
            out.append(night(f, [self._results[r] for r in played.get(f.id, [])], team_of, self.comp.record,
                             expected))
        return out

    def report(self, today: str) -> dict[str, Any]:
        comp, teams = self.comp, self.teams
        tables = self.group_tables()
        out: dict[str, Any] = {"competition": comp.name, "game": comp.game, "scheme": comp.record.name,
                               "tie": comp.record.tie, "groups": [t.to_dict() for t in tables]}
        if len(tables) == 1:  # as before groups: one table, its winner and who plays the barrage
            out.update(standings=tables[0].to_dict()["standings"], winner=tables[0].winner,
                       barrage=tables[0].decider)
        if teams:
            ns = self.nights()
            out["teams"] = [t.to_dict() for t in team_standings(teams, ns)]
            out["nights"] = [n.to_dict() for n in ns if n.matches]
        split = status(self.fixtures, self._assigned.played, today)
        out["schedule"] = {k: [_fixture(f, teams) for f in v] for k, v in split.items()}
        return out


def _fixture(f: Fixture, teams: list[Team]) -> dict[str, Any]:
    pubs = {t.name: t.pub for t in teams}
    out: dict[str, Any] = {"fixture": f.id, "round": f.round, "date": f.date, "group": f.group,
                           "home": f.home, "away": f.away}
    if f.home in pubs:
        out["pub"] = pubs[f.home]
    return out
