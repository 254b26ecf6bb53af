"""`make test-board` without a board: one skip line naming the port and the ports seen, exit 0;
and `make test` never collects tests/board/."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # two pytest runs in subprocesses, a few seconds each

ROOT = Path(__file__).resolve().parents[1]


def _pytest(*args: str, port: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLESENSE_BOARD")}
    if port is not None:
        env["TABLESENSE_BOARD_PORT"] = port
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)


def test_without_a_board_the_board_tests_skip_with_one_line_and_pass(tmp_path: Path) -> None:
    missing = str(tmp_path / "ttyUSB9")
    res = _pytest("tests/board", port=missing)
    assert res.returncode == 0, res.stdout + res.stderr
    skips = [ln for ln in res.stdout.splitlines() if ln.startswith("SKIPPED")]
    assert len(skips) == 1 and f"no board attached: serial port {missing} not found" in skips[0]


def test_the_whole_suite_does_not_collect_the_board_tests() -> None:
    res = _pytest("--collect-only", "tests/board", "tests/test_board_target.py", port=None)
    assert "tests/board" not in res.stdout and "test_board_target.py" in res.stdout
