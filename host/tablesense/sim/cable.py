"""A cable between the host and a simulated board that can be cut: ``socket://`` to the pty.

The firmware under MicroPython's unix port talks on a pty (``fitl.start_firmware``). A
``Cable`` opens that pty as the board's end of the cable and serves the host's end as a
TCP port, which the host's link opens as ``socket://127.0.0.1:N`` through pyserial, as it
opens ``/dev/ttyUSB0``. Two faults stand in for what a pub does to a cable (no software
can pull a real one):

- ``cut(seconds)``: the line between the USB bridge and the board is broken for a while
  (a loose connector, a chair on the cable): every byte either way is lost; the port stays
  open, so the host notices only what goes missing.
- ``unplug(seconds)``: the USB cable is pulled: the host's port closes at once and cannot
  be opened again until it is back (the connection is refused, as a vanished
  ``/dev/ttyUSB0`` refuses an open); the board's bytes meanwhile are lost.

``attach(pty_path)`` puts another board process behind the same port: a board that
reboots (a new firmware process, its clock from 0) behind a USB bridge that stays.
``inject(data)`` slips bytes into the board's stream between two of its frames: a frame
that no software can make the firmware send (a corruption the CRC missed, a forged claim).

With ``modem=AutoReset(...)`` the host's end speaks RFC 2217 (``rfc2217://``, pyserial's
own client and ``PortManager``), which carries DTR and RTS as a USB bridge does, into a
model of the DevKitC's auto-reset circuit: RTS asserted without DTR holds the chip in reset
(the firmware process is stopped), and releasing it with IO0 high boots it again (a new
process behind the same port). A pty has no modem lines, so this is the stand-in for them.

Bytes are forwarded as they come, by one thread; ``close()`` stops it.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import select
import socket
import termios
import threading
import time
import tty
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import serial.rfc2217

if TYPE_CHECKING:
    from ..link.frame import EventFrame


def devkitc(dtr: bool, rts: bool) -> tuple[bool, bool]:
    """(EN, IO0) of the ESP32 DevKitC auto-reset circuit (two NPNs): EN is pulled low only
    with RTS asserted and DTR not; IO0 only with DTR asserted and RTS not."""
    return (not (rts and not dtr), not (dtr and not rts))


class AutoReset:
    """The board's auto-reset circuit, driven by the modem lines the host sends over RFC
    2217 (``PortManager`` sets ``dtr`` and ``rts`` here, and reads the rest of a port's
    settings). ``hold()`` is called when EN goes low (the chip held in reset: stop the
    firmware), ``boot()`` when EN rises with IO0 high (it boots: start the firmware; returns
    its pty, which the cable moves to). EN rising with IO0 low, or IO0 pulled low within
    50 ms of it, is the ROM's download mode: the board stays silent (``downloads``)."""

    STRAP_S = 0.05  # the strapping pins are latched this soon after EN rises (esptool's reset_delay)

    def __init__(self, hold: Callable[[], None], boot: Callable[[], str | None]) -> None:
        self._hold, self._boot = hold, boot
        self.cable: Cable | None = None
        self._dtr = self._rts = False  # the bridge's port is closed: both deasserted
        self._rose_at = -1e9
        self.log: list[tuple[str, bool, bool]] = []  # every change: (what, dtr, rts)
        self.resets = 0  # times EN went low
        self.boots = 0
        self.downloads = 0
        # what PortManager reads and writes besides the two lines
        self.baudrate, self.bytesize, self.parity, self.stopbits = 115200, 8, "N", 1
        self.xonxoff = self.rtscts = self.dsrdtr = self.break_condition = False
        self.cts = self.dsr = self.ri = self.cd = False

    @property
    def dtr(self) -> bool:
        return self._dtr

    @dtr.setter
    def dtr(self, on: bool) -> None:
        self._set(f"dtr={bool(on)}", bool(on), self._rts)

    @property
    def rts(self) -> bool:
        return self._rts

    @rts.setter
    def rts(self, on: bool) -> None:
        self._set(f"rts={bool(on)}", self._dtr, bool(on))

    def hang_up(self) -> None:
        """The host's port closed (or the USB cable went): the bridge drops both lines."""
        self._set("hang-up", False, False)

    def reset_input_buffer(self) -> None:
        pass

    def reset_output_buffer(self) -> None:
        pass

    def _set(self, why: str, dtr: bool, rts: bool) -> None:
        if (dtr, rts) == (self._dtr, self._rts):
            return
        en_was, _ = devkitc(self._dtr, self._rts)
        self._dtr, self._rts = dtr, rts
        en, io0 = devkitc(dtr, rts)
        self.log.append((why, dtr, rts))
        if en_was and not en:
            self.resets += 1
            self._hold()
        elif not en_was and en:
            self._rose_at = time.monotonic()
            if not io0:
                self.downloads += 1
                return
            self.boots += 1
            path = self._boot()
            if path is not None and self.cable is not None:
                self.cable.attach(path)
        elif en and not io0 and time.monotonic() - self._rose_at < self.STRAP_S:
            self.downloads += 1  # IO0 low while the chip latched its strapping pins


class _Net:
    """PortManager's connection: telnet answers go straight to the host's socket."""

    def __init__(self, conn: socket.socket) -> None:
        self.conn = conn

    def write(self, data: bytes) -> None:
        with contextlib.suppress(OSError):
            self.conn.sendall(data)


class Cable:
    """``socket://`` stand-in for the cable to the board whose pty is ``pty_path``
    (``rfc2217://`` with ``modem``: the modem lines reach the board's reset circuit)."""

    def __init__(self, pty_path: str, modem: AutoReset | None = None) -> None:
        self._fd = self._open_pty(pty_path)
        self._srv: socket.socket | None = self._listen(0)
        self.port = self._srv.getsockname()[1]
        self.modem = modem
        self._pm: serial.rfc2217.PortManager | None = None
        if modem is not None:
            modem.cable = self
        scheme = "rfc2217" if modem is not None else "socket"
        self.url = f"{scheme}://127.0.0.1:{self.port}"
        self._cut_until = 0.0
        self._out_until = 0.0
        self._conn: socket.socket | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.dropped_up = 0  # bytes from the board lost in cuts and while unplugged
        self.dropped_down = 0  # bytes from the host lost in cuts
        self.cuts = 0
        self.unplugs = 0
        self._inject: list[bytes] = []
        self._boundary = True  # the last byte sent to the host ended a frame
        self._thread = threading.Thread(target=self._run, name=f"cable {pty_path}", daemon=True)
        self._thread.start()

    @staticmethod
    def _open_pty(path: str) -> int:
        fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(fd, termios.TCSANOW)
        return fd

    def attach(self, pty_path: str) -> None:
        """The board's end of the cable now goes to ``pty_path`` (a rebooted board)."""
        fd = self._open_pty(pty_path)
        with self._lock:
            old, self._fd = self._fd, fd
        with contextlib.suppress(OSError):
            os.close(old)

    @staticmethod
    def _listen(port: int) -> socket.socket:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", port))
        s.listen(1)
        s.setblocking(False)
        return s

    # --- faults ------------------------------------------------------------------

    def cut(self, seconds: float) -> None:
        """Lose every byte, both ways, for ``seconds``; the host's port stays open."""
        with self._lock:
            self.cuts += 1
            self._cut_until = max(self._cut_until, time.monotonic() + seconds)

    def unplug(self, seconds: float) -> None:
        """Close the host's port now and refuse it for ``seconds``."""
        with self._lock:
            self.unplugs += 1
            self._out_until = max(self._out_until, time.monotonic() + seconds)
            conn, self._conn = self._conn, None
            srv, self._srv = self._srv, None
        if self.modem is not None and conn is not None:
            self.modem.hang_up()
        for s in (conn, srv):
            if s is not None:
                with contextlib.suppress(OSError):
                    s.close()

    def inject(self, data: bytes) -> None:
        """Send ``data`` to the host between two of the board's frames, as soon as the stream
        is at a frame's end."""
        with self._lock:
            self._inject.append(data)

    @property
    def cut_now(self) -> bool:
        return time.monotonic() < self._cut_until

    # --- the wire ----------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                if self._srv is None and time.monotonic() >= self._out_until:
                    with contextlib.suppress(OSError):
                        self._srv = self._listen(self.port)  # plugged in again
                srv, conn, fd = self._srv, self._conn, self._fd
            watch: list[int | socket.socket] = [fd]
            if conn is not None:
                watch.append(conn)
            elif srv is not None:
                watch.append(srv)
            try:
                ready, _, _ = select.select(watch, [], [], 0.02)
            except (OSError, ValueError):
                continue  # a socket closed by unplug() under our feet
            if conn is not None and self._boundary and self._inject:
                with self._lock:
                    data, self._inject = b"".join(self._inject), []
                try:
                    conn.sendall(data)
                except OSError:
                    self._drop(conn)
                    continue
            if srv is not None and srv in ready:
                self._accept(srv)
            if fd in ready:
                self._board_to_host(fd, conn)
            if conn is not None and conn in ready:
                self._host_to_board(fd, conn)

    def _accept(self, srv: socket.socket) -> None:
        try:
            conn, _ = srv.accept()
        except OSError:
            return
        conn.setblocking(True)
        conn.settimeout(2.0)  # a host that stops reading for 2 s is a cable pulled
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with self._lock:
            if self._srv is srv and self._conn is None:
                self._conn = conn
                if self.modem is not None:  # RFC 2217: the telnet negotiation starts now
                    self._pm = serial.rfc2217.PortManager(self.modem, _Net(conn))
                return
        conn.close()

    def _board_to_host(self, fd: int, conn: socket.socket | None) -> None:
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            return
        except OSError as exc:  # EIO: the board's side is gone (the firmware stopped, rebooting)
            if exc.errno not in (errno.EIO, errno.EBADF):
                raise
            time.sleep(0.02)
            return
        if not data:  # the same, read as an end of file: the port stays readable, so wait, not spin
            time.sleep(0.02)
            return
        if conn is None or self.cut_now:
            self.dropped_up += len(data)
            return
        if self._pm is not None:
            data = b"".join(self._pm.escape(data))
        try:
            conn.sendall(data)
        except OSError:
            self._drop(conn)
            return
        self._boundary = data.endswith(b"\x00")

    def _host_to_board(self, fd: int, conn: socket.socket) -> None:
        try:
            data = conn.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:  # the host closed its port
            self._drop(conn)
            return
        if self.cut_now:
            self.dropped_down += len(data)
            return
        if self._pm is not None:  # telnet commands (the modem lines among them) taken out
            data = b"".join(self._pm.filter(data))
            fd = self._fd  # a reset in them may have moved the board to a new pty
        with contextlib.suppress(OSError):  # a full pty, or a board gone (rebooting)
            os.write(fd, data)

    def _drop(self, conn: socket.socket) -> None:
        with self._lock:
            if self._conn is conn:
                self._conn = None
                if self.modem is not None:
                    self.modem.hang_up()
        with contextlib.suppress(OSError):
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2.0)
        for s in (self._conn, self._srv):
            if s is not None:
                with contextlib.suppress(OSError):
                    s.close()
        self._conn = self._srv = None
        with contextlib.suppress(OSError):
            os.close(self._fd)

    def __enter__(self) -> Cable:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --- a run of edges through the real firmware, with the cable cut meanwhile ----------------


@dataclass
class CutRun:
    """What a run of ``play_with_cuts`` saw: the frames delivered, the ranges said lost."""

    sent: int  # edges fed to the firmware (one EVENT frame each, seqs 0..sent-1)
    frames: list[EventFrame] = field(default_factory=list)  # delivered, in delivery order
    lost: list[tuple[int, int, str]] = field(default_factory=list)  # (from, to, why) said lost
    statuses: list[str] = field(default_factory=list)
    faults: list[tuple[float, str, float]] = field(default_factory=list)  # (at, cut|unplug, seconds)
    seconds: float = 0.0  # from the first edge's time to the last frame accounted for
    finished: bool = False  # every seq arrived or was said lost before the time-out

    @property
    def arrived(self) -> int:
        return len(self.frames)

    @property
    def said_lost(self) -> int:
        return sum(b - a + 1 for a, b, _ in self.lost)


async def play_with_cuts(
    fw: Any,
    cable: Cable,
    edges: list[dict[str, int]],
    faults: list[tuple[float, str, float]],
    *,
    lead_us: int = 300_000,
    timeout: float = 60.0,
    link_opts: dict[str, Any] | None = None,
) -> CutRun:
    """Feed ``edges`` (times from 0) to the firmware ``lead_us`` after its HELLO, read them
    through ``cable`` with the host's ``Link``, and apply ``faults`` meanwhile: (seconds
    after the first edge, ``"cut"`` or ``"unplug"``, length). Ends when every seq has
    arrived or been said lost (or at ``timeout``)."""
    from ..link import Link, LinkStatus
    from ..link.frame import EventFrame as _Event

    opts: dict[str, Any] = {"from_seq": 0, "backoff": (0.05, 0.2), **(link_opts or {})}
    link = Link(cable.url, **opts)
    run = CutRun(sent=len(edges))
    accounted: set[int] = set()
    t_first = 0.0
    tasks: list[asyncio.Task[None]] = []

    async def apply_faults(start: float) -> None:
        for at, kind, length in sorted(faults):
            delay = start + at - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            run.faults.append((round(time.monotonic() - start, 3), kind, length))
            (cable.cut if kind == "cut" else cable.unplug)(length)

    async def read() -> None:
        nonlocal t_first
        async for item in link.items():
            if isinstance(item, LinkStatus):
                run.statuses.append(str(item))
                if item.kind == "hello" and not t_first:
                    t0 = int(item.data["uptime_us"]) + lead_us
                    fw.send_edges([{**e, "t_us": e["t_us"] + t0} for e in edges])
                    t_first = time.monotonic() + lead_us / 1e6
                    tasks.append(asyncio.create_task(apply_faults(t_first)))
                elif item.kind == "lost":
                    a, b = int(item.data["from"]), int(item.data["to"])
                    run.lost.append((a, b, item.text.split(": ", 1)[-1]))
                    accounted.update(range(a, b + 1))
            elif isinstance(item, _Event):
                run.frames.append(item)
                accounted.add(item.seq)
            if len(accounted) >= len(edges) and min(accounted) == 0 and max(accounted) == len(edges) - 1:
                run.finished = True
                return

    try:
        async with asyncio.timeout(timeout):
            await read()
    except TimeoutError:
        pass
    finally:
        link.close()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
    run.seconds = time.monotonic() - t_first if t_first else 0.0
    return run
