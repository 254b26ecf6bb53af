"""One table's hardware in the soak: the real firmware under MicroPython's unix port (the
board, which can reboot), the USB cable to the pub's host (which can be cut), and a
record of every frame the board wrote (the truth the invariants are checked against).

The cable is a relay between the firmware's pty and a TCP port on loopback; the pub's
``tablesense run`` opens it as ``--serial socket://127.0.0.1:PORT`` (pyserial's URL, as
a pty path or ``/dev/ttyUSB0`` would be). A cut is one of two kinds:

- ``hard``: the port goes away (the host's connection is closed; while the cut lasts a
  new connection is closed at once), as a USB cable pulled and put back;
- ``silent``: the connection stays, but no byte crosses in either direction (a broken
  wire, a USB hub that stalls).

Either way what the board writes meanwhile is lost on the wire and the board keeps it
(its last 2048 frames): the host asks for it again. The relay decodes every byte the
board writes, also while the cable is cut, so ``Boot.frames`` holds each frame the board
wrote, by boot and seq, with the wall time it was first written.

A reboot kills the firmware's process group (a reset: a panic, the watchdog, a brown-out)
and starts a new one after ``down`` seconds; the host's connection stays (the USB-serial
chip is powered by the USB cable, the ESP32 restarts behind it), as on the real board. The
board's RTC memory (a file, ``TABLESENSE_RTC``) lives through the reset, as on the ESP32:
the new boot's HELLO says the old boot's tag and the last seq it stamped (firmware 0.5),
sent or not; it is gone only at the power-on that starts the soak.
Edges of a shot still to come when the board comes back are fed to the new boot at their
own wall time: the balls roll on while the board reboots, and what falls in the gap is
not seen.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import random
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablesense.link.frame import (
    REPLAYABLE,
    CountFrame,
    EventFrame,
    HeartbeatFrame,
    HelloFrame,
    ReadingFrame,
    StreamDecoder,
)
from tablesense.sim.fitl import FirmwareProcess, start_firmware

#: frames the firmware keeps for replay (firmware/ring.py, docs/reliability.md)
BOARD_KEEPS = 2048
#: bytes the relay holds for a host that does not read before it drops (a USB-serial
#: chip's buffer is far smaller; the host reads all the time)
HOST_BUFFER = 1 << 18
POWER_ON, HARD_RESET = 1, 2  # machine.reset_cause() of the soak's first boot, and of a reboot
_MOD = 1 << 24
_HALF = 1 << 23


@dataclass
class FrameRec:
    """A replayable frame as the board first wrote it."""

    seq: int
    kind: str  # event | count | reading
    ch: int
    value: int  # flags (event), count, colour value (reading)
    t_us: int
    wall: float  # time.time() when the relay read it


@dataclass
class Boot:
    """One run of the firmware, from power-on to its reboot (or the end)."""

    number: int
    started: float  # time.time()
    mono0: float
    ended: float | None = None
    frames: dict[int, FrameRec] = field(default_factory=dict)
    #: (wall, the highest seq the board had assigned by then), from every frame it wrote
    progress: list[tuple[float, int]] = field(default_factory=list)
    #: (wall, the highest seq the relay had passed on to a host by then): what a host may have
    #: heard of the boot (a frame written while the cable was cut, or with no host, is not)
    heard: list[tuple[float, int]] = field(default_factory=list)
    hello_seen: bool = False
    #: the board's clock less the monotonic clock (us) when a status frame was read, the
    #: largest seen: the frame read with the least delay (one read late, a loaded machine's
    #: relay, put the board's clock behind and a goal's edges in its past)
    clock_offset_us: int | None = None
    replayed: int = 0  # frames the board wrote again on request

    def top_seq(self, at: float) -> int:
        """The highest seq the board had assigned at wall time ``at`` (-1: none)."""
        best = -1
        for wall, seq in self.progress:
            if wall > at:
                break
            best = seq
        return best

    def heard_seq(self, at: float) -> int:
        """The highest seq the relay had passed on to a host at wall time ``at`` (-1: none)."""
        best = -1
        for wall, seq in self.heard:
            if wall > at:
                break
            best = seq
        return best

    def alive_at(self, at: float) -> bool:
        return self.started <= at and (self.ended is None or at < self.ended)


class Board:
    """A table's firmware, its cable and the record of what it wrote."""

    def __init__(self, name: str, board_json: Path, workdir: Path, rng: random.Random) -> None:
        self.name = name
        self.board_json = board_json
        self.workdir = workdir
        self.rng = rng
        self.fw: FirmwareProcess | None = None
        self.fd = -1
        self.boots: list[Boot] = []
        self.decoder = StreamDecoder()
        self.server: asyncio.Server | None = None
        self.port = 0
        self.host: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self.host_task: asyncio.Task[None] | None = None
        self.cut_until = 0.0
        self.cut_mode = ""
        self.pending: list[tuple[float, dict[str, Any]]] = []  # (monotonic due, edge) not yet due
        self.stats = {"cuts_hard": 0, "cuts_silent": 0, "reboots": 0, "replay_requests": 0,
                      "hello_requests": 0, "host_connects": 0, "bytes_dropped": 0, "host_overflow": 0}
        self._cmd = b""
        self.stopping = False
        self.fw_stderr: list[str] = []

    # --- life ----------------------------------------------------------------------------
    @property
    def url(self) -> str:
        return f"socket://127.0.0.1:{self.port}"

    @property
    def boot(self) -> Boot:
        return self.boots[-1]

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._on_host, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        self._power_on()

    def _power_on(self) -> None:
        n = len(self.boots) + 1
        edges = self.workdir / f"{self.name}-boot{n}.edges.jsonl"
        rtc = self.workdir / f"{self.name}.rtc"
        if n == 1:  # powered on: nothing in RTC memory
            rtc.unlink(missing_ok=True)
        self.fw = start_firmware(self.board_json, edges, realtime=True, rtc=rtc,
                                 reset_cause=POWER_ON if n == 1 else HARD_RESET)
        self.boots.append(Boot(n, time.time(), time.monotonic()))
        self.fd = os.open(self.fw.port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        asyncio.get_running_loop().add_reader(self.fd, self._on_board)
        self._refeed()

    def _power_off(self) -> None:
        if self.fd >= 0:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self.fd)
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = -1
        if self.fw is not None:
            fw, self.fw = self.fw, None
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(fw.pid, signal.SIGKILL)  # the power gone: no clean-up of any kind
            with contextlib.suppress(Exception):
                fw.proc.wait(10)
            self.fw_stderr.append(fw.stderr_text())
            fw.stop()
            with contextlib.suppress(OSError):
                fw.edges_path.unlink()
        if self.boots and self.boots[-1].ended is None:
            self.boots[-1].ended = time.time()
        self.decoder = StreamDecoder()  # a half frame on the wire is lost with the power

    async def reboot(self, down: float) -> None:
        """Power off, ``down`` seconds, power on (a new boot: seqs and the clock start over)."""
        self.stats["reboots"] += 1
        self._power_off()
        await asyncio.sleep(down)
        if not self.stopping:
            self._power_on()

    async def stop(self) -> None:
        self.stopping = True
        if self.server is not None:
            self.server.close()
        self._drop_host()  # its reader ends on the aborted connection
        if self.host_task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait({self.host_task}, timeout=2)
        self._power_off()

    def firmware_stderr(self) -> str:
        """What every boot of the firmware wrote on stderr."""
        return "".join(self.fw_stderr) + (self.fw.stderr_text() if self.fw is not None else "")

    # --- the table's edges ------------------------------------------------------------------
    def device_now_us(self, mono: float | None = None) -> int:
        """The board's clock now, from its status frames (else from its power-on): the
        offset of the one read soonest after it was written (``Boot.clock_offset_us``)."""
        mono = time.monotonic() if mono is None else mono
        b = self.boot
        if b.clock_offset_us is not None:
            return int(mono * 1e6) + b.clock_offset_us
        return int((mono - b.mono0) * 1e6)

    def feed(self, edges: list[tuple[float, dict[str, Any]]]) -> None:
        """Edges due at monotonic times: written to the board's feed at its device times.
        Those not yet due are kept, so that a board rebooted meanwhile gets the rest."""
        now = time.monotonic()
        self.pending = [(due, e) for due, e in self.pending if due > now] + [(due, e) for due, e in edges]
        self.pending.sort(key=lambda x: x[0])
        self._write(edges)

    def _refeed(self) -> None:
        now = time.monotonic() + 0.05  # what is due while the new boot starts up is not seen
        self.pending = [(due, e) for due, e in self.pending if due > now]
        self._write(self.pending)

    def _write(self, edges: list[tuple[float, dict[str, Any]]]) -> None:
        if self.fw is None or not edges:
            return
        now = time.monotonic()
        base = self.device_now_us(now)
        lines = []
        for due, e in edges:
            t = base + int((due - now) * 1e6)
            lines.append({**e, "t_us": max(t, base + 2000)})
        self.fw.send_edges(lines)

    def quiet(self) -> bool:
        """No edge of a shot is still to come."""
        return not self.pending or self.pending[-1][0] < time.monotonic()

    # --- the cable ---------------------------------------------------------------------------
    def cut(self, seconds: float, mode: str) -> None:
        """Cut the cable for ``seconds``: ``hard`` (the port goes away) or ``silent``."""
        self.stats["cuts_" + mode] += 1
        self.cut_until = time.monotonic() + seconds
        self.cut_mode = mode
        if mode == "hard":
            self._drop_host()

    def _cut(self) -> bool:
        return time.monotonic() < self.cut_until

    def _drop_host(self) -> None:
        if self.host is not None:
            _, w = self.host
            self.host = None
            with contextlib.suppress(Exception):
                w.transport.abort()

    async def _on_host(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.stopping or (self._cut() and self.cut_mode == "hard"):
            writer.transport.abort()
            return
        self._drop_host()  # the port is the newest opener's (a restarted host)
        self.host = (reader, writer)
        self.stats["host_connects"] += 1
        task = asyncio.current_task()
        self.host_task = task
        try:
            while True:
                data = await reader.read(4096)
                if not data:
                    break
                if self._cut() or self.fd < 0:
                    self.stats["bytes_dropped"] += len(data)
                    continue
                self._commands(data)
                try:
                    os.write(self.fd, data)
                except OSError as exc:
                    if exc.errno not in (errno.EAGAIN, errno.EIO):
                        raise
        except (ConnectionError, OSError):
            pass
        finally:
            if self.host is not None and self.host[1] is writer:
                self.host = None
            with contextlib.suppress(Exception):
                writer.transport.abort()

    def _commands(self, data: bytes) -> None:
        self._cmd = (self._cmd + data)[-512:]
        *lines, self._cmd = self._cmd.split(b"\n")
        for line in lines:
            if line.startswith(b"!replay"):
                self.stats["replay_requests"] += 1
            elif line.startswith(b"!hello"):
                self.stats["hello_requests"] += 1

    def _on_board(self) -> None:
        try:
            data = os.read(self.fd, 65536)
        except BlockingIOError:
            return
        except OSError:  # the firmware is gone (its pty closed)
            self._stop_reading()
            return
        if not data:  # the firmware's end of the pty closed: Linux says so by an empty read,
            self._stop_reading()  # and the port stays readable; read on, the loop would spin
            return
        top = self._record(data)
        if self.host is None or self._cut():
            self.stats["bytes_dropped"] += len(data)
            return
        w = self.host[1]
        if w.transport.get_write_buffer_size() > HOST_BUFFER:
            self.stats["host_overflow"] += len(data)
            return
        w.write(data)
        b = self.boot
        if top is not None and (not b.heard or top > b.heard[-1][1]):
            b.heard.append((time.time(), top))

    def _stop_reading(self) -> None:
        """No more reads of this boot's port (the next power-on opens and reads a new one)."""
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(self.fd)

    def _record(self, data: bytes) -> int | None:
        """Record the frames in ``data``; the highest seq among them (None: no whole frame)."""
        b = self.boot
        wall = time.time()
        top: int | None = None
        for f in self.decoder.feed(data):
            if isinstance(f, (HelloFrame, HeartbeatFrame)):
                offset = f.uptime_us - int(time.monotonic() * 1e6)
                if b.clock_offset_us is None or offset > b.clock_offset_us:
                    b.clock_offset_us = offset
                if isinstance(f, HelloFrame):
                    b.hello_seen = True
                seq = f.seq if f.seq < _HALF else f.seq - _MOD  # a fresh boot's "last seq" is -1
                top = seq if top is None else max(top, seq)
                if not b.progress or seq > b.progress[-1][1]:
                    b.progress.append((wall, seq))
            elif isinstance(f, REPLAYABLE):
                top = f.seq if top is None else max(top, f.seq)
                if f.seq in b.frames:
                    b.replayed += 1
                    continue
                if isinstance(f, EventFrame):
                    rec = FrameRec(f.seq, "event", f.channel, f.flags & ~0x08, f.t_us, wall)
                elif isinstance(f, CountFrame):
                    rec = FrameRec(f.seq, "count", f.channel, f.count, f.t_us, wall)
                else:
                    assert isinstance(f, ReadingFrame)
                    rec = FrameRec(f.seq, "reading", f.channel, f.value, f.t_us, wall)
                b.frames[f.seq] = rec
                if not b.progress or f.seq > b.progress[-1][1]:
                    b.progress.append((wall, f.seq))
        return top
