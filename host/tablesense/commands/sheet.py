"""``tablesense sheet MATCH [--db FILE] [--lang CODE] [--pdf FILE]``: the printable score sheet.

MATCH is a match log (JSONL; ``-`` for standard input), or with ``--db`` a match id in
the pub's database (``tablesense run --db``; the ids are on the table's /history page).
The sheet is an HTML page made for A4 (``> sheet.html``, then print it from a browser),
in the table's language or ``--lang``; ``--pdf FILE`` prints it to a PDF with Debian's
chromium. Its figures are ``tablesense.club_figures``'s: carom inning by inning,
keglebillard series by series, golf frame by frame (docs/cli.md, "The score sheet").
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..command_line.options import add_db, add_lang

EXAMPLES = """
tablesense sheet examples/club/1-ann-bob.jsonl --lang nl > sheet.html
tablesense sheet examples/golf-match.jsonl --pdf sheet.pdf
tablesense sheet 12 --db pub.db > sheet.html
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("match", metavar="MATCH",
                   help="a match log, JSON Lines ('-' for standard input); with --db a match id")
    add_db(p, "the pub's match log (SQLite, tablesense run --db): MATCH is then a match id")
    add_lang(p, "the sheet's language (default: the table's; en for a file)")
    p.add_argument("--pdf", metavar="FILE", help="write a PDF (A4) to FILE with chromium instead of the HTML")


def _unwritable(pdf: str) -> str | None:
    """Why no file can be written at ``pdf``, said before chromium is started (its own words
    are a line of its log), or None."""
    target = Path(pdf)
    if target.is_dir():
        return f"cannot write {pdf}: it is a folder (--pdf FILE)"
    folder = target.parent
    if not folder.is_dir():
        return f"cannot write {pdf}: there is no folder {folder}"
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        return f"cannot write {pdf}: permission denied"
    return None


def run(args: argparse.Namespace) -> int:
    from ..club_figures import NoMatch, figures_of_log
    from ..errors import TablesenseError
    from ..sheet.page import render
    from ..sheet.source import SheetSourceError, from_file, from_store, open_store
    from ..store import StoreError

    why = _unwritable(args.pdf) if args.pdf else None
    if why:
        print(f"tablesense sheet: {why}", file=sys.stderr)
        return 2
    try:
        if args.db:
            if not args.match.isdigit():
                raise SheetSourceError(f"with --db, MATCH is a match id (a number), not {args.match!r}")
            store = open_store(args.db)
            try:
                lines, about, lang = from_store(store, int(args.match))
            finally:
                store.close()
        else:
            lines, about = from_file(args.match, sys.stdin)
            lang = "en"
            from .replay import is_edges_file

            if is_edges_file(iter(lines)):
                raise SheetSourceError(f"{args.match} is an edges file (sensor edges for the firmware, not "
                                       f"a match log): play it with tablesense sim {args.match}")
        figures = figures_of_log(lines)
    except TablesenseError as exc:
        if isinstance(exc, NoMatch):  # says which file (or match) holds none
            where = f"{args.db} #{args.match}: " if args.db else \
                ("standard input: " if args.match == "-" else f"{args.match}: ")
        else:
            where = f"{args.db}: " if args.db and isinstance(exc, StoreError) else ""
        print(f"tablesense sheet: {where}{exc}", file=sys.stderr)
        return 2
    html = render(figures, args.lang or lang, about)
    if args.pdf:
        from ..sheet.pdf import PdfError, print_pdf

        try:
            print_pdf(html, args.pdf)
        except PdfError as exc:
            print(f"tablesense sheet: {exc}", file=sys.stderr)
            return 2
    else:
        sys.stdout.write(html)
    for err in figures.errors:
        print(f"tablesense sheet: {about.source}: {err} (left out)", file=sys.stderr)
    return 1 if figures.errors else 0
