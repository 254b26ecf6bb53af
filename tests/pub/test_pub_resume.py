"""The pub's side of resuming a table's link and of a match log that refuses writes: the
checkpoint saved in order with the events, the events made again after a restart
skipped, frames lost for good said once (stderr, the log, the ticker), and a locked
database that makes the events wait instead of dropping them."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablesense import store as store_module
from tablesense.events import Pin, Rest
from tablesense.link import LinkStatus
from tablesense.link.checkpoint import Checkpoint, CheckpointError
from tablesense.pub import Pub, _line
from tablesense.store import Store, StoreError, Writer


def _pin(t: float, n: int, state: str = "down") -> Pin:
    return Pin(t=t, pin=n, state=state)


def _table_lines(db: Path) -> list[str]:
    con = sqlite3.connect(db)
    try:
        return [r[0] for r in con.execute("SELECT line FROM events WHERE source='table' ORDER BY id")]
    finally:
        con.close()


async def _run(db: Path, items: list[Any]) -> list[Checkpoint | None]:
    """One life of the host: the feed's factory is called with the saved checkpoint."""
    seen: list[Checkpoint | None] = []
    store, writer = Store(str(db)), Writer(str(db))
    pub = Pub(store, ["1"], writer=writer)

    def factory(cp: Checkpoint | None) -> AsyncIterator[Any]:
        seen.append(cp)

        async def gen() -> AsyncIterator[Any]:
            for it in items:
                yield it

        return gen()

    try:
        await pub.feed("1", factory)
    finally:
        writer.close()
        store.close()
    return seen


def test_a_restart_gets_the_last_checkpoint_and_skips_what_the_log_has(tmp_path: Path) -> None:
    db = tmp_path / "pub.db"
    cp1 = Checkpoint(seq=5, uptime_us=3_000_000, offset_us=0, now_us=3_000_000)
    first = [_pin(1.0, 1), Rest(t=1.5), cp1, _pin(2.0, 2), _pin(2.1, 3)]  # killed after pin 3
    assert asyncio.run(_run(db, first)) == [None]
    # the board replays from seq 5: pins 2 and 3 again, then what the host never saw
    again = [_pin(2.0, 2), _pin(2.1, 3), _pin(2.2, 4), Rest(t=2.7)]
    assert asyncio.run(_run(db, again)) == [cp1]
    lines = _table_lines(db)
    pins = [int(x.split('"pin": ')[1][0]) for x in lines if '"pin"' in x]
    assert pins == [1, 2, 3, 4], lines
    assert sum('"rest"' in x for x in lines) == 2


def test_an_event_the_log_does_not_have_is_kept_even_if_it_looks_like_an_old_one(tmp_path: Path) -> None:
    """Only the lines written after the checkpoint are candidates: a pin pressed twice at
    different times is two events."""
    db = tmp_path / "pub.db"
    cp = Checkpoint(seq=1, uptime_us=10, offset_us=0, now_us=10)
    asyncio.run(_run(db, [cp, _pin(1.0, 1)]))
    asyncio.run(_run(db, [_pin(1.0, 1), _pin(1.0, 1, "up"), _pin(3.0, 1)]))
    assert len(_table_lines(db)) == 3


def test_frames_lost_for_good_are_said_once_on_stderr_in_the_log_and_on_the_ticker(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "pub.db"
    text = "lost 12 frames (seq 100..111): the device could not replay them"
    asyncio.run(_run(db, [_pin(1.0, 1), LinkStatus("lost", text), _pin(2.0, 1)]))
    assert capsys.readouterr().err.count(text) == 1
    store = Store(str(db))
    try:
        assert [(k, t) for _, k, t in store.incidents("1")] == [("lost", text)]
    finally:
        store.close()
    assert len(_table_lines(db)) == 2


def test_a_locked_match_log_keeps_the_event_waiting_and_writes_it_when_it_can(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Another program holds the database mid-run for longer than its busy timeout: the
    table's event is not dropped; the ticker and stderr say why; once the lock is gone it
    is written, and the one after it. (The busy timeout cut from 5 s to 0.5 s: the same
    refusal, sooner.)"""
    monkeypatch.setattr(store_module, "BUSY_MS", 500)
    db = tmp_path / "pub.db"
    store, writer = Store(str(db)), Writer(str(db))
    pub = Pub(store, ["1"], writer=writer)
    blocker = sqlite3.connect(db, isolation_level=None, timeout=0)
    blocker.execute("BEGIN EXCLUSIVE")

    async def scenario() -> list[dict[str, Any]]:
        async def gen() -> AsyncIterator[Any]:
            yield _pin(1.0, 1)
            yield _pin(1.2, 2)

        task = asyncio.create_task(pub.feed("1", gen()))
        deadline = asyncio.get_running_loop().time() + 30  # held until the write is refused
        while not any(e.get("type") == "error" for e in pub.table("1").ticker):
            assert asyncio.get_running_loop().time() < deadline, "no write refused in 30 s"
            await asyncio.sleep(0.05)
        ticker = list(pub.table("1").ticker)
        blocker.execute("ROLLBACK")
        await asyncio.wait_for(task, 20)
        return ticker

    try:
        ticker = asyncio.run(scenario())
    finally:
        blocker.close()
        writer.close()
        store.close()
    assert any(e.get("type") == "error" and "cannot be written" in e.get("error", "") for e in ticker), ticker
    assert len(_table_lines(db)) == 2, "both events written once the lock was gone"
    err = capsys.readouterr().err
    assert "wait and are written when it can" in err and "takes writes again" in err


def test_a_locked_match_log_at_start_is_one_clear_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_module, "BUSY_MS", 500)  # refused after 0.5 s, not 5 s: the same line
    db = tmp_path / "pub.db"
    blocker = sqlite3.connect(db, isolation_level=None, timeout=0)
    blocker.execute("PRAGMA journal_mode=DELETE")
    blocker.execute("BEGIN EXCLUSIVE")
    blocker.execute("CREATE TABLE x(y)")
    try:
        with pytest.raises(StoreError, match=r"cannot open the match log .*locked"):
            Store(str(db))
    finally:
        blocker.close()


def test_a_damaged_checkpoint_is_refused_with_its_reason() -> None:
    with pytest.raises(CheckpointError, match="cannot be read"):
        Checkpoint.from_json('{"seq": "x"}')
    with pytest.raises(CheckpointError, match="out of range"):
        Checkpoint.from_json('{"seq": 99999999, "uptime_us": 0, "offset_us": 0, "now_us": 0}')
    cp = Checkpoint(7, 1, 2, 3)
    assert Checkpoint.from_json(cp.to_json()) == cp


def _stream(shots: list[int]) -> list[Any]:
    """What the board's frames give, in order: each shot's pins (one frame a pin), its
    rest, then a quiet point (a checkpoint naming the next seq wanted). It opens with the
    checkpoint a host saves when it meets the board (a fresh log reads it from there)."""
    out: list[Any] = [Checkpoint(seq=0, uptime_us=500_000, offset_us=0, now_us=500_000)]
    t, seq = 1.0, 0
    for n in shots:
        for _ in range(n):
            out.append(_pin(round(t, 6), seq % 9 + 1))
            t, seq = t + 0.05, seq + 1
        out.append(Rest(t=round(t + 0.3, 6)))
        t += 1.0
        out.append(Checkpoint(seq=seq, uptime_us=round(t * 1e6), offset_us=0, now_us=round(t * 1e6)))
    return out


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shots=st.lists(st.integers(1, 4), min_size=2, max_size=8),
       lives=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 2**9 - 1)), min_size=1, max_size=6),
       last_sees=st.integers(0, 2**9 - 1))
def test_a_host_killed_again_while_it_replays_what_the_log_has_logs_each_event_once(
        tmp_path_factory: pytest.TempPathFactory, shots: list[int], lives: list[tuple[int, int]],
        last_sees: int) -> None:
    """Each life of the host is handed the board's replay from the checkpoint it finds and
    is killed after some items of it; the last life reads to the end. A life does not see
    every quiet point (a replay read at speed has none between its shots: the next shot's
    first frame comes before a heartbeat tells the rest), so the log can run several shots
    ahead of its checkpoint, and a later life finds a quiet point in what the log already
    holds. A checkpoint saved there stands before the events logged after it: the next
    life skips them (before, it was saved after the log's last row, and the next life
    logged them again: a kegle match killed 17 times, 225 events for 186)."""
    db = tmp_path_factory.mktemp("resume") / "pub.db"
    stream = _stream(shots)
    at = {it.seq: i + 1 for i, it in enumerate(stream) if isinstance(it, Checkpoint)}
    for n, sees in [*lives, (len(stream), last_sees)]:
        store = Store(str(db))
        try:
            saved = store.checkpoint("1")
        finally:
            store.close()
        start = at[Checkpoint.from_json(saved[0]).seq] if saved else 0
        life = [it for it in stream[start:start + n]
                if not isinstance(it, Checkpoint) or it.seq == 0 or sees >> (it.seq % 9) & 1]
        asyncio.run(_run(db, life))
    want = [_line(it) for it in stream if not isinstance(it, Checkpoint)]
    assert _table_lines(db) == want
