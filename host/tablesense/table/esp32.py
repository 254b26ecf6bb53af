"""What an ESP32 (ESP32-D0WD in a WROOM-32 / WROVER module) allows on each GPIO.

Facts from the ESP32 datasheet and technical reference manual, kept apart from the
profile logic so that the validation reads as rules over them.
"""

from __future__ import annotations

#: GPIO numbers that exist on the ESP32-D0WD.
GPIOS: frozenset[int] = frozenset([*range(0, 20), 21, 22, 23, 25, 26, 27, *range(32, 40)])

#: Wired to the module's SPI flash: touching them crashes the chip.
FLASH_PINS: frozenset[int] = frozenset(range(6, 12))

#: UART0, the USB serial link to the host (and mpremote's REPL).
UART0_PINS: dict[int, str] = {1: "UART0 TX", 3: "UART0 RX"}

#: Input-only pins: no output driver and no internal pull-up or pull-down.
INPUT_ONLY: frozenset[int] = frozenset(range(34, 40))

#: WROVER modules use these for the PSRAM.
PSRAM_PINS: frozenset[int] = frozenset([16, 17])

#: Strapping pins that a sensor input can turn into a board that does not boot (or cannot
#: be flashed): the sensor drives the pin both ways, and either level may be present at reset.
BOOT_BREAKING_STRAPS: dict[int, str] = {
    0: "GPIO0 low at reset enters the ROM download mode instead of running the firmware",
    2: "GPIO2 must be low or floating at reset for the ROM download mode used to flash the board",
    12: "GPIO12 (MTDI) high at reset selects 1.8 V flash and the module fails to boot",
}

#: Strapping pins that only change boot details (SDIO timing, ROM boot log): usable as an
#: input when the idle level is the pin's default high (pull "up", active low).
SOFT_STRAPS: dict[int, str] = {
    5: "GPIO5 (SDIO timing strap) must idle high at reset",
    15: "GPIO15 (MTDO) low at reset silences the boot log and changes SDIO timing",
}

STRAPPING_PINS: frozenset[int] = frozenset([*BOOT_BREAKING_STRAPS, *SOFT_STRAPS])

#: MicroPython on the ESP32 schedules every Pin.irq handler through one queue of 8
#: entries; more interrupt channels than that can lose edges when they fire together.
SCHED_QUEUE = 8
#: MCPWM: 2 units x 3 capture inputs, of which the firmware keeps input 2 of each unit as
#: its time reference (a software capture of "now"): 4 inputs are left for sensors
#: (firmware/hal_esp32.py refuses a fifth).
MCPWM_CAPTURE_INPUTS = 4
#: PCNT: 8 pulse-counter units on the ESP32.
PCNT_UNITS = 8
#: HELLO carries the channel levels as a u32 bit mask.
MAX_CHANNELS = 32
#: PCNT glitch filter: at most 1023 APB clock cycles at 80 MHz.
PCNT_FILTER_MAX_US = 12

MODULES: tuple[str, ...] = ("esp32-wroom-32", "esp32-wrover")
