# ESP32 HAL: machine.Pin soft IRQs, the MCPWM capture unit through uctypes and viper
# (timer-exact goal stamps), machine.Counter for piezos, the REPL UART's TX FIFO.
# docs/timing.md explains the choices. Every register address and bit below was checked
# against ESP-IDF's headers for the original ESP32 (components/soc/esp32/register/soc/
# mcpwm_reg.h, dport_reg.h, gpio_reg.h, uart_reg.h, reg_base.h; include/soc/
# gpio_sig_map.h); what the port does is from micropython's ports/esp32/ (v1.26.0-v1.29).
import gc
import sys
import time

import machine
import micropython
import uctypes
from array import array
from micropython import const

import board as boardcfg

# The oldest MicroPython the firmware runs on: machine.Counter (ports/esp32/modules/
# machine.py, on top of esp32.PCNT) first appears in v1.26.0; both are missing on 1.25.
MP_MIN = (1, 26)
MP_MIN_TEXT = "1.26"

_MASK = const(0x3FFFFFFF)
# MCPWM0 / MCPWM1: DR_REG_PWM0_BASE, DR_REG_PWM1_BASE (reg_base.h)
_MCPWM_BASE = (0x3FF5E000, 0x3FF6C000)
_CAP_TIMER_CFG = const(0x00E8)  # MCPWM_CAP_TIMER_CFG_REG; bit0 CAP_TIMER_EN: counts APB_CLK
_CAP_CH_CFG = const(0x00F0)  # MCPWM_CAP_CHn_CFG_REG = 0xF0 + 4n (n = 0..2)
_CAP_CH = const(0x00FC)  # MCPWM_CAP_CHn_REG = 0xFC + 4n: CAPn_VALUE, bits 31:0, RO
_MCPWM_CLK = const(0x0120)  # MCPWM_CLK_REG, bit0 MCPWM_CLK_EN (0x124 is MCPWM_VERSION_REG)
# CAP_CHn_CFG: bit0 CAPn_EN, bits 2:1 CAPn_MODE (bit1 negedge, bit2 posedge), bits 10:3
# CAPn_PRESCALE (0: every edge), bit11 CAPn_IN_INVERT, bit12 CAPn_SW (write 1: capture now)
_CAP_EN = const(1)
_CAP_BOTH_EDGES = const(0b111)  # EN | negedge | posedge, prescale 0, not inverted
_CAP_SW = const(1 << 12)
_REF_CH = const(2)  # capture channel 2 of each unit latches "now" by software
_DPORT_PERIP_CLK_EN = const(0x3FF000C0)  # DPORT_PERIP_CLK_EN_REG = DR_REG_DPORT_BASE + 0xC0
_DPORT_PERIP_RST_EN = const(0x3FF000C4)  # DPORT_PERIP_RST_EN_REG = DR_REG_DPORT_BASE + 0xC4
_PWM_CLK_BIT = (17, 20)  # DPORT_PWM0_CLK_EN / _RST = BIT(17), DPORT_PWM1_CLK_EN / _RST = BIT(20)
# GPIO_FUNCy_IN_SEL_CFG_REG = DR_REG_GPIO_BASE (0x3FF44000) + 0x130 + 4 * y: bits 5:0
# GPIO number, bit6 invert, bit7 GPIO_SIGy_IN_SEL (1: through the GPIO matrix)
_GPIO_FUNC_IN_SEL = const(0x3FF44130)
_SIG_IN_SEL = const(1 << 7)
_CAP_SIGNAL = ((109, 110, 111), (112, 113, 114))  # PWM0_CAP0..2_IN_IDX, PWM1_CAP0..2_IN_IDX
# The capture timer counts APB_CLK ("capture timer incrementing under APB_clk"), which is
# 80 MHz while the CPU runs from the PLL (machine.freq() 80, 160 or 240 MHz). At 20 or
# 40 MHz the CPU and APB run from the crystal: Hal.capture refuses those.
_APB_PER_US = const(80)
_APB_MIN_CPU_HZ = const(80000000)
_OLD = const(0x3FFF)  # high half of (ref - cap) above this: over 13.4 s old, or newer

# UART0 (the REPL UART on ESP32_GENERIC: MICROPY_HW_UART_REPL 0, ports/esp32/uart.h).
# UART_STATUS_REG(0) = DR_REG_UART_BASE + 0x1C; UART_TXFIFO_CNT bits 23:16 on the ESP32
# (8 bits), bits 25:16 on the ESP32-S3 (10 bits; DR_REG_UART_BASE 0x60000000).
# SOC_UART_FIFO_LEN is 128 on both.
_UART_FIFO = const(128)
_UART0_STATUS = {"esp32": (0x3FF4001C, 8), "esp32s3": (0x6000001C, 10)}
# Native USB (TinyUSB CDC on the S2/S3, USB-Serial-JTAG on the C3/C6/S3 builds that use
# it) has no FIFO count we can read: a write of one full-speed bulk packet (64 bytes)
# is the figure we call safe there. The S3's generic build has the UART REPL too
# (ESP32_GENERIC_S3/mpconfigboard.h), so its room is also capped by UART0's FIFO.
_USB_ROOM = const(64)
# machine.I2C's timeout: the longest a transaction on a stuck bus (SDA or SCL held low)
# waits before OSError (1.29's new driver: per transfer; 1.26's legacy driver: the
# controller's timeout register, capped near 13 ms, within a tick-based limit of
# 100 ms x (1 + bytes)). colour.ColourSensors then backs off: one such wait, not one per read.
I2C_TIMEOUT_US = const(10000)
_CHIPS = ("esp32s2", "esp32s3", "esp32c2", "esp32c3", "esp32c5", "esp32c6", "esp32h2", "esp32p4")


def chip_of(machine_name):
    """"esp32", "esp32s3", ... from os.uname().machine, which the port builds as
    MICROPY_HW_BOARD_NAME " with " MICROPY_HW_MCU_NAME ("Generic ESP32 module with
    ESP32", "... with ESP32-S2FN4R2", "... with ESP32-PICO-D4")."""
    i = machine_name.find(" with ")
    s = (machine_name[i + 6 :] if i >= 0 else machine_name).lower().replace("-", "")
    for c in _CHIPS:
        if s.startswith(c):
            return c
    return "esp32" if s.startswith("esp32") else s


def version_text(v):
    """"1.26.1" from sys.implementation.version (1, 26, 1, '')."""
    return "%d.%d.%d" % (v[0], v[1], v[2])


def version_error(v, chip):
    """None if MicroPython v (a version tuple) runs the firmware, else the one-line
    reason, naming the version found and the one to install."""
    if (v[0], v[1]) < MP_MIN:
        return "MicroPython %s on %s is too old: the firmware needs MicroPython %s or newer" % (
            version_text(v), chip, MP_MIN_TEXT)
    return None


CHIP = chip_of(sys.implementation._machine)  # MICROPY_BANNER_MACHINE, as os.uname().machine
MP_VERSION = version_text(sys.implementation.version)
MP_VERSION_ERROR = version_error(sys.implementation.version, CHIP)

_mem32 = machine.mem32  # bound once: on 1.26-1.28 `machine.X` goes through machine.py's __getattr__


def _dport_read(addr):
    # ESP32 errata 3.10: a DPORT read can come back wrong while the other core is on
    # the APB bus (ESP-IDF stalls the other core); read until two reads agree.
    v = _mem32[addr]
    for _ in range(8):
        w = _mem32[addr]
        if w == v:
            break
        v = w
    return v


def _power_up(unit):
    """MCPWM unit's clock on and out of reset (as periph_module_enable does)."""
    bit = 1 << _PWM_CLK_BIT[unit]
    _mem32[_DPORT_PERIP_CLK_EN] = _dport_read(_DPORT_PERIP_CLK_EN) | bit
    _mem32[_DPORT_PERIP_RST_EN] = _dport_read(_DPORT_PERIP_RST_EN) & ~bit


def _route(gpio, signal):
    """Send GPIO gpio into the peripheral input signal through the GPIO matrix."""
    _mem32[_GPIO_FUNC_IN_SEL + 4 * signal] = (gpio & 0x3F) | _SIG_IN_SEL


@micropython.viper
def _load(addr: int, out, i: int):
    # ONE 32-bit load of the register at addr, stored as two 16-bit halves in
    # out[2i], out[2i+1]: both halves come from the same load, so an edge latched by
    # the capture unit meanwhile cannot tear the value (two uctypes bitfields of one
    # register would be two loads); the halves are small ints, so nothing allocates
    # (machine.mem32 and a UINT32 field return a big int for values >= 2**30).
    v = ptr32(addr)[0]  # pyright: ignore[reportUndefinedVariable]  (viper builtin)
    h = ptr16(out)  # pyright: ignore[reportUndefinedVariable]
    h[2 * i] = v & 0xFFFF
    h[2 * i + 1] = (v >> 16) & 0xFFFF


@micropython.viper
def _store(addr: int, v: int):
    ptr32(addr)[0] = v  # pyright: ignore[reportUndefinedVariable]  (one 32-bit store)


class McpwmCapture:
    """One MCPWM capture channel latching the 80 MHz capture timer on both edges of a
    GPIO. ticks() converts the latched value to the ticks_us() scale by latching "now"
    into the unit's channel 2 in the same handler (12.5 ns timer, 1 us result).
    base: the unit's register block (tests pass a bytearray's address; then nothing
    outside the block is touched)."""

    def __init__(self, unit, chan, gpio, ticks_us, base=None):
        if base is None:
            base = _MCPWM_BASE[unit]
            _power_up(unit)
            _route(gpio, _CAP_SIGNAL[unit][chan])
        _store(base + _MCPWM_CLK, 1)
        _store(base + _CAP_TIMER_CFG, 1)
        self.cfg = base + _CAP_CH_CFG + 4 * chan
        _store(self.cfg, _CAP_BOTH_EDGES)
        self.ref_cfg = base + _CAP_CH_CFG + 4 * _REF_CH
        _store(self.ref_cfg, _CAP_EN)  # enabled, no edge: software capture only
        self.ref_addr = base + _CAP_CH + 4 * _REF_CH
        self.cap_addr = base + _CAP_CH + 4 * chan
        self.w = array("H", (0, 0, 0, 0))  # ref lo, ref hi, cap lo, cap hi
        self.load = _load  # one register, one load (tests wrap it to land an edge in between)
        self.ticks_us = ticks_us  # 30-bit ticks as plain ints (docs/timing.md)

    def ticks(self):
        """30-bit ticks_us() value of the last captured edge. Hard-interrupt safe (does
        not allocate). "now" is the middle of the two clock reads around the software
        latch. A capture newer than the reference (an edge latched between the latch and
        the loads) or older than 13.4 s is not this callback's edge: the soft time."""
        t0 = self.ticks_us()
        _store(self.ref_cfg, _CAP_EN | _CAP_SW)  # the timer value "now" into channel 2
        t1 = self.ticks_us()
        now = (t0 + (((t1 - t0) & _MASK) >> 1)) & _MASK
        w = self.w
        self.load(self.ref_addr, w, 0)
        self.load(self.cap_addr, w, 1)
        dh = (w[1] - w[3]) & 0xFFFF
        if dh > _OLD:
            return now
        d = (dh << 16) + w[0] - w[2]  # < 2**30: a small int
        if d < 0:
            return now
        return (now - d // _APB_PER_US) & _MASK

    def stop(self):
        _store(self.cfg, 0)


class Counter:
    """Pulses since the last take(), from machine.Counter (MicroPython 1.26 and newer,
    on chips with a PCNT). The channel's debounce_us (at most 12, checked by the host)
    sets the PCNT glitch filter: machine.py turns filter_ns into
    min(filter_ns * 80 // 1000, 1023) APB cycles."""

    def __init__(self, unit, pin, debounce_us=0):
        if not hasattr(machine, "Counter"):
            raise boardcfg.BoardError(counter_error())
        self.c = machine.Counter(unit, pin, edge=machine.Counter.RISING, filter_ns=debounce_us * 1000)

    def take(self):
        return self.c.value(0)  # read, then restart from 0

    def stop(self):
        self.c.deinit()


def counter_error():
    if MP_VERSION_ERROR:
        return "pulse counters need machine.Counter: " + MP_VERSION_ERROR
    return "pulse counters need machine.Counter: %s on MicroPython %s has none (no PCNT)" % (
        CHIP, MP_VERSION)


class Hal:
    """What link.Firmware calls on the board. Attributes for HELLO and the boot check:
    chip ("esp32", "esp32s3", ...), mp_version ("1.26.1"), mp_version_ok (bool) and
    mp_version_error (None or the one-line reason the version is refused)."""

    name = "esp32"
    board_path = "/board.json"
    chip = CHIP
    mp_version = MP_VERSION
    mp_version_error = MP_VERSION_ERROR
    mp_version_ok = MP_VERSION_ERROR is None

    def __init__(self):
        self.ticks_us = time.ticks_us  # a plain function: calling it never allocates
        self.pins = []
        self.caps = []
        self.counters = []
        self.colours = None  # colour.ColourSensors once use_board found an i2c bus
        self.wdt = None  # machine.WDT once watchdog() started it
        # its memory keeps this boot's last seq (rtc_record.py); None on a port without it
        self.rtc = machine.RTC() if hasattr(machine, "RTC") else None
        st = _UART0_STATUS.get(self.chip)
        self.uart = None
        if st is not None:
            self.uart = uctypes.struct(
                st[0], {"txfifo_cnt": 0 | uctypes.BFUINT32 | 16 << uctypes.BF_POS | st[1] << uctypes.BF_LEN}
            )

    @staticmethod
    def check_version():
        """None, or the one-line reason this MicroPython cannot run the firmware."""
        return MP_VERSION_ERROR

    def service(self, busy=False):
        """Called first in every main-loop pass; nothing to do on the board. Ctrl-C needs
        no guard here: link.main turns the port's own Ctrl-C off (micropython.kbd_intr(-1))
        while the firmware runs, so 0x03 arrives on stdin and the command reader raises
        KeyboardInterrupt in the main loop, never inside a soft-IRQ callback, where
        mp_call_function_1_protected (py/runtime_utils.c) would print it to stdout and
        swallow it."""
        return False

    def tx_room(self):
        """Bytes the REPL's output takes now without blocking. On the ESP32 stdout
        writes spin until every byte is in UART0's 128-byte TX FIFO, waiting a FreeRTOS
        tick (10 ms) each time it is full (ports/esp32/uart.c, uart_stdout_tx_strn):
        128 minus UART_TXFIFO_CNT, one register load, no allocation. ESP32-S3: the same
        from its UART0, at most 64 (its USB CDC gets every write too). Other chips
        (native USB only): 64, one USB bulk packet."""
        u = self.uart
        if u is None:
            return _USB_ROOM
        room = _UART_FIFO - u.txfifo_cnt
        if self.chip != "esp32" and room > _USB_ROOM:
            return _USB_ROOM
        return room

    def pause(self, us=1000):
        """The main loop's idle wait. time.sleep_us is mp_hal_delay_us
        (ports/esp32/mphalport.c): a busy wait on esp_timer that runs pending soft-IRQ
        callbacks (mp_handle_pending) while it waits, and returns on time. An asyncio or
        select wait of 1 ms instead ends in ulTaskNotifyTake(pdFALSE, 1)
        (MICROPY_EVENT_POLL_HOOK): up to one FreeRTOS tick, 10 ms. A busy main loop is
        allowed: the port's sdkconfig.base turns the idle-task watchdog off
        (CONFIG_ESP_TASK_WDT_CHECK_IDLE_TASK_CPU0=n, ..._CPU1=n)."""
        time.sleep_us(us)

    def reset(self):
        for p in self.pins:
            p.irq(handler=None)
        for c in self.caps + self.counters:
            c.stop()
        self.pins = []
        self.caps = []
        self.counters = []

    def pin(self, c):
        # pull None: both pulls off (the port takes None; the stubs say int only)
        p = machine.Pin(c.gpio, machine.Pin.IN, self._pull(c))  # pyright: ignore[reportArgumentType]
        self.pins.append(p)
        return p

    @staticmethod
    def _pull(c):
        """machine.Pin's pull for the profile's: None turns both internal pulls off
        (ports/esp32/machine_pin.c: gpio_pullup_dis, gpio_pulldown_dis)."""
        if c.pull == "up":
            return machine.Pin.PULL_UP
        if c.pull == "down":
            return machine.Pin.PULL_DOWN
        return None

    def pull(self, pin, c):
        """The pin's pull as the profile says, again: link.use_board calls this after the
        pulse counter is made, whose driver (ESP-IDF's legacy _pcnt_set_pin, under
        esp32.PCNT in 1.26-1.29) turns the internal pull-up on, against pull = "none"
        and the 100 kOhm to GND that makes an unplugged cable read idle."""
        pin.init(pull=self._pull(c))  # pyright: ignore[reportArgumentType]  (None: pulls off)

    def irq(self, pin, c, handler):
        pin.irq(handler=handler, trigger=machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING)

    def capture(self, pin, c):
        n = len(self.caps)
        if self.chip != "esp32":
            raise boardcfg.BoardError(
                "channel %d: capture channels need the original ESP32's MCPWM (this is %s): use irq"
                % (c.ch, self.chip))
        if n >= 4:
            raise boardcfg.BoardError("channel %d: at most 4 capture channels" % c.ch)
        if machine.freq() < _APB_MIN_CPU_HZ:
            raise boardcfg.BoardError(
                "channel %d: capture needs machine.freq() >= 80 MHz (APB at 80 MHz)" % c.ch)
        cap = McpwmCapture(n // 2, n % 2, c.gpio, self.ticks_us)
        self.caps.append(cap)
        return cap

    def counter(self, pin, c):
        n = len(self.counters)
        if n >= 8:
            raise boardcfg.BoardError("channel %d: at most 8 pulse counters" % c.ch)
        cnt = Counter(n, pin, c.debounce_us)
        self.counters.append(cnt)
        return cnt

    def use_colours(self, b):
        """The colour sensors of board b (link.use_board calls this after reset()):
        colour.ColourSensors on hardware I2C 0 at the board's i2c {sda, scl, freq}.
        Returns the problem lines (sensors that did not answer)."""
        self.colours = None
        if not b.colour_model or b.i2c_sda is None:
            return []
        import colour

        # timeout: a keyword of ports/esp32/machine_i2c.c since before 1.26; the 1.26 stubs lack it
        i2c = machine.I2C(0, scl=machine.Pin(b.i2c_scl), sda=machine.Pin(b.i2c_sda), freq=b.i2c_freq,  # pyright: ignore[reportCallIssue]
                          timeout=I2C_TIMEOUT_US)
        self.colours = colour.ColourSensors(i2c, b, self.ticks_us)
        return self.colours.problems

    @property
    def colour_sensors(self):
        return self.colours

    def colour(self, ch):
        """Ball class under channel ch's colour sensor (0: unknown, or no sensor).
        Main loop only (I2C); does not allocate (colour.py)."""
        s = self.colours
        return s.classify(ch) if s is not None else 0

    def profile_path(self, pid):
        return "/profiles/" + pid + ".json"

    # -- the board around the firmware (recover.py, link.main) ------------------------
    flash_dir = "/"  # the crash file's folder

    @staticmethod
    def reset_cause():
        """machine.reset_cause(): 1 power-on (also a brown-out and the EN button or the
        host's RTS pulse), 2 hard (machine.reset(), a panic), 3 watchdog, 4 deep sleep,
        5 soft (ports/esp32/modmachine.c)."""
        return machine.reset_cause()

    def rtc_read(self):
        """What RTC memory held at boot (bytes; b"" after a power-on: the port finds its
        magic gone and sets the length to 0, ports/esp32/machine_rtc.c). Allocates."""
        rtc = self.rtc
        return rtc.memory() if rtc is not None else b""

    def rtc_write(self, buf):
        """buf into RTC memory (up to 2048 bytes): a memcpy in C, returns None; allocates
        nothing. A soft reset, machine.reset(), a panic and the watchdog keep it."""
        rtc = self.rtc
        if rtc is not None:
            rtc.memory(buf)

    @staticmethod
    def quiet():
        """ESP-IDF's log off: it writes on UART0, the link, between (or inside) our
        frames. esp.osdebug(None) only sets it back to its boot level, LOG_ERROR, which
        is what the pulse counter's "GPIO number error" and the 1.29 I2C driver's
        timeouts use; esp.osdebug(0, esp.LOG_NONE) silences it (ports/esp32/modesp.c,
        the same in 1.26 and 1.29)."""
        try:
            import esp
        except ImportError:  # not the ESP32 port (its tests under the unix port)
            return
        # (esp_osdebug takes 1 or 2 arguments in 1.26 and 1.29; the 1.29 stubs list one)
        esp.osdebug(0, esp.LOG_NONE)  # pyright: ignore[reportCallIssue]

    def watchdog(self, ms):
        """The task watchdog (machine.WDT: esp_task_wdt reconfigured to ms, a user of its
        own that feed() resets; it cannot be stopped once started)."""
        self.wdt = machine.WDT(id=0, timeout=ms)

    def feed(self):
        w = self.wdt
        if w is not None:
            w.feed()

    def interrupted(self, e):
        """Ctrl-C stopped the firmware (mpremote, a person at the REPL): the watchdog
        cannot be stopped, so it is stretched to an hour (a second machine.WDT()
        reconfigures the same one); the next boot sets it back."""
        if self.wdt is not None:
            self.wdt = machine.WDT(id=0, timeout=3600000)

    @staticmethod
    def report(e):
        """An uncaught exception: nothing on stdout, the link (the crash file has it)."""

    @staticmethod
    def restart():
        machine.reset()

    @staticmethod
    def sleep_ms(ms):
        time.sleep_ms(ms)

    @staticmethod
    def collect():
        gc.collect()
