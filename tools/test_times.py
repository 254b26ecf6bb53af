"""Where the suite's time goes, file by file: a pytest plugin that writes each test's wall
time and CPU time (the worker's and that of the children it waited for) as JSON lines, one
file a worker, and a summary of them.

    rm -rf /tmp/test-times
    PYTHONPATH=tools TEST_TIMES=/tmp/test-times PYTEST_ADDOPTS="-p test_times" make test
    .venv/bin/python tools/test_times.py /tmp/test-times      # the costliest files first
    .venv/bin/python tools/test_times.py /tmp/test-times cpu  # by CPU, which the load moves least

Each file's wall time less its CPU time is what it waited (on real-time runs, other
processes, chromium) or, on a loaded machine, queued for a core.

A child's CPU is counted when its parent waits for it: chromium's processes, children of
Playwright's driver, are counted by none of the tests (docs/performance.md, "The test suite").
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

OUT = os.environ.get("TEST_TIMES", "test-times")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    t0, c0 = time.perf_counter(), os.times()
    yield
    c1, t1 = os.times(), time.perf_counter()
    cpu = sum(getattr(c1, k) - getattr(c0, k) for k in ("user", "system", "children_user", "children_system"))
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, f"{os.getpid()}.jsonl"), "a", encoding="utf-8") as f:
        f.write(json.dumps({"id": item.nodeid, "wall": t1 - t0, "cpu": cpu}) + "\n")


def summary(folder: Path, top: int = 30, by: str = "wall") -> list[str]:
    wall: Counter[str] = Counter()
    cpu: Counter[str] = Counter()
    count: Counter[str] = Counter()
    for path in folder.glob("*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            row: dict[str, Any] = json.loads(line)
            name = row["id"].split("::")[0]
            wall[name] += row["wall"]
            cpu[name] += row["cpu"]
            count[name] += 1
    out = [f"{sum(wall.values()):8.0f} s wall summed over the workers, {sum(cpu.values()):.0f} s CPU, "
           f"{sum(wall.values()) - sum(cpu.values()):.0f} s waiting"]
    order = cpu if by == "cpu" else wall
    out += [f"{wall[n]:8.1f} s wall {cpu[n]:7.1f} s CPU {wall[n] - cpu[n]:7.1f} s waiting "
            f"{count[n]:5d} tests  {n}" for n, _ in order.most_common(top)]
    return out


if __name__ == "__main__":
    ok = len(sys.argv) in (2, 3) and Path(sys.argv[1]).is_dir() and sys.argv[2:] in ([], ["wall"], ["cpu"])
    if not ok:
        sys.exit("usage: tools/test_times.py FOLDER [wall|cpu]   (the TEST_TIMES folder of a run; the order)")
    print("\n".join(summary(Path(sys.argv[1]), by=sys.argv[2] if len(sys.argv) == 3 else "wall")))
