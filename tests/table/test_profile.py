"""Table profiles: the shipped ones load, bad ones are refused with errors naming channel and field."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tablesense.cli import main
from tablesense.table.profile import (
    PROFILE_DIR,
    ProfileError,
    board_config,
    load_profile,
    profile_from_dict,
    profile_ids,
)


def raw(pid: str = "golf") -> dict[str, Any]:
    return tomllib.loads((PROFILE_DIR / f"{pid}.toml").read_text())


def errors_of(data: dict[str, Any]) -> str:
    with pytest.raises(ProfileError) as info:
        profile_from_dict(data, source="t.toml")
    return str(info.value)


def test_the_three_tables_load() -> None:
    assert profile_ids() == ["carom", "golf", "kegle"]
    golf = load_profile("golf")
    assert [c.name for c in golf.channels] == ["goal_A", "goal_B", "motion"]
    assert golf.game == "golf" and golf.colours == ("p1", "p2")
    kegle = load_profile("kegle")
    assert len(kegle.by_kind("pocket")) == 6 and len(kegle.by_kind("pin")) == 5
    assert len(kegle.by_kind("cushion")) == 4 and len(kegle.by_kind("motion")) == 1
    assert kegle.colour_of(1) == "red" and kegle.colour_of(0) is None
    carom = load_profile("carom")
    assert {c.mode for c in carom.channels} == {"pcnt"}


def test_board_config_has_the_contract_shape() -> None:
    cfg = board_config(load_profile("golf"))
    keys = ["profile", "version", "fw_min", "scan_ms", "heartbeat_ms", "colours", "channels", "i2c", "colour"]
    assert list(cfg) == keys
    assert cfg["i2c"] == {"sda": 21, "scl": 22, "freq": 400_000, "mux": 0x70}
    assert cfg["colour"]["refs"][0] == [0, 1, 560, 230, 210, 2560, 640, 80]
    assert "colour" not in board_config(load_profile("carom"))
    assert "i2c" not in board_config(load_profile("carom"))
    assert cfg["channels"][0] == {"ch": 0, "name": "goal_A", "kind": "goal", "index": "A", "gpio": 32,
                                  "pull": "up", "active": 0, "mode": "irq", "debounce_us": 0, "colour": True,
                                  "mux": 0}
    motion = cfg["channels"][2]
    assert motion["pull"] is None and motion["mode"] == "pcnt" and "colour" not in motion


def test_a_generated_board_config_loads_back_as_the_same_channels(tmp_path: Path) -> None:
    out = tmp_path / "kegle.json"
    assert main(["profile", "gen", "kegle", "-o", str(out)]) == 0
    back = load_profile(out)
    assert back.channels == load_profile("kegle").channels
    assert board_config(back) == json.loads(out.read_text())


def test_two_channels_on_one_pin() -> None:
    d = raw()
    d["channels"][1]["gpio"] = 32
    assert "channel 1 (goal_B): field 'gpio' GPIO32 is already used by channel 0 (goal_A)" in errors_of(d)


def test_duplicate_channel_numbers() -> None:
    d = raw()
    d["channels"][2]["ch"] = 1
    assert "channel 1: field 'ch' is used by 2 channels (goal_B, motion)" in errors_of(d)


@pytest.mark.parametrize(("gpio", "why"), [(0, "download mode"), (12, "1.8 V flash"), (2, "download mode")])
def test_a_strapping_pin_that_breaks_boot(gpio: int, why: str) -> None:
    d = raw()
    d["channels"][0]["gpio"] = gpio
    msg = errors_of(d)
    assert f"channel 0 (goal_A): field 'gpio' GPIO{gpio} is a strapping pin" in msg and why in msg


def test_a_soft_strapping_pin_is_fine_idling_high_but_not_idling_low() -> None:
    d = raw()
    d["channels"][0]["gpio"] = 15  # pull up, active 0: idles high like the strap default
    assert load_profile_ok(d)
    d["channels"][0]["active"] = 1
    d["channels"][0]["pull"] = "down"
    assert "channel 0 (goal_A): field 'gpio' GPIO15 is a strapping pin" in errors_of(d)


def load_profile_ok(d: dict[str, Any]) -> bool:
    return profile_from_dict(d).id == d["id"]


def test_input_only_pins_have_no_pull() -> None:
    d = raw()
    d["channels"][0]["gpio"] = 36
    msg = errors_of(d)
    assert "channel 0 (goal_A): field 'pull' 'up' on GPIO36" in msg and "no internal pull" in msg


@pytest.mark.parametrize(("gpio", "why"), [(7, "SPI flash"), (1, "UART0 TX"), (24, "no such GPIO")])
def test_pins_that_are_taken_or_missing(gpio: int, why: str) -> None:
    d = raw()
    d["channels"][0]["gpio"] = gpio
    assert why in errors_of(d)


def test_psram_pins_on_a_wrover() -> None:
    d = raw("kegle")
    d["module"] = "esp32-wrover"
    assert "channel 15 (motion): field 'gpio' GPIO16: GPIO16/17 drive the PSRAM" in errors_of(d)


def test_more_irq_channels_than_the_scheduler_queue() -> None:
    d = raw("kegle")
    for c in d["channels"]:
        if c["kind"] == "pin":
            c["mode"] = "irq"
    msg = errors_of(d)
    assert "11 irq/capture channels" in msg and "scheduler queue of 8" in msg


def test_more_capture_channels_than_mcpwm_has() -> None:
    d = raw("kegle")
    for c in d["channels"]:
        if c["kind"] == "pocket" and c["index"] <= 5:
            c["mode"] = "capture"
    msg = errors_of(d)
    assert "5 capture channels" in msg and "at most 4" in msg and "time reference" in msg
    for c in d["channels"]:
        if c["kind"] == "pocket" and c["index"] == 5:
            c["mode"] = "irq"
    assert profile_from_dict(d, source="t.toml").by_kind("pocket")[0].mode == "capture"  # 4 are fine


def test_more_pulse_counters_than_pcnt_units() -> None:
    d = raw("kegle")
    for c in d["channels"]:
        if c["kind"] == "pin" and c["index"] <= 4:
            c["mode"] = "pcnt"
    assert "9 pcnt channels" in errors_of(d) and "8 pulse-counter units" in errors_of(d)


def test_unknown_kind_mode_and_index() -> None:
    d = raw()
    d["channels"][0]["kind"] = "hole"
    d["channels"][1]["mode"] = "dma"
    d["channels"][2]["kind"] = "cushion"
    d["channels"][2]["index"] = 7
    msg = errors_of(d)
    assert "channel 0 (goal_A): field 'kind' 'hole' is unknown (kinds: goal, pocket, pin, cushion" in msg
    assert "channel 1 (goal_B): field 'mode' 'dma' is unknown" in msg
    assert "channel 2 (motion): field 'index' 7 is not a cushion (allowed: 1, 2, 3, 4)" in msg


def test_wrong_types_and_missing_fields() -> None:
    d = raw()
    d["channels"][0]["gpio"] = "32"
    del d["channels"][1]["mode"]
    msg = errors_of(d)
    assert "channel 0 (goal_A): field 'gpio' must be an integer (got '32')" in msg
    assert "channel 1 (goal_B): field 'mode' is missing" in msg


def test_misspelt_fields_are_named() -> None:
    d = raw()
    d["rest_quite_ms"] = 900
    d["channels"][1]["debounce"] = 100
    msg = errors_of(d)
    assert "profile: unknown field 'rest_quite_ms' (fields: id, name, game," in msg
    assert "channel 1 (goal_B): unknown field 'debounce' (fields: ch, name, kind," in msg


def test_profile_ids_are_file_and_command_safe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = raw()
    d["id"] = "Golf Table"
    assert "profile: field 'id' 'Golf Table' must be 1-32 of a-z, 0-9, _ and -" in errors_of(d)
    monkeypatch.setenv("TABLESENSE_PROFILES", str(tmp_path))
    (tmp_path / "pool.toml").write_text((PROFILE_DIR / "golf.toml").read_text())
    with pytest.raises(ProfileError) as info:
        load_profile("pool")
    assert "field 'id' is 'golf' but the file is pool.toml: name it golf.toml" in str(info.value)


def test_a_piezo_on_an_interrupt_is_refused() -> None:
    d = raw("carom")
    d["channels"][0]["mode"] = "irq"
    assert "channel 0 (cushion_1): field 'mode' 'irq' for a piezo would flood the scheduler" in errors_of(d)


def test_channel_on_the_i2c_bus() -> None:
    d = raw()
    d["channels"][0]["gpio"] = 21
    assert "channel 0 (goal_A): field 'gpio' GPIO21 is the I2C bus of the colour sensors" in errors_of(d)


def test_cli_check_reports_every_problem_and_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    bad = tmp_path / "bad.toml"
    text = (PROFILE_DIR / "golf.toml").read_text().replace("gpio = 33", "gpio = 12").replace(
        "gpio = 35", "gpio = 32")
    bad.write_text(text)
    assert main(["profile", "check", str(bad), "golf"]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "GPIO12 is a strapping pin" in out and "GPIO32 is already used" in out
    assert "ok   golf" in out


def test_cli_names_unknown_profiles_and_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profile", "gen", "snooker"]) == 1
    assert "unknown table profile (profiles: carom, golf, kegle)" in capsys.readouterr().err
    broken = tmp_path / "x.toml"
    broken.write_text("id = \n")
    assert main(["profile", "check", str(broken)]) == 1
    assert "not valid TOML" in capsys.readouterr().out
    assert main(["profile", "check", str(tmp_path / "missing.toml")]) == 1
    assert "no such file" in capsys.readouterr().out
