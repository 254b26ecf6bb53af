"""A host that resumes from its link checkpoint finds a board that rebooted while the host
was down: whatever the new boot's uptime and however many frames it has written, the host
says the old boot's frames after the checkpoint lost (once), reads the new boot from its
first frame, and its table times go on after the latest time in the match log.

Two things tell the host of the reboot, and neither alone is enough: the board's uptime
below what the log shows the old boot had reached (the checkpoint's uptime, or the events
logged after it), and its frame count (a HELLO's seq) behind the frames the host had
delivered before the checkpoint. Before, only an uptime below the checkpoint's told: a new
boot that had been up longer (the host was down longer than the old boot had run since the
checkpoint) was read as the old one, its frames behind the checkpoint's seq taken as
duplicates and dropped unsaid, or its times put before the events logged after the
checkpoint (the season soak, seed 3: kroeg-1, t=8.82 logged after t=16.64).

The board is forged on a pty (as in test_link_plausible.py): its uptime and frame count
are drawn anywhere in the range, which the real firmware would need minutes of real time
to reach; tests/pub/test_host_crash_reboot.py plays the same with the real firmware and
``tablesense run``.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from helpers.link_reader import wind_down
from helpers.pty_device import Pty
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tablesense.events import Event
from tablesense.link import Checkpoint, LinkError, LinkStatus, table_items
from tablesense.link.frame import (
    F_ACTIVE,
    F_REPLAY,
    ErrorFrame,
    EventFrame,
    HeartbeatFrame,
    HelloFrame,
    PongFrame,
    encode_frame,
)
from tablesense.link.plausible import TIE_US
from tablesense.table.profile import load_profile

PROFILE = load_profile("kegle")
PIN = next(c.ch for c in PROFILE.channels if c.kind == "pin")
NONE = 0xFFFFFF  # a HELLO's seq when nothing was written since boot


class Board:
    """A board booted ``up_us`` before the host connects that has written ``n`` pin edges
    (seq 0..n-1, up to 50 ms apart, the last 0.3 s before now): it answers ``!hello``, ``!ping``
    and ``!replay`` as the firmware does (firmware/link.py) and sends a heartbeat every 0.1 s."""

    def __init__(self, pty: Pty, up_us: int, n: int, tag: int | None = None) -> None:
        self.pty, self.n, self.tag = pty, n, tag  # tag: its boot tag (firmware 0.4), None: none said
        self.boot = time.monotonic() - up_us / 1e6
        last, step = up_us - 300_000, min(50_000, max(1, (up_us - 350_000) // max(n, 1)))
        self.edges = [EventFrame(s, PIN, 0 if s % 2 else F_ACTIVE, last - (n - 1 - s) * step)
                      for s in range(n)]

    def uptime(self) -> int:
        return int((time.monotonic() - self.boot) * 1e6)

    def last(self) -> int:
        return self.n - 1 if self.n else NONE

    def hello(self) -> bytes:
        if self.tag is not None:
            return encode_frame(HelloFrame(self.last(), self.uptime(), len(PROFILE.channels), 0, 0, 0, 0,
                                           "0.4.0", PROFILE.id, "", "", 1, "", self.tag))
        return encode_frame(HelloFrame(self.last(), self.uptime(), len(PROFILE.channels), 0, 0, 0, 0,
                                       "0.3.0", PROFILE.id))

    async def run(self) -> None:
        beat = time.monotonic()
        while True:
            try:
                line = await self.pty.command(timeout=0.1)
            except AssertionError:
                line = ""
            if line == "!hello":
                self.pty.send(self.hello())
            elif line.startswith("!ping "):
                self.pty.send(encode_frame(PongFrame(self.last(), int(line.split()[1]))))
            elif line.startswith("!replay "):
                seq = int(line.split()[1])
                if seq < self.n:
                    again = [f._replace(flags=f.flags | F_REPLAY) for f in self.edges[seq:]]
                    self.pty.send(*map(encode_frame, again))
                elif seq > self.n:
                    self.pty.send(encode_frame(ErrorFrame(self.last(), 2, f"replay {seq}: not sent yet "
                                                                          f"(next is {self.n})")))
            if time.monotonic() - beat >= 0.1:
                beat = time.monotonic()
                up = self.uptime()
                self.pty.send(encode_frame(HeartbeatFrame(self.last(), up, 0, 0, 0, up, self.tag)))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cp_seq=st.integers(1, 3000),
    cp_up_s=st.floats(0.5, 600.0),
    logged_after_s=st.floats(0.0, 20.0),  # the old boot's events logged after the checkpoint
    offset_s=st.sampled_from([0.0, 12.5]),  # the board had rebooted before the checkpoint too
    new_up_s=st.floats(0.4, 1200.0),
    written=st.integers(0, 40),
)
def test_a_board_rebooted_while_the_host_was_down_is_read_from_its_start_after_the_logs_time(
        cp_seq: int, cp_up_s: float, logged_after_s: float, offset_s: float, new_up_s: float,
        written: int) -> None:
    cp_up, offset = int(cp_up_s * 1e6), int(offset_s * 1e6)
    logged_raw = cp_up + int(logged_after_s * 1e6)
    new_up = int(new_up_s * 1e6)
    # what tells the host: an uptime below the old boot's, or a frame count behind it
    told = new_up < logged_raw or written - 1 < cp_seq - 1
    # a board that reads as the old one going on (test_pub_resume.py); or one whose clock is
    # too close to the old one's to tell by a status frame: the numbering of the frames it
    # writes next tells (test_link_plausible.py)
    assume(told and abs(new_up - max(cp_up, logged_raw)) > 2 * TIE_US)
    cp = Checkpoint(cp_seq, cp_up, offset, cp_up + offset, logged_us=logged_raw + offset)
    events, statuses = asyncio.run(_resume(cp, new_up, written))
    said = "\n".join(map(str, statuses))
    lost = [s for s in statuses if s.kind == "lost"]
    assert len(lost) == 1 and "restarted while the host was down" in lost[0].text, said
    pins = [e for e in events if e.type == "pin"]
    assert len(pins) == written, f"{len(pins)} of the new boot's {written} edges: {events}\n{said}"
    assert [p.state for p in pins] == ["down" if s % 2 == 0 else "up" for s in range(written)], said
    times = [e.t for e in events]
    assert times == sorted(times), f"table time goes back: {times}\n{said}"
    assert all(t * 1e6 > cp.logged_us for t in times), f"{times}: the log is at {cp.logged_us / 1e6}\n{said}"


async def _resume(cp: Checkpoint, new_up: int, written: int, tag: int | None = None, lost: bool = True
                  ) -> tuple[list[Event], list[LinkStatus]]:
    """A host resumed from ``cp`` reads a ``Board`` up ``new_up`` with ``written`` edges: its
    events and what was said, once every edge is in and (``lost``) a loss said, or after 4 s."""
    pty = Pty()
    board = Board(pty, new_up, written, tag)
    device = asyncio.create_task(board.run())
    events: list[Event] = []
    statuses: list[LinkStatus] = []  # what the link said, and the losses the host said
    items = table_items(pty.port, PROFILE, resume=cp, on_status=statuses.append, reconnect=False)

    async def read() -> None:
        async for item in items:
            if isinstance(item, LinkStatus):
                if item not in statuses:
                    statuses.append(item)
            elif isinstance(item, Event):
                events.append(item)

    async def done() -> None:  # every edge in and the loss said: anything doubled comes within 0.3 s
        while sum(e.type == "pin" for e in events) < written or (
                lost and not any(s.kind == "lost" for s in statuses)):
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)

    reader = asyncio.create_task(read())
    try:
        await asyncio.wait_for(done(), 4.0)
    except TimeoutError:
        pass
    finally:
        await wind_down(reader, items, device, pty)
    return events, statuses


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(old_up_s=st.floats(3.0, 300.0), new_written=st.integers(1, 20))
def test_a_host_restarted_after_a_reboot_it_saw_goes_on_from_the_new_boot_without_doubles(
        old_up_s: float, new_written: int) -> None:
    """The board reboots while the host runs (the host sees it, logs the new boot's events),
    then the host is killed before the next quiet point: the next host resumes from the
    checkpoint taken at the reboot and skips what the log has; nothing doubled, nothing said
    lost (before, it resumed from the old boot's checkpoint and put the new boot's events in
    the log again, 5.9 s later: the season soak, seed 10)."""
    old_written = 0  # a host that starts reads from the board's HELLO on
    events, statuses, again = asyncio.run(_seen_then_resumed(int(old_up_s * 1e6), old_written, new_written))
    said = "\n".join(map(str, statuses))
    assert any(s.kind == "restarted" for s in statuses), said
    assert sum(e.type == "pin" for e in events) == old_written + new_written, f"{events}\n{said}"
    doubled = [e for e in again if e.type == "pin"]  # (its rest is new: the first host stopped before it)
    assert doubled == [], f"logged again by the restarted host: {doubled}\n{said}"
    assert not any(s.kind == "lost" for s in statuses), said


async def _seen_then_resumed(old_up: int, old_written: int,
                             new_written: int) -> tuple[list[Event], list[LinkStatus], list[Event]]:
    from tablesense.link.checkpoint import Dedupe
    from tablesense.pub import _line

    pty = Pty()
    statuses: list[LinkStatus] = []
    log: list[Event | Checkpoint] = []
    board = Board(pty, old_up, old_written)
    device = asyncio.create_task(board.run())

    async def host(items: Any, until: Any, dedupe: Dedupe | None = None, seconds: float = 4.0) -> list[Event]:
        new: list[Event] = []

        async def go() -> None:
            async for item in items:
                if isinstance(item, LinkStatus):
                    if item not in statuses:
                        statuses.append(item)
                elif isinstance(item, Checkpoint):
                    log.append(item)
                elif dedupe is None or not dedupe.seen(_line(item)):
                    log.append(item)
                    new.append(item)
                if until():
                    return

        try:
            await asyncio.wait_for(go(), seconds)
        except TimeoutError:
            pass
        except LinkError as exc:
            statuses.append(LinkStatus("error", str(exc)))
        finally:
            await items.aclose()
        return new

    def pins() -> int:
        return sum(isinstance(e, Event) and e.type == "pin" for e in log)

    try:
        first = table_items(pty.port, PROFILE, on_status=statuses.append, reconnect=False)

        rebooted = False

        def reboot_when_read() -> bool:
            nonlocal board, device, rebooted
            if not rebooted and pins() == old_written and any(s.kind == "hello" for s in statuses):
                rebooted = True
                device.cancel()
                board = Board(pty, 400_000, new_written)  # the new boot, up 0.4 s, its edges written
                device = asyncio.create_task(board.run())
            return pins() == old_written + new_written

        await host(first, reboot_when_read, seconds=6.0)
        cps = [i for i, x in enumerate(log) if isinstance(x, Checkpoint)]
        cp = log[cps[-1]] if cps else None
        assert isinstance(cp, Checkpoint), f"no checkpoint: {log}"
        after = [_line(e) for e in log[cps[-1] + 1:] if isinstance(e, Event)]
        events = [e for e in log if isinstance(e, Event)]
        cp = cp.after_lines(after)
        second = table_items(pty.port, PROFILE, resume=cp, on_status=statuses.append, reconnect=False)
        again = await host(second, lambda: False, Dedupe(after), seconds=1.5)
    finally:
        device.cancel()
        pty.close()
    return events, statuses, again
