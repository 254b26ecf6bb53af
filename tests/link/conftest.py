"""tests/link/: the fixtures its tests share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from helpers.pty_device import Pty


@pytest.fixture
def pty() -> Iterator[Pty]:
    """A pty whose device end the test plays (tests/helpers/pty_device.py); closed after it."""
    p = Pty()
    yield p
    p.close()
