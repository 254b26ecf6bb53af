"""The power budget of each table (tablesense.table.power): what its rails draw, what comes
through the host's USB port, and the supply to buy when that is too much."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tablesense.table.power import COLOUR_MA, USB_COMFORT_MA, budget
from tablesense.table.profile import load_profile
from tablesense.table.wiring import wiring_svg


def test_a_keglebillard_table_is_too_much_for_a_usb_port_and_names_the_supply_to_buy() -> None:
    b = budget(load_profile("kegle"))
    assert 350 <= b.usb_ma <= 450  # six emitters, six colour sensors with their LEDs, the board
    assert b.supply and "5 V" in b.supply and "3.3 V" in b.supply
    svg = wiring_svg(load_profile("kegle"))
    assert "too much" in svg and "sensors.md, Power" in svg


@pytest.mark.parametrize("pid", ["golf", "carom"])
def test_golf_and_carom_run_from_the_usb_port(pid: str) -> None:
    b = budget(load_profile(pid))
    assert b.usb_ma <= USB_COMFORT_MA and b.supply == ""
    assert f"{b.usb_ma} mA through the host's USB port: enough" in wiring_svg(load_profile(pid))


def test_each_colour_sensor_with_its_led_adds_to_the_3v3_rail() -> None:
    golf = load_profile("golf")
    plain = replace(golf, channels=tuple(replace(c, colour=False) for c in golf.channels))
    assert budget(golf).rail_3v3_ma - budget(plain).rail_3v3_ma == 2 * COLOUR_MA + 1  # and the mux
