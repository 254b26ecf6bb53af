# The firmware's main.py with the colour-sensor hooks proposed for hal_virtual.py and
# link.py (docs/firmware.md, "Colour sensors: the hooks"), applied by subclassing so the
# end-to-end tests run the real firmware with the register-level sensor model before
# (and after) the hooks are in. Once hal_virtual.Hal has use_board and link.Firmware
# answers `!colour`, this file adds nothing.
import sys

from array import array

import board as boardcfg
import colour
import hal_virtual
import link
from colour_virtual import VirtualColourBus

_HOOKED_HAL = hasattr(hal_virtual.Hal, "use_board")


class Hal(hal_virtual.Hal):
    def __init__(self):
        super().__init__()
        if not _HOOKED_HAL:
            seed = int(hal_virtual._env("TABLESENSE_COLOUR_SEED", "1"))
            self.colour_bus = VirtualColourBus(lambda: self.now, seed=seed)
            self.colour_sensors = None

    if not _HOOKED_HAL:

        def use_board(self, b):
            self.colour_bus.use_board(b)
            self.colour_sensors = colour.ColourSensors(self.colour_bus, b) if b.colour_model else None
            return self.colour_sensors.problems if self.colour_sensors is not None else []

        def colour(self, ch):
            if self.colour_sensors is not None:
                return self.colour_sensors.classify(ch)
            return self.colours.get(ch, 0)

        def _apply(self, item, t):
            if "rgb" in item or "colour" in item:
                ch = item.get("ch")
                self.colour_bus.feed(ch, item, t)
                if isinstance(item.get("colour"), int):
                    self.colours[ch] = item["colour"]
                return
            super()._apply(item, t)


class Firmware(link.Firmware):
    def __init__(self, hal, out=None, inp=None):
        self.rgbc = array("H", [0] * 4)
        super().__init__(hal, out, inp)

    def use_board(self, b):
        super().use_board(b)
        for text in self.hal.use_board(b):
            self.error(link.E_PROFILE, text)

    def command(self, line):
        parts = line.split()
        if parts and parts[0] == "!colour":
            ch = link._int_arg(parts[1:], boardcfg.MAX_CHANNELS - 1)
            if ch is None:
                self.error(link.E_ARGUMENT, "usage: !colour <channel 0..31>")
                return
            st = colour.sample(self.hal.colour_sensors, ch, self.rgbc)
            seq = self.sent_seq if hasattr(self, "sent_seq") else self.last_seq  # as PONG has it
            self.write(colour.encode_colour(self.enc, seq, ch, st, self.rgbc))
            return
        super().command(line)


try:
    r = Firmware(Hal()).run()
    if r is not None:  # a firmware whose main loop is a coroutine
        import asyncio

        asyncio.run(r)
except Exception as e:
    sys.print_exception(e, sys.stderr)
    sys.exit(1)
except KeyboardInterrupt as e:
    sys.print_exception(e, sys.stderr)
    sys.exit(130)
