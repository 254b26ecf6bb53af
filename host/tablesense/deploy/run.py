"""Run a flash plan with mpremote, reading the board's manifest first."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from ..errors import TablesenseError
from .build import MANIFEST
from .plan import FlashPlan


class FlashError(TablesenseError):
    """An mpremote command failed."""


def mpremote_path() -> str:
    beside = Path(sys.executable).parent / "mpremote"
    return str(beside) if beside.exists() else "mpremote"


def read_manifest(port: str, mpremote: str, timeout: float = 30.0, root: str = "/",
                  resume: bool = False) -> str | None:
    """The manifest text on the board, or None when the board has none (a clean board)."""
    connect = [mpremote, "connect", port, *(["resume"] if resume else [])]
    argv = [*connect, "fs", "cat", ":" + root + MANIFEST.lstrip("/")]
    try:
        res = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise FlashError(f"mpremote did not get a REPL on {port} within {timeout:g} s: is it an ESP32 "
                         "running MicroPython? (flash MicroPython first, see docs/installation.md)") from None
    if res.returncode != 0:
        err = (res.stderr or res.stdout).strip()
        if "No such file" in err or "ENOENT" in err or "Errno 2" in err:
            return None
        raise FlashError(f"mpremote could not talk to {port}: {err or 'exit ' + str(res.returncode)}")
    return res.stdout


def execute(plan: FlashPlan, log: Callable[[str], None], timeout: float = 60.0) -> None:
    for step in plan.steps:
        log(f"  {step}    # {step.why}")
        try:
            res = subprocess.run(list(step.argv), capture_output=True, text=True, timeout=timeout,
                                 check=False)
        except subprocess.TimeoutExpired:
            raise FlashError(f"`{step}` did not finish within {timeout:g} s") from None
        if res.returncode != 0:
            err = (res.stderr or res.stdout).strip()
            if "mkdir" in step.argv and "exists" in err.lower():
                continue
            raise FlashError(f"`{step}` failed: {err}")
