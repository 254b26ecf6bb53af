"""msgspec imported without ``typing_extensions``, for a short command's start-up.

msgspec asks ``typing_extensions`` first for ``get_type_hints``, ``Required`` and ``NotRequired``
(``msgspec._utils``), and ``typing`` when it is not installed. Its import brings ``inspect``
with ``ast``, ``dis`` and ``tokenize``: ~40M instructions, a sixth of a replay's start-up
(docs/performance.md). On Python 3.11 and later ``typing`` has all three, and the package's
annotations are ``typing``'s only, so msgspec reads them the same either way.

``import_msgspec`` imports msgspec with ``typing_extensions`` hidden, then shows it again: a
later ``import typing_extensions`` (aiohttp's) works as ever, and only msgspec keeps
``typing``'s. Nothing is done when either is imported already (a test run, another command).
"""

from __future__ import annotations

import sys

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
