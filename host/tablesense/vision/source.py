"""Reading a camera: a V4L2 device (``/dev/video0`` or ``0``), an RTSP/HTTP stream or a video
file, through ``cv2.VideoCapture``; frames with their time, and the table events they make.

A file's frames carry the file's own times (``CAP_PROP_POS_MSEC``); a live camera's the
host's monotonic clock when the frame arrived. ``camera_shots`` runs the reading and the
``TableWatcher`` in a thread and yields, per shot, (host time the shot was read, its events).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import cv2
import numpy as np

from ..errors import TablesenseError
from ..events import Event
from .watch import TableWatcher

Unsure = list[tuple[float, str, int]]  # (t, ball, cushion): hits the camera was unsure of


class CameraError(TablesenseError, OSError):
    """A camera that cannot be opened or read."""


def open_capture(device: str) -> tuple[cv2.VideoCapture, bool]:
    """The capture for ``device`` and whether it is a file (its frames carry their own times)."""
    is_file = Path(device).is_file()
    target: str | int = int(device) if device.isdigit() else device
    cap = cv2.VideoCapture(target)
    if not cap.isOpened():
        raise CameraError(
            f"cannot open camera {device!r} (a V4L2 device such as /dev/video0 or 0, "
            "an rtsp:// stream or a video file)"
        )
    return cap, is_file


def read_frame(device: str, skip: int = 10) -> np.ndarray:
    """One picture from ``device``, after ``skip`` frames (a webcam settles its exposure)."""
    cap, is_file = open_capture(device)
    try:
        frame = None
        for _ in range(1 if is_file else skip + 1):
            ok, got = cap.read()
            if ok:
                frame = got
        if frame is None:
            raise CameraError(f"camera {device!r} gave no picture")
        return frame
    finally:
        cap.release()


def frames(
    cap: cv2.VideoCapture, is_file: bool, stop: threading.Event | None = None
) -> Iterator[tuple[float, np.ndarray]]:
    while stop is None or not stop.is_set():
        ok, frame = cap.read()
        if not ok:
            return
        t = cap.get(cv2.CAP_PROP_POS_MSEC) / 1000.0 if is_file else time.monotonic()
        yield t, frame


def watch_file(path: str, watcher: TableWatcher) -> list[Event]:
    """Every event a video file's shots make (for tests and for checking a recording)."""
    cap, is_file = open_capture(path)
    out: list[Event] = []
    try:
        for t, frame in frames(cap, is_file):
            out += watcher.feed(t, frame)
    finally:
        cap.release()
    return out


async def camera_shots(
    device: str, watcher: TableWatcher
) -> AsyncIterator[tuple[float, list[Event], Unsure]]:
    """Per shot the camera saw: (host monotonic time it was read, its events, the cushion hits it
    was unsure of; camera times)."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[float, list[Event], Unsure] | BaseException | None] = asyncio.Queue()
    stop = threading.Event()
    cap, is_file = open_capture(device)

    def run() -> None:
        try:
            for t, frame in frames(cap, is_file, stop):
                events = watcher.feed(t, frame)
                if events:
                    unsure = watcher.last.maybe_cushions if watcher.last is not None else []
                    loop.call_soon_threadsafe(queue.put_nowait, (time.monotonic(), events, unsure))
            loop.call_soon_threadsafe(queue.put_nowait, None)
        except BaseException as exc:
            loop.call_soon_threadsafe(queue.put_nowait, exc)
        finally:
            cap.release()

    thread = threading.Thread(target=run, name=f"camera {device}", daemon=True)
    thread.start()
    try:
        while True:
            item = await queue.get()
            if item is None:
                return
            if isinstance(item, BaseException):
                raise CameraError(f"camera {device!r}: {item}") from item
            yield item
    finally:
        stop.set()
        await asyncio.to_thread(thread.join, 5.0)
