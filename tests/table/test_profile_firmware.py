"""Board config round trip: profile -> generated JSON -> the firmware's loader under MicroPython."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from paths import ROOT

from tablesense.sim.fitl import find_micropython
from tablesense.table.profile import board_config, load_profile

READER = """
import sys
sys.path.insert(0, %r)
import json, board
b = board.load(%r)
print(json.dumps({"profile": b.profile, "scan_ms": b.scan_ms, "heartbeat_ms": b.heartbeat_ms,
                  "colours": b.colours, "n": b.n_channels(),
                  "channels": [[c.ch, c.name, c.kind, c.index, c.gpio, c.pull, c.active, c.mode,
                                c.debounce_us, c.colour] for c in b.channels]}))
"""

pytestmark = pytest.mark.micropython


@pytest.mark.parametrize("pid", ["golf", "kegle", "carom"])
def test_firmware_reads_back_the_generated_board_config(pid: str, tmp_path: Path) -> None:
    prof = load_profile(pid)
    cfg = tmp_path / f"{pid}.json"
    cfg.write_text(json.dumps(board_config(prof)))
    script = tmp_path / "read.py"
    script.write_text(READER % (str(ROOT / "firmware"), str(cfg)))
    res = subprocess.run([find_micropython(), str(script)], capture_output=True, text=True, timeout=30)
    assert res.returncode == 0, res.stderr + res.stdout
    got = json.loads(res.stdout)
    assert got["profile"] == pid
    assert got["scan_ms"] == prof.scan_ms and got["heartbeat_ms"] == prof.heartbeat_ms
    assert got["colours"] == list(prof.colours)
    assert got["n"] == max(c.ch for c in prof.channels) + 1
    assert got["channels"] == [
        [c.ch, c.name, c.kind, c.index, c.gpio, c.pull, c.active, c.mode, c.debounce_us, c.colour]
        for c in sorted(prof.channels, key=lambda c: c.ch)
    ]
