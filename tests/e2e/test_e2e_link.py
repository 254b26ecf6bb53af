"""End to end: the real firmware under MicroPython's unix port, on a pty, read by the real link.

No fakes: ``tablesense.sim.fitl`` starts ``micropython firmware/main.py`` with its serial
port on a pseudo-terminal; the test drives its virtual pins through the edge feed and
reads the port with ``tablesense.link`` exactly as a real table is read.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers.edges import play_at_hello

from tablesense.link import Link, LinkError, LinkStatus, table_events
from tablesense.link.frame import F_ACTIVE, F_LATE, F_REPLAY, EventFrame, HelloFrame, PongFrame
from tablesense.sim import fitl
from tablesense.sim.fitl import beam_board, round_robin_edges
from tablesense.table.profile import board_config, load_profile

pytestmark = pytest.mark.micropython


# 2 ms between edges: the unix port's virtual clock never runs slower than the wall clock, so a
# firmware process stalled for 16 ms (a busy CI machine) would meet more than the scheduler's
# 8 queued callbacks at once with 1 ms spacing. That flood is tested on its own below.
STEP_US = 2000


def board_16(tmp_path: Path) -> Path:
    """A test board: 16 beam channels on pin IRQs, active high, no debounce."""
    return beam_board(tmp_path / "bench16.json")


@pytest.fixture
def firmware() -> Iterator[Callable[..., object]]:
    started = []

    def start(board: Path, **kw: object) -> object:
        fw = fitl.start_firmware(board, **kw)
        started.append(fw)
        return fw

    yield start
    for fw in started:
        fw.stop()


async def collect(
    link: Link,
    n: int,
    timeout: float,
    on_frame: Callable[[int], None] | None = None,
    on_hello: Callable[[], object] | None = None,
    into: list[EventFrame] | None = None,
) -> tuple[list[EventFrame], list[LinkStatus]]:
    """Read until n EVENT frames came (or timeout); ``on_hello`` runs at the first HELLO."""
    frames: list[EventFrame] = [] if into is None else into
    statuses: list[LinkStatus] = []

    async def run() -> None:
        nonlocal on_hello
        async for item in link.items():
            if isinstance(item, LinkStatus):
                statuses.append(item)
                if item.kind == "hello" and on_hello is not None:
                    on_hello()
                    on_hello = None
            elif isinstance(item, EventFrame):
                frames.append(item)
                if on_frame is not None:
                    on_frame(len(frames))
                if len(frames) >= n:
                    return

    try:
        await asyncio.wait_for(run(), timeout)
    except TimeoutError:
        pass
    finally:
        link.close()
    return frames, statuses


def check_stream(frames: list[EventFrame], edges: list[dict], statuses: list[LinkStatus] = ()) -> None:
    if len(frames) != len(edges):
        pytest.fail(f"{len(frames)} frames for {len(edges)} edges:\n" + "\n".join(map(str, statuses)))
    assert [f.seq for f in frames] == list(range(len(edges))), "lost, doubled or reordered frames"
    assert [f.channel for f in frames] == [e["ch"] for e in edges]
    assert [bool(f.flags & F_ACTIVE) for f in frames] == [bool(e["level"]) for e in edges]
    times = [f.t_us for f in frames]
    assert times == sorted(times)
    assert not any(f.flags & F_LATE for f in frames)


class Feeder:
    """Feeds the edges in chunks of 200, each once the previous one has arrived, timed just
    ahead of the device's clock.

    The unix port's virtual clock never runs slower than the wall clock: a firmware process
    that a busy machine stalls for half a second finds all edges of that half second due at
    once. Chunks smaller than the firmware's ring (256) keep such a stall from overflowing
    it, and keep what can be missed while the cable is out below what the device keeps for
    replay (2048 frames).
    """

    def __init__(self, link: Link, fw: object, pattern: list[dict], chunk: int = 200) -> None:
        self.link, self.fw, self.pattern, self.chunk = link, fw, pattern, chunk
        self.sent: list[dict] = []
        self.frames: list[EventFrame] = []
        self._last = (0, time.monotonic())  # device time of the last frame, host time it came

    def send(self) -> None:
        now = time.monotonic()
        t_last, at = self._last
        device_now = max(t_last + int((now - at) * 1e6), self.link.clock.device_now_us(now) or 0)
        start = device_now + 50_000
        todo = self.pattern[len(self.sent) : len(self.sent) + self.chunk]
        part = [{**e, "t_us": start + i * STEP_US} for i, e in enumerate(todo)]
        self.sent.extend(part)
        self.fw.send_edges(part)  # type: ignore[attr-defined]

    def on_frame(self, n: int) -> None:
        self._last = (self.frames[-1].t_us, time.monotonic())
        if n == len(self.sent) and n < len(self.pattern):
            self.send()


async def test_10000_edges_on_16_channels_arrive_in_order_none_lost_or_doubled(tmp_path, firmware) -> None:
    fw = firmware(board_16(tmp_path), realtime=False)
    link = Link(fw.port, from_seq=0, reconnect=False)
    feed = Feeder(link, fw, round_robin_edges(10_000, 0, STEP_US))
    frames, statuses = await collect(link, 10_000, 30, feed.on_frame, on_hello=feed.send, into=feed.frames)
    check_stream(frames, feed.sent, statuses)
    # stamps: the edge's time plus the scheduler delay; the unix port's main loop applies the
    # feed once per pass (1 ms of virtual time), so an edge can be stamped up to a pass late
    deltas = [f.t_us - e["t_us"] for f, e in zip(frames, feed.sent)]
    assert min(deltas) >= 0 and max(deltas) < 2_000, (min(deltas), max(deltas))
    assert not [s for s in statuses if s.kind in ("gap", "lost", "bad_frames")], statuses


async def test_link_cut_mid_stream_is_refilled_by_replay(tmp_path, firmware) -> None:
    """The cable is pulled twice for 0.3 s; frames sent meanwhile are lost on the wire and replayed."""
    fw = firmware(board_16(tmp_path), realtime=False)
    link = Link(fw.port, from_seq=0, backoff=(0.05, 0.2))
    feed = Feeder(link, fw, round_robin_edges(10_000, 0, STEP_US))
    cuts: list[int] = []

    def on_frame(n: int) -> None:
        if n in (2000, 6000):
            cuts.append(n)
            link.interrupt("test pulls the cable", hold=0.3)
        feed.on_frame(n)

    frames, statuses = await collect(link, 10_000, 30, on_frame, on_hello=feed.send, into=feed.frames)
    if cuts != [2000, 6000]:
        pytest.fail(f"{len(frames)} frames of {len(feed.sent)}:\n" + "\n".join(map(str, statuses)))
    kinds = [s.kind for s in statuses]
    assert kinds.count("disconnected") == 2 and kinds.count("reconnected") == 2, statuses
    check_stream(frames, feed.sent, statuses)
    assert kinds.count("replay") >= 2, statuses
    assert sum(1 for f in frames if f.flags & F_REPLAY) > 0, "the gap was filled by replayed frames"
    assert link.seq_stats.lost == 0


@pytest.mark.parametrize("mode", ["irq", "capture"])
async def test_two_goal_edges_200_us_apart_arrive_in_order(tmp_path, firmware, mode) -> None:
    """Goal B's beam breaks 200 us before goal A's; the colour sensors are read in the other order."""
    profile = load_profile("golf")
    cfg = board_config(profile)
    for c in cfg["channels"]:
        if c["kind"] == "goal":
            c["mode"] = mode
    board = tmp_path / "golf.json"
    board.write_text(json.dumps(cfg))
    fw = firmware(board, realtime=False)
    edges = [  # times from 0.3 s ahead of the device's clock at the HELLO; "level": 1 = active
        {"t_us": 0, "ch": 1, "level": 1},
        {"t_us": 200, "ch": 0, "level": 1},
        {"t_us": 500, "ch": 1, "colour": 1},
        {"t_us": 500, "ch": 0, "colour": 2},
        {"t_us": 30_000, "ch": 1, "level": 0},
        {"t_us": 30_000, "ch": 0, "level": 0},
    ]
    got = []
    on_status = play_at_hello(fw, edges)

    async def run() -> None:
        async for ev in table_events(fw.port, profile, from_seq=0, on_status=on_status):
            got.append(ev)
            if len(got) == 2:
                return

    await asyncio.wait_for(run(), 10)
    assert [(e.goal, e.ball) for e in got] == [("B", "p1"), ("A", "p2")]
    dt = got[1].t - got[0].t
    if mode == "capture":  # hardware edge capture: timer-exact stamps
        assert abs(dt - 200e-6) < 1e-6, dt
    else:  # soft IRQ: order kept by the scheduler's FIFO, time read after its delay (20 us each)
        assert abs(dt - 200e-6) < 25e-6, dt


async def test_a_flood_beyond_the_scheduler_queue_is_reported(tmp_path, firmware) -> None:
    fw = firmware(board_16(tmp_path), realtime=True)
    t = 600_000
    flood = [{"t_us": t + i, "ch": i % 16, "level": 1} for i in range(16)]  # 16 edges in 16 us
    fw.send_edges(flood)
    link = Link(fw.port, from_seq=0, reconnect=False)
    frames: list[EventFrame] = []
    statuses: list[LinkStatus] = []

    async def run() -> None:
        async for item in link.items():
            if isinstance(item, LinkStatus):
                statuses.append(item)
                if item.kind == "counters" and len(frames) == 16:
                    return
            elif isinstance(item, EventFrame):
                frames.append(item)

    try:
        await asyncio.wait_for(run(), 6)
    finally:
        link.close()
    # every channel ends up reported active: the 8 queued callbacks run, the 8 dropped ones
    # come back as LATE edges from the level scan, and the counters say so
    assert sorted(f.channel for f in frames) == list(range(16))
    late = sorted(f.channel for f in frames if f.flags & F_LATE)
    assert late == list(range(8, 16)), frames
    counters = [s for s in statuses if s.kind == "counters"]
    assert counters and "+8 scheduler drops" in counters[-1].text, statuses
    assert link.stats.sched_drops == 8 and link.stats.late == 8


async def test_bad_commands_get_device_errors_and_the_stream_goes_on(tmp_path, firmware) -> None:
    fw = firmware(board_16(tmp_path), realtime=False)
    link = Link(fw.port, from_seq=0, reconnect=False)
    statuses: list[LinkStatus] = []
    hellos = 0

    async def run() -> None:
        nonlocal hellos
        async for item in link.items():
            if isinstance(item, LinkStatus):
                statuses.append(item)
                if item.kind == "hello" and hellos == 0:
                    hellos += 1
                    await link.send("!bogus")
                    await link.send("!replay banana")
                    await link.send("!hello")
            elif isinstance(item, HelloFrame) and sum(s.kind == "device_error" for s in statuses) == 2:
                return

    try:
        await asyncio.wait_for(run(), 6)
    finally:
        link.close()
    errors = [s.text for s in statuses if s.kind == "device_error"]
    assert len(errors) == 2, errors
    assert "error 1: unknown command: !bogus" in errors[0] and "error 2: usage: !replay" in errors[1]


async def test_unplugged_port_is_reported_retried_then_a_clear_error(tmp_path, firmware) -> None:
    """The firmware dies and its port vanishes, as a USB port does when the cable is pulled.

    The port is a link of the test's own to the pty (as udev's /dev/serial/by-id/ names
    are), removed before the firmware is killed: the pty's number, free once the firmware
    is gone, is the next pty anyone opens on this machine, and the link's retries must not
    open another test's board (a second suite's, beside this one)."""
    fw = firmware(board_16(tmp_path), realtime=False)
    port = tmp_path / "ttyUSB0"
    port.symlink_to(fw.port)
    link = Link(str(port), from_seq=0, give_up_after=1.0, backoff=(0.05, 0.2))
    statuses: list[LinkStatus] = []

    async def run() -> None:
        async for item in link.items():
            if isinstance(item, LinkStatus):
                statuses.append(item)
                if item.kind == "hello":
                    port.unlink()
                    fw.proc.kill()

    with pytest.raises(LinkError, match=f"cannot open {port} for 1 s: .*No such file or directory"):
        await asyncio.wait_for(run(), 10)
    link.close()
    assert [s.kind for s in statuses] == ["connected", "hello", "disconnected", "reconnecting"], statuses


async def test_link_selects_the_profile_it_was_given_and_pings(tmp_path, firmware) -> None:
    """A board configured for golf is switched to kegle by ``!profile``; ``!ping`` gets its PONG."""
    for pid in ("golf", "kegle"):
        (tmp_path / f"{pid}.json").write_text(json.dumps(board_config(load_profile(pid))))
    fw = firmware(tmp_path / "golf.json", realtime=False)
    link = Link(fw.port, profile_id="kegle", reconnect=False)
    seen: list[str] = []

    async def run() -> None:
        async for item in link.items():
            if isinstance(item, HelloFrame):
                seen.append(item.profile_id)
                if item.profile_id == "kegle":
                    await link.send("!ping 4242")
            elif isinstance(item, PongFrame):
                assert item.token == 4242
                return

    try:
        await asyncio.wait_for(run(), 6)
    finally:
        link.close()
    assert seen[0] == "golf" and seen[-1] == "kegle"
