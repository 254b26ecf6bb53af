# TCS34725 colour sensor (ams / Adafruit 1334): red, green, blue and clear light-to-
# digital converters on I2C at the fixed address 0x29, optionally behind a TCA9548A
# multiplexer port (tca9548a.Mux).
#
# Bus objects: anything with machine.I2C's readfrom_mem_into(addr, reg, buf) and
# writeto_mem(addr, reg, buf): machine.I2C on the ESP32, colour_virtual.VirtualColourBus
# on the unix port. read() allocates nothing and uses small integers only; it runs in
# the main loop, never in an interrupt handler.
from micropython import const

ADDR = const(0x29)  # every TCS3472x answers here (TCS34721/5; the 3/7 variants: 0x39)
CYCLE_US = const(2400)  # one integration cycle; ATIME = 256 - cycles
GAINS = (1, 4, 16, 60)  # CONTROL AGAIN 0..3
IDS = (0x44, 0x4D)  # TCS34721/TCS34725, TCS34723/TCS34727

_CMD = const(0xA0)  # command bit 0x80 | auto-increment 0x20
_ENABLE = const(0x00)
_ATIME = const(0x01)
_CONTROL = const(0x0F)
_ID = const(0x12)
_STATUS = const(0x13)  # then CDATAL..BDATAH (0x14..0x1B): one 9-byte burst
_PON = const(0x01)
_AEN = const(0x02)
_AVALID = const(0x01)
_WARMUP_US = const(2400)  # PON to AEN (datasheet: 2.4 ms)


class TCS34725:
    """One sensor, behind mux port `port` when `mux` (a tca9548a.Mux) is given.
    Integration time is cycles x 2.4 ms (1..256), gain one of GAINS. The sensor
    integrates continuously (AEN): read() returns the last completed integration."""

    def __init__(self, i2c, cycles=4, gain=16, mux=None, port=0, sleep_us=None):
        self.i2c = i2c
        self.mux = mux
        self.port = port
        self.buf = bytearray(9)  # STATUS, then C, R, G, B as little-endian u16
        self.one = bytearray(1)
        where = "TCS34725 at 0x%02x%s" % (ADDR, "" if mux is None else " on mux port %d" % port)
        try:
            ident = self._get(_ID)
        except OSError as e:
            raise OSError("%s: no answer (%s): check its 3V3, GND, SDA and SCL" % (where, e))
        if ident not in IDS:
            raise OSError(
                "%s: ID register reads 0x%02x, not 0x44 or 0x4D: not a TCS34725" % (where, ident)
            )
        if not 1 <= cycles <= 256:
            raise ValueError("integration cycles %d: must be 1..256" % cycles)
        if gain not in GAINS:
            raise ValueError("gain %d: must be one of 1, 4, 16, 60" % gain)
        self.cycles = cycles
        self.gain = gain
        self.full = min(1024 * cycles, 65535)  # the clear count's ceiling
        self._set(_ATIME, 256 - cycles)
        self._set(_CONTROL, GAINS.index(gain))
        self._set(_ENABLE, _PON)
        if sleep_us is None:
            import time

            sleep_us = time.sleep_us
        sleep_us(_WARMUP_US)
        self._set(_ENABLE, _PON | _AEN)

    def _select(self):
        if self.mux is not None:
            self.mux.select(self.port)

    def _get(self, reg):
        self._select()
        try:
            self.i2c.readfrom_mem_into(ADDR, _CMD | reg, self.one)
        except OSError:
            self._lost()
            raise
        return self.one[0]

    def _set(self, reg, v):
        self._select()
        self.one[0] = v
        try:
            self.i2c.writeto_mem(ADDR, _CMD | reg, self.one)
        except OSError:
            self._lost()
            raise

    def _lost(self):
        if self.mux is not None:
            self.mux.forget()

    def read(self, rgbc):
        """Fill rgbc (array('H', 4)) with (clear, red, green, blue) of the last completed
        integration; True if AVALID is set (False: none has completed yet, and rgbc
        holds zeros or stale counts). One 9-byte burst from STATUS: reading CDATAL
        latches the high bytes, so the four counts are one integration's. Raises
        OSError when the sensor does not answer. Does not allocate."""
        self._select()
        b = self.buf
        try:
            self.i2c.readfrom_mem_into(ADDR, _CMD | _STATUS, b)
        except OSError:
            self._lost()
            raise
        rgbc[0] = b[1] | b[2] << 8
        rgbc[1] = b[3] | b[4] << 8
        rgbc[2] = b[5] | b[6] << 8
        rgbc[3] = b[7] | b[8] << 8
        return bool(b[0] & _AVALID)
