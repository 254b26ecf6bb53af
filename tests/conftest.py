"""Shared fixtures: paths of the tools the tests run for real, the web app."""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
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


# --- temporary files in memory ------------------------------------------------------------------
#
# The match log commits with ``synchronous=FULL`` (a commit is on disk when it returns), so a
# test that plays events into a pub on a real disk waits for the disk at every commit: on a
# busy machine 26 s where the same test takes 9 s in memory. The tests' temporary folders
# (``tmp_path``, and TMPDIR of every process they start) go to /dev/shm when it is there
# with room (2 GiB free; a container's 64 MB /dev/shm is left alone) and TMPDIR was not
# set. TMPDIR=/tmp (or any folder) keeps them on that disk. Pytest numbers its folders
# in there as anywhere, so two runs at once do not meet; only a failed test's folder is
# kept (pyproject: tmp_path_retention_policy).
SHM = Path("/dev/shm")
SHM_FREE = 2 << 30


def _tmp_in_memory() -> None:
    if "TMPDIR" in os.environ or not os.access(SHM, os.W_OK | os.X_OK):
        return
    try:
        st = os.statvfs(SHM)
    except OSError:
        return
    if st.f_bavail * st.f_frsize >= SHM_FREE:
        os.environ["TMPDIR"] = str(SHM)
        tempfile.tempdir = None  # gettempdir() reads TMPDIR again


_tmp_in_memory()


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


class SharedChromium:
    """One Playwright (its driver, a Node process) and one chromium, shared by the browser
    tests that run one after another in a process, instead of one of each a test file: a
    driver's start alone took 6-8 s on the loaded machine. Each test still gets a fresh
    context of it (``ctx``, or its own ``browser.new_context()``: cookies, storage and pages
    apart).

    Stopped before any test that does not use it (``pytest_runtest_setup``): Playwright's
    sync API leaves its event loop marked as running in the thread between its calls, so
    ``asyncio.run`` and the async tests could not start while it is up. The suite's order
    (``pytest_collection_modifyitems``) puts the browser test files one after another."""

    def __init__(self) -> None:
        self._cm: Any = None
        self.playwright: Any = None
        self._browser: Any = None

    def start(self) -> Any:
        if self.playwright is None:
            from browser_launch import CHROMIUM, MISSING

            if not os.path.exists(CHROMIUM):
                pytest.fail(MISSING)
            from playwright.sync_api import sync_playwright

            self._cm = sync_playwright()
            self.playwright = self._cm.__enter__()
        return self.playwright

    def browser(self) -> Any:
        if self._browser is None or not self._browser.is_connected():
            from browser_launch import ARGS, CHROMIUM

            self._browser = self.start().chromium.launch(executable_path=CHROMIUM, args=ARGS)
        return self._browser

    def stop(self) -> None:
        cm, browser = self._cm, self._browser
        self._cm = self.playwright = self._browser = None
        try:
            if browser is not None:
                browser.close()
        finally:
            if cm is not None:
                cm.__exit__(None, None, None)


CHROMIUM_SHARED = SharedChromium()


@pytest.fixture
def playwright() -> Any:
    """Playwright's sync API, shared (``SharedChromium``): for a test that starts a chromium
    of its own (other flags); closing that chromium is the test's."""
    return CHROMIUM_SHARED.start()


@pytest.fixture
def browser() -> Iterator[Any]:
    """The shared chromium (``SharedChromium``); a test makes its own contexts of it, and
    those it leaves open are closed after it (their pages would go on running: a TV that
    calls its host again and again)."""
    b = CHROMIUM_SHARED.browser()
    before = {id(c) for c in b.contexts}
    yield b
    for context in b.contexts:
        if id(context) not in before:
            context.close()


def _uses_shared_chromium(item: pytest.Item) -> bool:
    """Whether the test uses this file's ``playwright`` or ``browser`` (not a test file's
    own fixture of that name)."""
    info = getattr(item, "_fixtureinfo", None)
    defs = getattr(info, "name2fixturedefs", {}) or {}
    for name in ("playwright", "browser"):
        found = defs.get(name)
        if found and getattr(found[-1].func, "__module__", None) == __name__:
            return True
    return False


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if CHROMIUM_SHARED.playwright is not None and not _uses_shared_chromium(item):
        CHROMIUM_SHARED.stop()


def pytest_sessionfinish(session: pytest.Session) -> None:
    CHROMIUM_SHARED.stop()


@pytest.fixture
def ctx(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    """The browser tests' context: a fresh one per test, made once the module's host is up
    (its ``pub`` fixture, else ``live``) and closed before the host stops; from the process's
    ``browser``."""
    try:
        request.getfixturevalue("pub")
    except pytest.FixtureLookupError:
        request.getfixturevalue("live")
    context = browser.new_context(device_scale_factor=1)
    yield context
    context.close()


# --- how hard the property tests look ---------------------------------------------------------
#
# Each property test says how many examples it wants (``@settings(max_examples=N)``); a
# Hypothesis profile scales every such N by a factor: ``default`` (plain ``pytest``) as
# written; ``quick`` (``make test``, ``make test-fast``: the suite run often) a quarter, at
# least 10; ``long`` (``make test-long``) four times as many. The properties are the same in
# each; only how many inputs each run tries differs. No profile has a deadline, nor the
# health check of slow input generation: a loaded machine is no failure (a league scheme's
# inputs took 30 s at load 15 and failed the check). (Hypothesis reads a test's settings
# when it runs, from the attribute its ``@given`` and ``@settings`` set; the scaling
# replaces them there once.)

from hypothesis import HealthCheck as _HealthCheck  # noqa: E402
from hypothesis import settings as _hsettings  # noqa: E402

_EXAMPLES = {"default": (1.0, 1), "quick": (0.25, 10), "long": (4.0, 1)}
for _name in _EXAMPLES:
    _hsettings.register_profile(_name, deadline=None, suppress_health_check=[_HealthCheck.too_slow])


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _scale_examples(items)
    _mark_processes(items)
    _slow_files_first(items)


#: what in a test's own code starts a program
#: a name a "(" follows: a call of it, in a function's source
CALLED = re.compile(r"\b(\w+)\(")
STARTS = re.compile(r"\bsubprocess\.|\bPopen\b|sys\.executable|start_firmware|find_micropython|chromium")


def _mark_processes(items: list[pytest.Item]) -> None:
    """Mark ``broker`` each test that starts Mosquitto (it uses tests/league_broker.py's
    ``broker`` fixture, or its file or its own code reads league_broker), and ``process``
    each that starts another program (the ``tablesense`` command through
    ``tablesense_cmd``, a Python, the firmware, chromium: its own code says so).
    ``make test-fast`` leaves both out."""
    for item in items:
        module = getattr(item, "module", None)
        if module is None or not getattr(module, "__file__", None):
            continue
        names = getattr(item, "fixturenames", ())
        own = _own_source(item)
        if "broker" in names or "league_broker" in own or (
                "league_broker" in _source(module.__file__)
                and any(getattr(v, "__module__", None) == "league_broker" for v in vars(module).values())):
            item.add_marker(pytest.mark.broker)
        if "tablesense_cmd" in names or STARTS.search(own):
            item.add_marker(pytest.mark.process)


def _own_source(item: pytest.Item) -> str:
    """The test function's source and that of its file's functions and fixtures it names
    (two calls deep: a test that starts the command through a helper of its file)."""
    fn = getattr(item, "obj", None)
    if id(fn) not in _OWN:
        module = getattr(item, "module", None)
        local = {name: v for name, v in vars(module).items()
                 if callable(v) and getattr(v, "__module__", None) == module.__name__} if module else {}
        names = set(getattr(item, "fixturenames", ()))
        text, seen, todo = "", set(), [fn]
        for _depth in range(3):
            more = []
            for f in todo:
                if id(f) in seen:
                    continue
                seen.add(id(f))
                src = _getsource(f)
                text += src
                called = set(CALLED.findall(src))  # the names a "(" follows, all at once
                more += [v for name, v in local.items() if name in names or name in called]
            todo = more
        _OWN[id(fn)] = text
    return _OWN[id(fn)]


def _getsource(fn: Any) -> str:
    """A function's source, as ``inspect.getsource`` gives it (its decorators, its body), cut
    from its file parsed once (``_spans``): ``inspect`` tokenized the file again for each of
    the suite's 3,300 functions, a third of a worker's collection."""
    import inspect

    fn = getattr(fn, "_get_wrapped_function", lambda: fn)()  # a fixture's own function
    code = getattr(inspect.unwrap(fn), "__code__", None) if callable(fn) else None
    where: tuple[str, int | str] | None = None
    if code is not None:  # a function
        where = (code.co_filename, code.co_firstlineno)
    elif isinstance(fn, type) and "." not in fn.__qualname__:  # a class of its module's own
        where = (getattr(sys.modules.get(fn.__module__), "__file__", None) or "", fn.__qualname__)
    if where is not None and where[0].endswith(".py"):
        try:
            lines, spans = _spans(where[0])
        except (OSError, SyntaxError, ValueError):
            lines, spans = [], {}
        if where[1] in spans:
            first, end = spans[where[1]]
            return "".join(lines[first - 1:end])
    try:  # anything else (a partial, a nested class): inspect's way
        return inspect.getsource(fn)
    except (OSError, TypeError):
        return ""


def _spans(path: str) -> tuple[list[str], dict[int | str, tuple[int, int]]]:
    """The lines of ``path`` and where each function and each class of its top level is:
    a function by its first line (that of its first decorator, as a code object's
    ``co_firstlineno``), a class by its name -> (first line, last line)."""
    if path not in _SPANS:
        import ast

        text = _source(path)
        tree = ast.parse(text)
        spans: dict[int | str, tuple[int, int]] = {}
        for node in _statements(tree.body):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno is not None:
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                spans[first] = (first, node.end_lineno)
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                spans[node.name] = (first, node.end_lineno)
        _SPANS[path] = (text.splitlines(keepends=True), spans)
    return _SPANS[path]


def _statements(body: list[Any]) -> Iterator[Any]:
    """Every statement of ``body`` and of the blocks in it, nested ones too: where a ``def``
    can be (a statement, never an expression), without ``ast.walk``'s visit of every
    expression, which took most of the marking's time."""
    todo = list(body)
    while todo:
        node = todo.pop()
        yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            todo += getattr(node, field, None) or []


_SPANS: dict[str, tuple[list[str], dict[int | str, tuple[int, int]]]] = {}
_OWN: dict[int, str] = {}


_SOURCES: dict[str, str] = {}


def _source(path: str) -> str:
    if path not in _SOURCES:
        _SOURCES[path] = Path(path).read_text(encoding="utf-8")
    return _SOURCES[path]


def _scale_examples(items: list[pytest.Item]) -> None:
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


# --- the order of the test files -------------------------------------------------------------
#
# ``make test`` hands whole test files to its workers (``--dist loadfile``), in the order of
# the collection (``--no-loadscope-reorder``; xdist's own order, most tests first, left the
# files of one or two long tests -- a host killed 51 times, a whole match in the browser --
# to the end, where one worker ran them while the other had nothing left). Here the files
# are put in order of what they are expected to cost, the costliest first, so the last
# ones are short and the workers end together: first the files that use the shared
# chromium (one after another, so that a worker starts it once), then the others. The cost
# is guessed from each test's marks and fixtures; the order of the tests within a file is
# kept. Every worker computes the same order (xdist checks that their collections agree).

#: a test's guessed cost by what it is (s on an idle machine, roughly)
COST = {"slow": 30.0, "browser": 5.0, "micropython": 3.0, "broker": 1.5, "process": 0.7,
        "property": 0.5, "other": 0.03}


def _cost(item: pytest.Item) -> float:
    for mark in ("slow", "browser", "micropython", "broker", "process"):
        if item.get_closest_marker(mark) is not None:
            return COST[mark]
    fn = getattr(item, "obj", None)
    if hasattr(getattr(fn, "__func__", fn), "hypothesis"):
        return COST["property"]
    return COST["other"]


def _slow_files_first(items: list[pytest.Item]) -> None:
    cost: dict[str, float] = {}
    chromium: set[str] = set()
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        cost[path] = cost.get(path, 0.0) + _cost(item)
        if _uses_shared_chromium(item):
            chromium.add(path)
    rank = {path: n for n, path in enumerate(sorted(cost, key=lambda p: (p not in chromium, -cost[p], p)))}
    items.sort(key=lambda item: rank[item.nodeid.split("::", 1)[0]])  # stable: a file's order kept
