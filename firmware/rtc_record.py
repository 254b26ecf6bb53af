# What the board's RTC memory keeps of the running boot (firmware 0.5): its boot tag and the
# last seq it assigned (stamped into the kept frames, sent or not). RTC memory
# (machine.RTC().memory(), 2048 bytes on the ESP32, MICROPY_HW_RTC_USER_MEM_MAX in
# ports/esp32/machine_rtc.c) lives through a soft reset, machine.reset(), a panic and the
# watchdog; a power-off loses it (the port then reads it empty: its magic no longer holds).
# The next boot reads it once and says it in every HELLO: the host then knows how far the
# boot before got, and says the frames it never heard lost, whatever the timing
# (docs/protocol.md, HELLO's prev_tag and prev_seq).
#
# The record, RECORD bytes: b"ts", its version (1), the tag (wire.TAG bytes), the seq (u24
# little endian; 0xFFFFFF: none assigned yet), CRC-16/CCITT-FALSE of the 10 bytes before it.
# The firmware writes it at boot and then at the end of every drain that assigned a seq,
# before the frames it stamped are sent (link.Firmware.drain): once a pass at most, never
# once an event. Writing allocates nothing: the record is a bytearray made once, and the
# port's write is a memcpy (RTC.memory(buf) returns None).
# (ptr8/ptr16 are the viper emitter's built-ins, which the type checker does not know:)
# pyright: reportUndefinedVariable=false
import micropython
from micropython import const

import wire

RECORD = const(12)
_VERSION = const(1)
_SEQ_AT = const(7)  # where the seq starts: after b"ts", the version and the tag (wire.TAG)
_CRC_AT = const(10)
_TABLE = wire.CRC_TABLE


@micropython.viper
def _seal(buf, seq: int):
    """seq (u24 LE) and the CRC-16 of the bytes before it into the record buf: one native
    call (viper, as wire.crc16), no allocation."""
    p = ptr8(buf)
    p[_SEQ_AT] = seq
    p[_SEQ_AT + 1] = seq >> 8
    p[_SEQ_AT + 2] = seq >> 16
    t = ptr16(_TABLE)
    crc = 0xFFFF
    for i in range(_CRC_AT):
        crc = ((crc << 8) & 0xFF00) ^ t[((crc >> 8) ^ p[i]) & 0xFF]
    p[_CRC_AT] = crc
    p[_CRC_AT + 1] = crc >> 8


class Keeper:
    """This boot's record in RTC memory: hal.rtc_write(buf) stores it (None: the port keeps
    nothing, the record is made and not stored)."""

    def __init__(self, hal, tag):
        self.buf = bytearray(RECORD)
        b = self.buf
        b[0] = 0x74  # "t"
        b[1] = 0x73  # "s"
        b[2] = _VERSION
        for i in range(wire.TAG):
            b[3 + i] = tag[i]
        self.store = getattr(hal, "rtc_write", None)

    def write(self, seq):
        """The last seq assigned is now seq (0xFFFFFF: none yet). Does not allocate."""
        _seal(self.buf, seq)
        store = self.store
        if store is not None:
            store(self.buf)


def previous(raw):
    """The boot before's tag and last seq, wire.TAG + 3 bytes (HELLO's prev_tag and prev_seq),
    from what RTC memory held at boot (bytes; None or b"": nothing kept, a power-on); None
    if it holds no record of ours (garbage, another firmware's, a torn write)."""
    if raw is None or len(raw) < RECORD:
        return None
    if raw[0] != 0x74 or raw[1] != 0x73 or raw[2] != _VERSION:
        return None
    if wire.crc16(raw, _CRC_AT) != raw[_CRC_AT] | raw[_CRC_AT + 1] << 8:
        return None
    out = bytearray(wire.TAG + 3)
    for i in range(wire.TAG + 3):
        out[i] = raw[3 + i]
    return out
