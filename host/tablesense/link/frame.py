"""Wire frames of docs/protocol.md: COBS, CRC-16, typed frame records, a streaming decoder.

A frame on the wire is ``COBS(payload) + b"\\0"``; the payload is
``header u8 (version << 4 | type) + seq u24 + body + crc u16`` (all little endian),
``crc = binascii.crc_hqx(header + seq + body, 0xFFFF)`` (CRC-16/CCITT-FALSE).

Pure logic, no I/O. ``decode_frame`` raises ``BadFrame`` naming what is wrong;
``StreamDecoder.feed`` never raises: it returns the intact frames and keeps the
rejected chunks as ``FrameError`` records, resynchronising on the next delimiter.
Text between frames (the ESP32's boot ROM at every reset, ESP-IDF's log lines) is
counted and kept as text, and the frame after it is decoded as if it were not there.
COBS decoding is the ``cobs`` package's C extension (``cobs.cobs.decode``).

One module on each side holds the wire format: this one, and firmware/wire.py.
"""

from __future__ import annotations

import struct
from binascii import crc_hqx
from collections.abc import Callable, Iterable
from itertools import repeat
from operator import itemgetter
from typing import NamedTuple

from cobs.cobs import DecodeError as _CobsError
from cobs.cobs import decode as _cobs

from ..errors import BadFrame

VERSION = 1
T_EVENT, T_COUNT, T_READING, T_HELLO, T_HEARTBEAT, T_PONG, T_ERROR, T_COLOUR = 1, 2, 3, 4, 5, 6, 7, 8
REPLAYABLE_TYPES = frozenset({T_EVENT, T_COUNT, T_READING})

# EVENT flags
F_ACTIVE, F_LATE, F_HWCAP, F_REPLAY = 0x01, 0x02, 0x04, 0x08
# COLOUR status bits
C_VALID, C_PRESENT, C_SATURATED = 0x01, 0x02, 0x04
#: HELLO's reset cause (firmware 0.3): MicroPython's ``machine.reset_cause()`` on the ESP32
#: (ports/esp32/modmachine.c: the power-on value also covers a brown-out and the EN button,
#: the hard one ``machine.reset()`` and a panic)
RESET_CAUSES = {0: "unknown", 1: "power-on", 2: "hard reset", 3: "watchdog", 4: "deep sleep", 5: "soft reset"}
RESET_WATCHDOG = 3
CRASH_MAX = 120  # the longest crash text a HELLO carries
TAG_BYTES = 4  # the boot tag (firmware 0.4): the last bytes of a HELLO and a HEARTBEAT

SEQ_MOD = 1 << 24
T_MAX = (1 << 48) - 1
MAX_PAYLOAD = 253  # fits one COBS block of at most 254 bytes
MAX_WIRE = MAX_PAYLOAD + 2  # COBS overhead byte + delimiter

_HEAD = struct.Struct("<I")  # header + seq read as one u32: header = v & 0xFF, seq = v >> 8
_TRIPLE = struct.Struct("<BBIH")  # channel, u8, t_us low 32 + high 16
_CRC = struct.Struct("<H")
_HB = struct.Struct("<IHHHH")  # uptime lo32, hi16, ring_overflows, sched_drops, late
_SETTLED = struct.Struct("<IH")  # settled_us lo32, hi16 (firmware 0.2)
_TAG = struct.Struct("<I")  # the boot tag (firmware 0.4)
_HELLO = struct.Struct("<IHBIIII")  # uptime lo32, hi16, n_channels, levels, ring, sched, late
_PONG = struct.Struct("<H")
_COLOUR = struct.Struct("<BBBHHHH")  # channel, status, class, clear, red, green, blue


# --- frame records ---------------------------------------------------------------


class EventFrame(NamedTuple):
    """0x1 EVENT: an edge on ``channel``; ``flags`` bit0 = ACTIVE after the edge."""

    seq: int
    channel: int
    flags: int
    t_us: int

    @property
    def active(self) -> bool:
        return bool(self.flags & F_ACTIVE)

    @property
    def late(self) -> bool:
        return bool(self.flags & F_LATE)

    @property
    def replayed(self) -> bool:
        return bool(self.flags & F_REPLAY)


class CountFrame(NamedTuple):
    """0x2 COUNT: ``count`` pulses (saturating at 255) on a pulse-counter channel."""

    seq: int
    channel: int
    count: int
    t_us: int


class ReadingFrame(NamedTuple):
    """0x3 READING: a value read after an edge (ball colour class: 0 unknown, k = colours[k-1])."""

    seq: int
    channel: int
    value: int
    t_us: int


class HelloFrame(NamedTuple):
    """0x4 HELLO: the device's snapshot; ``seq`` is the last seq it assigned."""

    seq: int
    uptime_us: int
    n_channels: int
    levels: int
    ring_overflows: int
    sched_drops: int
    late: int
    fw_version: str
    profile_id: str
    mp_version: str = ""  # MicroPython on the board ("1.26.1"); "" from firmware before 0.2
    chip: str = ""  # "esp32", "esp32s3", "unix" (the simulator); "" from firmware before 0.2
    reset_cause: int | None = None  # what started this boot (RESET_CAUSES); None before firmware 0.3
    crash: str = ""  # what ended the boot before, when the firmware crashed or the watchdog bit
    boot_tag: int | None = None  # drawn at random once a boot (firmware 0.4); None before
    # the boot before's tag and the last seq it assigned, sent or not, kept in the board's RTC
    # memory across a reset (firmware 0.5; 0xFFFFFF: it assigned none); None: not known (a
    # power-on loses it, or older firmware)
    prev_tag: int | None = None
    prev_seq: int | None = None

    @property
    def reset_text(self) -> str:
        """"watchdog", "hard reset", ...; "" from firmware before 0.3."""
        if self.reset_cause is None:
            return ""
        return RESET_CAUSES.get(self.reset_cause, f"reset cause {self.reset_cause}")


class HeartbeatFrame(NamedTuple):
    """0x5 HEARTBEAT (at least every second); counters saturate at 65535.

    ``settled_us`` (firmware 0.2): every frame stamped before it has been sent; frames
    waiting behind the device's send cursor (a replay, a burst) are stamped at or after
    it. None from older firmware (then the uptime is). ``boot_tag`` (firmware 0.4): the
    boot's, as its HELLO says it; None before."""

    seq: int
    uptime_us: int
    ring_overflows: int
    sched_drops: int
    late: int
    settled_us: int | None = None
    boot_tag: int | None = None


class PongFrame(NamedTuple):
    """0x6 PONG: the token of the ``!ping`` it answers."""

    seq: int
    token: int


class ErrorFrame(NamedTuple):
    """0x7 ERROR: the device refused a command (``code`` + a text)."""

    seq: int
    code: int
    text: str


class ColourFrame(NamedTuple):
    """0x8 COLOUR: the raw reading of ``channel``'s colour sensor, the answer to ``!colour CH``.

    ``status``: C_VALID | C_PRESENT | C_SATURATED (0: no sensor on that channel, or its
    bus is backing off); ``cls``: the class the board's classifier names (0 unknown);
    the four counts of the sensor's last completed integration. Not replayable."""

    seq: int
    channel: int
    status: int
    cls: int
    clear: int
    red: int
    green: int
    blue: int

    @property
    def usable(self) -> bool:
        """The sensor answered with a completed integration."""
        return self.status & (C_VALID | C_PRESENT) == C_VALID | C_PRESENT

    def chroma(self) -> tuple[float, float, float]:
        """Red, green and blue per mille of the clear count."""
        c = max(self.clear, 1)
        return 1000 * self.red / c, 1000 * self.green / c, 1000 * self.blue / c


Frame = (EventFrame | CountFrame | ReadingFrame | HelloFrame | HeartbeatFrame | PongFrame | ErrorFrame
         | ColourFrame)
ReplayableFrame = EventFrame | CountFrame | ReadingFrame
REPLAYABLE = (EventFrame, CountFrame, ReadingFrame)

TYPE_NAMES: dict[type, str] = {
    EventFrame: "event",
    CountFrame: "count",
    ReadingFrame: "reading",
    HelloFrame: "hello",
    HeartbeatFrame: "heartbeat",
    PongFrame: "pong",
    ErrorFrame: "error",
    ColourFrame: "colour",
}
TYPE_CODES: dict[type, int] = {
    EventFrame: T_EVENT,
    CountFrame: T_COUNT,
    ReadingFrame: T_READING,
    HelloFrame: T_HELLO,
    HeartbeatFrame: T_HEARTBEAT,
    PongFrame: T_PONG,
    ErrorFrame: T_ERROR,
    ColourFrame: T_COLOUR,
}
BY_NAME: dict[str, type] = {name: cls for cls, name in TYPE_NAMES.items()}


def frame_to_dict(frame: Frame) -> dict[str, object]:
    """The frame as a JSON object: ``{"type": "event", "seq": .., <body fields>}``."""
    out: dict[str, object] = {"type": TYPE_NAMES[type(frame)]}
    out.update(frame._asdict())
    return out


def frame_from_dict(obj: dict[str, object]) -> Frame:
    """Inverse of ``frame_to_dict``; ``BadFrame`` for an unknown type or missing field."""
    cls = BY_NAME.get(str(obj.get("type")))
    if cls is None:
        raise BadFrame(f"unknown frame type {obj.get('type')!r} (known: {', '.join(BY_NAME)})")
    try:
        given = {k: obj[k] for k in cls._fields if k in obj or k not in cls._field_defaults}
        return cls(**given)  # type: ignore[no-any-return]
    except KeyError as exc:
        raise BadFrame(f"{obj.get('type')} frame needs field {exc.args[0]!r}") from None


# --- COBS ----------------------------------------------------------------------


def cobs_encode(data: bytes) -> bytes:
    """Consistent overhead byte stuffing: the result holds no zero byte."""
    out = bytearray()
    for block in data.split(b"\0"):
        while len(block) >= 254:
            out.append(255)
            out += block[:254]
            block = block[254:]
        out.append(len(block) + 1)
        out += block
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Undo ``cobs_encode``; ``BadFrame`` if a code byte points past the end or a zero appears."""
    if not data:
        raise BadFrame("empty frame")
    try:
        return _cobs(data)
    except _CobsError:
        raise BadFrame(_cobs_error(data)) from None


def _cobs_error(data: bytes) -> str:
    """Why ``data`` is no COBS (the C decoder only says that it is not): where it breaks."""
    if b"\0" in data:
        return f"zero byte inside COBS data at offset {data.index(0)}"
    i, n = 0, len(data)
    while i < n:
        code = data[i]
        if i + code > n:
            return f"COBS block at offset {i} runs past the end ({code} > {n - i})"
        i += code
    return "not COBS"


# --- payload -------------------------------------------------------------------


def _t48(t_us: int) -> tuple[int, int]:
    if not 0 <= t_us <= T_MAX:
        raise BadFrame(f"time {t_us} us does not fit in 48 bits")
    return t_us & 0xFFFFFFFF, t_us >> 32


def _text(s: str, what: str) -> bytes:
    raw = s.encode("ascii")
    if len(raw) > 255:
        raise BadFrame(f"{what} is longer than 255 bytes")
    return bytes([len(raw)]) + raw


def _tag(tag: int) -> bytes:
    if not 0 <= tag <= 0xFFFFFFFF:
        raise BadFrame(f"boot tag {tag} does not fit in 32 bits")
    return _TAG.pack(tag)


def encode_payload(frame: Frame) -> bytes:
    """Header + seq + body + crc of ``frame`` (before COBS)."""
    kind = TYPE_CODES[type(frame)]
    if not 0 <= frame.seq < SEQ_MOD:
        raise BadFrame(f"seq {frame.seq} does not fit in 24 bits")
    head = _HEAD.pack((VERSION << 4 | kind) | frame.seq << 8)
    if isinstance(frame, (EventFrame, CountFrame, ReadingFrame)):
        lo, hi = _t48(frame.t_us)
        body = _TRIPLE.pack(frame.channel, frame[2], lo, hi)
    elif isinstance(frame, HelloFrame):
        lo, hi = _t48(frame.uptime_us)
        body = _HELLO.pack(
            lo, hi, frame.n_channels, frame.levels, frame.ring_overflows, frame.sched_drops, frame.late
        )
        body += b"".join(_text(getattr(frame, what), what) for what in _HELLO_TEXTS)
        if frame.reset_cause is not None:
            if not 0 <= frame.reset_cause <= 255:
                raise BadFrame(f"reset cause {frame.reset_cause} does not fit in a byte")
            body += bytes([frame.reset_cause]) + _text(frame.crash, "crash")
            if frame.boot_tag is not None:
                body += _tag(frame.boot_tag)
                if frame.prev_tag is not None or frame.prev_seq is not None:
                    if frame.prev_tag is None or frame.prev_seq is None:
                        raise BadFrame("a hello's prev_tag and prev_seq come together (firmware 0.5)")
                    if not 0 <= frame.prev_seq < SEQ_MOD:
                        raise BadFrame(f"prev_seq {frame.prev_seq} does not fit in 24 bits")
                    body += _tag(frame.prev_tag) + frame.prev_seq.to_bytes(3, "little")
            elif frame.prev_tag is not None or frame.prev_seq is not None:
                raise BadFrame("a hello's prev_tag and prev_seq need its boot tag (firmware 0.4)")
        elif frame.crash or frame.boot_tag is not None or frame.prev_tag is not None:
            raise BadFrame("a hello's crash text and boot tag need its reset cause (firmware 0.3)")
    elif isinstance(frame, HeartbeatFrame):
        lo, hi = _t48(frame.uptime_us)
        body = _HB.pack(lo, hi, frame.ring_overflows, frame.sched_drops, frame.late)
        if frame.settled_us is not None:
            slo, shi = _t48(frame.settled_us)
            body += _SETTLED.pack(slo, shi)
            if frame.boot_tag is not None:
                body += _tag(frame.boot_tag)
        elif frame.boot_tag is not None:
            raise BadFrame("a heartbeat's boot tag needs its settled_us (firmware 0.2)")
    elif isinstance(frame, PongFrame):
        body = _PONG.pack(frame.token)
    elif isinstance(frame, ColourFrame):
        body = _COLOUR.pack(*frame[1:])
    else:
        body = bytes([frame.code]) + frame.text.encode("ascii")
    data = head + body
    payload = data + _CRC.pack(crc_hqx(data, 0xFFFF))
    if len(payload) > MAX_PAYLOAD:
        raise BadFrame(f"payload of {len(payload)} bytes is longer than {MAX_PAYLOAD}")
    return payload


def encode_frame(frame: Frame) -> bytes:
    """The bytes on the wire for ``frame``, delimiter included."""
    return cobs_encode(encode_payload(frame)) + b"\0"


def decode_payload(payload: bytes) -> Frame:
    """Check the CRC, version and length of a decoded payload and build its record."""
    n = len(payload)
    if n < 6:
        raise BadFrame(f"payload of {n} bytes is shorter than a header, seq and crc (6)")
    if crc_hqx(payload[:-2], 0xFFFF) != _CRC.unpack_from(payload, n - 2)[0]:
        raise BadFrame("CRC mismatch")
    head = _HEAD.unpack_from(payload)[0]
    header = head & 0xFF
    seq = head >> 8
    if header >> 4 != VERSION:
        raise BadFrame(f"protocol version {header >> 4}, this host speaks {VERSION}")
    kind = header & 0x0F
    blen = n - 6
    if kind <= T_READING and kind:
        if blen != 8:
            raise BadFrame(f"type {kind} body is {blen} bytes, expected 8")
        ch, v, lo, hi = _TRIPLE.unpack_from(payload, 4)
        return _TRIPLE_CLS[kind](seq, ch, v, lo | hi << 32)
    if kind == T_HEARTBEAT:
        if blen not in _HB_SIZES:
            sizes = f"{_HB_SIZES[0]}, {_HB_SIZES[1]} or {_HB_SIZES[2]}"
            raise BadFrame(f"heartbeat body is {blen} bytes, expected {sizes}")
        lo, hi, ro, sd, late = _HB.unpack_from(payload, 4)
        settled = tag = None
        if blen > _HB.size:
            slo, shi = _SETTLED.unpack_from(payload, 4 + _HB.size)
            settled = slo | shi << 32
            if blen == _HB_SIZES[2]:
                tag = _TAG.unpack_from(payload, 4 + _HB.size + _SETTLED.size)[0]
        return HeartbeatFrame(seq, lo | hi << 32, ro, sd, late, settled, tag)
    if kind == T_HELLO:
        return _decode_hello(payload, seq)
    if kind == T_PONG:
        if blen != 2:
            raise BadFrame(f"pong body is {blen} bytes, expected 2")
        return PongFrame(seq, _PONG.unpack_from(payload, 4)[0])
    if kind == T_ERROR:
        if blen < 1:
            raise BadFrame("error frame without a code")
        return ErrorFrame(seq, payload[4], payload[5:-2].decode("ascii", "replace"))
    if kind == T_COLOUR:
        if blen != _COLOUR.size:
            raise BadFrame(f"colour body is {blen} bytes, expected {_COLOUR.size}")
        return ColourFrame(seq, *_COLOUR.unpack_from(payload, 4))
    raise BadFrame(f"unknown frame type 0x{kind:x}")


_HB_SIZES = (_HB.size, _HB.size + _SETTLED.size, _HB.size + _SETTLED.size + _TAG.size)  # 0.1, 0.2, 0.4
_TRIPLE_CLS: dict[int, type] = {T_EVENT: EventFrame, T_COUNT: CountFrame, T_READING: ReadingFrame}


def _decode_hello(payload: bytes, seq: int) -> HelloFrame:
    end = len(payload) - 2
    pos = 4 + _HELLO.size
    if pos > end:
        raise BadFrame(f"hello body is {end - 4} bytes, shorter than {_HELLO.size}")
    lo, hi, n_ch, levels, ro, sd, late = _HELLO.unpack_from(payload, 4)
    texts = []
    for i, what in enumerate(_HELLO_TEXTS):
        if pos >= end:
            if i >= 2:  # mp_version and chip came with firmware 0.2: older boards end here
                texts.append("")
                continue
            raise BadFrame(f"hello frame ends before {what}")
        ln = payload[pos]
        if pos + 1 + ln > end:
            raise BadFrame(f"hello {what} of {ln} bytes runs past the end")
        texts.append(payload[pos + 1 : pos + 1 + ln].decode("ascii", "replace"))
        pos += 1 + ln
    reset: int | None = None
    crash = ""
    if pos < end:  # firmware 0.3: the reset cause and the crash text
        reset = payload[pos]
        if pos + 1 >= end:
            raise BadFrame("hello frame ends before crash")
        ln = payload[pos + 1]
        if pos + 2 + ln > end:
            raise BadFrame(f"hello crash of {ln} bytes runs past the end")
        crash = payload[pos + 2 : pos + 2 + ln].decode("ascii", "replace")
        pos += 2 + ln
    tag: int | None = None
    prev_tag: int | None = None
    prev_seq: int | None = None
    if end - pos in (_TAG.size, _TAG.size + _PREV_SIZE):  # firmware 0.4: the boot tag
        tag = _TAG.unpack_from(payload, pos)[0]
        pos += _TAG.size
        if end - pos == _PREV_SIZE:  # firmware 0.5: the boot before's tag and last seq (RTC memory)
            prev_tag = _TAG.unpack_from(payload, pos)[0]
            prev_seq = int.from_bytes(payload[pos + _TAG.size : end], "little")
            pos = end
    if pos != end:
        raise BadFrame(f"hello frame has {end - pos} bytes after crash")
    return HelloFrame(seq, lo | hi << 32, n_ch, levels, ro, sd, late, *texts, reset, crash, tag,
                      prev_tag, prev_seq)


_PREV_SIZE = 7  # prev_tag u32, prev_seq u24 (firmware 0.5)


_HELLO_TEXTS = ("fw_version", "profile_id", "mp_version", "chip")


def decode_frame(wire: bytes) -> Frame:
    """One frame from its wire bytes (the trailing delimiter is optional)."""
    if wire.endswith(b"\0"):
        wire = wire[:-1]
    if len(wire) > MAX_WIRE:
        raise BadFrame(f"frame of {len(wire)} bytes is longer than {MAX_WIRE}")
    return decode_payload(cobs_decode(wire))


# --- streaming -----------------------------------------------------------------


class FrameError(NamedTuple):
    """A chunk between delimiters that is not a frame: where, what, and its bytes."""

    offset: int  # stream offset of the chunk's first byte
    reason: str
    data: bytes

    def __str__(self) -> str:
        shown = self.data[:24].hex(" ")
        more = "..." if len(self.data) > 24 else ""
        return f"bad frame at byte {self.offset}: {self.reason} [{len(self.data)} bytes: {shown}{more}]"


class StreamDecoder:
    """Bytes in any chunking -> frames. Never raises; garbage is counted and kept.

    ``feed(data)`` returns the frames completed by ``data``; rejected chunks are
    appended to ``errors`` (the last ``keep_errors``) and counted in ``bad``.
    A chunk that fails to decode is searched for a valid frame at its tail, so a
    frame that follows garbage with no delimiter in between is still recovered;
    bytes beyond ``MAX_WIRE`` without a delimiter are dropped (and reported).

    Text between frames is no frame error: a run of printable ASCII (the ESP32's boot
    ROM prints a dozen lines at every reset, ESP-IDF its log lines) has no zero byte,
    so it reaches the decoder joined to the frame after it. That frame is decoded as if
    the text were not there, and the text is counted in ``text_bytes`` and kept as
    lines in ``texts`` (the last ``keep_errors``; ``text_lines`` counts them all).
    """

    def __init__(self, keep_errors: int = 100) -> None:
        self._buf = b""
        self._offset = 0  # stream offset of _buf[0]
        self._dropped = 0  # bytes dropped from the current chunk (no delimiter for too long)
        self._line = b""  # text of a line not ended yet
        self.keep_errors = keep_errors
        self.errors: list[FrameError] = []
        self.frames = 0
        self.bad = 0
        self.bytes = 0
        self.text_bytes = 0
        self.text_lines = 0
        self.texts: list[str] = []

    def feed(self, data: bytes) -> list[Frame]:
        self.bytes += len(data)
        buf = self._buf + data if self._buf else data if type(data) is bytes else bytes(data)
        end = buf.rfind(b"\0") + 1  # the complete chunks are buf[:end]
        out: list[Frame] = []
        offset = self._offset
        if end:
            pos = 0
            if end >= _RUN_MIN * 16:  # (after dropped bytes the first chunk is longer: no run)
                while end - pos >= _RUN_MIN * 16:  # the common case: runs of records, each at once
                    got = _records(buf, pos, min((end - pos) >> 4, _RUN_MAX))
                    if got is None:
                        break
                    out += got
                    pos += len(got) << 4
                offset += pos
            if pos < end:
                append = out.append
                for chunk in buf[pos : end - 1].split(b"\0"):
                    n = len(chunk)
                    if n:
                        if self._dropped or n > MAX_WIRE:
                            self._salvage(offset, chunk, out)
                        else:
                            try:
                                append(_decode_fast(chunk))
                            except BadFrame as exc:
                                self._salvage(offset, chunk, out, str(exc))
                    offset += n + 1
            buf = buf[end:]
        if len(buf) > MAX_WIRE:
            cut = len(buf) - MAX_WIRE
            if not self._dropped and _printable(buf, cut) == cut:
                self._text(buf[:cut], end=False)  # a long text: kept as text, not dropped
            else:
                self._dropped += cut
            offset += cut
            buf = buf[cut:]
        self._buf = buf
        self._offset = offset
        self.frames += len(out)
        return out

    def _salvage(self, offset: int, chunk: bytes, out: list[Frame], reason: str = "") -> None:
        """A chunk that is not one frame: text and a frame after it, or garbage; report
        it, and keep a valid frame at its tail."""
        if not self._dropped and self._text_then_frame(chunk, out):
            return
        dropped, self._dropped = self._dropped, 0
        if len(chunk) > MAX_WIRE:
            dropped += len(chunk) - MAX_WIRE
            offset += len(chunk) - MAX_WIRE
            chunk = chunk[-MAX_WIRE:]
            reason = ""
        if not reason:
            try:
                out.append(_decode_fast(chunk))
                self._error(offset - dropped, f"{dropped} bytes without a delimiter", b"")
                return
            except BadFrame as exc:
                reason = str(exc)
        for k in range(1, len(chunk) - 6):
            try:
                frame = _decode_fast(chunk[k:])
            except BadFrame:
                continue
            self._error(offset - dropped, f"{dropped + k} bytes of garbage before a frame", chunk[:k])
            out.append(frame)
            return
        if dropped:
            reason = f"{dropped} bytes without a delimiter, then {reason}"
        self._error(offset - dropped, reason, chunk)

    def _text_then_frame(self, chunk: bytes, out: list[Frame]) -> bool:
        """True if chunk is printable text, then (maybe) a frame: the text is kept, the
        frame decoded. The frame's first byte is at most where the text's run ends (its
        COBS code byte may itself be printable, so earlier starts are tried too)."""
        n = len(chunk)
        p = _printable(chunk, n)
        if p == n:
            self._text(chunk)
            return True
        if p == 0:
            return False
        for k in range(p, max(n - MAX_WIRE, 1) - 1, -1):
            try:
                frame = _decode_fast(chunk[k:])
            except BadFrame:
                continue
            self._text(chunk[:k])
            out.append(frame)
            return True
        return False

    def _text(self, text: bytes, end: bool = True) -> None:
        """Text between frames: counted, kept a line at a time (``end``: a frame follows,
        so a line not ended yet ends here)."""
        self.text_bytes += len(text)
        lines = (self._line + text).split(b"\n")
        self._line = lines.pop()[-200:]
        if end and self._line:
            lines.append(self._line)
            self._line = b""
        for raw in lines:
            line = raw.decode("ascii", "replace").strip()
            if line:
                self.text_lines += 1
                self.texts.append(line[:200])
        if len(self.texts) > self.keep_errors:
            del self.texts[: len(self.texts) - self.keep_errors]

    def _error(self, offset: int, reason: str, chunk: bytes) -> None:
        self.bad += 1
        self.errors.append(FrameError(offset, reason, bytes(chunk[:64])))
        if len(self.errors) > self.keep_errors:
            del self.errors[0]

    @property
    def pending(self) -> int:
        """Bytes waiting for a delimiter."""
        return len(self._buf)


_TEXT_BYTES = frozenset(range(0x20, 0x7F)) | {0x09, 0x0A, 0x0D, 0x1B}


def _printable(data: bytes, n: int) -> int:
    """How many of data's first n bytes are printable ASCII in a row (tab, CR, LF and
    ESC too: ESP-IDF colours its log lines with ANSI sequences when built so)."""
    for i in range(n):
        if data[i] not in _TEXT_BYTES:
            return i
    return n


def _decode_fast(chunk: bytes) -> Frame:
    """One chunk from ``split(b"\\0")`` (so no zero byte in it) -> its frame.

    The record frames (EVENT, COUNT, READING: 15 bytes of COBS, a 14-byte payload) are
    built inline from one precompiled struct; everything else goes through ``decode_payload``.
    """
    n = len(chunk)
    if n > MAX_WIRE:
        raise BadFrame(f"frame of {n} bytes is longer than {MAX_WIRE}")
    try:
        p = _cobs(chunk)
    except _CobsError:
        raise BadFrame(_cobs_error(chunk)) from None
    if len(p) == 14:
        head, ch, v, lo, hi, crc = _RECORD.unpack(p)
        cls = _RECORD_BY_HEADER.get(head & 0xFF)
        if cls is not None and crc_hqx(p[:12], 0xFFFF) == crc:
            # tuple.__new__: the NamedTuple without its Python-level __new__
            return _tuple_new(cls, (head >> 8, ch, v, lo | hi << 32))  # type: ignore[no-any-return]
    return decode_payload(p)


_tuple_new = tuple.__new__
_RECORD = struct.Struct("<IBBIHH")  # header+seq, channel, u8, t_us low 32, high 16, crc
_RECORD_BY_HEADER: dict[int, type] = {
    VERSION << 4 | T_EVENT: EventFrame,
    VERSION << 4 | T_COUNT: CountFrame,
    VERSION << 4 | T_READING: ReadingFrame,
}
_record_class = _RECORD_BY_HEADER.get

# --- a run of records at once --------------------------------------------------------

_RUN_MIN = 12  # shorter runs go chunk by chunk: a run costs a dozen C calls (a few µs) at least
_RUN_MAX = 1024  # the most records decoded at once
_ZEROS = bytes(_RUN_MAX)
_PAYLOADS = [slice(15 * i, 15 * i + 12) for i in range(_RUN_MAX)]  # header..t_us of record i
_CutK = tuple[int, itemgetter, Callable[..., bytes]]


def _cut_for(k: int) -> _CutK:
    """For k records: an itemgetter of their CRC'd bytes (one C call slices them all; k >= 2,
    so it gives a tuple), and the packer of k CRCs as on the wire."""
    return k, itemgetter(*_PAYLOADS[:k]), struct.Struct(f"<{k}H").pack


_cut = _cut_for(256)  # the last k's (a 4 KiB read holds 256 records): made again when k changes


def _records(buf: bytes, pos: int, k: int) -> list[Frame] | None:
    """The frames of ``buf[pos : pos + 16 k]``, or of as many of its first 16-byte chunks
    as end in a delimiter (at least _RUN_MIN), when they are record frames (EVENT, COUNT,
    READING: 15 bytes of COBS and a delimiter each), all intact, decoded in a handful of
    C calls; None otherwise (then the caller goes chunk by chunk, and finds what is wrong).

    The k chunks are joined without their delimiters and COBS-decoded in one call: n
    joined bytes decode to n - 1 - (0xFF codes not last), so a length of 15 k - 1 proves
    that no chunk held a zero of its own. The output is ``p0 00 p1 00 ... p(k-1)``, each
    ``pi`` the chunk's own payload, if and only if every chunk's first byte is a COBS code
    byte (each chunk's chain ends at its end): then no block crosses a chunk, no code is
    0xFF, and each chunk's last code adds the zero. If some chunk's first byte is data
    instead, the earliest such (at 15 i of the joined bytes) lands, with no 0xFF code
    before it, at 15 i - 1 of the output: a non-zero byte (the joined bytes hold no zero)
    where the zero should be. So the length and the zeros at 14, 29, ... prove the
    chunking; then every payload's CRC is checked, and its header.
    """
    delimiters = buf[pos + 15 : pos + 16 * k : 16]
    if delimiters != _ZEROS[:k]:  # a delimiter every 16 bytes up to where one is not
        k -= len(delimiters.lstrip(b"\0"))
    if k < _RUN_MIN:
        return None
    end = pos + 16 * k
    try:
        d = _cobs(buf[pos : end - 1].replace(b"\0", b""))
    except _CobsError:
        return None
    if len(d) != 15 * k - 1 or d[14::15] != _ZEROS[: k - 1]:
        return None  # a zero inside a chunk (fewer bytes joined), or a chain across chunks
    global _cut
    ck, payloads, pack = _cut  # one read of the global: another thread may replace it
    if ck != k:
        _cut = ck, payloads, pack = _cut_for(k)
    crcs = bytearray(2 * k)  # the CRCs on the wire, u16 after u16
    crcs[0::2] = d[12::15]
    crcs[1::2] = d[13::15]
    if crcs != pack(*map(crc_hqx, payloads(d), repeat(0xFFFF, k))):
        return None
    heads = d[0::15]
    if heads.count(_EVENT_HEADER) == k:
        classes: Iterable[type | None] = repeat(EventFrame, k)
    else:
        classes = list(map(_record_class, heads))
        if None in classes:
            return None
    fields = bytearray(16 * k)  # seq u24 + a zero, channel, u8, 2 zeros, t_us u48 + 2 zeros
    for i, at in _FIELDS:
        fields[i::16] = d[at::15]
    return list(map(_tuple_new, classes, _RECORD_FIELDS(fields)))


_FIELDS = ((0, 1), (1, 2), (2, 3), (4, 4), (5, 5), *((8 + i, 6 + i) for i in range(6)))
_RECORD_FIELDS = struct.Struct("<IBBxxQ").iter_unpack  # seq, channel, u8, t_us
_EVENT_HEADER = VERSION << 4 | T_EVENT
