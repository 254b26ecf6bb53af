"""Latency from a table event entering the host to the scoreboard's DOM showing it.

Runs the real pub (SQLite match log with a synced commit per event, the rule engine, the
WebSocket) and Debian's chromium: one scoreboard page per table, and the overview (``/``,
eight tables on one page). Each event carries a ``mark``; the page notes when the message
holding it arrived, when its DOM showed it and when the frame that paints it began
(``performance.timeOrigin + performance.now()``, the same wall clock as the host's
``time.time()``); the snapshot's ``now`` says when the host sent it. So the p99 splits into
the host (the event applied and announced to the screens: ``to applied``, which held the
match log's synced commit before the table's events were shown first, docs/design.md; then
until its message goes: ``to the send``, which for the pages, who answer each message, includes
waiting for a page still busy with eight of them, ``web/messages.py`` ``Pace``), the WebSocket,
the page's script, and the wait for the browser's frame (asked only when the message
changed what the page shows). Also printed: the time to the event's commit (``on disk``),
which no longer precedes the screens, and the CPU per event of the host's
process and of the browser (every process below this one, from ``/proc``). The anchor,
measured in the same run: the host's own share, up to a plain WebSocket client (which
does not answer: it is sent every change), and the size of its messages.

    .venv/bin/python bench/web_latency.py [--events 200] [--gap-ms 100] [--burst]

Prints p50/p99/max in milliseconds for one table, eight TVs and the eight-table overview.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from tablesense.events import parse_event
from tablesense.pub import Pub
from tablesense.store import Store, Writer
from tablesense.web.server import start

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        # eight TVs are eight screens: no tab of ours is a background tab
        "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
        "--disable-backgrounding-occluded-windows"]


class Stamp:
    """A table's listener (``Pub`` sets each at every change, as it sets the screens' flags)
    that notes when each mark first stands on the table's ticker: the event applied and
    announced."""

    def __init__(self, ticker: Any, applied: dict[str, float]) -> None:
        self.ticker, self.applied = ticker, applied

    def set(self) -> None:
        now = time.time() * 1000
        for entry in reversed(self.ticker):
            mark = entry.get("mark")
            if mark is not None and mark not in self.applied:
                self.applied[mark] = now


class Host:
    """The pub and its web app on an event loop of their own (a thread)."""

    def __init__(self, db: str, tables: list[str]) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.writer = Writer(db)
        self.pub = Pub(Store(db), tables, writer=self.writer)
        self.runner, self.url = asyncio.run_coroutine_threadsafe(start(self.pub, port=0), self.loop).result()
        self.entered: dict[str, float] = {}
        self.applied: dict[str, float] = {}  # applied and announced: the snapshot's work follows
        self.logged: dict[str, float] = {}  # on disk (``submit_async`` returned)
        for tab in self.pub.tables.values():  # told of each change as the screens are, at once
            tab.listeners.add(Stamp(tab.ticker, self.applied))  # type: ignore[arg-type]

    def submit(self, table: str, event: dict[str, Any]) -> Future[None]:
        """The event enters the host as a table's link hands it over (``Pub.feed``)."""

        async def go() -> None:
            self.entered[event["mark"]] = time.time() * 1000
            await self.submit_async(table, event)

        return asyncio.run_coroutine_threadsafe(go(), self.loop)

    async def submit_async(self, table: str, event: dict[str, Any]) -> None:
        """``Pub.submit_async``, noting when it returned (the event on disk)."""
        await self.pub.submit_async(table, parse_event(event))
        self.logged[event["mark"]] = time.time() * 1000

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.writer.close()


def _descendants_cpu_s() -> float:
    """CPU seconds (user + system) spent so far by the live processes below this one: the browser."""
    tick = os.sysconf("SC_CLK_TCK")
    parent: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(entry)] = int(fields[1])
        cpu[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    mine, total = {os.getpid()}, 0.0
    grown = True  # a child's pid may be below its parent's: go round until nothing is added
    while grown:
        grown = False
        for pid, ppid in parent.items():
            if ppid in mine and pid not in mine:
                mine.add(pid)
                grown = True
    for pid in mine - {os.getpid()}:
        total += cpu.get(pid, 0.0)
    return total


def _events(n: int) -> list[dict[str, Any]]:
    """A golf table's stream: strike, cushions, rest, over and over."""
    out = []
    t = 1.0
    for i in range(n):
        kind = i % 5
        if kind == 0:
            out.append({"t": t, "type": "strike", "ball": "p1"})
        elif kind == 4:
            out.append({"t": t, "type": "rest"})
        else:
            out.append({"t": t, "type": "cushion", "cushion": kind, "ball": None})
        t += 0.5
    return out


def run(tables: int, events: int, gap_ms: float, burst: bool = False,
        overview: bool = False) -> tuple[list[dict[str, float]], dict[str, float]]:
    """Per shown event: ``entered`` (host), ``sent`` (the host's send), ``recv`` (message in the
    page), ``dom``, ``frame``; and the CPU seconds the host's process and the browser spent
    while the events streamed. ``overview``: one page on ``/`` with every table, else one TV
    page per table."""
    from playwright.sync_api import sync_playwright

    ids = [str(n) for n in range(1, tables + 1)]
    with tempfile.TemporaryDirectory() as tmp:
        host = Host(str(Path(tmp) / "bench.db"), ids)
        for tid in ids:
            host.submit(tid, {"t": 0.0, "type": "setup", "game": "golf", "mark": f"{tid}-setup",
                              "players": {"p1": "Ann", "p2": "Bob"}}).result()
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            pages = {}
            if overview:  # the pub's one screen of all tables
                page = browser.new_context().new_page()
                page.set_viewport_size({"width": 1920, "height": 1080})
                page.goto(f"{host.url}/")
                page.wait_for_function(f"document.querySelectorAll('.card .told').length === {tables}")
                pages["all"] = page
            for tid in ids if not overview else ():  # a context each: eight TVs are eight browsers
                page = browser.new_context().new_page()
                page.goto(f"{host.url}/table/{tid}?qr=0")
                page.wait_for_selector(".player.p1")
                pages[tid] = page
            stream = _events(events)
            cpu0 = (time.process_time(), _descendants_cpu_s())
            for i, event in enumerate(stream):
                for tid in ids:  # each table in its turn (burst: all at the same instant)
                    host.submit(tid, {**event, "mark": f"{tid}-{i}"})
                    if not burst:
                        time.sleep(gap_ms / 1000 / tables)
                if burst:
                    time.sleep(gap_ms / 1000)
            time.sleep(0.5)
            cpu = {"host": time.process_time() - cpu0[0], "browser": _descendants_cpu_s() - cpu0[1]}
            shown: dict[str, dict[str, float]] = {}
            for page in pages.values():
                shown.update(page.evaluate("window.__timing"))
            browser.close()
        host.stop()
    missing = [m for m in host.entered if m not in shown and not m.endswith("setup")]
    if missing:
        print(f"  {len(missing)} events never shown (e.g. {missing[:3]})", file=sys.stderr)
    return [{"entered": host.entered[m], "applied": host.applied.get(m, host.entered[m]),
             "logged": host.logged.get(m, host.entered[m]), **shown[m]}
            for m in host.entered
            if m in shown and not m.endswith("setup") and "frame" in shown[m]], cpu


def run_host_only(tables: int, events: int, gap_ms: float,
                  burst: bool = False) -> tuple[list[float], list[int], list[float], list[float],
                                                list[float]]:
    """The host's share: event in -> its snapshot received by a WebSocket client (no browser);
    the size of each message (bytes); the two halves of each event's time: in -> applied
    and announced, applied -> in the client; and in -> on disk."""
    import aiohttp

    ids = [str(n) for n in range(1, tables + 1)]
    sizes: list[int] = []
    logged: list[float] = []  # event in -> applied and announced
    disk: list[float] = []  # event in -> on disk
    sent: list[float] = []  # applied -> in the client: the web server's share

    async def main(host: Host) -> list[float]:
        lat: list[float] = []

        async def client(tid: str, ready: asyncio.Event) -> None:
            seen: set[str] = set()
            async with aiohttp.ClientSession() as http, http.ws_connect(f"{host.url}/ws/{tid}") as ws:
                ready.set()
                async for msg in ws:
                    now = time.time() * 1000
                    sizes.append(len(msg.data.encode()))
                    for ev in json.loads(msg.data)["ticker"]:
                        mark = ev.get("mark")
                        if mark in host.entered and mark not in seen and not mark.endswith("setup"):
                            seen.add(mark)
                            lat.append(now - host.entered[mark])
                            if mark in host.applied:
                                logged.append(host.applied[mark] - host.entered[mark])
                                sent.append(now - host.applied[mark])

        async def applied(tid: str, event: dict[str, Any]) -> None:
            await host.submit_async(tid, event)
            disk.append(host.logged[event["mark"]] - host.entered[event["mark"]])

        pending: set[asyncio.Task[None]] = set()
        flags = [asyncio.Event() for _ in ids]
        tasks = [asyncio.create_task(client(tid, f)) for tid, f in zip(ids, flags)]
        for f in flags:
            await f.wait()
        for i, event in enumerate(_events(events)):
            for tid in ids:
                mark = f"{tid}-{i}"
                host.entered[mark] = time.time() * 1000
                task = asyncio.create_task(applied(tid, {**event, "mark": mark}))
                pending.add(task)
                task.add_done_callback(pending.discard)
                if not burst:
                    await asyncio.sleep(gap_ms / 1000 / tables)
            if burst:
                await asyncio.sleep(gap_ms / 1000)
        await asyncio.sleep(0.5)
        for task in tasks:
            task.cancel()
        return lat

    with tempfile.TemporaryDirectory() as tmp:
        host = Host(str(Path(tmp) / "bench.db"), ids)
        for tid in ids:
            host.submit(tid, {"t": 0.0, "type": "setup", "game": "golf", "mark": f"{tid}-setup",
                              "players": {"p1": "Ann", "p2": "Bob"}}).result()
        lat = asyncio.run_coroutine_threadsafe(main(host), host.loop).result()
        host.stop()
    return lat, sizes, logged, sent, disk


def _split(rows: list[dict[str, float]]) -> None:
    """Where the time goes: p50/p99 of each stage, and the stages of the slowest 1 %."""
    stages = (("to applied", "entered", "applied"), ("to the send", "applied", "sent"),
              ("WebSocket", "sent", "recv"), ("page script", "recv", "dom"),
              ("to the frame", "dom", "frame"))
    parts = "  ".join(f"{name} {statistics.median([r[b] - r[a] for r in rows]):.1f}/"
                      f"{_pct([r[b] - r[a] for r in rows], 0.99):.1f}" for name, a, b in stages)
    total = sorted(rows, key=lambda r: r["frame"] - r["entered"])
    tail = total[max(0, int(len(total) * 0.99) - 1):] or total[-1:]
    share = "  ".join(f"{name} {statistics.mean([r[b] - r[a] for r in tail]):.1f}" for name, a, b in stages)
    print(f"      p50/p99 ms: {parts}; host -> frame p99 "
          f"{_pct([r['frame'] - r['entered'] for r in rows], 0.99):.1f}")
    print(f"      the slowest 1 % ({len(tail)}), mean ms: {share}")
    disk = [r["logged"] - r["entered"] for r in rows]
    print(f"      in -> on disk (the commit) p50/p99 ms: {statistics.median(disk):.1f}/"
          f"{_pct(disk, 0.99):.1f}")


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=200, help="events per table (200)")
    ap.add_argument("--gap-ms", type=float, default=100.0, help="time between a table's events (100 ms)")
    ap.add_argument("--burst", action="store_true", help="every table's event at the same instant")
    ap.add_argument("--case", choices=("all", "tv1", "tv8", "overview"), default="all",
                    help="which browser case to run (all; the WebSocket anchor always runs)")
    args = ap.parse_args()
    if not Path(CHROMIUM).exists():
        print(f"web_latency: {CHROMIUM} is missing (make browser)", file=sys.stderr)
        return 2
    print(f"web_latency: event into the host -> scoreboard DOM, {args.events} events per table, "
          f"one every {args.gap_ms:g} ms")
    cases = {"tv1": (1, False, "1 table, its TV"), "tv8": (8, False, "8 tables, 8 TVs"),
             "overview": (8, True, "8 tables, the overview (one page)")}
    for key, (tables, overview, what) in cases.items():
        if args.case not in ("all", key):
            continue
        rows, cpu = run(tables, args.events, args.gap_ms, args.burst, overview)
        lat = [r["dom"] - r["entered"] for r in rows]
        print(f"  {what}, host -> chromium DOM:  n={len(lat)} p50={statistics.median(lat):.1f} ms "
              f"p99={_pct(lat, 0.99):.1f} ms max={max(lat):.1f} ms")
        _split(rows)
        n = tables * args.events
        print(f"      CPU per event: host process {cpu['host'] / n * 1000:.2f} ms, "
              f"the browser {cpu['browser'] / n * 1000:.2f} ms")
    for tables in (1, 8):
        lat, sizes, logged, sent, disk = run_host_only(tables, args.events, args.gap_ms, args.burst)
        print(f"  {tables} table(s), host -> WebSocket client: n={len(lat)} "
              f"p50={statistics.median(lat):.1f} ms p99={_pct(lat, 0.99):.1f} ms max={max(lat):.1f} ms; "
              f"a message {statistics.mean(sizes) / 1000:.1f} KB on average, "
              f"the last {sizes[-1] / 1000:.1f} KB")
        print(f"      p50/p99 ms: to applied {statistics.median(logged):.1f}/{_pct(logged, 0.99):.1f}  "
              f"applied -> the client {statistics.median(sent):.1f}/{_pct(sent, 0.99):.1f}  "
              f"(in -> on disk {statistics.median(disk):.1f}/{_pct(disk, 0.99):.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
