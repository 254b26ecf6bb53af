"""MicroPython's unix port with its REPL on a pty: what mpremote talks to in the tests
(flash's plan, the version probe) where a board would be on /dev/ttyUSB0."""

from __future__ import annotations

import os
import subprocess
import tty
from pathlib import Path

from tablesense.sim.fitl import find_micropython


class UnixRepl:
    """The REPL run in ``folder`` (its "filesystem"); ``port`` is the pty to open."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        master, slave = os.openpty()
        tty.setraw(slave)
        self.proc = subprocess.Popen([find_micropython()], stdin=master, stdout=master, stderr=master,
                                     cwd=str(folder), start_new_session=True)
        os.close(master)
        self._slave = slave
        self.port = os.ttyname(slave)

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()
        os.close(self._slave)
