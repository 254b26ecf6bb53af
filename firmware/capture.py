# Edge capture per channel kind (docs/timing.md):
#   irq      Pin.irq handler, time read first thing in the handler
#   capture  Pin.irq handler, time taken from the hardware capture register
#   poll     sampled and debounced in the main loop
#   pcnt     counted by the pulse counter, read in the main loop (COUNT frames)
# and the periodic level scan that finds edges whose callback the scheduler dropped.
# (ptr8 and ptr32 are the viper emitter's built-ins, which the type checker does not know:)
# pyright: reportUndefinedVariable=false
from array import array

import micropython
from micropython import const

_F_LATE = const(2)
_F_HWCAP = const(4)


class Edge:
    """Soft-IRQ handler of one irq/capture channel: pass its bound method .irq to
    Pin.irq. Hard-interrupt safe (does not allocate). A class, not a closure: calling
    a closure over more than four values allocates its argument array in MicroPython.

    irq is viper code: native machine code (Xtensa on the ESP32, in executable RAM) whose
    integers are machine words and whose byte arrays are pointers, so only the two calls
    (the clock, the pin) go through the runtime; everything it needs is an attribute set
    once here (bound methods included: taking one at run time would allocate). It writes
    the ring itself, as Ring.put does: a call would cost as much as the rest of it.
    Cost per edge: bench/firmware_handler.py (about 1.3x a bare ring write on the unix
    port); on the ESP32, docs/timing.md."""

    def __init__(self, ring, ch, pin, active, levels, calls, stamp, hwcap):
        self.st = ring.st
        self.ticks = ring.ticks
        self.meta = ring.meta
        self.ch = ch
        self.level = pin.value
        self.active = active
        self.levels = levels
        self.calls = calls
        self.stamp = stamp  # time.ticks_us, or the capture unit's latched edge
        self.flags = hwcap

    @micropython.viper
    def irq(self, _pin):
        t = int(self.stamp())  # first thing: the scheduling delay is already in it
        v = 1 if int(self.level()) == int(self.active) else 0
        ch = int(self.ch)
        levels = ptr8(self.levels)
        if v == levels[ch]:
            # the level is back where it was: a pulse shorter than the scheduling
            # delay; report its leading edge now, its trailing edge comes next
            v ^= 1
        levels[ch] = v
        calls = ptr8(self.calls)
        calls[ch] = calls[ch] + 1  # mod 256: a byte
        st = ptr32(self.st)  # the ring: head, tail, overflows, size (ring.py)
        h = st[0]
        n = h + 1
        if n == st[3]:
            n = 0
        if n == st[1]:
            st[2] = st[2] + 1
            return
        ticks = ptr32(self.ticks)
        ticks[h] = t
        meta = ptr32(self.meta)
        meta[h] = ch | ((v | int(self.flags)) << 8)
        st[0] = n


def irq_handler(ring, ch, pin, active, levels, calls, ticks_us):
    """The handler (a bound method, made once) of an irq channel. levels[ch]: the
    last reported level; calls[ch]: callbacks run, mod 256 (for the level scan)."""
    return Edge(ring, ch, pin, active, levels, calls, ticks_us, 0).irq


def capture_handler(ring, ch, pin, active, levels, calls, cap):
    """The handler of a capture channel: time from the capture unit, flag HWCAP."""
    return Edge(ring, ch, pin, active, levels, calls, cap.ticks, _F_HWCAP).irq


class Poller:
    """Polled channels (tilt switches): a new level is reported once the raw level has
    stayed the same for debounce_us; the edge time is the first sample of that run."""

    def __init__(self, channels, pins, levels):
        self.chans = [c.ch for c in channels]
        self.active = [c.active for c in channels]
        self.debounce = [c.debounce_us for c in channels]
        self.pins = pins
        self.levels = levels
        n = len(channels)
        self.cand = bytearray(n)  # 0 = none, 1 = idle, 2 = active
        self.since = array("i", [0] * n)

    def sample(self, tick, ring, ticks_diff):
        for i in range(len(self.chans)):
            ch = self.chans[i]
            v = 1 if self.pins[i].value() == self.active[i] else 0
            if v == self.levels[ch]:
                self.cand[i] = 0
            elif self.cand[i] != v + 1:
                self.cand[i] = v + 1
                self.since[i] = tick
            if self.cand[i] and ticks_diff(tick, self.since[i]) >= self.debounce[i]:
                self.levels[ch] = v
                self.cand[i] = 0
                ring.put(ch, v, self.since[i])


class LevelScan:
    """Every scan_ms: an irq/capture channel whose level differs from the last reported
    one on two scans in a row, with no callback of that channel run in between, lost
    a callback; report a LATE edge (time of the first scan that saw it), count it."""

    def __init__(self, channels, pins, levels, calls):
        self.chans = [c.ch for c in channels]
        self.active = [c.active for c in channels]
        self.pins = pins
        self.levels = levels
        self.calls = calls
        n = len(channels)
        self.seen = array("h", [-1] * n)  # callbacks count at the first mismatch; -1: none
        self.since = array("i", [0] * n)
        self.drops = 0

    def scan(self, tick, ring):
        for i in range(len(self.chans)):
            ch = self.chans[i]
            v = 1 if self.pins[i].value() == self.active[i] else 0
            calls = self.calls[ch]
            if v == self.levels[ch]:
                self.seen[i] = -1
            elif self.seen[i] != calls:
                self.seen[i] = calls  # a callback may still be on its way: wait a scan
                self.since[i] = tick
            else:
                self.seen[i] = -1
                self.levels[ch] = v
                self.drops += 1
                ring.put(ch, v | _F_LATE, self.since[i])
