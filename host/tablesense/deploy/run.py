"""Run a flash plan with mpremote: the board's MicroPython version first, then its manifest,
then the plan's commands."""

from __future__ import annotations

import contextlib
import io
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from ..errors import TablesenseError
from ..link.lines import REPL_BAUD
from .build import MANIFEST
from .plan import FlashPlan, restart_argv
from .versions import PROBE, BoardPython, parse_board


class FlashError(TablesenseError):
    """An mpremote command failed."""


def mpremote_path() -> str:
    beside = Path(sys.executable).parent / "mpremote"
    return str(beside) if beside.exists() else "mpremote"


def board_micropython(port: str, timeout: float = 10.0, soft_reset: bool = True,
                      baudrate: int = REPL_BAUD) -> BoardPython:
    """Ask the board's REPL (mpremote's raw REPL, as a library) which MicroPython it runs.

    Nothing on the board changes: Ctrl-C stops the firmware, a soft reset (``soft_reset``;
    the unix port's REPL cannot) clears its interrupts, one ``print`` answers. mpremote's
    serial transport keeps DTR and RTS asserted while open and lowers RTS before DTR on
    close, so this never resets the board either (``link.lines``)."""
    from mpremote.transport import TransportError
    from mpremote.transport_serial import SerialTransport

    chatter = io.StringIO()  # mpremote prints what it got when the raw REPL fails; we say it once
    transport = None
    try:
        with contextlib.redirect_stdout(chatter):
            transport = SerialTransport(port, baudrate=baudrate, timeout=1.0)  # a read never hangs
            transport.enter_raw_repl(soft_reset=soft_reset, timeout_overall=timeout)
            out = transport.exec(PROBE)
            transport.exit_raw_repl()
    except (TransportError, struct.error) as exc:  # struct.error: a short answer to raw-paste mode
        raise FlashError(f"no MicroPython REPL on {port} ({exc}): is MicroPython on the board? "
                         "(flash it first, see docs/installation.md)") from None
    except OSError as exc:
        raise FlashError(f"cannot talk to {port}: {exc.strerror or exc}") from None
    finally:
        if transport is not None:
            with contextlib.suppress(Exception):
                transport.close()
    try:
        return parse_board(out)
    except ValueError as exc:
        raise FlashError(f"{port}: {exc}") from None


def read_manifest(port: str, mpremote: str, timeout: float = 30.0, root: str = "/",
                  resume: bool = False) -> str | None:
    """The manifest text on the board, or None when the board has none (a clean board)."""
    connect = [mpremote, "connect", port, *(["resume"] if resume else [])]
    argv = [*connect, "fs", "cat", ":" + root + MANIFEST.lstrip("/")]
    try:
        res = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise FlashError(f"mpremote did not get a REPL on {port} within {timeout:g} s: is it an ESP32 "
                         "running MicroPython? (flash MicroPython first, see docs/installation.md)") from None
    if res.returncode != 0:
        err = (res.stderr or res.stdout).strip()
        if "No such file" in err or "ENOENT" in err or "Errno 2" in err:
            return None
        raise FlashError(f"mpremote could not talk to {port}: {err or 'exit ' + str(res.returncode)}")
    return res.stdout


def execute(plan: FlashPlan, log: Callable[[str], None], timeout: float = 60.0) -> None:
    for step in plan.steps:
        log(f"  {step}    # {step.why}")
        try:
            res = subprocess.run(list(step.argv), capture_output=True, text=True, timeout=timeout,
                                 check=False)
        except subprocess.TimeoutExpired:
            raise FlashError(f"`{step}` did not finish within {timeout:g} s") from None
        if res.returncode != 0:
            err = (res.stderr or res.stdout).strip()
            if "mkdir" in step.argv and "exists" in err.lower():
                continue
            raise FlashError(f"`{step}` failed: {err}")


def restart(port: str, mpremote: str, resume: bool = False, timeout: float = 30.0) -> None:
    """``mpremote connect PORT reset``: the board boots again and runs the firmware (main.py).
    FlashError when mpremote cannot do it."""
    argv = list(restart_argv(port, mpremote, resume))
    try:
        res = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise FlashError(f"`{' '.join(argv)}` did not finish within {timeout:g} s") from None
    if res.returncode != 0:
        raise FlashError(f"`{' '.join(argv)}` failed: {(res.stderr or res.stdout).strip()}")
