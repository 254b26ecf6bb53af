"""A flood of matches the service cannot store for a while (the database locked, a backlog of
long logs to check): it holds its most and leaves the socket unread (``mqtt._Gated``), and its
connection to the broker stays up all the while. paho's keepalive reads no PINGRESP from a
socket left unread: with nothing read for two keepalives it hung up, and every keepalive after
that while the service was still full, each time the broker sending again every match in
flight (a real Mosquitto, the keepalive shortened to keep the test short)."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import paho.mqtt.client as paho
import pytest
from helpers.waits import wait_until
from league_broker import Broker, broker  # noqa: F401 (the fixture)
from test_league_flood import FLOOD, golf_league_service, golf_messages, publish_all, stored

from tablesense.league import mqtt
from tablesense.league.broker_url import parse_broker_url
from tablesense.league.mqtt import RECEIVE_MAXIMUM

#: the keepalive of the test's connection (seconds): the service's is ``mqtt.KEEPALIVE_S``
KEEPALIVE = 2
#: how long storing is held up: more than two keepalives, with margin
HELD_UP_S = 4 * KEEPALIVE


def broker_log_tail(b: Broker, lines: int = 15) -> list[str]:
    try:
        return (b.dir / "mosquitto.log").read_text(errors="replace").splitlines()[-lines:]
    except OSError as exc:
        return [f"unreadable: {exc}"]


def test_the_league_stays_connected_while_it_holds_its_most_for_longer_than_a_keepalive(
        broker: Broker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setattr(mqtt, "KEEPALIVE_S", KEEPALIVE)
    db, service, outcomes = golf_league_service(broker, tmp_path)
    messages = golf_messages(FLOOD)
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
        sub = service.subscriber
        try:  # every match: none stranded in the broker, none lost by the service
            wait_until(lambda: stored(db) == FLOOD, timeout=120, what="every match stored")
            wait_until(lambda: len(outcomes) >= FLOOD, what="every outcome said")  # after the commit
        except AssertionError as exc:  # where it stands, to tell a stall from a slow machine
            raise AssertionError(
                f"{exc}: {stored(db)} stored, outcomes {Counter(outcomes)}, held {sub.held}, "
                f"waiting {service.waiting()}, checking {service.checking()}, said {said}, "
                f"broker log: {broker_log_tail(broker)}") from None
        gone = [text for text in said if "is gone" in text]
        assert not gone, f"the connection dropped while the service was full: {gone}"
        assert outcomes == ["stored"] * FLOOD
    finally:
        service.close()


def test_the_league_still_finds_pahos_keepalive_clock_it_tells_of_unread_bytes() -> None:
    """``mqtt._Gated._still_heard`` writes paho's own fields (its clock, its mutex, its time of
    the last bytes read) and does nothing if they are gone: a paho that renamed them fails here,
    at once, rather than as a league that hangs up on a full service."""
    assert mqtt._PAHO_TIME is paho.time_func
    client = mqtt.make_client(parse_broker_url("mqtt://127.0.0.1/"), "keepalive-fields")
    assert hasattr(client, "_msgtime_mutex")
    client._last_bytes_received = before = mqtt._PAHO_TIME() - 60
    client._still_heard()
    assert client._last_bytes_received > before
