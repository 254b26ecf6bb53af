"""A host restarted from the checkpoint taken at a reboot, whose board (firmware 0.3: no boot
tag) booted again at once while it was down: heard 0.4 s into its boot, at the seq the
reboot's boot had got, begun 0.2 s after that boot, it reads as that boot going on by its
seq, its uptime (past the log's) and the host's clock. Only the frames it replays tell: the
log's pin after the checkpoint was made from one of them, so a boot going on has one stamped
at or after it; this board's only one is stamped before. Said lost, its edge after the log's
latest time, never behind it.

Before, the replayed edge was taken for the old boot's and logged behind the log's time
(test_link_reboot_mid_shot.py under load, its ``short`` case: t=7.5236 after t=7.6806;
docs/reliability.md, "Table time going back after a board rebooted while the host was down").
The same board going on (its frames reach the pin logged) is read as it was: nothing lost.
"""

from __future__ import annotations

import asyncio
import json

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from test_link_reboot_while_down import PIN, PROFILE, _resume

from tablesense.link import Checkpoint
from tablesense.link.hostclock import machine_boot, raw_now

AT = 7_000_000  # table time at the reboot the host saw (the checkpoint's offset)


def _pin_line(t_us: int) -> str:
    pin = next(c.index for c in PROFILE.channels if c.ch == PIN)
    return json.dumps({"t": round(t_us / 1e6, 6), "type": "pin", "pin": pin, "state": "down"})


def _reboots_checkpoint(logged_up: int, began_s: float) -> Checkpoint:
    """The checkpoint taken at a reboot (seq 0, the new boot's clock from 0 at table time AT, no
    tag), the log holding that boot's pin at ``logged_up`` into it; the boot began ``began_s`` ago
    by the host's raw clock."""
    now = raw_now()
    cp = Checkpoint(0, 0, AT, AT, boot_s=now - began_s, at_s=now - began_s, machine=machine_boot())
    return cp.after_lines([_pin_line(AT + logged_up)])


def test_an_untagged_board_booted_again_within_a_second_is_told_by_its_replayed_frames() -> None:
    cp = _reboots_checkpoint(275_000, 0.6)  # the pin logged 0.275 s into the reboot's boot
    events, statuses = asyncio.run(_resume(cp, 400_000, 1))  # up 0.4 s, its seq 0 at 0.1 s
    said = "\n".join(map(str, statuses))
    lost = [s for s in statuses if s.kind == "lost"]
    assert len(lost) == 1 and "restarted while the host was down" in lost[0].text, said
    pins = [e for e in events if e.type == "pin"]
    assert len(pins) == 1, f"{events}\n{said}"
    assert pins[0].t * 1e6 > cp.logged_us, f"{events}: the log is at {cp.logged_us / 1e6}\n{said}"


def test_an_untagged_board_going_on_after_a_resume_is_read_as_going_on() -> None:
    # the boot of the checkpoint, up 0.6 s: its edges at 0.25 s and 0.3 s, the log holds the second
    cp = _reboots_checkpoint(300_000, 0.6)
    events, statuses = asyncio.run(_resume(cp, 600_000, 2, lost=False))
    said = "\n".join(map(str, statuses))
    assert not any(s.kind in ("lost", "restarted") for s in statuses), said
    pins = [e for e in events if e.type == "pin"]
    assert [round(p.t * 1e6) for p in pins] == [AT + 250_000, AT + 300_000], f"{events}\n{said}"


# (no shrinking: each example is a pty run, and a failing one is shown as drawn)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=(Phase.explicit, Phase.reuse, Phase.generate))
@given(
    logged_ms=st.integers(5, 900),  # the log's latest pin, this far into the reboot's boot
    new_up_ms=st.integers(400, 1150),  # the boot heard, up this long: its edges end 0.3 s before
    written=st.integers(1, 6),
    going_on=st.booleans(),  # or the reboot's boot itself, its edges reaching the pin logged
)
def test_an_untagged_board_after_a_resume_is_a_new_boot_exactly_when_its_replayed_frames_say_so(
        logged_ms: int, new_up_ms: int, written: int, going_on: bool) -> None:
    """A board heard past the log's uptime (no uptime claim), begun within a second of the
    reboot's boot (none by the host's clock): a new boot when none of its frames up to its
    HELLO's seq is stamped at or after the pin logged, the boot going on when one is."""
    new_up = new_up_ms * 1000
    last = new_up - 300_000  # the board's last edge (Board of test_link_reboot_while_down.py)
    if going_on:
        logged_up = last  # its last edge is the pin logged
        began = new_up_ms / 1000
    else:
        logged_up = max(logged_ms * 1000, last + 1000)  # every edge 1 ms or more before it
        new_up = max(new_up, logged_up + 10_000)  # its uptime past it: no claim by the uptime
        began = new_up / 1e6 + 0.2
    cp = _reboots_checkpoint(logged_up, began)
    events, statuses = asyncio.run(_resume(cp, new_up, written, lost=not going_on))
    said = "\n".join(map(str, statuses))
    lost = [s for s in statuses if s.kind == "lost"]
    pins = [e for e in events if e.type == "pin"]
    assert len(pins) == written, f"{events}\n{said}"
    if going_on:
        assert not lost and not any(s.kind == "restarted" for s in statuses), said
        assert round(pins[-1].t * 1e6) == cp.logged_us, f"{events}\n{said}"
    else:
        assert len(lost) == 1 and "restarted while the host was down" in lost[0].text, said
        times = [e.t for e in events]
        assert times == sorted(times), f"table time goes back: {times}\n{said}"
        assert all(t * 1e6 > cp.logged_us for t in times), (
            f"{times}: the log is at {cp.logged_us / 1e6}\n{said}")
