# Virtual HAL for MicroPython's unix port: pins driven by the TABLESENSE_EDGES feed,
# a settable virtual clock, and a model of the ESP32 port where it differs from the
# unix port (read from micropython's ports/esp32, docs/timing.md):
#   - the soft-IRQ scheduler: 8 slots, a full queue drops the edge silently;
#   - stdout: a write spins until every byte is in the UART's 128-byte TX FIFO, which
#     drains at the link's baud rate; whenever the FIFO is full the writer waits one
#     FreeRTOS tick (10 ms, or less if a pin IRQ notifies the task) and no IRQ callback
#     runs meanwhile (ports/esp32/uart.c uart_stdout_tx_strn); it returns the full length;
#   - waits: a wait in select/poll or asyncio ends at the next tick (100 Hz) or at an IRQ
#     (MICROPY_EVENT_POLL_HOOK: ulTaskNotifyTake(pdFALSE, 1)); time.sleep_us is exact
#     and serves callbacks as it waits (mp_hal_delay_us), which is what pause() uses;
#   - garbage collection: when what the firmware allocated fills the board's heap
#     (ESP32 WROOM, no PSRAM: about 100 KB), a collection stops everything for GC_US;
#     callbacks due meanwhile run after it, stamped late; a collection the firmware asks
#     for (hal.collect()) costs the same;
#   - the board around the firmware (class Board below): the ROM's boot text on the
#     UART at every start, ESP-IDF's error log lines until the firmware silences them
#     (esp.osdebug), the pulse counter's driver turning a pin's pull-up on, cables
#     unplugged, machine.reset_cause(), machine.reset(), the task watchdog
#     (machine.WDT), the flash the crash file lives on; and faults the firmware does not
#     expect (an exception raised in the main loop, a stall).
#
# Feed (JSON lines, a regular file appended to while the firmware runs):
#   {"t_us": 1234, "ch": 3, "level": 1}   channel 3 becomes ACTIVE at virtual time 1234
#   {"t_us": 1250, "ch": 0, "colour": 2}  the colour sensor of channel 0 reads class 2
#   {"t_us": 2000, "ch": 9, "pulses": 5}  5 pulses on a pulse-counter channel
#   {"clock_us": 1073741000}              jump the virtual clock (forward; long jumps are
#                                         taken in steps of 2**28 us, one per main-loop pass)
#   {"t_us": 3000, "ch": 9, "plugged": false}  the cable of channel 9 pulled out (true: back)
#   {"t_us": 4000, "fault": "OSError"}    the main loop meets an exception it did not expect
#                                         (OSError, ValueError, MemoryError, RuntimeError)
#   {"t_us": 5000, "hang_us": 6000000}    the main loop stalls that long in C code (callbacks
#                                         held, the watchdog not fed)
# The clock never moves more than 2**28 us (4.5 min) in one main-loop pass, whatever moves
# it (a clock_us jump, a quiet gap of the feed skipped, a process stalled behind the wall
# clock): the firmware's 30-bit tick arithmetic (clock.py, the poller's debounce, the level
# scan) holds for steps under 2**29 us, and a board's main loop passes every millisecond.
# Environment: TABLESENSE_EDGES (feed path), TABLESENSE_REALTIME ("0": play the feed
# as fast as the main loop drains it; default "1": at its own pace),
# TABLESENSE_SCHED_US (virtual time one scheduled callback takes, default 20),
# TABLESENSE_BOARD (board config), TABLESENSE_PROFILES (directory of <id>.json),
# TABLESENSE_BAUD (the link's rate, default 115200), TABLESENSE_GC_US (one collection's
# pause, default 5000), TABLESENSE_HEAP (bytes allocated before a collection, 100000);
# the board around it: TABLESENSE_RESET_CAUSE (machine.reset_cause() of this boot,
# default 1, power-on), TABLESENSE_FLASH (the folder that stands for the board's flash:
# the crash file goes there; unset: none is written), TABLESENSE_SUPERVISED ("1": a
# supervisor boots the firmware again after machine.reset() or the watchdog, told by the
# exit code, RESET_EXIT or WATCHDOG_EXIT; else the process ends with 1), TABLESENSE_RTC
# (the file that stands for RTC memory, kept across resets; unset: kept by the Board object).
import gc
import json
import os
import select
import sys
import time

from micropython import const

from colour import ColourSensors
from colour_virtual import VirtualColourBus
from wire import copy

MASK = const(0x3FFFFFFF)
DEPTH = const(8)  # MICROPY_SCHEDULER_DEPTH of the ESP32 port
_WINDOW_US = const(1000)  # virtual time one main-loop pass covers when not realtime
_LATE_US = const(5000)  # realtime: a pass this late behind the wall clock plays the feed paced
_FOREVER = const(1 << 60)
_STEP_US = const(1 << 28)  # longest clock move in one main-loop pass (half the half-wrap)
_SKIP_US = const(100000)  # not realtime: quiet time kept after the last edge and before the next
_MAX_PER_PASS = const(64)  # feed items one pass applies at most (the ring holds 255)
TICK_US = const(10000)  # FreeRTOS tick of the ESP32 port (CONFIG_FREERTOS_HZ=100)
FIFO = const(128)  # the UART's TX FIFO (SOC_UART_FIFO_LEN)
PAUSE_US = const(1000)  # the main loop's idle pause (time.sleep_us on the board)
NO_GC = const(1 << 60)  # heap: never collect (the firmware's unit tests, whose harness allocates)
_SAMPLE = const(32)  # passes per allocation sample of the GC model
_PTY_WAIT_MS = const(200)  # not realtime: how long a full pty may hold the UART back
RESET_EXIT = const(75)  # exit code: machine.reset() (the supervisor boots it again, cause 2)
WATCHDOG_EXIT = const(76)  # exit code: the task watchdog reset the board (cause 3)
RTC_MAX = const(2048)  # RTC user memory on the ESP32 (MICROPY_HW_RTC_USER_MEM_MAX)
INTERRUPT_EXIT = const(130)  # exit code: Ctrl-C stopped the firmware (the REPL comes next)
INPUT_ONLY = (34, 35, 36, 37, 38, 39)  # GPIO34-39: input-only pads, no internal pulls
# What the ESP32's ROM prints on UART0 at every reset (boot mode, then the second stage
# loader's segments), before MicroPython runs: nothing in the firmware can silence it.
_ROM = (
    "ets Jul 29 2019 12:21:46\r\n\r\nrst:%s,boot:0x13 (SPI_FAST_FLASH_BOOT)\r\n"
    "configsip: 0, SPIWP:0xee\r\nclk_drv:0x00,q_drv:0x00,d_drv:0x00,cs0_drv:0x00,hd_drv:0x00,wp_drv:0x00\r\n"
    "mode:DIO, clock div:2\r\nload:0x3fff0030,len:4728\r\nload:0x40078000,len:14888\r\n"
    "load:0x40080400,len:3368\r\nentry 0x400805cc\r\n"
)
_ROM_CAUSE = {1: "0x1 (POWERON_RESET)", 2: "0xc (SW_CPU_RESET)", 3: "0xc (SW_CPU_RESET)",
              5: "0xc (SW_CPU_RESET)"}
_FAULTS = {"OSError": OSError, "ValueError": ValueError, "MemoryError": MemoryError,
           "RuntimeError": RuntimeError}


def _env(name, default):
    v = os.getenv(name)
    return default if v is None or v == "" else v


class VirtualPin:
    """A GPIO with its sensor's cable. level: what the sensor drives; unplugged, the pin
    reads what the resistors make of it: the board's own (4.7 kOhm to 3V3 on channels
    with pull "up", else 100 kOhm to GND, hardware/sensors.md) against the chip's internal
    pull (about 45 kOhm): an internal pull-up beats the 100 kOhm to GND (2.3 V: high)."""

    def __init__(self, hal, ch, active, gpio=-1, board_up=False):
        self.hal = hal
        self.ch = ch
        self.active = active
        self.level = 1 - active  # electrical level; idle at boot
        self.handler = None
        self.captured = 0
        self.gpio = gpio
        self.board_up = board_up  # the board's own pull-up resistor on this line
        self.pull = None  # the chip's internal pull: None, "up" or "down"
        self.plugged = True

    def value(self):
        if self.plugged:
            return self.level
        return 1 if self.board_up or self.pull == "up" else 0


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
        self.held = 0  # callbacks wait for this virtual time (the CPU is in C code)
        self.dropped = 0  # seen only by tests: the firmware must find drops itself
        self.edge = [0] * DEPTH  # each queued callback's edge time
        self.worst_us = 0  # seen only by benchmarks: the longest a callback ran after its edge

    def enqueue(self, pin, t):
        if self.n == DEPTH:
            self.dropped += 1
            return
        i = (self.head + self.n) % DEPTH
        d = max(t, self.last_due) + self.sched_us
        self.last_due = d
        self.pins[i] = pin
        self.due[i] = d
        self.edge[i] = t
        self.n += 1

    def hold(self, t):
        """The CPU is inside C code until t: a callback cannot start before it."""
        if t > self.held:
            self.held = t

    def release(self, t):
        """The C code returned at t: the callbacks it held run from t on, one after another."""
        d = t
        for k in range(self.n):
            i = (self.head + k) % DEPTH
            if self.due[i] < d + self.sched_us:
                self.due[i] = d + self.sched_us
            d = self.due[i]
        if self.n and d > self.last_due:  # (with none held, edges behind the clock keep their times)
            self.last_due = d
        self.held = 0

    def run_until(self, t):
        """Run every queued callback due by virtual time t. Does not allocate."""
        hal = self.hal
        if self.held:
            if t < self.held:
                return
            self.release(self.held)
        while self.n and self.due[self.head] <= t:
            i = self.head
            pin = self.pins[i]
            self.pins[i] = None
            self.head = (i + 1) % DEPTH
            self.n -= 1
            d = self.due[i]
            if d - self.edge[i] > self.worst_us:
                self.worst_us = d - self.edge[i]
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
        if n:
            self.hal.pulses[self.ch] = 0
        return n


class Capture:
    """The unix port's 'capture unit': the exact virtual time of the pin's last edge."""

    def __init__(self, pin):
        self.pin = pin

    def ticks(self):
        return self.pin.captured


class VirtualUart:
    """The REPL UART as the ESP32 port drives it: write() blocks until every byte is in
    the 128-byte TX FIFO, which drains at baud/10 bytes a second of virtual time; while
    it is full the writer waits a tick (or until a pin IRQ) with no callback run; it
    returns the full length. room() is what a write can take now without blocking.
    The bytes go on to dev (the pty); one that refuses them is a USB bridge with no
    reader: they are lost (realtime), or, not realtime, the line waits for the host."""

    def __init__(self, hal, dev, baud):
        self.hal = hal
        self.dev = dev
        self.baud = baud
        self.level = 0  # bytes in the FIFO at virtual time self.at
        self.at = 0
        self.lost = 0  # bytes the pty would not take
        self.blocked_us = 0  # virtual time writers spent blocked (the stall a write caused)
        self._poll = None

    def room(self):
        """Free bytes in the FIFO now. Does not allocate."""
        now = self.hal.now
        if self.level == 0:
            self.at = now
            return FIFO
        gone = (now - self.at) * self.baud // 10000000
        if gone >= self.level:
            self.level = 0
            self.at = now
        elif gone > 0:
            self.level -= gone
            self.at += gone * 10000000 // self.baud
        return FIFO - self.level

    def write(self, buf, off=0, n=-1):
        if n < 0:
            n = len(buf) - off
        done = 0
        while True:
            room = self.room()
            k = n - done if n - done <= room else room
            if k > 0:
                self._out(buf, off + done, k)
                self.level += k
                done += k
            if done >= n:
                return n
            t0 = self.hal.now
            self.hal.block_tick()  # FIFO full: ulTaskNotifyTake(pdFALSE, 1), no callbacks
            self.blocked_us += self.hal.now - t0

    def _out(self, buf, off, n):
        dev = self.dev
        while n > 0:
            try:
                r = dev.write(buf, off, n)
            except OSError:
                r = None
            if r:
                off += r
                n -= r
                continue
            if self.hal.realtime or not self._wait_writable():
                self.lost += n
                return

    def _wait_writable(self):
        if self._poll is None:
            self._poll = select.poll()
            self._poll.register(self.dev, select.POLLOUT)
        return bool(self._poll.poll(_PTY_WAIT_MS))


class Board:
    """The ESP32 around the firmware, where the unix port has nothing of its own: what
    the tests of a board that recovers by itself need (docs/firmware.md). Modelled:
      - the ROM's boot text on UART0 at every start (rst: the reset cause);
      - ESP-IDF's log at its boot level (errors) until esp.osdebug(0, esp.LOG_NONE):
        the pulse counter's driver on an input-only pin logs "GPIO number error"; the
        line goes out on the UART, in the binary stream;
      - the pulse counter's driver turning the pin's internal pull-up on (GPIO34-39 have
        none); Pin.init(pull=...) setting it as asked;
      - machine.reset_cause() (TABLESENSE_RESET_CAUSE), machine.reset() (the process
        ends with RESET_EXIT for a supervisor to boot it again, cause 2);
      - machine.WDT: started with a timeout, fed by the main loop; it fires when the
        loop has not fed it for that long: realtime on a supervised board, on the wall
        clock between feeds (a process the machine held back that long: a board's loop
        stuck); always, when a modelled stall ("hang_us") is at least the timeout. Firing writes
        the panic's log line and ends the process with WATCHDOG_EXIT (cause 3). Not
        modelled: the timer interrupting a stall half way (the process ends at its end);
      - the flash: TABLESENSE_FLASH, a folder (the crash file goes there);
      - RTC memory (machine.RTC().memory(), rtc_record.py): TABLESENSE_RTC, a file that
        stands for it, which whoever plays the board keeps across its resets (a process
        SIGKILLed and started again) and removes at a power-off; unset, this Board object
        holds it (a test that boots a second Firmware on the same Hal: a reset)."""

    def __init__(self, hal):
        self.hal = hal
        self.cause = int(_env("TABLESENSE_RESET_CAUSE", "1"))
        self.flash = _env("TABLESENSE_FLASH", None)
        self.supervised = _env("TABLESENSE_SUPERVISED", "0") == "1"
        self.os_log = True  # ESP-IDF logs errors until the firmware says otherwise
        self.wdt_us = 0  # 0: no watchdog started
        self.fed_wall = 0
        self.fault = None
        self.hang_us = 0
        self.logged = 0  # log lines written on the UART
        self.rtc_path = _env("TABLESENSE_RTC", None)
        self.rtc_file = None  # the file, open once the firmware first writes it
        self.rtc = bytearray(RTC_MAX)  # without a file: RTC memory here
        self.rtc_len = 0

    def _write(self, text):
        self.hal.out.write(text.encode())

    def rtc_read(self):
        """What RTC memory holds (at boot): b"" when nothing was kept (a power-on)."""
        if self.rtc_path is None:
            return bytes(self.rtc[: self.rtc_len])
        try:
            with open(self.rtc_path, "rb") as f:
                return f.read(RTC_MAX)
        except OSError:
            return b""

    def rtc_write(self, buf):
        """buf into RTC memory, as RTC.memory(buf): in place, every byte at once (a file
        written with one write; a process killed around it finds the old record or the new).
        Allocates nothing once the file is open (the first write, at boot)."""
        n = len(buf)
        if self.rtc_path is None:
            copy(self.rtc, 0, buf, n)
            self.rtc_len = n
            return
        f = self.rtc_file
        if f is None:
            try:
                f = open(self.rtc_path, "r+b")
            except OSError:
                f = open(self.rtc_path, "w+b")
            self.rtc_file = f
        f.seek(0)
        f.write(buf)

    def rom_text(self):
        self._write(_ROM % _ROM_CAUSE.get(self.cause, "0x1 (POWERON_RESET)"))

    def log(self, tag, text):
        """An ESP-IDF error line (ESP_LOGE), unless the firmware turned the log off."""
        if self.os_log:
            self.logged += 1
            self._write("E (%d) %s: %s\r\n" % (self.hal.now // 1000, tag, text))

    def osdebug_none(self):
        self.os_log = False

    def pullup_en(self, pin):
        """gpio_pullup_en(pin), as ESP-IDF's pulse counter driver calls it."""
        if pin.gpio in INPUT_ONLY:
            self.log("gpio", "gpio_pullup_en(78): GPIO number error (input-only pad has no internal PU)")
        else:
            pin.pull = "up"

    def set_pull(self, pin, pull):
        """Pin.init(pull=...): GPIO34-39 have no pulls to set (and log nothing)."""
        if pin.gpio not in INPUT_ONLY:
            pin.pull = pull

    def wdt_start(self, ms):
        self.wdt_us = ms * 1000
        self.fed_wall = time.ticks_ms()

    def wdt_feed(self):
        self.fed_wall = time.ticks_ms()

    def apply(self, item):
        """A feed line for the board (plugged, fault, hang_us); False if it is none."""
        if "plugged" in item:
            p = self.hal.pins.get(item.get("ch"))
            if p is None:
                raise KeyError("no channel")
            p.plugged = bool(item["plugged"])
        elif "fault" in item:
            self.fault = _FAULTS[item["fault"]]
        elif "hang_us" in item:
            self.hang_us = int(item["hang_us"])
        else:
            return False
        return True

    def after_service(self):
        """The end of the HAL's service(): a stall, the watchdog, a fault."""
        if self.hang_us:
            us = self.hang_us
            self.hang_us = 0
            if self.wdt_us and us >= self.wdt_us:
                self.watchdog_fires()
            hal = self.hal
            hal._block(hal.now + us)  # in C code: callbacks held until it returns
            hal.sched.release(hal.now)
        if self.wdt_us and self.hal.realtime and self.supervised:  # the wall clock since the last feed
            if time.ticks_diff(time.ticks_ms(), self.fed_wall) * 1000 > self.wdt_us:
                self.watchdog_fires()
        if self.fault is not None:
            f = self.fault
            self.fault = None
            raise f(5) if f is OSError else f("fault put in by the feed")

    def watchdog_fires(self):
        t = self.hal.now // 1000
        self.os_log = True  # the panic handler prints whatever the log level
        self.log("task_wdt", "Task watchdog got triggered. The following tasks/users did not reset the "
                 "watchdog in time:")
        self.log("task_wdt", " - mpy_machine_wdt (%d ms)" % t)
        sys.stderr.write("watchdog: not fed for %d ms: the board resets\n" % (self.wdt_us // 1000))
        self.reset(WATCHDOG_EXIT)

    def reset(self, code):
        """The board resets: a supervisor boots it again (told why by the exit code)."""
        sys.exit(code if self.supervised else 1)


class Hal:
    name = "virtual"
    chip = "unix"
    mp_version = "%d.%d.%d" % sys.implementation.version[:3]

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
        self.gc_us = int(_env("TABLESENSE_GC_US", "5000"))
        self.heap = int(_env("TABLESENSE_HEAP", "100000"))
        self.board = Board(self)
        self.rtc_write = self.board.rtc_write  # RTC.memory(buf): bound once, one call a write
        self.colour_bus = VirtualColourBus(lambda: self.now, seed=int(_env("TABLESENSE_COLOUR_SEED", "1")))
        self.colour_bus.spend = self.i2c_busy
        self.colour_sensors = None
        self.follow_wall = True  # not realtime, an empty feed: time goes on with the wall clock
        self._fed_at = 0  # virtual time of the last feed item applied
        self.allocated = 0  # what the firmware allocated since the last (virtual) collection
        self.collections = 0
        self._mem = -1
        self._passes = 0
        dev = getattr(sys.stdout, "buffer", sys.stdout)
        self.out = VirtualUart(self, dev, int(_env("TABLESENSE_BAUD", "115200")))
        if self.board.supervised:  # a modelled board (tests/virtual_board.py): it was just reset
            self.board.rom_text()

    # -- the board around the firmware (class Board) ------------------------------------
    def reset_cause(self):
        return self.board.cause

    @property
    def flash_dir(self):
        return self.board.flash

    def rtc_read(self):
        return self.board.rtc_read()

    def quiet(self):
        self.board.osdebug_none()

    def watchdog(self, ms):
        self.board.wdt_start(ms)

    def feed(self):
        self.board.wdt_feed()

    def interrupted(self, e):
        """Ctrl-C stopped the firmware: on the unix port the process ends (130); a
        supervisor puts MicroPython's REPL on the line next, as the board's would be."""
        sys.print_exception(e, sys.stderr)
        sys.exit(INTERRUPT_EXIT)

    def report(self, e):
        """An uncaught exception: its traceback on stderr (stdout is the serial line)."""
        sys.print_exception(e, sys.stderr)

    def restart(self):
        """machine.reset(): a supervised board boots again (hard reset), else the process ends."""
        self.board.reset(RESET_EXIT)

    def sleep_ms(self, ms):
        time.sleep_ms(ms)

    def collect(self):
        """gc.collect() at a quiet point; the model charges it one collection's pause."""
        gc.collect()
        if self.heap < NO_GC:
            self.allocated = 0
            self.collections += 1
            end = self.now + self.gc_us
            self._block(end)
            self.sched.release(end)

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
        p = VirtualPin(self, c.ch, c.active, c.gpio, c.pull == "up")
        self.board.set_pull(p, c.pull)  # machine.Pin(gpio, Pin.IN, pull)
        self.pins[c.ch] = p
        return p

    def irq(self, pin, c, handler):
        pin.handler = handler

    def capture(self, pin, c):
        return Capture(pin)

    def counter(self, pin, c):
        """The pulse counter on pin. Like ESP-IDF's legacy driver under machine.Counter
        (_pcnt_set_pin calls gpio_pullup_en on the pulse pin), it turns the pin's
        internal pull-up on, or, on GPIO34-39, logs an error line on the UART."""
        self.board.pullup_en(pin)
        return Counter(self, c.ch)

    def pull(self, pin, c):
        """The pin's pull as the profile says: Pin.init(pull=...) after the counter."""
        self.board.set_pull(pin, c.pull)

    def use_colours(self, b):
        """Board b's colour sensors (colour.py's driver) on the register-level model of
        the TCS34725s and their mux; the problems found, one line each. A board without
        an i2c/colour block (a hand-written test board) reads the feed's class as is."""
        self.colour_bus.use_board(b)
        self.colour_sensors = ColourSensors(self.colour_bus, b, self.ticks_us) if b.colour_model else None
        return self.colour_sensors.problems if self.colour_sensors is not None else []

    def colour(self, ch):
        """Ball class under channel ch's sensor (0: unknown). Main loop only."""
        if self.colour_sensors is not None:
            return self.colour_sensors.classify(ch)
        return self.colours.get(ch, 0)

    def profile_path(self, pid):
        return self.profile_dir + "/" + pid + ".json"

    def i2c_busy(self, us):
        """An I2C transaction of us microseconds: C code, the pins' callbacks held until
        it returns (i2c_master_cmd_begin never runs pending callbacks). Does not allocate."""
        end = self.now + us
        self._block(end)
        self.sched.release(end)

    # -- the link ------------------------------------------------------------------
    def tx_room(self):
        """Bytes the UART's TX FIFO takes now without blocking. Does not allocate."""
        return self.out.room()

    def pause(self):
        """The main loop's idle wait: time.sleep_us(PAUSE_US) on the board (exact, serves
        callbacks as it waits). Realtime it waits that long; not realtime a pass already
        is a millisecond of virtual time."""
        time.sleep_us(PAUSE_US)

    def next_tick(self, t):
        """The first FreeRTOS tick after virtual time t."""
        return (t // TICK_US + 1) * TICK_US

    def wait_tick(self):
        """A wait in select/poll or asyncio's sleep_ms on the board: to the next tick, or
        to the next pin edge (its IRQ notifies the task); callbacks then run."""
        end = self._wake(self.next_tick(self.now))
        self._block(end)
        self.sched.release(end)
        self.sched.run_until(self.sched.last_due)  # woken: the pending callbacks run now

    def block_tick(self):
        """Inside the port's C code (the UART write) until the next tick or pin IRQ: edges
        are queued by the ISR, but no callback runs until the C code returns."""
        self._block(self._wake(self.next_tick(self.now)))

    def _wake(self, end):
        """end, or earlier: the time of the next feed edge on a pin with a handler."""
        item = self._peek()
        if item is None or "level" not in item:
            return end
        try:
            t = int(item.get("t_us", end))
        except (TypeError, ValueError):
            return end
        p = self.pins.get(item.get("ch"))
        if p is None or p.handler is None:
            return end
        return t if self.now < t < end else end

    def _block(self, end):
        """Virtual time moves to end with the scheduler held: feed items due meanwhile
        reach the pins (their ISR queues the callback), callbacks wait for release()."""
        if end <= self.now:
            return
        if self.realtime:
            w = self._wall()
            if end > w:
                time.sleep_us(end - w)
        self.sched.hold(end)
        start = self.now
        while True:
            item = self._peek()
            if item is None or "clock_us" in item:
                break
            try:
                t = int(item.get("t_us", self.now))
            except (TypeError, ValueError):
                break
            if t > end or t < start:
                break  # (not realtime, edges behind the clock are the waiting table's)
            self._next += 1
            self._move(t)
            self._fed_at = t
            try:
                self._apply(item, t)
            except (TypeError, ValueError, KeyError):
                self._bad(item, "bad value")
        self._move(end)

    def _move(self, t):
        """Virtual time to t inside a block (no bound method made: allocation-free)."""
        if self.realtime:
            self._forward(t)
        else:
            self._advance(t)

    def _forward(self, t):
        if t > self.now:
            self.now = t

    def _collect_if_due(self):
        """A garbage collection once the firmware's own allocations fill the board's heap:
        gc_us with nothing running, callbacks after it. What the firmware allocates is
        measured over one pass in every _SAMPLE (gc.mem_alloc() walks the heap: too slow
        for every pass), from the end of one service() to the start of the next, so the
        HAL's own feed reading is not counted."""
        if self._mem >= 0:
            m = gc.mem_alloc()
            if m > self._mem:
                self.allocated += (m - self._mem) * _SAMPLE
            self._mem = -1
        if self.allocated >= self.heap:
            self.allocated = 0
            self.collections += 1
            end = self.now + self.gc_us
            self._block(end)
            self.sched.release(end)

    def _sample_heap(self):
        self._passes += 1
        if self._passes >= _SAMPLE and self.heap < NO_GC:
            self._passes = 0
            self._mem = gc.mem_alloc()

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
            if self._items:
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
        elif "colour" in item or "rgb" in item:
            self.colour_bus.feed(ch, item, t)
            if isinstance(item.get("colour"), int):
                self.colours[ch] = item["colour"]
        elif "pulses" in item:
            self.pulses[ch] = self.pulses.get(ch, 0) + int(item["pulses"])
        elif not self.board.apply(item):
            self._bad(item, "needs level, colour, pulses, plugged, fault, hang_us or clock_us")

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
        self._collect_if_due()
        more = self._service(busy)
        self._sample_heap()
        self.board.after_service()
        return more

    def _service(self, busy):
        end = _FOREVER
        due = end
        item = self._peek()
        if busy and not self.realtime and item is not None:
            # the link is backed up: the virtual table waits (its edges come later, at
            # their own times), while the line drains a pass's worth
            self._advance(self.now + _WINDOW_US)
            self.sched.run_until(self.now)
            return False
        behind = False
        w = self.now
        if self.realtime or (item is None and self.follow_wall):
            # the clock follows the wall clock; not realtime, only while the feed is
            # empty: a slow pass must not squeeze more than a millisecond of edges in
            w = self._wall()
            if w > self.now + _STEP_US:  # a process stalled for minutes: catch up by steps
                w = self.now + _STEP_US
                behind = True
        paced = not self.realtime  # a millisecond of the feed per pass
        t = self.now
        if item is not None and "clock_us" not in item:
            try:
                t = int(item.get("t_us", self.now))
            except (TypeError, ValueError):
                t = self.now
            if self.realtime and t <= w and w - self.now > _LATE_US:
                # realtime, and the process ran late (a loaded machine stalled it): the feed
                # due meanwhile is played a millisecond a pass, as a board's main loop sees
                # it (a colour read 2 ms after a beam edge, before the ball has left the
                # sensor 30 ms later), not all at once; the clock catches up without pauses
                paced = behind = True
        if w > self.now and (not paced or item is None):
            self.now = w
        if paced and item is not None and "clock_us" not in item:
            if t - self.now > _SKIP_US and self.now - self._fed_at >= _SKIP_US:
                # a quiet gap, once the main loop has run 100 ms past the last item (its
                # scans, counter reads, colour reads and debounces done at their times)
                self.sched.run_until(_FOREVER)
                if t - _SKIP_US - self.now > _STEP_US:
                    # a quiet gap skipped by steps: the main loop reads the ticks at least
                    # every 2**28 us, as a board's does every millisecond (a gap skipped in
                    # one pass lost the edges around it once it passed 2**29 us, 537 s)
                    self._move(self.now + _STEP_US)
                    return True
                self._move(t - _SKIP_US)
            # one millisecond of the feed per pass, also when it is behind the clock
            end = min(self.now, t) + _WINDOW_US
            due = self.now + _WINDOW_US  # callbacks due by then run in this pass
        else:
            end = self.now + _WINDOW_US
            due = end
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
                    self.set_clock(self.now + _STEP_US)  # the main loop sees every 2**28 us
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
            if t > (end if paced else self.now) or n == _MAX_PER_PASS:
                break
            self.sched.run_until(t)
            self._move(t)
            self._fed_at = t
            self._next += 1
            n += 1
            try:
                self._apply(item, t)
            except (TypeError, ValueError, KeyError):
                self._bad(item, "bad value")
        if not paced:
            self.sched.run_until(self.now)
            return behind or n == _MAX_PER_PASS  # behind (a slow pass): catch up without sleeping
        more = self._peek() is not None
        # callbacks due within this pass run, also when the feed is behind the clock
        # (after a pause held them: a collection, a stall): they move the clock on
        self.sched.run_until(due)
        if self.realtime:
            self._forward(end)
            return True  # still behind the wall clock: the next pass without a pause
        if more:
            self._advance(end)
        return more
