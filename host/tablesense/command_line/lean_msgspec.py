"""msgspec imported without ``typing_extensions``, for a short command's start-up.

msgspec asks ``typing_extensions`` first for ``get_type_hints``, ``Required`` and ``NotRequired``
(``msgspec._utils``), and ``typing`` when it is not installed. Its import brings ``inspect``
with ``ast``, ``dis`` and ``tokenize``: ~40M instructions, a sixth of a replay's start-up
(docs/performance.md). On Python 3.11 and later ``typing`` has all three, and the package's
annotations are ``typing``'s only, so msgspec reads them the same either way.

``import_msgspec`` imports msgspec with ``typing_extensions`` hidden, then shows it again: a
later ``import typing_extensions`` (aiohttp's) works as ever, and only msgspec keeps
``typing``'s. Nothing is done when either is imported already (a test run, another command).

``lean_start`` imports it so and then the command's module, with the cyclic collector paused:
those imports make objects that live as long as the process, which the collector (run by their
count) walked several times for nothing (~21M instructions, a tenth of a short replay's start-up);
they are then frozen (``gc.freeze``: left out of later collections), and the collector set back
as it was. In a process that has msgspec already (a test run) only the command's module is loaded.
"""

from __future__ import annotations

import gc
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only (as ``cli``'s)
    from collections.abc import Callable
    from types import ModuleType

HIDDEN = "typing_extensions"


def import_msgspec() -> None:
    """Import msgspec, without ``typing_extensions`` when it is not imported yet (Python 3.11+)."""
    modules = sys.modules
    if "msgspec" in modules or HIDDEN in modules or sys.version_info < (3, 11):
        return
    modules[HIDDEN] = None  # type: ignore[assignment]  (``import`` then raises ImportError)
    try:
        import msgspec  # noqa: F401
    finally:
        if HIDDEN in modules and modules[HIDDEN] is None:
            del modules[HIDDEN]


def lean_start(load: Callable[[], ModuleType | None]) -> ModuleType | None:
    """``load()`` (a command's module) after ``import_msgspec``, the start-up's imports made with the
    cyclic collector paused and then frozen out of its walks; in a process that has msgspec already
    (a test run, another command), ``load()`` alone."""
    if "msgspec" in sys.modules:
        return load()
    collecting = gc.isenabled()
    gc.disable()
    try:
        import_msgspec()
        return load()
    finally:
        gc.freeze()
        if collecting:
            gc.enable()
