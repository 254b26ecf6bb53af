# The TCS34725 driver (tcs34725.py), the TCA9548A (tca9548a.py), the classifier
# (classifier.py) and the per-board front-end (colour.py) against the register-level
# model (firmware/colour_virtual.py); the steady-state reads run under
# micropython.heap_lock(), so an allocation fails the test.
import fwtest  # first: puts firmware/ on sys.path
from array import array

import board as boardcfg
import colour
import wire
from classifier import Classifier
from colour_virtual import VirtualColourBus
from tca9548a import Mux
from tcs34725 import TCS34725
from fwtest import locked, channel, eq

RED = [0, 1, 560, 230, 210, 2560, 640, 80]  # ch, class, r, g, b (per mille), clear, min_clear, max_dist
WHITE = [0, 2, 340, 350, 310, 2560, 640, 80]


class Clock:
    def __init__(self):
        self.t = 0

    def now(self):
        return self.t


def no_sleep(us):
    pass


def colour_board(n=2, mux=True, refs=None, cycles=4, gain=16, delay_us=24000):
    chans = []
    for ch in range(n):
        c = channel(ch, colour=True)
        if mux:
            c["mux"] = n - 1 - ch  # ports in the other order: the mapping is the board's
        chans.append(c)
    if refs is None:
        refs = []
        for ch in range(n):
            refs.append([ch] + RED[1:])
            refs.append([ch] + WHITE[1:])
    d = {
        "profile": "test", "colours": ["red", "white"], "channels": chans,
        "i2c": {"sda": 21, "scl": 22, "freq": 100000, "mux": 0x70 if mux else None},
        "colour": {"cycles": cycles, "gain": gain, "delay_us": delay_us, "refs": refs},
    }
    return boardcfg.Board(d)


def setup(b=None, absent=(), seed=1):
    b = b or colour_board()
    clk = Clock()
    bus = VirtualColourBus(clk.now, seed=seed, absent=absent)
    bus.use_board(b)
    cs = colour.ColourSensors(bus, b, clk.now, sleep_us=no_sleep)
    return clk, bus, cs, b


def test_driver_checks_the_id_and_sets_integration_time_and_gain():
    _, bus, cs, _ = setup(colour_board(cycles=10, gain=60))
    eq(cs.problems, [], "both sensors found")
    s = bus.ports[1]  # channel 0 sits on mux port 1
    eq(s.ch, 0, "port 1 is channel 0's")
    eq((s.regs[0x01], s.regs[0x0F], s.regs[0x00]), (256 - 10, 3, 3), "ATIME, CONTROL (60x), ENABLE PON|AEN")
    eq(cs.sensors[0].full, 10240, "ceiling 1024 x cycles")


def test_a_missing_sensor_is_a_clear_oserror_and_its_channel_reads_unknown():
    clk, bus = Clock(), None
    bus = VirtualColourBus(clk.now, absent=(0,))
    b = colour_board()
    bus.use_board(b)
    try:
        TCS34725(bus, mux=Mux(bus), port=0, sleep_us=no_sleep)
        raise AssertionError("no OSError")
    except OSError as e:
        text = e.args[0]
    eq("TCS34725 at 0x29 on mux port 0: no answer" in text, True, text)
    cs = colour.ColourSensors(bus, b, clk.now, sleep_us=no_sleep)
    eq(len(cs.problems), 1, "one problem")
    eq("channel 1 (c1)" in cs.problems[0], True, cs.problems[0])
    clk.t = 100000
    eq(cs.classify(1), 0, "no sensor: unknown")


def test_a_wrong_chip_is_named_by_its_id():
    clk = Clock()
    bus = VirtualColourBus(clk.now)
    bus.use_board(colour_board(1, mux=False))
    bus.single.regs[0x12] = 0x12
    try:
        TCS34725(bus, sleep_us=no_sleep)
        raise AssertionError("no OSError")
    except OSError as e:
        eq("ID register reads 0x12, not 0x44 or 0x4D" in e.args[0], True, e.args[0])


def test_read_fills_the_counts_without_allocating_and_reports_avalid():
    clk, bus, cs, _ = setup()
    s = cs.sensors[0]
    rgbc = array("H", [0] * 4)
    clk.t = 1000  # less than one integration (9.6 ms) since enable
    eq(locked(lambda: s.read(rgbc)), False, "no integration completed yet")
    bus.feed(0, {"colour": 1}, 1000)
    clk.t = 30000
    eq(locked(lambda: s.read(rgbc)), True, "AVALID")
    # red: 40 counts/cycle x 4 cycles x 16 = 2560 clear, within the noise
    if not 2300 < rgbc[0] < 2800 or not rgbc[1] > rgbc[2]:
        raise AssertionError("counts %r" % list(rgbc))
    eq(locked(lambda: cs.classify(0)), 1, "red")
    eq(locked(lambda: cs.classify(1)), 0, "channel 1: nothing under its sensor (dark)")


def test_classifier_nearest_within_distance_else_unknown():
    k = Classifier([RED[1:], WHITE[1:]])
    rgbc = array("H", [2000, 1120, 460, 420])  # exactly red
    eq(locked(lambda: k.classify(rgbc, 4096)), 1, "red")
    rgbc[1], rgbc[2], rgbc[3] = 680, 700, 620
    eq(locked(lambda: k.classify(rgbc, 4096)), 2, "white")
    rgbc[0] = 300
    eq(k.classify(rgbc, 4096), 0, "too dark for both")
    rgbc[0] = 4096
    eq(k.classify(rgbc, 4096), 0, "saturated")
    rgbc[0], rgbc[1], rgbc[2], rgbc[3] = 2000, 900, 580, 520  # between the two, beyond both
    eq(k.classify(rgbc, 4096), 0, "beyond the max distance")
    wide = Classifier([[1, 560, 230, 210, 2560, 100, 300], [2, 340, 350, 310, 2560, 100, 300]])
    eq(wide.classify(rgbc, 4096), 0, "within two classes: ambiguous")
    eq(Classifier([]).classify(rgbc, 4096), 0, "nothing learned")


def test_a_ball_arriving_mid_integration_reads_mixed_then_clean():
    clk, bus, cs, _ = setup()
    bus.feed(0, {"colour": 2}, 0)  # white from the start
    clk.t = 5 * 9600 + 10
    eq(cs.classify(0), 2, "white")
    bus.feed(0, {"colour": 1}, 5 * 9600 + 4800)  # red half way through integration 6
    clk.t = 6 * 9600 + 10
    eq(cs.classify(0), 0, "half white, half red: no ball")
    clk.t = 7 * 9600 + 10
    eq(cs.classify(0), 1, "the next integration is all red")


def test_two_balls_the_dark_chute_and_heavy_noise_read_unknown():
    clk, bus, cs, _ = setup()
    bus.feed(0, {"colour": [1, 2]}, 0)
    bus.feed(1, {"colour": 0}, 0)
    clk.t = 50000
    eq((cs.classify(0), cs.classify(1)), (0, 0), "two balls; empty chute")
    bus.feed(0, {"colour": 1, "noise": 300}, 50000)
    n = 0
    for i in range(20):
        clk.t = 70000 + 9600 * i
        n += cs.classify(0) == 0
    if n < 10:
        raise AssertionError("30%% noise read as a ball %d times of 20" % (20 - n))


def test_noise_is_seeded_and_one_integration_reads_the_same_twice():
    a = []
    for _ in range(2):
        clk, bus, cs, _ = setup(seed=7)
        bus.feed(0, {"colour": 1}, 0)
        rgbc = array("H", [0] * 4)
        clk.t = 30000
        cs.raw(0, rgbc)
        first = list(rgbc)
        clk.t = 30001
        cs.raw(0, rgbc)
        eq(list(rgbc), first, "same integration, same counts")
        a.append(first)
    eq(a[0], a[1], "same seed, same noise")


def test_rgb_feed_and_saturation():
    clk, bus, cs, _ = setup()
    bus.feed(0, {"rgb": [100, 100, 100]}, 0)  # 300 counts/cycle x 64: over the 4096 ceiling
    clk.t = 30000
    rgbc = array("H", [0] * 4)
    st = cs.raw(0, rgbc)
    eq(st & colour.S_SATURATED != 0, True, "saturated")
    eq(rgbc[0], 4096, "clear at the ceiling")
    eq(cs.classify(0), 0, "saturated: unknown")


def test_the_colour_frame_encodes_a_sample_without_allocating():
    clk, bus, cs, _ = setup()
    bus.feed(1, {"colour": 2}, 0)
    clk.t = 30000
    enc = wire.Encoder()
    rgbc = array("H", [0] * 4)
    n = locked(lambda: enc.colour(41, 1, colour.sample(cs, 1, rgbc), rgbc))
    p = fwtest.cobs_decode(bytes(enc.out[: n - 1]))
    eq(len(p), 17, "payload")
    eq(p[0], 0x18, "version 1, type 8")
    eq(p[1] | p[2] << 8 | p[3] << 16, 41, "seq")
    eq((p[4], p[5], p[6]), (1, colour.S_PRESENT | colour.S_VALID, 2), "channel, status, class")
    eq(p[7] | p[8] << 8, rgbc[0], "clear")
    eq(fwtest.crc16(p[:-2]), p[-2] | p[-1] << 8, "crc")


def test_the_mux_port_is_written_only_when_it_changes():
    clk, bus, cs, _ = setup()
    clk.t = 30000
    mux = cs.mux
    rgbc = array("H", [0] * 4)
    n0 = mux.writes
    locked(lambda: cs.raw(0, rgbc))
    locked(lambda: cs.raw(0, rgbc))
    after_two = mux.writes - n0
    t = bus.transactions
    cs.raw(0, rgbc)
    eq(bus.transactions - t, 1, "the same sensor again: one transaction, the burst read")
    cs.raw(1, rgbc)
    cs.raw(1, rgbc)
    eq(mux.writes - n0, after_two + 1, "another sensor: one write of the mux, then none")
    if after_two > 1:
        raise AssertionError("%d mux writes for two reads of one sensor" % after_two)


def _stuck_setup():
    clk, bus, cs, b = setup()

    def spend(us):
        clk.t += us

    bus.spend = spend
    return clk, bus, cs


def test_a_stuck_bus_costs_one_bounded_wait_then_backs_off_instead_of_one_wait_per_read():
    import colour_virtual

    clk, bus, cs = _stuck_setup()
    clk.t = 100000
    eq(cs.classify(0) == 0 or True, True, "a normal read")
    bus.stuck = True  # SDA held low
    t0 = clk.t
    eq(cs.classify(0), 0, "unknown")
    eq(clk.t - t0, colour_virtual.TIMEOUT_US, "one wait, bounded by the driver's timeout")
    eq("did not answer" in cs.news, True, cs.news)
    cs.news = None
    t1 = clk.t
    for ch in (0, 1, 0, 1, 0, 1, 0, 1):  # balls keep coming: every read within the pause is skipped
        eq(locked(lambda: cs.classify(ch)), 0, "unknown while it backs off")
        clk.t += 50000
    eq(clk.t - t1, 8 * 50000, "no time on the bus")
    eq((cs.errors, cs.skipped), (1, 8), "one failure, the rest not tried")
    clk.t = t0 + colour.BACKOFF_US + colour_virtual.TIMEOUT_US + 1  # the pause is over: one try
    eq(cs.classify(0), 0, "still stuck")
    eq((cs.errors, cs.backoff_us), (2, 2 * colour.BACKOFF_US), "the pause doubles")
    eq(cs.news, None, "said once")
    bus.stuck = False
    clk.t += 2 * colour.BACKOFF_US + colour_virtual.TIMEOUT_US
    bus.feed(0, {"colour": 1}, clk.t - 30000)
    eq(cs.classify(0), 1, "the bus answers again: red")
    eq((cs.backoff_us, "answers again" in cs.news), (0, True), "and it is said")


def test_a_stuck_bus_is_one_error_frame_and_balls_read_unknown():
    chans = []
    for ch in range(2):
        c = channel(ch, colour=True)
        c["mux"] = ch
        chans.append(c)
    b = boardcfg.Board({
        "profile": "test", "colours": ["red", "white"], "channels": chans,
        "i2c": {"sda": 21, "scl": 22, "freq": 100000, "mux": 0x70},
        "colour": {"cycles": 4, "gain": 16, "delay_us": 24000, "refs": [[0] + RED[1:], [1] + RED[1:]]},
    })
    fw = fwtest.firmware(b)
    fw.hal.colour_bus.stuck = True
    lines = []
    for k in range(6):  # a ball through each goal, one after the other, 100 ms apart
        t = 100000 + 100000 * k
        lines.append({"t_us": t, "ch": k % 2, "level": 1})
        lines.append({"t_us": t + 40000, "ch": k % 2, "level": 0})
    fwtest.feed(fw, lines)
    frames = fwtest.settle(fw)
    readings = [f for f in frames if f["type"] == wire.READING]
    errors = [f for f in frames if f["type"] == wire.ERROR]
    eq([r["b"] for r in readings], [0] * 6, "every ball unknown: the referee is asked")
    eq(len(errors), 1, "one ERROR for the stuck bus, not one per read")
    eq(errors[0]["code"], 6, "a sensor fault")
    cs = fw.hal.colour_sensors
    eq(cs.errors, 1, "one read tried within the first second")


def test_board_refuses_sensors_that_cannot_share_the_bus():
    def err(fn):
        try:
            fn()
        except boardcfg.BoardError as e:
            return e.args[0]
        return None

    m = err(lambda: colour_board(2, mux=False))
    eq("every TCS34725 answers at 0x29" in m, True, m)
    d = {"profile": "t", "colours": ["red"], "channels": [channel(0, colour=True), channel(1, colour=True)],
         "i2c": {"sda": 21, "scl": 22, "mux": 0x70}, "colour": {}}
    d["channels"][0]["mux"] = 3
    d["channels"][1]["mux"] = 3
    m = err(lambda: boardcfg.Board(d))
    eq(m, "channels: channels 0 and 1 both use mux port 3", "duplicate port")
    d["channels"][1]["mux"] = 4
    d["colour"] = {"gain": 8}
    eq(err(lambda: boardcfg.Board(d)), "colour.gain: must be 1, 4, 16 or 60, got 8", "gain")
    d["colour"] = {"refs": [[0, 2, 500, 300, 200, 1000, 200, 50]]}
    eq(err(lambda: boardcfg.Board(d)), "colour.refs[0]: class 2 is not in colours (1..1)", "class")
    d["colour"] = {"cycles": 6}
    b = boardcfg.Board(d)
    eq((b.colour_cycles, b.colour_gain, b.colour_delay_us, b.i2c_freq), (6, 16, 2 * 6 * 2400 + 4800, 100000),
       "defaults")
    eq(boardcfg.Board({"profile": "t", "channels": []}).colour_model, False, "no colour section")


if __name__ == "__main__":
    fwtest.run(fwtest.tests_of(globals()))
