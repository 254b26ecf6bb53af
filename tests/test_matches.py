"""Every recorded match under tests/matches/<game>/NAME.jsonl, replayed through the real
CLI (`tablesense replay NAME.jsonl --json`), must give a state that contains
NAME.expect.json (objects compared as subsets, recursively; lists exactly).

The command runs in this process (``tablesense.cli.main``, the console script's own entry,
its output captured): a process per match cost the suite a Python start-up each. One
match also runs as a process, through the installed console script, so the command
line itself stays tested (exit status, standard output)."""

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


def _check(log: Path, returncode: int, stdout: str, stderr: str) -> None:
    expect_file = log.with_suffix(".expect.json")
    assert expect_file.exists(), f"{log.name} has no {expect_file.name}"
    expected = json.loads(expect_file.read_text())
    assert stdout, f"no state printed; stderr: {stderr}"
    state = json.loads(stdout)
    problems = _subset_diff(expected, state)
    assert not problems, "\n".join(problems) + f"\nstderr: {stderr}"
    if "errors" not in expected:
        assert returncode == 0, stderr
        assert "errors" not in state
    else:
        assert returncode == 1


@pytest.mark.parametrize("log", FIXTURES, ids=[f"{p.parent.name}/{p.stem}" for p in FIXTURES])
def test_recorded_match_replays_to_expected_state(log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tablesense.cli import main

    returncode = main(["replay", str(log), "--json"])
    out, err = capsys.readouterr()
    _check(log, returncode, out, err)


SMOKE = [p for p in FIXTURES if "errors" not in json.loads(p.with_suffix(".expect.json").read_text())][:1]
SMOKE += [p for p in FIXTURES if "errors" in json.loads(p.with_suffix(".expect.json").read_text())][:1]


@pytest.mark.parametrize("log", SMOKE, ids=[f"{p.parent.name}/{p.stem}" for p in SMOKE])
def test_recorded_match_replays_to_expected_state_as_a_command(log: Path, tablesense_cmd: list[str]) -> None:
    proc = subprocess.run(
        [*tablesense_cmd, "replay", str(log), "--json"], capture_output=True, text=True, timeout=60
    )
    _check(log, proc.returncode, proc.stdout, proc.stderr)
