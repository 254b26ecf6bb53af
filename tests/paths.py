"""Where things are, for a test in any folder of tests/: ``from paths import ROOT, TESTS``."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
MATCHES = TESTS / "matches"
# folders of tests/ that hold no host tests: MicroPython scripts, a real board's, data
NOT_TESTS = frozenset({"firmware", "board", "soak", "vendor", "matches", "golden", "scenarios", "vectors",
                       "sim_reference", "__pycache__"})


def folders_of_tests() -> list[Path]:
    """tests/ and every folder under it that holds test modules (tests/rules/golf/, ...)."""
    found = {p.parent for p in TESTS.rglob("test_*.py")
             if not set(p.relative_to(TESTS).parts[:-1]) & NOT_TESTS}
    return sorted(found | {TESTS})
