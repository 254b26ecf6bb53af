# What the board does when the firmware ends, and what the next boot says about it. No
# one at the pub can type at a REPL: a board must recover by itself.
#   - the task watchdog (machine.WDT) is started first; the main loop feeds it
#     (link.Firmware.step); a loop stuck in C code for WDT_MS resets the board;
#   - an exception the firmware did not catch is written to a small crash file on the
#     board's flash, then machine.reset(); after QUICK_RUNS crashes in a row each within
#     QUICK_S of boot, the board waits before the reset (PAUSE_S, doubling to
#     PAUSE_MAX_S): a crash at boot cannot wear the flash out;
#   - Ctrl-C (mpremote, a person) is not a crash: the firmware stops at the REPL, the
#     watchdog stretched to an hour;
#   - at the next boot: the crash file is rotated and its one-line summary, or the
#     watchdog's, goes into every HELLO with the reset cause (docs/protocol.md), for the
#     host's incident log and `tablesense doctor`.
# Files, in hal.flash_dir ("/" on the board): crash.new (written at the crash), crash.txt
# (the last one, reported), crash.1.txt (the one before): three of at most TEXT_MAX
# bytes each, and none written while less than FREE_MIN bytes of flash are free.
import gc
import sys

from micropython import const

WDT_MS = const(5000)  # the watchdog's timeout; the main loop feeds it every 100 ms
TEXT_MAX = const(1024)  # bytes of one crash file
FREE_MIN = const(16384)  # flash left free: a crash file never takes the last of it
QUICK_S = const(30)  # a crash this soon after boot is "quick"
QUICK_RUNS = const(3)  # this many quick crashes in a row, then a pause before each reset
PAUSE_S = const(30)
PAUSE_MAX_S = const(600)
WATCHDOG = const(3)  # machine.WDT_RESET
NEW = "crash.new"
LAST = "crash.txt"
OLDER = "crash.1.txt"


class Boot:
    """What this boot knows of the one before: cause (machine.reset_cause()), text (the
    one-line summary of the crash or watchdog reset that ended it; "" none), n (the
    number of the last crash recorded), quick (its run of quick crashes), after_crash
    (this boot is the reset after a crash)."""

    def __init__(self, cause=0):
        self.cause = cause
        self.text = ""
        self.n = 0
        self.quick = 0
        self.after_crash = False


def _path(folder, name):
    return folder + name if folder.endswith("/") else folder + "/" + name


def _exists(path):
    import os

    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _head(path):
    """(n, quick, summary) from a crash file's first two lines; (0, 0, "") if none."""
    try:
        with open(path) as f:
            first = f.readline()
            summary = f.readline().strip()
    except OSError:
        return 0, 0, ""
    parts = first.split()
    try:  # "tablesense crash 7 quick 2"
        return int(parts[2]), int(parts[4]), summary
    except (IndexError, ValueError):
        return 0, 0, ""


def _free(folder):
    import os

    try:
        s = os.statvfs(folder)
    except OSError:
        return 0
    return s[0] * s[4]  # f_bsize * f_bavail


def _rotate(folder, name):
    """name becomes crash.txt, the old crash.txt crash.1.txt."""
    import os

    last = _path(folder, LAST)
    older = _path(folder, OLDER)
    if _exists(last):
        if _exists(older):
            os.remove(older)
        os.rename(last, older)
    os.rename(_path(folder, name), last)


def _write(folder, text):
    """text (cut to TEXT_MAX) into crash.new; False when the flash is too full."""
    if _free(folder) < FREE_MIN:
        return False
    with open(_path(folder, NEW), "w") as f:
        f.write(text[:TEXT_MAX])
    return True


def at_boot(hal):
    """A Boot for this start: the crash file of the boot before rotated and summed up
    (or a watchdog reset recorded); nothing written after a power-on or a reset asked
    for. Never raises."""
    b = Boot(hal.reset_cause())
    folder = hal.flash_dir
    if folder is None:
        return b
    try:
        b.n, b.quick, _ = _head(_path(folder, LAST))
        if _exists(_path(folder, NEW)):
            _rotate(folder, NEW)
            b.after_crash = True
        elif b.cause == WATCHDOG:
            n = b.n + 1
            text = "#%d watchdog: the main loop stopped for over %d s" % (n, WDT_MS // 1000)
            if _write(folder, "tablesense crash %d quick 0\n%s\n" % (n, text)):
                _rotate(folder, NEW)
            else:
                b.text = text
                return b
        else:
            return b
        b.n, b.quick, b.text = _head(_path(folder, LAST))
        if not b.after_crash:
            b.quick = 0
    except OSError:
        pass
    return b


def summary(tb, n, uptime_s):
    """"#7 crash at 5412.3 s: OSError: [Errno 5] EIO (link.py line 287, in counts)" from
    a traceback's text: its last line and its innermost frame."""
    lines = [ln.strip() for ln in tb.split("\n") if ln.strip()]
    what = lines[-1] if lines else "?"
    where = ""
    for ln in lines:
        if ln.startswith("File "):  # File "link.py", line 287, in counts
            p = ln.split(",")
            name = p[0][5:].strip().strip('"')
            if "/" in name:
                name = name.rsplit("/", 1)[1]
            where = " (%s%s)" % (name, ",".join(p[1:]))
    return "#%d crash at %.1f s: %s%s" % (n, uptime_s, what, where)


def record(hal, boot, exc, uptime_s, about=""):
    """Write what ended this boot into crash.new (bounded); returns the run of quick
    crashes this one makes. Never raises."""
    quick = 0
    if uptime_s < QUICK_S:
        quick = boot.quick + 1 if boot.after_crash else 1
    folder = hal.flash_dir
    if folder is None:
        return quick
    try:
        import io

        buf = io.StringIO()
        sys.print_exception(exc, buf)  # pyright: ignore[reportArgumentType]  (a stream: MicroPython's)
        tb = buf.getvalue()  # pyright: ignore[reportAttributeAccessIssue]  (StringIO has it)
        n = boot.n + 1
        _write(folder, "tablesense crash %d quick %d\n%s\n%s\n%s" % (
            n, quick, summary(tb, n, uptime_s), about, tb))
    except Exception:  # a full flash, a MemoryError: the reset matters more
        pass
    return quick


def pause_s(quick):
    """Seconds to wait before the reset after a run of `quick` quick crashes."""
    if quick < QUICK_RUNS:
        return 0
    return min(PAUSE_S << min(quick - QUICK_RUNS, 5), PAUSE_MAX_S)


def run(hal):
    """Start the watchdog, say what ended the last boot, run the firmware; on an
    uncaught exception: the crash file, then machine.reset()."""
    hal.watchdog(WDT_MS)
    boot = at_boot(hal)
    try:
        import link

        link.main(hal, boot)
    except KeyboardInterrupt as e:  # Ctrl-C: mpremote or a person; the REPL takes over
        hal.interrupted(e)
        raise
    except Exception as e:  # anything else: record it and start again
        _crashed(hal, boot, e)


def _crashed(hal, boot, e):
    up = 0.0
    about = ""
    try:
        import link

        up, about = link.last_words()  # the firmware's uptime and what it ran, then let go of it
    except Exception:
        pass
    gc.collect()  # a MemoryError: the firmware's buffers are garbage now
    quick = record(hal, boot, e, up, about)
    hal.report(e)
    wait = pause_s(quick)
    try:
        for _ in range(wait * 10):
            hal.feed()
            hal.sleep_ms(100)
    except KeyboardInterrupt as k:  # Ctrl-C while it waits: stop at the REPL
        hal.interrupted(k)
        raise
    hal.restart()
