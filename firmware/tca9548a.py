# TCA9548A I2C multiplexer (Texas Instruments): eight downstream bus segments behind one
# address; one control byte selects the ports (bit n = port n). It lets several
# TCS34725 colour sensors, which all answer at 0x29, share one bus.
#
# Bus objects: anything with machine.I2C's writeto(addr, buf) (machine.I2C on the
# ESP32, colour_virtual.VirtualColourBus on the unix port).
from micropython import const

ADDR = const(0x70)  # A0-A2 low; 0x70..0x77 with them strapped


class Mux:
    """The multiplexer at addr. It remembers the port it selected last: selecting that
    port again writes nothing, since every I2C transaction holds the pins' IRQ callbacks
    back while it runs (docs/timing.md). After a bus error the port is forgotten, so the
    next select writes the control byte again. Does not allocate."""

    def __init__(self, i2c, addr=ADDR):
        self.i2c = i2c
        self.addr = addr
        self.sel = bytearray(1)
        self.port = -1  # the port selected now; -1: not known
        self.writes = 0  # control bytes written (what remembering the port saves)

    def select(self, port):
        """Connect port 0..7 (only it) to the bus; OSError when the mux does not answer."""
        if port == self.port:
            return
        self.port = -1  # until the write is known to have happened
        self.sel[0] = 1 << port
        self.writes += 1
        self.i2c.writeto(self.addr, self.sel)
        self.port = port

    def forget(self):
        """Not sure which port is selected (a transaction failed): write it next time."""
        self.port = -1
