"""A heartbeat read in one chunk with the frames that fill the gap before it is judged where
it stands in the stream: the frames it reports are still to come when it is taken, so its
time does not move the table's clock ahead of them.

The season soak, seed 9263 (kroeg-1): a shot's first 17 frames lost in a cut, frame 17 first,
then a heartbeat, then the replay of 0..16, all read at once by a host held up on a loaded
machine. The link had already taken in the whole chunk when the heartbeat was passed on, so
"the frames it reports have not all been delivered" was asked of the link's state after the
replay, and said no: the heartbeat's time (0.4 s past the shot's first frame) became the
table's, and each replayed frame after it got a ``rest`` of its own, the first of them
before the cushion hits it followed (7 rests in 0.1 s, table time going back).

The board is forged on a pty: the kegle profile's pins, its 2 s quiet before a ``rest``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from helpers.link_reader import wind_down
from helpers.pty_device import Pty
from test_link_reboot_while_down import NONE, PIN, PROFILE

from tablesense.events import Event
from tablesense.link import LinkStatus, table_items
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

N = 10  # pin edges, 30 ms apart
CUT_S = 2.5  # longer than the quiet before a rest (2 s), shorter than the silence limit (3.5 s)


async def _play() -> tuple[list[Event], list[LinkStatus], int]:
    pty = Pty()
    boot = time.monotonic() - 3.0
    statuses: list[LinkStatus] = []
    events: list[Event] = []

    def up() -> int:
        return int((time.monotonic() - boot) * 1e6)

    t0 = up() + 100_000  # the shot's first edge, just after the host has met the board
    edges = [EventFrame(s, PIN, 0 if s % 2 else F_ACTIVE, t0 + s * 30_000) for s in range(N)]

    async def board() -> None:
        cut_until = time.monotonic() + 0.05 + CUT_S
        while time.monotonic() < cut_until:  # the HELLO, then the line is cut as the shot begins
            with contextlib.suppress(AssertionError):
                if await pty.command(timeout=0.05) == "!hello":
                    pty.send(encode_frame(HelloFrame(NONE, up(), len(PROFILE.channels), 0, 0, 0, 0,
                                                     "0.3.0", PROFILE.id)))
        # the line is back: frames 1.., the heartbeat, and the replay of frame 0, in one read
        now = up()
        pty.send(*map(encode_frame, edges[1:]), encode_frame(HeartbeatFrame(N - 1, now, 0, 0, 0, now)),
                 encode_frame(edges[0]._replace(flags=edges[0].flags | F_REPLAY)))
        while True:  # a quiet board: a heartbeat every 0.1 s
            await asyncio.sleep(0.1)
            now = up()
            pty.send(encode_frame(HeartbeatFrame(N - 1, now, 0, 0, 0, now)))

    device = asyncio.create_task(board())
    items = table_items(pty.port, PROFILE, on_status=statuses.append, reconnect=False)

    async def read() -> None:
        async for item in items:
            if isinstance(item, Event):
                events.append(item)

    reader = asyncio.create_task(read())
    try:  # the shot's rest is due 2 s after its last edge
        await asyncio.sleep(CUT_S + 1.5)
    finally:
        await wind_down(reader, items, device, pty)
    return events, statuses, t0


def test_a_heartbeat_read_with_the_replay_it_waits_for_does_not_end_the_shot_early() -> None:
    events, statuses, t0 = asyncio.run(_play())
    said = "\n".join(map(str, statuses))
    assert any(s.kind == "gap" for s in statuses), f"frame 0 was not missed: the test proves nothing\n{said}"
    pins = [e for e in events if e.type == "pin"]
    assert len(pins) == N, f"{events}\n{said}"
    times = [e.t for e in events]
    assert times == sorted(times), f"table time goes back: {times}\n{said}"
    rests = [e.t for e in events if e.type == "rest"]
    last = (t0 + (N - 1) * 30_000) / 1e6
    assert rests == [round(last + PROFILE.rest_quiet_ms / 1000, 6)], \
        f"one rest after the last edge: {rests}\n{said}"


async def _lost_at_the_end() -> tuple[list[Event], list[LinkStatus]]:
    """Five pin edges heard, five more written that the board no longer holds when asked
    (ERROR 3), then a quiet board: heartbeats reporting the last of the lost frames."""
    pty = Pty()
    boot = time.monotonic() - 3.0
    statuses: list[LinkStatus] = []
    events: list[Event] = []

    def up() -> int:
        return int((time.monotonic() - boot) * 1e6)

    t0 = up() + 50_000
    edges = [EventFrame(s, PIN, 0 if s % 2 else F_ACTIVE, t0 + s * 30_000) for s in range(N)]

    async def board() -> None:
        last = NONE
        beat = time.monotonic()
        while True:
            with contextlib.suppress(AssertionError):
                line = await pty.command(timeout=0.05)
                if line == "!hello":
                    pty.send(encode_frame(HelloFrame(last, up(), len(PROFILE.channels), 0, 0, 0, 0, "0.3.0",
                                                     PROFILE.id)))
                elif line.startswith("!ping "):
                    pty.send(encode_frame(PongFrame(last, int(line.split()[1]))))
                elif line.startswith("!replay "):
                    why = f"replay {line.split()[1]}: oldest kept is {N}; replaying from it"
                    pty.send(encode_frame(ErrorFrame(last, 3, why)))
            if last == NONE and up() > edges[-1].t_us:  # the first half heard, the rest lost on the line
                pty.send(*map(encode_frame, edges[:N // 2]))
                last = N - 1
            if time.monotonic() - beat >= 0.1:
                beat = time.monotonic()
                pty.send(encode_frame(HeartbeatFrame(last, up(), 0, 0, 0, up())))

    device = asyncio.create_task(board())
    items = table_items(pty.port, PROFILE, on_status=statuses.append, reconnect=False)

    async def read() -> None:
        async for item in items:
            if isinstance(item, Event):
                events.append(item)

    reader = asyncio.create_task(read())
    try:  # the shot's rest is due 2 s after the last edge heard
        await asyncio.sleep(3.5)
    finally:
        await wind_down(reader, items, device, pty)
    return events, statuses


def test_frames_lost_for_good_at_the_end_of_a_shot_are_not_waited_for_its_rest_comes() -> None:
    events, statuses = asyncio.run(_lost_at_the_end())
    said = "\n".join(map(str, statuses))
    assert any(s.kind == "lost" for s in statuses), f"nothing was lost: the test proves nothing\n{said}"
    pins = [e for e in events if e.type == "pin"]
    # the five heard, and the pin set again from the HELLO's levels after the loss (late)
    assert len(pins) == N // 2 + 1 and pins[-1].extra.get("late"), f"{events}\n{said}"
    rests = [e.t for e in events if e.type == "rest"]
    assert rests == [round(pins[-1].t + PROFILE.rest_quiet_ms / 1000, 6)], f"the shot's rest: {rests}\n{said}"
