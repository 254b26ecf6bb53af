"""Reading a ``Link`` in a test: its EVENT frames and statuses, collected until the test has
what it waits for, or a deadline."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from helpers.waits import for_at_most
from tablesense.link import Link, LinkStatus
from tablesense.link.frame import EventFrame

Until = Callable[[list[EventFrame], list[LinkStatus]], object]


async def read_link(
    link: Link,
    until: Until,
    timeout: float,
    device: Callable[[LinkStatus], Awaitable[None]] | None = None,
    give_up_quietly: bool = False,
) -> tuple[list[EventFrame], list[LinkStatus]]:
    """The EVENT frames and the statuses of ``link.items()`` until ``until(frames,
    statuses)``, asked after every item, is true. ``device``: the test's board, awaited with
    each status (it answers ``connected`` with a HELLO, ``replay`` with frames). After
    ``timeout`` s: ``TimeoutError``, or with ``give_up_quietly`` what came so far (for a
    test that asserts on it). The link is closed either way."""
    frames: list[EventFrame] = []
    statuses: list[LinkStatus] = []

    async def go() -> None:
        async for item in link.items():
            if isinstance(item, LinkStatus):
                statuses.append(item)
                if device is not None:
                    await device(item)
            elif isinstance(item, EventFrame):
                frames.append(item)
            if until(frames, statuses):
                return

    try:
        async with asyncio.timeout(timeout):
            await go()
    except TimeoutError:
        if not give_up_quietly:
            raise
    finally:
        link.close()
    return frames, statuses


async def wind_down(reader: asyncio.Task[object], items: Any, device: asyncio.Task[object], pty: Any) -> None:
    """A test's link taken down after it read what it waited for: the task reading
    ``items`` (a table's items, ``table_items``) cancelled and awaited, the items closed, the
    forged board's task cancelled and awaited, its pty closed."""
    reader.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await reader
    await items.aclose()
    device.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await device
    pty.close()


async def on_firmware(reading: Awaitable[object], seconds: float, link: Link, boards: list[Any], cable: Any,
                      beside: asyncio.Task[object] | None = None) -> None:
    """A test's read of the real firmware's link (``reading``) for at most ``seconds``, then
    everything taken down whatever happened: the link closed, the task ``beside`` it (the one
    that reboots or unplugs the board) cancelled and awaited, every firmware process the test
    started (``boards``) stopped and the cable closed."""
    try:
        await for_at_most(seconds, reading)
    finally:
        link.close()
        if beside is not None:
            beside.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await beside
        for board in boards:
            board.stop()
        cable.close()
