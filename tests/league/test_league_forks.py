"""While no checker process can be forked (no memory, no process left) the league service
says so once and tries again less and less often; once it can, it says so and the waiting
match is stored (a real Mosquitto: ``league_broker``)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from helpers.waits import until
from league_broker import Broker, broker  # noqa: F401 (the fixture)
from league_play import START, lines_of, match_events
from test_league_edge import send
from test_league_inbox import message
from test_league_mqtt import league_db, matches

from tablesense.league.broker_url import parse_broker_url
from tablesense.league.checkers import CheckerDied, Checkers, _Child
from tablesense.league.messages import match_id
from tablesense.league.service import LeagueService

FAILING_S = 2.5  # forks fail this long after the first that does: 0.5 s between tries, doubled each


async def test_a_fork_that_fails_is_said_once_tried_again_with_a_back_off_and_the_match_stored(
        broker: Broker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
        capsys: pytest.CaptureFixture[str]) -> None:
    real = Checkers._fork
    failing_until: list[float] = []
    tries: list[float] = []

    def fork(self: Checkers, slot: int) -> _Child:
        # the kernel's EAGAIN (no process left) cannot be had in a test without starving the machine
        if not failing_until or time.monotonic() < failing_until[0]:
            tries.append(time.monotonic())
            if not failing_until:
                failing_until.append(time.monotonic() + FAILING_S)
            raise CheckerDied("no checker process ([Errno 11] Resource temporarily unavailable)")
        return real(self, slot)

    monkeypatch.setattr(Checkers, "_fork", fork)
    service = LeagueService(parse_broker_url(broker.url("league")), str(league_db(tmp_path / "league.db")),
                            on_outcome=lambda out: None, checkers=1)
    service.start()  # its fork fails: the first message forks again
    try:
        assert await asyncio.to_thread(service.subscriber.connected.wait, 10)
        await send(broker, "zaal", message("zaal", lines_of(match_events("Ann", "Bob", 5, 7))))
        await until(lambda: matches(service) == [match_id("zaal", "1", START)], what="the match stored")
    finally:
        await asyncio.to_thread(service.close)
    err = capsys.readouterr().err
    assert err.count("cannot be checked now") == 1, err
    assert err.count("checked again") == 1, err
    # the start's fork, then tries 0.5, 1 and 2 s apart (every 0.5 s: six in 2.5 s)
    assert len(tries) <= 5, f"{len(tries)} forks tried in {FAILING_S} s"
