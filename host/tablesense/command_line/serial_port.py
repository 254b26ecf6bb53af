"""One answer to a missing or wrong serial port, for every command.

``serial_problem(port)`` opens the port once and closes it again, touching nothing: a
device only as far as asking for its terminal settings (no flush of what the board sent
already, no reconfiguring, no line changes: a board is not reset and a restarted host
still finds its unread frames), a ``socket://`` URL by connecting to it. What it returns
is the one line every command prints (exit 2): ``serial port /dev/ttyUSB0 not found.
Ports seen: /dev/ttyS0``, or ``... cannot be opened (reason). Ports seen: ...``.
``monitor`` and ``run`` given ``--wait`` print it with "; waiting for it" and keep trying.
"""

from __future__ import annotations

import os
import termios

import serial

from ..deploy.ports import PortError, check_port, is_url, list_serial_ports


def ports_seen() -> str:
    """``Ports seen: /dev/ttyS0; /dev/serial/by-id/usb-... (CP2102 [10c4:ea60])``, or that there are none."""
    seen = list_serial_ports()
    if not seen:
        return ("no serial ports are connected: plug the board in with a data USB cable "
                "(see docs/installation.md)")
    return "Ports seen: " + "; ".join(f"{p.stable} ({p.description})" if p.description else p.stable
                                      for p in seen)


def serial_problem(port: str | None, *, probe: bool = True) -> str | None:
    """Why ``port`` cannot be the board's serial port, in one line, or None. ``probe``: open
    and close it (a path that exists may still be no serial port: /dev/null, a directory)."""
    if not port:
        return f"give the board's serial port with --serial PORT. {ports_seen()}"
    try:
        check_port(port)
    except PortError as exc:
        return str(exc)
    if not probe:
        return None
    try:
        _touch(port)
    except (OSError, serial.SerialException, ValueError, termios.error) as exc:
        why = str(exc).removeprefix(f"Could not open port {port}: ")
        if isinstance(exc, termios.error):
            why = "not a serial device"
        elif not is_url(port) and os.path.isdir(port):
            why = "a directory"
        elif isinstance(exc, PermissionError):
            why = "permission denied: add the user to the dialout group, docs/installation.md"
        elif isinstance(exc, OSError) and exc.strerror:
            why = exc.strerror
        return f"serial port {port} cannot be opened ({why}). {ports_seen()}"
    return None


def _touch(port: str) -> None:
    """Open ``port`` and close it, changing nothing on it (termios.error: no terminal)."""
    if is_url(port):
        serial.serial_for_url(port, timeout=0.2).close()
        return
    fd = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    try:
        termios.tcgetattr(fd)
    finally:
        os.close(fd)
