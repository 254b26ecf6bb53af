# Ball colour at goals and pockets: ColourSensors, the per-board front-end both HALs
# call (hal.colour(ch) -> ColourSensors.classify(ch)), over the chips' drivers, one a
# file: tcs34725.py (the sensor), tca9548a.py (the multiplexer that lets several of them
# share one bus) and classifier.py (nearest learned reference colour). The COLOUR frame
# that answers `!colour CH` is wire.Encoder.colour.
#
# Steady state (classify, raw, sample): no allocation, integer arithmetic only. Proven
# under micropython.heap_lock() by tests/firmware/test_colour.py. Never called from an
# interrupt handler: link.drain() reads a channel's colour in the main loop, the board's
# colour_delay_us after its beam edge.
#
# A stuck bus (SDA or SCL held low: a crushed cable, a sensor browning out) makes every
# transaction wait for the driver's timeout with the pins' IRQ callbacks held back
# (docs/timing.md). So a read that fails for any reason but "no such device" costs one
# bounded wait and the bus backs off: no read at all for BACKOFF_US, doubling to
# BACKOFF_MAX_US while it stays stuck, then one try; the balls read meanwhile are
# unknown (0) and the referee is asked.
from array import array

from micropython import const

from classifier import Classifier
from tca9548a import Mux
from tcs34725 import TCS34725

# raw() status bits (the COLOUR frame's status byte, docs/protocol.md)
S_VALID = const(1)  # AVALID: an integration has completed since the sensor was enabled
S_PRESENT = const(2)  # the sensor answered
S_SATURATED = const(4)  # the clear count is at the integration's ceiling

BACKOFF_US = const(1000000)  # the first pause of the reads after a bus timeout
BACKOFF_MAX_US = const(64000000)  # the longest (stays under 2**29: a 30-bit tick difference)
_ENODEV = const(19)  # no device answered its address (a NACK): that sensor only, no wait
_MASK = const(0x3FFFFFFF)
_HALF = const(0x20000000)


class ColourSensors:
    """Every colour sensor of a board, one per channel with colour = true. A sensor
    that does not answer at set-up is left out (its channel reads 0, "unknown") and
    named in self.problems, one line each, for the HAL or the main loop to report;
    board checks (two sensors without a mux) are BoardErrors of board.py. ticks_us: the
    HAL's clock (30-bit microseconds), for the back-off of a stuck bus.
    self.news: a line for the main loop to report (the bus stopped or came back), or
    None; the main loop clears it."""

    def __init__(self, i2c, b, ticks_us, sleep_us=None):
        self.sensors = {}
        self.classifiers = {}
        self.problems = []
        self.errors = 0  # reads that failed (a sensor lost after set-up, a stuck bus)
        self.skipped = 0  # reads not tried while the bus backed off
        self.backoff_us = 0  # 0: the bus answers; else the pause now in force
        self.retry_at = 0  # ticks_us() of the next try while backing off
        self.news = None
        self.ticks_us = ticks_us  # the HAL's 30-bit tick counter (a plain function, as link uses it)
        self.rgbc = array("H", [0] * 4)
        mux = Mux(i2c, b.i2c_mux) if b.i2c_mux is not None else None
        self.mux = mux
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
        on ch, or the bus is backing off). Does not allocate."""
        s = self.sensors.get(ch)
        if s is None:
            return 0
        if self.backoff_us:
            if ((self.ticks_us() - self.retry_at + _HALF) & _MASK) - _HALF < 0:
                self.skipped += 1
                return 0
        try:
            valid = s.read(rgbc)
        except OSError as e:
            self.errors += 1
            if e.errno != _ENODEV:
                self._back_off(e.errno)
            return 0
        if self.backoff_us:
            self.backoff_us = 0
            self.news = "colour sensors: the I2C bus answers again"
        st = S_PRESENT | (S_VALID if valid else 0)
        if rgbc[0] >= s.full:
            st |= S_SATURATED
        return st

    def _back_off(self, errno):
        first = self.backoff_us == 0
        self.backoff_us = BACKOFF_US if first else min(self.backoff_us * 2, BACKOFF_MAX_US)
        self.retry_at = (self.ticks_us() + self.backoff_us) & _MASK
        if first:
            self.news = (
                "colour sensors: the I2C bus did not answer (error %s; SDA or SCL held low?): "
                "reads paused, tried again after %d s, then less often" % (errno, BACKOFF_US // 1000000)
            )

    def classify(self, ch):
        """Ball class under channel ch's sensor now (1-based; 0 unknown). Does not
        allocate."""
        return sample(self, ch, self.rgbc) >> 8


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
