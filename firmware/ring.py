# Fixed-size ring of edge records, preallocated. put() runs in interrupt context:
# it is hard-interrupt safe (does not allocate); one producer and one consumer.
from array import array


class Ring:
    def __init__(self, size):
        self.size = size
        self.ticks = array("i", [0] * size)
        self.meta = array("i", [0] * size)
        self.head = 0
        self.tail = 0
        self.overflows = 0
        self.tick = 0

    def put(self, ch, flags, tick):
        """Store one edge (channel, flags, 30-bit tick); counts and drops it when full."""
        h = self.head
        n = h + 1
        if n == self.size:
            n = 0
        if n == self.tail:
            self.overflows += 1
            return False
        self.ticks[h] = tick
        self.meta[h] = ch | (flags << 8)
        self.head = n
        return True

    def take(self):
        """Oldest record's ch | flags << 8, its tick in self.tick; -1 when empty."""
        t = self.tail
        if t == self.head:
            return -1
        m = self.meta[t]
        self.tick = self.ticks[t]
        t += 1
        if t == self.size:
            t = 0
        self.tail = t
        return m

    def __len__(self):
        return (self.head - self.tail) % self.size
