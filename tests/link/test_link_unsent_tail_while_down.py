"""A host killed and back on its checkpoint finds the board rebooted while it was down: firmware
0.5's new boot says in its HELLO the old boot's tag and last seq assigned (``prev_tag``,
``prev_seq``, kept in RTC memory across the reset). When ``prev_tag`` is the checkpoint's boot,
the host says exactly what that boot stamped past the checkpoint lost (from the checkpoint's
seq to ``prev_seq``), and nothing when it stamped no more. Before, it said the open range
"from seq N of its previous boot on" whatever the board had stamped: a tail the board never
had. A HELLO that names another boot (one between, unheard) or none (a power-on, older
firmware) leaves the open range.

The reboot may be shown before the new boot's HELLO (its heartbeats tell it first, the HELLO
asked for comes late): the line waits for the HELLO. The board is forged on a pty, as in
test_link_reboot_while_down.py, whose ``Board`` this one extends with the firmware's 0.5 HELLO.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from helpers.link_reader import wind_down
from helpers.pty_device import Pty
from test_link_boot_tag import NEW, OLD
from test_link_reboot_while_down import PROFILE, Board
from test_link_unsent_tail import BETWEEN

from tablesense.events import Event
from tablesense.link import Checkpoint, LinkStatus, table_items
from tablesense.link.frame import HelloFrame, encode_frame

CP_SEQ = 10  # the checkpoint's next seq wanted: the old boot's frames 0-9 are in the log
CP_UP = 30_000_000  # the old boot's uptime at the checkpoint (the new boot's is 0.4 s)


class RebootedBoard(Board):
    """The new boot (tag ``NEW``), firmware 0.5: its HELLO says the boot before's tag and last seq
    (``prev``; None: none kept, a power-on). ``mute_s``: it answers no ``!hello`` for that long
    after the host connects (its heartbeats show the reboot first)."""

    def __init__(self, pty: Pty, written: int, prev: tuple[int, int] | None, mute_s: float = 0.0) -> None:
        super().__init__(pty, 400_000, written, NEW)
        self.prev, self.mute_until = prev, time.monotonic() + mute_s

    def hello(self) -> bytes:
        if time.monotonic() < self.mute_until:
            return b""
        f = HelloFrame(self.last(), self.uptime(), len(PROFILE.channels), 0, 0, 0, 0, "0.5.0", PROFILE.id,
                       "", "unix", 3, "", self.tag, *(self.prev or (None, None)))
        return encode_frame(f)


async def _resume(written: int, prev: tuple[int, int] | None, mute_s: float = 0.0,
                  seconds: float = 4.0) -> tuple[list[Event], list[LinkStatus]]:
    """The host resumed from the old boot's checkpoint at ``CP_SEQ`` on the new boot's port: the
    events and every status it said, read until the new boot's edges are in and ``seconds`` have
    passed since the host connected (time enough for a HELLO asked for again, and a line held)."""
    pty = Pty()
    board = RebootedBoard(pty, written, prev, mute_s)
    device = asyncio.create_task(board.run())
    cp = Checkpoint(CP_SEQ, CP_UP, 0, CP_UP, boot_tag=OLD)
    events: list[Event] = []
    statuses: list[LinkStatus] = []
    items = table_items(pty.port, PROFILE, resume=cp, on_status=statuses.append, reconnect=False)

    async def read() -> None:
        async for item in items:
            if isinstance(item, LinkStatus):
                statuses.append(item)
            elif isinstance(item, Event):
                events.append(item)

    reader = asyncio.create_task(read())
    try:
        await asyncio.sleep(seconds)
    finally:
        await wind_down(reader, items, device, pty)
    return events, statuses


def _said(statuses: list[LinkStatus]) -> str:
    return "\n".join(map(str, statuses))


def _lost(statuses: list[LinkStatus]) -> list[str]:
    return [s.text for s in statuses if s.kind == "lost"]


@pytest.mark.parametrize("mute_s", [0.0, 1.2], ids=["hello_first", "heartbeats_first"])
def test_a_reboot_while_the_host_was_down_says_exactly_what_the_old_boot_stamped_past_the_checkpoint(
        mute_s: float) -> None:
    """The old boot stamped seqs 10-14 after the checkpoint and rebooted: the host says those five
    lost, by the new boot's word, once; and reads the new boot's three edges. With the HELLO late
    (heartbeats_first: the reboot is shown by the heartbeats), the line waits for it."""
    events, statuses = asyncio.run(_resume(3, (OLD, 14), mute_s))
    said = _said(statuses)
    assert any(s.kind == "restarted" for s in statuses), said
    lost = _lost(statuses)
    assert lost == ["the board restarted while the host was down: what it sent from seq 10 of its previous "
                    "boot on is lost (5 frames, to seq 14, by its next boot's word)"], said
    assert sum(e.type == "pin" for e in events) == 3, f"{events}\n{said}"


@pytest.mark.parametrize("mute_s", [0.0, 1.2], ids=["hello_first", "heartbeats_first"])
def test_a_reboot_while_the_host_was_down_with_nothing_stamped_past_the_checkpoint_says_nothing_lost(
        mute_s: float) -> None:
    """The old boot's last seq was 9, the checkpoint's last delivered: nothing of it is lost, and
    nothing is said lost (before: "what it sent from seq 10 of its previous boot on is lost")."""
    events, statuses = asyncio.run(_resume(2, (OLD, 9), mute_s))
    said = _said(statuses)
    assert any(s.kind == "restarted" for s in statuses), said
    assert _lost(statuses) == [], said
    assert sum(e.type == "pin" for e in events) == 2, f"{events}\n{said}"


@pytest.mark.parametrize("prev", [None, (BETWEEN, 3)], ids=["power_on", "a_boot_between"])
def test_a_reboot_while_the_host_was_down_without_the_checkpoints_boot_in_the_hello_says_the_open_range(
        prev: tuple[int, int] | None) -> None:
    """A power-on keeps no record, and a record of a boot between the checkpoint's and this one
    says nothing of the checkpoint's boot: all from seq 10 on is said lost, as before."""
    _, statuses = asyncio.run(_resume(1, prev, seconds=2.0))
    assert _lost(statuses) == ["the board restarted while the host was down: what it sent from seq 10 of its "
                               "previous boot on is lost"], _said(statuses)
