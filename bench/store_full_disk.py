"""Benchmark: the match log on a nearly full disk.

Usage: python bench/store_full_disk.py [--events N] [--disk 2m]

1. A small disk: a tmpfs of ``--disk`` (needs root to mount; said and skipped otherwise).
   One table's N events (pins, at the link's pace) go through the pub's feed into the
   match log; after a third of them another file fills the disk to the last byte, and is
   deleted 1.5 s later. Prints the events written and still waiting when the feed is
   stopped (5 s after the last was fed, or 20 s after it should have been) and the
   write-ahead log's largest size; beside the anchor, the same feed on the machine's own
   disk. And the same run with SQLite's defaults as the store had them (a write-ahead log
   checkpointed at 1000 pages and never cut back, nothing done when the disk refuses),
   for the "was".
2. A file-size limit (``ulimit -f``, RLIMIT_FSIZE in a child process): the events written
   before the log refuses every write, with the store's settings and with SQLite's defaults.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import tablesense.store as store_module
from tablesense.events import Pin
from tablesense.pub import Pub
from tablesense.store import Store, Writer

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def sqlite_defaults(on: bool) -> Iterator[None]:
    """The store as it was: SQLite's write-ahead log defaults, no room made on a refusal."""
    if not on:
        yield
        return
    saved = store_module.WAL_PAGES, store_module.WAL_BYTES, store_module.make_room
    store_module.WAL_PAGES, store_module.WAL_BYTES = 1000, -1
    store_module.make_room = lambda db: False  # type: ignore[assignment]
    try:
        yield
    finally:
        store_module.WAL_PAGES, store_module.WAL_BYTES, store_module.make_room = saved


@contextlib.contextmanager
def tmpfs(size: str) -> Iterator[Path | None]:
    where = Path(tempfile.mkdtemp(prefix="tablesense-disk-"))
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(where)],
                          capture_output=True, text=True) if os.geteuid() == 0 else None
    if done is None or done.returncode != 0:
        where.rmdir()
        yield None
        return
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)
        where.rmdir()


def fill(path: Path) -> None:
    with path.open("wb", buffering=0) as fh:
        for chunk in (b"\0" * 65536, b"\0" * 512, b"\0"):
            while True:
                try:
                    if not fh.write(chunk):
                        break
                except OSError as exc:
                    if exc.errno != errno.ENOSPC:
                        raise
                    break


def written(db: Path) -> int:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT count(*) FROM events WHERE source='table'").fetchone()[0]
    finally:
        con.close()


def feed_run(folder: Path, n: int, filler: bool) -> dict[str, float]:
    """N events through the pub's feed; the disk filled after n/3 and freed 1.5 s later."""
    db = folder / "pub.db"
    store, writer = Store(str(db)), Writer(str(db))
    pub = Pub(store, ["1"], writer=writer)
    pub.start_match("1", {"game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}, "distance": 10**6})
    fed = 0
    wal_peak = 0

    async def events() -> AsyncIterator[Pin]:
        nonlocal fed
        for k in range(n):
            fed += 1
            yield Pin(t=1.0 + k * 0.01, pin=1 + k % 5, state="down" if k % 2 == 0 else "up")
            await asyncio.sleep(0.002)

    async def watch() -> None:
        nonlocal wal_peak
        wal = folder / "pub.db-wal"
        while True:
            with contextlib.suppress(OSError):
                wal_peak = max(wal_peak, wal.stat().st_size)
            await asyncio.sleep(0.02)

    async def main() -> None:
        watcher = asyncio.create_task(watch())
        task = asyncio.create_task(pub.feed("1", events()))
        if filler:
            while fed < n // 3:
                await asyncio.sleep(0.005)
            fill(folder / "filler")
            await asyncio.sleep(1.5)
            (folder / "filler").unlink()
        deadline = time.monotonic() + 20 + n * 0.01  # a feed that is held (the log refuses) stops too
        while fed < n and not task.done() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        with contextlib.suppress(TimeoutError):  # stopped 5 s after the last event was fed
            await asyncio.wait_for(asyncio.shield(task), 5)
        task.cancel()
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    began = time.monotonic()
    asyncio.run(main())
    took = time.monotonic() - began
    writer.close()
    store.close()
    done = written(db)
    return {"written": done, "waiting": n - done, "wal_kb": wal_peak / 1024, "seconds": took}


CHILD = textwrap.dedent("""
    import asyncio, json, resource, sys
    sys.path.insert(0, sys.argv[4])
    import tablesense.store as sm
    if sys.argv[5] == "defaults":
        sm.WAL_PAGES, sm.WAL_BYTES, sm.make_room = 1000, -1, (lambda db: False)
    from tablesense.store import Store, Writer, StoreUnavailable
    db, limit, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    store = Store(db)
    mid = store.new_match("1", {"t": 0, "type": "setup", "game": "kegle",
                                "players": {"p1": "Ann", "p2": "Bob"}})
    writer = Writer(db)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))

    async def main():
        seq, refused, in_row = 2, 0, 0
        while seq < count + 2 and in_row < 20:  # 20 refusals in a row, 2 s: for good
            line = json.dumps({"t": seq * 0.01, "type": "pin", "pin": 1 + seq % 5, "state": "down"})
            try:
                await writer.append("1", mid, seq, line, "table")
                seq, in_row = seq + 1, 0
            except StoreUnavailable:
                refused, in_row = refused + 1, in_row + 1
                await asyncio.sleep(0.1)
        return seq - 2, refused

    done, refused = asyncio.run(main())
    writer.close(); store.close()
    print(json.dumps({"written": done, "refused": refused}))
""")


def limit_run(folder: Path, limit: int, n: int, defaults: bool) -> dict[str, int]:
    db = folder / ("defaults.db" if defaults else "store.db")
    proc = subprocess.run([sys.executable, "-c", CHILD, str(db), str(limit), str(n), str(ROOT / "host"),
                           "defaults" if defaults else "store"], capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise SystemExit(proc.stderr[-2000:])
    return json.loads(proc.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=339)
    ap.add_argument("--disk", default="2m")
    ap.add_argument("--limit-kb", type=int, default=300)
    args = ap.parse_args()
    n = args.events

    with tempfile.TemporaryDirectory() as roomy:
        anchor = feed_run(Path(roomy), n, filler=False)
    print(f"anchor: the machine's own disk: {anchor['written']:.0f} of {n} events written, "
          f"{anchor['waiting']:.0f} waiting; {anchor['seconds']:.1f} s; write-ahead log at most "
          f"{anchor['wal_kb']:.0f} KB")
    for label, defaults in (("the store", False), ("was (SQLite's defaults)", True)):
        with sqlite_defaults(defaults), tmpfs(args.disk) as disk:
            if disk is None:
                print(f"{label}: a {args.disk} disk: skipped (mounting a tmpfs needs root)")
                continue
            got = feed_run(disk, n, filler=True)
        print(f"{label}: a {args.disk} disk filled and freed: {got['written']:.0f} of {n} written, "
              f"{got['waiting']:.0f} still waiting at stop; write-ahead log at most {got['wal_kb']:.0f} KB; "
              f"{got['seconds']:.1f} s")
    with tempfile.TemporaryDirectory() as folder:
        for label, defaults in (("the store", False), ("was (SQLite's defaults)", True)):
            got = limit_run(Path(folder), args.limit_kb * 1024, 5000, defaults)
            print(f"{label}: ulimit -f {args.limit_kb} KB: {got['written']} events written before the log "
                  f"refused every write ({got['refused']} refusals worked through or met)")


if __name__ == "__main__":
    main()
