"""Where a score sheet's match comes from: a match log (JSONL), or a match of a pub's
database (``tablesense run --db``) by its id, with the table's language."""

from __future__ import annotations

from pathlib import Path
from typing import IO

from ..club_figures import figures_of_log
from ..errors import TablesenseError
from ..store import Store, StoreError
from ..store import effective_lines as store_effective_lines
from .page import About, render


class SheetSourceError(TablesenseError):
    """The match cannot be read: no file, no database, no such match."""


def from_file(path: str, stdin: IO[str] | None = None) -> tuple[list[str], About]:
    """The lines of a JSONL log (``-``: ``stdin``)."""
    if path == "-" and stdin is not None:
        return stdin.read().splitlines(), About("-")
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise SheetSourceError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise SheetSourceError(f"{path} is not a text file (a match log is JSON Lines)") from None
    return text.splitlines(), About(path)


def from_store(store: Store, match_id: int) -> tuple[list[str], About, str]:
    """A match of the pub's database: its lines that count (voided ones left out), where and
    when it was played, and its table's language."""
    match = store.match(match_id)  # StoreError "no match N" (the web app: 404)
    lines = [e.line for e in store_effective_lines(store.events(match_id))]
    row = store.db.execute("SELECT lang FROM tables WHERE id=?", (match.table_id,)).fetchone()
    about = About(f"{store.path} #{match_id}", match.table_id, match.id, match.started, match.ended)
    return lines, about, row[0] if row else "en"


def open_store(db: str) -> Store:
    """The pub's database, which must be there (a sheet makes none)."""
    if not Path(db).is_file():
        raise SheetSourceError(f"{db} does not exist (the pub's match log: tablesense run --db FILE)")
    try:
        return Store(db)
    except StoreError as exc:
        raise SheetSourceError(str(exc)) from None


def store_sheet(store: Store, match_id: int, lang: str | None = None) -> str:
    """The sheet of a match of an open pub database, in ``lang`` or its table's language."""
    lines, about, table_lang = from_store(store, match_id)
    return render(figures_of_log(lines), lang or table_lang, about)
