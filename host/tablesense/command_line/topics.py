"""The documentation's pages as help topics (``tablesense help TOPIC``).

The pages are the Markdown files of docs/, shipped inside the package as
``tablesense/docs/`` (a link to the checkout's docs/ that the build copies). A topic is
a page's name without ``.md`` (``cli``, ``league``); an unambiguous beginning will do.
"""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from ..errors import TablesenseError


class TopicError(TablesenseError):
    """No page, or more than one, has that name."""


def pages() -> dict[str, Traversable]:
    """Topic -> its page, in name order."""
    root: Traversable = resources.files("tablesense") / "docs"
    if not root.is_dir():  # a source tree whose link is missing: the checkout's docs/
        root = Path(__file__).resolve().parents[3] / "docs"
    if not root.is_dir():
        return {}
    found = {f.name[:-3]: f for f in root.iterdir() if f.name.endswith(".md") and f.is_file()}
    return dict(sorted(found.items()))


def title(page: Traversable) -> str:
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip().replace("`", "")
    return ""


def find(topic: str) -> tuple[str, Traversable]:
    """The page of ``topic``: its exact name, else the one page whose name starts with it."""
    every = pages()
    key = topic.lower().removesuffix(".md")
    if key in every:
        return key, every[key]
    starts = [name for name in every if name.startswith(key)]
    if len(starts) == 1:
        return starts[0], every[starts[0]]
    if starts:
        raise TopicError(f"{topic!r} could be {', '.join(starts)}")
    raise TopicError(f"no help topic {topic!r}; topics: {', '.join(every) or 'none (no docs installed)'}")
