"""CRC-valid frames whose content cannot be true are refused, counted and reported, never
believed: a time years ahead or seconds back, a seq millions ahead, a forged reboot HELLO.
The test plays the device on a pty with frames it forges (issue 12, finding 5)."""

from __future__ import annotations

import asyncio

from helpers.link_reader import read_link
from helpers.pty_device import Pty

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

UP = 10_000_000  # the device has been up 10 s when the host connects


def ev(seq: int, t_us: int | None = None, flags: int = F_ACTIVE) -> bytes:
    return encode_frame(EventFrame(seq, 3, flags, UP - 5_000 + seq if t_us is None else t_us))


def hello(seq: int, uptime: int = UP) -> bytes:
    return encode_frame(HelloFrame(seq, uptime, 16, 0, 0, 0, 0, "0.2.0", "golf"))


def heartbeat(seq: int, uptime: int) -> bytes:
    return encode_frame(HeartbeatFrame(seq, uptime, 0, 0, 0))


# An upper bound, not a wait: a run ends as soon as ``until`` holds. The slowest case waits out
# the link's hold of an unconfirmed time (``HOLD_S``, 3 s) and a replay after it: 5.7 s idle, so
# 6 s (the old bound) timed out on a loaded machine.
RUN_TIMEOUT_S = 30.0


async def run(link: Link, device, until, timeout: float = RUN_TIMEOUT_S):  # type: ignore[no-untyped-def]
    return await read_link(link, until, timeout, device)


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


# --- reboots the uptime alone does not show ------------------------------------------------


def script(steps):  # type: ignore[no-untyped-def]
    """The device plays ``steps()`` on its own once the host connects (the link goes on
    reading meanwhile); what it asserts fails the test."""
    tasks: list[asyncio.Task[None]] = []

    async def device(s: LinkStatus) -> None:
        if s.kind == "connected":
            tasks.append(asyncio.create_task(steps()))

    device.tasks = tasks  # type: ignore[attr-defined]
    return device


async def played(link: Link, device, until):  # type: ignore[no-untyped-def]
    try:
        return await run(link, device, until)
    finally:
        for t in device.tasks:
            if t.done():
                t.result()  # the device's own assertions
            t.cancel()


async def test_a_board_rebooting_between_its_first_and_second_heartbeat_is_believed(pty: Pty) -> None:
    """The old boot's last heartbeat at 1 s, a reboot at 1.4 s, the new boot's first heartbeat
    at 1 s again: it follows the new clock, not the old one (which would be at 2.4 s), so the
    reboot is believed and the new boot's frames arrive (they used to be refused, then dropped
    as duplicates of the old boot's seqs without a word)."""
    link = Link(pty.port, from_seq=0, reconnect=False)

    async def steps() -> None:
        await pty.command()
        pty.send(hello(0xFFFFFF, uptime=50_000), *(ev(q, t_us=100_000 + q * 1000) for q in range(5)))
        await asyncio.sleep(0.95)
        pty.send(heartbeat(4, 1_000_000))
        await asyncio.sleep(0.4)  # the board resets at 1.4 s and is up again 0.1 s later
        pty.send(hello(0xFFFFFF, uptime=100_000), ev(0, t_us=200_000), ev(1, t_us=300_000))
        await asyncio.sleep(0.9)  # its "!hello" unanswered: the first heartbeat decides
        pty.send(heartbeat(1, 1_000_000), ev(2, t_us=1_100_000))

    frames, statuses = await played(link, script(steps), lambda f, s: len(f) == 8)
    assert [(f.seq, f.t_us) for f in frames[5:]] == [(0, 200_000), (1, 300_000), (2, 1_100_000)]
    assert "restarted" in [s.kind for s in statuses] and link.seq_stats.restarts == 1
    assert link.stats.implausible == 0, statuses


async def test_a_hello_saying_nothing_was_sent_since_boot_after_frames_is_a_reboot(pty: Pty) -> None:
    """A board that resets just after boot: its new HELLO's uptime is after the old boot's
    frames, but it says no frame was written since boot (seq 0xFFFFFF), which the old boot
    cannot say once it has sent frames. The HELLO asked for then follows the new clock."""
    link = Link(pty.port, from_seq=0, reconnect=False)

    async def steps() -> None:
        assert await pty.command() == "!hello"
        pty.send(hello(0xFFFFFF, uptime=20_000), ev(0, t_us=30_000), ev(1, t_us=40_000))
        await asyncio.sleep(0.4)  # reset at 0.1 s; up again at 0.3 s
        pty.send(hello(0xFFFFFF, uptime=100_000), ev(0, t_us=150_000))
        assert await pty.command() == "!hello"
        pty.send(hello(0, uptime=120_000))

    frames, statuses = await played(link, script(steps), lambda f, s: len(f) == 3)
    assert [(f.seq, f.t_us) for f in frames] == [(0, 30_000), (1, 40_000), (0, 150_000)]
    assert link.seq_stats.restarts == 1 and link.stats.implausible == 0, statuses


async def test_renumbered_frames_ask_for_a_hello_which_shows_the_reboot_its_hello_lost(pty: Pty) -> None:
    """The new boot's HELLO was lost (a cut): its frames come under seqs the old boot used,
    not flagged REPLAY. They are held, a HELLO is asked for, and its uptime, far behind the
    old clock, claims the reboot; the next HELLO follows the new clock and confirms it."""
    link = Link(pty.port, from_seq=0, reconnect=False)

    async def steps() -> None:
        await pty.command()
        pty.send(hello(0xFFFFFF, uptime=50_000), *(ev(q, t_us=60_000 + q * 1000) for q in range(4)))
        await asyncio.sleep(1.2)  # the old boot has been up 1.25 s; the new one 0.4 s
        pty.send(ev(0, t_us=380_000), ev(1, t_us=390_000))
        assert await pty.command() == "!hello"
        pty.send(hello(1, uptime=400_000))
        assert await pty.command() == "!hello"
        pty.send(hello(1, uptime=410_000), ev(2, t_us=420_000))

    frames, statuses = await played(link, script(steps), lambda f, s: len(f) == 7)
    assert [f.seq for f in frames] == [0, 1, 2, 3, 0, 1, 2]
    assert [f.t_us for f in frames[4:]] == [380_000, 390_000, 420_000]
    assert link.seq_stats.restarts == 1 and link.seq_stats.duplicates == 0, statuses


async def test_a_renumbered_frame_without_a_reboot_is_refused_and_said_not_dropped(pty: Pty) -> None:
    """A frame of a seq delivered already, not flagged REPLAY, while the device did not reboot
    (its HELLO goes on with the old clock): refused as implausible, with a status line; the
    stream goes on."""
    link = Link(pty.port, from_seq=0, reconnect=False)

    async def steps() -> None:
        await pty.command()
        pty.send(hello(0xFFFFFF), ev(0), ev(1), ev(2))
        await asyncio.sleep(0.1)
        pty.send(ev(1, t_us=UP))  # seq 1 again, a different time, no REPLAY flag
        assert await pty.command() == "!hello"
        pty.send(hello(2, uptime=UP + 150_000), ev(3))

    frames, statuses = await played(link, script(steps), lambda f, s: len(f) == 4 and link.stats.implausible)
    assert [f.seq for f in frames] == [0, 1, 2, 3] and link.seq_stats.restarts == 0
    (s,) = [s for s in statuses if s.kind == "implausible"]
    assert "seq 1 came again, not flagged as a replay" in s.text and link.stats.implausible_seq == 1


# --- the judgement itself (link/plausible.py, pure) -----------------------------------------


def test_the_next_status_frame_is_judged_by_the_clock_it_follows() -> None:
    from tablesense.link.clock import DeviceClock
    from tablesense.link.plausible import UNDECIDED, RebootClaim

    clock = DeviceClock()
    clock.sample(1_000_000, mono=100.0)  # the old boot: 1 s up at host time 100 s
    old = 1_000_000
    claim = RebootClaim(HeartbeatFrame(0, 100_000, 0, 0, 0), at=100.5)  # a new boot 0.1 s up
    new_hb = HeartbeatFrame(0, 1_000_000, 0, 0, 0)  # its first heartbeat, 0.9 s later: 1 s up
    assert claim.judge(new_hb, clock, old, now=101.4) == ""
    old_hb = HeartbeatFrame(0, 2_400_000, 0, 0, 0)  # the old clock going on
    assert "continues the old clock" in claim.judge(old_hb, clock, old, now=101.4)
    back = HeartbeatFrame(0, 50_000, 0, 0, 0)  # before the claim: follows neither
    assert claim.judge(back, clock, old, now=101.4)
    close = RebootClaim(HeartbeatFrame(0, 1_450_000, 0, 0, 0), at=100.5)  # 50 ms behind the old clock
    assert close.judge(HeartbeatFrame(0, 1_460_000, 0, 0, 0), clock, old, now=100.51) == UNDECIDED
