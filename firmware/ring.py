# Fixed-size ring of edge records, preallocated: one producer and one consumer.
# put() runs in interrupt context: it is hard-interrupt safe (does not allocate).
# Its state is an array, not attributes, so that viper code (put() here, and the
# irq handler's own copy of it in capture.py) reads and writes it with plain loads and
# stores: st[0] head (the next slot to write), st[1] tail (the oldest record),
# st[2] overflows (records dropped because the ring was full), st[3] size.
# (ptr32 is the viper emitter's built-in, which the type checker does not know:)
# pyright: reportUndefinedVariable=false
from array import array

import micropython


class Ring:
    def __init__(self, size):
        self.size = size
        self.ticks = array("i", [0] * size)
        self.meta = array("i", [0] * size)  # ch | flags << 8
        self.st = array("i", [0, 0, 0, size])
        self.tick = 0

    @micropython.viper
    def put(self, ch: int, flags: int, tick: int) -> bool:
        """Store one edge (channel, flags, 30-bit tick); counts and drops it when full."""
        st = ptr32(self.st)
        h = st[0]
        n = h + 1
        if n == st[3]:
            n = 0
        if n == st[1]:
            st[2] = st[2] + 1
            return False
        ticks = ptr32(self.ticks)
        ticks[h] = tick
        meta = ptr32(self.meta)
        meta[h] = ch | (flags << 8)
        st[0] = n
        return True

    def take(self):
        """Oldest record's ch | flags << 8, its tick in self.tick; -1 when empty."""
        st = self.st
        t = st[1]
        if t == st[0]:
            return -1
        m = self.meta[t]
        self.tick = self.ticks[t]
        t += 1
        if t == self.size:
            t = 0
        st[1] = t
        return m

    @property
    def overflows(self):
        return self.st[2]

    def __len__(self):
        st = self.st
        return (st[0] - st[1]) % self.size
