"""A host that resumes from its link checkpoint tells the boot it left from a later one by
when the boot began (the host's raw monotonic clock: link/hostclock.py), also where the
later boot is past the checkpoint's seq and uptime, so that neither tells; and a boot that
went on is never taken for a later one, however long the host was down, also when the
first status frame it reads waited in a buffer.

Before, a board that rebooted after the checkpoint and had written more frames and been up
longer than the old boot had at the checkpoint was read as the old boot going on: its
frames were replayed from the checkpoint's seq under the old clock, and their events came
out behind those logged before the host was killed (the season soak, seed 29735: hoek-1,
row 1179 t=101.14 after row 1178 t=101.84).

The board is forged on a pty (``Board`` of test_link_reboot_while_down.py), its uptime and
frame count drawn anywhere; tests/pub/test_host_crash_reboots.py plays reboots with the
real firmware and ``tablesense run``.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from helpers.link_reader import wind_down
from helpers.pty_device import Pty
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_link_reboot_while_down import PROFILE, Board, _resume

from tablesense.events import Event
from tablesense.link import Checkpoint, LinkStatus, table_items
from tablesense.link.frame import HeartbeatFrame, HelloFrame, encode_frame
from tablesense.link.hostclock import DRIFT, LATER_BOOT_S, machine_boot, raw_now


def _checkpoint(seq: int, began: float, up_us: int, logged_after_us: int = 0, machine: str | None = None
                ) -> Checkpoint:
    """A checkpoint taken at uptime ``up_us`` of a boot that began at ``began`` (raw clock)."""
    return Checkpoint(seq, up_us, 0, up_us, logged_us=up_us + logged_after_us, boot_s=began,
                      at_s=began + up_us / 1e6, machine=machine_boot() if machine is None else machine)


@pytest.mark.realtime
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cp_seq=st.integers(1, 30),
    cp_up_s=st.floats(0.3, 120.0),
    logged_after_s=st.floats(0.0, 5.0),  # the old boot's events logged after the checkpoint
    gap_s=st.floats(0.0, 600.0),  # the old boot ran this long after the checkpoint, then rebooted
    new_up_s=st.floats(0.5, 1200.0),  # the new boot's uptime when the host is back
    more=st.integers(0, 30),  # frames the new boot wrote beyond the checkpoint's seq
)
def test_a_later_boot_past_the_checkpoints_seq_and_uptime_is_read_from_its_start(
        cp_seq: int, cp_up_s: float, logged_after_s: float, gap_s: float, new_up_s: float,
        more: int) -> None:
    logged_raw_s = cp_up_s + logged_after_s
    # neither the seq nor the uptime tells: the new boot is past both
    assume(new_up_s > logged_raw_s + 0.5)
    # the new boot began this long after the old one: told by the host's clock, drift allowed
    after_s = cp_up_s + gap_s
    assume(after_s > LATER_BOOT_S + DRIFT * (gap_s + new_up_s) + 0.3)
    written = cp_seq + more
    began_old = raw_now() - new_up_s - after_s
    cp = _checkpoint(cp_seq, began_old, int(cp_up_s * 1e6), int(logged_after_s * 1e6))
    events, statuses = asyncio.run(_resume(cp, int(new_up_s * 1e6), written))
    said = "\n".join(map(str, statuses))
    lost = [s for s in statuses if s.kind == "lost"]
    assert len(lost) == 1 and "restarted while the host was down" in lost[0].text, said
    pins = [e for e in events if e.type == "pin"]
    assert len(pins) == written, f"{len(pins)} of the new boot's {written} edges: {events}\n{said}"
    times = [e.t for e in events]
    assert times == sorted(times), f"table time goes back: {times}\n{said}"
    assert all(t * 1e6 > cp.logged_us for t in times), f"{times}: the log is at {cp.logged_us / 1e6}\n{said}"


@pytest.mark.realtime
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cp_seq=st.integers(1, 20),
    more=st.integers(0, 20),  # frames written after the checkpoint, just before the host is back
    down_s=st.floats(0.5, 3600.0),  # the checkpoint was taken this long before the host is back
    latency_s=st.floats(0.0, 0.2),  # the checkpoint's boot start, from a frame that waited this long
    stale_s=st.sampled_from([0.0, 2.0, 30.0]),  # a heartbeat this old is read first
    late_s=st.sampled_from([0.0, 1.6, 3.0]),  # then status frames written over this long, in one batch
)
def test_a_boot_that_went_on_while_the_host_was_down_is_not_taken_for_a_later_one(
        cp_seq: int, more: int, down_s: float, latency_s: float, stale_s: float, late_s: float) -> None:
    # what waits in the buffer was written after the port was opened again: after the checkpoint
    assume(late_s < down_s - 0.05 * more - 0.3)
    # the board's edges before the checkpoint 50 ms apart from 0.3 s on, those after it in the
    # last 0.3 + 0.05 * more s; the checkpoint down_s ago; the board up 0.5 s more than that
    up = int((0.5 + 0.05 * cp_seq + down_s) * 1e6)
    assume(stale_s * 1e6 < up - 100_000)  # the stale heartbeat is this boot's: written after it began
    board = HeldUpBoard(Pty(), up, cp_seq + more, stale_s, late_s)
    board.edges[:cp_seq] = [f._replace(t_us=300_000 + 50_000 * k) for k, f in enumerate(board.edges[:cp_seq])]
    cp_up = up - int(down_s * 1e6)
    assert board.edges[cp_seq - 1].t_us < cp_up < (board.edges[cp_seq].t_us if more else up)
    cp = _checkpoint(cp_seq, raw_now() - up / 1e6 + latency_s, cp_up)
    events, statuses = asyncio.run(_resume_same(cp, board))
    said = "\n".join(map(str, statuses))
    assert not any(s.kind in ("lost", "restarted") for s in statuses), said
    pins = [e for e in events if e.type == "pin"]
    assert [round(p.t * 1e6) for p in pins] == [f.t_us for f in board.edges[cp_seq:]], f"{events}\n{said}"


class HeldUpBoard(Board):
    """A board whose first answer to ``!hello`` comes behind what a host held up as it opens
    the port reads first (pyserial empties the buffer as it opens, so they are written
    then): one heartbeat ``stale_s`` old, and a HELLO and heartbeats every 0.1 s written
    over the last ``late_s``, read in one batch (each looks as if its boot began that much
    later)."""

    def __init__(self, pty: Pty, up_us: int, n: int, stale_s: float, late_s: float) -> None:
        super().__init__(pty, up_us, n)
        self.stale_s, self.late_s, self.answered = stale_s, late_s, False

    def hello(self) -> bytes:
        if self.answered:
            return super().hello()
        self.answered = True
        up, frames = self.uptime(), []
        if self.stale_s:
            old = up - int(self.stale_s * 1e6)
            frames.append(HeartbeatFrame(self.last(), old, 0, 0, 0, old))
        if self.late_s:
            first = up - int(self.late_s * 1e6)
            n = len(PROFILE.channels)
            frames.append(HelloFrame(self.last(), first, n, 0, 0, 0, 0, "0.3.0", PROFILE.id))
            frames += [HeartbeatFrame(self.last(), first + k * 100_000, 0, 0, 0, first + k * 100_000)
                       for k in range(1, int(self.late_s * 10))]
        return b"".join(map(encode_frame, frames)) + super().hello()


async def _resume_same(cp: Checkpoint, board: Board) -> tuple[list[Event], list[LinkStatus]]:
    """The board's boot goes on: the host resumes, replays from the checkpoint, and reads for
    2 s more once every edge after it is in (a reboot claimed is decided within 2.5 s)."""
    pty = board.pty
    device = asyncio.create_task(board.run())
    events: list[Event] = []
    statuses: list[LinkStatus] = []
    items = table_items(pty.port, PROFILE, resume=cp, on_status=statuses.append, reconnect=False)

    async def read() -> None:
        async for item in items:
            if isinstance(item, LinkStatus):
                statuses.append(item)
            elif isinstance(item, Event):
                events.append(item)

    reader = asyncio.create_task(read())
    try:
        deadline = time.monotonic() + 6.0
        while time.monotonic() < deadline:  # every edge after the checkpoint, then 2 s more
            if sum(e.type == "pin" for e in events) >= board.n - cp.seq:
                await asyncio.sleep(2.0)
                break
            await asyncio.sleep(0.05)
    finally:
        await wind_down(reader, items, device, pty)
    return events, statuses


def test_a_checkpoint_of_another_machine_boot_tells_nothing_by_the_clock() -> None:
    """The raw clock starts again with the machine: a checkpoint read on another machine boot
    is not compared by it (the board's seq and uptime still are)."""
    cp = _checkpoint(5, raw_now() - 10_000.0, 2_000_000, machine="another-boot")
    assert cp.boot_began(machine_boot()) is None
    again = Checkpoint.from_json(cp.to_json())
    assert (again.boot_s, again.at_s, again.machine) == (cp.boot_s, cp.at_s, "another-boot")
    same = _checkpoint(5, 100.0, 2_000_000)
    want = (100.0, 102.0) if machine_boot() else None  # off Linux: no machine boot, never compared
    assert Checkpoint.from_json(same.to_json()).boot_began(machine_boot()) == want
