"""How long the command line takes to answer: ``tablesense --version`` (the whole parser is
built: every command module imported), ``tablesense help cli``, and the serial-port check
of a missing port (``monitor --serial`` on a path that is not there), each as a fresh
process, beside the anchor of the same run: a bare ``python -c pass``."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "host") + os.pathsep + os.environ.get("PYTHONPATH", "")}
RUNS = 9


def wall(argv: list[str]) -> tuple[float, float]:
    """(median, best) wall seconds of ``argv`` over RUNS fresh processes."""
    times = []
    for _ in range(RUNS):
        t = time.perf_counter()
        subprocess.run(argv, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - t)
    return statistics.median(times), min(times)


def main() -> None:
    py = [sys.executable]
    cases = [("anchor: python -c pass", [*py, "-c", "pass"]),
             ("tablesense --version", [*py, "-m", "tablesense", "--version"]),
             ("tablesense help cli", [*py, "-m", "tablesense", "help", "cli"]),
             ("tablesense monitor --serial /dev/nonesuch", [*py, "-m", "tablesense", "monitor", "--serial",
                                                            "/dev/nonesuch"])]
    anchor = None
    for name, argv in cases:
        median, best = wall(argv)
        anchor = anchor or median
        print(f"{name}: median {median * 1e3:.0f} ms, best {best * 1e3:.0f} ms "
              f"({median / anchor:.1f}x the anchor), {RUNS} runs")


if __name__ == "__main__":
    main()
