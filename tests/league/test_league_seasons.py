"""A season of each game across three pubs over a real Mosquitto (``league_broker``): every
match played into a real ``Pub`` (its SQLite match log), sent by the pub's own publisher, taken
by the league service; the league's standings equal those worked out from the pubs' logs
directly. The carom season is one of team nights: the league tells each home pub its nights,
the pub tags the night's matches, sets each up to the scheme's innings cap (the rule engine
ends it there), shows the night's score on its overview and sends the match at the cap."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from helpers.waits import until
from league_broker import PUBS, Broker, broker  # noqa: F401 (the fixture)
from league_play import direct_table, golf_events, kegle_events, match_events, play, pub_logs
from test_carom_helpers import Table, setup

from tablesense.events import parse_event
from tablesense.league import LeagueStore, games
from tablesense.league.broker_url import parse_broker_url
from tablesense.league.fixtures import schedule
from tablesense.league.matchlog import replay_match
from tablesense.league.publisher import start_publisher
from tablesense.league.report import report
from tablesense.league.scheme import load
from tablesense.league.service import LeagueService
from tablesense.league.store import _result_from
from tablesense.pub import Pub
from tablesense.store import Store
from tablesense.web.server import make_app


def count(db: Path) -> int:
    with LeagueStore(str(db)) as store:
        return int(store.db.execute("SELECT COUNT(*) FROM results").fetchone()[0])


def tables(db: Path, comp: str) -> dict[str, Any]:
    with LeagueStore(str(db)) as store:
        c = store.competition(comp)
        rows = store.db.execute("SELECT id, data FROM results WHERE competition_id=? ORDER BY id", (c.id,))
        results = [(rid, _result_from(json.loads(d))) for rid, d in rows]
        return report(
            c, store.players(c), results, store.teams(c), store.fixtures(c), dt.date.today().isoformat()
        )


class Season:
    """Three pubs (two tables each) with their publishers, and the league service."""

    def __init__(self, broker: Broker, tmp: Path, db: Path) -> None:  # noqa: F811
        self.broker, self.tmp, self.db = broker, tmp, db
        self.pubs: dict[str, tuple[Pub, str]] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.refused: list[str] = []
        self.service = LeagueService(
            parse_broker_url(broker.url("league")),
            str(db),
            on_outcome=lambda o: self.refused.append(o.text) if o.kind == "refused" else None,
        )

    async def __aenter__(self) -> Season:
        self.service.start()
        assert await asyncio.to_thread(self.service.subscriber.connected.wait, 10)
        for name in PUBS:
            path = str(self.tmp / f"{name}.db")
            pub = Pub(Store(path), ["1", "2"])
            # final at once: the referee's grace before a result goes is test_league_final's
            self.tasks.append(start_publisher(pub, path, name, parse_broker_url(self.broker.url(name)),
                                              final_after=0.0))
            self.pubs[name] = (pub, path)
        for name, (pub, _) in self.pubs.items():  # a pub's league link sends the matches from its start on
            await until(lambda pub=pub: _joined(pub), what=f"{name}'s league link")
        return self

    async def __aexit__(self, *exc: object) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for pub, _ in self.pubs.values():
            pub.store.close()
        await asyncio.to_thread(self.service.close)

    def logs(self) -> list[list[str]]:
        return [lines for _, path in self.pubs.values() for lines in pub_logs(path)]


@pytest.fixture
async def season(broker: Broker, tmp_path: Path) -> AsyncIterator[Callable[[Path], Season]]:  # noqa: F811
    made: list[Season] = []

    def make(db: Path) -> Season:
        s = Season(broker, tmp_path, db)
        made.append(s)
        return s

    yield make


async def test_a_golf_season_in_two_groups_across_three_pubs(
    season: Callable[[Path], Season], tmp_path: Path
) -> None:
    db = tmp_path / "league.db"
    with LeagueStore(str(db)) as store:
        comp = store.create("Golf 2026", game="golf", scheme="golf-frames")
        for name, group in (
            ("Ann", "A"),
            ("Bob", "A"),
            ("Cor", "A"),
            ("Dirk", "B"),
            ("Eva", "B"),
            ("Fien", "B"),
        ):
            store.add_player(comp, name, group=group)
        players = store.players(comp)
        scheme = comp.record
    games = [
        ("kroeg", "Ann", "Bob", [("p1", 3), ("p2", 4), ("p1", 0)]),
        ("zaal", "Bob", "Cor", [("p2", 1), ("p2", 2)]),
        ("hoek", "Cor", "Ann", [("p1", 4), ("p1", 4)]),
        ("kroeg", "Dirk", "Eva", [("p2", 0), ("p1", 2), ("p1", 1)]),
        ("zaal", "Eva", "Fien", [("p1", 2), ("p1", 3)]),
        ("hoek", "Fien", "Dirk", [("p2", 4), ("p1", 4), ("p1", 4)]),
    ]
    async with season(db) as s:
        for k, (pub, p1, p2, frames) in enumerate(games):
            play(s.pubs[pub][0], str(k % 2 + 1), golf_events(p1, p2, frames))
        await until(lambda: count(db) == len(games), what="the season in the league")
        assert s.refused == []
        logs = s.logs()
    got = tables(db, "Golf 2026")
    for group in got["groups"]:
        members = [p for p in players if p.group == group["group"]]
        names = {p.name for p in members}
        mine = [lines for lines in logs if json.loads(lines[0])["players"]["p1"] in names]
        assert group["standings"] == direct_table(scheme, members, mine), group["group"]
    a = {r["name"]: r for r in got["groups"][0]["standings"]}
    assert (a["Ann"]["frames_won"], a["Ann"]["frames_lost"]) == (2, 1 + 2) and a["Cor"]["points"] == 2 + 2


async def test_a_keglebillard_season_to_handicap_distances_across_three_pubs(
    season: Callable[[Path], Season], tmp_path: Path
) -> None:
    db = tmp_path / "league.db"
    with LeagueStore(str(db)) as store:
        comp = store.create("Kegle 2026", game="kegle", scheme="kegle-handicap")
        for name, average in (("Ann", 2.0), ("Bob", 1.5), ("Cor", 1.0)):  # distances 30, 23, 20
            store.add_player(comp, name, average)
        players = store.players(comp)
        scheme = comp.record
    distance = {p.name: scheme.kegle_distance(p.moyenne) for p in players}
    assert distance == {"Ann": 30, "Bob": 23, "Cor": 20}
    games = [
        ("kroeg", "Ann", "Bob", (10, 8)),
        ("zaal", "Bob", "Cor", (8, 6)),
        ("hoek", "Cor", "Ann", (10, 6)),
        ("kroeg", "Bob", "Ann", (6, 10)),
        ("zaal", "Cor", "Bob", (4, 10)),
        ("hoek", "Ann", "Cor", (8, 8)),
    ]
    async with season(db) as s:
        for k, (pub, p1, p2, per) in enumerate(games):
            play(s.pubs[pub][0], str(k % 2 + 1), kegle_events(p1, p2, (distance[p1], distance[p2]), per))
        await until(lambda: count(db) == len(games), what="the season in the league")
        assert s.refused == []
        logs = s.logs()
    got = tables(db, "Kegle 2026")
    assert got["standings"] == direct_table(scheme, players, logs)
    assert all(r["played"] == 4 and r["series"] > 0 and r["highest"] > 0 for r in got["standings"])


CAPPED = """name = "visite-3"
game = "carom"
title = "visitebiljart, short: three innings at most"
[match]
count = "belgian"
innings_cap = 3
[bonus]
points = 1
winner = 2
[team]
points = [2, 1, 0]
night = "ranks"
"""


async def test_a_season_of_team_nights_between_three_pubs(
    season: Callable[[Path], Season], tmp_path: Path
) -> None:
    """Six nights (three teams, home and away), played in one evening; two matches a night, one of
    them to the innings cap; the nights' scores on the home pub's overview and the team standings
    in the league equal those worked out from the pubs' logs."""
    db = tmp_path / "league.db"
    (tmp_path / "visite.toml").write_text(CAPPED)
    teams = {
        "Kroeg": ("kroeg", ["Ann", "Bob"]),
        "Zaal": ("zaal", ["Cor", "Dirk"]),
        "Hoek": ("hoek", ["Eva", "Fien"]),
    }
    today = dt.date.today().isoformat()
    with LeagueStore(str(db)) as store:
        comp = store.create("Visite", scheme=load(tmp_path / "visite.toml"))
        for team, (pub, names) in teams.items():
            store.add_team(comp, team, pub)
            for k, name in enumerate(names):
                store.add_player(comp, name, 0.8 + k, team=team)
        made = schedule({"": list(teams)}, dt.date.today(), 7)
        store.set_schedule(comp, [replace(f, date=today) for f in made])  # a season in one evening
        fixtures = store.fixtures(comp)
        players = store.players(comp)
        scheme = comp.record
    assert len(fixtures) == 6
    async with season(db) as s:
        for name, (pub, _) in s.pubs.items():  # the league told every home pub its nights
            await until(
                lambda pub=pub: pub.team_night and len(pub.team_night["nights"]) == 2, what=f"{name}'s nights"
            )
        first = fixtures[0]
        home_pub = s.pubs[teams[first.home][0]][0]
        client = TestClient(TestServer(make_app(home_pub)))
        await client.start_server()
        try:
            for n, f in enumerate(fixtures):
                pub = s.pubs[teams[f.home][0]][0]
                home, away = teams[f.home][1], teams[f.away][1]
                play(pub, "1", match_events(home[0], away[0], 5 + n, 3))
                if n == 0:  # the night's second match: three innings each, nobody at 20
                    t = Table(setup(targets={"p1": 20, "p2": 20}))
                    t.events[0]["players"] = {"p1": home[1], "p2": away[1]}
                    for _ in range(3):
                        t.run(2).piezo().run(3).piezo()
                    pub.start_match("2", {k: v for k, v in t.events[0].items() if k not in ("t", "type")})
                    for ev in t.events[1:]:
                        pub.submit(
                            "2", parse_event(ev), source="referee" if ev["type"] == "call" else "table"
                        )
                else:
                    play(pub, "2", match_events(home[1], away[1], 4, 2 + n))
            await until(lambda: count(db) == 12, what="every night's matches in the league")
            assert s.refused == []
            shown = await until(lambda: _night(home_pub, first.id), what="the night shown")
            resp = await client.get("/api/team-night")
            assert resp.status == 200 and _of(await resp.json(), first.id) == shown, "the overview's data"
            overview = await (await client.get("/")).text()
            assert 'id="team-night"' in overview and "team_night.js" in overview
            assert (await client.get("/static/team_night.js")).status == 200
            logs = s.logs()
            for name, (pub, _) in s.pubs.items():  # every match went out tagged with its night
                sent = [json.loads(p) for (p,) in pub.store.db.execute("SELECT payload FROM league_outbox")]
                assert len(sent) == 4 and all(
                    m["competition"] == "Visite"
                    and m["fixture"] in {f.id for f in fixtures if teams[f.home][0] == name}
                    for m in sent
                )
            ended = [m.ended for m in home_pub.store.matches(limit=10)]
            assert ended.count(None) == 0, "the capped match ended on the pub's scoreboard ..."
            [capped_id] = [m.id for m in home_pub.store.matches(limit=10)
                           if m.players == {"p1": teams[first.home][1][1], "p2": teams[first.away][1][1]}]
            capped_log = [e.line for e in home_pub.store.events(capped_id)]
            assert json.loads(capped_log[0])["innings_limit"] == 3, "set up to the night's innings cap"
            final = replay_match(capped_log).final
            assert final["winner"] == "p2" and "carom.innings-limit" in {r["rule"] for r in final["rulings"]}
        finally:
            await client.close()
    got = tables(db, "Visite")
    with LeagueStore(str(db)) as store:
        capped = [r for r in store.results(store.competition("Visite")) if r.innings == (3, 3)]
    assert len(capped) == 1 and capped[0].caroms == (6, 9) and capped[0].winner == "p2", (
        "... and the league read it there: 6/20 against 9/20"
    )
    assert got["standings"] == direct_table(scheme, players, logs)
    # the nights from the logs: each pub's matches are its home team's nights
    team_of = {p.name: p.team for p in players}
    by_name = {p.name: p for p in players}
    sums: dict[tuple[str, str], list[int]] = {}
    for lines in logs:
        r = games.read(replay_match(lines), scheme)
        r = games.score(r, scheme, (by_name[r.p1], by_name[r.p2]))
        key = (team_of[r.p1], team_of[r.p2])
        sums.setdefault(key, [0, 0])
        sums[key][0] += r.points[0]
        sums[key][1] += r.points[1]
    nights = {(n["home"], n["away"]): n for n in got["nights"]}
    assert len(nights) == 6 and all(n["matches"] == 2 == n["expected"] for n in nights.values())
    for (home, away), (a, b) in sums.items():
        assert nights[(home, away)]["points"] == [a, b]
        assert nights[(home, away)]["team_points"] == list(scheme.team_result(a, b))
    standing = {t["name"]: t for t in got["teams"]}
    for team in teams:
        tp = sum(n["team_points"][0] for n in nights.values() if n["home"] == team) + sum(
            n["team_points"][1] for n in nights.values() if n["away"] == team
        )
        assert standing[team]["team_points"] == tp and standing[team]["played"] == 4
    night0 = nights[(first.home, first.away)]
    assert (
        shown["home"]["points"] == night0["points"][0] and shown["away"]["points"] == night0["points"][1]
    ), "the pub's overview adds up as the league does"
    assert shown["played"] == 2 and shown["team_points"] == night0["team_points"]


def _joined(pub: Pub) -> bool:
    try:
        return pub.store.db.execute("SELECT 1 FROM league_joined").fetchone() is not None
    except Exception:  # the table is made by the link as it starts
        return False


def _night(pub: Pub, fixture: int) -> dict[str, Any] | None:
    found = _of(pub.team_night or {}, fixture)
    return found if found is not None and found["played"] == 2 else None


def _of(data: dict[str, Any], fixture: int) -> dict[str, Any] | None:
    return next((n for n in data.get("nights", []) if n["fixture"] == fixture), None)
