"""A board that reboots while a shot rolls, the shot's ``rest`` logged after the reboot, then
the host killed and the board rebooted again while it was down: the restarted host logs
no second ``rest`` for that shot.

The reboot the host saw was a checkpoint keeping the shot's last activity, its ``rest``
to come (``Checkpoint.activity_us``); the rest came and was logged after it, and the host
was killed before the next quiet point. The restarted host resumed from that checkpoint,
and the board, rebooted meanwhile, no longer held the frames after it: the pub drops its
dedupe then (none of the old boot's frames comes again, pub.py), but the translator,
restored with the checkpoint's activity, made the rest again, at the same time, and it was
logged twice (the season soak, seed 9455: kroeg-1, rows 17 and 18, t=12.025459). The
log's lines after the checkpoint tell the restarted host whether the shot had its rest.

The board is forged on a pty (``LiveBoard`` of test_link_reboot_mid_shot.py); the host
here skips the lines already logged as ``Pub.feed`` does, up to a board that rebooted
while the host was down.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time

from helpers.pty_device import Pty
from test_link_reboot_mid_shot import LiveBoard, _host, _until
from test_link_reboot_while_down import PROFILE as KEGLE

from tablesense.events import Event
from tablesense.link import Checkpoint, LinkStatus, table_items
from tablesense.link.checkpoint import Dedupe
from tablesense.link.hostclock import LATER_BOOT_S
from tablesense.pub import _line

PROFILE = dataclasses.replace(KEGLE, rest_quiet_ms=600)
QUIET_S = PROFILE.rest_quiet_ms / 1000


def test_a_shots_rest_logged_before_the_host_was_killed_is_not_logged_again_after_a_reboot_while_down(
        ) -> None:
    log, statuses = asyncio.run(_rest_then_killed_then_rebooted())
    said = "\n".join(map(str, statuses))
    events = [e for e in log if isinstance(e, Event)]
    rests = [e for e in events if e.type == "rest"]
    assert len(rests) == 1, f"the shot's rest, once: {events}\n{said}"
    times = [e.t for e in events]
    assert times == sorted(times), f"table time goes back: {times}\n{said}"
    assert any(s.kind == "lost" and "while the host was down" in s.text for s in statuses), said


async def _rest_then_killed_then_rebooted() -> tuple[list[Event | Checkpoint], list[LinkStatus]]:
    """The board writes a pin edge and reboots 0.1 s later (the shot rolling); the host logs the
    reboot's checkpoint and then the shot's rest; it is killed; the board reboots again
    ``LATER_BOOT_S`` + 0.5 s after its last boot began (told by the host's clock), and the
    next host resumes from the log's last checkpoint and reads it until well past a rest's
    quiet time. Returns the log (events, checkpoints) and what was said."""
    pty = Pty()
    statuses: list[LinkStatus] = []
    log: list[Event | Checkpoint] = []
    board = LiveBoard(pty, 3_000_000, 0)
    device = asyncio.create_task(board.run())

    def rests() -> int:
        return sum(isinstance(e, Event) and e.type == "rest" for e in log)

    async def reboot() -> LiveBoard:
        nonlocal board, device
        device.cancel()
        board = LiveBoard(pty, 50_000, 0)
        device = asyncio.create_task(board.run())
        return board

    try:
        first = table_items(pty.port, PROFILE, on_status=statuses.append, reconnect=False)
        host = asyncio.create_task(_host(first, statuses, log))
        await _until(lambda: any(s.kind == "hello" for s in statuses), 5.0)
        board.edge()
        await asyncio.sleep(0.1)
        await reboot()
        await _until(lambda: rests() == 1, QUIET_S + 6.0)
        cps = [i for i, x in enumerate(log) if isinstance(x, Checkpoint)]
        assert rests() == 1 and cps and cps[-1] < max(i for i, x in enumerate(log) if isinstance(x, Event)), (
            f"the shot's rest logged after the reboot's checkpoint: {log}\n" + "\n".join(map(str, statuses)))
        host.cancel()  # killed before the next quiet point's checkpoint
        with contextlib.suppress(asyncio.CancelledError):
            await host
        cp = log[cps[-1]]
        assert isinstance(cp, Checkpoint) and cp.activity_us >= 0, f"not the reboot's checkpoint: {log}"
        await asyncio.sleep(max(0.0, board.boot + LATER_BOOT_S + 0.5 - time.monotonic()))
        await reboot()  # while the host is down
        await asyncio.sleep(0.3)
        after = [_line(e) for e in log[cps[-1] + 1:] if isinstance(e, Event)]
        second = table_items(pty.port, PROFILE, resume=cp.after_lines(after), on_status=statuses.append,
                             reconnect=False)
        host = asyncio.create_task(_host(second, statuses, log, Dedupe(after)))
        await _until(lambda: any("while the host was down" in s.text for s in statuses), 5.0)
        await asyncio.sleep(QUIET_S + 1.0)  # a rest made again comes within the quiet time
        host.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await host
    finally:
        device.cancel()
        pty.close()
    return log, statuses


def test_a_shot_logged_without_its_rest_before_the_host_was_killed_gets_it_after_a_reboot_while_down(
        ) -> None:
    """The host logs a shot's edge after a quiet point's checkpoint and is killed before the
    shot's rest; the board reboots while it is down, so none of the shot's frames comes again:
    the restarted host gives the shot its rest, at the quiet time after the edge the log holds
    (before: none, the season soak, seed 9455 run again: zaal-1, row 405, a shot with no rest
    after its last cushion hit)."""
    log, statuses = asyncio.run(_edge_then_killed_then_rebooted())
    said = "\n".join(map(str, statuses))
    events = [e for e in log if isinstance(e, Event)]
    pins = [e for e in events if e.type == "pin"]
    assert len(pins) == 1, f"the shot's edge, once: {events}\n{said}"
    rests = [e.t for e in events if e.type == "rest"]
    assert rests == [round(pins[0].t + KEGLE.rest_quiet_ms / 1000, 6)], f"the shot's rest: {events}\n{said}"
    times = [e.t for e in events]
    assert times == sorted(times), f"table time goes back: {times}\n{said}"
    assert any(s.kind == "lost" and "while the host was down" in s.text for s in statuses), said


async def _edge_then_killed_then_rebooted() -> tuple[list[Event | Checkpoint], list[LinkStatus]]:
    """The board (kegle, 2 s quiet) up 3 s writes a pin edge once the host has checkpointed its
    HELLO; the host logs it and is killed; the board reboots at once (its boot began over
    ``LATER_BOOT_S`` before: told by the host's clock), and the next host resumes from the
    quiet point's checkpoint and reads it until past the shot's quiet time."""
    pty = Pty()
    statuses: list[LinkStatus] = []
    log: list[Event | Checkpoint] = []
    board = LiveBoard(pty, 3_000_000, 0)
    device = asyncio.create_task(board.run())
    try:
        first = table_items(pty.port, KEGLE, on_status=statuses.append, reconnect=False)
        host = asyncio.create_task(_host(first, statuses, log))
        await _until(lambda: any(isinstance(x, Checkpoint) for x in log), 5.0)
        board.edge()
        await _until(lambda: any(isinstance(e, Event) and e.type == "pin" for e in log), 5.0)
        host.cancel()  # killed before the shot's rest (2 s after the edge)
        with contextlib.suppress(asyncio.CancelledError):
            await host
        cps = [i for i, x in enumerate(log) if isinstance(x, Checkpoint)]
        cp = log[cps[-1]]
        assert isinstance(cp, Checkpoint) and cp.activity_us < 0, f"not the quiet point's checkpoint: {log}"
        device.cancel()
        board = LiveBoard(pty, 50_000, 0)  # rebooted while the host is down
        device = asyncio.create_task(board.run())
        await asyncio.sleep(0.3)
        after = [_line(e) for e in log[cps[-1] + 1:] if isinstance(e, Event)]
        assert after and all("\"rest\"" not in line for line in after), f"no rest logged: {log}"
        second = table_items(pty.port, KEGLE, resume=cp.after_lines(after), on_status=statuses.append,
                             reconnect=False)
        host = asyncio.create_task(_host(second, statuses, log, Dedupe(after)))
        await _until(lambda: any("while the host was down" in s.text for s in statuses), 5.0)
        await _until(lambda: any(isinstance(e, Event) and e.type == "rest" for e in log),
                     KEGLE.rest_quiet_ms / 1000 + 3.0)
        await asyncio.sleep(0.5)  # a second rest would come now
        host.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await host
    finally:
        device.cancel()
        pty.close()
    return log, statuses
