"""Shared fixtures: paths of the tools the tests run for real, the web app."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from paths import ROOT, folders_of_tests

# tests/firmware/ holds MicroPython scripts, run under the unix port by test_firmware.py
collect_ignore = ["firmware"]

# The test folders mirror the package (tools/map_tests.py puts each file in its folder); a
# test imports a helper of another folder by its module name (`from test_carom_helpers
# import Table`), so every folder is on the path, and module names are unique across them.
for _folder in folders_of_tests():
    if str(_folder) not in sys.path:
        sys.path.append(str(_folder))
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


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[tuple[Any, str, Any]]:
    """The web app on a free port over a fresh match log of tables 1 and 2: (pub, its
    address, an HTTP client that keeps cookies, as a browser does)."""
    import aiohttp

    from tablesense.pub import Pub
    from tablesense.store import Store
    from tablesense.web.server import start

    pub = Pub(Store(str(tmp_path / "pub.db")), ["1", "2"])
    runner, url = await start(pub, port=0)
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        yield pub, url, http
    await runner.cleanup()


@pytest.fixture
def out(tmp_path: Path) -> Path:
    """Where a browser test's screenshots go: tmp, or docs/screenshots/ with TABLESENSE_SCREENSHOTS=1."""
    if os.environ.get("TABLESENSE_SCREENSHOTS") == "1":
        shots = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
        shots.mkdir(parents=True, exist_ok=True)
        return shots
    return tmp_path


@pytest.fixture
def ctx(request: pytest.FixtureRequest) -> Iterator[Any]:
    """The browser tests' context: a fresh one per test, made once the module's host is up
    (its ``pub`` fixture, else ``live``) and closed before the host stops; from the module's
    ``browser`` (test_browser.py's, imported)."""
    try:
        request.getfixturevalue("pub")
    except pytest.FixtureLookupError:
        request.getfixturevalue("live")
    context = request.getfixturevalue("browser").new_context(device_scale_factor=1)
    yield context
    context.close()


# --- how hard the property tests look ---------------------------------------------------------
#
# Each property test says how many examples it wants (``@settings(max_examples=N)``); a
# Hypothesis profile scales every such N by a factor: ``default`` (plain ``pytest``) as
# written; ``quick`` (``make test``, ``make test-fast``: the suite run often) a quarter, at
# least 10; ``long`` (``make test-long``) four times as many. The properties are the same in
# each; only how many inputs each run tries differs. No profile has a deadline: a loaded
# machine is no failure. (Hypothesis reads a test's settings when it runs, from the
# attribute its ``@given`` and ``@settings`` set; the scaling replaces them there once.)

from hypothesis import settings as _hsettings  # noqa: E402

_EXAMPLES = {"default": (1.0, 1), "quick": (0.25, 10), "long": (4.0, 1)}
for _name in _EXAMPLES:
    _hsettings.register_profile(_name, deadline=None)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    factor, floor = _EXAMPLES.get(_hsettings.get_current_profile_name(), (1.0, 1))
    if factor == 1.0:
        return
    done: set[int] = set()
    for item in items:
        fn = getattr(item, "obj", None)
        fn = getattr(fn, "__func__", fn)  # a method's function
        written = getattr(fn, "_hypothesis_internal_use_settings", None)
        if written is None or not hasattr(fn, "hypothesis") or id(fn) in done:
            continue
        done.add(id(fn))
        n = written.max_examples
        scaled = max(min(floor, n), round(n * factor))
        fn._hypothesis_internal_use_settings = _hsettings(written, max_examples=scaled)
