"""The checkpoint a host takes at a reboot it sees keeps the new boot's tag (firmware 0.4), so a
host restarted from it tells a board that booted again while it was down by the tag, also
where the seq, the uptime and the host's clock all read as that boot going on.

Before, that checkpoint was taken before the new boot's status frame was passed on and kept
no tag: a board rebooted at once after the host was killed, heard 0.2 s into its boot at the
seq the reboot's boot had got, had its first frame taken for that boot's, logged behind the
log's latest time (test_link_reboot_mid_shot.py under load: t=7.5236 after t=7.6806;
docs/reliability.md, "Table time going back after a board rebooted while the host was down").
"""

from __future__ import annotations

import asyncio

from helpers.link_reader import wind_down
from helpers.pty_device import Pty
from test_link_reboot_while_down import PROFILE, Board, _resume

from tablesense.link import Checkpoint, LinkStatus, table_items
from tablesense.link.hostclock import machine_boot, raw_now

OLD, NEW, LATER = 0x1234ABCD, 0x0BADCAFE, 0x600DF00D


async def _seen_reboot() -> list[Checkpoint | LinkStatus]:
    """A tagged board (OLD) read by a host, then rebooted (NEW): the host's checkpoints and statuses."""
    pty = Pty()
    device = asyncio.create_task(Board(pty, 2_000_000, 0, OLD).run())
    seen: list[Checkpoint | LinkStatus] = []
    items = table_items(pty.port, PROFILE, on_status=seen.append, reconnect=False)

    async def read() -> None:
        async for item in items:
            if isinstance(item, Checkpoint):
                seen.append(item)

    def restarted() -> int:
        return next((i for i, x in enumerate(seen)
                     if isinstance(x, LinkStatus) and x.kind == "restarted"), -1)

    reader = asyncio.create_task(read())
    try:
        for _ in range(100):
            if any(isinstance(x, Checkpoint) for x in seen):
                break
            await asyncio.sleep(0.05)
        device.cancel()
        device = asyncio.create_task(Board(pty, 50_000, 0, NEW).run())
        for _ in range(100):
            if 0 <= restarted() < max(i for i, x in enumerate(seen) if isinstance(x, Checkpoint)):
                break
            await asyncio.sleep(0.05)
    finally:
        await wind_down(reader, items, device, pty)
    return seen


def test_the_checkpoint_taken_at_a_reboot_keeps_the_new_boots_tag() -> None:
    seen = asyncio.run(_seen_reboot())
    said = "\n".join(map(str, seen))
    at = [i for i, x in enumerate(seen) if isinstance(x, LinkStatus) and x.kind == "restarted"]
    assert at, said
    after = [x for x in seen[at[0]:] if isinstance(x, Checkpoint)]
    assert after and after[0].seq == 0 and after[0].boot_tag == NEW, said
    assert f'"boot_tag":{NEW}' in after[0].to_json()


def test_a_host_resumed_from_a_reboots_checkpoint_tells_a_boot_begun_within_a_second_by_its_tag() -> None:
    """The reboot's checkpoint (seq 0, uptime 0, offset 7 s, the new boot's tag), that boot's edge
    logged 0.275 s into it; the board booted again at once and is heard 0.4 s up, one edge
    written at 0.1 s: past the log's uptime, at its seq, begun 0.2 s after: read as that boot
    going on but for the tag. Its tag tells: said lost, its edge after the log's time."""
    o, now = 7_000_000, raw_now()
    cp = Checkpoint(0, 0, o, o, logged_us=o + 275_000, logged_activity_us=o + 275_000,
                    activity_us=o - 1_000_000, boot_s=now - 0.6, at_s=now - 0.6,
                    machine=machine_boot(), boot_tag=NEW)
    events, statuses = asyncio.run(_resume(cp, 400_000, 1, LATER))
    said = "\n".join(map(str, statuses))
    lost = [s for s in statuses if s.kind == "lost"]
    assert len(lost) == 1 and "restarted while the host was down" in lost[0].text, said
    pins = [e for e in events if e.type == "pin"]
    assert len(pins) == 1, f"{events}\n{said}"
    assert pins[0].t * 1e6 > cp.logged_us, f"{events}: the log is at {cp.logged_us / 1e6}\n{said}"
