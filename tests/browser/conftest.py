"""tests/browser/: the fixtures its tests share."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_browser import LivePub


@pytest.fixture
def live(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LivePub]:
    """The browser's host: a pub of tables 1 and 2 (a test file's ``LIVE_TABLES`` names
    others) over a fresh match log, its web app on a free port, in a thread."""
    pub = LivePub(str(tmp_path / "pub.db"), list(getattr(request.module, "LIVE_TABLES", ("1", "2"))))
    yield pub
    pub.close()
