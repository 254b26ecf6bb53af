# The virtual HAL's model of the ESP32 port where it differs from the unix port
# (ports/esp32 of micropython: uart.c, mphalport.c, mpconfigport.h): waits end on the
# FreeRTOS tick or an IRQ, stdout blocks behind the 128-byte FIFO at the baud rate with
# no callback run meanwhile, garbage collections stop everything, the scheduler holds 8.
import fwtest  # first: puts firmware/ on sys.path

import hal_virtual
from fwtest import channel, eq


class Sink:
    def __init__(self):
        self.n = 0

    def write(self, b, off, n):
        self.n += n
        return n


def _fw(chans=None):
    fw = fwtest.firmware(fwtest.board(chans or [channel(0)]))
    fw.hal.out.dev = Sink()
    return fw


def _edge(fw, t, ch=0, level=1):
    fwtest.feed(fw, [{"t_us": t, "ch": ch, "level": level}])


def test_a_poll_wait_ends_at_the_next_tick_without_an_irq():
    fw = _fw()
    hal = fw.hal
    hal.set_clock(23000)
    hal.wait_tick()
    eq(hal.now, 30000, "a 1 ms asyncio/select wait lasts to the next 10 ms tick")


def test_a_pin_irq_ends_the_wait_early_and_its_callback_runs():
    fw = _fw()
    hal = fw.hal
    hal.set_clock(23000)
    _edge(fw, 26000)
    hal.wait_tick()
    eq(hal.now >= 26000 and hal.now < 30000, True, "woken by the IRQ at 26000, not the tick: %d" % hal.now)
    m = fw.ring.take()
    eq((m & 0xFF, fw.ring.tick), (0, 26020), "the callback ran when woken (+20 us scheduling)")


def test_a_write_past_the_fifo_blocks_at_the_baud_rate_and_returns_everything():
    fw = _fw()
    hal = fw.hal
    hal.set_clock(100000)
    buf = bytearray(512)
    eq(hal.out.write(buf, 0, 512), 512, "the port's write returns the full length")
    took = hal.now - 100000
    # 384 bytes past the FIFO at 86.8 us each, in steps of whole ticks (10 ms)
    if not 384 * 868 // 10 <= took <= 384 * 868 // 10 + 10000:
        raise AssertionError("a 512-byte write took %d us of virtual time" % took)
    eq(hal.out.blocked_us, took, "counted as blocked")


def test_no_callback_runs_while_a_write_blocks_and_the_queue_of_8_overflows():
    fw = _fw([channel(c) for c in range(12)])
    hal = fw.hal
    hal.set_clock(100000)
    fwtest.feed(fw, [{"t_us": 101000 + 100 * c, "ch": c, "level": 1} for c in range(12)])
    hal.out.write(bytearray(400), 0, 400)  # ~24 ms of blocking
    eq(len(fw.ring), 0, "no handler ran inside the write")
    hal.sched.run_until(hal.now + 1000)
    eq(len(fw.ring), 8, "the 8 queued callbacks run after it")
    eq(hal.sched.dropped, 4, "the rest were dropped by the full queue")
    fw.ring.take()
    if fw.ring.tick < 101000 + 20000:
        raise AssertionError("a held callback was stamped at %d, before the write ended" % fw.ring.tick)


def test_the_firmware_never_blocks_in_a_write():
    fw = _fw([channel(c) for c in range(16)])
    fwtest.feed(fw, [{"t_us": 5000 + 300 * k, "ch": k % 16, "level": (k // 16 + 1) % 2} for k in range(400)])
    fwtest.settle(fw)
    eq(fw.hal.out.blocked_us, 0, "every write fitted the FIFO")
    eq(fw.next_seq, 400, "all recorded")


def test_allocations_that_fill_the_heap_bring_a_collection_pause():
    fw = _fw()
    hal = fw.hal
    hal.heap = 20000
    hal.gc_us = 5000
    hal.set_clock(100000)
    junk = []
    for _ in range(200):  # a "firmware" that allocates ~1 KB a pass
        junk.append(bytearray(1000))
        if len(junk) > 50:
            junk.pop(0)
        hal.now += 1000
        hal.service()
    if hal.collections < 2:
        raise AssertionError("%d collections for ~200 KB allocated" % hal.collections)
    # an edge during a collection: its callback runs once the collection is over
    hal.allocated = hal.heap
    t = hal.now
    _edge(fw, t + 1000)
    hal._mem = -1
    hal.service()
    hal.sched.run_until(hal.now + 1000)
    fw.ring.take()
    eq(fw.ring.tick, (t + 5000 + 20) & hal_virtual.MASK, "stamped after the pause, not at the edge")


def test_a_steady_firmware_brings_no_collection():
    fw = _fw()
    hal = fw.hal
    hal.heap = 20000
    hal.follow_wall = False
    for _ in range(3000):
        hal.set_clock(hal.now + 1000)
        fw.step()
        fw.flush()
    eq(hal.collections, 0, "no allocation in the loop, no garbage collection")


fwtest.run(fwtest.tests_of(globals()))
