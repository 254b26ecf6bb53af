"""How much of a sweep this run plays: a sweep over seeds or kills, each a real-time run of
the firmware or the host, plays a part of itself under ``make test`` (the Hypothesis
profile ``quick``, tests/conftest.py) and all of itself under plain ``pytest`` and ``make
test-long``. Not a test file (no ``test_`` prefix)."""

from __future__ import annotations

from hypothesis import settings


def share(whole: int, quick: int) -> int:
    """``quick`` under ``make test`` and ``make test-fast``, ``whole`` otherwise. Read when a
    test module is collected: the profile is chosen by then (``--hypothesis-profile``)."""
    return quick if settings.get_current_profile_name() == "quick" else whole
