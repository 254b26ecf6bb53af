"""One host a match log: ``tablesense run`` (or ``demo``) holds its ``--db`` while it serves.

Two hosts on one log would each start their own match on the same table and interleave their
events. The first to start holds the log (``flock`` on the database file itself, so no lock
file is left beside it; SQLite's own locks are POSIX record locks, a separate kind); the second
is refused in one line. The kernel lets go when the holder ends in any way, a ``kill -9``
or a power cut included, so a restarted host (systemd's restart) takes the log again.
Readers (``sheet``, ``league import``) do not hold it.
"""

from __future__ import annotations

import os

from .errors import TablesenseError

try:
    import fcntl
except ImportError:  # Windows: no flock; one host a log is then the user's care
    fcntl = None  # type: ignore[assignment]


class LogHeld(TablesenseError):
    """Another host serves from this match log."""


def hold_log(path: str) -> int | None:
    """Hold the match log at ``path`` (it exists: the store made it) for this process; the
    descriptor to hand to ``let_go``, None where locks are not to be had. ``LogHeld`` if
    another process holds it."""
    if fcntl is None:
        return None
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise LogHeld(f"the match log {path} is in use by another tablesense run; stop that one "
                      f"first, or give this one its own --db") from None
    except OSError:  # a file system without flock (some network shares): serve as before
        os.close(fd)
        return None
    return fd


def let_go(fd: int | None) -> None:
    """Let go of a log ``hold_log`` held (after the store is closed: closing a descriptor of
    the file drops this process's record locks on it, which SQLite's must not lose)."""
    if fd is not None:
        os.close(fd)
