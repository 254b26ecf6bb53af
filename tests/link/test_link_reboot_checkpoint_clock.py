"""A checkpoint taken at a reboot keeps the table's time where the log had got, so that a
host resumed from it and meeting yet another boot goes on after the log, not before it.

The season soak, seed 9377 (zaal-2): a host resumed from a quiet point at t=16.0 s while
the log held a shot logged after it, up to t=17.79 s, and found the board rebooted while
it was down. It rightly went on from 17.79 s and took a checkpoint at the reboot, but the
checkpoint kept the translator's device time of the quiet point (16.0 s) beside the
reboot's offset (17.79 s). The host was killed, the board rebooted again, and the next
host, resuming from that checkpoint, knew the later boot by when it began; its table
times went on from the checkpoint's device time, 16.0 s: two cushion hits logged at
t=16.20 after the log's 17.79 (row 39 after row 27), with nothing logged after the
checkpoint to hold them up.

The board is forged on a pty (``Board`` of test_link_reboot_while_down.py).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from helpers.link_reader import wind_down
from helpers.pty_device import Pty
from test_link_reboot_while_down import PROFILE, Board

from tablesense.events import Event
from tablesense.link import Checkpoint, LinkStatus, table_items
from tablesense.link.hostclock import machine_boot, raw_now

QUIET_AT_US = 16_015_020  # the quiet point the first host resumed from
LOGGED_US = 17_794_369  # the log's latest time: a shot logged after that quiet point


async def _host(cp: Checkpoint, up_us: int, written: int, until_checkpoint: bool
                ) -> tuple[list[Event], list[LinkStatus], list[Checkpoint]]:
    """A host resumed from ``cp`` meets a board up ``up_us`` that has written ``written``
    pin edges: what it logs, says and checkpoints (until its first checkpoint, or until every
    edge is in and a loss said)."""
    pty = Pty()
    board = Board(pty, up_us, written)
    device = asyncio.create_task(board.run())
    events: list[Event] = []
    statuses: list[LinkStatus] = []
    cps: list[Checkpoint] = []
    items = table_items(pty.port, PROFILE, resume=cp, reconnect=False)

    async def read() -> None:
        async for item in items:
            if isinstance(item, LinkStatus):
                statuses.append(item)
            elif isinstance(item, Checkpoint):
                cps.append(item)
            else:
                events.append(item)

    async def done() -> None:
        while not (cps if until_checkpoint else sum(e.type == "pin" for e in events) >= written
                   and any(s.kind == "lost" for s in statuses)):
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)

    reader = asyncio.create_task(read())
    try:
        await asyncio.wait_for(done(), 4.0)
    except TimeoutError:
        pass
    finally:
        await wind_down(reader, items, device, pty)
    return events, statuses, cps


def test_a_host_resumed_from_a_reboots_checkpoint_goes_on_after_the_log_when_the_board_reboots_anew() -> None:
    # the first host resumed: its checkpoint at a quiet point, a shot logged after it; the
    # board was rebooted meanwhile (up 0.7 s, below the device time the log shows)
    at = raw_now()
    quiet = Checkpoint(91, QUIET_AT_US, 0, QUIET_AT_US, logged_us=LOGGED_US, boot_s=at - 30.0, at_s=at - 14.0,
                       machine=machine_boot())
    _, said, cps = asyncio.run(_host(quiet, 700_000, 0, until_checkpoint=True))
    text = "\n".join(map(str, said))
    assert any(s.kind == "lost" and "restarted while the host was down" in s.text for s in said), text
    assert cps, f"no checkpoint at the reboot:\n{text}"
    assert cps[0].now_us >= LOGGED_US, f"the reboot's checkpoint is behind the log: {cps[0]}"
    # killed; nothing logged after the reboot's checkpoint. The board rebooted again 8.8 s
    # after that boot began: the next host meets a boot up 1.2 s, its edges 0.8-0.9 s into it
    # (the reboot's checkpoint taken 10 s before the host is back)
    at_reboot = replace(cps[0], logged_us=0, boot_s=(cps[0].boot_s or 0.0) - 10.0, at_s=cps[0].at_s - 10.0)
    events, said, _ = asyncio.run(_host(at_reboot, 1_200_000, 3, until_checkpoint=False))
    text = "\n".join(map(str, said))
    assert any(s.kind == "lost" and "restarted while the host was down" in s.text for s in said), text
    pins = [e for e in events if e.type == "pin"]
    assert len(pins) == 3, f"{events}\n{text}"
    assert all(e.t * 1e6 > LOGGED_US for e in events), \
        f"table time goes back behind the log's {LOGGED_US / 1e6} s: {[e.t for e in events]}\n{text}"
