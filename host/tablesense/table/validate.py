"""Checks of a table profile against the ESP32 and the firmware design.

Each check returns messages that name the channel and the field, so that the person
editing the TOML file knows which line to change and why.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from . import esp32
from .profile import KINDS, MODES, Channel, TableProfile

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
    return problems


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
