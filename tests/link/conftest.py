"""tests/link/: the fixtures its tests share."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.pty_device import Pty

from tablesense.sim.fitl import beam_board


@pytest.fixture
def pty() -> Iterator[Pty]:
    """A pty whose device end the test plays (tests/helpers/pty_device.py); closed after it."""
    p = Pty()
    yield p
    p.close()


@pytest.fixture
def board(tmp_path: Path) -> Path:
    """The sixteen-beam board the firmware runs (its pins and roles), in the test's folder."""
    return beam_board(tmp_path / "beams.json")
