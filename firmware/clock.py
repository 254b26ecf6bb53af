# 30-bit tick counter -> 64-bit monotonic microseconds, kept as (hi, lo) so that no
# big integer is ever needed on the ESP32 (small ints hold 31 bits there):
# time_us = hi * 2**30 + lo, 0 <= lo < 2**30.
# The main loop updates it on every pass (about every millisecond); update() is exact for
# any step under 2**30 us and at() for stamps within 2**29 us of the reference, so the loop
# must read the ticks at least once per half-wrap (8.9 min). A board always does (its loop
# never waits for long, docs/timing.md); the unix port's HAL moves its virtual clock at
# most 2**28 us per pass for the same reason.
from micropython import const

PERIOD = const(0x40000000)
MASK = const(0x3FFFFFFF)
_HALF = const(0x20000000)


class Clock:
    def __init__(self, tick):
        self.ref_tick = tick
        self.ref_hi = 0
        self.ref_lo = tick
        self.hi = 0
        self.lo = tick

    def update(self, tick):
        """Advance the reference to tick (the current counter): the main loop calls this
        at least every 2**30 us (17.9 min); any step forward shorter than that is exact."""
        d = (tick - self.ref_tick) & MASK
        self.ref_tick = tick
        lo = self.ref_lo + d
        if lo >= PERIOD:
            lo -= PERIOD
            self.ref_hi += 1
        self.ref_lo = lo
        self.hi = self.ref_hi
        self.lo = lo

    def at(self, tick):
        """Set self.hi/self.lo to the 64-bit time of tick, a stamp within 2**29 us
        (8.9 min) before or after the reference. Does not allocate."""
        d = ((tick - self.ref_tick + _HALF) & MASK) - _HALF
        lo = self.ref_lo + d
        hi = self.ref_hi
        if lo < 0:
            lo += PERIOD
            hi -= 1
        elif lo >= PERIOD:
            lo -= PERIOD
            hi += 1
        if hi < 0:
            hi = 0
            lo = 0
        self.hi = hi
        self.lo = lo
