"""A seq a status frame claims is not believed until the device confirms it.

The real firmware runs under MicroPython's unix port, in real time, read through
``tablesense.sim.cable.Cable``; the cable slips a forged HEARTBEAT between two of the board's
frames (a corruption the CRC missed: no software makes the firmware send it). It claims the
board has written frames far beyond its newest. The host asks the board, whose own status
frames do not confirm the claim: the claim is refused as implausible, nothing is asked for,
held back or given up, and every edge arrives once and in order.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from helpers.edges import AHEAD_US, shifted
from helpers.waits import for_at_most

from tablesense.link import Link, LinkStatus
from tablesense.link.frame import EventFrame, HeartbeatFrame, encode_frame
from tablesense.sim.cable import Cable
from tablesense.sim.fitl import round_robin_edges, start_firmware

pytestmark = pytest.mark.micropython


async def forged_run(
    board: Path, rate: int, ahead: int, n: int, uptime: str
) -> tuple[list[EventFrame], list[LinkStatus], Link]:
    """``uptime``: the forged frame's, ``on`` the device's clock (just after its newest frame)
    or ``behind`` it by 50 ms (so that it also claims a reboot, too close to the old clock for
    the next status frame to tell: the board's frames after it do)."""
    fw = start_firmware(board, realtime=True)
    cable = Cable(fw.port)
    link = Link(cable.url, from_seq=0, backoff=(0.05, 0.2))
    edges = round_robin_edges(n, 0, 1_000_000 // rate)
    frames: list[EventFrame] = []
    statuses: list[LinkStatus] = []
    forged = False

    async def read() -> None:
        nonlocal forged
        async for item in link.items():
            if isinstance(item, LinkStatus):
                statuses.append(item)
                if item.kind == "hello" and not frames:
                    fw.send_edges(shifted(edges, int(item.data["uptime_us"]) + AHEAD_US))
            elif isinstance(item, EventFrame):
                frames.append(item)
                if len(frames) == n // 3 and not forged:
                    forged = True
                    # the device's clock as the link knows it: on a loaded machine frames come in
                    # runs, the link has judged some past this one, and more are on the wire
                    newest = max(link.clock.device_now_us(time.monotonic()) or 0, link.gate.old_uptime(),
                                 item.t_us)
                    now = newest + 100_000 if uptime == "on" else newest - 50_000
                    cable.inject(encode_frame(HeartbeatFrame(item.seq + ahead, now, 0, 0, 0, now)))
                if item.seq == n - 1:
                    await asyncio.sleep(0.5)  # anything doubled or said lost comes now
                    return

    try:
        await for_at_most(n / rate + 20, read())
    finally:
        link.close()
        cable.close()
        fw.stop()
    return frames, statuses, link



@pytest.mark.parametrize(
    ("rate", "ahead", "uptime"),
    [
        pytest.param(200, 500, "on", id="500-ahead-at-200/s"),
        pytest.param(20, 500, "on", id="500-ahead-at-20/s"),
        pytest.param(200, 500, "behind", id="500-ahead-50ms-behind-at-200/s"),
        pytest.param(200, 1, "on", id="1-ahead-at-200/s", marks=pytest.mark.slow),
        pytest.param(200, 3000, "on", id="3000-ahead-at-200/s", marks=pytest.mark.slow),
        pytest.param(20, 40, "on", id="40-ahead-at-20/s", marks=pytest.mark.slow),
        pytest.param(20, 500, "behind", id="500-ahead-50ms-behind-at-20/s", marks=pytest.mark.slow),
    ],
)
async def test_a_forged_heartbeat_claiming_frames_ahead_loses_nothing(
    board: Path, rate: int, ahead: int, uptime: str
) -> None:
    n = max(60, rate * 3)
    frames, statuses, link = await forged_run(board, rate, ahead, n, uptime)
    said = "\n".join(map(str, statuses))
    assert [f.seq for f in frames] == list(range(n)), said
    assert not [s for s in statuses if s.kind in ("lost", "restarted")] and link.seq_stats.lost == 0, said
    if ahead == 1 and uptime == "on":  # the board's next frame comes at once: true by then, moot
        assert link.stats.implausible <= 1, said
        return
    assert link.stats.implausible == 1, said  # the forged frame, refused when the board did not confirm it
    (refused,) = link.refused
    assert isinstance(refused.frame, HeartbeatFrame), refused
    if uptime == "on":
        assert refused.what == "seq" and "not confirmed" in refused.reason, refused
    else:
        assert refused.what == "reboot" and "old boot's numbering" in refused.reason, refused
