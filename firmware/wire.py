# Wire encoding: CRC-16/CCITT-FALSE, COBS and the frames of docs/protocol.md.
# (ptr8/ptr16 are the viper emitter's built-ins, which the type checker does not know:)
# pyright: reportUndefinedVariable=false
# Everything writes into buffers allocated once; no method below allocates,
# except hello()/error() which take str arguments.
# One module on each side holds the wire format: this one, and host/tablesense/link/frame.py.
from array import array

import micropython
from micropython import const

VERSION = const(1)
EVENT = const(1)
COUNT = const(2)
READING = const(3)
HELLO = const(4)
HEARTBEAT = const(5)
PONG = const(6)
ERROR = const(7)
COLOUR = const(8)  # the answer to `!colour CH`: a colour sensor's raw counts

F_ACTIVE = const(1)
F_LATE = const(2)
F_HWCAP = const(4)
F_REPLAY = const(8)

SEQ_MASK = const(0xFFFFFF)
RECORD = const(12)  # header + seq + 8-byte body of a replayable frame, without CRC
_TEXT_MAX = const(100)
CRASH_MAX = const(120)  # HELLO's crash text (firmware 0.3): what caused this boot, cut to this
TAG = const(4)  # the boot tag's bytes (firmware 0.4): HELLO and HEARTBEAT end with it
PREV = const(7)  # HELLO's prev_tag and prev_seq (firmware 0.5): the boot before's tag and last seq


def _table():
    t = array("H", [0] * 256)
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
        t[i] = c & 0xFFFF
    return t


_CRC = _table()
CRC_TABLE = _CRC  # CRC-16/CCITT-FALSE's table, for other viper code (rtc_record.py)


@micropython.viper
def crc16(buf, n: int) -> int:
    """CRC-16/CCITT-FALSE of buf[0:n] (poly 0x1021, init 0xFFFF). Does not allocate.
    Viper (native code on the ESP32 too): about 5x the speed of plain bytecode."""
    b = ptr8(buf)
    t = ptr16(_CRC)
    crc = 0xFFFF
    for i in range(n):
        crc = ((crc << 8) & 0xFF00) ^ t[((crc >> 8) ^ b[i]) & 0xFF]
    return crc


@micropython.viper
def cobs(src, n: int, dst) -> int:
    """COBS-encode src[0:n] into dst followed by the 0x00 delimiter; returns the length.
    n stays below 254 here (no frame is longer), so one code byte per zero suffices."""
    s = ptr8(src)
    d = ptr8(dst)
    ci = 0
    o = 1
    code = 1
    for i in range(n):
        c = s[i]
        if c == 0:
            d[ci] = code
            ci = o
            o += 1
            code = 1
        else:
            d[o] = c
            o += 1
            code += 1
            if code == 0xFF:
                d[ci] = code
                ci = o
                o += 1
                code = 1
    d[ci] = code
    d[o] = 0
    return o + 1


@micropython.viper
def _head(p, typ: int, seq: int):
    b = ptr8(p)
    b[0] = (VERSION << 4) | typ
    b[1] = seq & 0xFF
    b[2] = (seq >> 8) & 0xFF
    b[3] = (seq >> 16) & 0xFF


@micropython.viper
def _t48(p, o: int, hi: int, lo: int):
    # time = hi * 2**30 + lo (lo < 2**30): written LE without big integers
    b = ptr8(p)
    b[o] = lo & 0xFF
    b[o + 1] = (lo >> 8) & 0xFF
    b[o + 2] = (lo >> 16) & 0xFF
    b[o + 3] = ((lo >> 24) & 0x3F) | ((hi & 3) << 6)
    b[o + 4] = (hi >> 2) & 0xFF
    b[o + 5] = (hi >> 10) & 0xFF


@micropython.viper
def copy(dst, o: int, src, n: int):
    """dst[o:o+n] = src[0:n], without the slices' allocations."""
    d = ptr8(dst)
    s = ptr8(src)
    for i in range(n):
        d[o + i] = s[i]


@micropython.viper
def keep(dst, o: int, typ: int, seq: int, ch: int, b: int, hi: int, lo: int):
    """The RECORD bytes of an EVENT / COUNT / READING (header, seq, channel u8, flags |
    count | value u8, t_us u48 as hi * 2**30 + lo) into dst[o:o+12]. Does not allocate."""
    d = ptr8(dst)
    d[o] = (VERSION << 4) | typ
    d[o + 1] = seq
    d[o + 2] = seq >> 8
    d[o + 3] = seq >> 16
    d[o + 4] = ch
    d[o + 5] = b
    d[o + 6] = lo
    d[o + 7] = lo >> 8
    d[o + 8] = lo >> 16
    d[o + 9] = ((lo >> 24) & 0x3F) | (hi << 6)
    d[o + 10] = hi >> 2
    d[o + 11] = hi >> 10


@micropython.viper
def frame(src, o: int, replay: int, dst, d: int) -> int:
    """The wire bytes of the RECORD at src[o:o+12] into dst[d:d+16]: CRC-16, COBS and the
    delimiter in one pass; replay (non-zero): the REPLAY flag set on an EVENT. Returns 16
    (a record is 16 bytes on the wire, always). Does not allocate."""
    s = ptr8(src)
    out = ptr8(dst)
    t = ptr16(_CRC)
    flag = 0
    if replay and (s[o] & 0x0F) == EVENT:
        flag = F_REPLAY
    crc = 0xFFFF
    ci = d  # where the current block's code byte goes
    k = d + 1
    code = 1
    i = 0
    while i < RECORD + 2:
        if i < RECORD:
            c = s[o + i]
            if i == 5:
                c |= flag
            crc = ((crc << 8) & 0xFF00) ^ t[((crc >> 8) ^ c) & 0xFF]
        elif i == RECORD:
            c = crc & 0xFF
        else:
            c = (crc >> 8) & 0xFF
        if c == 0:
            out[ci] = code
            ci = k
            code = 1
        else:
            out[k] = c
            code += 1
        k += 1
        i += 1
    out[ci] = code
    out[k] = 0
    return k + 1 - d


class Encoder:
    """Builds one frame at a time: payload in self.p, wire bytes in self.out."""

    def __init__(self):
        self.p = bytearray(256)  # a payload is at most 253 bytes (one COBS block)
        self.out = bytearray(260)

    def _head(self, typ, seq):
        _head(self.p, typ, seq)

    def _u(self, o, v, n):
        p = self.p
        for i in range(n):
            p[o + i] = (v >> (8 * i)) & 0xFF

    def finish(self, n):
        """Append the CRC to payload[0:n], COBS it into self.out; returns the wire length."""
        c = crc16(self.p, n)
        self.p[n] = c & 0xFF
        self.p[n + 1] = c >> 8
        return cobs(self.p, n + 2, self.out)

    def record(self, typ, seq, ch, b, hi, lo):
        """EVENT / COUNT / READING: channel u8, flags|count|value u8, t_us u48. Returns length."""
        keep(self.p, 0, typ, seq, ch, b, hi, lo)
        return frame(self.p, 0, 0, self.out, 0)

    def stored(self, src, o, replay):
        """Encode the RECORD bytes kept at src[o:o+12] (keep()) into self.out; replay:
        set the REPLAY flag on an EVENT. Returns the length (16)."""
        return frame(src, o, 1 if replay else 0, self.out, 0)

    def heartbeat(self, seq, hi, lo, overflows, drops, late, shi=-1, slo=0, tag=None):
        """HEARTBEAT; shi/slo (firmware 0.2): settled_us, the time before which every
        frame stamped has been sent (now, or the stamp of the oldest frame still waiting
        behind the send cursor). shi < 0: the 0.1 frame, without it. tag (firmware 0.4):
        the boot tag, TAG bytes (link.boot_tag), after settled_us; None: without it."""
        self._head(HEARTBEAT, seq)
        _t48(self.p, 4, hi, lo)
        self._u(10, min(overflows, 0xFFFF), 2)
        self._u(12, min(drops, 0xFFFF), 2)
        self._u(14, min(late, 0xFFFF), 2)
        if shi < 0:
            return self.finish(16)
        _t48(self.p, 16, shi, slo)
        if tag is None:
            return self.finish(22)
        copy(self.p, 22, tag, TAG)
        return self.finish(22 + TAG)

    def pong(self, seq, token):
        self._head(PONG, seq)
        self._u(4, token, 2)
        return self.finish(6)

    def _text(self, o, s, limit):
        n = min(len(s), limit)
        for i in range(n):
            c = ord(s[i])
            self.p[o + i] = c if c < 128 else 63
        return o + n

    def error(self, seq, code, text):
        self._head(ERROR, seq)
        self.p[4] = code
        return self.finish(self._text(5, text, _TEXT_MAX))

    def _str(self, o, s, limit):
        n = min(len(s), limit)
        self.p[o] = n
        return self._text(o + 1, s, n)

    def hello(self, seq, hi, lo, n_channels, levels, overflows, drops, late, fw, profile, mp="", chip="",
              reset=-1, crash="", tag=None, prev=None):
        """HELLO. mp, chip: firmware 0.2. reset (machine.reset_cause(), 0 unknown) and
        crash (what ended the last boot, "" none), firmware 0.3; reset < 0: without them.
        tag (firmware 0.4, with reset): the boot tag, TAG bytes; None: without it. prev
        (firmware 0.5, with tag): the boot before's tag and last seq assigned, PREV bytes
        (rtc_record.previous), last; None: not known (a power-on), without them.
        Texts are cut to 16 bytes (fw, mp, chip), 32 (profile), CRASH_MAX (crash)."""
        self._head(HELLO, seq)
        _t48(self.p, 4, hi, lo)
        self.p[10] = n_channels
        self._u(11, levels, 4)
        self._u(15, min(overflows, 0xFFFFFFFF), 4)
        self._u(19, min(drops, 0xFFFFFFFF), 4)
        self._u(23, min(late, 0xFFFFFFFF), 4)
        o = self._str(27, fw, 16)
        o = self._str(o, profile, 32)
        o = self._str(o, mp, 16)
        o = self._str(o, chip, 16)
        if reset >= 0:
            self.p[o] = reset & 0xFF
            o = self._str(o + 1, crash, CRASH_MAX)
            if tag is not None:
                copy(self.p, o, tag, TAG)
                o += TAG
                if prev is not None:
                    copy(self.p, o, prev, PREV)
                    o += PREV
        return self.finish(o)

    def colour(self, seq, ch, st, rgbc):
        """COLOUR: channel u8, status u8, class u8, then clear, red, green, blue u16 LE;
        st as colour.sample() returns it (status bits | class << 8), rgbc its counts.
        Not replayable: seq is the last frame sent, as in PONG. Does not allocate."""
        self._head(COLOUR, seq)
        p = self.p
        p[4] = ch
        p[5] = st & 0xFF
        p[6] = st >> 8 & 0xFF
        for k in range(4):
            p[7 + 2 * k] = rgbc[k] & 0xFF
            p[8 + 2 * k] = rgbc[k] >> 8
        return self.finish(15)
