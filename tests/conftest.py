"""Shared fixtures: paths of the tools the tests run for real."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

# tests/firmware/ holds MicroPython scripts, run under the unix port by test_firmware.py
collect_ignore = ["firmware"]

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent


def _tool(name: str) -> str | None:
    local = VENV_BIN / name
    if local.exists():
        return str(local)
    return shutil.which(name)


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def tablesense_cmd() -> list[str]:
    """The installed console script, or the module when run from a bare checkout."""
    exe = _tool("tablesense")
    return [exe] if exe else [sys.executable, "-m", "tablesense"]
