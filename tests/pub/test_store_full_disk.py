"""The match log on a nearly full disk: a real small file system (tmpfs of 2-3 MB, mounted
by the test) and a file-size limit (``ulimit -f``, RLIMIT_FSIZE in a child process).

What a pub notices: the table's events wait while the disk refuses them, and once there
is room again every one of them is in the log, once and in order; the log never stays
refused because its own write-ahead log filled the disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from paths import ROOT

from tablesense.events import Pin
from tablesense.pub import Pub
from tablesense.store import WAL_BYTES, WAL_PAGES, Store, StoreUnavailable, Writer

SETUP = {"t": 0.0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}


@contextlib.contextmanager
def small_disk(where: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``where`` for the test, unmounted after it."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small file system needs root (CI runs as root)")
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()[:100]}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def _fill(path: Path) -> int:
    """Write zeros to ``path`` until the disk is full to the last byte; the bytes written."""
    written = 0
    with path.open("wb", buffering=0) as fh:
        for chunk in (b"\0" * 65536, b"\0" * 512, b"\0"):
            while True:
                try:
                    n = fh.write(chunk)
                except OSError as exc:
                    if exc.errno != errno.ENOSPC:
                        raise
                    break
                written += n or 0
                if not n:
                    break
    return written


def _rows(db: Path) -> list[tuple[int, int | None, int, str]]:
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return con.execute("SELECT id, match_id, seq, line FROM events ORDER BY id").fetchall()
    finally:
        con.close()


def _pin(k: int) -> Pin:
    return Pin(t=round(1.0 + k * 0.01, 6), pin=1 + k % 5, state="down" if k % 2 == 0 else "up")


def test_a_disk_smaller_than_sqlites_write_ahead_log_takes_every_event(tmp_path: Path) -> None:
    """On a 2 MB disk, one commit per event: SQLite's default write-ahead log (checkpointed
    at 4 MB, never cut back) filled the disk after about 220 events and refused every one
    after; now the log stays small and all 1,500 are written, each once."""
    with small_disk(tmp_path / "disk", "2m") as disk:
        db = disk / "pub.db"
        store = Store(str(db))
        mid = store.new_match("1", SETUP)
        writer = Writer(str(db))

        async def write_all() -> None:
            for seq in range(2, 1502):
                await writer.append("1", mid, seq, json.dumps(_pin(seq).to_dict()), "table")

        try:
            asyncio.run(write_all())
            wal = (disk / "pub.db-wal").stat().st_size
        finally:
            writer.close()
            store.close()
        rows = _rows(db)
    assert [r[2] for r in rows] == list(range(1, 1502))
    assert wal <= WAL_BYTES + 64 * 1024, wal  # the write-ahead log stays small (was: the whole disk)


@pytest.mark.parametrize("size", ["2m", "3m"])
def test_a_disk_that_fills_and_frees_loses_and_doubles_nothing(tmp_path: Path, size: str,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """The table's events flow through the pub while another file fills the disk to the last
    byte: the events wait (said once on stderr and on the ticker); the file is deleted and
    every event is written once, in order, and the log says it takes writes again. (The room
    the write-ahead log held, freed when the disk first refuses, may take a few more first.)"""
    events = [_pin(k) for k in range(600)]
    with small_disk(tmp_path / "disk", size) as disk:
        db = disk / "pub.db"
        store, writer = Store(str(db)), Writer(str(db))
        pub = Pub(store, ["1"], writer=writer)
        pub.start_match("1", {"game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}, "distance": 10**4})
        pulled = 0

        async def feed() -> AsyncIterator[Pin]:
            nonlocal pulled
            for ev in events:
                pulled += 1
                yield ev
                await asyncio.sleep(0)

        async def scenario() -> tuple[int, bool]:
            task = asyncio.create_task(pub.feed("1", feed()))
            while pulled < 150:
                await asyncio.sleep(0.01)
            _fill(disk / "filler")  # the disk is full now
            await asyncio.sleep(1.5)
            stuck = pulled
            refused = any(e.get("type") == "error" and "cannot be written" in e.get("error", "")
                          for e in pub.table("1").ticker)
            await asyncio.sleep(1.0)
            assert pulled <= stuck + 1, "the link is not read while the log refuses writes"
            (disk / "filler").unlink()  # room again
            await asyncio.wait_for(task, 60)
            return stuck, refused

        try:
            stuck, refused = asyncio.run(scenario())
        finally:
            writer.close()
            store.close()
        rows = _rows(db)
    assert stuck < len(events) and refused, "the full disk refused the events for a while"
    table = [json.loads(r[3]) for r in rows if r[2] > 1]
    assert table == [ev.to_dict() for ev in events]  # every one, once, in order
    assert [r[2] for r in rows] == list(range(1, len(events) + 2))
    err = capsys.readouterr().err
    waits = err.count("the table's events wait")  # once per spell; the room made by truncating the
    assert 1 <= waits <= 3 and err.count("takes writes again") == waits, err  # write-ahead log is one
    assert "Traceback" not in err


def test_a_result_the_full_disk_refuses_is_shown_and_written_later(tmp_path: Path) -> None:
    """The history's record of how a match ended is written once there is room; meanwhile
    the pub sees it as recorded (no error reaches the table's feed, nothing is logged twice)."""
    with small_disk(tmp_path / "disk", "2m") as disk:
        db = disk / "pub.db"
        store = Store(str(db))
        mid = store.new_match("1", SETUP)
        _fill(disk / "filler")
        with pytest.raises(StoreUnavailable, match="cannot be written"):
            store.append("1", mid, 2, json.dumps(_pin(1).to_dict()), "table")
        store.finish(mid, {"winner": "p1", "summary": "2-0"})  # refused by the disk: kept
        assert store.match(mid).result == {"winner": "p1", "summary": "2-0"}
        (disk / "filler").unlink()
        store.append("1", mid, 2, json.dumps(_pin(1).to_dict()), "table")
        assert store.matches("1")[0].ended is not None
        store.close()
        con = sqlite3.connect(db)
        try:
            assert json.loads(con.execute("SELECT result FROM matches").fetchone()[0])["winner"] == "p1"
        finally:
            con.close()
        assert [r[2] for r in _rows(db)] == [1, 2]


CHILD = textwrap.dedent("""
    import asyncio, json, os, resource, sys
    from tablesense.events import Pin
    from tablesense.pub import Pub
    from tablesense.store import Store, Writer

    db, limit, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    store, writer = Store(db), Writer(db)
    pub = Pub(store, ["1"], writer=writer)
    pub.start_match("1", {"game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}, "distance": 10000})
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))  # ulimit -f
    report = {"first_refusal": None, "stalled": None, "commits": None,
              "page": store.db.execute("PRAGMA page_size").fetchone()[0]}
    pulled = 0

    async def feed():
        global pulled
        for k in range(count):
            if writer.refused and report["first_refusal"] is None:
                report["first_refusal"], report["commits"] = pulled, writer.commits
                report["db_at_first"] = os.path.getsize(db)
            pulled += 1
            yield Pin(t=1.0 + k * 0.01, pin=1 + k % 5, state="down" if k % 2 == 0 else "up")

    async def main():
        task = asyncio.create_task(pub.feed("1", feed()))
        last, still = -1, 0
        while not task.done():
            await asyncio.sleep(0.25)
            still = still + 1 if pulled == last else 0
            last = pulled
            if still >= 8 and report["stalled"] is None:  # 2 s without progress: the file is at the limit
                report["stalled"] = pulled
                report["db_at_stall"] = os.path.getsize(db)
                resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        await task

    asyncio.run(main())
    writer.close()
    store.close()
    report["refused"] = writer.refused
    print(json.dumps(report))
""")


def test_a_file_size_limit_is_worked_through_and_writes_resume_when_it_is_raised(tmp_path: Path) -> None:
    """``ulimit -f`` of 300 KB on the process: SQLite's writes fail with "disk I/O error"
    (EFBIG). The write-ahead log reached the limit first and stayed there, every write
    refused until a restart; now it is truncated and the events go on into the database
    until the database itself reaches the limit; when the limit is raised, the rest follow."""
    db = tmp_path / "pub.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "host")}
    proc = subprocess.run([sys.executable, "-c", CHILD, str(db), str(300_000), "3000"],
                          capture_output=True, text=True, timeout=240, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "Traceback" not in proc.stderr
    assert "disk I/O error" in proc.stderr and "takes writes again" in proc.stderr
    first, stalled, limit, page = report["first_refusal"], report["stalled"], 300_000, report["page"]
    # The write-ahead log met the limit first, early: every commit adds at least a page to it
    # and none is copied back before it holds WAL_PAGES pages (more than the limit), so it met
    # the limit within limit/page commits while the database itself was still small. Counted
    # in commits and bytes, not events: a loaded machine's commits take more events each (up
    # to ``pub.AHEAD``, the feed's reach ahead of the log), so its count of events varies.
    assert WAL_PAGES * page > limit
    assert first is not None and report["commits"] <= limit // page + 1, report
    assert report["db_at_first"] < limit / 3, report
    # then the events went on into the database until it met the limit itself
    assert stalled is not None and stalled > first and report["db_at_stall"] > limit - 2 * page, report
    rows = _rows(db)
    assert [r[2] for r in rows] == list(range(1, 3002))
    assert [json.loads(r[3])["t"] for r in rows[1:]] == [1.0 + k * 0.01 for k in range(3000)]
