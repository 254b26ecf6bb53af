"""How much of a sweep this run plays: a sweep over seeds or kills, each a real-time run of
the firmware or the host, plays a part of itself under ``make test`` (the Hypothesis
profile ``quick``, tests/conftest.py) and all of itself under plain ``pytest`` and ``make
test-long``; likewise a real-time run whose length is not what it checks (the seconds of
edges a cable is cut in) is shorter there. Not a test file (no ``test_`` prefix)."""

from __future__ import annotations

from typing import TypeVar

from hypothesis import settings

T = TypeVar("T", int, float)


def share(whole: T, quick: T) -> T:
    """``quick`` under ``make test`` and ``make test-fast``, ``whole`` otherwise (a count of
    runs, or a length of one in seconds). Read when a test module is collected: the profile
    is chosen by then (``--hypothesis-profile``)."""
    return quick if settings.get_current_profile_name() == "quick" else whole
