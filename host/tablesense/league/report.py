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

from .fixtures import Night, assign, night, pairings, rosters, status, team_standings
from .standings import Player, Result, Standing, standings, winner
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
    scheme = comp.record
    groups = sorted({p.group for p in players}) or [""]
    out = []
    for g in groups:
        members = [p for p in players if p.group == g]
        names = {p.name for p in members}
        mine = [r for r in results if r.p1 in names or r.p2 in names or len(groups) == 1]
        rows = standings(members, mine, scheme.order, comp.game)
        champ, level = winner(rows, scheme.order)
        if scheme.decider is None and level:  # a shared title: nobody plays for it
            champ = None
        out.append(GroupTable(g, rows, champ, level))
    return out


def nights(comp: Competition, players: list[Player], teams: list[Team], fixtures: list[Fixture],
           results: list[tuple[int, Result]]) -> list[Night]:
    """Each fixture of a team competition as it stands."""
    played = assign(fixtures, results, teams=bool(teams))
    by_id = dict(results)
    team_of = {p.name: p.team for p in players if p.team}
    roster = rosters(players)
    out = []
    for f in fixtures:
        expected = len(pairings(comp.record.night, roster.get(f.home, []), roster.get(f.away, [])))
        out.append(night(f, [by_id[r] for r in played.get(f.id, [])], team_of, comp.record, expected))
    return out


def report(comp: Competition, players: list[Player], results: list[tuple[int, Result]], teams: list[Team],
           fixtures: list[Fixture], today: str) -> dict[str, Any]:
    """The competition's tables as data (``league standings --json``, the league page)."""
    only = [r for _, r in results]
    tables = group_tables(comp, players, only)
    out: dict[str, Any] = {"competition": comp.name, "game": comp.game, "scheme": comp.record.name,
                           "tie": comp.record.tie, "groups": [t.to_dict() for t in tables]}
    if len(tables) == 1:  # as before groups: one table, its winner and who plays the barrage
        out.update(standings=tables[0].to_dict()["standings"], winner=tables[0].winner,
                   barrage=tables[0].decider)
    played = assign(fixtures, results, teams=bool(teams))
    if teams:
        ns = nights(comp, players, teams, fixtures, results)
        out["teams"] = [t.to_dict() for t in team_standings(teams, ns)]
        out["nights"] = [n.to_dict() for n in ns if n.matches]
    split = status(fixtures, played, today)
    out["schedule"] = {k: [_fixture(f, teams) for f in v] for k, v in split.items()}
    return out


def _fixture(f: Fixture, teams: list[Team]) -> dict[str, Any]:
    pubs = {t.name: t.pub for t in teams}
    out: dict[str, Any] = {"fixture": f.id, "round": f.round, "date": f.date, "group": f.group,
                           "home": f.home, "away": f.away}
    if f.home in pubs:
        out["pub"] = pubs[f.home]
    return out
