"""The real firmware (MicroPython's unix port, real time, on a pty behind ``sim.cable.Cable``)
reboots unseen while its line is out, and its new boot is past the old one's seq and uptime
when the line is back: the host knows it by its boot tag (firmware 0.4) and reads it from
seq 0. The old boot writes 4 edges (channels 0-3) and is heard up 1 s; the line is cut (the
host's port stays open: a silence) or unplugged (the port closed and opened again) for
1.6 s; the board reboots as it goes out, and the new boot writes 10 edges (channels 8-15)
in the cut, its HELLO and first heartbeat lost there too. The first thing the host hears
of it is a heartbeat up 2 s reporting seq 9. Before the tag it was read as the old boot
going on: seqs 4-9 asked for and delivered as the old boot's, the new boot's 0-3 never.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from helpers.link_reader import on_firmware
from test_link_reboots import edges

from tablesense.link import Link, LinkStatus
from tablesense.link.frame import F_ACTIVE, EventFrame, HeartbeatFrame
from tablesense.sim.cable import Cable
from tablesense.sim.fitl import FirmwareProcess, start_firmware

pytestmark = pytest.mark.micropython

OUT_S = 1.6  # the line is out this long, from the reboot on


async def _play(board: Path, unplug: bool) -> tuple[list[EventFrame], list[LinkStatus], list, list]:
    procs: list[FirmwareProcess] = [start_firmware(board, realtime=True)]
    old = edges(4, 150_000, 100_000, 0)  # written by 0.45 s
    new = edges(10, 300_000, 30_000, 8)  # written by 0.57 s: in the cut
    procs[0].send_edges(old)
    frames: list[EventFrame] = []
    statuses: list[LinkStatus] = []
    cable = Cable(procs[0].port)
    link = Link(cable.url, from_seq=0, backoff=(0.05, 0.2))
    heard = asyncio.Event()

    async def read() -> None:
        async for item in link.items():
            if isinstance(item, LinkStatus):
                statuses.append(item)
            elif isinstance(item, EventFrame):
                frames.append(item)
                if sum(f.channel >= 8 for f in frames) >= len(new):
                    await asyncio.sleep(0.3)  # anything doubled would come now
                    return
            elif isinstance(item, HeartbeatFrame) and item.uptime_us >= 1_000_000 and len(frames) >= len(old):
                heard.set()  # the old boot heard up 1 s, its edges in

    async def reboot() -> None:
        await heard.wait()
        if unplug:
            cable.unplug(OUT_S)
        else:
            cable.cut(OUT_S)
        procs[-1].stop()  # the board resets: its new boot begins in the cut
        procs.append(start_firmware(board, realtime=True))
        cable.attach(procs[-1].port)
        procs[-1].send_edges(new)

    await on_firmware(read(), 20, link, procs, cable, beside=asyncio.create_task(reboot()))
    return frames, statuses, old, new


@pytest.mark.parametrize("unplug", [False, True], ids=["silent", "cut"])
async def test_the_real_firmwares_later_boot_past_the_old_seq_and_uptime_is_read_from_its_start(
        board: Path, unplug: bool) -> None:
    frames, statuses, old, new = await _play(board, unplug)
    said = "\n".join(map(str, statuses))
    mine = [(f.seq, f.channel, bool(f.flags & F_ACTIVE)) for f in frames]
    assert mine[:4] == [(i, e["ch"], bool(e["level"])) for i, e in enumerate(old)], said
    assert mine[4:] == [(i, e["ch"], bool(e["level"])) for i, e in enumerate(new)], f"{mine}\n{said}"
    assert [s.kind for s in statuses].count("restarted") == 1, said
