"""The soak's board stops reading a port whose firmware end has closed: on Linux the pty then
reads empty and stays readable, and a reader left on it spun the event loop of the whole
season (half a million empty reads in one run of tests/league/test_season_soak.py)."""

from __future__ import annotations

import asyncio
import os
import random
import termios
import tty
from pathlib import Path

from soak.board import Board


async def _reads_after_hang_up(tmp_path: Path) -> int:
    board = Board("carom", tmp_path / "board.json", tmp_path, random.Random(0))
    master, slave = os.openpty()
    tty.setraw(slave, termios.TCSANOW)
    board.fd = os.open(os.ttyname(slave), os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    reads = 0

    def on_board() -> None:
        nonlocal reads
        reads += 1
        board._on_board()

    asyncio.get_running_loop().add_reader(board.fd, on_board)
    os.close(master)  # the firmware's process is gone
    try:
        await asyncio.sleep(0.3)
    finally:
        asyncio.get_running_loop().remove_reader(board.fd)
        os.close(board.fd)
        os.close(slave)
    return reads


def test_a_port_whose_firmware_is_gone_is_read_once_not_in_a_loop(tmp_path: Path) -> None:
    assert asyncio.run(_reads_after_hang_up(tmp_path)) == 1
