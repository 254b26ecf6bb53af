"""Which languages there are: the folders of texts, found on the disk, once.

A language is a folder named for its code (``en``, ``nl``, ``da``, ``pt-BR``) holding its
messages (``*.ftl``, Project Fluent) and the screens' words (``screen.json``): the folders
beside this module, and those of the folders named by ``TABLESENSE_TEXTS`` (separated
by the path separator), where a translator tries a language without touching the installed
package. A folder there for a language that is here adds to it: its messages are read
after the package's, so they win.

Nothing here reads a message: the list costs a directory listing, so the command line's
``--lang`` choices and the store's check of a table's language stay cheap.
"""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENV = "TABLESENSE_TEXTS"
#: the language every other falls back to, message by message
ENGLISH = "en"
CODE = re.compile(r"^[a-z]{2,3}(-[A-Z]{2})?$")


def roots() -> list[Path]:
    """The folders that hold language folders: this package's, then ``TABLESENSE_TEXTS``'s."""
    extra = [Path(p) for p in os.environ.get(ENV, "").split(os.pathsep) if p]
    return [HERE, *extra]


def folders(lang: str) -> list[Path]:
    """The folders of ``lang``, the package's first."""
    return [root / lang for root in roots() if _is_language(root / lang)]


@cache
def _discover(key: str) -> tuple[str, ...]:
    found: set[str] = set()
    for root in roots():
        if root.is_dir():
            found.update(p.name for p in root.iterdir() if _is_language(p))
    return (ENGLISH, *sorted(found - {ENGLISH}))


def langs() -> tuple[str, ...]:
    """The languages' codes, English first, then by code."""
    return _discover(os.environ.get(ENV, ""))


def _is_language(path: Path) -> bool:
    return bool(CODE.match(path.name)) and path.is_dir() and any(path.glob("*.ftl"))
