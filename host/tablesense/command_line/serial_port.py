"""One answer to a missing or wrong serial port, for every command.

``serial_problem(port)`` opens the port once and closes it again, touching nothing: a
device only as far as asking for its terminal settings (no flush of what the board sent
already, no reconfiguring, no line changes: a board is not reset and a restarted host
still finds its unread frames), a ``socket://`` URL by connecting to it. What it returns
is the one line every command prints (exit 2): ``serial port /dev/ttyUSB0 not found.
Ports seen: /dev/ttyS0``, or ``... cannot be opened (reason). Ports seen: ...``.
``monitor`` and ``run`` given ``--wait`` print it with "; waiting for it" and keep trying,
except for a URL no board can ever answer at (``url_mistake``: a scheme pyserial does not
know, a ``socket://`` without its port): waiting cannot mend a typing mistake.
"""

from __future__ import annotations

import os
import pkgutil
import termios
from urllib.parse import urlsplit

import serial
import serial.urlhandler

from ..deploy.ports import PortError, check_port, is_url, list_serial_ports


def ports_seen() -> str:
    """``Ports seen: /dev/ttyS0; /dev/serial/by-id/usb-... (CP2102 [10c4:ea60])``, or that there are none."""
    seen = list_serial_ports()
    if not seen:
        return ("no serial ports are connected: plug the board in with a data USB cable "
                "(see docs/installation.md)")
    return "Ports seen: " + "; ".join(f"{p.stable} ({p.description})" if p.description else p.stable
                                      for p in seen)


#: pyserial's URL schemes whose address is HOST:PORT
_HOST_PORT_SCHEMES = ("socket", "rfc2217")


def _url_schemes() -> list[str]:
    """The schemes pyserial's ``serial_for_url`` knows (a module ``protocol_<scheme>`` each)."""
    return sorted(m.name.removeprefix("protocol_") for m in pkgutil.iter_modules(serial.urlhandler.__path__)
                  if m.name.startswith("protocol_"))


def url_mistake(port: str) -> str | None:
    """Why the URL ``port`` can never reach a board, in one line, or None (a device path, or a
    URL that may answer later): an unknown scheme, or a ``socket://``/``rfc2217://`` without a
    port number 1-65535. pyserial's own words for these are its internals' ("'<=' not supported
    between instances of 'int' and 'NoneType'")."""
    if not is_url(port):
        return None
    scheme = port.split("://", 1)[0]
    if scheme not in _url_schemes():
        return (f"serial port {port} is no device and its URL scheme {scheme!r} is not one pyserial knows "
                "(socket://HOST:PORT, rfc2217://HOST:PORT)")
    if scheme in _HOST_PORT_SCHEMES:
        try:
            number = urlsplit(port).port
        except ValueError:
            number = None
        if not number:
            return f"serial port {port} needs a port number 1-65535: {scheme}://HOST:PORT"
    return None


def serial_problem(port: str | None, *, probe: bool = True) -> str | None:
    """Why ``port`` cannot be the board's serial port, in one line, or None. ``probe``: open
    and close it (a path that exists may still be no serial port: /dev/null, a directory)."""
    if not port:
        return f"give the board's serial port with --serial PORT. {ports_seen()}"
    mistake = url_mistake(port)
    if mistake:
        return mistake
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
