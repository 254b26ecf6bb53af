"""The host link: serial port -> frames -> table events.

- ``frame``: the wire format (COBS, CRC-16, typed frame records, streaming decoder).
- ``sequence``: in-order delivery, duplicates dropped, gaps replayed.
- ``clock``: device microseconds -> table seconds, and the mapping to host time.
- ``transport``: ``Link``, the asyncio serial link (pyserial, reconnect, replay).
- ``translate``: frames -> the table events of docs/events.md with the table profile.

For other parts of tablesense:

    async for event in table_events("/dev/ttyUSB0", "golf"):
        ...

    async for item in link_items(url):      # frames and LinkStatus records
        ...
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable
from typing import Any

from ..events import Event
from ..table.profile import TableProfile
from .frame import Frame, HelloFrame
from .translate import Translator, table_profile
from .transport import Link, LinkError, LinkStatus

__all__ = ["Link", "LinkError", "LinkStatus", "Translator", "link_items", "table_events"]


async def link_items(url: str, **opts: Any) -> AsyncIterator[Frame | LinkStatus]:
    """Frames in seq order (deduplicated, gaps replayed) and link status changes.

    ``opts`` go to ``Link`` (reconnect, backoff, give_up_after, replay, from_seq, ...).
    """
    link = Link(url, **opts)
    try:
        async for item in link.items():
            yield item
    finally:
        link.close()


async def table_events(
    url: str,
    profile: TableProfile | str | os.PathLike[str],
    *,
    on_status: Callable[[LinkStatus], None] | None = None,
    link: Link | None = None,
    **opts: Any,
) -> AsyncIterator[Event]:
    """The table events of a table's serial port, in device-time order, for as long as it runs.

    ``profile``: a ``TableProfile``, its id (``golf``, ``kegle``, ``carom``) or a TOML path.
    ``on_status``: called with each ``LinkStatus`` (connected, gap, replay, reconnect, ...).
    ``link``: a ``Link`` made by the caller (to read its stats or send commands);
    otherwise one is made from ``url`` and ``opts``.

    When frames are lost for good (the device no longer holds them), the HELLO asked
    for next resynchronises the pins from its levels (``Translator.snapshot``).
    """
    translator = Translator(table_profile(profile))
    own = link is None
    link = link or Link(url, **opts)
    resync = False  # frames were lost for good: the next HELLO's levels tell what changed
    try:
        async for item in link.items():
            if isinstance(item, LinkStatus):
                if on_status is not None:
                    on_status(item)
                if item.kind == "lost":
                    resync = True
                    await link.send("!hello")
                continue
            if resync and isinstance(item, HelloFrame):
                resync = False
                for event in translator.snapshot(item):
                    yield event
                continue
            for event in translator.feed(item):
                yield event
            if translator.notes and on_status is not None:
                for note in translator.notes:
                    on_status(LinkStatus("profile", note))
                translator.notes.clear()
    finally:
        if own:
            link.close()
