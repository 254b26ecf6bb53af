# The main loop's steady state allocates nothing: whole passes (the HAL's service, the
# poll, the level scan, the counters, the drain, the heartbeat, the command reader and
# the flush through the UART model) run under micropython.heap_lock(), idle and with
# events, a replay included. An allocation raises MemoryError and fails the test.
import fwtest  # first: puts firmware/ on sys.path
import micropython
import select

import hal_virtual
from fwtest import channel, eq


class Counting:
    """The far end of the line: counts bytes and frames without keeping them."""

    def __init__(self):
        self.bytes = 0
        self.frames = 0

    def write(self, b, off, n):
        for i in range(off, off + n):
            if b[i] == 0:
                self.frames += 1
        self.bytes += n
        return n


def _fw():
    chans = [
        channel(0),
        channel(1, "capture", colour=True),
        channel(2, "poll", "pin", debounce_us=3000),
        channel(3, "pcnt", "cushion", active=1),
    ]
    fw = fwtest.firmware(fwtest.board(chans))
    hal = fw.hal
    hal.feed_path = None  # edges are put on the pins by the test itself (outside the lock)
    hal.out.dev = Counting()
    fw.sink = hal.out.dev
    return fw


def _passes(fw, poller, n, edges=()):
    """n passes of the loop, 1 ms apart; edges: (pass, ch, level) put on a pin (its ISR
    queues the callback) just before that pass, outside the lock."""
    hal = fw.hal
    k = 0
    for i in range(n):
        while k < len(edges) and edges[k][0] == i:
            _, ch, level = edges[k]
            p = hal.pins[ch]
            p.level = level ^ (1 - p.active)
            p.captured = hal.now & hal_virtual.MASK
            hal.sched.enqueue(p, hal.now)
            k += 1
        hal.now += 1000
        micropython.heap_lock()
        try:
            fw.step()
            fw.commands(poller)
            fw.flush()
        finally:
            micropython.heap_unlock()


def _poller():
    inp = open("/dev/null", "rb")
    poller = select.poll()
    poller.register(inp, select.POLLIN)
    for _ in poller.ipoll(0):  # ipoll makes its tuple once, on the first call
        pass
    return inp, poller


def test_idle_passes_allocate_nothing():
    fw = _fw()
    inp, poller = _poller()
    fw.inp = inp
    _passes(fw, poller, 3000)  # 3 s: scans, heartbeats, counter reads
    eq(fw.sink.frames >= 3, True, "heartbeats went out")


def test_passes_with_events_colour_counts_and_a_replay_allocate_nothing():
    fw = _fw()
    inp, poller = _poller()
    fw.inp = inp
    edges = []
    for i in range(200):
        edges.append((10 * i + 1, 0, 1))
        edges.append((10 * i + 5, 0, 0))
        edges.append((10 * i + 2, 1, 1))
        edges.append((10 * i + 7, 1, 0))
    edges.sort()
    fw.hal.pulses[3] = 0
    _passes(fw, poller, 2100, edges)
    eq(fw.next_seq >= 1000, True, "events, colour readings and counts were recorded")
    fw.hal.pins[2].level = 0  # the tilt switch goes down
    fw.hal.pulses[3] = 7
    fw.replay(0)  # a replay of everything (outside the lock: the command parser allocates)
    _passes(fw, poller, 3000)
    eq(fw.backlog(), 0, "everything sent")
    eq(fw.sink.frames > 2 * 1000, True, "the replay went out")
    eq(fw.hal.out.blocked_us, 0, "no write waited for the FIFO")


def test_colour_reads_through_the_driver_and_the_timed_bus_allocate_nothing():
    """Beam edges on two colour channels: their readings go through tcs34725.py, the mux
    kept selected or switched, and the bus model's time (callbacks held meanwhile)."""
    from board import Board

    chans = []
    for ch in range(2):
        c = channel(ch, colour=True)
        c["mux"] = ch
        chans.append(c)
    chans.append(channel(2))  # a beam without a sensor, whose stamps wait while the bus is busy
    ref = [1, 560, 230, 210, 2560, 640, 80]
    b = Board({"profile": "t", "colours": ["red"], "channels": chans,
               "i2c": {"sda": 21, "scl": 22, "freq": 100000, "mux": 0x70},
               "colour": {"cycles": 4, "gain": 16, "delay_us": 24000, "refs": [[0] + ref, [1] + ref]}})
    fw = fwtest.firmware(b)
    hal = fw.hal
    hal.feed_path = None
    hal.out.dev = Counting()
    fw.sink = hal.out.dev
    for ch in range(2):
        hal.colour_bus.feed(ch, {"colour": 1}, hal.now)
    inp, poller = _poller()
    fw.inp = inp
    edges = []
    for i in range(40):
        edges.append((50 * i + 1, i % 2, 1))
        edges.append((50 * i + 30, i % 2, 0))
        edges.append((50 * i + 26, 2, (i + 1) % 2))
    edges.sort()
    busy = hal.colour_bus.busy_us
    _passes(fw, poller, 2100, edges)
    eq(fw.next_seq >= 100, True, "events and readings recorded")
    eq(hal.colour_bus.busy_us > busy, True, "the reads took time on the bus")


fwtest.run(fwtest.tests_of(globals()))
