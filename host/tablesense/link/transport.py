"""The serial link: open without resetting the board, read frames, keep them whole.

``Link(url)`` works with anything ``serial.serial_for_url`` opens: ``/dev/ttyUSB0``,
a pty path, ``socket://host:port``, ``loop://``. ``port.open_port`` opens it so that neither
opening nor closing resets an ESP32 (``lines`` says how). A thread reads the
port and hands the bytes to the event loop; the decoder, the sequencer and the clock
run on the loop.

``Link.items()`` yields frames in sequence order (duplicates dropped, gaps replayed)
interleaved with ``LinkStatus`` records for every change worth telling a user:
connected, hello, gap, replay, lost, disconnected, reconnecting, restarted, device
error, bad frames, implausible frames, device counters (ring overflows, scheduler
drops, late edges).

A CRC-valid frame is still checked before it is believed (docs/protocol.md, "Implausible
frames"; the checks are ``plausible.py``): its device time against the host's estimate of
the device's clock, its seq against what the device can have assigned since, and a reboot
(uptime going back) against a fresh boot and the next status frame. What fails is refused:
counted in ``LinkStats``, kept in ``Link.refused``, reported as ``implausible``, never
passed on.
With ``reconnect=True`` an unplugged port is retried with back-off and the link
resumes from the HELLO snapshot: the seq the device is at tells what to replay.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import threading
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import serial

from ..errors import TablesenseError
from . import lines
from .clock import DeviceClock
from .frame import (
    ErrorFrame,
    Frame,
    HeartbeatFrame,
    HelloFrame,
    PongFrame,
    StreamDecoder,
)
from .plausible import Gate, Refusal, Status
from .port import open_port, read_port, reason
from .sequence import SeqStats, Sequencer, Step

#: the ``!ping`` token the link asks with (to confirm a seq a status frame claimed); its PONG
#: is the link's own and is not passed on
PING_TOKEN = 0xFFFF


class LinkError(TablesenseError):
    """The link cannot go on: the port cannot be opened (and reconnecting is off), or it closed."""


@dataclass(frozen=True)
class LinkStatus:
    """A change on the link worth telling the user about."""

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.kind}: {self.text}"

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.kind, "text": self.text, **self.data}


@dataclass
class LinkStats:
    bytes: int = 0
    frames: int = 0
    bad_frames: int = 0
    connects: int = 0
    disconnects: int = 0
    device_errors: int = 0
    ring_overflows: int = 0  # the device's counters, as last reported
    sched_drops: int = 0
    late: int = 0
    implausible: int = 0  # CRC-valid frames refused for their content (the three below)
    implausible_time: int = 0  # device time ahead of the device's clock, or back before the last
    implausible_seq: int = 0  # seq further ahead than the device can have assigned
    implausible_reboot: int = 0  # a reboot (uptime going back) not confirmed
    resets: int = 0  # hard resets of a silent board (RTS pulse)

    def as_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


_COUNTERS = ("ring_overflows", "sched_drops", "late")
_WORDS = {
    "ring_overflows": "ring overflows",
    "sched_drops": "scheduler drops (found by the level scan)",
    "late": "late edges",
}


class Link:
    def __init__(
        self,
        url: str,
        *,
        baudrate: int = lines.BAUD,
        reconnect: bool = True,
        backoff: tuple[float, float] = (0.05, 5.0),
        give_up_after: float | None = None,
        replay: bool = True,
        from_seq: int | None = None,
        hello_timeout: float = 1.0,
        silence_timeout: float | None = 3.5,
        profile_id: str | None = None,
        reset_silent: bool = True,
    ) -> None:
        """``from_seq``: the first seq wanted (0 = everything the device still holds; None = from now).

        ``give_up_after``: seconds of failed reconnecting before ``LinkError`` (None: never).
        ``silence_timeout``: seconds without a byte (the device sends a heartbeat every
        second) after which the port counts as lost and is reopened; None: never.
        ``profile_id``: after connecting, ask the device for this profile if it reports another.
        ``reset_silent``: a board silent for ``silence_timeout`` is reset once (``lines.hard_reset``,
        esptool's RTS pulse), if the port has modem lines, before the port is reopened; not
        again until it has been heard. Opening the port never resets it.
        """
        self.url = url
        self.baudrate = baudrate
        self.reconnect = reconnect
        self.backoff = backoff
        self.give_up_after = give_up_after
        self.hello_timeout = hello_timeout
        self.profile_id = profile_id
        self.silence_timeout = silence_timeout
        self.reset_silent = reset_silent
        self._reset_this_silence = False  # the board was reset since it was last heard
        self._last_rx = 0.0
        self._hold_until = 0.0
        self._bad_reported = 0
        self._bad_reported_at = -1e9
        self._refused_reported = 0
        self._refused_reported_at = -1e9
        self.refused: collections.deque[Refusal] = collections.deque(maxlen=100)
        self._claimed: Frame | None = None  # the status frame whose seq claim awaits the device's word
        self.decoder = StreamDecoder()
        self._text_said = (0, 0.0)  # text lines between frames reported so far, and when
        self.seq = Sequencer(replay=replay, expected=from_seq)
        self.clock = DeviceClock()
        self.gate = Gate(self.seq, self.clock, self)  # the checks every frame passes (plausible.py)
        self.stats = LinkStats()
        self.hello: HelloFrame | None = None
        self._ser: serial.SerialBase | None = None
        self._queue: asyncio.Queue[bytes | BaseException | None] | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._closed = False
        self._wlock = asyncio.Lock()
        self._hb_counters: dict[str, int] = {}
        self._hello_sent = 0.0
        self._hello_tries = 0
        self._profile_asked = False

    # --- public --------------------------------------------------------------

    @property
    def seq_stats(self) -> SeqStats:
        return self.seq.stats

    @property
    def connected(self) -> bool:
        return self._ser is not None

    async def send(self, line: str) -> None:
        """Send one ASCII command line (``!hello``, ``!ping 7`` ...)."""
        if not line.isascii() or "\n" in line or "\x03" in line:
            raise ValueError(f"commands are one line of printable ASCII, not {line!r}")
        ser = self._ser
        if ser is None:
            return
        data = (line + "\n").encode("ascii")
        async with self._wlock:
            try:
                await asyncio.to_thread(ser.write, data)
            except (serial.SerialException, OSError):
                pass  # the reader thread reports the broken port

    def interrupt(self, reason: str = "cut by the host", hold: float = 0.0) -> None:
        """Drop the connection as an unplugged cable would; ``items()`` reconnects (if allowed)
        after ``hold`` seconds, as when the cable is put back."""
        self._hold_until = time.monotonic() + hold
        if self._queue is not None and self._ser is not None:
            self._stop.set()
            self._queue.put_nowait(ConnectionAbortedError(reason))

    def close(self) -> None:
        self._closed = True
        self._disconnect()

    async def __aenter__(self) -> Link:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()

    async def items(self) -> AsyncIterator[Frame | LinkStatus]:
        """Frames in seq order and status changes, until ``close()`` (or a ``LinkError``)."""
        loop = asyncio.get_running_loop()
        while not self._closed:
            if self._ser is None:
                async for status in self._connect(loop):
                    yield status
                continue
            assert self._queue is not None
            try:  # asyncio.timeout, not wait_for: in 3.11 wait_for can swallow a cancellation
                async with asyncio.timeout(0.2):
                    item = await self._queue.get()
            except TimeoutError:
                item = b""
            if item is None:
                continue
            if isinstance(item, BaseException):
                self.stats.disconnects += 1
                self._disconnect()
                yield LinkStatus("disconnected", f"{self.url}: {reason(item)}")
                if not self.reconnect:
                    raise LinkError(f"{self.url}: link lost ({reason(item)})")
                continue
            now = time.monotonic()
            if item:
                self._last_rx = now
                self._reset_this_silence = False
            elif self.silence_timeout is not None and now - self._last_rx > self.silence_timeout:
                if self.reset_silent and not self._reset_this_silence:
                    self._reset_this_silence = True  # once per silence, whatever comes of it
                    if await self._hard_reset():
                        self.stats.resets += 1
                        self._last_rx = time.monotonic()  # the board's time to boot and say HELLO
                        yield LinkStatus(
                            "reset",
                            f"{self.url}: silent for {self.silence_timeout:g} s: reset the board "
                            "(RTS pulse with DTR low, as esptool's hard reset); not again before it "
                            "is heard",
                            {"silent_s": self.silence_timeout},
                        )
                        continue
                self.stats.disconnects += 1
                self._disconnect()
                yield LinkStatus("disconnected", f"{self.url}: silent for {self.silence_timeout:g} s")
                if not self.reconnect:
                    raise LinkError(f"{self.url}: the device went silent (no heartbeat)")
                continue
            for out in self._handle_bytes(item, now, getattr(item, "at", now)):
                if isinstance(out, str):
                    await self.send(out)
                else:
                    yield out
            for out in self._housekeeping(now):
                if isinstance(out, str):
                    await self.send(out)
                else:
                    yield out

    async def frames(self) -> AsyncIterator[Frame]:
        """Only the frames of ``items()``."""
        async for item in self.items():
            if not isinstance(item, LinkStatus):
                yield item

    # --- connection ----------------------------------------------------------

    async def _connect(self, loop: asyncio.AbstractEventLoop) -> AsyncIterator[LinkStatus]:
        delay = self.backoff[0]
        started = time.monotonic()
        announced = False
        hold = self._hold_until - time.monotonic()
        if hold > 0:
            await asyncio.sleep(hold)
        await self._reader_gone()
        while not self._closed:
            try:
                ser = await asyncio.to_thread(open_port, self.url, self.baudrate)
            except (serial.SerialException, OSError, ValueError) as exc:
                if not self.reconnect and self.stats.connects == 0:
                    raise LinkError(f"cannot open {self.url}: {reason(exc)}") from None
                if not self.reconnect:
                    raise LinkError(f"{self.url}: link lost and reconnecting is off") from None
                waited = time.monotonic() - started
                if self.give_up_after is not None and waited > self.give_up_after:
                    raise LinkError(f"cannot open {self.url} for {waited:.0f} s: {reason(exc)}") from None
                if not announced:
                    announced = True
                    yield LinkStatus("reconnecting", f"cannot open {self.url} ({reason(exc)}); retrying")
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.backoff[1])
                continue
            self._ser = ser
            self._queue = asyncio.Queue()
            self._stop = threading.Event()
            self._thread = threading.Thread(
                target=read_port,
                args=(ser, loop, self._queue, self._stop),
                name=f"link {self.url}",
                daemon=True,
            )
            self._thread.start()
            self.stats.connects += 1
            self._last_rx = time.monotonic()
            self._hb_counters = {}
            self._hello_tries = 0
            self.seq.link_reset()
            self.gate.line_reset()
            await self._ask_hello()
            kind = "connected" if self.stats.connects == 1 else "reconnected"
            yield LinkStatus(kind, f"{self.url} open", {"url": self.url})
            return

    async def _reader_gone(self) -> None:
        """Wait for the last connection's reader thread to end (within a read's time-out
        once its stop is set). A port opened again while it still reads can get the closed
        port's descriptor number: two threads would read one port, each taking bytes the
        other was woken for (pyserial's "multiple access on port?", lost frames); on a
        loaded machine that thread can lag for longer than any back-off."""
        thread = self._thread
        if thread is not None and thread.is_alive() and thread is not threading.current_thread():
            await asyncio.to_thread(thread.join, 2.0)

    def _disconnect(self) -> None:
        self._stop.set()
        ser, self._ser = self._ser, None
        if ser is not None:
            with contextlib.suppress(Exception):
                ser.close()
        if self._queue is not None:
            with contextlib.suppress(Exception):
                self._queue.put_nowait(None)

    async def _hard_reset(self) -> bool:
        """esptool's hard reset on the open port; False if the port has no modem lines."""
        ser = self._ser
        if ser is None:
            return False
        try:
            return await asyncio.to_thread(lines.hard_reset, ser)
        except (serial.SerialException, OSError):
            return False  # the port went away meanwhile: the reader thread reports it

    async def _ask_hello(self) -> None:
        self._hello_sent = time.monotonic()
        self._hello_tries += 1
        await self.send("!hello")

    # --- frames --------------------------------------------------------------

    def _handle_bytes(self, data: bytes, now: float,
                      read_at: float | None = None) -> list[Frame | LinkStatus | str]:
        """The bytes of one read, looked at ``now``; ``read_at``: when the read returned
        (port.Chunk)."""
        out: list[Frame | LinkStatus | str] = []
        if not data:
            return out
        self.stats.bytes += len(data)
        dec = self.decoder
        bad_before = dec.bad
        frames = dec.feed(data)
        if dec.bad != bad_before:
            self.stats.bad_frames += dec.bad - bad_before
        self._report_bad(now, out)
        said, at = self._text_said  # text between frames (boot ROM, ESP-IDF log): at most once a second
        if dec.text_lines != said and now - at >= 1.0:
            self._text_said = (dec.text_lines, now)
            text = f"the board wrote {dec.text_lines - said} line(s) between frames; last: {dec.texts[-1]!r}"
            out.append(LinkStatus("board_text", text, {"lines": dec.text_lines, "bytes": dec.text_bytes}))
        self.stats.frames += len(frames)
        self.gate.arrived(now if read_at is None else read_at)
        for f in frames:
            self.gate.frame(f, now, out)
        return out

    # --- what the gate lets through, or refuses (plausible.Sink) ------------------------

    def accept(self, f: Frame, now: float, out: list[Frame | LinkStatus | str]) -> None:
        self._step(self.seq.accept(f, now), out, now)

    def pong(self, f: PongFrame, now: float, out: list[Frame | LinkStatus | str]) -> None:
        self._step(self.seq.reported(f.seq, now, pong=True), out, now, f)
        if f.token != PING_TOKEN:
            out.append(f)

    def other(self, f: Frame, now: float, out: list[Frame | LinkStatus | str]) -> None:
        if isinstance(f, ErrorFrame):
            self.stats.device_errors += 1
            out.append(LinkStatus("device_error", f"device error {f.code}: {f.text}", {"code": f.code}))
            self._step(self.seq.device_error(f.code, f.text, now), out, now)
        out.append(f)

    def restart(self, now: float, out: list[Frame | LinkStatus | str], uptime_s: float | None = None,
                previous: int | None = None) -> None:
        """The device rebooted: the old boot's frames still held are delivered, then the
        ``restarted`` status, then the new boot's: the status divides the two clocks.
        ``uptime_s``: the new boot's age by the status frame that confirmed it; ``previous``:
        the old boot's last seq assigned, by the new boot's HELLO (firmware 0.5)."""
        self.clock.rebase()
        step = self.seq.restart(now, uptime_s, previous)
        said = [n for n in step.notes if n.kind == "restarted"]
        step.notes = [n for n in step.notes if n.kind != "restarted"]
        self._step(step, out, now)
        out.extend(LinkStatus(n.kind, n.text, n.data) for n in said)

    def previous_boot(self, previous: int, now: float, out: list[Frame | LinkStatus | str]) -> None:
        self._step(self.seq.previous_boot(previous), out, now)

    def refuse(self, r: Refusal, now: float, out: list[Frame | LinkStatus | str]) -> None:
        self.stats.implausible += 1
        name = f"implausible_{r.what}"
        setattr(self.stats, name, getattr(self.stats, name) + 1)
        self.refused.append(r)
        self._report_refused(now, out)

    def ask(self, line: str, out: list[Frame | LinkStatus | str]) -> None:
        out.append(line)

    def _step(
        self, step: Step, out: list[Frame | LinkStatus | str], now: float = 0.0, source: Frame | None = None
    ) -> None:
        """The sequencer's notes as statuses (each ``!replay`` sent before its ``replay``
        status), then the frames it delivers. A seq claim of status frame ``source`` is
        asked about (``!ping``); one the device did not confirm is refused as implausible."""
        replays = iter(step.replay)
        for note in step.notes:
            if note.kind == "replay":
                out.append(f"!replay {next(replays)}")
            if note.kind == "implausible":
                claimed = self._claimed if self._claimed is not None else source
                self._claimed = None
                if claimed is not None:
                    self.refuse(Refusal("seq", note.text, claimed), now, out)
                continue
            out.append(LinkStatus(note.kind, note.text, note.data))
        if step.ask:
            self._claimed = source
            out.append(f"!ping {PING_TOKEN}")
        if step.hello:  # an answer not of the boot the host reads: a HELLO shows a new boot
            out.append("!hello")
        gate = self.gate
        for f in step.frames:
            t_us = getattr(f, "t_us", -1)
            if t_us > gate.last_t_us:
                gate.last_t_us = t_us
            out.append(f)

    def _report_refused(self, now: float, out: list[Frame | LinkStatus | str]) -> None:
        """Refused frames are reported at most once a second, as bad frames are."""
        new = self.stats.implausible - self._refused_reported
        if new and now - self._refused_reported_at >= 1.0:
            self._refused_reported = self.stats.implausible
            self._refused_reported_at = now
            last = self.refused[-1]
            out.append(
                LinkStatus(
                    "implausible",
                    f"{new} implausible frame(s) refused; last: {last}",
                    {"count": new, "total": self.stats.implausible, "what": last.what, "reason": last.reason},
                )
            )

    def _report_bad(self, now: float, out: list[Frame | LinkStatus | str]) -> None:
        """Bad frames are reported at most once a second (a noisy line must not flood the log)."""
        new = self.stats.bad_frames - self._bad_reported
        if new and now - self._bad_reported_at >= 1.0:
            self._bad_reported = self.stats.bad_frames
            self._bad_reported_at = now
            last = self.decoder.errors[-1] if self.decoder.errors else None
            out.append(
                LinkStatus(
                    "bad_frames",
                    f"{new} bad frame(s) skipped; last: {last}",
                    {"count": new, "total": self.stats.bad_frames},
                )
            )

    def believe(self, f: Status, now: float, out: list[Frame | LinkStatus | str]) -> None:
        """A HELLO or HEARTBEAT found plausible: the clock, counters and seq it reports."""
        self.clock.sample(f.uptime_us, now)
        if isinstance(f, HelloFrame):
            first = self.hello is None or self._hello_tries > 0
            self.hello = f
            self._hello_tries = 0
            for name in _COUNTERS:  # the baseline for the heartbeats' (u16, saturating) counters
                setattr(self.stats, name, getattr(f, name))
                self._hb_counters[name] = min(getattr(f, name), 0xFFFF)
            if first:
                out.append(
                    LinkStatus(
                        "hello",
                        f"firmware {f.fw_version or '?'}, profile {f.profile_id or '?'}, "
                        f"{f.n_channels} channels, "
                        f"seq {f.seq}, up {f.uptime_us / 1e6:.1f} s, ring overflows {f.ring_overflows}, "
                        f"scheduler drops {f.sched_drops}, late edges {f.late}",
                        _hello_data(f),
                    )
                )
            if self.profile_id and f.profile_id != self.profile_id and not self._profile_asked:
                self._profile_asked = True
                out.append(f"!profile {self.profile_id}")
        else:
            self._counters(f, out)
        self._step(self.seq.reported(f.seq, now), out, now, f)
        out.append(f)

    def _counters(self, f: HeartbeatFrame, out: list[Frame | LinkStatus | str]) -> None:
        """Report any rise of the device's loss counters: a flood is never silent."""
        prev = self._hb_counters
        rose = {n: getattr(f, n) - prev.get(n, 0) for n in _COUNTERS if getattr(f, n) > prev.get(n, 0)}
        self._hb_counters = {n: getattr(f, n) for n in _COUNTERS}
        for n in _COUNTERS:  # heartbeats carry u16 (saturating); keep the larger hello figure
            setattr(self.stats, n, max(getattr(self.stats, n), getattr(f, n)))
        if rose:
            text = ", ".join(f"+{d} {_WORDS[n]} (now {getattr(f, n)})" for n, d in rose.items())
            out.append(
                LinkStatus("counters", f"device lost or delayed edges: {text}", dict(self._hb_counters))
            )

    def _housekeeping(self, now: float) -> list[Frame | LinkStatus | str]:
        out: list[Frame | LinkStatus | str] = []
        self._report_bad(now, out)
        self.gate.poll(now, out)
        self._report_refused(now, out)
        if not self.gate.holding:  # frames held there may be a replay under way: not unanswered
            self._step(self.seq.poll(now), out)
        if self.hello is None or self._hello_tries:
            if self._hello_tries and now - self._hello_sent > self.hello_timeout:
                if self._hello_tries == 3:
                    out.append(
                        LinkStatus("no_hello", f"no HELLO from {self.url} after 3 requests; still trying")
                    )
                self._hello_sent = now
                self._hello_tries += 1
                out.append("!hello")
        return out


def _hello_data(f: HelloFrame) -> dict[str, Any]:
    return {
        "fw_version": f.fw_version,
        "profile": f.profile_id,
        "seq": f.seq,
        "uptime_us": f.uptime_us,
        "n_channels": f.n_channels,
        "levels": f.levels,
        "ring_overflows": f.ring_overflows,
        "sched_drops": f.sched_drops,
        "late": f.late,
    }
