"""The serial port: opened without resetting the board, read by a thread of its own.

``open_port`` is every opening of a board's port (the link and its reconnects, doctor, flash's
HELLO check); ``read_port`` is the thread that hands the bytes to the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time

import serial

from . import lines

#: a port held this long after asked for is held by another program; shorter, it is a port of
#: this one still closing (a reader thread in its last read holds the lock until the read ends)
BUSY_WAIT_S = 0.5


def open_port(url: str, baudrate: int = lines.BAUD, timeout: float = 0.05) -> serial.SerialBase:
    """Open ``url`` so that neither the open nor the close resets an ESP32 (``lines``: the
    DevKitC auto-reset circuit never sees RTS asserted without DTR).

    A device path opens as ``lines.QuietSerial`` (its close lowers RTS before DTR); a URL
    (``socket://``, ``loop://``) through ``serial_for_url``. Every opening of a board's port
    goes through here: the link and its reconnects, doctor, flash's HELLO check.

    A device is opened exclusively (``flock``, POSIX): a second program on a port one holds
    (``monitor`` or ``doctor`` beside ``run``) would read half its bytes, so it is refused,
    ``SerialException`` "port ... is busy", and the holder loses nothing."""
    if "://" in url:
        ser = serial.serial_for_url(url, do_not_open=True, baudrate=baudrate, timeout=timeout)
    else:
        ser = lines.QuietSerial(None, baudrate=baudrate, timeout=timeout, exclusive=os.name != "nt" or None)
        ser.port = url
    lines.prepare_lines(ser)
    deadline = time.monotonic() + BUSY_WAIT_S
    while True:
        try:
            ser.open()
            return ser
        except serial.SerialException as exc:
            if "exclusively lock" not in str(exc):
                raise
            if time.monotonic() >= deadline:
                raise serial.SerialException(
                    f"port {url} is busy: another program holds it (tablesense run, doctor, monitor, "
                    f"a serial terminal); stop that one first") from None
        time.sleep(0.05)


def reason(exc: BaseException) -> str:
    if isinstance(exc, ConnectionAbortedError):
        return str(exc)
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


class Chunk(bytes):
    """Bytes read from the port, and ``at``: the host's monotonic time the read returned. The
    loop may take them up much later (a host held up, a backlog of frames to look at): ``at``
    is when they came, as near as the host can tell."""

    at: float = 0.0


def read_port(
    ser: serial.SerialBase,
    loop: asyncio.AbstractEventLoop,
    queue: asyncio.Queue[bytes | BaseException | None],
    stop: threading.Event,
) -> None:
    """Reader thread: blocking reads, bytes handed to the loop in batches."""
    try:
        while not stop.is_set():
            waiting = ser.in_waiting
            data = ser.read(waiting if waiting > 0 else 1)
            if data and not stop.is_set():
                chunk = Chunk(data)
                chunk.at = time.monotonic()
                loop.call_soon_threadsafe(queue.put_nowait, chunk)
    except Exception as exc:  # the port went away (unplugged, pty closed, socket reset)
        if not stop.is_set():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(queue.put_nowait, exc)
