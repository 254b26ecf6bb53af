"""Where the suite's time goes, file by file: a pytest plugin that writes each test's wall
time and CPU time (the worker's and that of the children it waited for) as JSON lines, one
file a worker, and a summary of them.

    rm -rf /tmp/test-times
    PYTHONPATH=tools TEST_TIMES=/tmp/test-times PYTEST_ADDOPTS="-p test_times" make test
    .venv/bin/python tools/test_times.py /tmp/test-times      # the costliest files first
    .venv/bin/python tools/test_times.py /tmp/test-times cpu  # by CPU, which the load moves least

Each file's wall time less its CPU time is what it waited (on real-time runs, other
processes, chromium) or, on a loaded machine, queued for a core. Last, each worker's span
and how long it stood idle before the last worker ended, with the files it ended on: a
worker long idle says the order of the files (tests/conftest.py) left one long file to the
end.

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
        f.write(json.dumps({"id": item.nodeid, "wall": t1 - t0, "cpu": cpu, "end": time.time()}) + "\n")


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


def workers(folder: Path, last: int = 3) -> list[str]:
    """Each worker's (each file's, one a worker process) span from its first test's start to
    its last test's end, how long before the last worker's end it ran out of tests (what the
    order of the files left it idle), and the files it ended on."""
    spans = []
    for path in sorted(folder.glob("*.jsonl")):
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        rows = [r for r in rows if "end" in r]
        if rows:
            files: list[str] = []
            for r in reversed(rows):
                name = r["id"].split("::")[0]
                if name not in files:
                    files.append(name)
            spans.append((rows[0]["end"] - rows[0]["wall"], rows[-1]["end"], len(rows), files[:last]))
    if not spans:
        return []
    finish = max(end for _, end, _, _ in spans)
    return [f"worker {n}: {end - start:6.0f} s, {n_tests:5d} tests, idle {finish - end:5.0f} s at the end; "
            f"last files {', '.join(reversed(files))}"
            for n, (start, end, n_tests, files) in enumerate(spans)]


if __name__ == "__main__":
    ok = len(sys.argv) in (2, 3) and Path(sys.argv[1]).is_dir() and sys.argv[2:] in ([], ["wall"], ["cpu"])
    if not ok:
        sys.exit("usage: tools/test_times.py FOLDER [wall|cpu]   (the TEST_TIMES folder of a run; the order)")
    print("\n".join(summary(Path(sys.argv[1]), by=sys.argv[2] if len(sys.argv) == 3 else "wall")
                    + workers(Path(sys.argv[1]))))
