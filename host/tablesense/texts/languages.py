"""Which languages there are: the folders of texts, found on the disk, once.

A language is a folder named for its code (``en``, ``nl``, ``da``, ``pt-BR``) holding its
messages (``*.ftl``, Project Fluent) and the screens' words (``screen.json``): the folders
beside this module, and those of the folders named by ``TABLESENSE_TEXTS`` (separated
by the path separator), where a translator tries a language without touching the installed
package. A folder there for a language that is here adds to it: its messages are read
after the package's, so they win.

Nothing here reads a message: the list costs a directory listing, so the command line's
``--lang`` choices and the store's check of a table's language stay cheap. The listing is
``os``'s (``pathlib`` and what it imports, ``urllib.parse`` and ``ipaddress``, would be a
tenth of ``tablesense replay``'s start-up); ``roots`` and ``folders`` give ``Path``\\ s to
those who ask (the check of the languages), ``places`` the same as text.
"""

from __future__ import annotations

import os
from functools import cache

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: pathlib is imported by those who ask for Paths
    from pathlib import Path

HERE = os.path.dirname(os.path.realpath(__file__))
ENV = "TABLESENSE_TEXTS"
#: the language every other falls back to, message by message
ENGLISH = "en"
_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")
_UPPER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def is_code(name: str) -> bool:
    """A language's code: two or three lower-case letters, maybe ``-`` and two capitals
    (``en``, ``pt-BR``)."""
    lang, dash, region = name.partition("-")
    return (2 <= len(lang) <= 3 and _LOWER.issuperset(lang)
            and (not dash or (len(region) == 2 and _UPPER.issuperset(region))))


def _roots() -> list[str]:
    return [HERE, *(p for p in os.environ.get(ENV, "").split(os.pathsep) if p)]


def roots() -> list[Path]:
    """The folders that hold language folders: this package's, then ``TABLESENSE_TEXTS``'s."""
    from pathlib import Path

    return [Path(p) for p in _roots()]


def places(lang: str) -> list[str]:
    """The folders of ``lang`` as text, the package's first (``folders`` as ``Path``\\ s)."""
    return [path for path in (os.path.join(root, lang) for root in _roots()) if _is_language(path)]


def folders(lang: str) -> list[Path]:
    """The folders of ``lang``, the package's first."""
    from pathlib import Path

    return [Path(p) for p in places(lang)]


@cache
def _discover(key: str) -> tuple[str, ...]:
    found: set[str] = set()
    for root in _roots():
        if os.path.isdir(root):
            found.update(name for name in os.listdir(root) if _is_language(os.path.join(root, name)))
    return (ENGLISH, *sorted(found - {ENGLISH}))


def langs() -> tuple[str, ...]:
    """The languages' codes, English first, then by code."""
    return _discover(os.environ.get(ENV, ""))


def ftl_names(folder: str) -> list[str]:
    """The names in ``folder`` that end in ``.ftl``; none when it cannot be listed."""
    try:
        return [name for name in os.listdir(folder) if name.endswith(".ftl")]
    except OSError:
        return []


def _is_language(path: str) -> bool:
    return is_code(os.path.basename(path)) and os.path.isdir(path) and bool(ftl_names(path))
