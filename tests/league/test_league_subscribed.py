"""The league service says it is connected (``Subscriber.connected``) only once the broker has
granted its subscription: a match a pub sends before then is dropped by a broker that has no
subscription of the league yet (a new broker, its first connect; Mosquitto answers the pub "No
matching subscribers"). Seen under a loaded ``make test``: the flood's first match, sent the
moment the service was connected, reached the broker before the service's SUBSCRIBE, and 299
of 300 were stored (docs/league.md, "A match sent before the league subscribed")."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from helpers.waits import wait_until
from league_broker import Broker, broker  # noqa: F401 (the fixture)
from test_league_flood import golf_league_service, golf_messages, publish_all, stored

#: how long the service's SUBSCRIBE is held back on its way to the broker (a loaded machine):
#: far longer than connecting a pub and sending one match takes
SUBSCRIBE_LATE_S = 3.0


def test_a_match_sent_the_moment_the_league_is_connected_is_received_though_its_subscribe_is_late(
        broker: Broker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    db, service, outcomes = golf_league_service(broker, tmp_path)
    client = service.subscriber.client
    subscribe, loop_write = client.subscribe, client.loop_write
    late = []

    def subscribing(*args: Any, **kwargs: Any) -> Any:
        late.append(True)  # paho's thread writes the SUBSCRIBE at its next write: held back there
        return subscribe(*args, **kwargs)

    def writing() -> Any:
        if late:
            late.clear()
            time.sleep(SUBSCRIBE_LATE_S)
        return loop_write()

    monkeypatch.setattr(client, "subscribe", subscribing)
    monkeypatch.setattr(client, "loop_write", writing)
    service.start()
    try:
        assert service.subscriber.connected.wait(10 + SUBSCRIBE_LATE_S)
        publish_all(broker, golf_messages(1))  # at once: a pub that was waiting for the league
        wait_until(lambda: stored(db) == 1, timeout=30, what="the match stored")
        wait_until(lambda: outcomes == ["stored"], what="its outcome said")
    finally:
        service.close()
