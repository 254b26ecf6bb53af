"""The supported MicroPython range: what a board prints for the probe, what is refused, and
`tablesense flash` asking the board before it builds or copies anything.

The exchange runs for real: mpremote's serial transport against MicroPython's unix port on
a pty (its REPL speaks the raw-REPL protocol). The unix port is 1.29, a supported version,
so the refusal is shown by swapping the probe for one that prints what a MicroPython 1.25.0
ESP32 prints (the only thing not real in these tests: no old MicroPython runs here).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from paths import ROOT
from unix_repl import UnixRepl

from tablesense.cli import main
from tablesense.deploy import run as deploy_run
from tablesense.deploy.hello import check_hello, describe
from tablesense.deploy.run import FlashError, board_micropython
from tablesense.deploy.versions import (
    MICROPYTHON_MIN,
    BoardPython,
    expected_chip,
    hello_refusal,
    note,
    parse_board,
    parse_version,
    refusal,
    supported,
)
from tablesense.link.frame import HelloFrame

ESP32_1_26_1 = "((1, 26, 1, ''), 'Generic ESP32 module with ESP32', 'esp32')"
ESP32_1_25_0 = "((1, 25, 0, ''), 'Generic ESP32 module with ESP32', 'esp32')"
S3_1_27 = "((1, 27, 0, ''), 'Generic ESP32S3 module with ESP32S3', 'esp32')"
OLD_3_TUPLE = "((1, 20, 0), 'ESP32 module with ESP32', 'esp32')"


def test_the_floor_is_the_first_release_with_a_pulse_counter() -> None:
    assert MICROPYTHON_MIN == (1, 26, 0)  # machine.Counter and esp32.PCNT: ports/esp32 in v1.26.0


@pytest.mark.parametrize(("text", "version", "chip", "ok"), [
    (ESP32_1_26_1, (1, 26, 1), "esp32", True),
    (ESP32_1_25_0, (1, 25, 0), "esp32", False),
    (S3_1_27, (1, 27, 0), "esp32s3", True),
    (OLD_3_TUPLE, (1, 20, 0), "esp32", False),
    ("((1, 26, 0, 'preview'), 'Generic ESP32 module with ESP32', 'esp32')", (1, 26, 0), "esp32", False),
    ("((1, 29, 0, 'preview'), 'linux [GCC 14.2.1] version', 'linux')", (1, 29, 0), "unix", True),
    ("((1, 26, 1, ''), 'ESP32 module (spiram) with ESP32-D2WD', 'esp32')", (1, 26, 1), "esp32", True),
])
def test_what_a_board_prints_is_read(text: str, version: tuple[int, int, int], chip: str, ok: bool) -> None:
    board = parse_board(text + "\r\n")
    assert board.version == version and board.chip == chip
    assert (refusal(board) is None) == ok


def test_a_refusal_is_one_line_naming_the_version_found_and_the_one_to_install() -> None:
    why = refusal(parse_board(ESP32_1_25_0))
    assert why is not None and "\n" not in why
    assert "runs MicroPython 1.25.0" in why and "needs 1.26.0 or newer" in why
    assert "install MicroPython 1.29" in why


def test_newer_than_tested_is_accepted_with_a_note() -> None:
    newer = BoardPython((1, 31, 0), False, "Generic ESP32 module with ESP32", "esp32")
    assert refusal(newer) is None
    assert "newer than the newest tested (1.29)" in (note(newer) or "")
    assert note(parse_board(ESP32_1_26_1)) is None


@pytest.mark.parametrize("junk", ["", "Traceback (most recent call last):", "(1, 26)", "raw REPL; CTRL-B"])
def test_an_answer_that_is_not_the_probes_is_an_error(junk: str) -> None:
    with pytest.raises(ValueError, match=r"did not answer the version probe|odd version"):
        parse_board(junk)


def test_versions_in_hello_and_the_profiles_chip() -> None:
    assert parse_version("1.26.1") == ((1, 26, 1), False)
    assert parse_version("1.27.0-preview") == ((1, 27, 0), True)
    assert supported((1, 26, 0)) and not supported((1, 26, 0), preview=True) and not supported((1, 25, 9))
    assert hello_refusal("") is None  # firmware before 0.2 does not say
    assert hello_refusal("1.26.1") is None
    assert "runs MicroPython 1.24.1" in (hello_refusal("1.24.1") or "")
    assert "not a version" in (hello_refusal("banana") or "")
    assert expected_chip("esp32-wroom-32") == "esp32" and expected_chip("esp32-wrover") == "esp32"
    assert expected_chip("esp32-s3-wroom-1") == "esp32s3" and expected_chip("nrf52") == ""


def test_the_hello_check_names_an_old_micropython_and_a_wrong_chip() -> None:
    hello = HelloFrame(5, 1_000_000, 9, 0, 0, 0, 0, "0.2.0", "golf", "1.25.0", "esp32s3")
    problems = check_hello(hello, "0.2.0", "golf", chip="esp32")
    assert len(problems) == 2 and "runs MicroPython 1.25.0" in problems[0]
    assert problems[1] == "board reports chip 'esp32s3', expected 'esp32'"
    ok = HelloFrame(5, 1_000_000, 9, 0, 0, 0, 0, "0.2.0", "golf", "1.26.1", "esp32")
    assert check_hello(ok, "0.2.0", "golf", chip="esp32") == []
    assert describe(ok) == "firmware 0.2.0 on MicroPython 1.26.1 (esp32), profile golf, 9 channels"
    old = HelloFrame(5, 0, 9, 0, 0, 0, 0, "0.1.0", "golf")
    assert describe(old) == "firmware 0.1.0, profile golf, 9 channels"


# -- the exchange for real: mpremote against the unix port's REPL -------------------------


@pytest.fixture
def repl(tmp_path: Path) -> Iterator[UnixRepl]:
    (tmp_path / "board").mkdir()
    r = UnixRepl(tmp_path / "board")
    yield r
    r.close()


@pytest.mark.micropython
def test_the_probe_reads_the_unix_ports_version(repl: UnixRepl) -> None:
    board = board_micropython(repl.port, soft_reset=False)
    assert board.version >= MICROPYTHON_MIN and board.chip == "unix" and board.platform == "linux"
    assert refusal(board) is None


@pytest.mark.micropython
def test_flash_refuses_an_old_micropython_before_building_or_copying(
        repl: UnixRepl, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(deploy_run, "PROBE", f"print({ESP32_1_25_0!r})")
    assert main(["flash", "--serial", repl.port, "--profile", "golf", "--resume"]) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("tablesense flash: the board runs MicroPython 1.25.0, the firmware needs 1.26.0")
    assert "install MicroPython 1.29" in err
    assert f"{repl.port}: MicroPython 1.25.0 on esp32" in out and "building" not in out
    assert list((tmp_path / "board").iterdir()) == []  # nothing was copied


@pytest.mark.micropython
def test_flash_reads_the_version_first_then_plans(repl: UnixRepl, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["flash", "--serial", repl.port, "--profile", "golf", "--resume", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out.index(": MicroPython 1.") < out.index("building firmware") < out.index("plan for")
    assert "on unix" in out


def test_a_port_without_micropython_is_one_clear_error(tmp_path: Path) -> None:
    master, slave = os.openpty()  # a port where nothing answers
    try:
        with pytest.raises(FlashError, match=r"no MicroPython REPL on .*: is MicroPython on the board\?"):
            board_micropython(os.ttyname(slave), timeout=0.5, soft_reset=False)
    finally:
        os.close(master)
        os.close(slave)


@pytest.mark.micropython
def test_host_and_firmware_name_the_chip_alike() -> None:
    """flash compares the chip the REPL reports (read on the host) with the HELLO's (read by
    firmware/hal_esp32.chip_of on the board): both must give the same name for every
    machine string the ESP32 port builds ("<board> with <MCU name>")."""
    import json

    from tablesense.deploy import versions
    from tablesense.sim.fitl import find_micropython

    names = [
        "Generic ESP32 module with ESP32", "Generic ESP32 module with ESP32-D2WD",
        "ESP32 UNICORE module with ESP32-UNICORE", "Generic ESP32S3 module with ESP32S3",
        "ESP32S2 module with ESP32S2FN4R2", "ESP32C3 module with ESP32C3",
        "Generic ESP32 module with ESP32-PICO-D4", "ESP32C6 module with ESP32C6",
    ]
    root = ROOT
    script = (f"import sys\nsys.path.insert(0, {str(root / 'firmware')!r})\nimport hal_esp32, json\n"
              f"print(json.dumps([hal_esp32.chip_of(n) for n in {names!r}]))")
    r = subprocess.run([find_micropython(), "-c", script], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == [versions.chip_from_machine(n) for n in names]


@pytest.mark.micropython
def test_host_and_firmware_state_the_same_oldest_micropython() -> None:
    """flash refuses, and the firmware's boot check names, the same oldest MicroPython."""
    import json

    from tablesense.deploy import versions
    from tablesense.sim.fitl import find_micropython

    root = ROOT
    script = (f"import sys\nsys.path.insert(0, {str(root / 'firmware')!r})\nimport hal_esp32, json\n"
              "print(json.dumps([list(hal_esp32.MP_MIN), hal_esp32.MP_MIN_TEXT,"
              " hal_esp32.version_error((1, 25, 0, ''), 'esp32')]))")
    r = subprocess.run([find_micropython(), "-c", script], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    mp_min, text, error = json.loads(r.stdout)
    assert tuple(mp_min) == versions.MICROPYTHON_MIN[:2]
    assert text == versions.version_text(versions.MICROPYTHON_MIN)[:4]
    assert "1.25.0" in error and "1.26" in error
