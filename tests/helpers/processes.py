"""The programs a test starts: one that serves a port, ``tablesense run`` as systemd runs it;
and stopping any of them: asked first (SIGTERM, or the signal the test is about), killed if
it has not ended in time, and waited for either way, so that no test leaves one running."""

from __future__ import annotations

import resource
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

from helpers.ports import free_port, wait_port

SYSTEMD_NOFILE = 1024  # the descriptors systemd gives a service (its LimitNOFILE soft limit)
#: how long ``serving_run`` lets ``tablesense run`` start: a ceiling against one that hangs,
#: not a guess at its start, since the wait ends the moment it listens (5.8-7.3 s at load 8,
#: 17 s at load 17 on the 2-core machine: a fixed 20 s was too little under load)
START_CEILING_S = 180.0


def start_listening(argv: list[str], port: int, log: Path, timeout: float,
                    output: bool = False) -> subprocess.Popen:  # type: ignore[type-arg]
    """``argv`` started, its stderr (with ``output`` its stdout too) appended to ``log``, and
    returned once it listens on 127.0.0.1:``port``; stopped, and the ``OSError`` raised, if it
    does not within ``timeout`` s (a loaded machine starts a program slowly)."""
    with log.open("ab") as out:
        proc = subprocess.Popen(argv, stdout=out if output else subprocess.DEVNULL, stderr=out)
    try:
        wait_port(port, timeout)
    except OSError:
        stop(proc)  # not left running when it never answered
        raise
    return proc


def start_run(tablesense_cmd: list[str], port: int, tmp_path: Path,
              nofile: int = SYSTEMD_NOFILE) -> subprocess.Popen:  # type: ignore[type-arg]
    """``tablesense run --tables 1`` on ``port`` with ``nofile`` descriptors at most, its match
    log ``pub.db`` and its stderr ``stderr`` in ``tmp_path``."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    with (tmp_path / "stderr").open("wb") as err:
        return subprocess.Popen([*tablesense_cmd, "run", "--tables", "1", "--port-http", str(port),
                                 "--db", str(tmp_path / "pub.db")], stdout=subprocess.DEVNULL,
                                stderr=err, preexec_fn=limit)


def serving_run(tablesense_cmd: list[str], tmp_path: Path, nofile: int = SYSTEMD_NOFILE,
                ports: Iterator[int] | None = None) -> tuple[subprocess.Popen, int]:  # type: ignore[type-arg]
    """``start_run`` on a free port (``ports``: the ones to try, else ``free_port``'s), returned
    with the port once it listens there, however long the loaded machine takes, as long as it
    runs (``START_CEILING_S`` at most). A port free when it was picked but bound before ``run``
    bound it (another test's connection given it as its own end: the ports ``free_port`` hands
    out are the kernel's ephemeral ones) ends ``run`` at once, "address already in use": it is
    started again on another port, up to three times."""
    candidates = ports if ports is not None else iter(lambda: free_port(""), None)
    for attempt in range(3):
        port = next(candidates)
        proc = start_run(tablesense_cmd, port, tmp_path, nofile)
        try:
            wait_port(port, START_CEILING_S, proc)
            return proc, port
        except AssertionError as exc:
            stop(proc)
            err = (tmp_path / "stderr").read_text(errors="replace")
            if "address already in use" in err.lower() and attempt < 2:
                continue
            raise AssertionError(f"`tablesense run` on port {port}: {exc}\n{err[-2000:]}") from None
    raise AssertionError("unreachable")


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


def signalled(proc: subprocess.Popen[str], sig: int, timeout: float) -> tuple[int, str]:
    """Send ``proc`` (started with its stderr a pipe) ``sig`` and read its stderr until it
    ends; killed if it has not in ``timeout`` s. Its exit status and what it said."""
    proc.send_signal(sig)
    try:
        _out, err = proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    return proc.returncode, err
