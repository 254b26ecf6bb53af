# Quiet gaps longer than the 30-bit tick counter's half-wrap (2**29 us, 537 s) and whole
# wraps (2**30 us, 17.9 min): the virtual HAL moves its clock at most 2**28 us per main-loop
# pass, as a board's loop reads its ticks every millisecond, so the 64-bit clock, the
# poller's debounce and the level scan keep every edge and its time.
import fwtest  # first: puts firmware/ on sys.path
from fwtest import channel, eq, events, feed

WRAP = 1 << 30
STEP = 1 << 28


def run(fw, lines):
    """Feed lines and run passes until everything is sent; the largest clock move of a pass."""
    feed(fw, lines)
    hal = fw.hal
    most = 0
    out = []
    for _ in range(400000):
        before = hal.now
        more = fw.step()
        fw.flush()
        most = max(most, hal.now - before)
        out += fw.sink.take()
        if not more and hal._peek() is None and not fw.backlog() and not fw.txlen:
            break
        if not more:
            hal.set_clock(hal.now + 1000)  # a millisecond on, as settle() does
    for _ in range(60):  # the debounce and the last sends
        hal.set_clock(hal.now + 1000)
        fw.step()
        fw.flush()
    return out + fwtest.sent(fw), most


def pin_and_beam(gap):
    """A tilt switch (poll, 3 ms debounce) and a beam (irq) toggled before and after gap."""
    lines, want = [], []
    t = 10000
    for k in range(2):
        for ch in (0, 1):
            lines += [{"t_us": t, "ch": ch, "level": 1}, {"t_us": t + 20000, "ch": ch, "level": 0}]
            want += [(ch, t), (ch, t + 20000)]
            t += 50000
        t += gap
    return lines, want


def check(gap):
    fw = fwtest.firmware(fwtest.board([channel(0, "poll", "pin", debounce_us=3000), channel(1)]))
    lines, want = pin_and_beam(gap)
    frames, most = run(fw, lines)
    ev = events(frames)
    eq([e["ch"] for e in ev], [ch for ch, _ in want], "every edge, in order, across a gap of %d us" % gap)
    for e, (ch, t) in zip(ev, want):
        if not t <= e["t"] <= t + 2000:  # a poll edge: the first sample of the stable run
            raise AssertionError("ch %d edge of %d stamped %d (gap %d)" % (ch, t, e["t"], gap))
    if most > STEP:
        raise AssertionError("the clock moved %d us in one pass" % most)


def test_a_gap_just_under_the_half_wrap():
    check((1 << 29) - 1000000)


def test_a_gap_just_over_the_half_wrap_keeps_its_edges():
    check((1 << 29) + 1000000)  # lost the edges around it when skipped in one pass


def test_a_gap_of_one_wrap_and_more():
    check(WRAP)
    check(WRAP + 7)


def test_a_gap_of_five_wraps_keeps_the_times():
    check(5 * WRAP + 123457)  # shifted every later time by 17.9 min a wrap


def test_a_clock_jump_is_taken_in_steps_the_loop_sees():
    fw = fwtest.firmware(fwtest.board([channel(0, "poll", "pin", debounce_us=3000)]))
    frames, most = run(fw, [{"t_us": 10000, "ch": 0, "level": 1}, {"clock_us": 3 * WRAP},
                            {"t_us": 3 * WRAP + 5000, "ch": 0, "level": 0}])
    eq([e["b"] & 1 for e in events(frames)], [1, 0], "down before the jump, up after")
    if most > STEP:
        raise AssertionError("the clock moved %d us in one pass" % most)


def test_a_process_stalled_for_minutes_catches_up_by_steps():
    fw = fwtest.firmware(fwtest.board([channel(0)]))
    hal = fw.hal
    hal.realtime = True
    fw.step()
    start = hal.now
    hal.offset += 700000000  # the wall clock ran on 700 s while the process was stopped
    most = 0
    for _ in range(10):
        before = hal.now
        fw.step()
        most = max(most, hal.now - before)
    if most > STEP or hal.now - start < 700000000:
        raise AssertionError("moved %d us at most a pass, %d in all" % (most, hal.now - start))


def test_a_stalled_realtime_process_plays_the_feed_a_millisecond_a_pass():
    """Realtime, the firmware process stalled 200 ms by a loaded machine: the feed due
    meanwhile (a ball under the colour sensor, through the beam, gone 30 ms later) is played
    a millisecond a pass, so the colour is read 2 ms after the beam edge, as on a board; all
    at once, it was read after the ball had left (class 0: a goal with no ball)."""
    import wire

    fw = fwtest.firmware(fwtest.board([channel(0, colour=True)]))
    hal = fw.hal
    hal.realtime = True
    fw.step()
    t = hal.now + 50000
    feed(fw, [{"t_us": t - 1000, "ch": 0, "colour": 1}, {"t_us": t, "ch": 0, "level": 1},
              {"t_us": t + 30000, "ch": 0, "level": 0}, {"t_us": t + 31000, "ch": 0, "colour": 0}])
    hal.offset += 250000  # the process was stopped while all of it came due
    for _ in range(400):
        if not fw.step():
            break
    got = fwtest.sent(fw)
    (r,) = events(got, wire.READING)
    eq(r["b"], 1, "the ball's class, read while it was under the sensor")
    if not t + 2000 <= r["t"] <= t + 4000:
        raise AssertionError("read at %d, the edge at %d" % (r["t"], t))
    eq([e["b"] & 1 for e in events(got)], [1, 0], "the beam's two edges")


if __name__ == "__main__":
    fwtest.run(fwtest.tests_of(globals()))
