"""A simulated match played through the real firmware and the real link.

The simulator plays the match (``MatchSim``, sensors only) and, for every shot, writes the
pin edges of the shot into the virtual HAL of the firmware running under MicroPython's
unix port (``tablesense.sim.fitl``). The table events then come back the way they come
from a real table: frames over a pty, decoded by ``tablesense.link.table_events`` with the
table profile, including the ``rest`` the link derives from the quiet bed sensor. The
referee's calls (start, carom, answers) come from the simulator's referee bot and are
merged in after the shot's ``rest``.

The device clock is kept equal to the simulator's clock: before a shot, a ``clock_us``
jump brings the firmware's clock (which runs with the wall clock) forward to the shot's
start, so event times agree between the two sources.
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec

from ..events import Call, Event, Pin, Rest, Setup
from .match import MatchSim

#: how long to wait for the link's ``rest`` after the last edge of a shot (s)
REST_TIMEOUT = 20.0


class _Clock:
    """Our estimate of the firmware's virtual clock (it runs with the wall clock)."""

    def __init__(self) -> None:
        self.base_us = 0
        self.wall = time.monotonic()

    def now_us(self) -> int:
        return self.base_us + int((time.monotonic() - self.wall) * 1e6)

    def jump(self, target_us: int) -> dict[str, int] | None:
        if target_us <= self.now_us() + 20_000:
            return None
        self.base_us, self.wall = target_us, time.monotonic()
        return {"clock_us": target_us}


async def firmware_match(game: str, seed: int = 0, speed: float = 1.0, profile: str | None = None,
                         notes: list[str] | None = None, **opts: Any) -> AsyncIterator[Event]:
    """The events of a simulated match as the link decodes them from the real firmware.

    ``speed`` shortens the players' thinking time only: the firmware plays each shot's
    edges on its real-time clock. ``notes`` collects what went wrong on the way (a shot
    whose rest the link did not report in time, link status changes).
    """
    from ..link import table_events
    from ..table.profile import board_config_json, load_profile
    from .fitl import start_firmware

    prof = load_profile(profile or game)
    notes = notes if notes is not None else []
    sim = MatchSim(game, seed=seed, full_info=False, opts=dict(opts, profile=prof), want_edges=True)
    with tempfile.TemporaryDirectory(prefix="tablesense-demo-") as tmp:
        board = Path(tmp) / f"{prof.id}.json"
        board.write_text(board_config_json(prof), encoding="utf-8")
        with start_firmware(board, Path(tmp) / "edges.jsonl", realtime=True) as fw:
            clock = _Clock()
            link_events: asyncio.Queue[Event] = asyncio.Queue()

            async def read_link() -> None:
                async for ev in table_events(fw.port, prof,
                                             on_status=lambda s: notes.append(str(s))):
                    await link_events.put(ev)

            reader = asyncio.create_task(read_link())
            try:
                async for ev in _merge(sim, fw, clock, link_events, speed, notes):
                    yield ev
            finally:
                await _cancel(reader)


async def _cancel(task: asyncio.Task[None], timeout: float = 5.0) -> None:
    """Cancel ``task`` and wait for it to end. The cancel is repeated: the link's read
    loop waits with ``asyncio.wait_for``, which in Python 3.11 can swallow a cancellation
    that meets a result, and one lost cancel would keep the firmware (and the host) alive."""
    deadline = time.monotonic() + timeout
    while not task.done() and time.monotonic() < deadline:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait({task}, timeout=0.2)
    if task.done() and not task.cancelled():
        task.exception()  # retrieved: a failure of the reader is not reported twice


async def _merge(sim: MatchSim, fw: Any, clock: _Clock, link_events: asyncio.Queue[Event],
                 speed: float, notes: list[str]) -> AsyncIterator[Event]:
    feed = sim.events()
    in_shot = False
    start = time.monotonic()
    t_sim0 = last_t = 0.0
    while True:
        ev = await asyncio.to_thread(next, feed, None)
        if ev is None:
            return
        if isinstance(ev, (Setup, Call)):
            if speed > 0:
                delay = (ev.t - t_sim0) / speed - (time.monotonic() - start)
                if delay > 0:
                    await asyncio.sleep(delay)
            if isinstance(ev, Call) and ev.t <= last_t:  # the link's rest comes a quiet period late
                ev = msgspec.structs.replace(ev, t=round(last_t + 0.5, 6))
            last_t = ev.t
            yield ev
            continue
        if isinstance(ev, Pin) and ev.state == "up" and not in_shot:
            # the referee sets the pins up: their switches go idle, the link reports them
            # and, after the quiet time, a rest of its own
            if _send(fw, sim, clock):
                async for got in _until_rest(link_events, None, notes):
                    last_t = max(last_t, got.t)
                    yield got
            continue
        if not in_shot:
            in_shot = True
            _send(fw, sim, clock)
        if isinstance(ev, Rest):
            in_shot = False
            async for got in _until_rest(link_events, ev, notes):
                last_t = max(last_t, got.t)
                yield got
            start, t_sim0 = time.monotonic(), ev.t


def _send(fw: Any, sim: MatchSim, clock: _Clock) -> bool:
    edges = sorted(sim.edges, key=lambda e: e["t_us"])
    sim.edges.clear()
    if not edges:
        return False
    jump = clock.jump(edges[0]["t_us"] - 50_000)
    fw.send_edges(([jump] if jump else []) + edges)
    return True


async def _until_rest(link_events: asyncio.Queue[Event], sim_rest: Rest | None,
                      notes: list[str]) -> AsyncIterator[Event]:
    """The link's events up to its next ``rest``; after ``REST_TIMEOUT`` the simulator's
    ``sim_rest`` stands in (none for the pins being set up)."""
    deadline = time.monotonic() + REST_TIMEOUT
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            if sim_rest is not None:
                notes.append(f"no rest from the link {REST_TIMEOUT:.0f} s after the shot ending at "
                             f"{sim_rest.t:.3f}: the simulator's rest stands in")
                yield sim_rest
            return
        try:  # not wait_for: in 3.11 it can swallow a cancellation that meets a result (a stop lost)
            async with asyncio.timeout(left):
                ev = await link_events.get()
        except TimeoutError:
            continue
        yield ev
        if isinstance(ev, Rest):
            return

