# Board config loading and the 30-bit -> 64-bit clock.
import fwtest  # first: puts firmware/ on sys.path
import board
from clock import PERIOD, Clock
from fwtest import channel, eq


def test_shipped_boards_load():
    for pid, n in (("golf", 3), ("kegle", 16), ("carom", 5)):
        b = board.load(fwtest.ROOT + "/firmware/boards/%s.json" % pid)
        eq((b.profile, b.n_channels()), (pid, n), pid)


def _refused(d, words):
    try:
        board.Board(d)
    except board.BoardError as e:
        for w in words:
            if w not in e.args[0]:
                raise AssertionError("message %r lacks %r" % (e.args[0], w)) from None
        return
    raise AssertionError("accepted a bad board: %r" % d)


def test_bad_boards_are_refused_with_the_reason():
    ok = {"profile": "x", "channels": [channel(0)]}
    board.Board(ok)
    _refused({"channels": []}, ["profile"])
    _refused({"profile": "x", "channels": [channel(0, mode="dma")]}, ["channels[0].mode", "dma"])
    _refused({"profile": "x", "channels": [channel(0), channel(0)]}, ["channel 0 given twice"])
    _refused({"profile": "x", "channels": [channel(40)]}, ["channels[0].ch"])
    c = channel(1)
    del c["gpio"]
    _refused({"profile": "x", "channels": [c]}, ["missing 'gpio'"])
    _refused({"profile": "x", "scan_ms": 0, "channels": []}, ["scan_ms"])
    _refused([1, 2], ["JSON object"])


def test_a_board_for_newer_firmware_is_refused():
    b = board.Board({"profile": "x", "fw_min": "0.2.0", "channels": []})
    try:
        board.check_firmware(b, "0.1.9")
    except board.BoardError as e:
        eq(e.args[0], "profile x needs firmware 0.2.0 or newer, this is 0.1.9", "message")
    else:
        raise AssertionError("accepted")
    board.check_firmware(b, "0.2.0")
    board.check_firmware(b, "0.10.0-dev")
    _refused({"profile": "x", "fw_min": "new", "channels": []}, ["fw_min"])


def test_missing_or_broken_file_says_which():
    for path, words in (
        ("/nonexistent/b.json", ["cannot read", "/nonexistent/b.json"]),
        (fwtest.ROOT + "/README.md", ["not valid JSON"]),
    ):
        try:
            board.load(path)
        except board.BoardError as e:
            for w in words:
                if w not in e.args[0]:
                    raise AssertionError("%r lacks %r" % (e.args[0], w)) from None
        else:
            raise AssertionError("loaded %s" % path)


def test_clock_extends_across_many_wraps():
    c = Clock(0)
    t = 0
    last = -1
    step = 300_000_000  # 5 minutes per main-loop pass (the loop runs every ms in reality)
    for _ in range(40):  # 200 minutes: 11 wraps of the 30-bit counter
        t += step
        c.update(t & (PERIOD - 1))
        now = c.hi * PERIOD + c.lo
        eq(now, t, "extended time")
        if now <= last:
            raise AssertionError("not monotonic")
        last = now


def test_stamps_before_and_after_the_reference():
    c = Clock(0)
    c.update((PERIOD - 10) & (PERIOD - 1))
    c.at(PERIOD - 500)  # an edge 490 us before the reference
    eq(c.hi * PERIOD + c.lo, PERIOD - 500, "earlier stamp")
    c.at(20)  # an edge just after the wrap, stamped after the reference was taken
    eq(c.hi * PERIOD + c.lo, PERIOD + 20, "later stamp across the wrap")


fwtest.run(fwtest.tests_of(globals()))
