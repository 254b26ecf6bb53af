"""The firmware: every module compiles for the ESP32, and its MicroPython test scripts
(tests/firmware/test_*.py) pass under MicroPython's unix port."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tablesense.sim.fitl import FirmwareError, find_micropython

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
SCRIPTS = sorted((ROOT / "tests" / "firmware").glob("test_*.py"))
MODULES = sorted(FIRMWARE.glob("*.py"))

pytestmark = pytest.mark.micropython


def _tool(name: str) -> str:
    import shutil
    import sys

    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if not found:
        pytest.fail(f"{name} is not installed (make setup installs it)")
    return found


def test_the_firmware_has_its_modules() -> None:
    names = {p.stem for p in MODULES}
    assert {"main", "link", "ring", "clock", "wire", "capture", "board", "hal_esp32", "hal_virtual"} <= names


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_compiles_with_mpy_cross_for_the_esp32(module: Path, tmp_path: Path) -> None:
    out = tmp_path / (module.stem + ".mpy")
    r = subprocess.run(
        [_tool("mpy-cross"), "-march=xtensawin", "-o", str(out), str(module)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    assert out.stat().st_size > 0


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_micropython_script(script: Path) -> None:
    try:
        mpy = find_micropython()
    except FirmwareError as e:
        pytest.fail(str(e))
    r = subprocess.run(
        [mpy, "-X", "heapsize=16M", str(script)], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    lines = r.stdout.splitlines()
    assert any(line.startswith("ok ") for line in lines), out
    assert not [line for line in lines if line.startswith("FAIL")], out
    if (ROOT / "tests" / "vectors" / "protocol.json").exists():
        assert not [line for line in lines if line.startswith("SKIP")], out


@pytest.mark.parametrize("pid", ["golf", "kegle", "carom"])
def test_shipped_board_files_match_the_profile_generator(pid: str) -> None:
    profile = pytest.importorskip("tablesense.table.profile")
    want = profile.board_config(profile.load_profile(pid))
    got = json.loads((FIRMWARE / "boards" / f"{pid}.json").read_text())
    assert got == want, f"firmware/boards/{pid}.json is stale: regenerate with `tablesense profile gen {pid}`"
