"""A host resumed from a checkpoint taken at a reboot (seq 0 of a boot) reads that boot going
on; later the board reboots again and again in quick succession, one boot of it writing no
frame: its table times never go back, and nothing is said lost "while the host was down".

Before, the second reboot in a row found the next seq wanted at 0 again, the same as the
resumed checkpoint's (0: taken at a reboot): the host took it for the first reboot since it
resumed, said the board had restarted while the host was down, and gave the shot the log
held before the host was killed (``Checkpoint.logged_activity_us``) its ``rest`` again, at
that old table time, behind the new boots' events (the season soak, seed 3838: kroeg-2, a
``rest`` at t=76.87 logged after t=149.76, the board rebooting five times within 4 s).

The frames are the board's (firmware 0.4, with its boot tags), read by the real ``Link`` and
its gate on a host clock the test sets (``Link._handle_bytes``), as in test_link_boot_tag.py;
``table_items`` resumes from the checkpoint over it.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator, Iterable

from test_link_boot_tag import _beat, _edge, _hello
from test_link_reboot_while_down import NONE, PROFILE

from tablesense.events import Event
from tablesense.link import Checkpoint, Link, LinkStatus, table_items
from tablesense.link.frame import Frame, encode_frame

QUICK = dataclasses.replace(PROFILE, rest_quiet_ms=300)
BOOT1, BOOT2, BOOT3 = 0x11110001, 0x22220002, 0x33330003


class ScriptedLink(Link):
    """A ``Link`` whose reads are the test's: each (frames, host time read) in turn, looked at
    by the real gate and sequencer; the commands it sends are kept (``sent``)."""

    def __init__(self, reads: Iterable[tuple[list[Frame], float]]) -> None:
        super().__init__("loop://", reconnect=False)
        self.reads = list(reads)
        self.sent: list[str] = []

    async def send(self, line: str) -> None:
        self.sent.append(line)

    async def items(self) -> AsyncIterator[Frame | LinkStatus]:
        for frames, at in self.reads:
            for out in self._handle_bytes(b"".join(map(encode_frame, frames)), at, at):
                if isinstance(out, str):
                    self.sent.append(out)
                else:
                    yield out


async def _collect(link: ScriptedLink, cp: Checkpoint) -> tuple[list[Event], list[LinkStatus]]:
    """The events the resumed host makes, and every status: the link's (``on_status``) and
    those the host says itself (the losses, each as often as said)."""
    events: list[Event] = []
    statuses: list[LinkStatus] = []
    async for item in table_items("loop://", QUICK, resume=cp, link=link,
                                  on_status=lambda s: statuses.append(s) if s.kind != "lost" else None):
        if isinstance(item, Event):
            events.append(item)
        elif isinstance(item, LinkStatus):
            statuses.append(item)
    return events, statuses


def test_quick_reboots_after_a_resume_from_a_reboots_checkpoint_keep_table_time_in_order() -> None:
    # the checkpoint a killed host took at a reboot mid-shot (seq 0 of boot 1, table time 5 s
    # reached), the shot's pin edges at 5.2 and 5.3 s logged after it, no rest yet
    cp = Checkpoint(0, 0, 5_000_000, 5_000_000)
    logged = ['{"t": 5.2, "type": "pin", "pin": 1, "state": "down"}',
              '{"t": 5.3, "type": "pin", "pin": 1, "state": "up"}']
    cp = Checkpoint.from_json(cp.to_json()).after_lines(logged)
    assert cp.seq == 0 and cp.logged_activity_us == 5_300_000
    reads: list[tuple[list[Frame], float]] = [
        # boot 1 goes on: its HELLO (six edges written), the replay asked for, a heartbeat
        ([_hello(1.0, 5, BOOT1)], 10.0),
        ([_edge(s, 0.2 + 0.1 * s) for s in range(6)], 10.05),
        ([_beat(1.5, 5, BOOT1)], 10.5),
        ([_beat(2.5, 5, BOOT1)], 11.5),
        # boot 2: a new tag, confirmed by the HELLO asked for; it writes no frame and ...
        ([_hello(0.1, NONE, BOOT2)], 12.0),
        ([_hello(0.15, NONE, BOOT2)], 12.05),
        # ... boot 3 follows at once, confirmed the same way, then goes on quietly
        ([_hello(0.05, NONE, BOOT3)], 12.3),
        ([_hello(0.1, NONE, BOOT3)], 12.35),
        ([_beat(0.5, NONE, BOOT3)], 12.75),
        ([_beat(1.5, NONE, BOOT3)], 13.75),
    ]
    link = ScriptedLink(reads)
    events, statuses = asyncio.run(_collect(link, cp))
    said = "\n".join(map(str, statuses)) + "\n" + "\n".join(map(str, events))
    assert link.seq.stats.restarts == 2, said
    times = [e.t for e in events]
    assert times == sorted(times), f"table time goes back: {times}\n{said}"
    assert not [s for s in statuses if "while the host was down" in s.text], said
    # boot 1's shot (its six edges, replayed) has one rest, after its last edge; none other
    assert [e.t for e in events if e.type == "rest"] == [6.0], said


def test_a_reboot_while_the_host_was_down_then_a_quick_one_is_said_lost_once_and_rests_once() -> None:
    """The board rebooted while the host was down (the checkpoint's boot tag is not its own),
    then at once again, the boot between writing no frame: the old boot's frames are said lost
    once, and the shot the log held with no rest gets its rest once, at the quiet time after
    its last edge."""
    cp = Checkpoint(0, 0, 5_000_000, 5_000_000, boot_tag=BOOT1)
    logged = ['{"t": 5.2, "type": "pin", "pin": 1, "state": "down"}']
    cp = Checkpoint.from_json(cp.to_json()).after_lines(logged)
    reads: list[tuple[list[Frame], float]] = [
        ([_hello(0.4, NONE, BOOT2)], 10.0),
        ([_hello(0.45, NONE, BOOT2)], 10.05),
        ([_hello(0.05, NONE, BOOT3)], 10.3),
        ([_hello(0.1, NONE, BOOT3)], 10.35),
        ([_beat(0.5, NONE, BOOT3)], 10.75),
        ([_beat(1.5, NONE, BOOT3)], 11.75),
    ]
    link = ScriptedLink(reads)
    events, statuses = asyncio.run(_collect(link, cp))
    said = "\n".join(map(str, statuses)) + "\n" + "\n".join(map(str, events))
    assert link.seq.stats.restarts == 2, said
    assert len([s for s in statuses if "while the host was down" in s.text]) == 1, said
    assert [(e.type, e.t) for e in events] == [("rest", 5.5)], said
