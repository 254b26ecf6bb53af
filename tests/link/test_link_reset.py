"""A board silent past the heartbeat's limit is reset once, as esptool's hard reset does, and
says so; never on open, and not again until it has been heard.

The board is the real firmware under MicroPython's unix port, on a pty. A pty has no modem
lines, so the cable is the stand-in: ``tablesense.sim.cable.Cable`` with an ``AutoReset``
serves the host's end as ``rfc2217://`` (pyserial's RFC 2217 client in the link, its
``PortManager`` at the board's end), which carries DTR and RTS into a model of the DevKitC's
auto-reset circuit: RTS asserted without DTR holds the chip in reset (the firmware process is
stopped), releasing it with IO0 high boots it again (a new process behind the same port), and
releasing it with IO0 low would leave it in the ROM's download mode, silent. A hung board is
a firmware process stopped with SIGSTOP: its loop stands still and nothing comes on the line.
"""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

import pytest
from helpers.link_reader import read_link

from tablesense.link import Link, LinkStatus
from tablesense.link.frame import EventFrame
from tablesense.sim.cable import AutoReset, Cable
from tablesense.sim.fitl import FirmwareProcess, start_firmware

pytestmark = [
    pytest.mark.micropython,
    # pyserial's RFC 2217 client names its reader thread the old way
    pytest.mark.filterwarnings(r"ignore:set(Daemon|Name)\(\) is deprecated:DeprecationWarning"),
]

EDGES = [{"t_us": 300_000 + i * 10_000, "ch": i % 8, "level": (i // 8 + 1) % 2} for i in range(24)]


class Board:
    """The firmware processes of one board, booted and held in reset by the model."""

    def __init__(self, config: Path, comes_back: bool = True) -> None:
        self.config = config
        self.comes_back = comes_back
        self.procs: list[FirmwareProcess] = [start_firmware(config, realtime=True)]

    @property
    def fw(self) -> FirmwareProcess:
        return self.procs[-1]

    def hang(self) -> None:
        os.kill(self.fw.pid, signal.SIGSTOP)  # its main loop stands still

    def hold(self) -> None:  # EN low: the chip stops, whatever it was doing
        with contextlib.suppress(ProcessLookupError):
            self.fw.proc.kill()
        self.fw.stop()

    def boot(self) -> str | None:  # EN high with IO0 high: it boots, and plays the edges
        if not self.comes_back:
            return None
        self.procs.append(start_firmware(self.config, realtime=True))
        self.fw.send_edges(EDGES)
        return self.fw.port

    def stop(self) -> None:
        for p in self.procs:
            with contextlib.suppress(ProcessLookupError):
                p.proc.kill()
            p.stop()


async def watch(link: Link, until, timeout: float):  # type: ignore[no-untyped-def]
    frames, statuses = await read_link(link, lambda f, s: until(s, f), timeout, give_up_quietly=True)
    return statuses, frames


@pytest.fixture
def config(board: Path) -> Path:
    return board  # the firmware's board (tests/link/conftest.py); ``board`` here is a Board


@pytest.mark.parametrize("how", ["hung", "crashed"])
async def test_a_silent_board_is_reset_once_and_comes_back(config: Path, how: str) -> None:
    board = Board(config)
    modem = AutoReset(board.hold, board.boot)
    cable = Cable(board.fw.port, modem)
    link = Link(cable.url, from_seq=0, backoff=(0.05, 0.2))
    stopped = False

    def until(statuses: list[LinkStatus], frames: list[EventFrame]) -> bool:
        nonlocal stopped
        if not stopped and any(s.kind == "hello" for s in statuses):
            stopped = True
            board.hang() if how == "hung" else board.fw.proc.kill()
        return len(frames) == len(EDGES)

    try:
        statuses, frames = await watch(link, until, timeout=25)
    finally:
        cable.close()
        board.stop()
    kinds = [s.kind for s in statuses]
    said = "\n".join(map(str, statuses))
    assert kinds.count("reset") == 1 and link.stats.resets == 1, said
    (reset,) = [s for s in statuses if s.kind == "reset"]
    assert "silent for 3.5 s: reset the board (RTS pulse with DTR low" in reset.text
    assert "restarted" in kinds[kinds.index("reset"):], said  # the new boot's HELLO, believed
    assert [(f.seq, f.channel) for f in frames] == [(i, e["ch"]) for i, e in enumerate(EDGES)], said
    # the circuit: one reset, released with IO0 high (the firmware boots, not the download
    # mode), none while the port was opened
    assert (modem.resets, modem.boots, modem.downloads) == (1, 1, 0), modem.log
    opened = modem.log[: modem.log.index(("dtr=False", False, True))]
    assert opened == [("dtr=True", True, False), ("rts=True", True, True)], modem.log


async def test_a_board_that_stays_silent_is_reset_once_per_silence(config: Path) -> None:
    """It does not come back: one reset, then the port is reopened again and again, and no
    further reset until the board has been heard; heard again and silent again: one more."""
    board = Board(config, comes_back=False)
    modem = AutoReset(board.hold, board.boot)
    cable = Cable(board.fw.port, modem)
    link = Link(cable.url, from_seq=0, backoff=(0.05, 0.2))
    phase = "up"

    def until(statuses: list[LinkStatus], frames: list[EventFrame]) -> bool:
        nonlocal phase
        kinds = [s.kind for s in statuses]
        if phase == "up" and "hello" in kinds:
            phase = "hung"
            board.hang()
        elif phase == "hung" and kinds.count("reconnected") >= 3:  # 3 silences after the reset
            phase = "back"
            board.comes_back = True
            cable.attach(board.boot() or "")  # powered up again by hand
        elif phase == "back" and len(frames) == len(EDGES):
            phase = "hung again"
            board.hang()
        return phase == "hung again" and kinds.count("reset") == 2

    try:
        statuses, _ = await watch(link, until, timeout=50)
    finally:
        cable.close()
        board.stop()
    kinds = [s.kind for s in statuses]
    said = "\n".join(map(str, statuses))
    assert phase == "hung again" and kinds.count("reset") == 2, said
    first, second = (i for i, k in enumerate(kinds) if k == "reset")
    assert kinds[first + 1 : second].count("reconnected") >= 3, said  # silences with no reset
    assert "hello" in kinds[first:second], said  # heard between the two
    assert modem.resets == 2 and modem.downloads == 0, modem.log


async def test_a_port_without_modem_lines_is_reopened_not_reset(config: Path) -> None:
    """``socket://`` carries no DTR or RTS: a silent board there is a port reopened, as before."""
    board = Board(config)
    cable = Cable(board.fw.port)
    link = Link(cable.url, from_seq=0, backoff=(0.05, 0.2))

    def until(statuses: list[LinkStatus], frames: list[EventFrame]) -> bool:
        if [s.kind for s in statuses] == ["connected", "hello"]:
            board.hang()
        return any(s.kind == "reconnected" for s in statuses)

    try:
        statuses, _ = await watch(link, until, timeout=15)
    finally:
        cable.close()
        board.stop()
    kinds = [s.kind for s in statuses]
    assert "reset" not in kinds and kinds[2:4] == ["disconnected", "reconnected"], kinds
    assert "silent for 3.5 s" in statuses[2].text and link.stats.resets == 0
