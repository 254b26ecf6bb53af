"""The league service's committer over a real Mosquitto (``league_broker``): an error nobody
foresaw while storing is said once and the matches are stored and acknowledged once it
passes; an output gone (a closed pipe) never stops the storing."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from helpers.waits import until
from league_broker import Broker, broker  # noqa: F401 (the fixture)
from league_play import START, lines_of, match_events
from test_league_edge import send
from test_league_inbox import message
from test_league_mqtt import league_db, matches

from tablesense.league.broker_url import parse_broker_url
from tablesense.league.inbox import Inbox, Outcome
from tablesense.league.messages import match_id
from tablesense.league.service import LeagueService


async def test_a_store_that_fails_unexpectedly_is_tried_again_and_the_next_matches_are_stored(
        broker: Broker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
        capsys: pytest.CaptureFixture[str]) -> None:
    real = Inbox.commit
    failures = [sqlite3.DatabaseError("database disk image is malformed")] * 2

    def failing(self: Inbox, batch: Any) -> list[Outcome]:
        if failures:  # the batch, then the message alone as unreadable: neither is stored
            raise failures.pop()
        return real(self, batch)

    monkeypatch.setattr(Inbox, "commit", failing)
    said: list[Outcome] = []

    def say(out: Outcome) -> None:
        said.append(out)
        raise BrokenPipeError(32, "Broken pipe")  # ``league serve | head`` after head ended

    service = LeagueService(parse_broker_url(broker.url("league")), str(league_db(tmp_path / "league.db")),
                            on_outcome=say, checkers=0)
    service.start()
    try:
        assert await asyncio.to_thread(service.subscriber.connected.wait, 10)
        lines = lines_of(match_events("Ann", "Bob", 5, 7))
        await send(broker, "zaal", message("zaal", lines))
        await until(lambda: matches(service) == [match_id("zaal", "1", START)], what="the first match stored")
        await send(broker, "zaal", message("zaal", lines_of(match_events("Cor", "Dirk", 7, 5)),
                                           started=START + 3600))
        await until(lambda: len(matches(service)) == 2, what="the next match stored")
        await until(lambda: service.waiting() == 0, what="both acknowledged")
        await until(lambda: len(said) == 2, what="both said (after their acknowledgement)")
        assert [o.kind for o in said] == ["stored", "stored"]
    finally:
        await asyncio.to_thread(service.close)
    err = capsys.readouterr().err
    assert err.count("DatabaseError") == 1, f"said once: {err}"
    assert "stored again" in err
