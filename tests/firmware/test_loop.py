# The main loop on the virtual HAL: stamping, debounce, overflow, scheduler drops,
# the 30-bit wrap, colour readings, pulse counts, commands and replay.
import fwtest  # first: puts firmware/ on sys.path
import link
import wire
from fwtest import channel, eq, events, feed, settle


def test_edges_come_out_in_order_with_times():
    fw = fwtest.firmware(fwtest.board([channel(0, "capture"), channel(1, "capture")]))
    feed(
        fw,
        [
            {"t_us": 5000, "ch": 1, "level": 1},
            {"t_us": 5200, "ch": 0, "level": 1},
            {"t_us": 9000, "ch": 1, "level": 0},
            {"t_us": 9001, "ch": 0, "level": 0},
        ],
    )
    ev = events(settle(fw))
    eq(
        [(e["seq"], e["ch"], e["b"], e["t"]) for e in ev],
        [(0, 1, 5, 5000), (1, 0, 5, 5200), (2, 1, 4, 9000), (3, 0, 4, 9001)],
        "events",
    )


def test_irq_time_includes_the_scheduling_delay():
    fw = fwtest.firmware(fwtest.board([channel(0)]), sched_us=35)
    feed(fw, [{"t_us": 1000, "ch": 0, "level": 1}])
    eq(events(settle(fw))[0]["t"], 1035, "irq stamp = edge + scheduling delay")


def test_bouncing_tilt_switch_gives_one_edge_per_change():
    fw = fwtest.firmware(fwtest.board([channel(0, "poll", "pin", debounce_us=3000)]))
    bounce = []
    t = 10000
    for k in range(6):  # contact bounces for 5 ms, 1 ms apart
        bounce.append({"t_us": t + 1000 * k, "ch": 0, "level": 1 - k % 2})
    bounce.append({"t_us": 20000, "ch": 0, "level": 1})
    bounce.append({"t_us": 40000, "ch": 0, "level": 0})
    bounce.append({"t_us": 40500, "ch": 0, "level": 1})  # a 0.5 ms blip: filtered
    bounce.append({"t_us": 41000, "ch": 0, "level": 0})
    feed(fw, bounce)
    ev = events(settle(fw, 200))
    eq([e["b"] for e in ev], [1, 0], "one down, one up")
    if not 20000 <= ev[0]["t"] <= 21000:
        raise AssertionError("down edge at %d, expected the start of the stable run (20000)" % ev[0]["t"])


def test_ring_overflow_is_counted_and_reported():
    fw = fwtest.firmware(fwtest.board([channel(0)]))
    hal = fw.hal
    for k in range(300):  # 300 edges, nobody drains the ring
        hal._apply({"ch": 0, "level": (k + 1) % 2}, 1000 + 100 * k)
        hal.sched.run_until(1000 + 100 * k + 99)
    settle(fw, 2)
    eq(fw.ring.overflows, 300 - 255, "overflows")
    fw.hello()
    h = next(f for f in fwtest.sent(fw) if f["type"] == wire.HELLO)
    eq(h["overflows"], 45, "HELLO reports the overflows")


def test_flood_beyond_the_scheduler_queue_is_reported_late():
    chans = [channel(c) for c in range(16)]
    fw = fwtest.firmware(fwtest.board(chans), sched_us=20)
    feed(fw, [{"t_us": 100000 + c, "ch": c, "level": 1} for c in range(16)])  # 16 edges in 16 us
    frames = settle(fw, 80)
    ev = events(frames)
    eq(fw.hal.sched.dropped, 8, "the model dropped the edges beyond its queue of 8")
    eq(sorted(e["ch"] for e in ev), list(range(16)), "every channel reported once")
    late = [e for e in ev if e["b"] & wire.F_LATE]
    eq(len(late), 8, "the dropped ones come flagged LATE")
    fw.heartbeat()
    hb = next(f for f in fwtest.sent(fw) if f["type"] == wire.HEARTBEAT)
    eq((hb["drops"], hb["late"]), (8, 8), "heartbeat counters")


def test_three_tick_wraps_keep_time_monotonic():
    fw = fwtest.firmware(fwtest.board([channel(0, "capture"), channel(1)]))
    lines = []
    expect = []
    t0 = 0
    for w in range(1, 4):
        jump = w * (1 << 30) - 600  # just before the w-th wrap of the 30-bit counter
        lines.append({"clock_us": jump})
        for k in range(4):
            t = jump + 300 * k  # two edges before the wrap, two after
            lines.append({"t_us": t, "ch": 0, "level": (k + 1) % 2})
            expect.append(t)
        t0 = t
    lines.append({"t_us": t0 + 5000, "ch": 1, "level": 1})
    feed(fw, lines)
    ev = events(settle(fw))
    eq([e["t"] for e in ev if e["ch"] == 0], expect, "exact capture times across 3 wraps")
    times = [e["t"] for e in ev]
    eq(times, sorted(times), "monotonic")
    if not times[-1] > 3 * (1 << 30):
        raise AssertionError("time after three wraps: %d" % times[-1])


def test_colour_reading_follows_the_goal_edge():
    fw = fwtest.firmware(fwtest.board([channel(0, colour=True), channel(1, colour=True)]))
    feed(
        fw,
        [
            {"t_us": 1000, "ch": 0, "level": 1},
            {"t_us": 1250, "ch": 0, "colour": 2},
            {"t_us": 10000, "ch": 1, "level": 1},
        ],
    )
    frames = [f for f in settle(fw, 10) if f["type"] in (wire.EVENT, wire.READING)]
    eq([(f["type"], f["ch"]) for f in frames], [(1, 0), (3, 0), (1, 1), (3, 1)], "event then reading")
    eq(frames[1]["b"], 2, "colour class of ch 0")
    eq(frames[3]["b"], 0, "ch 1 unknown")
    if frames[1]["t"] < 3000:  # 1000 + the 2 ms integration time
        raise AssertionError("colour read before the sensor's integration time")


def test_pulse_counts_saturate_at_255():
    fw = fwtest.firmware(fwtest.board([channel(3, "pcnt", "cushion", active=1)]))
    feed(fw, [{"t_us": 1000, "ch": 3, "pulses": 5}])
    c = events(settle(fw), wire.COUNT)
    eq([(f["ch"], f["b"]) for f in c], [(3, 5)], "count")
    feed(fw, [{"t_us": 100000, "ch": 3, "pulses": 400}])
    eq([f["b"] for f in events(settle(fw), wire.COUNT)], [255], "saturated")


def test_commands_answer_and_bad_ones_get_an_error():
    fw = fwtest.firmware(fwtest.board([channel(0)]))
    for line in (
        b"!ping 4242\n",
        b"!ping x\n",
        b"!bogus\n",
        b"!replay\n",
        b"!hello\r\n",
        b"\n",
        b"!" + b"x" * 200 + b"\n",
        b"!ping \xff\n",
        b"!profile ../etc\n",
    ):
        for c in line:
            fw.feed_byte(c)
    got = [(f["type"], f.get("token", f.get("code"))) for f in fwtest.sent(fw)]
    eq(got, [(6, 4242), (7, 2), (7, 1), (7, 2), (4, None), (7, 2), (7, 2), (7, 2)], "answers")


def test_replay_resends_kept_frames_flagged_and_refuses_gone_ones():
    fw = fwtest.firmware(fwtest.board([channel(0, "capture")]))
    feed(fw, [{"t_us": 1000 + 100 * k, "ch": 0, "level": (k + 1) % 2} for k in range(2100)])
    ev = events(settle(fw))
    eq(len(ev), 2100, "sent")
    fw.command("!replay 2095")
    r = fwtest.sent(fw)
    eq(
        [(f["seq"], f["b"] & wire.F_REPLAY, f["t"]) for f in r],
        [(e["seq"], 8, e["t"]) for e in ev[2095:]],
        "replayed tail",
    )
    fw.command("!replay 10")  # older than the oldest kept: said, and what is kept comes
    r = fwtest.sent(fw)
    oldest = 2100 - link.KEEP
    gone = "replay 10: oldest kept is %d; replaying from it" % oldest
    eq((r[0]["type"], r[0]["code"], r[0]["text"]), (7, 3, gone), "gone")
    eq([f["seq"] for f in r[1:]], list(range(oldest, 2100)), "a partial replay of what is kept")
    eq(all(f["b"] & wire.F_REPLAY for f in r[1:]), True, "flagged")
    fw.command("!replay 2100")  # the next one: nothing missed, nothing sent
    eq(fwtest.sent(fw), [], "nothing to replay")
    fw.command("!replay 3000")
    r = fwtest.sent(fw)
    eq((r[0]["type"], r[0]["code"]), (7, 2), "a seq not sent yet is a bad argument")


class Stingy:
    """A link that takes any part of a write: nothing, a few bytes, a frame and a half."""

    def __init__(self):
        self.data = bytearray()
        self.x = 7

    def write(self, b, off, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        k = min(n, self.x % 61)
        self.data += b[off : off + k]
        return k


def _received(data):
    """The frames a host gets from a stream with torn frames in it (a torn frame has no
    delimiter: its bytes, and those of any torn after it, come before the next whole
    frame, the last 15 bytes of the chunk), and the chunks with torn bytes in them."""
    chunks = bytes(data).split(b"\x00")[:-1]
    frames = [fwtest.decode(c[-15:] + b"\x00")[0] for c in chunks]
    return frames, len([c for c in chunks if len(c) > 15])


def test_a_link_that_takes_any_part_of_a_write_gets_every_frame_once_in_order():
    """Frames are encoded a batch at a time and written at once: whatever part of a write
    the link takes, the frames it took whole come in order, a torn one is counted (and
    the host asks again), the rest go next pass; a replay's frames are flagged REPLAY up
    to the frame that was next when it was asked for, and no further."""
    fw = fwtest.firmware(fwtest.board([channel(0)]))
    line = Stingy()
    fw.out = line
    fw.tx_room = lambda: 512  # up to 32 frames a write
    fw.now()

    def pump():
        for _ in range(10000):
            if not fw.backlog():
                return
            fw.flush()
        raise AssertionError("frames still waiting: %d" % fw.backlog())

    for k in range(300):
        fw.record(wire.EVENT, k % 16, k & 1)
    pump()
    fw.replay(100)
    for k in range(300, 350):  # new events while the replay goes out
        fw.record(wire.EVENT, k % 16, k & 1)
    pump()
    frames, torn = _received(line.data)
    eq(0 < torn <= fw.tx_drops, True, "torn frames counted (%d, %d)" % (torn, fw.tx_drops))
    seqs = [f["seq"] for f in frames]
    live = seqs[: seqs.index(100, 100)] if 100 in seqs[100:] else seqs
    eq(live == sorted(live) and len(set(live)) == len(live), True, "live frames in order, once")
    again = [f for f in frames[len(live):]]
    eq([f["seq"] for f in again] == sorted(f["seq"] for f in again), True, "the replay in order")
    eq(len(live) + len(again) + fw.tx_drops, 300 + 250, "every frame written once, whole or torn")
    eq([f["seq"] for f in again if f["b"] & wire.F_REPLAY] == [f["seq"] for f in again if f["seq"] < 300],
       True, "REPLAY on the frames sent again, not on the new ones")


def test_a_replay_goes_out_a_fifo_at_a_time_and_the_heartbeat_keeps_its_second():
    """2048 frames are 32 KB, 2.8 s at 115200 baud: the replay is sent in slices as the
    UART's FIFO drains, the main loop never blocks in a write, and the heartbeats keep
    coming once a second in between."""
    fw = fwtest.firmware(fwtest.board([channel(0, "capture")]))
    feed(fw, [{"t_us": 1000 + 100 * k, "ch": 0, "level": (k + 1) % 2} for k in range(2048)])
    settle(fw)
    fw.command("!replay 0")
    hal = fw.hal
    t0 = hal.now
    out = []
    for second in range(4):
        for _ in range(1000):  # a second of 1 ms passes (more if the wall clock runs ahead)
            hal.set_clock(hal.now + 1000)
            fw.step()
            fw.flush()
        out += fw.sink.take()
        if second == 0:  # 11,520 bytes a second at 115200 baud: 720 frames (less heartbeats)
            n = len([f for f in out if f["type"] == wire.EVENT])
            want = (hal.now - t0) * 11520 // 16 // 1000000
            if not want * 9 // 10 <= n <= want + 8:  # (+ the 8 frames the empty FIFO took at once)
                raise AssertionError("%d frames replayed in %d us at 115200 baud" % (n, hal.now - t0))
    eq([f["seq"] for f in out if f["type"] == wire.EVENT], list(range(2048)), "all replayed in order")
    eq(hal.out.blocked_us, 0, "no write ever waited for the FIFO")
    hb = [f["uptime"] for f in out if f["type"] == wire.HEARTBEAT]
    if len(hb) < 3:
        raise AssertionError("%d heartbeats in 4 s of replay" % len(hb))
    gaps = [hb[i + 1] - hb[i] for i in range(len(hb) - 1)]
    if max(gaps) > 1020000:
        raise AssertionError("a heartbeat came %d us after the one before" % max(gaps))


def test_profile_switch_loads_the_file_and_says_hello():
    fw = fwtest.firmware(fwtest.board([channel(0)]))
    fw.hal.profile_dir = fwtest.ROOT + "/firmware/boards"
    fw.command("!profile kegle")
    fw.command("!profile nosuch")
    out = fwtest.sent(fw)
    eq((out[0]["type"], out[0]["profile"], out[0]["n"]), (4, "kegle", 16), "hello after the switch")
    eq((out[1]["type"], out[1]["code"]), (7, 4), "missing profile")
    eq(fw.board.profile, "kegle", "the good profile stays")


def test_bad_feed_lines_are_skipped_and_the_rest_is_played():
    fw = fwtest.firmware(fwtest.board([channel(0, "capture")]))
    feed(
        fw,
        [
            {"t_us": 1000, "ch": 0, "level": 1},
            {"t_us": "soon", "ch": 0, "level": 0},
            {"t_us": 1100, "ch": 7, "level": 1},
            {"t_us": 1200, "ch": 0, "colour": "red"},
            {"t_us": 1300, "ch": 0},
            {"clock_us": 5},
            {"t_us": 2000, "ch": 0, "level": 0},
        ],
    )
    with open(fw.feed_path, "a") as f:
        f.write("not json\n[1, 2]\n")
    feed(fw, [{"t_us": 3000, "ch": 0, "level": 1}])
    ev = events(settle(fw))
    eq([(e["b"] & 1, e["t"]) for e in ev], [(1, 1000), (0, 2000), (1, 3000)], "good lines played")
    eq(fw.hal.bad_feed, 7, "bad lines counted")




def test_ctrl_c_from_the_host_is_raised_in_the_main_loop_not_in_a_callback():
    """On the board the port's own Ctrl-C is off while the firmware runs, so 0x03 arrives
    as a byte: the command reader raises KeyboardInterrupt there, in the main loop, where
    main.py lets it reach the REPL (mpremote's Ctrl-C always stops the firmware)."""
    fw = fwtest.firmware(fwtest.board([channel(0)]))
    for c in b"!pi":
        fw.feed_byte(c)
    try:
        fw.feed_byte(3)
    except KeyboardInterrupt:
        return
    raise AssertionError("0x03 did not raise KeyboardInterrupt")


def test_a_heartbeat_during_a_replay_says_how_far_the_frames_sent_reach():
    """HEARTBEAT's settled_us: the stamp of the oldest frame still behind the send
    cursor, so that the host's clock does not run ahead of frames still to come."""
    fw = fwtest.firmware(fwtest.board([channel(0, "capture")]))
    feed(fw, [{"t_us": 100000 + 1000 * k, "ch": 0, "level": (k + 1) % 2} for k in range(300)])
    settle(fw)
    fw.command("!replay 100")  # frame 100 is stamped 200000
    fw.heartbeat()
    fw.flush()
    hb = [f for f in fw.sink.take() if f["type"] == wire.HEARTBEAT][-1]
    eq(hb["settled"], 200000, "the oldest frame not yet sent again")
    if not hb["uptime"] > 300000:
        raise AssertionError("uptime %d" % hb["uptime"])
    fwtest.sent(fw)
    fw.heartbeat()
    hb = [f for f in fwtest.sent(fw) if f["type"] == wire.HEARTBEAT][-1]
    eq(hb["settled"], hb["uptime"], "nothing waiting: settled is now")


fwtest.run(fwtest.tests_of(globals()))
