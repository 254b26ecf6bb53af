"""docs/contributing.md names real files and real functions: its tours cannot rot.

Every code-quoted path in the page (`host/tablesense/pipeline.py`, `tests/matches/kegle/`)
must exist from the repository's root, a ``<game>`` in it standing for each game; every
`file.py:name` must define ``name`` there (``Class.method``: both, the method inside the
class). A page or data file (``tv.js:render``) must hold the name.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tablesense import games

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "contributing.md"
GAMES = games.names()

SPAN = re.compile(r"`([^`\n]+)`")
EXT = re.compile(r"\.(py|md|js|json|jsonl|toml|ftl|html)$")


def named_paths(text: str) -> list[tuple[str, str | None]]:
    """The (path, name or None) pairs the page quotes: a span with a ``/`` that is not a URL
    (``/ws/...``), or one ending in a file's extension, optionally ``:name`` after it."""
    out: list[tuple[str, str | None]] = []
    for span in SPAN.findall(text):
        path, _, name = span.partition(":")
        if " " in path or path.startswith(("/", ".")) or "(" in path:
            continue
        if "/" not in path and not EXT.search(path):
            continue
        out.append((path, name or None))
    return out


def defines(source: str, dotted: str) -> bool:
    """Whether the module's source defines ``dotted`` (a function, class or assignment at the
    top; ``Class.method``: a method or attribute of that class)."""
    tree = ast.parse(source)
    scope: list[ast.stmt] = tree.body
    parts = dotted.split(".")
    for i, part in enumerate(parts):
        found: ast.stmt | None = None
        for node in scope:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == part:
                found = node
            elif isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == part for t in node.targets):
                found = node
            elif (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                  and node.target.id == part):
                found = node
        if found is None:
            return False
        if i < len(parts) - 1:
            if not isinstance(found, ast.ClassDef):
                return False
            scope = found.body
    return True


def test_the_page_names_paths_at_all() -> None:
    names = named_paths(DOC.read_text(encoding="utf-8"))
    assert len(names) > 40  # three tours and a map; a parser that found none would pass all below
    assert ("host/tablesense/pipeline.py", "serve") in names


def _cases() -> list[tuple[str, str | None]]:
    return sorted(set(named_paths(DOC.read_text(encoding="utf-8"))), key=lambda c: (c[0], c[1] or ""))


@pytest.mark.parametrize(("path", "name"), _cases())
def test_every_path_the_page_names_exists(path: str, name: str | None) -> None:
    for game in GAMES if "<game>" in path else ("",):
        where = ROOT / path.replace("<game>", game)
        assert where.exists(), f"docs/contributing.md names {path!r}: no such file or folder"
        if name is None:
            continue
        if where.suffix == ".py":
            assert defines(where.read_text(encoding="utf-8"), name), \
                f"docs/contributing.md names {path}:{name}, which that file does not define"
        else:  # a page (tv.js) or a data file: the name is written in it
            assert re.search(rf"\b{re.escape(name)}\b", where.read_text(encoding="utf-8")), \
                f"docs/contributing.md names {path}:{name}, which that file does not hold"


def test_a_renamed_function_is_caught() -> None:
    source = "class Pub:\n    def feed(self): ...\nLANGS = ()\nasync def serve(): ...\n"
    assert defines(source, "Pub.feed") and defines(source, "LANGS") and defines(source, "serve")
    assert not defines(source, "Pub.fed")
    assert not defines(source, "LANGS.x")
    assert named_paths("see `a/b.py:f`, `/ws/<t>`, `x.ftl`, `.ftl`, `no-rail`, `live(...)`") == [
        ("a/b.py", "f"), ("x.ftl", None)]


def test_the_readme_links_the_page() -> None:
    assert "docs/contributing.md" in (ROOT / "README.md").read_text(encoding="utf-8")
