"""The host link: serial port -> frames -> table events.

- ``frame``: the wire format (COBS, CRC-16, typed frame records, streaming decoder).
- ``sequence``: in-order delivery, duplicates dropped, gaps replayed.
- ``clock``: device microseconds -> table seconds, and the mapping to host time.
- ``plausible``: the checks a CRC-valid frame passes before it is believed (pure logic).
- ``transport``: ``Link``, the asyncio serial link (pyserial, reconnect, replay).
- ``translate``: frames -> the table events of docs/events.md with the table profile.

For other parts of tablesense:

    async for event in table_events("/dev/ttyUSB0", "golf"):
        ...

    async for item in link_items(url):      # frames and LinkStatus records
        ...

    async for item in table_items(url, "golf", resume=checkpoint):  # events, checkpoints, losses
        ...
"""

from __future__ import annotations

import os
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from ..events import Event
from ..table.profile import TableProfile
from .checkpoint import SEQ_MOD, Checkpoint
from .frame import REPLAYABLE, Frame, HeartbeatFrame, HelloFrame
from .hostclock import machine_boot, raw_now
from .plausible import previous_seq
from .sequence import seq_diff
from .translate import Translator, table_profile
from .transport import Link, LinkError, LinkStatus

#: a reboot while the host was down, shown without a HELLO (a heartbeat confirmed it): how long
#: its line waits for the new boot's HELLO, which may say how far the old boot stamped
HOLD_S = 3.0

__all__ = ["Checkpoint", "Link", "LinkError", "LinkStatus", "Translator", "link_items", "table_events",
           "table_items"]


async def link_items(url: str, **opts: Any) -> AsyncIterator[Frame | LinkStatus]:
    """Frames in seq order (deduplicated, gaps replayed) and link status changes.

    ``opts`` go to ``Link`` (reconnect, backoff, give_up_after, replay, from_seq, ...).
    """
    link = Link(url, **opts)
    try:
        async for item in link.items():
            yield item
    finally:
        link.close()


async def table_events(
    url: str,
    profile: TableProfile | str | os.PathLike[str],
    *,
    on_status: Callable[[LinkStatus], None] | None = None,
    link: Link | None = None,
    **opts: Any,
) -> AsyncIterator[Event]:
    """The table events of a table's serial port, in device-time order, for as long as it runs.

    ``profile``: a ``TableProfile``, its id (``golf``, ``kegle``, ``carom``) or a TOML path.
    ``on_status``: called with each ``LinkStatus`` (connected, gap, replay, reconnect, ...).
    ``link``: a ``Link`` made by the caller (to read its stats or send commands);
    otherwise one is made from ``url`` and ``opts``.

    When frames are lost for good (the device no longer holds them), the HELLO asked
    for next resynchronises the pins from its levels (``Translator.snapshot``).
    """
    async for item in table_items(url, profile, on_status=on_status, link=link, **opts):
        if not isinstance(item, (Checkpoint, LinkStatus)):
            yield item


async def table_items(
    url: str,
    profile: TableProfile | str | os.PathLike[str],
    *,
    resume: Checkpoint | None = None,
    on_status: Callable[[LinkStatus], None] | None = None,
    link: Link | None = None,
    **opts: Any,
) -> AsyncIterator[Event | Checkpoint | LinkStatus]:
    """``table_events`` for a host that keeps its place (link/checkpoint.py): the events,
    a ``Checkpoint`` at every quiet point and at every reboot of the board, also mid-shot
    (save it once the events before it are saved),
    and the ``LinkStatus`` of frames lost for good (kind ``lost``, with the range) and of a
    board that restarted by itself after a crash or its watchdog (kind ``board_reset``, with
    the HELLO's crash text, at every HELLO of that boot: the pub logs it once).

    ``resume``: the last checkpoint saved: the board is asked to replay from its seq, and
    the translator's clock goes on from it. None: from the board's HELLO on.
    """
    translator = Translator(table_profile(profile))
    own = link is None
    link = link or Link(url, **opts)
    if resume is not None:  # the link asks for the frames after it; the clock goes on from it
        translator.restore_clock(resume.uptime_us, resume.offset_us, resume.now_us, resume.logged_us,
                                 resume.activity_us)
        # a status frame below the device time of the events logged after it claims a reboot
        # too, and so does one of a boot that began after the checkpoint's (hostclock.py)
        # and, without a boot tag, the frames it replays up to its first status frame's seq tell:
        # the boot going on has one stamped at or after the log's latest sensor event
        stamped = resume.logged_stamped_us - resume.offset_us if resume.logged_stamped_us >= 0 else -1
        link.seq.resume(resume.seq, max(resume.uptime_us, resume.logged_us - resume.offset_us),
                        resume.boot_began(machine_boot()), stamped)
        link.gate.tag = resume.boot_tag  # its boot's tag (firmware 0.4) tells that boot going on, or not
    resync = False  # frames were lost for good: the next HELLO's levels tell what changed
    ask_again = False  # a HELLO came before the frames written before it: ask for another
    last_cp = resume.seq if resume is not None else -1
    # the boot tag of the boot whose frames come now (firmware 0.4), in the items' order: the
    # link may have met a later boot already whose frames are not translated yet
    tag = resume.boot_tag if resume is not None else None
    next_seq: int | None = resume.seq if resume is not None else None
    gone: tuple[int, int] | None = None  # the last range said lost for good: none of it is to come
    # the next reboot confirmed is the first since the resume: the board may have rebooted while
    # the host was down. Only that one: a reboot after it also finds the next seq wanted at 0
    # when the boot before it wrote no frame, as a checkpoint taken at a reboot names (the
    # season soak, seed 3838: a board rebooting again and again, the resumed shot's rest made
    # again at its old table time behind the new boots' events)
    first_reboot = resume is not None
    # that reboot, shown before the new boot's HELLO: when (host time); its line waits for the
    # HELLO (firmware 0.5 says the old boot's last seq) or HOLD_S. The new boot's events may come
    # before it: none of them can match a line logged after the checkpoint (the pub's Dedupe),
    # their times go on after the log's
    down_at: float | None = None
    reboot_cp = False  # a reboot's checkpoint is due, at the status frame that confirmed it
    try:
        async for item in link.items():
            if down_at is not None and resume is not None and (
                    isinstance(item, HelloFrame) or time.monotonic() - down_at > HOLD_S
                    or (isinstance(item, LinkStatus) and item.kind == "restarted")):
                down_at = None
                said = lost_while_down(resume, previous_seq(item, resume.boot_tag))
                if said is not None:
                    yield said
            if isinstance(item, LinkStatus):
                if on_status is not None:
                    on_status(item)
                if item.kind == "lost":
                    resync = True
                    if isinstance(item.data.get("from"), int) and isinstance(item.data.get("to"), int):
                        gone = (item.data["from"], item.data["to"])
                    yield item
                    await link.send("!hello")
                elif item.kind == "restarted":  # the frames after it are the new boot's
                    if resume is not None and first_reboot and next_seq == resume.seq:
                        previous = item.data.get("previous")  # by the HELLO that showed it, if one did
                        if isinstance(previous, int):
                            said = lost_while_down(resume, previous)
                            if said is not None:
                                yield said
                        else:
                            down_at = time.monotonic()
                        if resume.logged_rest:  # its shot's rest is in the log
                            translator.rested()
                        elif resume.logged_activity_us >= 0:  # a shot logged, no rest yet: it gets
                            # one (none of its frames comes again)
                            translator.active_at(resume.logged_activity_us)
                    first_reboot = False
                    # its times go on after the old boot's (and the log's); what the old boot's
                    # frames made and the translator held is final now
                    for event in translator.restarted():
                        yield event
                    next_seq, gone, tag = 0, None, None  # (the new boot's: its status frame says it next)
                    # a place to resume from: the new boot's first frame, its clock, and a shot
                    # still rolling (its rest to come): a host killed before the next quiet point
                    # resumes from the new boot, not from a boot before it. Taken at the status
                    # frame that confirmed the reboot, the link's next item: with its boot tag, so
                    # a host back on it knows a boot begun again within a second (not only by its
                    # uptime, which a loaded host hears late)
                    reboot_cp = translator.settled
                continue
            if isinstance(item, (HelloFrame, HeartbeatFrame)) and item.boot_tag is not None:
                tag = item.boot_tag  # believed by the link: the boot the frames after it are of
            if reboot_cp:
                reboot_cp = False
                last_cp = 0
                yield _checkpoint(0, translator, link, tag)
            if isinstance(item, HelloFrame):
                if item.crash:  # the board restarted by itself (firmware 0.3): the pub logs it once
                    why = f"the board restarted by itself ({item.reset_text}): {item.crash}"
                    data = {"reset_cause": item.reset_cause, "crash": item.crash}
                    yield LinkStatus("board_reset", why, data)
                if next_seq is None:  # the first HELLO of a fresh start: read from here on
                    next_seq = (item.seq + 1) % SEQ_MOD
                if resync and _undelivered(item.seq, next_seq, gone):
                    ask_again = True  # frames before it are still to come: its time would jump ahead
                elif resync:
                    resync = ask_again = False
                    for event in translator.snapshot(item):
                        yield event
                    continue
            elif isinstance(item, REPLAYABLE):
                next_seq = (item.seq + 1) % SEQ_MOD
            if isinstance(item, HeartbeatFrame) and _undelivered(item.seq, next_seq, gone):
                # frames the board wrote before this heartbeat are still to come (a gap
                # being replayed, or frames it reports before the host has asked for them:
                # the first thing heard after a cut or a restart), older than its time:
                # it must not move the translator's clock ahead of them (a rest after every
                # replayed edge, events released behind later ones, goals timing out before
                # their colour). A HELLO does not move the clock; its levels are always taken.
                continue
            if isinstance(item, HeartbeatFrame) and ask_again:
                ask_again = False  # everything before it is in: the levels can be taken now
                await link.send("!hello")
            for event in translator.feed(item):
                yield event
            if translator.notes and on_status is not None:
                for note in translator.notes:
                    on_status(LinkStatus("profile", note))
                translator.notes.clear()
            if next_seq is not None and next_seq != last_cp and translator.quiet:
                last_cp = next_seq
                yield _checkpoint(next_seq, translator, link, tag)
        if down_at is not None and resume is not None:  # the link ended before the HELLO came
            said = lost_while_down(resume, None)
            if said is not None:
                yield said
    finally:
        if own:
            link.close()


def lost_while_down(resume: Checkpoint, previous: int | None) -> LinkStatus | None:
    """The board rebooted while the host was down, and the host had resumed from ``resume``:
    what the old boot sent from the checkpoint's seq on is lost. ``previous``: the old boot's
    last seq assigned, by the new boot's HELLO (firmware 0.5: its ``prev_tag`` the checkpoint's
    boot); then the range is exact, and nothing is lost if the boot assigned no seq past the
    checkpoint. None (a power-on, older firmware, a boot between, no HELLO): an open range."""
    a = resume.seq
    n = -1 if previous is None else seq_diff(previous, (a - 1) % SEQ_MOD)
    if n == 0:
        return None
    why = (f"the board restarted while the host was down: what it sent from seq {a} of its previous boot on "
           "is lost")
    if n < 0 or previous is None:  # not said, or behind what was delivered (not that boot's word)
        return LinkStatus("lost", why, {"rebooted": True})
    why += f" ({n} frame{'s' if n != 1 else ''}, to seq {previous}, by its next boot's word)"
    return LinkStatus("lost", why, {"from": a, "last": previous, "count": n, "rebooted": True})


def _undelivered(seq: int, next_seq: int | None, gone: tuple[int, int] | None = None) -> bool:
    """A status frame reports ``seq`` as the last frame written before it: is it at or past
    ``next_seq``, the next frame to come here (it, or one before it, is still to come)?
    Judged at the status frame's place among the items, not by the link, which has taken in
    the whole read already: the frames after it in the same read (a replay filling the gap
    before it) were not passed on yet (the season soak, seed 9263: a rest storm). Frames
    said lost (``gone``, the last range, if it holds ``next_seq``) will not come: they are not
    waited for."""
    if next_seq is None or seq_diff(seq, next_seq) < 0:
        return False
    if gone is None or seq_diff(next_seq, gone[0]) < 0 or seq_diff(gone[1], next_seq) < 0:
        return True
    return seq_diff(seq, gone[1]) > 0


def _checkpoint(seq: int, translator: Translator, link: Link, tag: int | None = None) -> Checkpoint:
    """The checkpoint at ``seq`` (the next frame wanted): the translator's clock and the shot
    it may have rolling, and when the board's boot began on the host's raw clock
    (hostclock.py). That is the earlier of now less the device time the translator reached
    and the link's newest status frame's arrival less its uptime: both are at or after the
    boot's true start, the second also when the link has met a later boot already (its
    frames not yet translated), so a restarted host never takes the boot going on for a
    later one by it. ``tag``: the boot tag of the boot the frames passed on so far are of."""
    seen_us, offset_us, now_us = translator.clock_state()
    mono = time.monotonic()
    began = mono - seen_us / 1e6
    if link.clock.samples and link.clock.last_us >= 0:
        began = min(began, link.clock.last_mono - link.clock.last_us / 1e6)
    at = raw_now(mono)
    return Checkpoint(seq, seen_us, offset_us, now_us, activity_us=translator.activity_us,
                      boot_s=at - (mono - began), at_s=at, machine=machine_boot(), boot_tag=tag)
