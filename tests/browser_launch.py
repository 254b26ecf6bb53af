"""How the browser tests start chromium: Debian's chromium, headless, driven by Playwright.
Not a test file (no ``test_`` prefix): tests/conftest.py's ``browser`` fixture uses it, and
the tests that start a chromium of their own (other flags, another process) import it."""

from __future__ import annotations

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
MISSING = f"{CHROMIUM} is missing: `make browser` installs Debian's chromium"
