"""The score sheet as a PDF: the page printed by Debian's chromium, headless
(``--print-to-pdf``); its print CSS makes it A4. No browser, or one that fails: ``PdfError``."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..errors import TablesenseError

TIMEOUT = 90.0  # seconds for chromium to start and print (a loaded machine)


class PdfError(TablesenseError):
    """No PDF: no chromium, or it did not print."""


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def print_pdf(html: str, out: str) -> None:
    """Write ``html`` to ``out`` as a PDF."""
    exe = chromium()
    if exe is None:
        raise PdfError("--pdf needs chromium (apt-get install chromium); without it, write the HTML and "
                       "print it from a browser")
    target = Path(out).resolve()
    with tempfile.TemporaryDirectory(prefix="tablesense-sheet-") as tmp:
        page = Path(tmp) / "sheet.html"
        page.write_text(html, encoding="utf-8")
        cmd = [exe, "--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
               f"--user-data-dir={tmp}/profile", "--no-pdf-header-footer", "--print-to-pdf-no-header",
               f"--print-to-pdf={target}", page.as_uri()]
        if os.geteuid() == 0:
            cmd.insert(1, "--no-sandbox")
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, check=False)
        except subprocess.TimeoutExpired:
            raise PdfError(f"chromium did not print the sheet in {TIMEOUT:.0f} s") from None
        except OSError as exc:
            raise PdfError(f"cannot start chromium: {exc.strerror or exc}") from None
    if done.returncode != 0 or not target.is_file() or target.read_bytes()[:5] != b"%PDF-":
        why = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise PdfError(f"chromium did not write {out} ({why})")
