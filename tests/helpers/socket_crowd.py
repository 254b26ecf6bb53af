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


def status_line(port: int, source: str, timeout: float) -> bytes:
    """A ``GET /api/table/1`` to 127.0.0.1:``port`` from ``source`` on a connection of its own:
    the answer's first 15 bytes (``b"HTTP/1.1 200 OK"``), or the error's ``repr`` when it got
    none within ``timeout`` s. The listen queue is first come, first served: an answer to a
    connection made after a crowd also says that the server has taken the crowd in."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0)) as c:
            c.sendall(b"GET /api/table/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return c.recv(64)[:15]
    except OSError as exc:
        return repr(exc).encode()
