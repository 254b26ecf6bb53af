"""One-off (issue 13): the golf engine's rulings are rendered from data, and their
sentences name the players where they said p1/p2. This rewrites the ``text`` values of
the recorded matches' expectations (NAME.expect.json) to what `tablesense replay --json`
says now, and refuses to if anything but a text changed or a text changed by more than
the players' names.

    PYTHONPATH=$PWD/host python tests/matches/golf/names_in_texts.py [--check]
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def names(log: Path) -> dict[str, str]:
    for line in log.read_text().splitlines():
        try:
            e = json.loads(line)
        except ValueError:
            continue
        if isinstance(e, dict) and e.get("type") == "setup" and isinstance(e.get("players"), dict):
            return {k: " & ".join(map(str, v)) if isinstance(v, list) else str(v)
                    for k, v in e["players"].items()}
    return {}


def same_but_names(old: str, new: str, who: dict[str, str]) -> bool:
    for pid, name in sorted(who.items(), key=lambda kv: -len(kv[1])):
        if name and name not in ("p1", "p2"):
            new = new.replace(name, pid)
    return old == new


def merge(expected: Any, actual: Any, who: dict[str, str], path: str, problems: list[str]) -> Any:
    """``expected`` with its texts from ``actual``; what else differs goes to ``problems``."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = {}
        for k, v in expected.items():
            if k not in actual:
                problems.append(f"{path}.{k}: missing")
                out[k] = v
            elif k == "text" and isinstance(v, str) and isinstance(actual[k], str):
                if v != actual[k] and not same_but_names(v, actual[k], who):
                    problems.append(f"{path}.text: {v!r} -> {actual[k]!r}")
                out[k] = actual[k]
            else:
                out[k] = merge(v, actual[k], who, f"{path}.{k}", problems)
        return out
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            problems.append(f"{path}: {len(expected)} items -> {len(actual)}")
            return expected
        return [merge(e, a, who, f"{path}[{i}]", problems) for i, (e, a) in enumerate(zip(expected, actual))]
    if expected != actual and not (isinstance(expected, float) and abs(expected - actual) < 1e-9):
        problems.append(f"{path}: {expected!r} -> {actual!r}")
    return expected


def main(argv: list[str]) -> int:
    check = "--check" in argv
    bad = changed = 0
    for log in sorted(HERE.glob("*.jsonl")):
        expect_file = log.with_suffix(".expect.json")
        expected = json.loads(expect_file.read_text())
        proc = subprocess.run([sys.executable, "-m", "tablesense", "replay", str(log), "--json"],
                              capture_output=True, text=True, timeout=60)
        problems: list[str] = []
        merged = merge(expected, json.loads(proc.stdout), names(log), "$", problems)
        if problems:
            bad += 1
            print(f"{log.name}:\n  " + "\n  ".join(problems[:10]))
            continue
        if merged != expected:
            changed += 1
            if not check:
                expect_file.write_text(json.dumps(merged, indent=1, ensure_ascii=False) + "\n")
    print(f"{changed} expectations with texts that now name the players; {bad} with other differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
