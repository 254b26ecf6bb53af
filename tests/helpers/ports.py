"""TCP ports for the programs a test starts: a free one to give it, and a wait until it
listens there."""

from __future__ import annotations

import socket
import subprocess
import time


def free_port(host: str = "127.0.0.1") -> int:
    """A port free on ``host`` now (``""``: on every address, as ``tablesense run`` listens
    by default). The program is given the number: ``run`` takes no port 0, a pub's TVs and
    phones keep its address."""
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float = 10.0, proc: subprocess.Popen | None = None) -> None:  # type: ignore[type-arg]
    """Until something accepts a connection on 127.0.0.1:``port``; after ``timeout`` s the
    last ``OSError`` is raised. With ``proc``: an ``AssertionError`` as soon as it has ended
    (it will never listen) or the time is up."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if proc is not None:
                assert proc.poll() is None, f"it ended (exit {proc.returncode}) without listening on {port}"
                assert time.monotonic() < deadline, f"not listening on {port} after {timeout:g} s"
            elif time.monotonic() > deadline:
                raise
            time.sleep(0.05)
