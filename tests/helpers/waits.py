"""Waiting for a condition with a deadline: polled every 0.05 s, never a bare sleep that
hopes it was long enough. ``check`` is asked again until it returns something true."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

POLL = 0.05


async def until(check: Callable[[], Any], timeout: float = 30.0, what: str = "") -> Any:
    """What ``check`` returns once it is true (the event loop runs meanwhile); an
    ``AssertionError`` naming ``what`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or check}")
        await asyncio.sleep(POLL)


def wait_until(check: Callable[[], Any], timeout: float = 30.0, what: str = "") -> Any:
    """``until`` for a test without an event loop: blocks the thread."""
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or check}")
        time.sleep(POLL)


def within(check: Callable[[], Any], timeout: float) -> bool:
    """Whether ``check`` comes true within ``timeout`` s (for a test that asserts either way)."""
    try:
        wait_until(check, timeout)
    except AssertionError:
        return False
    return True
