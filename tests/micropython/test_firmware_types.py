"""The firmware the board runs type-checks against the published MicroPython ESP32 stubs
of the oldest (1.26) and the newest (1.29) supported MicroPython, and the check really
fails on a wrong keyword argument or a missing function (docs/firmware.md, "Type-checked
against the real port")."""

from __future__ import annotations

import importlib.util
import json
import subprocess
from pathlib import Path

import pytest
from paths import ROOT

_spec = importlib.util.spec_from_file_location("fw_typecheck", ROOT / "tools" / "firmware_typecheck.py")
assert _spec is not None and _spec.loader is not None
typecheck = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(typecheck)

pytestmark = [
    pytest.mark.skipif(
        typecheck.missing() is not None, reason=f"cannot type-check the firmware: {typecheck.missing()}"
    ),
    pytest.mark.slow,  # a type checker's run each (make test; make lint runs the check too)
]


@pytest.mark.parametrize("version", typecheck.VERSIONS)
def test_the_firmware_type_checks_against_the_esp32_stubs(version: str) -> None:
    r = typecheck.check(version)
    assert r.returncode == 0, f"MicroPython {version} stubs:\n{r.stdout}{r.stderr}"
    assert "0 errors" in r.stdout


WRONG = """\
import machine
import time

p = machine.Pin(4, machine.Pin.IN, machine.Pin.PULL_UP)
p.irq(handlr=None, trigger=machine.Pin.IRQ_RISING)  # wrong keyword: handler
t = time.ticks_us2()  # no such function
c = machine.Counter(0, p, edge=machine.Counter.RISING, filter_ns=1000)  # right
"""


def _check_snippet(tmp_path: Path, version: str, text: str) -> str:
    (tmp_path / "snippet.py").write_text(text)
    stubs = str(typecheck.stubs_dir(version))
    cfg = {
        "include": ["snippet.py"],
        "stubPath": stubs,
        "typeshedPath": stubs,
        "pythonPlatform": "Linux",
        "pythonVersion": "3.11",
        "typeCheckingMode": "standard",
        "reportMissingModuleSource": "none",
    }
    (tmp_path / "pyrightconfig.json").write_text(json.dumps(cfg))
    r = subprocess.run(
        typecheck.command(tmp_path / "pyrightconfig.json"), capture_output=True, text=True, timeout=300
    )
    assert r.returncode != 0, "the checker passed a wrong snippet:\n" + r.stdout
    return r.stdout


@pytest.mark.parametrize("version", typecheck.VERSIONS)
def test_the_check_fails_on_a_wrong_keyword_and_a_missing_function(tmp_path: Path, version: str) -> None:
    out = _check_snippet(tmp_path, version, WRONG)
    assert '"handlr"' in out, out
    assert '"ticks_us2"' in out, out
    assert "2 errors" in out, out  # and nothing else: machine.Counter(..., filter_ns=) is right


def test_the_two_versions_are_two_checks(tmp_path: Path) -> None:
    """Counter.IRQ_ROLL_OVER is in the 1.29 stubs only (documented for the MIMXRT port):
    what the newest stubs know must not hide what the oldest lack."""
    text = "import machine\nx = machine.Counter.IRQ_ROLL_OVER\np = machine.Pin(4)\np.irq(handlr=None)\n"
    old = _check_snippet(tmp_path, "1.26", text)
    assert '"IRQ_ROLL_OVER"' in old, old
    new = _check_snippet(tmp_path, "1.29", text)
    assert '"IRQ_ROLL_OVER"' not in new, new
