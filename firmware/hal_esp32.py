# ESP32 HAL: machine.Pin soft IRQs, the MCPWM capture unit through machine.mem32 and
# uctypes (timer-exact goal stamps), the pulse counter for piezos. docs/timing.md
# explains the choices; register addresses are from the ESP32 Technical Reference
# Manual (MCPWM chapter, GPIO matrix signal list) and ESP-IDF's soc headers.
import time

import machine
import uctypes
from machine import Pin
from micropython import const

import board as boardcfg

_MASK = const(0x3FFFFFFF)
_MCPWM_BASE = (0x3FF5E000, 0x3FF6C000)  # MCPWM0, MCPWM1
_CAP_TIMER_CFG = const(0x00E8)  # bit0 CAP_TIMER_EN: the 32-bit capture timer on APB_CLK
_CAP_CH_CFG = const(0x00F0)  # + 4 * n: bit0 EN, bits 2:1 MODE (neg, pos), bit12 SW
_CAP_CH = const(0x00FC)  # + 4 * n: timer value latched at the last capture
_MCPWM_CLK = const(0x0124)  # bit0: register clock enable
_DPORT_PERIP_CLK_EN = const(0x3FF000C0)
_DPORT_PERIP_RST_EN = const(0x3FF000C4)
_PWM_CLK_BIT = (17, 20)  # DPORT_PWM0_CLK_EN, DPORT_PWM1_CLK_EN
_GPIO_FUNC_IN_SEL = const(0x3FF44130)  # + 4 * signal: bits 5:0 GPIO, bit7 via the matrix
_CAP_SIGNAL = ((109, 110, 111), (112, 113, 114))  # PWM0_CAP0..2_IN, PWM1_CAP0..2_IN
_APB_PER_US = const(80)  # capture timer ticks per microsecond
_CAP_SW = const(1 << 12)
_CAP_BOTH_EDGES = const(0b111)  # EN | negedge | posedge
_REF_CH = const(2)  # capture channel 2 of each unit reads "now" by software capture
# Both halves of a capture register read with 32-bit loads (peripheral registers do
# not take 16-bit accesses); each half is a small int, so a read never allocates.
_HALVES = {
    "lo": 0 | uctypes.BFUINT32 | 0 << uctypes.BF_POS | 16 << uctypes.BF_LEN,
    "hi": 0 | uctypes.BFUINT32 | 16 << uctypes.BF_POS | 16 << uctypes.BF_LEN,
}


class McpwmCapture:
    """One MCPWM capture channel latching the 80 MHz capture timer on both edges of a
    GPIO. ticks() converts the latched value to the ticks_us() scale by measuring, in
    the same handler, how long ago the edge was (12.5 ns timer, 1 us result)."""

    def __init__(self, unit, chan, gpio):
        base = _MCPWM_BASE[unit]
        bit = 1 << _PWM_CLK_BIT[unit]
        machine.mem32[_DPORT_PERIP_CLK_EN] |= bit
        machine.mem32[_DPORT_PERIP_RST_EN] &= ~bit
        machine.mem32[base + _MCPWM_CLK] = 1
        machine.mem32[base + _CAP_TIMER_CFG] = 1
        machine.mem32[_GPIO_FUNC_IN_SEL + 4 * _CAP_SIGNAL[unit][chan]] = gpio | (1 << 7)
        machine.mem32[base + _CAP_CH_CFG + 4 * chan] = _CAP_BOTH_EDGES
        machine.mem32[base + _CAP_CH_CFG + 4 * _REF_CH] = 1  # enabled, software only
        self.ref_cfg = base + _CAP_CH_CFG + 4 * _REF_CH
        self.cap = uctypes.struct(base + _CAP_CH + 4 * chan, _HALVES)
        self.ref = uctypes.struct(base + _CAP_CH + 4 * _REF_CH, _HALVES)
        self.cfg = base + _CAP_CH_CFG + 4 * chan

    def ticks(self):
        """30-bit ticks_us() value of the last captured edge. Does not allocate."""
        now = time.ticks_us()
        machine.mem32[self.ref_cfg] = 1 | _CAP_SW  # latch "now" into the reference channel
        dh = (self.ref.hi - self.cap.hi) & 0xFFFF
        if dh > 0x3FFF:  # more than 13 s ago: not this edge's capture; keep the soft time
            return now
        d = (dh << 16) + self.ref.lo - self.cap.lo
        return (now - d // _APB_PER_US) & _MASK

    def stop(self):
        machine.mem32[self.cfg] = 0


class Counter:
    """Pulses since the last take(), from machine.Counter or esp32.PCNT. The channel's
    debounce_us (at most 12, checked by the host) sets the PCNT glitch filter."""

    def __init__(self, unit, pin, debounce_us=0):
        try:
            self.c = machine.Counter(unit, pin, edge=machine.Counter.RISING, filter_ns=debounce_us * 1000)
        except (AttributeError, TypeError):
            import esp32

            self.c = esp32.PCNT(
                unit, channel=0, pin=pin, rising=esp32.PCNT.INCREMENT, falling=esp32.PCNT.IGNORE,
                filter=min(debounce_us * _APB_PER_US, 1023),
            )
            self.c.start()

    def take(self):
        return self.c.value(0)  # read, then restart from 0

    def stop(self):
        try:
            self.c.deinit()
        except AttributeError:
            pass


class Hal:
    name = "esp32"
    board_path = "/board.json"

    def __init__(self):
        self.ticks_us = time.ticks_us  # a plain function: calling it never allocates
        self.pins = []
        self.caps = []
        self.counters = []

    def service(self, busy=False):
        return False

    def reset(self):
        for p in self.pins:
            p.irq(handler=None)
        for c in self.caps + self.counters:
            c.stop()
        self.pins = []
        self.caps = []
        self.counters = []

    def pin(self, c):
        pull = {"up": Pin.PULL_UP, "down": Pin.PULL_DOWN}.get(c.pull)
        p = Pin(c.gpio, Pin.IN, pull) if pull is not None else Pin(c.gpio, Pin.IN)
        self.pins.append(p)
        return p

    def irq(self, pin, c, handler):
        pin.irq(handler=handler, trigger=Pin.IRQ_RISING | Pin.IRQ_FALLING)

    def capture(self, pin, c):
        n = len(self.caps)
        if n >= 4:
            raise boardcfg.BoardError("channel %d: at most 4 capture channels" % c.ch)
        cap = McpwmCapture(n // 2, n % 2, c.gpio)
        self.caps.append(cap)
        return cap

    def counter(self, pin, c):
        n = len(self.counters)
        if n >= 8:
            raise boardcfg.BoardError("channel %d: at most 8 pulse counters" % c.ch)
        cnt = Counter(n, pin, c.debounce_us)
        self.counters.append(cnt)
        return cnt

    def colour(self, ch):
        return 0  # no colour sensor driver yet: "unknown"

    def profile_path(self, pid):
        return "/profiles/" + pid + ".json"
