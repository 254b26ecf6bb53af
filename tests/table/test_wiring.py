"""Wiring diagrams: generated from the profiles, committed, and kept up to date."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from paths import ROOT

from tablesense.table.profile import load_profile, profile_ids
from tablesense.table.wiring import wiring_svg

WIRING = ROOT / "hardware" / "wiring"


@pytest.mark.parametrize("pid", ["golf", "kegle", "carom"])
def test_committed_diagram_is_up_to_date(pid: str) -> None:
    committed = (WIRING / f"{pid}.svg").read_text(encoding="utf-8")
    assert committed == wiring_svg(load_profile(pid)), (
        f"hardware/wiring/{pid}.svg is stale: "
        f"run `tablesense profile wiring {pid} -o hardware/wiring/{pid}.svg`")


def test_every_profile_has_a_diagram() -> None:
    assert sorted(p.stem for p in WIRING.glob("*.svg")) == profile_ids()


@pytest.mark.parametrize("pid", ["golf", "kegle", "carom"])
def test_diagram_is_svg_naming_every_channel_and_gpio(pid: str) -> None:
    prof = load_profile(pid)
    root = ET.fromstring(wiring_svg(prof))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    for c in prof.channels:
        assert f"GPIO{c.gpio}" in texts
        assert any(t.startswith(f"{c.name}  ({c.kind} {c.index})") for t in texts)


def test_input_only_pins_get_an_external_resistor_and_colour_sensors_a_mux_port() -> None:
    svg = wiring_svg(load_profile("kegle"))
    assert svg.count("input-only: external 100 k to GND") == 4  # cushions on GPIO34-39
    assert "mux port 5 -&gt; TCS34725 for pocket_6" in svg
    assert "TCS34725" not in wiring_svg(load_profile("carom"))
