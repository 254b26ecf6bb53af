"""A board that reboots at any moment, just after boot included: every edge of the new boot
arrives, once and in order, and what the old boot had not sent is said lost, never dropped
silently.

The real firmware runs under MicroPython's unix port on a pty, in real time. A reboot is the
firmware process stopped and a new one started (its clock from 0, its seqs from 0) behind
the same port: ``tablesense.sim.cable.Cable`` keeps the host's ``socket://`` end open and
moves its board end to the new pty, as a DevKitC's USB bridge stays while the ESP32 behind
it restarts. The old boot plays edges on channels 0-7 until it dies; the new boot plays 50
edges on channels 8-15.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from helpers.link_reader import on_firmware

from tablesense.link import Link, LinkStatus
from tablesense.link.frame import F_ACTIVE, EventFrame
from tablesense.sim.cable import Cable
from tablesense.sim.fitl import FirmwareProcess, start_firmware

pytestmark = pytest.mark.micropython

AFTER = 50  # edges the last boot plays


def edges(n: int, start_us: int, step_us: int, first_ch: int) -> list[dict[str, int]]:
    """n edges on channels first_ch..first_ch+7, each channel going active then idle."""
    level = [0] * 8
    out = []
    for i in range(n):
        k = i % 8
        level[k] ^= 1
        out.append({"t_us": start_us + i * step_us, "ch": first_ch + k, "level": level[k]})
    return out


async def reboots(board: Path, lives: list[float]) -> tuple[list[EventFrame], list[LinkStatus], list, list]:
    """Boot, and reboot after each of ``lives`` seconds of running; the last boot plays AFTER
    edges. Returns the frames, the statuses, the old boots' edges and the last boot's."""
    procs: list[FirmwareProcess] = [start_firmware(board, realtime=True)]
    old = edges(200, 150_000, 20_000, 0)  # 50 edges/s from 0.15 s: more than any life here
    procs[0].send_edges(old)
    last = edges(AFTER, 300_000, 10_000, 8)
    frames: list[EventFrame] = []
    statuses: list[LinkStatus] = []
    cable = Cable(procs[0].port)
    link = Link(cable.url, from_seq=0, backoff=(0.05, 0.2))

    async def reboot() -> None:
        for k, life in enumerate(lives):
            await asyncio.sleep(life)
            procs[-1].stop()  # the board resets: what it had not sent is gone
            procs.append(start_firmware(board, realtime=True))
            cable.attach(procs[-1].port)
            procs[-1].send_edges(last if k == len(lives) - 1 else old)

    async def read() -> None:
        async for item in link.items():
            if isinstance(item, LinkStatus):
                statuses.append(item)
            elif isinstance(item, EventFrame):
                frames.append(item)
                if sum(f.channel >= 8 for f in frames) >= AFTER:
                    await asyncio.sleep(0.3)  # anything doubled would come now
                    return

    await on_firmware(read(), sum(lives) + 15, link, procs, cable, beside=asyncio.create_task(reboot()))
    return frames, statuses, old, last


def check(
    frames: list[EventFrame], statuses: list[LinkStatus], old: list, last: list, n_reboots: int
) -> None:
    said = "\n".join(map(str, statuses))
    new = [f for f in frames if f.channel >= 8]
    assert [(f.seq, f.channel, bool(f.flags & F_ACTIVE)) for f in new] == [
        (i, e["ch"], bool(e["level"])) for i, e in enumerate(last)
    ], f"{len(new)} of the new boot's {AFTER} edges, or out of order:\n{said}"
    # the old boots: each a run of its edges from seq 0 on, none doubled; what the host knew
    # of and did not get is said lost, with its range
    runs: list[list[EventFrame]] = [[]]
    for f in frames:
        if f.channel >= 8:
            break
        if runs[-1] and f.seq <= runs[-1][-1].seq:
            runs.append([])
        runs[-1].append(f)
    for run in runs:
        for f in run:
            e = old[f.seq]
            assert (f.channel, bool(f.flags & F_ACTIVE)) == (e["ch"], bool(e["level"])), (f, e)
        seqs = [f.seq for f in run]
        assert seqs == sorted(set(seqs)), said
    restarted = [s for s in statuses if s.kind == "restarted"]  # none if no old frame came
    assert len(restarted) <= n_reboots and (restarted or not runs[0]), said
    # a board rebooted while its edges came may have written one the host did not get: what
    # came after the last frame heard is said lost, an open range, once per reboot at most
    unheard = [s for s in statuses if s.kind == "lost" and "restarted while it was sending frames" in s.text]
    assert len(unheard) <= n_reboots, said
    for s in statuses:
        if s.kind == "lost" and s not in unheard:
            assert "restarted before replaying" in s.text, said



LIVES = [
    pytest.param(0.05, id="just-after-boot"),
    pytest.param(0.3, id="0.3s"),
    pytest.param(1.2, id="1.2s"),
    pytest.param(1.5, id="1.5s"),
    pytest.param(0.7, id="0.7s", marks=pytest.mark.slow),
    pytest.param(1.0, id="1.0s", marks=pytest.mark.slow),
    pytest.param(1.8, id="1.8s", marks=pytest.mark.slow),
    pytest.param(2.6, id="2.6s", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("life", LIVES)
async def test_a_board_rebooting_at_any_moment_loses_none_of_the_edges_after_it(
    board: Path, life: float
) -> None:
    frames, statuses, old, last = await reboots(board, [life])
    check(frames, statuses, old, last, 1)


@pytest.mark.parametrize(
    "lives",
    [
        pytest.param([1.5, 0.3], id="1.5s-then-0.3s"),
        pytest.param([0.4, 1.3], id="0.4s-then-1.3s", marks=pytest.mark.slow),
    ],
)
async def test_a_board_rebooting_again_just_after_its_reboot(board: Path, lives: list[float]) -> None:
    frames, statuses, old, last = await reboots(board, lives)
    check(frames, statuses, old, last, len(lives))

