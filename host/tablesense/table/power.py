"""The power budget of a table's electronics, from its profile: what each rail draws, what
comes through the host's USB port, and the supply to buy when USB is not enough.

Pure arithmetic over the parts of hardware/sensors.md and hardware/bom.md (each figure is
that part's typical draw in this circuit, rounded up); the wiring diagrams and
hardware/sensors.md print it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .profile import TableProfile

#: mA on the 3V3 rail (the DevKitC's AMS1117 regulator, or the sensors' own 3.3 V step-down)
ESP32_MA = 70  # WROOM-32E, 240 MHz busy main loop, radio off (the firmware never starts Wi-Fi)
RECEIVER_MA = 10  # IR break-beam receiver, and its 4.7 kOhm pull-up while the beam is broken
COLOUR_MA = 20  # TCS34725 module with its white LED on (Adafruit 1334)
MUX_MA = 1  # TCA9548A
SWITCH_MA = 1  # tilt switch closed on its 4.7 kOhm pull-up (0.7 mA)
ONE_SHOT_MA = 1  # a 74HC123/74HC221 package on 3V3 (CMOS, driving 100 kOhm)
BIAS_MA = 1  # MCP6002 bias buffer and the bias divider
#: mA on the 5 V rail
EMITTER_MA = 20  # IR emitter through its resistor (Adafruit 2167/2168)
COMPARATOR_MA = 2  # an LM339 package (four comparators), its maximum supply current
BRIDGE_MA = 20  # the DevKitC's USB-UART bridge (CP2102N), from USB
#: What a USB 2.0 port promises (500 mA at 4.75 V at worst); the DevKitC's regulator needs
#: about 4.5 V in for 3.3 V out, so a long or thin cable at 400 mA already browns it out.
USB_MA = 500
USB_COMFORT_MA = 300  # beyond this, the sensors get a supply of their own
SUPPLY = ("a 5 V 3 A supply (Mean Well GST18E05-P1J) for the sensors' 5 V rail, and a 3.3 V 1 A "
          "step-down (Pololu D24V10F3) from it for their 3V3 rail; GND joined to the board's; the "
          "board itself stays on USB")


@dataclass(frozen=True)
class Budget:
    """mA per rail for one table; ``usb_ma`` what the host's port carries when everything
    hangs off the board; ``supply`` the supply to buy ("" when USB is enough)."""

    rail_3v3_ma: int
    rail_5v_ma: int
    usb_ma: int
    sensors_3v3_ma: int  # of rail_3v3_ma, what the sensors draw (all but the ESP32)
    supply: str

    def text(self) -> str:
        where = f"{self.usb_ma} mA from the host's USB port if the board powers everything"
        if self.supply:
            return (f"3V3 {self.rail_3v3_ma} mA, 5 V {self.rail_5v_ma} mA: {where}, too close to a USB "
                    f"port's {USB_MA} mA: buy {self.supply}")
        return f"3V3 {self.rail_3v3_ma} mA, 5 V {self.rail_5v_ma} mA: {where}; USB is enough"


def budget(p: TableProfile) -> Budget:
    beams = [c for c in p.channels if c.kind in ("goal", "pocket")]
    colour = [c for c in p.channels if c.colour]
    switches = [c for c in p.channels if c.kind == "pin"]
    piezos = [c for c in p.channels if c.mode == "pcnt"]
    sensors = (len(beams) * RECEIVER_MA + len(colour) * COLOUR_MA + (MUX_MA if colour else 0)
               + len(switches) * SWITCH_MA)
    if piezos:
        sensors += BIAS_MA + -(-len(piezos) // 2) * ONE_SHOT_MA  # two one-shots a package
    rail_5v = len(beams) * EMITTER_MA + (-(-len(piezos) // 4) * COMPARATOR_MA if piezos else 0)
    rail_3v3 = ESP32_MA + sensors
    usb = rail_3v3 + rail_5v + BRIDGE_MA
    return Budget(rail_3v3, rail_5v, usb, sensors, SUPPLY if usb > USB_COMFORT_MA else "")
