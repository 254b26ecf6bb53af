# A board that runs a season unattended (recover.py, link.py, the board model of
# hal_virtual.py): the crash file (bounded, rotated, never on a full flash), the reset
# after a crash and not after Ctrl-C, the watchdog fed by the main loop and firing on a
# stall, HELLO's reset cause and crash, nothing but frames on the line (ESP-IDF's log off),
# the profile's pull after the pulse counter, garbage collected at quiet points.
import fwtest  # first: puts firmware/ on sys.path
import os
import sys

import recover
import hal_virtual
import link
import wire
from fwtest import channel, eq, feed, settle

TMP = os.getenv("TMPDIR") or "/tmp"


def _folder():
    tag = "".join("%02x" % b for b in os.urandom(4))
    path = "%s/tablesense-flash-%s" % (TMP, tag)
    os.mkdir(path)
    return path


def _clear(path):
    for name in os.listdir(path):
        os.remove(path + "/" + name)
    os.rmdir(path)


def _read(path):
    with open(path) as f:
        return f.read()


class Board:
    """The HAL as recover.py sees it: reset cause, flash folder, and what it was asked."""

    def __init__(self, folder, cause=1):
        self.flash_dir = folder
        self.cause = cause
        self.calls = []

    def reset_cause(self):
        return self.cause

    def watchdog(self, ms):
        self.calls.append(("watchdog", ms))

    def feed(self):
        self.calls.append("feed")

    def sleep_ms(self, ms):
        self.calls.append(("sleep", ms))

    def interrupted(self, e):
        self.calls.append("interrupted")

    def report(self, e):
        self.calls.append("report")

    def restart(self):
        self.calls.append("restart")


def _boom(kind, text):
    try:
        raise kind(text)
    except Exception as e:
        return e


def test_a_crash_is_written_bounded_then_reported_at_the_next_boot_and_rotated():
    folder = _folder()
    try:
        hal = Board(folder)
        boot = recover.at_boot(hal)  # a power-on: nothing to say, nothing written
        eq((boot.text, os.listdir(folder)), ("", []), "power-on")
        texts = []
        for k, (kind, msg) in enumerate([(ValueError, "unit id 99"), (OSError, "x" * 5000), (MemoryError, "")]):
            q = recover.record(hal, boot, _boom(kind, msg), 100.0 + k, "firmware 0.3.0, profile golf")
            eq(q, 0, "not quick: over 30 s after boot")
            size = os.stat(folder + "/" + recover.NEW)[6]
            if size > recover.TEXT_MAX:
                raise AssertionError("crash file of %d bytes" % size)
            hal.cause = 2  # machine.reset()
            boot = recover.at_boot(hal)
            texts.append(boot.text)
            eq(boot.after_crash, True, "this boot follows a crash")
        eq(texts[0].startswith("#1 crash at 100.0 s: ValueError: unit id 99 (test_recovery.py line "), True, texts[0])
        eq(texts[1].startswith("#2 crash at 101.0 s: OSError: xxx"), True, texts[1])
        eq(texts[2].startswith("#3 crash at 102.0 s: MemoryError"), True, texts[2])
        eq(sorted(os.listdir(folder)), [recover.OLDER, recover.LAST], "two files kept, the new one rotated in")
        eq(_read(folder + "/" + recover.LAST).split("\n")[1], texts[2], "the last crash")
        eq(_read(folder + "/" + recover.OLDER).split("\n")[1], texts[1], "the one before; the first is gone")
        eq("firmware 0.3.0, profile golf" in _read(folder + "/" + recover.LAST), True, "what ran")
        eq("Traceback" in _read(folder + "/" + recover.LAST), True, "the traceback")
        hal.cause = 2  # a reset asked for (mpremote reset) with no crash before it
        eq(recover.at_boot(hal).text, "", "nothing to say")
    finally:
        _clear(folder)


def test_a_watchdog_reset_is_recorded_at_boot_and_numbered_after_the_last_crash():
    folder = _folder()
    try:
        hal = Board(folder)
        recover.record(hal, recover.at_boot(hal), _boom(ValueError, "a"), 50.0)
        hal.cause = 2
        recover.at_boot(hal)
        hal.cause = 3  # machine.WDT_RESET
        boot = recover.at_boot(hal)
        eq(boot.text, "#2 watchdog: the main loop stopped for over 5 s", "watchdog")
        eq(boot.after_crash, False, "not after a crash")
        eq(recover.at_boot(Board(folder, 1)).text, "", "a power-on after it says nothing")
    finally:
        _clear(folder)


def test_no_crash_file_on_a_flash_that_is_nearly_full():
    folder = _folder()
    real = recover._free
    recover._free = lambda f: recover.FREE_MIN - 1
    try:
        hal = Board(folder)
        recover.record(hal, recover.at_boot(hal), _boom(ValueError, "a"), 50.0)
        eq(os.listdir(folder), [], "nothing written into the last 16 KB")
        hal.cause = 3
        eq(recover.at_boot(hal).text, "#1 watchdog: the main loop stopped for over 5 s", "still said in HELLO")
        eq(os.listdir(folder), [], "and still nothing written")
    finally:
        recover._free = real
        _clear(folder)


def test_quick_crashes_in_a_row_wait_longer_before_each_reset():
    folder = _folder()
    try:
        hal = Board(folder)
        boot = recover.at_boot(hal)
        runs = []
        for _ in range(6):
            runs.append(recover.record(hal, boot, _boom(ValueError, "at boot"), 2.5))
            hal.cause = 2
            boot = recover.at_boot(hal)
        eq(runs, [1, 2, 3, 4, 5, 6], "each boot after a crash continues the run")
        eq([recover.pause_s(q) for q in runs], [0, 0, 30, 60, 120, 240], "pauses")
        eq(recover.pause_s(40), recover.PAUSE_MAX_S, "at most 10 min")
        hal.cause = 1  # someone power-cycles it
        boot = recover.at_boot(hal)
        eq(recover.record(hal, boot, _boom(ValueError, "at boot"), 2.5), 1, "a power-on starts a new run")
    finally:
        _clear(folder)


def test_run_resets_after_a_crash_but_not_after_ctrl_c():
    folder = _folder()
    real = link.main
    try:
        hal = Board(folder)

        def crashes(h, boot):
            raise ValueError("channel 40: no such unit")

        link.main = crashes
        recover.run(hal)
        eq(hal.calls, [("watchdog", recover.WDT_MS), "report", "restart"], "recorded, then machine.reset()")
        eq(os.listdir(folder), [recover.NEW], "the crash file")

        def stopped(h, boot):
            raise KeyboardInterrupt

        hal = Board(folder, cause=2)
        link.main = stopped
        try:
            recover.run(hal)
            raise AssertionError("Ctrl-C was swallowed")
        except KeyboardInterrupt:
            pass
        eq(hal.calls, [("watchdog", recover.WDT_MS), "interrupted"], "no reset: the REPL takes over")
        eq(os.listdir(folder), [recover.LAST], "the boot rotated the crash in; Ctrl-C wrote none")
    finally:
        link.main = real
        _clear(folder)


def test_a_run_of_quick_crashes_waits_before_the_reset_feeding_the_watchdog():
    folder = _folder()
    real = link.main
    try:
        def crashes(h, boot):
            raise ValueError("at boot")

        link.main = crashes
        sleeps = []
        for cause in (1, 2, 2):
            hal = Board(folder, cause)
            recover.run(hal)
            sleeps.append(sum(1 for c in hal.calls if c == ("sleep", 100)))
            eq(hal.calls[-1], "restart", "then machine.reset()")
        eq(sleeps, [0, 0, recover.PAUSE_S * 10], "the third quick crash in a row waits 30 s")
        feeds = sum(1 for c in hal.calls if c == "feed")
        eq(feeds, recover.PAUSE_S * 10, "fed every 100 ms meanwhile: the watchdog does not bite")
    finally:
        link.main = real
        _clear(folder)


def test_hello_says_what_started_this_boot_and_the_crash_before_it():
    b = fwtest.board([channel(0)])
    boot = recover.Boot(2)
    boot.text = "#3 crash at 12.0 s: OSError: [Errno 5] EIO (hal_virtual.py line 1, in x)"
    hal = hal_virtual.Hal()
    hal.realtime = False
    hal.out.dev = fwtest.Sink()
    fw = link.Firmware(hal, inp=None, boot=boot)
    fw.sink = hal.out.dev
    fw.use_board(b)
    fw.hello()
    (h,) = fwtest.sent(fw)
    eq((h["reset"], h["crash"], h["fw"]), (2, boot.text, link.FW_VERSION), "HELLO")


def _stamp_board():
    chans = [channel(0), channel(1, "pcnt", "motion", active=1), channel(2, "pcnt", "cushion", active=1)]
    chans[1]["gpio"] = 16  # has an internal pull-up (kegle's motion)
    chans[1]["pull"] = None
    chans[2]["gpio"] = 35  # input-only, no pulls (carom's cushions)
    chans[2]["pull"] = None
    return fwtest.board(chans)


def test_the_profiles_pull_stands_after_the_pulse_counter_turned_its_pull_up_on():
    fw = fwtest.firmware(_stamp_board())
    hal = fw.hal
    eq((hal.pins[1].pull, hal.pins[2].pull), (None, None), "no internal pull, as the profile says")
    p = hal_virtual.VirtualPin(hal, 9, 1, 16, False)
    hal.board.pullup_en(p)
    eq(p.pull, "up", "the model's driver does turn it on: link.use_board must turn it off again")
    for ch in (1, 2):  # the cables pulled out: the 100 kOhm to GND reads idle
        hal.pins[ch].plugged = False
    fw.hello()
    (h,) = fwtest.sent(fw)
    eq(h["levels"] & 0b110, 0, "unplugged counters read idle, not ACTIVE")


def test_nothing_but_frames_on_the_line_with_counters_on_input_only_pins():
    fw = fwtest.firmware(_stamp_board())  # link.Firmware silenced ESP-IDF's log first
    fw.hello()
    got = fwtest.sent(fw)  # fwtest.decode raises on any byte that is not a frame
    eq([f["type"] for f in got], [wire.HELLO], "one HELLO, no log line")
    eq(fw.hal.board.logged, 0, "no log line written")
    # without the firmware silencing it, the model's driver logs on the line
    hal = hal_virtual.Hal()
    hal.out.dev = fwtest.Sink()
    hal.counter(hal.pin(boardcfg_channel(35)), boardcfg_channel(35))
    eq(b"GPIO number error (input-only pad has no internal PU)" in bytes(hal.out.dev.data), True, "logged")


def boardcfg_channel(gpio):
    from board import Channel

    return Channel({"ch": 3, "name": "c", "kind": "cushion", "gpio": gpio, "active": 1, "mode": "pcnt",
                    "pull": None}, 0)


def test_the_main_loop_feeds_the_watchdog_every_100_ms():
    fw = fwtest.firmware(fwtest.board([channel(0)]))
    fed = []
    fw.feed = lambda: fed.append(fw.hal.now)
    for _ in range(1000):  # a second of 1 ms passes
        fw.hal.now += 1000
        fw.step()
    if not 9 <= len(fed) <= 11:
        raise AssertionError("fed %d times in a second" % len(fed))


def test_the_modelled_watchdog_fires_on_a_stall_at_least_its_timeout():
    for hang, supervised, code in ((4000000, True, None), (6000000, True, hal_virtual.WATCHDOG_EXIT),
                                   (6000000, False, 1)):
        fw = fwtest.firmware(fwtest.board([channel(0)]))
        hal = fw.hal
        hal.board.supervised = supervised
        hal.board.wdt_start(recover.WDT_MS)
        feed(fw, [{"t_us": 5000, "hang_us": hang}])
        got = None
        try:
            for _ in range(20):
                fw.step()
        except SystemExit as e:
            got = e.args[0] if e.args else 0
        eq(got, code, "a stall of %d us" % hang)
        if code is None:
            eq(hal.now >= 5000 + hang, True, "the stall took its time, callbacks held")


def test_garbage_is_collected_after_set_up_and_after_a_command_once_the_table_is_quiet():
    fw = fwtest.firmware(fwtest.board([channel(0)]))
    hal = fw.hal
    n = [0]

    def collect():
        n[0] += 1

    fw.collect = collect
    fw.use_board(fwtest.board([channel(0)]))
    eq(n[0], 1, "after set-up")
    for c in b"!hello\n":
        fw.feed_byte(c)
    eq(n[0], 1, "not in the middle of the command")
    t0 = hal.now
    feed(fw, [{"t_us": t0 + 50000 * k, "ch": 0, "level": k % 2} for k in range(1, 11)])  # edges every 50 ms
    while hal.now < t0 + 520000:  # passes a millisecond or so apart
        hal.set_clock(hal.now + 1000)
        fw.step()
        fw.flush()
    eq(fw.next_seq, 10, "the edges came")
    eq(n[0], 1, "no collection while edges come")
    while hal.now < t0 + 800000:
        hal.set_clock(hal.now + 1000)
        fw.step()
        fw.flush()
    eq(n[0], 2, "one at the quiet point after them")


fwtest.run(fwtest.tests_of(globals()))
