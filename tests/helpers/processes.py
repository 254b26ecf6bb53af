"""Stopping a program a test started: asked first (SIGTERM, or the signal the test is about),
killed if it has not ended in time, and waited for either way, so that no test leaves one
running."""

from __future__ import annotations

import signal
import subprocess


def stop(proc: subprocess.Popen, sig: int = signal.SIGTERM, timeout: float = 10.0,  # type: ignore[type-arg]
         kill_timeout: float | None = 5.0) -> int:
    """Send ``sig`` to ``proc`` if it still runs and wait ``timeout`` s for it; then SIGKILL
    and wait ``kill_timeout`` s more (None: as long as it takes). Its exit status (negative:
    the signal that ended it)."""
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(kill_timeout)
    return proc.returncode
