# Virtual HAL for MicroPython's unix port: pins driven by the TABLESENSE_EDGES feed,
# a settable virtual clock, and a model of the ESP32 soft-IRQ scheduler.
#
# Feed (JSON lines, a regular file appended to while the firmware runs):
#   {"t_us": 1234, "ch": 3, "level": 1}   channel 3 becomes ACTIVE at virtual time 1234
#   {"t_us": 1250, "ch": 0, "colour": 2}  the colour sensor of channel 0 reads class 2
#   {"t_us": 2000, "ch": 9, "pulses": 5}  5 pulses on a pulse-counter channel
#   {"clock_us": 1073741000}              jump the virtual clock (forward; long jumps are
#                                         taken in steps of 2**29 us, one per main-loop pass)
# Environment: TABLESENSE_EDGES (feed path), TABLESENSE_REALTIME ("0": play the feed
# as fast as the main loop drains it; default "1": at its own pace),
# TABLESENSE_SCHED_US (virtual time one scheduled callback takes, default 20),
# TABLESENSE_BOARD (board config), TABLESENSE_PROFILES (directory of <id>.json).
import json
import os
import sys
import time

from micropython import const

MASK = const(0x3FFFFFFF)
DEPTH = const(8)  # MICROPY_SCHEDULER_DEPTH of the ESP32 port
_WINDOW_US = const(1000)  # virtual time one main-loop pass covers when not realtime
_FOREVER = const(1 << 60)
_STEP_US = const(1 << 29)  # longest clock jump in one main-loop pass
_SKIP_US = const(100000)  # not realtime: quiet time kept before an edge after a long gap
_MAX_PER_PASS = const(64)  # feed items one pass applies at most (the ring holds 255)


def _env(name, default):
    v = os.getenv(name)
    return default if v is None or v == "" else v


class VirtualPin:
    def __init__(self, hal, ch, active):
        self.hal = hal
        self.ch = ch
        self.active = active
        self.level = 1 - active  # electrical level; idle at boot
        self.handler = None
        self.captured = 0

    def value(self):
        return self.level


class Scheduler:
    """Model of MicroPython's scheduler on the ESP32: the C ISR queues the handler
    with its Pin (DEPTH slots); a full queue drops the edge silently. Callbacks run in
    order, each taking sched_us of virtual time; the handler reads the clock then."""

    def __init__(self, hal, sched_us):
        self.hal = hal
        self.sched_us = sched_us
        self.pins = [None] * DEPTH
        self.due = [0] * DEPTH
        self.head = 0
        self.n = 0
        self.last_due = 0
        self.dropped = 0  # seen only by tests: the firmware must find drops itself

    def enqueue(self, pin, t):
        if self.n == DEPTH:
            self.dropped += 1
            return
        i = (self.head + self.n) % DEPTH
        d = max(t, self.last_due) + self.sched_us
        self.last_due = d
        self.pins[i] = pin
        self.due[i] = d
        self.n += 1

    def run_until(self, t):
        """Run every queued callback due by virtual time t. Does not allocate."""
        hal = self.hal
        while self.n and self.due[self.head] <= t:
            i = self.head
            pin = self.pins[i]
            self.pins[i] = None
            self.head = (i + 1) % DEPTH
            self.n -= 1
            d = self.due[i]
            if d > hal.now:
                hal.now = d
            if pin.handler is not None:
                hal.cb_now = d  # the callback reads the clock when it runs on the board
                pin.handler(pin)
                hal.cb_now = -1


class Counter:
    def __init__(self, hal, ch):
        self.hal = hal
        self.ch = ch

    def take(self):
        n = self.hal.pulses.get(self.ch, 0)
        self.hal.pulses[self.ch] = 0
        return n


class Capture:
    """The unix port's 'capture unit': the exact virtual time of the pin's last edge."""

    def __init__(self, pin):
        self.pin = pin

    def ticks(self):
        return self.pin.captured


class Hal:
    name = "virtual"

    def __init__(self):
        self.realtime = _env("TABLESENSE_REALTIME", "1") != "0"
        self.sched = Scheduler(self, int(_env("TABLESENSE_SCHED_US", "20")))
        self.feed_path = _env("TABLESENSE_EDGES", None)
        self.board_path = _env("TABLESENSE_BOARD", "board.json")
        d = self.board_path.rsplit("/", 1)[0] if "/" in self.board_path else "."
        self.profile_dir = _env("TABLESENSE_PROFILES", d)
        self._wall0 = time.ticks_us()
        self.offset = 0
        self.now = 0
        self.cb_now = -1
        self.pins = {}
        self.colours = {}
        self.pulses = {}
        self._feed = None
        self._part = b""
        self._items = []
        self._next = 0
        self.bad_feed = 0

    # -- clock -------------------------------------------------------------------
    def ticks_us(self):
        """The 30-bit tick counter (time.ticks_us() on the ESP32). Does not allocate.
        Inside a callback: the time it runs at in the scheduler model, even when the
        unix port applies the feed late (a slow main-loop pass)."""
        t = self.cb_now
        if t < 0:
            t = self.now
        return t & MASK

    def _wall(self):
        return time.ticks_diff(time.ticks_us(), self._wall0) + self.offset

    def set_clock(self, t):
        self.sched.run_until(_FOREVER)
        self.offset += t - self._wall()
        self.now = t
        self.sched.last_due = t

    # -- pins ----------------------------------------------------------------------
    def reset(self):
        for p in self.pins.values():
            p.handler = None
        self.pins = {}

    def pin(self, c):
        p = VirtualPin(self, c.ch, c.active)
        self.pins[c.ch] = p
        return p

    def irq(self, pin, c, handler):
        pin.handler = handler

    def capture(self, pin, c):
        return Capture(pin)

    def counter(self, pin, c):
        return Counter(self, c.ch)

    def colour(self, ch):
        return self.colours.get(ch, 0)

    def profile_path(self, pid):
        return self.profile_dir + "/" + pid + ".json"

    # -- the feed ------------------------------------------------------------------
    def _read_feed(self):
        if self.feed_path is None:
            return
        if self._feed is None:
            try:
                self._feed = open(self.feed_path, "rb")
            except OSError:
                return
        data = self._feed.read(8192)
        if not data:
            return
        data = self._part + data
        lines = data.split(b"\n")
        self._part = lines.pop()
        if self._next:
            self._items = self._items[self._next :]
            self._next = 0
        for line in lines:
            line = line.strip()
            if not line:
                continue
            try:
                item = json.loads(line)
                if not isinstance(item, dict):
                    raise ValueError
            except ValueError:
                self._bad(line[:80], "not a JSON object")
                continue
            self._items.append(item)

    def _bad(self, what, why):
        self.bad_feed += 1
        sys.stderr.write("feed: bad line ignored (%s): %r\n" % (why, what))

    def _peek(self):
        if self._next >= len(self._items):
            self._items = []
            self._next = 0
            self._read_feed()
            if not self._items:
                return None
        return self._items[self._next]

    def _apply(self, item, t):
        ch = item.get("ch")
        if "level" in item:
            p = self.pins.get(ch)
            if p is None:
                self._bad(item, "no channel %r on this board" % (ch,))
                return
            lev = (1 if item["level"] else 0) ^ (1 - p.active)
            if lev == p.level:
                return
            p.level = lev
            p.captured = t & MASK
            if p.handler is not None:
                self.sched.enqueue(p, t)
        elif "colour" in item:
            self.colours[ch] = int(item["colour"])
        elif "pulses" in item:
            self.pulses[ch] = self.pulses.get(ch, 0) + int(item["pulses"])
        else:
            self._bad(item, "needs level, colour, pulses or clock_us")

    def _advance(self, t):
        if t > self.now:
            self.offset += t - self.now
            self.now = t

    def service(self, busy=False):
        """Apply the feed up to the virtual now (realtime), or the next millisecond of
        it (not realtime: each main-loop pass is one millisecond of virtual time; a gap
        over 100 ms is skipped down to 100 ms). Runs the scheduler as time passes.
        busy: the serial output is backed up; not realtime, the virtual table then
        waits for the host (realtime, it does not). Returns True if more is ready."""
        end = _FOREVER
        item = self._peek()
        if busy and not self.realtime and item is not None:
            return False
        if self.realtime or item is None:
            # the clock follows the wall clock; not realtime, only while the feed is
            # empty: a slow pass must not squeeze more than a millisecond of edges in
            w = self._wall()
            if w > self.now:
                self.now = w
        if not self.realtime:
            if item is not None and "clock_us" not in item:
                try:
                    t = int(item.get("t_us", self.now))
                except (TypeError, ValueError):
                    t = self.now
                if t - self.now > _SKIP_US:
                    self.sched.run_until(_FOREVER)
                    self._advance(t - _SKIP_US)
                # one millisecond of the feed per pass, also when it is behind the clock
                end = min(self.now, t) + _WINDOW_US
            else:
                end = self.now + _WINDOW_US
        n = 0
        while True:
            item = self._peek()
            if item is None:
                break
            if "clock_us" in item:
                if n:
                    break  # let the main loop drain what came before the jump
                try:
                    target = int(item["clock_us"])
                except (TypeError, ValueError):
                    target = -1
                if target < self.now:
                    self._bad(item, "clock_us must be a time after the current %d" % self.now)
                    self._next += 1
                    continue
                if target - self.now > _STEP_US:
                    self.set_clock(self.now + _STEP_US)  # the main loop sees every 2**29 us
                else:
                    self.set_clock(target)
                    self._next += 1
                return True
            try:
                t = int(item.get("t_us", self.now))
            except (TypeError, ValueError):
                self._bad(item, "t_us must be an integer")
                self._next += 1
                continue
            if t > (self.now if self.realtime else end) or n == _MAX_PER_PASS:
                break
            self.sched.run_until(t)
            self._advance(t)
            self._next += 1
            n += 1
            try:
                self._apply(item, t)
            except (TypeError, ValueError, KeyError):
                self._bad(item, "bad value")
        if self.realtime:
            self.sched.run_until(self.now)
            return n == _MAX_PER_PASS  # behind (a slow pass): catch up without sleeping
        more = self._peek() is not None
        self.sched.run_until(end)
        if more:
            self._advance(end)
        return more
