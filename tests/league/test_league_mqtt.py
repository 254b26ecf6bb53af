"""The league over a real Mosquitto (``league_broker``): pubs publish, the broker's ACL
keeps each pub to its own topics, the league service checks and stores each match once."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from helpers.waits import until
from league_broker import Broker, broker, free_port  # noqa: F401 (the fixture)
from league_play import START, match_events, play

from tablesense.league import LeagueStore
from tablesense.league.broker_url import parse_broker_url
from tablesense.league.messages import encode, match_id, match_message, matches_topic, reported
from tablesense.league.mqtt import AsyncPublisher, PublishRefused
from tablesense.league.outbox import Outbox
from tablesense.league.publisher import start_publisher
from tablesense.league.service import LeagueService
from tablesense.pub import Pub
from tablesense.replay import Replay
from tablesense.store import Store

COMP = "Najaar 2026"
MEMBERS = ("Ann", "Bob", "Cor", "Dirk")


def league_db(path: Path) -> Path:
    with LeagueStore(str(path)) as store:
        comp = store.create(COMP, season="2026-2027", profile="club")
        for name in MEMBERS:
            store.add_player(comp, name, 0.8)
    return path


def matches(league: LeagueService) -> list[str]:
    """The match ids the league service stored."""
    with league.inbox.lock:
        rows = league.inbox.db.execute("SELECT match_id FROM league_matches ORDER BY match_id").fetchall()
    return [m for (m,) in rows]


def results(db: Path) -> list[Any]:
    with LeagueStore(str(db)) as store:
        return store.results(store.competition(COMP))


@pytest.fixture
async def league(broker: Broker, tmp_path: Path) -> AsyncIterator[LeagueService]:  # noqa: F811
    service = LeagueService(parse_broker_url(broker.url("league")), str(league_db(tmp_path / "league.db")),
                            on_outcome=lambda out: None)
    service.start()
    assert await asyncio.to_thread(service.subscriber.connected.wait, 10)
    yield service
    await asyncio.to_thread(service.close)


@pytest.fixture
async def kroeg(broker: Broker, tmp_path: Path) -> AsyncIterator[tuple[Pub, str]]:  # noqa: F811
    path = str(tmp_path / "kroeg.db")
    pub = Pub(Store(path), ["1", "2"])
    # a result is final at once here (no time for the referee to amend it): these tests are about
    # the way to the league; tests/league/test_league_final.py is about when a result goes
    task = start_publisher(pub, path, "kroeg", parse_broker_url(broker.url("kroeg")), final_after=0.0)
    yield pub, path
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    pub.store.close()


async def test_a_pub_cannot_publish_under_another_pubs_topic(broker: Broker,  # noqa: F811
                                                             league: LeagueService) -> None:
    mqtt = AsyncPublisher(parse_broker_url(broker.url("kroeg")), "forger")
    mqtt.start()
    try:
        await asyncio.wait_for(mqtt.up.wait(), 10)
        forged = match_message("zaal", "1", START + 1, "carom", {"p1": "Ann", "p2": "Bob"},
                               [json.dumps(e) for e in match_events("Ann", "Bob", 3, 4)], {})
        with pytest.raises(PublishRefused, match="Not authorized"):
            await mqtt.publish(matches_topic("zaal"), encode(forged))
        with pytest.raises(PublishRefused):
            await mqtt.publish("tablesense/pubs/kroeg-x/matches", encode(forged))
        # its own topic is open to it: that match arrives, the forged one never did
        lines = [json.dumps(e) for e in match_events("Ann", "Bob", 3, 4)]
        rep = Replay().feed_lines(lines)
        assert rep.engine is not None and rep.state is not None
        own = match_message("kroeg", "1", START + 2, "carom", {"p1": "Ann", "p2": "Bob"}, lines,
                            reported(rep.engine.to_json(rep.state)))
        await mqtt.publish(matches_topic("kroeg"), encode(own))
    finally:
        await asyncio.to_thread(mqtt.close)
    rows = await until(lambda: matches(league))
    assert rows == [match_id("kroeg", "1", START + 2)]
    assert league.inbox.refused() == []


async def test_a_finished_match_reaches_the_league_once(league: LeagueService, kroeg: tuple[Pub, str],
                                                        tmp_path: Path) -> None:
    pub, path = kroeg
    play(pub, "1", match_events("Ann", "Bob", 5, 7))
    await until(lambda: results(tmp_path / "league.db"), what="the match in the league")
    [r] = results(tmp_path / "league.db")
    assert (r.p1, r.p2, r.caroms, r.innings, r.points) == ("Ann", "Bob", (20, 19), (2, 2), (11, 9))
    outbox = Outbox(path, "kroeg")
    await until(lambda: outbox.counts()["sent"] == 1)
    outbox.db.execute("UPDATE league_outbox SET sent=NULL")  # as if its PUBACK had been lost: sent again
    play(pub, "2", match_events("Cor", "Dirk", 2, 3))
    await until(lambda: len(results(tmp_path / "league.db")) == 2 and outbox.counts()["waiting"] == 0)
    await asyncio.sleep(0.3)
    assert len(results(tmp_path / "league.db")) == 2, "the match sent twice counts once"
    outbox.close()


async def test_live_tables_are_retained_for_a_league_that_starts_later(
        broker: Broker, kroeg: tuple[Pub, str], tmp_path: Path) -> None:  # noqa: F811
    pub, _ = kroeg
    events = match_events("Ann", "Bob", 5, 7)
    pub.start_match("2", {k: v for k, v in events[0].items() if k not in ("t", "type")})
    await asyncio.sleep(0.5)  # published, retained, before any league service runs
    service = LeagueService(parse_broker_url(broker.url("league")), str(league_db(tmp_path / "late.db")),
                            on_outcome=lambda out: None)
    service.start()
    try:
        live = await until(service.live, what="the live table")
        assert [(x["pub"], x["table"], x["match"]["players"]) for x in live] == [
            ("kroeg", "2", {"p1": "Ann", "p2": "Bob"})]
    finally:
        await asyncio.to_thread(service.close)


async def test_a_match_sent_before_any_league_subscribed_waits_in_the_outbox_until_one_has(
        broker: Broker, kroeg: tuple[Pub, str], tmp_path: Path,  # noqa: F811
        capfd: pytest.CaptureFixture[str]) -> None:
    """A new broker has no subscription of the league until ``league serve`` first connects:
    it drops a match sent before and answers "No matching subscribers". The pub keeps it."""
    pub, path = kroeg
    said: list[str] = []

    def stderr() -> str:
        said.append(capfd.readouterr().err)
        return "".join(said)

    play(pub, "1", match_events("Ann", "Bob", 5, 7))
    outbox = Outbox(path, "kroeg")
    try:
        await until(lambda: "no league service subscribed" in stderr(), what="the pub saying so")
        assert outbox.counts()["sent"] == 0 and outbox.counts()["waiting"] == 1
        db = str(league_db(tmp_path / "league.db"))
        service = LeagueService(parse_broker_url(broker.url("league")), db, on_outcome=lambda out: None)
        service.start()
        try:
            await until(lambda: results(tmp_path / "league.db"), timeout=30, what="the match in the league")
            await until(lambda: outbox.counts()["sent"] == 1, what="the match off the outbox")
            assert "takes the matches for the league again" in stderr()
        finally:
            await asyncio.to_thread(service.close)
    finally:
        outbox.close()


@pytest.mark.slow
async def test_the_outbox_keeps_matches_while_the_broker_is_down(
        broker: Broker, league: LeagueService, kroeg: tuple[Pub, str], tmp_path: Path) -> None:  # noqa: F811
    pub, path = kroeg
    await asyncio.sleep(0.3)
    broker.stop()
    play(pub, "1", match_events("Ann", "Cor", 10, 2))
    outbox = Outbox(path, "kroeg")
    await until(lambda: outbox.counts()["waiting"] == 1, what="the match in the outbox")
    await asyncio.sleep(0.5)
    assert results(tmp_path / "league.db") == []
    broker.start()
    await until(lambda: results(tmp_path / "league.db"), timeout=30, what="the outbox drained")
    assert outbox.counts() == {"waiting": 0, "sent": 1, "refused": 0}
    outbox.close()


async def test_a_result_that_disagrees_with_its_log_is_refused(broker: Broker,  # noqa: F811
                                                               league: LeagueService, tmp_path: Path) -> None:
    lines = [json.dumps(e) for e in match_events("Ann", "Bob", 5, 7)]
    told = {"winner": "p2", "caroms": {"p1": 19, "p2": 20}, "innings": {"p1": 2, "p2": 2},
            "targets": {"p1": 20, "p2": 20}}
    mqtt = AsyncPublisher(parse_broker_url(broker.url("kroeg")), "liar")
    mqtt.start()
    try:
        await asyncio.wait_for(mqtt.up.wait(), 10)
        msg = match_message("kroeg", "1", START + 3, "carom", {"p1": "Ann", "p2": "Bob"}, lines, told)
        await mqtt.publish(matches_topic("kroeg"), encode(msg))
    finally:
        await asyncio.to_thread(mqtt.close)
    [(pub, match, reason, _)] = await until(league.inbox.refused)
    assert (pub, match) == ("kroeg", match_id("kroeg", "1", START + 3))
    assert "disagrees with its own log" in reason and "winner p2 (log: p1)" in reason
    assert results(tmp_path / "league.db") == []


@pytest.mark.slow
def test_run_with_league_publishes_the_pubs_tables(broker: Broker, tablesense_cmd: list[str],  # noqa: F811
                                                   tmp_path: Path) -> None:
    http = free_port()
    env = {**os.environ, "TABLESENSE_BROKER_PASSWORD": broker.passwords["kroeg"]}  # not on the command line
    proc = subprocess.Popen([*tablesense_cmd, "run", "--tables", "1", "--port-http", str(http),
                             "--db", str(tmp_path / "pub.db"), "--league", f"mqtt://kroeg@127.0.0.1:{broker.port}",
                             "--pub", "kroeg"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        got = subprocess.run(["mosquitto_sub", "-h", "127.0.0.1", "-p", str(broker.port), "-u", "league",
                              "-P", broker.passwords["league"], "-t", "tablesense/pubs/kroeg/live/1",
                              "-C", "1", "-W", "15"], capture_output=True, text=True, timeout=30)
        assert json.loads(got.stdout) == {"pub": "kroeg", "table": "1", "match": None}
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=15)
    assert proc.returncode == 0, err
    assert "league: kroeg on mqtt://kroeg@127.0.0.1" in out
    assert broker.passwords["kroeg"] not in out + err


@pytest.mark.parametrize(("args", "message"), [
    (["--league", "mqtt://x:y@127.0.0.1:1883"], "--league and --pub go together"),
    (["--league", "http://x", "--pub", "kroeg"], "starts mqtt://"),
    (["--league", "mqtt://x:y@127.0.0.1:1883", "--pub", "a/b"], "a pub's name"),
    (["--league", "mqtt://kroeg@127.0.0.1:1883", "--pub", "kroeg"], "no password for kroeg"),
])
def test_bad_league_options_are_one_line(tablesense_cmd: list[str], tmp_path: Path, args: list[str],
                                         message: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TABLESENSE_BROKER_PASSWORD"}
    done = subprocess.run([*tablesense_cmd, "run", "--tables", "1", "--db", str(tmp_path / "x.db"), *args],
                          capture_output=True, text=True, timeout=30, env=env)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


async def test_a_match_that_ended_while_the_host_was_down_is_sent_at_its_next_start(
        broker: Broker, league: LeagueService, tmp_path: Path) -> None:  # noqa: F811
    path = str(tmp_path / "crashed.db")
    Outbox(path, "kroeg").close()  # the pub had joined the league before
    pub = Pub(Store(path), ["1"])
    play(pub, "1", match_events("Bob", "Dirk", 4, 9))  # its host died before the league link saw it end
    task = start_publisher(pub, path, "kroeg", parse_broker_url(broker.url("kroeg")), final_after=0.0)
    try:
        await until(lambda: results(tmp_path / "league.db"), what="the match from the match log")
        assert [(r.p1, r.p2) for r in results(tmp_path / "league.db")] == [("Bob", "Dirk")]
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        pub.store.close()


@pytest.mark.slow
async def test_a_wrong_password_is_said_once(broker: Broker, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    mqtt = AsyncPublisher(parse_broker_url(broker.url("kroeg", "wrong")), "wrong-password")
    mqtt.start()
    try:
        await asyncio.sleep(2.5)  # paho tries again after 1 s, then 2 s
        assert not mqtt.up.is_set()
    finally:
        await asyncio.to_thread(mqtt.close)
    err = capsys.readouterr().err
    assert err.count("refuses us: Not authorized") == 1 and "is gone" not in err, err


@pytest.mark.slow
async def test_a_league_database_locked_by_another_program_delays_a_match_but_keeps_it(
        league: LeagueService, kroeg: tuple[Pub, str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    import sqlite3

    pub, _ = kroeg
    holder = sqlite3.connect(tmp_path / "league.db", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # e.g. a backup tool, longer than SQLite's 5 s busy wait
    try:
        play(pub, "1", match_events("Ann", "Dirk", 6, 2))
        await asyncio.sleep(6.5)
        assert "cannot be stored now (database is locked); trying again" in capsys.readouterr().err
    finally:
        holder.execute("COMMIT")
        holder.close()
    await until(lambda: results(tmp_path / "league.db"), timeout=20, what="the match stored after the lock")
    assert [(r.p1, r.p2) for r in results(tmp_path / "league.db")] == [("Ann", "Dirk")]


async def test_a_broker_that_does_not_answer_is_said_once(capsys: pytest.CaptureFixture[str]) -> None:
    mqtt = AsyncPublisher(parse_broker_url(f"mqtt://kroeg:pw@127.0.0.1:{free_port()}"), "nobody-there")
    mqtt.start()
    try:
        await asyncio.sleep(2.5)  # tried at once, after 1 s and after 2 s
        assert not mqtt.up.is_set()
    finally:
        await asyncio.to_thread(mqtt.close)
    err = capsys.readouterr().err
    assert err.count("cannot reach the broker mqtt://kroeg@127.0.0.1") == 1, err
