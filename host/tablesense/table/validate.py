"""Checks of a table profile against the ESP32 and the firmware design.

Each check returns messages that name the channel and the field, so that the person
editing the TOML file knows which line to change and why.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from . import esp32
from .model import COLOUR_WAIT_US, GAINS, KINDS, MODES, Channel, TableProfile

#: After the beam edge, the firmware's main loop (a 10 ms FreeRTOS tick on the ESP32) and
#: the I2C read (mux select + 9 bytes at 100 kHz, about 1.5 ms) come on top of delay_us.
COLOUR_READ_SLACK_US = 15_000

#: valid `index` values per kind
INDEXES: dict[str, tuple[int | str, ...]] = {
    "goal": ("A", "B"),
    "pocket": (1, 2, 3, 4, 5, 6),
    "pin": (1, 2, 3, 4, 5),
    "cushion": (1, 2, 3, 4),
    "motion": (0,),
}
IRQ_MODES = ("irq", "capture")


def check_profile(p: TableProfile) -> list[str]:
    problems: list[str] = []
    problems += _check_settings(p)
    for c in p.channels:
        problems += check_channel(c, p)
    problems += _check_shared(p)
    problems += _check_limits(p.channels)
    problems += _check_colour(p)
    return problems


def _check_colour(p: TableProfile) -> list[str]:
    """The colour sensors: settings the TCS34725 takes, a read the host still waits for,
    one mux port each, references that name a ball and a sensor and do not overlap."""
    out: list[str] = []
    col = p.colour
    if p.i2c is not None and not 10_000 <= p.i2c.freq <= 400_000:
        out.append(f"i2c: field 'freq' {p.i2c.freq} must be 10000..400000 Hz (the TCS34725 and the TCA9548A "
                   "take up to 400 kHz; 100 kHz for long cables)")
    if p.i2c is not None and p.i2c.mux is not None and not 0x70 <= p.i2c.mux <= 0x77:
        out.append(f"i2c: field 'mux' {p.i2c.mux:#x} is not a TCA9548A address (0x70..0x77)")
    sensors = p.colour_channels()
    if col is None:
        return out
    if not 1 <= col.cycles <= 256:
        out.append(f"colour: field 'cycles' {col.cycles} must be 1..256 (integration time = cycles x 2.4 ms)")
    if col.gain not in GAINS:
        out.append(f"colour: field 'gain' {col.gain} must be one of {', '.join(map(str, GAINS))}")
    need = 2 * col.integration_us
    if col.delay_us < need:
        out.append(f"colour: field 'delay_us' {col.delay_us} is shorter than two integrations ({need} us): "
                   "the reading could mix the light from before the ball came")
    top = COLOUR_WAIT_US - COLOUR_READ_SLACK_US
    if col.delay_us > top:
        out.append(f"colour: field 'delay_us' {col.delay_us} is over {top} us: the host waits "
                   f"{COLOUR_WAIT_US // 1000} ms after the beam edge for the reading "
                   f"(and the main loop and the I2C read take up to {COLOUR_READ_SLACK_US // 1000} ms)")
    if len(sensors) > 1:
        if p.i2c is None or p.i2c.mux is None:
            out.append(f"colour: {len(sensors)} colour sensors but no [i2c] mux: every TCS34725 answers at "
                       "0x29, so several need a TCA9548A multiplexer (mux = 0x70) and a mux port per channel")
        else:
            ports: dict[int, Channel] = {}
            for c in sensors:
                if c.mux is None:
                    out.append(f"{c.label}: field 'mux' is missing: the TCA9548A port (0..7) of its colour "
                               "sensor")
                elif not 0 <= c.mux <= 7:
                    out.append(f"{c.label}: field 'mux' {c.mux} must be a TCA9548A port 0..7")
                elif c.mux in ports:
                    out.append(f"{c.label}: field 'mux' port {c.mux} is already {ports[c.mux].label}'s")
                else:
                    ports[c.mux] = c
    chans = {c.ch: c for c in sensors}
    for n, f in enumerate(col.refs):
        where = f"colour.ref[{n}] (channel {f.ch}, {f.ball})"
        if f.ch not in chans:
            out.append(f"{where}: channel {f.ch} has no colour sensor")
        if f.ball not in p.colours:
            out.append(f"{where}: ball {f.ball!r} is not in colours ({', '.join(p.colours)})")
        for key in ("r", "g", "b"):
            if not 0 <= getattr(f, key) <= 2000:
                out.append(f"{where}: field '{key}' must be 0..2000 (per mille of the clear count)")
        if not 1 <= f.clear <= col.full:
            out.append(f"{where}: field 'clear' {f.clear} must be 1..{col.full} (the ceiling at {col.cycles} "
                       "cycles): learn the colours again after changing cycles or gain")
        if not 0 <= f.min_clear <= f.clear:
            out.append(f"{where}: field 'min_clear' must be 0..clear")
        if not 1 <= f.max_dist <= 1000:
            out.append(f"{where}: field 'max_dist' must be 1..1000")
    refs = list(col.refs)
    for i, a in enumerate(refs):
        for z in refs[i + 1:]:
            if a.ch != z.ch or a.ball == z.ball:
                continue
            d = ((a.r - z.r) ** 2 + (a.g - z.g) ** 2 + (a.b - z.b) ** 2) ** 0.5
            if d <= a.max_dist + z.max_dist:
                out.append(f"colour: channel {a.ch}: the {a.ball} and {z.ball} references overlap (distance "
                           f"{d:.0f}, max_dist {a.max_dist} + {z.max_dist}): the sensor cannot tell them "
                           "apart")
    return out


def _check_settings(p: TableProfile) -> list[str]:
    out = []
    if not (0 < len(p.id) <= 32 and all(ch.isdigit() or "a" <= ch <= "z" or ch in "_-" for ch in p.id)):
        out.append(f"profile: field 'id' {p.id!r} must be 1-32 of a-z, 0-9, _ and - "
                   "(it names /profiles/<id>.json on the board and `!profile <id>`)")
    if p.module not in esp32.MODULES:
        out.append(f"profile: field 'module' must be one of {', '.join(esp32.MODULES)} (got {p.module!r})")
    for key in ("rest_quiet_ms", "scan_ms", "heartbeat_ms"):
        if getattr(p, key) <= 0:
            out.append(f"profile: field '{key}' must be a positive number of milliseconds")
    if p.heartbeat_ms > 1000:
        out.append("profile: field 'heartbeat_ms' must be at most 1000 (the host expects one a second)")
    if len(set(p.colours)) != len(p.colours):
        out.append("profile: field 'colours' lists a colour twice")
    if len(p.colours) > 254:
        out.append("profile: field 'colours' has more than 254 entries (READING values are one byte)")
    parts = p.fw_min.split(".")
    if len(parts) != 3 or not all(x.isdigit() for x in parts):
        out.append(f"profile: field 'fw_min' must be a version like 0.1.0 (got {p.fw_min!r})")
    if p.i2c is not None:
        for key in ("sda", "scl"):
            gpio = getattr(p.i2c, key)
            why = _unusable(gpio, p.module)
            if why:
                out.append(f"i2c: field '{key}' GPIO{gpio}: {why}")
            elif gpio in esp32.INPUT_ONLY:
                out.append(f"i2c: field '{key}' GPIO{gpio} is input-only; I2C needs an open-drain output")
            elif gpio in esp32.BOOT_BREAKING_STRAPS:
                out.append(f"i2c: field '{key}' GPIO{gpio}: the bus pull-up on a strapping pin "
                           f"can break boot: {esp32.BOOT_BREAKING_STRAPS[gpio]}")
        if p.i2c.sda == p.i2c.scl:
            out.append("i2c: sda and scl are the same pin")
    return out


def _unusable(gpio: int, module: str) -> str | None:
    if gpio not in esp32.GPIOS:
        return "there is no such GPIO on the ESP32"
    if gpio in esp32.FLASH_PINS:
        return "GPIO6-11 are wired to the module's SPI flash"
    if gpio in esp32.UART0_PINS:
        return f"it is {esp32.UART0_PINS[gpio]}, the USB serial link to the host"
    if module == "esp32-wrover" and gpio in esp32.PSRAM_PINS:
        return "GPIO16/17 drive the PSRAM of a WROVER module"
    return None


def check_channel(c: Channel, p: TableProfile) -> list[str]:
    out: list[str] = []
    where = c.label
    if not 0 <= c.ch < esp32.MAX_CHANNELS:
        out.append(f"{where}: field 'ch' must be 0..{esp32.MAX_CHANNELS - 1} "
                   "(HELLO reports the levels as a 32-bit mask)")
    if c.kind not in KINDS:
        out.append(f"{where}: field 'kind' {c.kind!r} is unknown (kinds: {', '.join(KINDS)})")
    elif c.index not in INDEXES[c.kind]:
        allowed = ", ".join(repr(i) if isinstance(i, str) else str(i) for i in INDEXES[c.kind])
        out.append(f"{where}: field 'index' {c.index!r} is not a {c.kind} (allowed: {allowed})")
    if c.mode not in MODES:
        out.append(f"{where}: field 'mode' {c.mode!r} is unknown (modes: {', '.join(MODES)})")
    if c.active not in (0, 1):
        out.append(f"{where}: field 'active' must be 0 or 1 (the level while the sensor is active)")
    if c.debounce_us < 0:
        out.append(f"{where}: field 'debounce_us' must not be negative")
    elif c.mode == "pcnt" and c.debounce_us == 0:
        out.append(f"{where}: field 'debounce_us' 0 turns the pulse counter's glitch filter off: give "
                   f"1..{esp32.PCNT_FILTER_MAX_US} (10 for the one-shots of hardware/sensors.md)")
    elif c.mode == "pcnt" and c.debounce_us > esp32.PCNT_FILTER_MAX_US:
        out.append(f"{where}: field 'debounce_us' {c.debounce_us} is longer than the pulse counter's "
                   f"glitch filter allows ({esp32.PCNT_FILTER_MAX_US} us); debounce the piezo in hardware "
                   "with the one-shot")
    if c.colour and c.kind not in ("goal", "pocket"):
        out.append(f"{where}: field 'colour' only applies to goal and pocket channels")
    if c.colour and (not p.colours or p.i2c is None):
        out.append(f"{where}: field 'colour' needs the profile's 'colours' list and an [i2c] bus")
    if c.kind in ("cushion", "motion") and c.mode in ("irq", "capture"):
        out.append(f"{where}: field 'mode' {c.mode!r} for a piezo would flood the scheduler with ringing; "
                   "use 'pcnt' behind the comparator and one-shot")
    why = _unusable(c.gpio, p.module)
    if why:
        out.append(f"{where}: field 'gpio' GPIO{c.gpio}: {why}")
        return out
    if c.gpio in esp32.INPUT_ONLY and c.pull is not None:
        out.append(f"{where}: field 'pull' {c.pull!r} on GPIO{c.gpio}: GPIO34-39 are input-only and have "
                   "no internal pull resistors; set pull = \"none\" and fit an external resistor")
    if c.gpio in esp32.BOOT_BREAKING_STRAPS:
        out.append(f"{where}: field 'gpio' GPIO{c.gpio} is a strapping pin and a sensor on it can break "
                   f"boot: {esp32.BOOT_BREAKING_STRAPS[c.gpio]}")
    elif c.gpio in esp32.SOFT_STRAPS and not (c.pull == "up" and c.active == 0):
        out.append(f"{where}: field 'gpio' GPIO{c.gpio} is a strapping pin: use it only with pull = \"up\" "
                   f"and active = 0 ({esp32.SOFT_STRAPS[c.gpio]})")
    if c.pull is None and c.gpio not in esp32.INPUT_ONLY and c.mode in ("irq", "capture", "poll") \
            and c.kind in ("goal", "pocket", "pin"):
        out.append(f"{where}: field 'pull' is \"none\" on a switch or open-collector sensor: the input "
                   "floats while idle; use pull = \"up\" (active = 0) or an external resistor on GPIO34-39")
    return out


def _check_shared(p: TableProfile) -> list[str]:
    out: list[str] = []
    for ch, n in Counter(c.ch for c in p.channels).items():
        if n > 1:
            names = ", ".join(c.name for c in p.channels if c.ch == ch)
            out.append(f"channel {ch}: field 'ch' is used by {n} channels ({names})")
    for name, n in Counter(c.name for c in p.channels).items():
        if n > 1:
            out.append(f"channel name {name!r}: field 'name' is used by {n} channels")
    by_gpio: dict[int, list[Channel]] = {}
    for c in p.channels:
        by_gpio.setdefault(c.gpio, []).append(c)
    for gpio, chans in by_gpio.items():
        if len(chans) > 1:
            out.append(f"{chans[1].label}: field 'gpio' GPIO{gpio} is already used by {chans[0].label}")
    if p.i2c is not None:
        for c in p.channels:
            if c.gpio in (p.i2c.sda, p.i2c.scl):
                out.append(f"{c.label}: field 'gpio' GPIO{c.gpio} is the I2C bus of the colour sensors")
    for (kind, index), n in Counter((c.kind, c.index) for c in p.channels).items():
        if n > 1:
            out.append(f"{kind} {index}: {n} channels report the same {kind}")
    return out


def _check_limits(channels: Iterable[Channel]) -> list[str]:
    chans = list(channels)
    out: list[str] = []
    irq = [c for c in chans if c.mode in IRQ_MODES]
    if len(irq) > esp32.SCHED_QUEUE:
        out.append(f"{len(irq)} irq/capture channels ({', '.join(c.name for c in irq)}): at most "
                   f"{esp32.SCHED_QUEUE}, because MicroPython on the ESP32 runs every pin interrupt "
                   f"through one scheduler queue of {esp32.SCHED_QUEUE} and drops edges beyond it; "
                   "poll the slow sensors instead")
    cap = [c for c in chans if c.mode == "capture"]
    if len(cap) > esp32.MCPWM_CAPTURE_INPUTS:
        out.append(f"{len(cap)} capture channels ({', '.join(c.name for c in cap)}): at most "
                   f"{esp32.MCPWM_CAPTURE_INPUTS}, because the ESP32 has 2 MCPWM units with 3 capture "
                   "inputs each and the firmware keeps one input of each unit as its time reference")
    pcnt = [c for c in chans if c.mode == "pcnt"]
    if len(pcnt) > esp32.PCNT_UNITS:
        out.append(f"{len(pcnt)} pcnt channels ({', '.join(c.name for c in pcnt)}): at most "
                   f"{esp32.PCNT_UNITS}, because the ESP32 has {esp32.PCNT_UNITS} pulse-counter units")
    if len(chans) > esp32.MAX_CHANNELS:
        out.append(f"{len(chans)} channels: at most {esp32.MAX_CHANNELS} (HELLO's 32-bit level mask)")
    return out
