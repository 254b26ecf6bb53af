"""A link that opens its port again (the cable cut, the board silent) reads it with one thread.

Closing a port does not stop a reader thread that is already past its last check of "stop":
on a loaded machine the scheduler can leave it there for longer than any back-off, and a port
opened again meanwhile gets the closed port's descriptor number. Two threads then read one
port, each taking bytes the other was woken for: frames lost and pyserial's "device reports
readiness to read but returned no data (device disconnected or multiple access on port?)"
(twelve serial tests failed so when two copies of the suite shared the machine). The link
opens the port again only once the last reader has ended.

No software can make the scheduler lag on cue: here the old reader thread is made to lag by
the test (its last read, on the descriptor it had, 0.3 s after it was told to stop).
"""

from __future__ import annotations

import asyncio
import os
import select
import threading
import time
from typing import Any

import pytest
from helpers.pty_device import Pty

from tablesense.link import Link, LinkStatus, transport
from tablesense.link.frame import F_ACTIVE, F_REPLAY, EventFrame, HelloFrame, encode_frame

N = 60  # frames the board sends, 20 ms apart


class Board(Pty):
    """The board's end of a pty: answers ``!hello`` and ``!replay N``, sends a frame every 20 ms."""

    def __init__(self) -> None:
        super().__init__()
        self.t0 = time.monotonic()
        self.sent = 0
        self.streaming = False

    def now_us(self) -> int:
        return 1_000_000 + int((time.monotonic() - self.t0) * 1e6)

    def ev(self, seq: int, flags: int = F_ACTIVE) -> bytes:
        return encode_frame(EventFrame(seq, 3, flags, 1_000_000 + seq * 20_000))

    def write(self, data: bytes) -> None:
        try:
            os.write(self.master, data)
        except OSError:
            pass  # nobody reads the port (cut): the bytes are lost, as on the wire

    async def run(self) -> None:
        while True:
            try:
                self._rx += os.read(self.master, 256)
            except (BlockingIOError, OSError):
                pass
            while b"\n" in self._rx:
                line, self._rx = self._rx.split(b"\n", 1)
                words = line.decode("ascii", "replace").split()
                if words[:1] == ["!hello"]:
                    last = self.sent - 1 if self.sent else 0xFFFFFF
                    self.write(encode_frame(HelloFrame(last, self.now_us(), 16, 0, 0, 0, 0, "0.1.0", "golf")))
                    self.streaming = True
                elif words[:1] == ["!replay"]:
                    again = range(int(words[1]), self.sent)
                    self.write(b"".join(self.ev(q, F_ACTIVE | F_REPLAY) for q in again))
            if self.streaming and self.sent < N:
                self.write(self.ev(self.sent))
                self.sent += 1
            await asyncio.sleep(0.02)


@pytest.fixture
def board() -> Any:
    b = Board()
    yield b
    b.close()


async def test_a_port_opened_again_has_one_reader_and_loses_nothing(
        board: Board, monkeypatch: pytest.MonkeyPatch) -> None:
    stolen: list[bytes] = []
    readers: list[threading.Thread] = []
    real = transport.read_port

    def lagging_reader(ser: Any, loop: Any, queue: Any, stop: Any) -> None:
        readers.append(threading.current_thread())
        fd = ser.fd
        real(ser, loop, queue, stop)
        time.sleep(0.3)  # the scheduler left this thread behind its check of "stop"
        try:  # what pyserial's read does next on the descriptor it had
            ready, _, _ = select.select([fd], [], [], 1.0)
            if ready:
                stolen.append(os.read(fd, 4096))
        except OSError:
            pass  # the port is closed and its number free: nothing to take

    monkeypatch.setattr(transport, "read_port", lagging_reader)
    link = Link(board.port, from_seq=0, backoff=(0.02, 0.05), silence_timeout=None)
    frames: list[EventFrame] = []
    statuses: list[LinkStatus] = []
    device = asyncio.create_task(board.run())

    async def read() -> None:
        async for item in link.items():
            if isinstance(item, LinkStatus):
                statuses.append(item)
            elif isinstance(item, EventFrame):
                frames.append(item)
                if len(frames) == 10:
                    link.interrupt("the test cuts the cable")  # opened again at once
                if len({f.seq for f in frames}) == N:
                    return

    try:
        async with asyncio.timeout(30):
            await read()
    finally:
        link.close()
        device.cancel()
        await asyncio.gather(device, return_exceptions=True)
        for thread in readers:  # the last one lags too: gone before the next test opens a port
            await asyncio.to_thread(thread.join, 5.0)
    said = "\n".join(map(str, statuses))
    assert [s.kind for s in statuses].count("disconnected") == 1, said
    assert "multiple access" not in said
    assert not any(stolen), f"the old reader took {sum(map(len, stolen))} bytes of the new connection"
    assert sorted({f.seq for f in frames}) == list(range(N)) and link.seq_stats.lost == 0, said
