"""bench/golf_replay.py runs and prints its figures (a smoke test, not a timing)."""

from __future__ import annotations

import subprocess
import sys

from paths import ROOT

BENCH = ROOT / "bench" / "golf_replay.py"


def test_golf_bench_replays_a_legal_synthetic_log_and_prints_events_per_second() -> None:
    proc = subprocess.run([sys.executable, str(BENCH), "3000"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("golf replay: ") and " matches" in lines[0]
    assert any(line.startswith("engine:") and line.endswith(" s)") and "events/s" in line for line in lines)
