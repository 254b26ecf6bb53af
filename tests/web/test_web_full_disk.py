"""The referee's changes on a full disk: every path from a web request to a write of the
match log (a set-up, a call, a void, the table's language), on a real small file system
(a tmpfs of 2 MB mounted by the test, filled to the last byte by another file).

What the referee notices: a change the disk refuses for a moment is taken once it has room
(the request waits for it, a few seconds at most); one it refuses longer is answered 503
"not taken (nothing changed)", with nothing of it logged or applied, and the same press
later is taken once. Never a 500, never a traceback, never a change twice. The table's
own events that wait for the log go into it before a referee's change made after them.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from test_store_full_disk import _fill, small_disk

from tablesense.events import Cushion, Event, Rest, parse_event
from tablesense.pub import Pub
from tablesense.store import Store, Writer
from tablesense.web.guard import TOKEN_HEADER
from tablesense.web.limits import Limits
from tablesense.web.server import start

SETUP = {"game": "carom", "discipline": "libre", "players": {"p1": "Ann", "p2": "Bob"},
         "targets": {"p1": 20, "p2": 20}}
#: each change a referee makes from the panel, as its request and what it leaves in the pub
CHANGES: dict[str, tuple[str, dict[str, Any]]] = {
    "setup": ("setup", {"game": "golf", "players": {"p1": "Cor", "p2": "Dik"}}),
    "call": ("call", {"call": "carom"}),
    "foul": ("call", {"call": "foul", "foul": "touch"}),
    "void": ("void", {"from": 2, "to": 3}),
    "lang": ("lang", {"lang": "nl"}),
}


@dataclass
class Pubweb:
    pub: Pub
    url: str
    http: aiohttp.ClientSession
    disk: Path

    async def post(self, what: str, body: dict[str, Any]) -> tuple[int, dict[str, Any], str]:
        token = self.pub.table("1").token
        async with self.http.post(f"{self.url}/api/table/1/{what}", json=body,
                                  headers={TOKEN_HEADER: token}) as r:
            return r.status, await r.json(), r.headers.get("Retry-After", "")

    def rows(self) -> list[tuple[int | None, int, str]]:
        con = sqlite3.connect(self.disk / "pub.db")
        try:
            assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            return con.execute("SELECT match_id, seq, line FROM events ORDER BY id").fetchall()
        finally:
            con.close()

    def full(self) -> None:
        """The disk full to the last byte, with no room left in the write-ahead log to free."""
        self.pub.store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        _fill(self.disk / "filler")

    def room(self) -> None:
        (self.disk / "filler").unlink()


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    with small_disk(tmp_path / "disk", "2m") as where:
        yield where


@pytest.fixture
async def web(disk: Path) -> AsyncIterator[Pubweb]:
    db = str(disk / "pub.db")
    store, writer = Store(db), Writer(db)
    pub = Pub(store, ["1"], writer=writer)
    runner, url = await start(pub, port=0, limits=Limits(store_wait=1.5))
    try:
        async with aiohttp.ClientSession() as http:
            yield Pubweb(pub, url, http, disk)
    finally:
        await runner.cleanup()
        writer.close()
        store.close()


async def _a_match_with_a_shot(web: Pubweb) -> None:
    """A carom match (sensor-only) whose first shot has come to rest: events 2 and 3."""
    status, _, _ = await web.post("setup", SETUP)
    assert status == 200
    await web.pub.submit_async("1", Cushion(t=1.0, cushion=1, ball=None))
    await web.pub.submit_async("1", Rest(t=2.0))


def _what_the_pub_shows(web: Pubweb) -> tuple[Any, ...]:
    snap = web.pub.snapshot("1")
    match = snap["match"] or {}
    return match.get("id"), match.get("events"), json.dumps(snap["state"], sort_keys=True), snap["lang"]


def _no_traceback(capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    assert "Traceback" not in capsys.readouterr().err
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.records


@pytest.mark.parametrize("change", list(CHANGES))
async def test_a_change_the_full_disk_refuses_for_a_moment_is_taken_once_it_has_room(
        web: Pubweb, change: str, capsys: pytest.CaptureFixture[str],
        caplog: pytest.LogCaptureFixture) -> None:
    await _a_match_with_a_shot(web)
    before = web.rows()
    web.full()
    what, body = CHANGES[change]
    press = asyncio.create_task(web.post(what, body))
    await asyncio.sleep(0.6)
    assert not press.done() and web.rows() == before  # waiting for the disk: nothing written yet
    web.room()
    status, answer, _ = await asyncio.wait_for(press, 10)
    assert status == 200 and answer["ok"], answer
    after = web.rows()
    new = after[len(before):]
    assert len(new) == (0 if change == "lang" else 1), new  # taken once
    if change == "setup":
        assert json.loads(new[0][2])["players"] == body["players"] and new[0][1] == 1
    elif change == "lang":
        assert web.pub.table("1").lang == "nl"
    else:
        line = json.loads(new[0][2])
        assert (line.get("call"), new[0][1]) == ("void" if change == "void" else body["call"], 4)
    _no_traceback(capsys, caplog)


@pytest.mark.parametrize("change", list(CHANGES))
async def test_a_change_the_full_disk_refuses_longer_is_a_503_that_says_so_and_changes_nothing(
        web: Pubweb, change: str, capsys: pytest.CaptureFixture[str],
        caplog: pytest.LogCaptureFixture) -> None:
    await _a_match_with_a_shot(web)
    before, shown = web.rows(), _what_the_pub_shows(web)
    web.full()
    what, body = CHANGES[change]
    for _ in range(2):  # pressed again while the disk is still full: refused again, the same way
        status, answer, retry = await web.post(what, body)
        assert status == 503 and retry == "5", (status, answer)
        said = answer["error"]
        assert said.startswith("not taken (nothing changed): ") and "disk is full" in said
        assert answer["error"].endswith("press again in a moment") and "\n" not in answer["error"]
        assert web.rows() == before and _what_the_pub_shows(web) == shown
    web.room()
    status, answer, _ = await web.post(what, body)
    assert status == 200, answer
    new = web.rows()[len(before):]
    assert len(new) == (0 if change == "lang" else 1), new
    _no_traceback(capsys, caplog)


async def test_the_tables_waiting_events_go_before_a_referees_call_made_after_them(
        web: Pubweb, capsys: pytest.CaptureFixture[str]) -> None:
    """A shot's events wait for the full disk; the referee calls its carom meanwhile. Once the
    disk has room the log has the shot, then the call, each once: the call amends that shot."""
    await _a_match_with_a_shot(web)
    before = len(web.rows())
    web.full()
    shot: list[Event] = [parse_event({"t": 3.0, "type": "cushion", "cushion": 2, "ball": None}),
                         parse_event({"t": 4.0, "type": "rest"})]

    async def board() -> AsyncIterator[Event]:
        for event in shot:
            yield event

    feed = asyncio.create_task(web.pub.feed("1", board()))
    await asyncio.sleep(0.3)  # the cushion waits for the disk
    press = asyncio.create_task(web.post("call", {"call": "carom"}))
    await asyncio.sleep(0.5)
    web.room()
    status, answer, _ = await asyncio.wait_for(press, 10)
    await asyncio.wait_for(feed, 10)
    assert status == 200, answer
    kinds = [json.loads(line)["type"] for _, _, line in web.rows()[before:]]
    assert kinds in (["cushion", "rest", "call"], ["cushion", "call", "rest"]), kinds  # after the cushion
    assert web.pub.snapshot("1")["state"]["caroms"] == {"p1": 0, "p2": 1}  # Bob's shot, not Ann's miss
    assert "Traceback" not in capsys.readouterr().err
