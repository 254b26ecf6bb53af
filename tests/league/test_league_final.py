"""When a pub's result goes to the league: when it is final, over a real Mosquitto
(``league_broker``) and the league service.

A sensor-only carom match is over for the engine at the rest of its last inning; the
referee's carom call for that shot, which the panel asks for after the rest, reopens it.
Sent at the rest, the league showed a winner the next call reversed (the season soak's
anchor, seed 7). Now a result goes when the referee has moved on: the next set-up at its
table, or no change for the grace period after its end (``publisher.final_at``); a change
after it went (a void from "Shots and calls") goes again under a higher revision, which
replaces it in the league.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers.waits import until
from league_broker import Broker, broker  # noqa: F401 (the fixture)
from league_play import TARGET, match_events, play
from test_carom_helpers import Table, setup
from test_league_mqtt import COMP, league_db, results

from tablesense.events import parse_event
from tablesense.league import LeagueStore, result_from_lines
from tablesense.league.broker_url import parse_broker_url
from tablesense.league.outbox import Outbox
from tablesense.league.publisher import start_publisher
from tablesense.league.service import LeagueService
from tablesense.pub import Pub
from tablesense.store import Store

GRACE = 2.5  # seconds the referee has to amend an ended match, in these tests


@dataclass
class League:
    service: LeagueService
    db: Path

    def results(self) -> list[Any]:
        return results(self.db)

    def revisions(self) -> list[int]:
        with self.service.inbox.lock:
            rows = self.service.inbox.db.execute("SELECT revision FROM league_matches").fetchall()
        return [r for (r,) in rows]


@pytest.fixture
async def league(broker: Broker, tmp_path: Path) -> AsyncIterator[League]:  # noqa: F811
    db = league_db(tmp_path / "league.db")
    service = LeagueService(parse_broker_url(broker.url("league")), str(db), on_outcome=lambda out: None)
    service.start()
    assert await asyncio.to_thread(service.subscriber.connected.wait, 10)
    yield League(service, db)
    await asyncio.to_thread(service.close)


@pytest.fixture
def pub_db(tmp_path: Path) -> Iterator[tuple[Pub, str]]:
    path = str(tmp_path / "kroeg.db")
    pub = Pub(Store(path), ["1", "2"])
    yield pub, path
    pub.store.close()


async def _publishing(pub: Pub, path: str, broker: Broker, final_after: float) -> asyncio.Task[None]:  # noqa: F811
    """The pub's league link, once it has joined the league (matches started before are not sent)."""
    task = start_publisher(pub, path, "kroeg", parse_broker_url(broker.url("kroeg")), final_after=final_after)

    def joined() -> bool:
        con = sqlite3.connect(path)
        try:
            made = con.execute("SELECT COUNT(*) FROM sqlite_master WHERE name='league_joined'").fetchone()[0]
            return bool(made and con.execute("SELECT COUNT(*) FROM league_joined").fetchone()[0])
        finally:
            con.close()

    await until(joined, what="the league link")
    await asyncio.sleep(0.01)  # a match started now starts after it joined
    return task


async def _stop(task: asyncio.Task[None]) -> None:
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


def _submit(pub: Pub, table: str, events: list[dict[str, Any]]) -> None:
    for ev in events:
        pub.submit(table, parse_event(ev), source="referee" if ev["type"] == "call" else "table")


def _outbox_rows(path: str) -> int:
    outbox = Outbox(path, "kroeg")
    try:
        return int(outbox.db.execute("SELECT COUNT(*) FROM league_outbox").fetchone()[0])
    finally:
        outbox.close()


# the ways a sensor-only carom match is over at a rest whose shot the referee's carom call
# then amends: the log to that rest, and what follows (the call first) to the real end
def _equalising(target: int, bob: int) -> tuple[Table, list[dict[str, Any]]]:
    """Ann (breaking) makes her target at once; in Bob's equalising inning the carom of his
    ``bob``-th scoring shot is called a beat late, after the rest that ended the match; then he
    misses (or is level: a draw at the call)."""
    t = Table(setup(targets={"p1": target, "p2": target}))
    t.run(target)
    t.run(bob - 1).piezo()  # the last shot's carom not called yet: over, Ann's
    after = Table(t.events[0])
    after.t = t.t
    after.call("carom")
    if bob < target:
        after.piezo()
    return t, after.events[1:]


def _innings_limit(limit: int) -> tuple[Table, list[dict[str, Any]]]:
    """An innings limit: both miss every inning (a draw at Bob's last rest); the carom of that
    last shot is called late, Bob runs two more and misses: his."""
    t = Table(setup(targets={"p1": TARGET, "p2": TARGET}, innings_limit=limit))
    for _ in range(2 * limit):
        t.piezo()
    after = Table(t.events[0])
    after.t = t.t
    after.call("carom").run(2).piezo()
    return t, after.events[1:]


ENDINGS = {
    "equalising inning, Bob level at the call": lambda: _equalising(TARGET, TARGET),
    "equalising inning, Bob short": lambda: _equalising(TARGET, 5),
    "innings limit of 2": lambda: _innings_limit(2),
    "innings limit of 3": lambda: _innings_limit(3),
}


@pytest.mark.parametrize("ending", list(ENDINGS))
async def test_a_match_the_referees_late_carom_call_changes_reaches_the_league_once_with_the_right_result(
        broker: Broker, league: League, pub_db: tuple[Pub, str], ending: str) -> None:  # noqa: F811
    pub, path = pub_db
    task = await _publishing(pub, path, broker, GRACE)
    try:
        before, after = ENDINGS[ending]()
        pub.start_match("1", {k: v for k, v in before.events[0].items() if k not in ("t", "type")})
        _submit(pub, "1", before.events[1:])
        tab = pub.table("1")
        assert tab.match is not None and tab.match.ended is not None, "the engine ended it at the rest"
        provisional = result_from_lines(pub.export_lines(tab.match.id))
        await asyncio.sleep(GRACE * 0.4)  # the referee looks up from the table and taps "carom"
        _submit(pub, "1", after[:1])
        if tab.match.ended is None:  # reopened: played on
            await asyncio.sleep(GRACE * 1.5)  # longer than the grace from the first end
            assert league.results() == [] and _outbox_rows(path) == 0, "the reopened match was not sent"
            _submit(pub, "1", after[1:])
        assert tab.match.ended is not None
        await asyncio.sleep(GRACE * 0.4)
        assert _outbox_rows(path) == 0, "the result waits out the referee's grace period"
        [got] = await until(league.results, timeout=GRACE + 20, what="the final result in the league")
        assert league.service.inbox.refused() == []
        want = result_from_lines(pub.export_lines(tab.match.id))
        assert (got.winner, got.caroms, got.innings, got.points) == (want.winner, want.caroms, want.innings,
                                                                     want.points)
        assert (want.winner, want.caroms) != (provisional.winner, provisional.caroms)  # the call counted
        assert (pub.store.match(tab.match.id).result or {}).get("winner") == want.winner  # the history's too
        assert league.revisions() == [len(pub.export_lines(tab.match.id, raw=True))]
        await asyncio.sleep(0.5)
        assert _outbox_rows(path) == 1 and len(league.results()) == 1  # one version of the match, ever
    finally:
        await _stop(task)


async def test_the_next_set_up_at_the_table_makes_the_result_final_at_once(
        broker: Broker, league: League, pub_db: tuple[Pub, str]) -> None:  # noqa: F811
    pub, path = pub_db
    task = await _publishing(pub, path, broker, final_after=3600.0)  # the grace alone would take an hour
    try:
        play(pub, "1", match_events("Ann", "Bob", 5, 7))
        play(pub, "2", match_events("Cor", "Dirk", 3, 4))
        await asyncio.sleep(1.0)
        assert league.results() == []
        events = match_events("Bob", "Cor", 2, 3)
        pub.start_match("1", {k: v for k, v in events[0].items() if k not in ("t", "type")})  # the next match
        [got] = await until(league.results, timeout=15, what="the result of the match before the set-up")
        assert (got.p1, got.p2) == ("Ann", "Bob")
        await asyncio.sleep(1.0)
        assert len(league.results()) == 1, "table 2's match is still open to its referee"
    finally:
        await _stop(task)


@pytest.mark.parametrize("which", [0, 3, 6])
async def test_a_void_after_the_result_went_is_sent_again_and_replaces_it(
        broker: Broker, league: League, pub_db: tuple[Pub, str], which: int) -> None:  # noqa: F811
    """The referee voids one of Bob's counted caroms of his first inning (``which``) after the
    league has the result: the match stays over, with a different score, sent again under a
    higher revision; the league holds the new one only."""
    pub, path = pub_db
    task = await _publishing(pub, path, broker, final_after=1.0)
    try:
        events = match_events("Ann", "Bob", 5, 7)
        mid = play(pub, "1", events)
        first = await until(league.results, timeout=15, what="the result")
        assert [(r.caroms, r.points) for r in first] == [((TARGET, 19), (11, 9))]
        [rev1] = league.revisions()
        # the shot of Bob's (which+1)-th carom: the lines after the rest before its call, to the call
        lines = pub.export_lines(mid)
        calls = [n for n, line in enumerate(lines, start=1) if '"carom"' in line and '"call"' in line]
        call = calls[5 + which]  # Ann's 5 first
        seq = call - 1  # the shot's rest, then back over its cushions
        while '"cushion"' in lines[seq - 2]:
            seq -= 1
        assert '"cushion"' in lines[seq - 1] and '"rest"' in lines[call - 2], lines[seq - 1:call]
        pub.void("1", seq, call)  # the shot and its call: that carom never was
        assert pub.table("1").match.ended is not None  # type: ignore[union-attr]
        await until(lambda: league.revisions() != [rev1], timeout=15, what="the new revision")
        [again] = league.results()
        want = result_from_lines(pub.export_lines(mid))
        assert again.caroms == want.caroms == (TARGET, 18) and again.points == want.points
        assert league.revisions() == [len(pub.export_lines(mid, raw=True))] and league.revisions()[0] > rev1
        with LeagueStore(str(league.db)) as store:
            assert len(store.results(store.competition(COMP))) == 1
    finally:
        await _stop(task)


async def test_a_full_disk_delays_a_final_result_and_loses_nothing(
        broker: Broker, league: League, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    """The pub's disk is full when a result becomes final (a tmpfs of 2 MB filled to the last
    byte): the outbox cannot take it, which is said once; the link goes on, and once the disk
    has room the result goes, once."""
    from test_store_full_disk import _fill, small_disk

    with small_disk(tmp_path / "disk", "2m") as disk:
        path = str(disk / "kroeg.db")
        pub = Pub(Store(path), ["1"])
        task = await _publishing(pub, path, broker, final_after=1.5)
        try:
            play(pub, "1", match_events("Ann", "Bob", 5, 7))
            pub.store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # no room left to free in the log
            _fill(disk / "filler")
            await asyncio.sleep(4.0)  # final meanwhile: the outbox refuses it
            assert league.results() == [] and not task.done()
            (disk / "filler").unlink()
            [got] = await until(league.results, timeout=20, what="the result once the disk has room")
            assert (got.p1, got.p2, got.caroms) == ("Ann", "Bob", (TARGET, 19))
        finally:
            await _stop(task)
            pub.store.close()
    err = capsys.readouterr().err
    assert err.count("the league's outbox cannot be written") == 1, err
    assert err.count("the league's outbox takes writes again") == 1 and "Traceback" not in err
