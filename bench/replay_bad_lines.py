"""Benchmark: what `tablesense replay` says about bad logs, and what it costs.

Usage: python bench/replay_bad_lines.py

Each log is replayed by a fresh `tablesense replay` process; for each: the lines on
stderr, the longest of them, the exit status and the seconds it took, beside the anchor:
the same log's good lines alone (``examples/golf-match.jsonl``), and for the 50 MB name,
``json.loads`` of the line in this process.

- one bad set-up line before the 166 events of a match (was: 167 lines on stderr);
- a set-up with a 50 MB player's name (was: echoed in one 50 MB line);
- a clock that runs back across shots on every line after the 10th (said once);
- times of -1, 1e308 and 2^70 (was: accepted with no word).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLESENSE = [str(Path(sys.executable).parent / "tablesense")]
GOOD = [x for x in (ROOT / "examples/golf-match.jsonl").read_text().splitlines() if x.strip()]


def replay(path: Path) -> tuple[int, int, int, float]:
    started = time.monotonic()
    proc = subprocess.run([*TABLESENSE, "replay", str(path)], capture_output=True, timeout=600)
    took = time.monotonic() - started
    err = proc.stderr.decode("utf-8", "replace").splitlines()
    return len(err), max((len(x) for x in err), default=0), proc.returncode, took


def events(n: int, start: float = 1.0) -> list[str]:
    out = []
    for k in range(n):
        kind = {"t": round(start + k * 0.5, 6), "type": "cushion", "cushion": 1 + k % 4}
        out.append(json.dumps(kind if k % 4 else {"t": round(start + k * 0.5, 6), "type": "rest"}))
    return out


def main() -> None:
    setup = json.loads(GOOD[0])
    with tempfile.TemporaryDirectory() as tmp:
        logs: dict[str, list[str]] = {}
        logs["anchor: a good log (examples/golf-match.jsonl)"] = GOOD
        bad = dict(setup, players={"p1": "Ann", "p2": 5})
        logs["one bad set-up line, 166 events after it"] = [json.dumps(bad), *events(166)]
        big = dict(setup, players={"p1": "A" * 50_000_000, "p2": "Bob"})
        logs["a 50 MB player's name"] = [json.dumps(big), *GOOD[1:]]
        back = events(200, start=100.0)
        for k in range(10, 200):
            obj = json.loads(back[k])
            obj["t"] = round(obj["t"] - 50, 6)
            back[k] = json.dumps(obj)
        logs["the clock back 50 s from the 10th event on"] = [GOOD[0], *back]
        logs["times -1, 1e308, 2^70"] = [GOOD[0], '{"t": -1, "type": "rest"}', '{"t": 1e308, "type": "rest"}',
                                         '{"t": 1180591620717411303424, "type": "rest"}', *GOOD[1:]]
        for label, lines in logs.items():
            path = Path(tmp) / "log.jsonl"
            path.write_text("\n".join(lines) + "\n")
            size = path.stat().st_size
            n, longest, code, took = replay(path)
            print(f"{label}: {n} lines on stderr, the longest {longest} characters, exit {code}, "
                  f"{took:.2f} s ({size / 1e6:.1f} MB)")
            if "50 MB" in label:
                started = time.monotonic()
                json.loads(lines[0])
                print(f"  anchor: json.loads of that set-up line alone {time.monotonic() - started:.2f} s")


if __name__ == "__main__":
    main()
