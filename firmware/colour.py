# Ball colour at goals and pockets: the TCS34725 colour sensor (I2C, fixed address
# 0x29), the TCA9548A multiplexer that lets several of them share one bus, a nearest-
# reference classifier over learned ball colours, and ColourSensors, the per-board
# front-end both HALs call: hal.colour(ch) -> ColourSensors.classify(ch).
#
# Bus objects: anything with machine.I2C's readfrom_mem_into(addr, reg, buf),
# writeto_mem(addr, reg, buf) and writeto(addr, buf): machine.I2C / SoftI2C on the
# ESP32, colour_virtual.VirtualColourBus on the unix port.
#
# Steady state (classify, read, raw): no allocation, integer arithmetic only (the
# ESP32's small ints are 31 bits: every product below stays under 2**30). Proven under
# micropython.heap_lock() by tests/firmware/test_colour.py. Never called from an
# interrupt handler: link.drain() reads a channel's colour in the main loop, the
# board's colour_delay_us after its beam edge.
from array import array

from micropython import const

ADDR = const(0x29)  # every TCS3472x answers here (TCS34721/5; the 3/7 variants: 0x39)
MUX_ADDR = const(0x70)  # TCA9548A with A0-A2 low
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
_SCALE = const(1000)  # chromaticities are per mille of the clear count

# classify() results besides a class: why a reading was not a ball (raw() status bits)
S_VALID = const(1)  # AVALID: an integration has completed since the sensor was enabled
S_PRESENT = const(2)  # the sensor answered
S_SATURATED = const(4)  # the clear count is at the integration's ceiling


class Mux:
    """TCA9548A: one control byte selects the ports (bit n = port n)."""

    def __init__(self, i2c, addr=MUX_ADDR):
        self.i2c = i2c
        self.addr = addr
        self.sel = bytearray(1)

    def select(self, port):
        """Connect port 0..7 (only it) to the bus. Does not allocate."""
        self.sel[0] = 1 << port
        self.i2c.writeto(self.addr, self.sel)


class TCS34725:
    """One sensor, behind mux port `port` when `mux` is given. Integration time is
    cycles x 2.4 ms (1..256), gain one of GAINS. The sensor integrates continuously
    (AEN): read() returns the last completed integration."""

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
        self.i2c.readfrom_mem_into(ADDR, _CMD | reg, self.one)
        return self.one[0]

    def _set(self, reg, v):
        self._select()
        self.one[0] = v
        self.i2c.writeto_mem(ADDR, _CMD | reg, self.one)

    def read(self, rgbc):
        """Fill rgbc (array('H', 4)) with (clear, red, green, blue) of the last completed
        integration; True if AVALID is set (False: none has completed yet, and rgbc
        holds zeros or stale counts). One 9-byte burst from STATUS: reading CDATAL
        latches the high bytes, so the four counts are one integration's. Raises
        OSError when the sensor does not answer. Does not allocate."""
        self._select()
        b = self.buf
        self.i2c.readfrom_mem_into(ADDR, _CMD | _STATUS, b)
        rgbc[0] = b[1] | b[2] << 8
        rgbc[1] = b[3] | b[4] << 8
        rgbc[2] = b[5] | b[6] << 8
        rgbc[3] = b[7] | b[8] << 8
        return bool(b[0] & _AVALID)


class Classifier:
    """Nearest learned reference colour of one sensor. refs: (cls, r, g, b, clear,
    min_clear, max_dist) per learned ball, r/g/b = 1000 * red/clear ... ; several refs
    may name one class. classify() is the class (1-based) of the nearest reference
    whose max_dist (Euclidean, in per mille) the reading is within and whose
    min_clear it reaches; 0 when none is, when references of two classes are, or
    when the sensor is saturated: then the host asks the referee."""

    def __init__(self, refs):
        n = len(refs)
        self.n = n
        self.cls = bytearray(n)
        self.r = array("h", [0] * n)
        self.g = array("h", [0] * n)
        self.b = array("h", [0] * n)
        self.min_c = array("H", [0] * n)
        self.max_d2 = array("i", [0] * n)  # squared: at most 1000**2
        for i, ref in enumerate(refs):
            self.cls[i] = ref[0]
            self.r[i] = ref[1]
            self.g[i] = ref[2]
            self.b[i] = ref[3]
            self.min_c[i] = ref[5]
            self.max_d2[i] = ref[6] * ref[6]

    def classify(self, rgbc, full):
        """Class of the counts in rgbc (clear, red, green, blue) or 0. full: the clear
        count's ceiling at this integration time. Does not allocate."""
        c = rgbc[0]
        if c == 0 or c >= full:
            return 0
        r = min(rgbc[1] * _SCALE // c, 2000)  # 65535 * 1000 < 2**30
        g = min(rgbc[2] * _SCALE // c, 2000)
        b = min(rgbc[3] * _SCALE // c, 2000)
        best = 0
        best_d2 = 0x3FFFFFFF
        for i in range(self.n):
            if c < self.min_c[i]:
                continue
            dr = r - self.r[i]
            dg = g - self.g[i]
            db = b - self.b[i]
            d2 = dr * dr + dg * dg + db * db  # at most 3 * 3000**2 < 2**30
            if d2 > self.max_d2[i]:
                continue
            k = self.cls[i]
            if best and k != best:
                return 0  # two balls' references match: ambiguous
            if d2 < best_d2:
                best = k
                best_d2 = d2
        return best


class ColourSensors:
    """Every colour sensor of a board, one per channel with colour = true. A sensor
    that does not answer at set-up is left out (its channel reads 0, "unknown") and
    named in self.problems, one line each, for the HAL or the main loop to report;
    board checks (two sensors without a mux) are BoardErrors of board.py."""

    def __init__(self, i2c, b, sleep_us=None):
        self.sensors = {}
        self.classifiers = {}
        self.problems = []
        self.errors = 0  # reads that failed (a sensor lost after set-up)
        self.rgbc = array("H", [0] * 4)
        mux = Mux(i2c, b.i2c_mux) if b.i2c_mux is not None else None
        for c in b.channels:
            if not c.colour:
                continue
            refs = [r[1:] for r in b.colour_refs if r[0] == c.ch]
            self.classifiers[c.ch] = Classifier(refs)
            try:
                s = TCS34725(i2c, b.colour_cycles, b.colour_gain, mux, c.mux or 0, sleep_us)
            except OSError as e:
                self.problems.append("colour sensor of channel %d (%s): %s" % (c.ch, c.name, e.args[0]))
                continue
            self.sensors[c.ch] = s
            if not refs:
                self.problems.append(
                    "colour sensor of channel %d (%s): no learned colours; run "
                    "`tablesense doctor --learn-colours`" % (c.ch, c.name)
                )

    def raw(self, ch, rgbc):
        """Read channel ch's sensor into rgbc; returns the S_* status bits (0: no sensor
        on ch). Does not allocate."""
        s = self.sensors.get(ch)
        if s is None:
            return 0
        try:
            valid = s.read(rgbc)
        except OSError:
            self.errors += 1
            return 0
        st = S_PRESENT | (S_VALID if valid else 0)
        if rgbc[0] >= s.full:
            st |= S_SATURATED
        return st

    def classify(self, ch):
        """Ball class under channel ch's sensor now (1-based; 0 unknown). Does not
        allocate."""
        return sample(self, ch, self.rgbc) >> 8


COLOUR = const(8)  # the COLOUR frame type (docs/protocol.md): the answer to `!colour <ch>`


def sample(sensors, ch, rgbc):
    """One raw reading of channel ch into rgbc and what it means: status bits | class
    << 8 (the class classify() would give for these very counts). Does not allocate."""
    if sensors is None:
        return 0
    st = sensors.raw(ch, rgbc)
    cls = 0
    if (st & (S_PRESENT | S_VALID)) == (S_PRESENT | S_VALID):
        cls = sensors.classifiers[ch].classify(rgbc, sensors.sensors[ch].full)
    return st | cls << 8


def encode_colour(enc, seq, ch, st, rgbc):
    """A COLOUR frame into enc (a wire.Encoder): channel u8, status u8, class u8, then
    clear, red, green, blue u16 LE; st as sample() returns it. Returns the wire length.
    Not replayable: seq is the last assigned one, as in PONG. Does not allocate."""
    enc._head(COLOUR, seq)
    p = enc.p
    p[4] = ch
    p[5] = st & 0xFF
    p[6] = st >> 8 & 0xFF
    for k in range(4):
        p[7 + 2 * k] = rgbc[k] & 0xFF
        p[8 + 2 * k] = rgbc[k] >> 8
    return enc.finish(15)
