"""Ask a running board for HELLO over the link (opened by ``open_port``: no reset)."""

from __future__ import annotations

import time
from collections.abc import Callable

from serial import SerialBase

from ..errors import TablesenseError
from ..link.frame import ErrorFrame, Frame, HelloFrame, StreamDecoder
from ..link.lines import BAUD
from ..link.transport import open_port
from .versions import hello_refusal


class HelloError(TablesenseError):
    """The board did not answer HELLO, or answered with the wrong firmware or profile."""


def ask_hello(port: str, timeout: float = 10.0, every: float = 0.5, baudrate: int = BAUD) -> HelloFrame:
    """Send ``!hello`` every ``every`` s until a HELLO frame arrives; HelloError after ``timeout``.

    A port that is not there yet is retried until the timeout: a board with native USB
    (ESP32-S2/S3) drops its port while it resets after the flash."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            ser = open_port(port, baudrate)
            break
        except OSError as exc:
            if time.monotonic() + every > deadline:
                raise HelloError(f"cannot open {port}: {exc}") from None
            time.sleep(every)
    try:
        return wait_hello(ser, StreamDecoder(), "!hello", max(deadline - time.monotonic(), every), every)
    except OSError as exc:
        raise HelloError(f"lost {port}: {exc}") from None
    finally:
        ser.close()


def wait_hello(ser: SerialBase, dec: StreamDecoder, command: str, timeout: float, every: float = 0.5,
               on_frame: Callable[[Frame], None] | None = None) -> HelloFrame:
    """Send ``command`` (``!hello``, ``!profile ID``) on the open port every ``every`` s until a
    HELLO arrives. ``on_frame`` sees every frame decoded meanwhile. HelloError when the board
    answers ERROR or nothing comes within ``timeout``."""
    deadline = time.monotonic() + timeout
    next_ask = 0.0
    while time.monotonic() < deadline:
        now = time.monotonic()
        if now >= next_ask:
            ser.write(command.encode("ascii") + b"\n")
            next_ask = now + every
        data = ser.read(256)
        for frame in dec.feed(data) if data else ():
            if isinstance(frame, ErrorFrame) and command != "!hello":
                raise HelloError(f"board refused {command!r}: {frame.text}")
            if on_frame is not None:
                on_frame(frame)
            if isinstance(frame, HelloFrame):
                return frame
    said = f"; it wrote {dec.texts[-1]!r}" if dec.texts else ""
    raise HelloError(f"no HELLO from {ser.port} within {timeout:g} s{said}: is the tablesense firmware "
                     "running (try `tablesense flash` again, or press EN on the board)?")


def check_hello(hello: HelloFrame, fw_version: str, profile_id: str, chip: str = "") -> list[str]:
    """What is wrong with the board's HELLO (empty when it is the firmware and profile expected,
    on a supported MicroPython, on ``chip`` when one is given and the firmware reports it)."""
    problems = []
    why = hello_refusal(hello.mp_version)
    if why:
        problems.append(why)
    if chip and hello.chip and hello.chip != chip:
        problems.append(f"board reports chip {hello.chip!r}, expected {chip!r}")
    if hello.fw_version != fw_version:
        problems.append(f"board runs firmware {hello.fw_version!r}, expected {fw_version!r}")
    if hello.profile_id != profile_id:
        problems.append(f"board uses profile {hello.profile_id!r}, expected {profile_id!r}")
    return problems


def describe(hello: HelloFrame) -> str:
    """"firmware 0.2.0 on MicroPython 1.26.1 (esp32), profile golf, 9 channels"."""
    on = ""
    if hello.mp_version or hello.chip:
        on = f" on MicroPython {hello.mp_version or '?'}" + (f" ({hello.chip})" if hello.chip else "")
    return (f"firmware {hello.fw_version or '?'}{on}, profile {hello.profile_id or '?'}, "
            f"{hello.n_channels} channels")
