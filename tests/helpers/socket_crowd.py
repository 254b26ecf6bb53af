"""A crowd of clients that connect and say nothing (or a byte now and then): sockets left
half-open against a server, the way idle and slow clients hold its descriptors."""

from __future__ import annotations

import socket


def connecting(port: int, source: str = "") -> socket.socket:
    """A non-blocking socket connecting to 127.0.0.1:``port`` from ``source`` (an address of
    127.0.0.0/8; "": any), no request sent. ``OSError`` if it cannot (no such source, the
    connection refused at once)."""
    s = socket.socket()
    s.setblocking(False)
    try:
        if source:
            s.bind((source, 0))
        s.connect(("127.0.0.1", port))
    except BlockingIOError:
        pass  # under way
    except OSError:
        s.close()
        raise
    return s
