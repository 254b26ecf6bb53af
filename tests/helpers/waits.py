"""Waiting for a condition with a deadline: polled every 0.05 s, never a bare sleep that
hopes it was long enough. ``check`` is asked again until it returns something true."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

POLL = 0.05


def _answer(check: Callable[[], Any], deadline: float, what: str) -> Any:
    """What ``check`` returns if it is true, else None (ask again); an ``AssertionError``
    naming ``what`` once ``deadline`` has passed."""
    got = check()
    if got:
        return got
    if time.monotonic() > deadline:
        raise AssertionError(f"timed out waiting for {what or check}")
    return None


async def until(check: Callable[[], Any], timeout: float = 30.0, what: str = "") -> Any:
    """What ``check`` returns once it is true (the event loop runs meanwhile); an
    ``AssertionError`` naming ``what`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while (got := _answer(check, deadline, what)) is None:
        await asyncio.sleep(POLL)
    return got


def wait_until(check: Callable[[], Any], timeout: float = 30.0, what: str = "") -> Any:
    """``until`` for a test without an event loop: blocks the thread."""
    deadline = time.monotonic() + timeout
    while (got := _answer(check, deadline, what)) is None:
        time.sleep(POLL)
    return got


def within(check: Callable[[], Any], timeout: float) -> bool:
    """Whether ``check`` comes true within ``timeout`` s (for a test that asserts either way)."""
    try:
        wait_until(check, timeout)
    except AssertionError:
        return False
    return True


async def for_at_most(seconds: float, work: Awaitable[Any]) -> None:
    """Await ``work`` (a test's reading of a link, say), cancelled after ``seconds``, quietly:
    the test then asserts on what it gathered, which says what was missing."""
    try:
        async with asyncio.timeout(seconds):
            await work
    except TimeoutError:
        pass
