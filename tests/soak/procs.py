"""The soak's processes: each started in a session (process group) of its own, its stderr
kept in a file (appended to across restarts), and every one of them stopped at the end,
also when the soak fails: ``Processes.stop_all`` in a ``finally`` signals each group
(SIGTERM, then SIGKILL), never a process by its name. A soak that is itself killed
outright takes them with it: each is started with ``PR_SET_PDEATHSIG`` (as the firmware is,
``sim/fitl.py``), so the kernel kills it when the soak's main thread ends.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tablesense.sim.fitl import _die_with_parent


@dataclass
class Proc:
    """One long-running program of the soak (a pub host, the league service, the broker, a
    load generator): started again after a kill with the same command and files."""

    name: str
    argv: list[str]
    stderr_path: Path
    stdout_path: Path | None = None
    env: dict[str, str] | None = None
    preexec: Callable[[], None] | None = None
    popen: subprocess.Popen[bytes] | None = None
    starts: int = 0
    kills: int = 0
    terms: int = 0
    exits: list[int] = field(default_factory=list)  # exit statuses seen (negative: a signal)
    marks: list[int] = field(default_factory=list)  # the size of its stderr file at each start
    stops: list[float] = field(default_factory=list)  # wall times it was killed or stopped

    def start(self) -> None:
        self.stderr_path.parent.mkdir(parents=True, exist_ok=True)
        self.marks.append(self.stderr_path.stat().st_size if self.stderr_path.exists() else 0)
        with open(self.stderr_path, "ab") as err:
            out: int | object = subprocess.DEVNULL
            fh = open(self.stdout_path, "ab") if self.stdout_path is not None else None
            try:
                if fh is not None:
                    out = fh
                self.popen = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                              env=self.env, start_new_session=True,
                                              preexec_fn=self.preexec or _die_with_parent(os.getpid()))
            finally:
                if fh is not None:
                    fh.close()
        self.starts += 1

    @property
    def pid(self) -> int | None:
        return self.popen.pid if self.popen is not None else None

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def _reap(self, timeout: float) -> bool:
        assert self.popen is not None
        try:
            code = self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            return False
        self.exits.append(code)
        return True

    def kill(self) -> None:
        """SIGKILL to its whole group: the power cord pulled."""
        if self.popen is None:
            return
        if self.popen.poll() is None:
            self.stops.append(time.time())
            _signal_group(self.popen.pid, signal.SIGKILL)
            self.kills += 1
        self._reap(10)
        self.popen = None

    def terminate(self, timeout: float = 15.0) -> int | None:
        """SIGTERM (systemd's stop), SIGKILL to the group if it has not ended in ``timeout``;
        the exit status."""
        if self.popen is None:
            return None
        p = self.popen
        if p.poll() is None:
            self.stops.append(time.time())
            _signal_group(p.pid, signal.SIGTERM)
            self.terms += 1
            if not self._reap(timeout):
                _signal_group(p.pid, signal.SIGKILL)
                self._reap(10)
        else:
            self._reap(1)
        # anything the program left in its group (it should leave nothing)
        _signal_group(p.pid, signal.SIGKILL)
        self.popen = None
        return p.returncode

    def last_run_stderr(self) -> str:
        """What the running (or last) incarnation wrote on stderr."""
        try:
            data = self.stderr_path.read_bytes()
        except OSError:
            return ""
        return data[self.marks[-1] if self.marks else 0:].decode(errors="replace")

    def stderr_text(self) -> str:
        try:
            return self.stderr_path.read_text(errors="replace")
        except OSError:
            return ""


def _signal_group(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)


class Processes:
    """Every process the soak started; ``stop_all`` ends them all."""

    def __init__(self) -> None:
        self.procs: list[Proc] = []
        self.cleanups: list[Callable[[], None]] = []

    def add(self, name: str, argv: Sequence[str], stderr: Path, **kw: object) -> Proc:
        p = Proc(name, list(argv), stderr, **kw)  # type: ignore[arg-type]
        self.procs.append(p)
        return p

    def on_stop(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` at the end (after the processes are stopped), even when the soak fails."""
        self.cleanups.append(fn)

    def stop_all(self, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        for p in reversed(self.procs):
            with contextlib.suppress(Exception):
                p.terminate(max(1.0, deadline - time.monotonic()))
        for fn in reversed(self.cleanups):
            with contextlib.suppress(Exception):
                fn()
        self.cleanups.clear()
