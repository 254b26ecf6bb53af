# Records the main loop makes late (a polled tilt switch after its debounce, an edge the
# level scan found) are kept at most one scan behind the newest frame kept, flagged LATE
# when they had to be moved: the host puts frames in time order within one scan (its
# reorder window). A main loop held up between the first sample of an edge and the one
# that records it (a long write, a collection, a process the PC held up) once made such an
# edge come up to seconds behind frames stamped after it (the season soak, seed 3: "device
# time 22.415694 s is 1.248 s before the frame delivered before it", refused as
# implausible; with no fault at all, in a practice burst: pins logged 0.4 s back).
#
# The hold-up is made directly: a beam's callback stamped after it is drained first (the
# handlers ran as the loop came back), then the late record stamped at its first sample.
import fwtest  # first: puts firmware/ on sys.path
import wire
from fwtest import channel, eq, events, settle

SCAN_US = 20000
HOLDS = (0, 1000, 5000, 19999, 20000, 20001, 25000, 40000, 150000, 400000, 1250000, 6000000, 60000000)


def _late(hold, flags, scan_ms=SCAN_US // 1000):
    """The pin (ch 1) first seen at t1, recorded after a beam (ch 0) stamped hold us later."""
    fw = fwtest.firmware(fwtest.board([channel(0), channel(1, "poll", "pin", debounce_us=3000)],
                                      scan_ms=scan_ms))
    t1 = 100000
    fw.hal.set_clock(t1 + hold + 3000)
    fw.ring.put(0, wire.F_ACTIVE, t1 + hold)  # the beam's handler, run as the loop came back
    fw.drain()
    fw.mring.put(1, wire.F_ACTIVE | flags, t1)  # the poller (0) or the level scan (LATE)
    fw.drain()
    return t1, events(settle(fw))


def test_a_record_made_late_is_kept_at_most_a_scan_behind_the_frames_before_it():
    for scan_ms in (20, 5):
        window = scan_ms * 1000
        for flags in (0, wire.F_LATE):
            for hold in HOLDS:
                t1, ev = _late(hold, flags, scan_ms)
                what = "scan %d ms, flags %d, loop held %d us: %r" % (
                    scan_ms, flags, hold, [(e["seq"], e["ch"], e["b"], e["t"]) for e in ev])
                eq([e["ch"] for e in ev], [0, 1], what)
                beam, pin = ev
                eq(beam["t"], t1 + hold, "the beam's time is its own: " + what)
                # the pin: at most a scan behind the beam, never after it, never before its edge
                eq(pin["t"], max(t1, t1 + hold - window), what)
                late = bool(flags) or hold > window
                eq(bool(pin["b"] & wire.F_LATE), late, "flagged LATE when moved (or found late): " + what)
                eq(bool(pin["b"] & wire.F_ACTIVE), True, what)


def test_a_frame_kept_after_a_quiet_gap_past_the_half_wrap_keeps_its_time():
    """The newest stamp is kept near now: after a gap longer than half the 30-bit tick
    counter (9 minutes), a record is not taken for one behind the last frame kept."""
    fw = fwtest.firmware(fwtest.board([channel(0), channel(1, "poll", "pin", debounce_us=3000)]))
    fw.hal.set_clock(100000)
    fw.ring.put(0, wire.F_ACTIVE, 99000)
    fw.drain()
    t = 100000
    for _ in range(5):  # 10 minutes, a loop pass every 2**27 us as a board's loop (more) often
        t += 1 << 27
        fw.hal.set_clock(t)
        fw.drain()
    fw.mring.put(1, wire.F_ACTIVE, (t - 2000) & 0x3FFFFFFF)
    fw.drain()
    ev = events(settle(fw))
    eq([(e["ch"], e["b"], e["t"]) for e in ev], [(0, wire.F_ACTIVE, 99000), (1, wire.F_ACTIVE, t - 2000)],
       "times across the gap")


fwtest.run(fwtest.tests_of(globals()))
