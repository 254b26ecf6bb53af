"""A host restarted from the checkpoint taken at a reboot, whose board booted again at once
while it was down: heard 0.4 s into its boot, at the seq the reboot's boot had got, begun
0.2 s after that boot, it reads as that boot going on by its seq, its uptime (past the
log's) and the host's clock. A boot tag in the checkpoint (firmware 0.4) tells it: said
lost, its edge after the log's latest time.

The load runs' failure of test_link_reboot_mid_shot.py was this case on firmware 0.3 (no
tag): test_link_resume_untagged_within_a_second.py holds that one, told by the frames the
board replays (docs/reliability.md, "Table time going back after a board rebooted while
the host was down").
"""

from __future__ import annotations

import asyncio

from test_link_reboot_while_down import _resume

from tablesense.link import Checkpoint
from tablesense.link.hostclock import machine_boot, raw_now

REBOOTS, AGAIN = 0x0BADCAFE, 0x600DF00D  # the tags of the boot the host saw begin, and of the next


def test_a_host_resumed_from_a_reboots_checkpoint_tells_a_boot_begun_within_a_second_by_its_tag() -> None:
    o, now = 7_000_000, raw_now()
    # the reboot's checkpoint: seq 0, the new boot's clock from 0 at table time 7 s; its edge
    # logged 0.275 s into it; that boot began 0.6 s ago by the host's raw clock
    cp = Checkpoint(0, 0, o, o, logged_us=o + 275_000, logged_activity_us=o + 275_000,
                    boot_s=now - 0.6, at_s=now - 0.6, machine=machine_boot(), boot_tag=REBOOTS)
    events, statuses = asyncio.run(_resume(cp, 400_000, 1, AGAIN))  # up 0.4 s, seq 0 at 0.1 s
    said = "\n".join(map(str, statuses))
    lost = [s for s in statuses if s.kind == "lost"]
    assert len(lost) == 1 and "restarted while the host was down" in lost[0].text, said
    pins = [e for e in events if e.type == "pin"]
    assert len(pins) == 1, f"{events}\n{said}"
    assert pins[0].t * 1e6 > cp.logged_us, f"{events}: the log is at {cp.logged_us / 1e6}\n{said}"
