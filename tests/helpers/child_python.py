"""A child Python that imports this tree's host package, and the short log it replays: for the
tests that check what a replay's start-up leaves in a fresh process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from paths import ROOT


def host_env() -> dict[str, str]:
    """This process's environment with the tree's ``host/`` first on ``PYTHONPATH``."""
    return {**os.environ, "PYTHONPATH": str(ROOT / "host") + os.pathsep + os.environ.get("PYTHONPATH", "")}


def run_child(code: str, *argv: str) -> subprocess.CompletedProcess[str]:
    """``code`` run by a child Python with this tree's host package (``host_env``), ``argv`` after
    it; the child must end well (its standard error in the failure's message)."""
    done = subprocess.run([sys.executable, "-c", code, *argv], env=host_env(), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done


def short_golf_log(folder: Path) -> Path:
    """The first three lines of examples/golf-match.jsonl (a set-up and a shot's start) in ``folder``."""
    log = folder / "golf.jsonl"
    lines = (ROOT / "examples" / "golf-match.jsonl").read_text(encoding="utf-8").splitlines(True)
    log.write_text("".join(lines[:3]), encoding="utf-8")
    return log
