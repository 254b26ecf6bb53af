# hal_esp32 under the unix port: the MCPWM capture arithmetic through a fake register
# block (a bytearray at a real address), the torn-read cases,
# machine.Counter's real keyword arguments, the version and chip checks, the
# TX FIFO room. Nothing here touches a real ESP32 address.
import fwtest  # first: puts firmware/ on sys.path
import uctypes

import board as boardcfg
from board import Board
import hal_esp32
from fwtest import locked, eq

_WORD = {"v": uctypes.UINT32 | 0}
CLK, VERSION, TIMER_CFG = 0x120, 0x124, 0xE8
CFG0, CAP0 = 0xF0, 0xFC


class Regs:
    """A fake MCPWM register block: 0x128 bytes of RAM at a real address."""

    def __init__(self):
        self.mem = bytearray(0x128)
        self.base = uctypes.addressof(self.mem)

    def __getitem__(self, off):
        return uctypes.struct(self.base + off, _WORD).v

    def __setitem__(self, off, v):
        uctypes.struct(self.base + off, _WORD).v = v & 0xFFFFFFFF


class Clock:
    """ticks_us() stand-in: each call returns the next value, step us later."""

    def __init__(self, t, step=4):
        self.t = t
        self.step = step

    def ticks_us(self):
        t = self.t
        self.t = (t + self.step) & fwtest.MASK30
        return t


def _cap(chan=1, t=1000000):
    r = Regs()
    clk = Clock(t)
    c = hal_esp32.McpwmCapture(0, chan, 5, clk.ticks_us, base=r.base)
    return c, r, clk


def test_setup_writes_the_registers_of_the_header():
    c, r, _ = _cap(chan=1)
    eq(r[CLK], 1, "MCPWM_CLK_REG (0x120) bit0 MCPWM_CLK_EN")
    eq(r[VERSION], 0, "MCPWM_VERSION_REG (0x124) untouched")
    eq(r[TIMER_CFG], 1, "CAP_TIMER_EN")
    eq(r[CFG0 + 4], 0b111, "CAP_CH1_CFG: EN, both edges, prescale 0")
    eq(r[CFG0 + 8], 1, "CAP_CH2_CFG: enabled, no edge (software reference)")
    eq(r[CFG0], 0, "CAP_CH0_CFG untouched")
    c.ticks()
    eq(r[CFG0 + 8], 1 | 1 << 12, "the reference latched by CAP2_SW")
    c.stop()
    eq(r[CFG0 + 4], 0, "stop disables the channel")


def test_stamp_is_now_minus_the_captured_age():
    c, r, _ = _cap(t=5000000)
    r[CAP0 + 8] = 123456789  # the reference channel: the timer when latched
    r[CAP0 + 4] = 123456789 - 80 * 250  # the edge, 250 us earlier
    # the two clock reads around the latch are 5000000 and 5000004: "now" is 5000002
    eq(c.ticks(), 5000002 - 250, "exact to the microsecond")


def test_timer_wrap_and_half_borrow():
    c, r, clk = _cap(t=7)
    r[CAP0 + 8] = 0x00000F00
    r[CAP0 + 4] = 0xFFFFF100  # before the 32-bit timer wrapped: 0x1E00 ticks = 96 us
    eq(c.ticks(), (9 - 96) & fwtest.MASK30, "across the 2**32 wrap, and the 2**30 tick wrap")
    clk.t = 100000
    r[CAP0 + 8] = 0x00020010
    r[CAP0 + 4] = 0x0001FFF0  # low half borrows from the high half: 0x20 ticks
    eq(c.ticks(), 100002 - 0, "0.4 us rounds down to 0")
    r[CAP0 + 4] = 0x0001FFF0 - 80 * 1000
    clk.t = 100000
    eq(c.ticks(), 100002 - 1000, "1 ms across a half boundary")


def test_an_edge_between_the_two_loads_is_never_torn_nor_in_the_future():
    c, r, clk = _cap(t=2000000)
    ref = 0x0001FFF8  # the reference latch reads a timer just under a half boundary
    a = ref - 80 * 100  # edge A, the one this callback is for, 100 us before
    b = 0x00020003  # edge B lands after the latch: the low half wrapped
    r[CAP0 + 8] = ref
    r[CAP0 + 4] = a
    calls = []
    real = c.load

    def load(addr, w, i):
        if i == 1:  # between the reference load and the capture load
            r[CAP0 + 4] = b
        calls.append(i)
        real(addr, w, i)

    c.load = load
    t_a = c.ticks()
    eq(calls, [0, 1], "two loads, one per register")
    eq(t_a, 2000002, "A's callback sees a capture newer than its reference: the soft time")
    # the old two-half read (lo of A, then hi of B) would have made 0x0002xxxx of it:
    # 819 us off. B's own callback, later, stamps B exactly and not before A.
    c.load = real
    clk.t = 2000300
    r[CAP0 + 8] = b + 80 * 280  # B's callback latches 280 us after B
    t_b = c.ticks()
    eq(t_b, 2000302 - 280, "B exact")
    eq(t_b >= t_a, True, "order kept")


def test_a_capture_older_than_13_s_is_not_this_edge():
    c, r, _ = _cap(t=50)
    r[CAP0 + 8] = 0x50000000
    r[CAP0 + 4] = 0x10000000  # 0x40000000 ticks = 13.4 s: a stale register
    eq(c.ticks(), 52, "soft time")


def test_capture_ticks_do_not_allocate():
    c, r, clk = _cap(t=1000)
    r[CAP0 + 8] = 0x7FFFFFF0  # large register values: a plain read would be a big int
    r[CAP0 + 4] = 0x7FFFFFF0 - 80 * 7

    def run():
        s = 0
        for _ in range(20):
            s = c.ticks()
        return s

    t = locked(run)
    eq(t, clk.t - 8 + 2 - 7, "the last stamp: the middle of its two clock reads, 7 us back")


class FakeCounter:
    """machine.Counter as ports/esp32/modules/machine.py has it, v1.26.0 to v1.29:
    Counter(unit_id, src, *, edge=RISING, direction=UP, filter_ns=0); any other keyword
    is a TypeError (_configure(self, src, edge=RISING, direction=UP))."""

    RISING = 1
    FALLING = 2
    UP = 1
    made = []

    def __init__(self, unit_id, *args, filter_ns=0, **kwargs):
        self._configure(*args, **kwargs)
        self.filter = min(max(0, filter_ns * 80 // 1000), 1023)
        self.unit = unit_id
        self.n = 0
        FakeCounter.made.append(self)

    def _configure(self, src, edge=RISING, direction=UP):
        self.src = src
        self.edge = edge

    def value(self, v=None):
        n = self.n
        if v is not None:
            self.n = v
        return n

    def deinit(self):
        self.unit = None


class FakeRTC:
    """machine.RTC: one memory, as the port's (a module-level buffer in C)."""

    mem = b""

    def memory(self, buf=None):
        if buf is None:
            return FakeRTC.mem
        FakeRTC.mem = bytes(buf)
        return None


class FakeMachine:
    Counter = FakeCounter
    RTC = FakeRTC


class NoCounter:
    pass


def test_counter_uses_machine_counter_with_its_real_keywords():
    real = hal_esp32.machine
    hal_esp32.machine = FakeMachine
    try:
        c = hal_esp32.Counter(3, "pin", 12)
        f = FakeCounter.made[-1]
        eq((f.unit, f.src, f.edge, f.filter), (3, "pin", 1, 960), "unit, pin, rising, 12 us filter")
        f.n = 7
        eq(c.take(), 7, "pulses since the last take")
        eq(c.take(), 0, "then from 0")
        c.stop()
        eq(f.unit, None, "deinit")
    finally:
        hal_esp32.machine = real


def test_every_counted_channel_has_a_glitch_filter_that_reaches_the_pcnt():
    def ch(**kw):
        d = {"ch": 11, "name": "cushion_1", "kind": "cushion", "gpio": 34, "active": 1, "mode": "pcnt"}
        d.update(kw)
        return boardcfg.Channel(d, 0)

    eq(ch().debounce_us, 10, "a board that names none gets 10 us")
    for bad in (0, 13):
        try:
            ch(debounce_us=bad)
        except boardcfg.BoardError as e:
            eq("glitch filter is 1..12 us" in e.args[0], True, e.args[0])
        else:
            raise AssertionError("debounce_us %d taken for a pulse counter" % bad)
    real = hal_esp32.machine
    hal_esp32.machine = FakeMachine
    try:
        hal = hal_esp32.Hal()
        hal.counter("pin", ch())
        eq(FakeCounter.made[-1].filter, 800, "10 us: 800 APB cycles at 80 MHz")
    finally:
        hal_esp32.machine = real


def test_rtc_memory_read_at_boot_is_what_the_boot_before_wrote():
    real = hal_esp32.machine
    hal_esp32.machine = FakeMachine
    try:
        FakeRTC.mem = b""
        eq(hal_esp32.Hal().rtc_read(), b"", "a power-on: nothing kept")
        hal_esp32.Hal().rtc_write(bytearray(b"ts\x01abcdefghi"))
        eq(hal_esp32.Hal().rtc_read(), b"ts\x01abcdefghi", "the next boot reads it")
    finally:
        hal_esp32.machine = real


def test_no_counter_is_a_board_error_naming_the_version():
    real = hal_esp32.machine
    hal_esp32.machine = NoCounter
    try:
        try:
            hal_esp32.Counter(0, "pin", 0)
        except boardcfg.BoardError as e:
            text = e.args[0]
        else:
            raise AssertionError("no BoardError")
    finally:
        hal_esp32.machine = real
    eq("machine.Counter" in text, True, text)
    eq("no PCNT" in text or "1.26" in text, True, text)


def test_version_check():
    v = hal_esp32.version_error
    eq(v((1, 29, 0, ""), "esp32"), None, "1.29")
    eq(v((1, 26, 0, ""), "esp32"), None, "1.26.0")
    eq(v((2, 0, 0, ""), "esp32"), None, "2.0")
    eq(
        v((1, 25, 0, ""), "esp32"),
        "MicroPython 1.25.0 on esp32 is too old: the firmware needs MicroPython 1.26 or newer",
        "1.25",
    )
    eq(hal_esp32.version_text((1, 26, 1, "")), "1.26.1", "text")
    hal = hal_esp32.Hal()
    eq(hal.mp_version_ok, hal.check_version() is None, "ok iff no error")
    eq(type(hal_esp32.Hal.mp_version), str, "a str for HELLO")


def test_chip_names():
    c = hal_esp32.chip_of
    eq(c("Generic ESP32 module with ESP32"), "esp32", "generic")
    eq(c("Generic ESP32S3 module with ESP32S3"), "esp32s3", "s3")
    eq(c("LOLIN_S2_MINI with ESP32-S2FN4R2"), "esp32s2", "s2")
    eq(c("M5Stack ATOM with ESP32-PICO-D4"), "esp32", "pico")
    eq(c("ESP32C3 module with ESP32-C3FH4"), "esp32c3", "c3")
    eq(c("Generic ESP32 module with ESP32-UNICORE"), "esp32", "unicore")


def test_tx_room_reads_txfifo_cnt():
    hal = hal_esp32.Hal()
    status = bytearray(4)
    field = 0 | uctypes.BFUINT32 | 16 << uctypes.BF_POS | 8 << uctypes.BF_LEN  # as Hal builds it
    hal.uart = uctypes.struct(uctypes.addressof(status), {"txfifo_cnt": field})
    hal.chip = "esp32"
    status[2] = 100  # UART_TXFIFO_CNT = bits 23:16
    status[3] = 0xFF  # bits 31:24 are other fields
    status[1] = 0xFF  # bits 15:0 too (RXFIFO_CNT, line states)
    eq(locked(hal.tx_room), 28, "128 - 100, without allocating")
    status[2] = 0
    eq(hal.tx_room(), 128, "empty FIFO")
    hal.chip = "esp32s3"
    eq(hal.tx_room(), 64, "S3: capped at one USB packet")
    hal.uart = None
    eq(hal.tx_room(), 64, "native USB only")


def test_capture_is_refused_off_the_original_esp32():
    hal = hal_esp32.Hal()
    hal.chip = "esp32s3"

    class C:
        ch = 4
        gpio = 5

    try:
        hal.capture(None, C())
    except boardcfg.BoardError as e:
        eq("esp32s3" in e.args[0], True, e.args[0])
    else:
        raise AssertionError("no BoardError")


def test_colour_sensors_set_up_from_the_board():
    hal = hal_esp32.Hal()
    eq(hal.use_colours(fwtest.board([fwtest.channel(0)])), [], "no i2c: no sensors")
    eq(hal.colour(0), 0, "unknown")

    class Bus:
        def __init__(self, id, scl=None, sda=None, freq=0, timeout=50000):  # machine.I2C's keywords
            self.args = (id, scl, sda, freq)
            self.timeout = timeout
            Bus.made = self

        def readfrom_mem_into(self, addr, reg, buf):
            raise OSError(19)

        def writeto_mem(self, addr, reg, buf):
            raise OSError(19)

        def writeto(self, addr, buf):
            raise OSError(19)

    class FakeI2C:
        I2C = Bus

        @staticmethod
        def Pin(n):
            return ("pin", n)

    b = Board(
        {
            "profile": "t",
            "scan_ms": 20,
            "heartbeat_ms": 1000,
            "colours": ["p1", "p2"],
            "i2c": {"sda": 21, "scl": 22, "freq": 100000},
            "colour": {"cycles": 4, "gain": 16},
            "channels": [fwtest.channel(0, colour=True)],
        }
    )
    real = hal_esp32.machine
    hal_esp32.machine = FakeI2C
    try:
        problems = hal.use_colours(b)
    finally:
        hal_esp32.machine = real
    eq(Bus.made.args, (0, ("pin", 22), ("pin", 21), 100000), "I2C 0 on the board's pins")
    eq(Bus.made.timeout, hal_esp32.I2C_TIMEOUT_US, "a stuck bus waits 10 ms, not the 50 ms default")
    eq(len(problems), 1, "the sensor that does not answer is named")
    eq(hal.colour(0), 0, "and reads unknown")


fwtest.run(fwtest.tests_of(globals()))
