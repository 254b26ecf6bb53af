"""A flood of matches the service cannot store for a while (the database locked, a backlog of
long logs to check): it holds its most and leaves the socket unread (``mqtt._Gated``), and its
connection to the broker stays up all the while. paho's keepalive reads no PINGRESP from a
socket left unread: with nothing read for two keepalives it hung up, and every keepalive after
that while the service was still full, each time the broker sending again every match in
flight (a real Mosquitto, the keepalive shortened to keep the test short)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from helpers.waits import wait_until
from league_broker import Broker, broker  # noqa: F401 (the fixture)
from test_league_flood import FLOOD, NAMES, golf_messages, publish_all, stored

from tablesense.league import LeagueStore, mqtt
from tablesense.league.broker_url import parse_broker_url
from tablesense.league.mqtt import RECEIVE_MAXIMUM
from tablesense.league.service import LeagueService

#: the keepalive of the test's connection (seconds): the service's is ``mqtt.KEEPALIVE_S``
KEEPALIVE = 2
#: how long storing is held up: more than two keepalives, with margin
HELD_UP_S = 4 * KEEPALIVE


def test_the_league_stays_connected_while_it_holds_its_most_for_longer_than_a_keepalive(
        broker: Broker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setattr(mqtt, "KEEPALIVE_S", KEEPALIVE)
    db = tmp_path / "league.db"
    with LeagueStore(str(db)) as store:
        golf = store.create("Golf", game="golf", scheme="golf-frames")
        for name in NAMES:
            store.add_player(golf, name)
    messages = golf_messages(FLOOD)
    outcomes: list[str] = []
    service = LeagueService(parse_broker_url(broker.url("league")), str(db),
                            on_outcome=lambda out: outcomes.append(out.kind))
    said: list[str] = []
    report = service.subscriber.report
    say = report.say
    monkeypatch.setattr(report, "say", lambda text: (said.append(text), say(text)))
    service.start()
    try:
        assert service.subscriber.connected.wait(10)
        with service.inbox.lock:  # nothing can be stored meanwhile: the service holds its most
            publish_all(broker, messages)
            wait_until(lambda: service.subscriber.held >= RECEIVE_MAXIMUM, what="the service full")
            time.sleep(HELD_UP_S)
        wait_until(lambda: stored(db) == FLOOD, timeout=120, what="every match stored")
        gone = [text for text in said if "is gone" in text]
        assert not gone, f"the connection dropped while the service was full: {gone}"
        assert outcomes.count("stored") == FLOOD
    finally:
        service.close()
