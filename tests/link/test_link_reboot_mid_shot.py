"""A board that reboots again and again while a shot rolls, then its host killed before the
next quiet point: the restarted host resumes from the newest boot, logs nothing twice, loses
nothing, and the shot gets its one ``rest``; table time never goes back in the log.

A reboot the host sees is a checkpoint of its own also while a shot rolls: the old boot's
events still held are final at the reboot (its frames end there, the new boot's times go
on after them), and the checkpoint keeps the shot's last activity, whose ``rest`` is still
to come (``Checkpoint.activity_us``). Before, only a reboot at a quiet table was one: the
restarted host resumed from the checkpoint of a boot before the newest, which was past
that checkpoint's seq and uptime, and read it as the old boot going on (the season soak,
seed 29735: four reboots 0.6-1.9 s apart on hoek-1, t=101.14 logged after t=101.84).

The board is forged on a pty (``Board`` of test_link_reboot_while_down.py, writing its
edges as the shot rolls); tests/pub/test_host_crash_reboots.py plays it with the real
firmware and ``tablesense run``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections.abc import Callable
from typing import Any

import pytest
from effort import share
from helpers.pty_device import Pty
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_link_reboot_while_down import PIN, Board
from test_link_reboot_while_down import PROFILE as KEGLE

from tablesense.events import Event
from tablesense.link import Checkpoint, LinkError, LinkStatus, table_items
from tablesense.link.checkpoint import Dedupe
from tablesense.link.frame import F_ACTIVE, EventFrame, HelloFrame, encode_frame
from tablesense.pub import _line

#: the shot rests after 5 s without a sensor: the host is killed before it also where a
#: loaded machine holds the test up for seconds
PROFILE = dataclasses.replace(KEGLE, rest_quiet_ms=5000)
QUIET_S = PROFILE.rest_quiet_ms / 1000


class LiveBoard(Board):
    """A board that writes its shot's pin edges as they happen (``edge``); it says HELLO as it
    boots, as the firmware does, and its HELLO reports the pin's level as they left it."""

    async def run(self) -> None:
        if not self.edges:
            self.pty.send(self.hello())
        await super().run()

    def hello(self) -> bytes:
        level = 1 << PIN if self.edges and self.edges[-1].flags & F_ACTIVE else 0
        return encode_frame(HelloFrame(self.last(), self.uptime(), len(PROFILE.channels), level, 0, 0, 0,
                                       "0.3.0", PROFILE.id))

    def edge(self) -> None:
        f = EventFrame(self.n, PIN, 0 if self.n % 2 else F_ACTIVE, self.uptime())
        self.edges.append(f)
        self.n += 1
        self.pty.send(encode_frame(f))


@pytest.mark.realtime
@settings(max_examples=share(6, 3), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    apart=st.lists(st.floats(0.6, 1.9), min_size=1, max_size=3),  # the reboots, this far apart
    edges=st.integers(1, 3),  # pin edges each boot writes (down, up, down ...) soon after it boots
    down=st.sampled_from([None, "short", "long"]),  # and once more while the host is down
)
# the load runs' case (docs/reliability.md, "Table time going back after a board rebooted while
# the host was down"): a loaded host hears the board rebooted at once past the log's uptime, and
# only the frames it replays tell the new boot (firmware 0.3, no boot tag)
@example(apart=[1.9, 0.98, 1.23], edges=1, down="short")
def test_a_board_rebooting_again_and_again_mid_shot_then_its_host_killed_logs_each_event_once(
        apart: list[float], edges: int, down: str | None) -> None:
    log, statuses = asyncio.run(_reboots_then_killed(apart, edges, down))
    said = "\n".join(map(str, statuses))
    events = [e for e in log if isinstance(e, Event)]
    boots = 1 + len(apart) + (down is not None)
    pins = [e for e in events if e.type == "pin"]
    assert len(pins) == edges * boots, f"{len(pins)} pins for {edges * boots} edges: {events}\n{said}"
    states = ["down" if k % 2 == 0 else "up" for k in range(edges)] * boots
    assert [p.state for p in pins] == states, f"{events}\n{said}"
    times = [e.t for e in events]
    assert times == sorted(times), f"table time goes back: {times}\n{said}"
    rests = [i for i, e in enumerate(events) if e.type == "rest"]
    assert rests == [len(events) - 1], f"the shot's rest, once, last: {events}\n{said}"
    # (a reboot the host sees within a second of an edge says what the board may have sent
    # after the last frame heard lost, as it does without a kill: test_link_sequence.py)
    lost = [s for s in statuses if s.kind == "lost" and "while the host was down" in s.text]
    assert len(lost) == (down is not None), said


async def _reboots_then_killed(apart: list[float], edges: int, down: str | None
                               ) -> tuple[list[Event | Checkpoint], list[LinkStatus]]:
    """The board boots, the host starts; the shot's edges, then a reboot every ``apart`` s, each
    new boot writing ``edges`` edges 0.1 s after it boots; the host is killed once it has
    logged the last of them (the shot still rolls), the board may reboot again while it is
    down (``down``: ``short``, told by its uptime below the old boot's last event; ``long``,
    told by the host's clock, its boot begun more than ``LATER_BOOT_S`` after the one
    before), and the next host resumes from the log's last checkpoint until the shot's rest.
    Returns the log (events, checkpoints) and what was said."""
    pty = Pty()
    statuses: list[LinkStatus] = []
    log: list[Event | Checkpoint] = []
    board = LiveBoard(pty, 3_000_000, 0)
    device = asyncio.create_task(board.run())

    def pins() -> int:
        return sum(isinstance(e, Event) and e.type == "pin" for e in log)

    async def shot(b: LiveBoard) -> None:
        for _ in range(edges):
            await asyncio.sleep(0.1)
            b.edge()

    async def reboot(up_us: int = 50_000, written: int = 0) -> LiveBoard:
        nonlocal board, device
        device.cancel()
        board = LiveBoard(pty, up_us, written)
        device = asyncio.create_task(board.run())
        return board

    try:
        first = table_items(pty.port, PROFILE, on_status=statuses.append, reconnect=False)
        host = asyncio.create_task(_host(first, statuses, log))
        await _until(lambda: any(s.kind == "hello" for s in statuses), 5.0)
        await shot(board)
        written = edges
        for gap in apart:
            await asyncio.sleep(gap - 0.1 * edges)
            await shot(await reboot())
            written += edges
        await _until(lambda: pins() == written, 5.0)
        assert pins() == written and not any(isinstance(e, Event) and e.type == "rest" for e in log), (
            f"{log}\n" + "\n".join(map(str, statuses)))
        # logged, the shot rolling: the host is killed
        host.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await host
        if down == "short":  # at once; the host is back 50 ms later: up less than the old boot's last event
            new = await reboot(0)
            for _ in range(edges):
                new.edge()
            await asyncio.sleep(0.05)
        elif down == "long":  # 1.5 s after the last boot began; the host is back 1 s later: up longer
            await asyncio.sleep(max(0.0, board.boot + 1.5 - time.monotonic()))
            new = await reboot(0)
            await asyncio.sleep(1.0)
            for _ in range(edges):
                new.edge()
        cps = [i for i, x in enumerate(log) if isinstance(x, Checkpoint)]
        assert cps, f"no checkpoint: {log}"
        cp = log[cps[-1]]
        assert isinstance(cp, Checkpoint)
        after = [_line(e) for e in log[cps[-1] + 1:] if isinstance(e, Event)]
        second = table_items(pty.port, PROFILE, resume=cp.after_lines(after), on_status=statuses.append,
                             reconnect=False)
        rested = lambda: any(isinstance(e, Event) and e.type == "rest" for e in log)  # noqa: E731
        host = asyncio.create_task(_host(second, statuses, log, Dedupe(after)))
        await _until(rested, QUIET_S + 6.0)
        await asyncio.sleep(0.5)  # anything doubled after the rest
        host.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await host
    finally:
        device.cancel()
        pty.close()
    return log, statuses


async def _host(items: Any, statuses: list[LinkStatus], log: list[Event | Checkpoint],
                dedupe: Dedupe | None = None) -> None:
    """A host as ``Pub.feed``: the events it logs (those the log has are skipped, up to frames
    lost with a reboot: none of the old boot's comes again) and checkpoints."""
    try:
        async for item in items:
            if isinstance(item, LinkStatus):
                if item not in statuses:
                    statuses.append(item)
                if item.kind == "lost" and item.data.get("rebooted"):
                    dedupe = None
            elif isinstance(item, Checkpoint):
                log.append(item)
            elif dedupe is None or not dedupe.seen(_line(item)):
                log.append(item)
    except LinkError as exc:
        statuses.append(LinkStatus("error", str(exc)))
    finally:
        await items.aclose()


async def _until(done: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
