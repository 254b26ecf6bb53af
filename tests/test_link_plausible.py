"""CRC-valid frames whose content cannot be true are refused, counted and reported, never
believed: a time years ahead or seconds back, a seq millions ahead, a forged reboot HELLO.
The test plays the device on a pty with frames it forges (issue 12, finding 5)."""

from __future__ import annotations

import asyncio
import os

import pytest
from test_link_transport import Pty

from tablesense.link import Link, LinkStatus
from tablesense.link.frame import (
    F_ACTIVE,
    F_REPLAY,
    T_MAX,
    EventFrame,
    HeartbeatFrame,
    HelloFrame,
    encode_frame,
)


@pytest.fixture
def pty():
    p = Pty()
    os.set_blocking(p.master, False)
    yield p
    p.close()


UP = 10_000_000  # the device has been up 10 s when the host connects


def ev(seq: int, t_us: int | None = None, flags: int = F_ACTIVE) -> bytes:
    return encode_frame(EventFrame(seq, 3, flags, UP - 5_000 + seq if t_us is None else t_us))


def hello(seq: int, uptime: int = UP) -> bytes:
    return encode_frame(HelloFrame(seq, uptime, 16, 0, 0, 0, 0, "0.2.0", "golf"))


def heartbeat(seq: int, uptime: int) -> bytes:
    return encode_frame(HeartbeatFrame(seq, uptime, 0, 0, 0))


async def run(link: Link, device, until, timeout: float = 6.0):  # type: ignore[no-untyped-def]
    frames: list[EventFrame] = []
    statuses: list[LinkStatus] = []

    async def go() -> None:
        async for item in link.items():
            if isinstance(item, LinkStatus):
                statuses.append(item)
                await device(item)
            elif isinstance(item, EventFrame):
                frames.append(item)
            if until(frames, statuses):
                return

    try:
        await asyncio.wait_for(go(), timeout)
    finally:
        link.close()
    return frames, statuses


async def test_a_time_years_ahead_is_refused_and_the_replay_brings_the_true_frame(pty: Pty) -> None:
    link = Link(pty.port, from_seq=0, reconnect=False)

    async def device(s: LinkStatus) -> None:
        if s.kind == "connected":
            await pty.command()
            pty.send(hello(0xFFFFFF), ev(0), ev(1, t_us=T_MAX), ev(2), ev(3))
        elif s.kind == "replay":
            assert await pty.command() == "!replay 1"
            pty.send(*(ev(q, flags=F_ACTIVE | F_REPLAY) for q in (1, 2, 3)))

    frames, statuses = await run(link, device, lambda f, s: len(f) == 4)
    assert [f.seq for f in frames] == [0, 1, 2, 3]
    assert max(f.t_us for f in frames) < UP  # the 8.9-year stamp never got through
    assert link.stats.implausible == link.stats.implausible_time == 1
    (s,) = [s for s in statuses if s.kind == "implausible"]
    assert "device time 281474976.710655 s" in s.text and s.data["what"] == "time"
    assert link.seq_stats.lost == 0


async def test_a_time_seconds_back_is_refused_not_passed_on_out_of_order(pty: Pty) -> None:
    link = Link(pty.port, from_seq=0, reconnect=False)

    async def device(s: LinkStatus) -> None:
        if s.kind == "connected":
            await pty.command()
            pty.send(hello(0xFFFFFF), ev(0), ev(1, t_us=UP - 5_000_000), ev(2))
        elif s.kind == "replay":
            assert await pty.command() == "!replay 1"
            pty.send(ev(1, flags=F_ACTIVE | F_REPLAY), ev(2, flags=F_ACTIVE | F_REPLAY))

    frames, statuses = await run(link, device, lambda f, s: len(f) == 3)
    times = [f.t_us for f in frames]
    assert [f.seq for f in frames] == [0, 1, 2] and times == sorted(times)
    assert link.stats.implausible_time == 1
    assert any("before the frame delivered before it" in s.text for s in statuses if s.kind == "implausible")


async def test_a_seq_millions_ahead_is_refused_not_taken_as_a_gap(pty: Pty) -> None:
    link = Link(pty.port, from_seq=0, reconnect=False)

    async def device(s: LinkStatus) -> None:
        if s.kind == "connected":
            await pty.command()
            pty.send(hello(0xFFFFFF), ev(0), ev(1), ev(5_000_001), heartbeat(5_000_001, UP + 1000), ev(2))

    frames, statuses = await run(link, device, lambda f, s: len(f) == 3)
    assert [f.seq for f in frames] == [0, 1, 2]
    assert link.stats.implausible_seq == 2  # the EVENT and the heartbeat that claimed it
    assert not [s for s in statuses if s.kind in ("gap", "replay", "lost")], statuses
    assert link.seq_stats.gaps == 0 and link.seq_stats.lost == 0


async def test_a_forged_reboot_hello_is_refused_and_nothing_is_delivered_twice(pty: Pty) -> None:
    """A HELLO claiming a fresh boot (uptime 0.3 s, seq 3) in the middle of a stream: the next
    heartbeat goes on with the old clock, so the claim is refused; no replay from 0."""
    link = Link(pty.port, from_seq=0, reconnect=False)

    async def device(s: LinkStatus) -> None:
        if s.kind == "connected":
            await pty.command()
            pty.send(hello(0xFFFFFF), ev(0), ev(1), ev(2), ev(3))
            await asyncio.sleep(0.1)
            pty.send(hello(3, uptime=300_000), ev(4))
            await asyncio.sleep(0.3)
            pty.send(heartbeat(4, UP + 400_000), ev(5))

    frames, statuses = await run(link, device, lambda f, s: len(f) == 6)
    assert [f.seq for f in frames] == [0, 1, 2, 3, 4, 5]
    kinds = [s.kind for s in statuses]
    assert "restarted" not in kinds and "replay" not in kinds, statuses
    assert link.stats.implausible_reboot == 1 and link.seq_stats.restarts == 0
    assert any("continues the old clock" in s.text for s in statuses if s.kind == "implausible")


async def test_a_true_reboot_is_believed_once_a_heartbeat_agrees(pty: Pty) -> None:
    link = Link(pty.port, from_seq=0, reconnect=False)

    async def device(s: LinkStatus) -> None:
        if s.kind == "connected":
            await pty.command()
            pty.send(hello(0xFFFFFF), ev(0), ev(1))
            await asyncio.sleep(0.1)
            # the board reboots: its HELLO at boot, a new frame 0, then its first heartbeat
            pty.send(hello(0xFFFFFF, uptime=200_000), ev(0, t_us=250_000))
            await asyncio.sleep(0.3)
            pty.send(heartbeat(0, 500_000))

    frames, statuses = await run(link, device, lambda f, s: len(f) == 3)
    assert [(f.seq, f.t_us) for f in frames][2] == (0, 250_000)
    assert "restarted" in [s.kind for s in statuses] and link.seq_stats.restarts == 1
    assert link.stats.implausible == 0
