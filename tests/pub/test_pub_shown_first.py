"""A table's event reaches the screens before its commit, and nothing a user trusts moves
ahead of the commit: the link's checkpoint (where a restarted host asks the board to
replay from) is saved only once the events before it are on disk, so a host killed
between showing an event and committing it resumes before it and logs it from the
board's replay (docs/design.md, "A table's event is shown before its commit").

The commit is held up for real: another connection holds the match log's write lock."""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any

import pytest

from tablesense import store as store_module
from tablesense.events import Pin
from tablesense.link.checkpoint import Checkpoint
from tablesense.link.transport import LinkStatus
from tablesense.pub import Pub
from tablesense.store import Store, Writer


def _pin(t: float, n: int) -> Pin:
    return Pin(t=t, pin=n, state="down")


def _lines(con: sqlite3.Connection) -> list[str]:
    return [r[0] for r in con.execute("SELECT line FROM events WHERE source='table' ORDER BY id")]


def _line_within(stream: IO[str], seconds: float) -> list[str]:
    """The next line of a host's output, split; a host that says nothing for ``seconds``
    fails the test (it is killed after, which ends the reader)."""
    reader = ThreadPoolExecutor(1)
    try:
        return reader.submit(stream.readline).result(seconds).split()
    finally:
        reader.shutdown(wait=False)


def _shown(pub: Pub, n: int) -> bool:
    return any(e.get("type") == "pin" and e.get("pin") == n for e in pub.table("1").ticker)


def _fed_while_the_log_refuses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, items: list[Any],
                               shown: tuple[int, ...]) -> tuple[Store, dict[str, Any]]:
    """``items`` fed to table 1 by its board while another connection holds the log's lock for
    longer than its busy timeout (cut to 0.3 s: the same refusal, sooner), until the pins
    ``shown`` are on the screens and a second more; then the lock is let go and the feed runs
    to its end. The store after (open), and what was seen while the lock was held."""
    monkeypatch.setattr(store_module, "BUSY_MS", 300)
    db = tmp_path / "pub.db"
    store, writer = Store(str(db)), Writer(str(db))
    pub = Pub(store, ["1"], writer=writer)
    blocker = sqlite3.connect(db, isolation_level=None, timeout=0)
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        flag = pub.subscribe("1")

        async def board() -> AsyncIterator[Any]:
            for item in items:
                yield item

        blocker.execute("BEGIN IMMEDIATE")  # the disk is slow: no commit for now
        feed = asyncio.create_task(pub.feed("1", board()))
        async with asyncio.timeout(10):
            while not all(_shown(pub, n) for n in shown):
                await flag.wait()
                flag.clear()
        await asyncio.sleep(1.0)  # refused meanwhile (0.3 s), and tried again
        seen.update(refused=writer.refused, lines=_lines(blocker), checkpoint=store.checkpoint("1"),
                    feed_done=feed.done())
        blocker.execute("ROLLBACK")
        await asyncio.wait_for(feed, 20)

    try:
        asyncio.run(scenario())
    finally:
        blocker.close()
        writer.close()
    return store, seen


def _logged(*pins: int) -> list[str]:
    return [json.dumps(_pin(float(n), n).to_dict(), separators=(", ", ": ")) for n in pins]


def test_the_screens_hear_a_tables_events_while_the_log_refuses_them_and_the_log_keeps_their_order(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The log is locked for longer than its busy timeout: the board's three pins are shown all
    the same, the checkpoint after them is not saved, and once the lock is gone the log holds
    the three in the order shown, once each, and the checkpoint after them."""
    cp = Checkpoint(seq=7, uptime_us=2_000_000, offset_us=0, now_us=2_000_000)
    items = [*(_pin(float(n), n) for n in (1, 2, 3)), cp]
    store, seen = _fed_while_the_log_refuses(tmp_path, monkeypatch, items, (1, 2, 3))
    assert seen["refused"] >= 1
    assert seen["lines"] == [], "shown, not yet on disk"
    assert seen["checkpoint"] is None, "no checkpoint past an event not on disk"
    assert not seen["feed_done"]
    assert _lines(store.db) == _logged(1, 2, 3)
    saved = store.checkpoint("1")
    assert saved is not None and Checkpoint.from_json(saved[0]) == cp
    assert saved[1] == store.db.execute("SELECT max(id) FROM events").fetchone()[0]
    store.close()


# One life of the host, reading the board from the checkpoint saved: prints "shown N" once the
# pub has shown pin N (its screens heard of it), whether or not it is on disk yet. The first
# life's board waits for a line on stdin before pin 2: the test holds the log's lock first.
HOST = r"""
import asyncio, sys
from tablesense.events import Pin, Rest
from tablesense.link.checkpoint import Checkpoint
from tablesense.pub import Pub
from tablesense.store import Store, Writer

db = sys.argv[1]
CP = Checkpoint(seq=3, uptime_us=2_000_000, offset_us=0, now_us=2_000_000)
FRAMES = [(1, Pin(t=1.0, pin=1, state="down")), (2, Rest(t=1.5)), (3, CP),
          (3, Pin(t=2.0, pin=2, state="down"))]

async def main():
    pub = Pub(Store(db), ["1"], writer=Writer(db))
    flag = pub.subscribe("1")

    def board(cp):  # the board replays from the checkpoint's seq
        async def frames():
            for seq, item in FRAMES:
                if cp is None and item is FRAMES[-1][1]:
                    await asyncio.to_thread(sys.stdin.readline)
                if cp is None or seq >= cp.seq:
                    yield item
        return frames()

    feed = asyncio.create_task(pub.feed("1", board))
    said = set()
    while not feed.done():
        await asyncio.wait([feed, asyncio.create_task(flag.wait())], return_when=asyncio.FIRST_COMPLETED)
        flag.clear()
        for e in pub.table("1").ticker:
            if e.get("type") == "pin" and e["pin"] not in said:
                said.add(e["pin"])
                print("shown", e["pin"], flush=True)
    print("end", flush=True)

asyncio.run(main())
"""


def test_a_host_killed_after_showing_an_event_and_before_its_commit_logs_it_from_the_boards_replay(
        tmp_path: Path) -> None:
    db = tmp_path / "pub.db"
    Store(str(db)).close()
    blocker = sqlite3.connect(db, isolation_level=None, timeout=0)
    host = subprocess.Popen([sys.executable, "-c", HOST, str(db)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert host.stdout is not None and host.stdin is not None
        assert _line_within(host.stdout, 30) == ["shown", "1"]
        deadline = time.monotonic() + 30
        while not blocker.execute("SELECT count(*) FROM checkpoints").fetchone()[0]:
            assert time.monotonic() < deadline, "the checkpoint after pin 1 and the rest never was saved"
            time.sleep(0.01)
        blocker.execute("BEGIN IMMEDIATE")  # then the disk is slow: pin 2 cannot commit
        host.stdin.write("go\n")
        host.stdin.flush()
        # the lock is held until the host is killed: pin 2 can never be on disk before it is
        # shown, whatever the wait, so the wait is generous for a loaded machine
        assert _line_within(host.stdout, 30) == ["shown", "2"]
        assert '"pin": 2' not in " ".join(_lines(blocker))
        host.send_signal(signal.SIGKILL)  # shown on the screens, not on disk
        host.wait(10)
    finally:
        if host.poll() is None:
            host.kill()
            host.wait(10)
        if blocker.in_transaction:
            blocker.execute("ROLLBACK")
        blocker.close()
    saved = Store(str(db)).checkpoint("1")
    assert saved is not None and Checkpoint.from_json(saved[0]).seq == 3  # before pin 2
    again = subprocess.run([sys.executable, "-c", HOST, str(db)], capture_output=True, text=True, timeout=60)
    assert again.stdout.split("\n")[:2] == ["shown 2", "end"], again
    con = sqlite3.connect(db)
    try:
        pins = [json.loads(line).get("pin") for line in _lines(con) if '"pin"' in line]
    finally:
        con.close()
    assert pins == [1, 2], "pin 2 logged once, from the board's replay"


def test_frames_lost_while_the_log_refuses_the_shown_events_are_logged_once_the_log_takes_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pin, the board's notice that frames were lost, a pin and a checkpoint, with the log
    locked for longer than its busy timeout: the notice's incident waits for the pin shown
    before it, and once the lock is gone the log holds both pins in order, once each, the
    incident and the checkpoint, and the feed goes on to its end."""
    cp = Checkpoint(seq=7, uptime_us=2_000_000, offset_us=0, now_us=2_000_000)
    items = [_pin(1.0, 1), LinkStatus("lost", "frames 3..5 lost for good"), _pin(2.0, 2), cp]
    store, seen = _fed_while_the_log_refuses(tmp_path, monkeypatch, items, (1,))
    assert seen["refused"] >= 1
    assert seen["lines"] == [], "shown, not yet on disk"
    assert _lines(store.db) == _logged(1, 2)
    assert [(k, t) for _, k, t in store.incidents("1", 20)] == [("lost", "frames 3..5 lost for good")]
    saved = store.checkpoint("1")
    assert saved is not None and Checkpoint.from_json(saved[0]) == cp
    store.close()


def test_a_match_decided_by_a_rest_shown_as_the_referee_starts_the_next_goes_into_the_history(
        tmp_path: Path) -> None:
    """The board's deciding rest waits for the table (another change holds its lock: a
    referee's call being committed) while the referee starts the next match, and its commit
    is slow (the log locked for 0.5 s, inside the busy timeout): the rest is shown for the
    match it ends and committed, and that match's result is in the history before the next
    match takes the table; the next one is running."""
    from tablesense.events import parse_event

    db = tmp_path / "pub.db"
    store, writer = Store(str(db)), Writer(str(db))
    pub = Pub(store, ["1"], writer=writer)
    blocker = sqlite3.connect(db, isolation_level=None, timeout=0, check_same_thread=False)
    kegle = {"game": "kegle", "players": {"p1": "Mette", "p2": "Lars"}, "distance": 2}
    first = [parse_event(e) for e in (
        {"t": 1.0, "type": "cushion", "cushion": 1, "ball": "white"},
        {"t": 1.1, "type": "pin", "pin": 2, "state": "down"},
        {"t": 1.2, "type": "pin", "pin": 1, "state": "down"},
        {"t": 2.0, "type": "rest"},
        {"t": 5.0, "type": "strike", "ball": "red"})]
    deciding = parse_event({"t": 6.0, "type": "rest"})

    async def scenario() -> tuple[int, int]:
        old = await pub.start_match_async("1", kegle)
        for e in first:
            await pub.submit_async("1", e)
        tab = pub.table("1")
        async with tab.lock:  # a referee's change under way
            rest = asyncio.create_task(pub.submit_async("1", deciding))
            await asyncio.sleep(0.1)
            new = asyncio.create_task(pub.start_match_async("1", kegle))
            await asyncio.sleep(0.1)
            blocker.execute("BEGIN IMMEDIATE")  # the rest's commit is slow
            threading.Timer(0.5, lambda: blocker.execute("ROLLBACK")).start()
        async with asyncio.timeout(20):
            await rest
            return old, await new

    try:
        old, new = asyncio.run(scenario())
    finally:
        writer.close()
    blocker.close()
    ended = store.match(old)
    assert ended.ended is not None and ended.result is not None and ended.result["winner"] == "p1", ended
    assert new != old and store.match(new).ended is None
    assert store.events(old)[-1].line == json.dumps(deciding.to_dict(), separators=(", ", ": "))
    store.close()
