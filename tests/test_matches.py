"""Every recorded match under tests/matches/<game>/NAME.jsonl, replayed through the real
CLI (`tablesense replay NAME.jsonl --json`), must give a state that contains
NAME.expect.json (objects compared as subsets, recursively; lists exactly)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

MATCHES = Path(__file__).resolve().parent / "matches"
FIXTURES = sorted(MATCHES.glob("*/*.jsonl"))


def _subset_diff(expected: Any, actual: Any, path: str = "$") -> list[str]:
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, got {actual!r}"]
        out: list[str] = []
        for key, value in expected.items():
            if key not in actual:
                out.append(f"{path}.{key}: missing")
            else:
                out.extend(_subset_diff(value, actual[key], f"{path}.{key}"))
        return out
    if isinstance(expected, float) or isinstance(actual, float):
        ok = isinstance(actual, (int, float)) and abs(float(expected) - float(actual)) < 1e-9
        return [] if ok else [f"{path}: expected {expected!r}, got {actual!r}"]
    return [] if expected == actual else [f"{path}: expected {expected!r}, got {actual!r}"]


def test_subset_diff_reports_differences() -> None:
    assert _subset_diff({"a": {"b": 1}}, {"a": {"b": 1, "c": 2}, "d": 3}) == []
    assert _subset_diff({"a": {"b": 1}}, {"a": {"b": 2}}) == ["$.a.b: expected 1, got 2"]
    assert _subset_diff({"x": [1, 2]}, {"x": [1, 2, 3]}) != []
    assert _subset_diff({"x": 1}, {}) == ["$.x: missing"]


@pytest.mark.parametrize("log", FIXTURES, ids=[f"{p.parent.name}/{p.stem}" for p in FIXTURES])
def test_recorded_match_replays_to_expected_state(log: Path, tablesense_cmd: list[str]) -> None:
    expect_file = log.with_suffix(".expect.json")
    assert expect_file.exists(), f"{log.name} has no {expect_file.name}"
    expected = json.loads(expect_file.read_text())
    proc = subprocess.run(
        [*tablesense_cmd, "replay", str(log), "--json"], capture_output=True, text=True, timeout=60
    )
    assert proc.stdout, f"no state printed; stderr: {proc.stderr}"
    state = json.loads(proc.stdout)
    problems = _subset_diff(expected, state)
    assert not problems, "\n".join(problems) + f"\nstderr: {proc.stderr}"
    if "errors" not in expected:
        assert proc.returncode == 0, proc.stderr
        assert "errors" not in state
    else:
        assert proc.returncode == 1
