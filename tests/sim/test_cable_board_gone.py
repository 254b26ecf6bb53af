"""The link tests' stand-in cable waits, not spins, while the board's end is gone (a reboot, a
reset, a flash): on Linux the pty then reads empty and stays readable, and a cable that took
that for data to forward read it ~259,000 times a second, a whole core of the suite's CPU
(docs/performance.md, "The suite's time")."""

from __future__ import annotations

import os
import time

from tablesense.sim.cable import Cable


class _CountingCable(Cable):
    def __init__(self, pty_path: str) -> None:
        self.reads = 0
        super().__init__(pty_path)

    def _board_to_host(self, fd: int, conn: object) -> None:
        self.reads += 1
        super()._board_to_host(fd, conn)  # type: ignore[arg-type]


def test_a_cable_whose_board_is_gone_waits_instead_of_reading_in_a_loop() -> None:
    master, slave = os.openpty()
    cable = _CountingCable(os.ttyname(slave))
    try:
        os.write(master, b"\x00")  # one byte of the board's, then the board's process is gone
        os.close(master)
        time.sleep(0.5)
    finally:
        cable.close()
        os.close(slave)
    assert 1 <= cable.reads <= 60  # (one wait of 20 ms a read: 25 in 0.5 s; a spin made thousands)
