# Register-level model of TCS34725 colour sensors behind a TCA9548A multiplexer, on
# machine.I2C's interface (readfrom_mem_into, writeto_mem, writeto), for the virtual
# HAL: the firmware's real drivers (tcs34725.py, tca9548a.py, through colour.py) talk to
# it as they would to the chips.
#
# Modelled: the command byte (0x80 required; 0x20 auto-increment, else the same
# register again), ENABLE (PON, AEN), ATIME (cycles of 2.4 ms: the integration restarts
# when it is written), CONTROL (gain 1/4/16/60x), ID 0x44, STATUS.AVALID (set once an
# integration has completed since AEN), the data registers holding the last completed
# integration (light integrated over its window: a ball arriving mid-integration gives
# a mixed colour), saturation at min(1024 x cycles, 65535), seeded noise (one draw per
# integration: two reads of one integration agree), a missing sensor (ENODEV, as
# machine.I2C raises), the mux's control byte (0 or two ports selected: ENODEV / EIO).
#
# The light under each channel's sensor comes from the feed (hal_virtual's _apply):
#   {"t_us":.., "ch":0, "colour":2}        the ball of class 2 lies under channel 0's
#                                          sensor: its learned reference colour (the
#                                          board's colour.refs; else a stock palette)
#   {"t_us":.., "ch":0, "colour":0}        nothing there: the dark chute
#   {"t_us":.., "ch":0, "colour":[1,2]}    two balls, half of the view each
#   {"t_us":.., "ch":0, "rgb":[r,g,b]}     counts per 2.4 ms cycle at gain 1 (clear = r+g+b)
#   optional "noise": per mille of the counts (standard deviation) from then on
# Time on the bus: every transaction takes its bits at the board's i2c.freq plus the
# driver's own overhead (OVERHEAD_US, an estimate for ESP-IDF's i2c_master_cmd_begin),
# spent through spend(us): the virtual HAL holds the pins' IRQ callbacks meanwhile, as the
# port does (the call is C code; no callback runs until it returns). A stuck bus (stuck =
# True: SDA or SCL held low) makes every transaction wait TIMEOUT_US, then fail with
# ETIMEDOUT.
# Reads allocate nothing (a heap_lock test of the whole main loop runs through them).
from micropython import const

_ADDR = const(0x29)
_MUX = const(0x70)
_CYCLE_US = const(2400)
_ENODEV = const(19)
_EIO = const(5)
_ETIMEDOUT = const(110)
OVERHEAD_US = const(60)  # the driver's work per transaction besides the bits (estimated)
TIMEOUT_US = const(10000)  # what the HAL sets as machine.I2C's timeout (hal_esp32 I2C_TIMEOUT_US)
_HIST = const(8)  # light changes kept per channel (an integration is at most 614 ms)
_DARK = const(2)  # clear counts per cycle at gain 1 in an empty, unlit chute
_BALL = const(40)  # clear counts per cycle at gain 1 of a ball under the module's LED
_GAIN = (1, 4, 16, 60)
# stock ball colours (per mille of clear) for classes without a learned reference
_PALETTE = ((560, 230, 210), (340, 350, 310), (420, 420, 160), (250, 380, 370), (300, 450, 250))


class _Light:
    """What lies under one channel's sensor over time: the last _HIST changes, in
    milli-counts per cycle at gain 1 (c, r, g, b)."""

    def __init__(self, t):
        self.t = [t] * _HIST
        self.c = [_DARK * 1000] * _HIST
        self.r = [_DARK * 1000 // 3] * _HIST
        self.g = [_DARK * 1000 // 3] * _HIST
        self.b = [_DARK * 1000 // 3] * _HIST
        self.head = 0  # index of the newest change
        self.noise = 20  # per mille

    def set(self, t, r, g, b):
        if t < self.t[self.head]:
            t = self.t[self.head]  # the history stays in time order
        i = (self.head + 1) % _HIST
        self.t[i] = t
        self.r[i] = r
        self.g[i] = g
        self.b[i] = b
        self.c[i] = r + g + b
        self.head = i

    def integrate(self, w0, w1, out):
        """out[0..3] = milli-counts x us over [w0, w1] (gain 1) for c, r, g, b."""
        for k in range(4):
            out[k] = 0
        end = w1
        i = self.head
        for _ in range(_HIST):
            start = self.t[i]
            if start < end:
                a = start if start > w0 else w0
                d = end - a
                out[0] += self.c[i] * d
                out[1] += self.r[i] * d
                out[2] += self.g[i] * d
                out[3] += self.b[i] * d
                end = a
            if start <= w0:
                return
            i = (i - 1) % _HIST
        # changes older than the history: the oldest light kept stands for them
        if end > w0:
            d = end - w0
            out[0] += self.c[i] * d
            out[1] += self.r[i] * d
            out[2] += self.g[i] * d
            out[3] += self.b[i] * d


class _Sensor:
    def __init__(self, port):
        self.port = port
        self.ch = -1  # the channel whose light it sees
        self.regs = bytearray(0x20)
        self.regs[0x01] = 0xFF
        self.regs[0x12] = 0x44
        self.t_en = 0
        self.done = -1  # the integration whose counts are in the data registers


class VirtualColourBus:
    """The I2C bus of the colour sensors. now(): the virtual time in microseconds
    (not wrapped). absent: mux ports (or -1 without a mux) with no sensor fitted."""

    def __init__(self, now, seed=1, absent=()):
        self.now = now
        self.seed = seed & 0x3FFFFFFF
        self.absent = absent
        self.has_mux = False
        self.sel = 0
        self.sensors = {}
        self.ports = [None] * 8  # the same sensors by mux port, for allocation-free lookup
        self.single = None  # the one sensor of a board without a mux
        self.by_ch = {}
        self.light = {}
        self.refs = {}  # (ch, class) -> (r, g, b, clear) milli-counts per cycle at gain 1
        self.sum = [0, 0, 0, 0]
        self.transactions = 0
        self.freq = 100000
        self.spend = None  # spend(us): the HAL's clock moves on, callbacks held; None: no time
        self.stuck = False
        self.busy_us = 0  # time spent on the bus, all transactions

    # -- the table side ------------------------------------------------------------------
    def use_board(self, b):
        """Fit a sensor for each colour channel of board b (on its mux port)."""
        self.has_mux = b.i2c_mux is not None
        self.freq = b.i2c_freq
        self.sensors = {}
        self.ports = [None] * 8
        self.single = None
        self.by_ch = {}
        self.refs = {}
        scale = b.colour_cycles * b.colour_gain
        for c in b.channels:
            if not c.colour:
                continue
            port = (c.mux or 0) if self.has_mux else -1
            if port in self.absent or port in self.sensors:
                continue
            self._light(c.ch, 0)  # dark until the feed puts a ball there
            s = _Sensor(port)
            s.ch = c.ch
            self.sensors[port] = s
            if port < 0:
                self.single = s
            else:
                self.ports[port] = s
            self.by_ch[c.ch] = s
            for r in b.colour_refs:
                if r[0] == c.ch:
                    k = 1000 * r[5] // scale
                    self.refs[(c.ch, r[1])] = (r[2] * k // 1000, r[3] * k // 1000, r[4] * k // 1000)

    def _light(self, ch, t):
        li = self.light.get(ch)
        if li is None:
            li = self.light[ch] = _Light(t)
        return li

    def ball(self, ch, k, t):
        """The ball of class k (0: none) under channel ch's sensor from time t on."""
        ref = self.refs.get((ch, k))
        if ref is None and k > 0:
            for (_ch, k2), v in self.refs.items():
                if k2 == k:
                    ref = v
                    break
        if ref is None and k > 0:
            p = _PALETTE[(k - 1) % len(_PALETTE)]
            ref = (p[0] * _BALL, p[1] * _BALL, p[2] * _BALL)
        if ref is None:
            d = _DARK * 1000 // 3
            ref = (d, d, d)
        return ref

    def feed(self, ch, item, t):
        """Apply one feed line (see the module doc) at virtual time t."""
        li = self._light(ch, t)
        if "noise" in item:
            li.noise = int(item["noise"])
        if "rgb" in item:
            r, g, b = item["rgb"]
            li.set(t, int(r) * 1000, int(g) * 1000, int(b) * 1000)
            return
        k = item.get("colour", 0)
        if isinstance(k, list):
            a = self.ball(ch, int(k[0]), t)
            z = self.ball(ch, int(k[1]), t) if len(k) > 1 else a
            li.set(t, (a[0] + z[0]) // 2, (a[1] + z[1]) // 2, (a[2] + z[2]) // 2)
        else:
            a = self.ball(ch, int(k), t)
            li.set(t, a[0], a[1], a[2])

    # -- machine.I2C ------------------------------------------------------------------
    def _time(self, nbytes):
        """One transaction of nbytes (address bytes included) on the bus; ETIMEDOUT after
        the timeout when the bus is stuck. Does not allocate."""
        self.transactions += 1
        if self.stuck:
            us = TIMEOUT_US
        else:
            us = OVERHEAD_US + (nbytes * 9 + 3) * 1000000 // self.freq
        self.busy_us += us
        if self.spend is not None:
            self.spend(us)
        if self.stuck:
            raise OSError(_ETIMEDOUT)

    def _target(self, addr):
        if addr != _ADDR:
            raise OSError(_ENODEV)
        if not self.has_mux:
            if self.single is None:
                raise OSError(_ENODEV)
            return self.single
        found = None
        for port in range(8):
            s = self.ports[port]
            if s is not None and self.sel >> port & 1:
                if found is not None:
                    raise OSError(_EIO)  # two sensors drive the bus at once
                found = s
        if found is None:
            raise OSError(_ENODEV)
        return found

    def writeto(self, addr, buf):
        self._time(1 + len(buf))
        if addr != _MUX or not self.has_mux:
            raise OSError(_ENODEV)
        if len(buf):
            self.sel = buf[0]
        return 1

    def writeto_mem(self, addr, reg, buf):
        self._time(2 + len(buf))
        if addr == _MUX and self.has_mux:
            self.sel = reg
            return
        s = self._target(addr)
        if not reg & 0x80:
            raise OSError(_EIO)  # no command bit: the chip would take it as data
        if reg & 0x60 == 0x60:
            return  # special function (clear interrupt)
        a = reg & 0x1F
        for i in range(len(buf)):
            self._write(s, a, buf[i])
            if reg & 0x20:
                a = (a + 1) & 0x1F

    def _write(self, s, a, v):
        if a == 0x12 or a >= 0x13:
            return  # read-only
        old = s.regs[a]
        s.regs[a] = v
        t = self.now()
        if a == 0x00 and (v & 3) == 3 and (old & 3) != 3:
            s.t_en = t
            s.done = -1
            s.regs[0x13] &= ~1
        elif a == 0x01 and v != old:
            s.t_en = t  # a new integration time starts a new integration

    def readfrom_mem_into(self, addr, reg, buf):
        self._time(3 + len(buf))  # address+W, register, address+R (repeated start), data
        if addr == _MUX and self.has_mux:
            for i in range(len(buf)):
                buf[i] = self.sel
            return
        s = self._target(addr)
        if not reg & 0x80:
            raise OSError(_EIO)
        a = reg & 0x1F
        self._update(s)
        for i in range(len(buf)):
            buf[i] = s.regs[a]
            if reg & 0x20:
                a = (a + 1) & 0x1F

    def _update(self, s):
        """Latch the last completed integration into STATUS and the data registers."""
        regs = s.regs
        if regs[0] & 3 != 3:
            return
        cycles = 256 - regs[0x01]
        T = cycles * _CYCLE_US
        n = (self.now() - s.t_en) // T
        if n < 1 or n == s.done:
            return
        s.done = n
        regs[0x13] |= 1  # AVALID
        li = self.light[s.ch]
        w1 = s.t_en + n * T
        out = self.sum
        li.integrate(w1 - T, w1, out)
        gain = _GAIN[regs[0x0F] & 3]
        full = 1024 * cycles
        if full > 65535:
            full = 65535
        x = (self.seed ^ (s.port * 7919) ^ (n * 104729)) & 0x3FFFFFFF
        for k in range(4):
            v = out[k] * gain // (_CYCLE_US * 1000)
            # approximately normal noise: the sum of four uniform draws
            u = 0
            for _ in range(4):
                x = (x * 1103515245 + 12345) & 0x7FFFFFFF
                u += x >> 16 & 0x7FFF
            sigma = v * li.noise // 1000 + 1
            v += (u - 0x10000) * sigma // 18919
            if v < 0:
                v = 0
            if v > full:
                v = full
            regs[0x14 + 2 * k] = v & 0xFF
            regs[0x15 + 2 * k] = v >> 8
