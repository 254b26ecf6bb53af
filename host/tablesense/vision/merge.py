"""The camera's events beside the sensors' of the same table, by time.

Within one shot the sensors know the cushion hits to the millisecond but not the ball, and
the rest but not the positions; the camera knows balls, contacts and positions. ``merge_shot``
makes one shot of both: a sensor cushion is the camera's cushion of the same number within
``TOLERANCE`` (it gains the ball), the camera's strike and contacts are added, and the one
``rest`` carries the camera's positions. Nothing is invented: what neither saw stays out,
what only the sensors saw stays as they said it.

``merged(sensor, camera)`` does it live: a table's items (events, checkpoints, link status)
pass through, a shot's table events are held from its first event to its ``rest`` and up to
``WAIT`` seconds more for the camera's reading of it (time read, events, and the cushion hits
it was unsure of: ``merge_shot``'s ``maybe``). Camera times (host monotonic) are
put on the table's clock by the smallest offset seen between a sensor event's time and its
arrival (the one that waited least).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any

from msgspec.structs import replace

from ..events import Call, Contact, Cushion, Event, Rest, Setup, Strike
from .doubts import ORDER, first_touches

TOLERANCE = 0.04  # s between a sensor's and the camera's report of one cushion hit
WAIT = 1.5  # s after the sensors' rest that the camera's reading of the shot is awaited


def shift(events: list[Event], offset: float) -> list[Event]:
    """Camera events moved onto the table's clock (``t - offset``)."""
    return [replace(e, t=round(e.t - offset, 6)) for e in events]


def merge_shot(
    sensor: list[Event],
    camera: list[Event],
    tolerance: float = TOLERANCE,
    maybe: Sequence[tuple[float, str, int]] = (),
) -> list[Event]:
    """One shot from the sensors' events and the camera's (both on the table's clock).

    ``maybe`` are the cushion hits the camera was unsure of (``CameraShot.maybe_cushions``: time,
    the ball by that cushion then, cushion): a sensor's hit of that cushion then settles that it
    was hit, and by that ball (when only one was by it). With the sensor's time the order of a
    cue-ball cushion and its touch of a ball is settled too, unless they are within
    ``doubts.ORDER``: then the cushion stays without its ball (the referee counts cushions)."""
    cam_cushions = [e for e in camera if isinstance(e, Cushion)]
    used: set[int] = set()
    out: list[Event] = []
    for e in sensor:
        if isinstance(e, Cushion) and e.ball is None:
            match = min(
                (
                    i
                    for i, c in enumerate(cam_cushions)
                    if i not in used
                    and c.ball is not None
                    and c.cushion == e.cushion
                    and abs(c.t - e.t) <= tolerance
                ),
                key=lambda i: abs(cam_cushions[i].t - e.t),
                default=None,
            )
            if match is not None:
                used.add(match)
                out.append(replace(e, ball=cam_cushions[match].ball))
                continue
            near = {b for t, b, n in maybe if n == e.cushion and abs(t - e.t) <= tolerance}
            if len(near) == 1:
                out.append(replace(e, ball=near.pop()))
                continue
        if isinstance(e, Rest):
            continue
        out.append(e)
    have_sensor_cushions = any(isinstance(e, Cushion) for e in sensor)
    for i, c in enumerate(cam_cushions):
        if i not in used and not have_sensor_cushions:  # a table without cushion sensors
            out.append(c)
    out += [e for e in camera if isinstance(e, (Contact, Strike))]
    if have_sensor_cushions:  # the sensors' times: is a cue-ball cushion before its touch or after?
        out = _cushion_order(out)
    rest_s = next((e for e in reversed(sensor) if isinstance(e, Rest)), None)
    rest_c = next((e for e in reversed(camera) if isinstance(e, Rest)), None)
    if rest_s is not None or rest_c is not None:
        t = max(r.t for r in (rest_s, rest_c) if r is not None)
        positions = (rest_c.positions if rest_c is not None else None) or (
            rest_s.positions if rest_s else None
        )
        base = rest_s or rest_c
        assert base is not None
        out.append(replace(base, t=t, positions=positions))
    out.sort(key=lambda e: (isinstance(e, Rest), e.t))
    return out


def _cushion_order(events: list[Event]) -> list[Event]:
    """Cue-ball cushions (the struck ball's; any ball's when no strike was seen) too close to its
    first touch of a ball to tell the order: without their ball."""
    touches = [(e.t, *e.balls) for e in events if isinstance(e, Contact)]
    struck = next((e.ball for e in events if isinstance(e, Strike)), None)
    cues = [struck] if struck is not None else sorted({b for _t, *balls in touches for b in balls})
    firsts = {cue: [t for _o, t in first_touches(touches, cue)] for cue in cues}
    out: list[Event] = []
    for e in events:
        if (
            isinstance(e, Cushion)
            and e.ball in firsts
            and len(firsts[e.ball]) >= 2
            and any(abs(e.t - t) < ORDER for t in firsts[e.ball])
        ):
            e = replace(e, ball=None)
        out.append(e)
    return out


def _table_event(item: Any) -> bool:
    return isinstance(item, Event) and not isinstance(item, (Call, Setup))


async def merged(
    sensor: AsyncIterator[Any], camera: AsyncIterator[tuple[Any, ...]], wait: float = WAIT
) -> AsyncIterator[Any]:
    """The sensor items with each shot's camera events merged in (see the module doc)."""
    queue: asyncio.Queue[tuple[str, Any, float]] = asyncio.Queue()

    async def pump(kind: str, source: AsyncIterator[Any]) -> None:
        try:
            async for item in source:
                await queue.put((kind, item, time.monotonic()))
        finally:
            await queue.put((kind + "-end", None, time.monotonic()))

    tasks = [asyncio.create_task(pump("s", sensor)), asyncio.create_task(pump("c", camera))]
    offset = math.inf
    shot: list[Event] = []
    held: list[Any] = []  # checkpoints and status behind a held shot: after its events
    # camera shots not yet merged (camera times): events, and the cushions it was unsure of
    seen: list[tuple[list[Event], list[tuple[float, str, int]]]] = []
    rest_at: float | None = None
    ended = 0
    try:
        while ended < 2 or shot:
            timeout = None if rest_at is None else max(rest_at + wait - time.monotonic(), 0.0)
            try:
                kind, item, arrived = await asyncio.wait_for(queue.get(), timeout)
            except TimeoutError:
                kind, item, arrived = "timeout", None, time.monotonic()
            if kind.endswith("-end"):
                ended += 1
                if ended == 2 and shot:
                    kind = "timeout"
                else:
                    continue
            if kind == "c":
                seen.append((item[1], list(item[2]) if len(item) > 2 else []))
                if rest_at is None:
                    continue
            elif kind == "s":
                if isinstance(item, Event):
                    offset = min(offset, arrived - item.t) if item.t else offset
                if _table_event(item):
                    shot.append(item)
                    if isinstance(item, Rest):
                        rest_at = arrived
                    continue
                if shot:
                    held.append(item)
                    continue
                yield item
                continue
            if rest_at is None and kind != "timeout":
                continue
            # the sensors' shot is over: merge the camera shot that overlaps it, if any came
            cam: list[Event] = []
            maybe: list[tuple[float, str, int]] = []
            if seen and math.isfinite(offset):
                first, last = shot[0].t, shot[-1].t
                for events, unsure in seen:
                    moved = shift(events, offset)
                    if moved and moved[-1].t >= first - 1.0 and moved[0].t <= last + 1.0:
                        cam = moved
                        maybe = [(round(t - offset, 6), b, n) for t, b, n in unsure]
                seen = [s for s in seen if shift(s[0], offset)[-1].t > shot[-1].t + 1.0]
            for event in merge_shot(shot, cam, maybe=maybe):
                yield event
            for item in held:
                yield item
            shot, held, rest_at = [], [], None
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
