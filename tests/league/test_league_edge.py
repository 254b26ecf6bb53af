"""The league's edge over a real Mosquitto (``league_broker``): the same match sent again, under
a new id or by another pub, counts once; a message beyond the size limit is refused by the
broker (``message_size_limit``, written by ``league broker-config``) and, where a broker has
no limit, by the service before it reads it; a long log from one pub does not hold back
another pub's match, nor cost the service its broker connection; junk of every kind is
listed on the league page with its reason, the page answers every poll, and nothing writes
a traceback."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.waits import until
from league_broker import Broker, broker, configure, free_port, serve_league, wait_port  # noqa: F401 (the fixture)
from league_play import START, lines_of, long_match_lines, match_events, play
from test_league_inbox import message
from test_league_mqtt import COMP, league, league_db, matches, results  # noqa: F401 (the fixture)

from tablesense.league import mqtt as league_mqtt
from tablesense.league.broker_url import parse_broker_url
from tablesense.league.limits import MAX_LOG_LINES, MAX_MESSAGE_BYTES
from tablesense.league.messages import match_id, matches_topic
from tablesense.league.mqtt import AsyncPublisher, NotConnected, PublishRefused
from tablesense.league.outbox import Outbox
from tablesense.league.publisher import start_publisher
from tablesense.league.service import LeagueService
from tablesense.pub import Pub
from tablesense.store import Store

BIG = 15 * 1024 * 1024  # the 200,000-line log


async def send(b: Broker, pub: str, *payloads: bytes, topic: str | None = None) -> None:
    """Publish as ``pub`` (QoS 1, each awaited until the broker's PUBACK)."""
    mqtt = AsyncPublisher(parse_broker_url(b.url(pub)), f"test-{pub}-{time.monotonic_ns()}")
    mqtt.start()
    try:
        await asyncio.wait_for(mqtt.up.wait(), 10)
        for payload in payloads:
            await mqtt.publish(topic or matches_topic(pub), payload, timeout=60)
    finally:
        await asyncio.to_thread(mqtt.close)


def service_dropped(err: str) -> bool:
    """The league service said its broker connection dropped (the test's pubs come and go)."""
    return any(line.startswith("tablesense league serve:") and "is gone" in line for line in err.splitlines())


def stored_in_order(service: LeagueService) -> list[str]:
    with service.inbox.lock:
        rows = service.inbox.db.execute("SELECT match_id FROM league_matches ORDER BY received").fetchall()
    return [m for (m,) in rows]


def refusals(service: LeagueService) -> list[tuple[str, str, str]]:
    return [(p, m, r) for p, m, r, _ in service.inbox.refused(1000)]


async def test_the_same_match_sent_again_under_a_new_id_or_by_another_pub_counts_once(
        broker: Broker, league: LeagueService, tmp_path: Path) -> None:  # noqa: F811
    lines = lines_of(match_events("Ann", "Bob", 5, 7))
    first = match_id("kroeg", "1", START)
    await send(broker, "kroeg", message("kroeg", lines), message("kroeg", lines))  # sent twice
    await until(lambda: matches(league) == [first], what="the match")
    await send(broker, "kroeg", message("kroeg", lines, started=START + 3600))  # a new id
    await send(broker, "zaal", message("zaal", lines))  # another pub
    await send(broker, "hoek", message("hoek", lines, started=START + 60, competition=COMP))
    got = await until(lambda: len(refusals(league)) == 3 and refusals(league), what="the refusals")
    assert sorted(p for p, _, _ in got) == ["hoek", "kroeg", "zaal"]
    assert all(f"the same match as {first} (sent by kroeg)" in r for _, _, r in got)
    assert [(r.p1, r.p2) for r in results(tmp_path / "league.db")] == [("Ann", "Bob")]
    assert matches(league) == [first]


async def test_the_broker_refuses_a_message_beyond_its_limit_and_others_go_on(
        broker: Broker, league: LeagueService, tmp_path: Path) -> None:  # noqa: F811
    conf = (broker.dir / "mosquitto.conf").read_text()
    assert f"message_size_limit {MAX_MESSAGE_BYTES}" in conf
    # Mosquitto 2.0 drops it and answers an MQTT 5 client with a PUBACK reason (0x95, packet too
    # large) that paho takes for a protocol error: the sender's connection drops
    with pytest.raises((PublishRefused, NotConnected)):
        await send(broker, "zaal", b"{" + b" " * BIG + b"}")
    await send(broker, "kroeg", message("kroeg", lines_of(match_events("Ann", "Bob", 5, 7))))
    await until(lambda: matches(league), what="the match behind the refused one")
    assert refusals(league) == [], "the league never saw it"


@pytest.fixture
def unlimited_broker(tmp_path: Path) -> Iterator[Broker]:
    """A broker set up by hand without the league's size limit."""
    port = free_port()
    directory = tmp_path / "unlimited"
    accounts = configure(directory, port)
    conf = directory / "mosquitto.conf"
    conf.write_text("".join(line for line in conf.read_text().splitlines(keepends=True)
                            if not line.startswith("message_size_limit")))
    b = Broker(directory, port, accounts)
    b.start()
    try:
        yield b
    finally:
        b.stop()


@pytest.fixture
async def watched(unlimited_broker: Broker, tmp_path: Path,
                  capsys: pytest.CaptureFixture[str]) -> AsyncIterator[LeagueService]:
    service = LeagueService(parse_broker_url(unlimited_broker.url("league")),
                            str(league_db(tmp_path / "league.db")), on_outcome=lambda out: None)
    service.start()
    assert await asyncio.to_thread(service.subscriber.connected.wait, 10)
    yield service
    await asyncio.to_thread(service.close)


async def test_the_service_refuses_a_message_beyond_the_limit_where_the_broker_has_none(
        unlimited_broker: Broker, watched: LeagueService, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    junk = b"[" * BIG  # read as JSON: nested fifteen million deep
    await send(unlimited_broker, "zaal", junk)
    [(pub, _, reason)] = await until(lambda: refusals(watched), timeout=30, what="the refusal")
    assert pub == "zaal" and f"the message is {BIG / 1e6:,.1f} MB; the league reads at most" in reason
    await send(unlimited_broker, "kroeg", message("kroeg", lines_of(match_events("Ann", "Bob", 5, 7))))
    await until(lambda: matches(watched), what="the next match")
    assert watched.subscriber.connected.is_set()
    err = capsys.readouterr().err
    assert not service_dropped(err) and "Traceback" not in err, err


async def test_a_long_log_does_not_hold_back_another_pubs_match_nor_the_broker_connection(
        broker: Broker, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(league_mqtt, "KEEPALIVE_S", 1)  # the broker drops a client silent for 1.5 s
    service = LeagueService(parse_broker_url(broker.url("league")), str(league_db(tmp_path / "league.db")),
                            on_outcome=lambda out: None)
    service.start()
    try:
        assert await asyncio.to_thread(service.subscriber.connected.wait, 10)
        long = long_match_lines("Cor", "Dirk", MAX_LOG_LINES)
        big = message("zaal", long)
        assert len(big) <= MAX_MESSAGE_BYTES
        await send(broker, "zaal", big)
        await until(lambda: "zaal" in service.checking() or matches(service),
                    what="the long log being checked")
        beside = "zaal" in service.checking()
        t0 = time.monotonic()
        await send(broker, "kroeg", message("kroeg", lines_of(match_events("Ann", "Bob", 5, 7))))
        await until(lambda: match_id("kroeg", "1", START) in matches(service), timeout=20,
                    what="kroeg's match beside zaal's long one")
        waited = time.monotonic() - t0
        await until(lambda: len(matches(service)) == 2, timeout=120, what="zaal's long match")
        players = sorted((r.p1, r.p2) for r in results(tmp_path / "league.db"))
        assert players == [("Ann", "Bob"), ("Cor", "Dirk")]
        assert waited < 10, f"kroeg's match waited {waited:.1f} s"
        if beside:  # sent while zaal's was being checked: stored before it
            assert [m.split(":")[0] for m in stored_in_order(service)] == ["kroeg", "zaal"]
        assert service.subscriber.connected.is_set()
    finally:
        await asyncio.to_thread(service.close)
    err = capsys.readouterr().err
    assert not service_dropped(err), f"the broker connection dropped during the replay: {err}"


@pytest.mark.parametrize("checkers", [None, 0], ids=["processes", "threads"])
async def test_a_fault_of_the_leagues_own_lists_the_message_and_the_next_goes_on(
        broker: Broker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
        checkers: int | None) -> None:
    from tablesense.league import ingest

    real = ingest.replayed

    def faulty(rec: Any, should_stop: Any = None) -> Any:
        # a stand-in for a bug in the league's own code: no known message makes one
        if rec.pub == "zaal":
            raise RuntimeError("a bug of the league's own")
        return real(rec, should_stop)

    monkeypatch.setattr(ingest, "replayed", faulty)  # before the start: the checker processes have it
    service = LeagueService(parse_broker_url(broker.url("league")), str(league_db(tmp_path / "league.db")),
                            on_outcome=lambda out: None, checkers=checkers)
    service.start()
    try:
        assert await asyncio.to_thread(service.subscriber.connected.wait, 10)
        lines = lines_of(match_events("Ann", "Bob", 5, 7))
        await send(broker, "zaal", message("zaal", lines))
        await send(broker, "kroeg", message("kroeg", lines))
        [(pub, _, reason)] = await until(lambda: refusals(service), what="the fault listed")
        assert pub == "zaal" and "could not check it (RuntimeError: a bug of the league's own)" in reason
        await until(lambda: matches(service) == [match_id("kroeg", "1", START)], what="the next match")
        assert service.waiting() == 0, "not checked again and again"
    finally:
        await asyncio.to_thread(service.close)


async def test_a_pub_does_not_send_a_match_longer_than_the_league_reads(
        broker: Broker, league: LeagueService, tmp_path: Path,  # noqa: F811
        capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / "kroeg.db")
    outbox = Outbox(path, "kroeg")
    big = message("kroeg", lines_of(match_events("Cor", "Dirk", 5, 7)), note="x" * MAX_MESSAGE_BYTES)
    outbox.db.execute("INSERT INTO league_outbox(key, match_id, payload, queued) VALUES ('7#166', 7, ?, 0)",
                      (big.decode(),))
    pub = Pub(Store(path), ["1"])
    task = start_publisher(pub, path, "kroeg", parse_broker_url(broker.url("kroeg")), final_after=0.0)
    try:
        await until(lambda: outbox.counts()["refused"] == 1, what="the long match kept back")
        play(pub, "1", match_events("Ann", "Bob", 5, 7))
        await until(lambda: results(tmp_path / "league.db"), what="the next match")
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        pub.store.close()
        outbox.close()
    err = capsys.readouterr().err
    assert f"match 7 is not sent to the league: {len(big) / 1e6:,.1f} MB, more than the 4.2 MB" in err
    assert "is gone" not in err, "the broker never had to drop it"


# --- junk of every kind, on the page --------------------------------------------------------

def junk(lines: list[str]) -> list[tuple[str, str, bytes, str]]:
    """(pub, topic kind, payload, words the refusal must say) for the junk a pub can send."""
    good = json.loads(message("kroeg", lines))

    def variant(**over: Any) -> bytes:
        return json.dumps({**good, **over}).encode()

    deep = ("[" * 200_000 + "]" * 200_000).encode()
    return [
        ("kroeg", "matches", deep, "Expected `object`, got `array`"),
        ("kroeg", "matches", b'{"v": 1, "junk": ' + deep + b"}", "nested too deeply"),
        ("kroeg", "matches", b'{"v": 1, "started": NaN}', "not a JSON match message"),
        ("kroeg", "matches", variant(revision=2**80), "at `$.revision`"),
        ("kroeg", "matches", variant(started="inf"), "at `$.started`"),
        ("kroeg", "matches", variant(started=1e300), "at `$.started`"),
        ("kroeg", "matches", variant(started=409_999_999_999.0), "at `$.started`"),
        ("kroeg", "matches", variant(v=1.0), "message version 1.0"),
        ("kroeg", "matches", variant(v=True), "message version True"),
        ("kroeg", "matches", variant(table=None), "at `$.table`"),
        ("kroeg", "matches", b"\xff\xfe not even text", "not a JSON match message"),
        ("zaal", "live/1", b'{"pub": "zaal", "table": "1", "x": ' + deep[:10_000] + b"}",
         "nested too deeply"),
        ("zaal", "live/3", b'{"pub": "zaal", "table": "3", "match": ' + deep + b"}", "a live state of"),
        ("zaal", "live/2", b'{"pub": "zaal", "table": "2", "match": {"started": Infinity}}',
         "not a JSON live"),
        ("hoek", "scores", b"{}", "a topic the league does not read"),
    ]


@pytest.fixture
def served(broker: Broker, tmp_path: Path) -> Iterator[tuple[int, Path]]:  # noqa: F811
    """``tablesense league serve`` as a process, over a league file that already holds rows no
    release writes (a start that is no date, a result that is no result)."""
    db = league_db(tmp_path / "league.db")
    con = sqlite3.connect(db)
    with con:
        con.executescript("""
            CREATE TABLE IF NOT EXISTS league_matches (match_id TEXT PRIMARY KEY, pub TEXT NOT NULL,
                table_id TEXT NOT NULL, started REAL NOT NULL, revision INTEGER NOT NULL,
                result_id INTEGER NOT NULL, received REAL NOT NULL, barrage INTEGER NOT NULL DEFAULT 0);
        """)
        cur = con.execute("INSERT INTO results (competition_id, data) VALUES (1, ?)",
                          (json.dumps({"p1": "Ann", "p2": "Cor", "caroms": [20, 3], "innings": [9, 9],
                                       "targets": [20, 20], "winner": "p1", "points": [11, 1],
                                       "high_run": [5, 1], "barrage": False}),))
        con.execute("INSERT INTO league_matches VALUES ('old:1:1', 'old', '1', ?, 1, ?, 0, 0)",
                    (float("inf"), cur.lastrowid))
        con.execute("INSERT INTO results (competition_id, data) VALUES (1, ?)",
                    ('{"p1": "Bob", "p2": "Cor", "caroms": NaN}',))
    con.close()
    http = free_port()
    err = tmp_path / "serve.err"
    proc = serve_league(broker, db, http, err)
    try:
        yield http, err
    finally:
        proc.terminate()
        proc.wait(10)


async def test_junk_of_every_kind_is_listed_on_the_page_which_answers_every_poll(
        broker: Broker, served: tuple[int, Path]) -> None:  # noqa: F811
    http, err = served
    statuses: list[int] = []

    def poll() -> dict[str, Any]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{http}/api/league", timeout=10) as r:
                statuses.append(r.status)
                return dict(json.load(r))
        except urllib.error.HTTPError as exc:
            statuses.append(exc.code)
            raise

    page = await asyncio.to_thread(poll)
    assert page["competitions"][0]["rounds"][0]["date"] == "?", "a start that is no date"
    assert [u["result"] for u in page["unreadable"]] == [2]
    lines = lines_of(match_events("Ann", "Bob", 5, 7))
    sent = junk(lines)
    for pub, kind, payload, _ in sent:
        topic = matches_topic(pub).rsplit("/", 1)[0] + "/" + kind
        await send(broker, pub, payload, topic=topic)
        await asyncio.to_thread(poll)
    await send(broker, "kroeg", message("kroeg", lines))

    def settled() -> dict[str, Any] | None:
        got = poll()
        done = got["refused_total"] == len(sent) and sum(len(r["results"]) for r in
                                                         got["competitions"][0]["rounds"]) == 2
        return got if done else None

    page = await until(lambda: settled(), timeout=60, what="every refusal on the page")
    reasons = [(x["pub"], x["reason"]) for x in page["refused"]]
    for pub, _, _, words in sent:
        assert any(p == pub and words in r for p, r in reasons), (pub, words, reasons)
    assert all(len(r) <= 300 for _, r in reasons)
    json.dumps(page, allow_nan=False)
    assert set(statuses) == {200}
    text = err.read_text()
    assert "Traceback" not in text, text
    assert len(text.splitlines()) <= len(sent) + 4, "one line per refusal and a few about the broker"
