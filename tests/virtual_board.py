"""An ESP32 with MicroPython, modelled on MicroPython's unix port: the board that
`tablesense flash`, mpremote and the host's link talk to in the tests of a board that runs
unattended (tests/deploy/test_flash_board.py, tests/micropython/test_firmware_recovery.py).

A folder stands for the board's flash. A supervisor (a thread here) plays the chip:
- power-on: RTC memory empty (a file beside the board's log, kept across the resets below);
  ``main.py`` in the folder runs as the firmware (``micropython main.py``, with
  the virtual HAL's board model: reset cause, crash file folder, supervised resets); a
  folder without ``main.py`` is a fresh board: its REPL runs;
- the firmware ends with Ctrl-C (exit 130): MicroPython's REPL takes the line, as on the
  board (``micropython -i tests/virtual_board_repl.py`` in the folder: mpremote's raw REPL,
  ``fs`` commands, and ``machine.reset()``);
- ``machine.reset()`` (from the firmware after a crash, or mpremote's ``reset`` at the REPL;
  exit 75) or the modelled watchdog (exit 76): the firmware boots again with reset cause
  2 (hard) or 3 (watchdog); the REPL ended otherwise (EOF, Ctrl-D): a soft reset, the
  firmware boots with cause 5.

What it cannot model: a soft reset inside mpremote's raw REPL (Ctrl-D there ends the unix
REPL instead of rebooting into the raw REPL), so mpremote runs with ``resume`` here
(``tablesense flash --resume``); the firmware's files are compiled for this host's
architecture (native code), not xtensawin.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import threading
import time
import tty
from pathlib import Path

from tablesense.sim.fitl import FIRMWARE_DIR, find_micropython

RESET_EXIT = 75  # firmware/hal_virtual.py RESET_EXIT
WATCHDOG_EXIT = 76
INTERRUPT_EXIT = 130
REPL_BOOT = Path(__file__).resolve().parent / "virtual_board_repl.py"
POWER_ON, HARD, WATCHDOG, SOFT = 1, 2, 3, 5


class VirtualBoard:
    """The board in ``folder`` on a pty: ``port`` opens like /dev/ttyUSB0. ``boots`` lists
    (what ran, reset cause) for every start; ``send_edges`` feeds the virtual pins."""

    def __init__(self, folder: Path, *, realtime: bool = True, power: bool = True) -> None:
        self.folder = folder
        self.realtime = realtime
        master, slave = os.openpty()
        tty.setraw(slave)
        self._master = master
        self._slave = slave  # held open: the pty lives while the host closes and reopens it
        self.port = os.ttyname(slave)
        self.edges = self._new_feed()  # a feed file per boot: the pins' past is no part of a new boot
        self._feeds = [self.edges]
        fd, name = tempfile.mkstemp(prefix="tablesense-board-", suffix=".log")
        os.close(fd)
        self.log = Path(name)
        # RTC memory (firmware/hal_virtual.py): kept across the resets below, empty at power-on
        self.rtc = self.log.with_suffix(".rtc")
        self.boots: list[tuple[str, int]] = []
        self._proc: subprocess.Popen[bytes] | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, daemon=True)
        if power:
            self.power_on()

    def power_on(self) -> None:
        """Plug the board in (``power=False`` leaves that to the test: the host's port can be
        open first and see the boot ROM's text)."""
        self._thread.start()

    # -- the host's side ------------------------------------------------------------
    def send_edges(self, lines: list[dict[str, object]]) -> None:
        import json

        with open(self.edges, "a", encoding="ascii") as f:
            f.write("".join(json.dumps(x) + "\n" for x in lines))

    def stderr_text(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_boots(self, n: int, timeout: float = 20.0) -> list[tuple[str, int]]:
        """The boots once there are n of them (AssertionError after timeout)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if len(self.boots) >= n:
                return list(self.boots)
            time.sleep(0.05)
        raise AssertionError(f"the board booted {len(self.boots)} times, not {n}: {self.boots}\n"
                             + self.stderr_text()[-2000:])

    def close(self) -> None:
        self._stop.set()
        with self._lock:
            proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.kill()
        if self._thread.is_alive():
            self._thread.join(10)
        with self._lock:
            if self._proc is not None and self._proc.poll() is None:
                self._proc.kill()
                self._proc.wait()
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass
        for feed in self._feeds:
            feed.unlink(missing_ok=True)
        self.log.unlink(missing_ok=True)
        self.rtc.unlink(missing_ok=True)

    def __enter__(self) -> VirtualBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the chip --------------------------------------------------------------------
    @staticmethod
    def _new_feed() -> Path:
        fd, name = tempfile.mkstemp(prefix="tablesense-board-edges-", suffix=".jsonl")
        os.close(fd)
        return Path(name)

    def _start(self, what: str, cause: int) -> subprocess.Popen[bytes]:
        if what == "firmware" and self.boots:  # a new boot: the feed starts empty
            self.edges = self._new_feed()
            self._feeds.append(self.edges)
        env = dict(os.environ)
        env.update(
            TABLESENSE_BOARD=str(self.folder / "board.json"),
            TABLESENSE_PROFILES=str(self.folder / "profiles"),
            TABLESENSE_FLASH=str(self.folder),
            TABLESENSE_EDGES=str(self.edges),
            TABLESENSE_RESET_CAUSE=str(cause),
            TABLESENSE_SUPERVISED="1",
            TABLESENSE_RTC=str(self.rtc),
            TABLESENSE_REALTIME="1" if self.realtime else "0",
        )
        argv = [find_micropython(), "main.py"] if what == "firmware" else [
            find_micropython(), "-i", str(REPL_BOOT)]
        with open(self.log, "ab") as err:
            err.write(f"--- boot: {what}, reset cause {cause}\n".encode())
            err.flush()
            proc = subprocess.Popen(argv, stdin=self._master, stdout=self._master,
                                    stderr=err if what == "firmware" else self._master,
                                    cwd=str(self.folder), env=env, start_new_session=True)
        self.boots.append((what, cause))
        return proc

    def _run(self) -> None:
        what = "firmware" if (self.folder / "main.py").exists() else "repl"
        cause = POWER_ON
        while not self._stop.is_set():
            with self._lock:
                if self._stop.is_set():
                    return
                self._proc = proc = self._start(what, cause)
            rc = proc.wait()
            if self._stop.is_set():
                return
            if what == "firmware" and rc == INTERRUPT_EXIT:
                what, cause = "repl", cause  # Ctrl-C: the REPL has the line now
                continue
            if rc == RESET_EXIT:
                cause = HARD
            elif rc == WATCHDOG_EXIT:
                cause = WATCHDOG
            elif what == "repl":
                cause = SOFT  # the REPL ended (EOF, Ctrl-D): a soft reset runs main.py
            else:
                with open(self.log, "ab") as err:  # the firmware ended otherwise: the board is dead
                    err.write(f"--- the firmware ended with {rc}: the board stops\n".encode())
                return
            what = "firmware" if (self.folder / "main.py").exists() else "repl"


def firmware_files(folder: Path, profiles: list[object], default: object, march: str) -> None:
    """Put the firmware, compiled for march, and the profiles' board configs in folder (a
    board flashed before the test)."""
    from tablesense.deploy.build import build

    for a in build(folder, profiles, default, FIRMWARE_DIR, march=march):  # type: ignore[arg-type]
        assert a.local.exists()
