"""Sensor edges for the firmware under MicroPython (``FirmwareProcess.send_edges``), timed by
the board's own clock: a test writes them from 0 and plays them a little after the HELLO
that says where the board's clock is."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from tablesense.link import LinkStatus
from tablesense.sim.fitl import FirmwareProcess

AHEAD_US = 300_000  # after the HELLO's uptime: the board has read the feed by then


def shifted(edges: Iterable[dict[str, Any]], t0_us: int) -> list[dict[str, Any]]:
    """``edges`` with ``t0_us`` added to each time."""
    return [{**e, "t_us": e["t_us"] + t0_us} for e in edges]


def play_at_hello(fw: FirmwareProcess, edges: Iterable[dict[str, Any]],
                  ahead_us: int = AHEAD_US) -> Callable[[LinkStatus], None]:
    """An ``on_status`` for the link that, at the first ``hello``, sends ``fw`` the edges
    (times from 0) from ``ahead_us`` after the board's uptime; once."""
    todo = list(edges)

    def on_status(s: LinkStatus) -> None:
        if s.kind == "hello" and todo:
            fw.send_edges(shifted(todo, int(s.data["uptime_us"]) + ahead_us))
            todo.clear()

    return on_status
