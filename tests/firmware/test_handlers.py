# The interrupt path allocates nothing: the real handlers, driven through the virtual
# HAL's scheduler model, run under micropython.heap_lock() (an allocation raises
# MemoryError and fails the test).
import fwtest  # first: puts firmware/ on sys.path

import wire
from capture import irq_handler
from fwtest import locked, channel, eq
from ring import Ring


def _fw():
    return fwtest.firmware(
        fwtest.board([channel(0), channel(1, "capture"), channel(2, "poll", "pin", debounce_us=3000)])
    )


def test_irq_and_capture_handlers_do_not_allocate():
    fw = _fw()
    hal = fw.hal
    p0 = hal.pins[0]
    p1 = hal.pins[1]
    # edges arrive at the pins (the "C ISR"), then the scheduler runs the handlers locked
    for k in range(50):
        t = 1000 + 100 * k
        hal._apply({"ch": 0, "level": (k + 1) % 2}, t)
        hal._apply({"ch": 1, "level": (k + 1) % 2}, t + 7)
        locked(lambda t=t: hal.sched.run_until(t + 99))
    eq(len(fw.ring), 100, "records in the ring")
    eq(fw.ring.overflows, 0, "no overflow")
    m = fw.ring.take()
    eq((m & 0xFF, m >> 8, fw.ring.tick), (0, wire.F_ACTIVE, 1020), "irq: time read in the handler")
    m = fw.ring.take()
    eq((m & 0xFF, m >> 8, fw.ring.tick), (1, wire.F_ACTIVE | wire.F_HWCAP, 1007), "capture: exact")
    eq(p0.handler is not None and p1.handler is not None, True, "handlers installed")


def test_ring_put_when_full_counts_without_allocating():
    r = Ring(4)

    def fill():
        for i in range(10):
            r.put(1, 1, i)

    locked(fill)
    eq(len(r), 3, "a ring of 4 slots holds 3")
    eq(r.overflows, 7, "overflows counted")


def test_main_loop_sampling_and_scan_do_not_allocate():
    fw = _fw()
    hal = fw.hal
    hal.pins[2].level = 0  # tilt switch down (active low)
    for t in (1000, 2000, 5000):
        locked(lambda t=t: fw.poller.sample(t, fw.mring, fwtest.link.tdiff))
    eq(len(fw.mring), 1, "debounced edge")
    hal.pins[0].level = 0  # channel 0 active, its callback lost
    locked(lambda: fw.scanner.scan(30000, fw.mring))
    locked(lambda: fw.scanner.scan(50000, fw.mring))
    eq(len(fw.mring), 2, "late edge")


def test_encoding_an_event_does_not_allocate():
    enc = wire.Encoder()
    n = locked(lambda: enc.record(wire.EVENT, 12345, 3, 1, 5, 123456))
    eq(n, 16, "wire length")


def test_short_pulse_inside_the_scheduling_delay_gives_both_edges():
    r = Ring(8)
    levels = bytearray(4)

    class P:
        level = 1

        def value(self):
            return self.level

    pin = P()
    h = irq_handler(r, 2, pin, 0, levels, bytearray(4), lambda: 42)
    # the beam was broken and restored before either callback ran: both see idle
    locked(lambda: h(pin))
    locked(lambda: h(pin))
    r.take()
    eq(r.take() >> 8, 0, "second callback: idle")
    eq(levels[2], 0, "ends idle")
    r2 = Ring(8)
    h2 = irq_handler(r2, 2, pin, 0, bytearray(4), bytearray(4), lambda: 42)
    h2(pin)
    eq(r2.take() >> 8, 1, "first callback reports the leading (ACTIVE) edge")


fwtest.run(fwtest.tests_of(globals()))
