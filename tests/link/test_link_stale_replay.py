"""A ``!replay`` the host meant for the board's old boot that reaches its new boot: the new
boot answers by its own numbering (ERROR 2 "not sent yet (next is N)", or its own frames
from that seq again, flagged REPLAY), and nothing of either boot is doubled, dropped or said
lost; the user is shown the new boot's refusal as it said it and one ``restarted``.

The real firmware runs under MicroPython's unix port in real time; a reboot is a new
firmware process behind the same port (``tablesense.sim.cable.Cable``, as in
test_link_reboots.py). The old boot plays 40 edges on channels 0-7, all of them delivered,
and is quiet a while before it resets (one reset in a burst is said to lose what it wrote last);
the request for its seqs 20.. (a gap it had, asked for just before it reset) is sent again
after the reboot: at once, before the host has heard the new boot, or once the new boot has
written fewer or more frames than 20. The new boot plays 40 edges on channels 8-15.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from helpers.link_reader import on_firmware
from helpers.pty_device import Pty
from test_link_plausible import ev, heartbeat, hello, played, script
from test_link_reboots import edges

from tablesense.link import Link, LinkStatus
from tablesense.link.frame import ErrorFrame, EventFrame, HeartbeatFrame, PongFrame, encode_frame
from tablesense.sim.cable import Cable
from tablesense.sim.fitl import FirmwareProcess, start_firmware

OLD = 40  # edges of the old boot, seq 0..39
NEW = 40  # edges of the new boot
STALE = 20  # the old boot's seq the request asks from


async def stale_replay(board: Path, written: int | None) -> tuple[list[EventFrame], list[LinkStatus], Link]:
    """The old boot's edges, a reboot, and ``!replay STALE`` sent to the new boot: at once
    (``written`` None), or when it has written ``written`` frames (the rest of its edges
    come 0.5 s after the request)."""
    procs: list[FirmwareProcess] = [start_firmware(board, realtime=True)]
    cable = Cable(procs[0].port)
    link = Link(cable.url, from_seq=0, backoff=(0.05, 0.2))
    frames: list[EventFrame] = []
    statuses: list[LinkStatus] = []
    first = NEW if written is None else written

    async def reboot() -> None:
        procs[-1].stop()  # the board resets
        procs.append(start_firmware(board, realtime=True))
        cable.attach(procs[-1].port)
        procs[-1].send_edges(edges(NEW, 1_000_000, 10_000, 8)[:first])  # from 1 s after its boot
        if written is None:  # the request the old boot never read, on the line as the new one boots
            await link.send(f"!replay {STALE}")

    async def read() -> None:
        played = rebooted = asked = False
        last = 0.0  # host time of the last frame
        async for item in link.items():
            if isinstance(item, LinkStatus):
                statuses.append(item)
                if item.kind == "hello" and not played:  # the old boot's first HELLO
                    played = True
                    procs[-1].send_edges(edges(OLD, int(item.data["uptime_us"]) + 200_000, 10_000, 0))
                continue
            now = asyncio.get_running_loop().time()
            if isinstance(item, HeartbeatFrame) and len(frames) == OLD and not rebooted and now - last > 1.2:
                rebooted = True  # the old boot quiet a while: a reset mid-burst is said to lose its tail
                await reboot()
            if not isinstance(item, EventFrame):
                continue
            frames.append(item)
            last = now
            new = sum(f.channel >= 8 for f in frames)
            if new == written and not asked:
                asked = True
                await link.send(f"!replay {STALE}")
                await asyncio.sleep(0.5)  # the new boot answers before it writes more
                t0 = (link.clock.device_now_us() or item.t_us) + 200_000
                procs[-1].send_edges(edges(NEW, t0, 10_000, 8)[written:])
            if new == NEW:
                await asyncio.sleep(0.5)  # anything doubled, or a late answer, would come now
                return

    await on_firmware(read(), 40, link, procs, cable)
    return frames, statuses, link



@pytest.mark.micropython
@pytest.mark.parametrize(
    "written",
    [
        pytest.param(None, id="before-the-host-heard-the-new-boot"),
        pytest.param(10, id="the-new-boot-wrote-fewer"),
        pytest.param(30, id="the-new-boot-wrote-more"),
    ],
)
async def test_a_replay_meant_for_the_old_boot_doubles_and_loses_nothing_on_the_new_one(
    board: Path, written: int | None
) -> None:
    frames, statuses, link = await stale_replay(board, written)
    said = "\n".join(map(str, statuses))
    old = [(f.seq, f.channel) for f in frames if f.channel < 8]
    new = [(f.seq, f.channel) for f in frames if f.channel >= 8]
    assert old == [(i, e["ch"]) for i, e in enumerate(edges(OLD, 0, 1, 0))], said
    assert new == [(i, e["ch"]) for i, e in enumerate(edges(NEW, 0, 1, 8))], said
    assert frames.index(next(f for f in frames if f.channel >= 8)) == OLD  # the old boot's, then the new's
    kinds = [s.kind for s in statuses]
    assert kinds.count("restarted") == 1, said
    assert not {"lost", "gap", "replay", "implausible"} & set(kinds), said  # the host asked nothing itself
    assert link.seq_stats.lost == 0 and link.stats.implausible == 0, said
    errors = [s.text for s in statuses if s.kind == "device_error"]
    if written is not None and written > STALE:  # the new boot's own frames 20..29 again: duplicates
        assert errors == [] and link.seq_stats.duplicates == written - STALE, said
    elif written is None:  # on the line while the board boots: read by the new boot, or lost
        # with the bytes a booting board never reads (make test: once, no answer at all)
        assert errors in ([], [f"device error 2: replay {STALE}: not sent yet (next is 0)"]), said
        assert link.seq_stats.duplicates == 0, said
    else:
        assert errors == [f"device error 2: replay {STALE}: not sent yet (next is {written})"], said
        assert link.seq_stats.duplicates == 0, said


# --- the new boot's answer read before its HELLO (a forged board on a pty) -------------------


async def test_a_new_boots_refusal_read_before_its_hello_leaves_the_old_boots_gap_said_lost(pty: Pty) -> None:
    """The old boot wrote seqs 8..11 in a cut (its heartbeat and PONG say it is at 11); the host
    asks for them, the board resets before it reads the request, and the new boot's HELLO is
    lost in the cut too: its "not sent yet (next is 0)" is the first the host hears of it.
    That answer is by the new boot's numbering: the host keeps the old boot's gap, and when
    the new boot's heartbeat and HELLO show the reset, says the four frames lost, by their
    seqs, once; the new boot's frames come from its seq 0 on. (The answer was taken by the
    old boot's numbering: the gap dropped without a word, and the user told that the old
    boot's frames from seq 0 on were lost.)"""
    link = Link(pty.port, from_seq=0, reconnect=False)

    async def steps() -> None:
        await pty.command()
        pty.send(hello(0xFFFFFF, uptime=50_000), *(ev(q, t_us=60_000 + q * 1000) for q in range(8)))
        await asyncio.sleep(0.3)
        pty.send(heartbeat(11, 400_000))  # 8..11 were written in the cut: a claim, asked about
        assert await pty.command() == "!ping 65535"
        pty.send(encode_frame(PongFrame(11, 0xFFFF)))
        assert await pty.command() == "!replay 8"
        await asyncio.sleep(0.3)  # the board resets; the new boot reads the request
        pty.send(encode_frame(ErrorFrame(0xFFFFFF, 2, "replay 8: not sent yet (next is 0)")))
        await asyncio.sleep(0.2)
        pty.send(heartbeat(0xFFFFFF, 300_000))  # the new boot's clock: a reboot claimed
        assert await pty.command() == "!hello"
        pty.send(hello(0xFFFFFF, uptime=320_000), ev(0, t_us=330_000), ev(1, t_us=340_000))

    frames, statuses = await played(link, script(steps), lambda f, s: len(f) == 10)
    said = "\n".join(map(str, statuses))
    assert [f.seq for f in frames] == [*range(8), 0, 1], said
    lost = [s.text for s in statuses if s.kind == "lost"]
    assert lost[0] == "lost 4 frames (seq 8..11): the device restarted before replaying them", said
    # and, the old boot heard writing frames not long before, what it may have written after
    # its seq 11 (an open range): never a seq the host had
    assert all("what it sent from seq 12 of its previous boot on is lost" in t for t in lost[1:]), said
    assert link.seq_stats.lost == 4 and link.seq_stats.restarts == 1, said
