"""A flood of matches through a real Mosquitto (``league_broker``): the league service holds
at most ``mqtt.RECEIVE_MAXIMUM`` matches received and not stored, and at most
``mqtt.HELD_BYTES`` of them and one more, whatever the broker sends (Mosquitto 2.0.11 sends
more than the league's MQTT 5 Receive Maximum once they queue); the rest wait in the broker,
and none is lost."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import paho.mqtt.client as paho
import pytest
from helpers.waits import wait_until
from league_broker import Broker, broker  # noqa: F401 (the fixture)
from league_play import START, golf_events
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from tablesense.league import LeagueStore
from tablesense.league.broker_url import parse_broker_url
from tablesense.league.messages import encode, match_message, matches_topic, reported
from tablesense.league.mqtt import RECEIVE_MAXIMUM
from tablesense.league.service import LeagueService
from tablesense.replay import Replay

NAMES = ("Ann", "Bob", "Cor", "Dirk")
#: matches sent at once: three times what the service may hold
FLOOD = 3 * RECEIVE_MAXIMUM
#: the bytes limit of the test that sets one: about this many of its matches
BY_BYTES = 12


def golf_messages(n: int) -> list[bytes]:
    """``n`` short golf matches of kroeg's table 1, each its own log."""
    out = []
    for k in range(n):
        p1, p2 = NAMES[k % 4], NAMES[(k + 1) % 4]
        events = golf_events(p1, p2, [("p1", k % 5), ("p1", (k // 5) % 5)])
        for e in events[1:]:
            e["t"] = e["t"] + k  # a log of its own: the league counts a log once
        lines = [json.dumps(e) for e in events]
        rep = Replay().feed_lines(lines)
        assert rep.engine is not None and rep.state is not None
        out.append(encode(match_message("kroeg", "1", START + 60 * k, "golf", {"p1": p1, "p2": p2}, lines,
                                        reported(rep.engine.to_json(rep.state)))))
    return out


def stored(db: Path) -> int:
    con = sqlite3.connect(db)
    try:
        return int(con.execute("SELECT COUNT(*) FROM league_matches").fetchone()[0])
    finally:
        con.close()


def golf_league_service(b: Broker, tmp_path: Path) -> tuple[Path, LeagueService, list[str]]:
    """A golf league of ``NAMES`` in ``tmp_path``, its service (not started) on ``b`` and the
    kinds of the outcomes it reports, in order."""
    db = tmp_path / "league.db"
    with LeagueStore(str(db)) as store:
        golf = store.create("Golf", game="golf", scheme="golf-frames")
        for name in NAMES:
            store.add_player(golf, name)
    outcomes: list[str] = []
    service = LeagueService(parse_broker_url(b.url("league")), str(db),
                            on_outcome=lambda out: outcomes.append(out.kind))
    return db, service, outcomes


def publish_all(b: Broker, messages: list[bytes]) -> None:
    """kroeg publishes every message at once (as many in flight as it likes), each taken by
    the broker (its PUBACK) before this returns."""
    c = paho.Client(CallbackAPIVersion.VERSION2, client_id="flood", protocol=MQTTProtocolVersion.MQTTv5)
    c.username_pw_set("kroeg", b.passwords["kroeg"])
    c.max_inflight_messages_set(len(messages))
    c.connect("127.0.0.1", b.port)
    c.loop_start()
    try:
        infos = [c.publish(matches_topic("kroeg"), m, qos=1) for m in messages]
        for info in infos:
            info.wait_for_publish(30)
            assert info.is_published()
    finally:
        c.disconnect()
        c.loop_stop()


@pytest.mark.parametrize("limit", ["messages", "bytes"])
def test_a_flood_of_matches_waits_in_the_broker_not_in_the_service(
        broker: Broker, tmp_path: Path, limit: str) -> None:  # noqa: F811
    db, service, outcomes = golf_league_service(broker, tmp_path)
    messages = golf_messages(FLOOD)
    held = service.subscriber
    if limit == "bytes":  # reached long before the number of messages
        held.max_bytes = BY_BYTES * min(len(m) for m in messages)
    # reached, and never passed by more than the one message read last
    most, over = (RECEIVE_MAXIMUM, 0) if limit == "messages" else (held.max_bytes, max(map(len, messages)))

    def holding() -> int:
        return held.held if limit == "messages" else held.held_bytes

    def held_most() -> int:
        return held.held_most if limit == "messages" else held.held_bytes_most

    service.start()
    try:
        assert service.subscriber.connected.wait(10)
        with service.inbox.lock:  # nothing can be stored meanwhile: what the broker sends piles up
            publish_all(broker, messages)
            wait_until(lambda: holding() >= most, what="the service holding its most")
            time.sleep(0.5)  # the broker has every match and time to send more than the most
            assert most <= held_most() <= most + over
            assert service.waiting() <= RECEIVE_MAXIMUM
            assert stored(db) == 0
        wait_until(lambda: stored(db) == FLOOD, timeout=120, what="every match stored")
        wait_until(lambda: len(outcomes) >= FLOOD, what="every outcome said")  # after the commit
        assert held_most() <= most + over, "never more held than the most, once storing again"
        assert outcomes == ["stored"] * FLOOD
        wait_until(lambda: held.held == held.held_bytes == 0 and service.waiting() == 0,
                   what="every match acknowledged")
    finally:
        service.close()
