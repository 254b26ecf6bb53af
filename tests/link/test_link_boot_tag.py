"""The boot tag (firmware 0.4): a board draws one at random at every boot and says it in every
HELLO and HEARTBEAT, so that the host knows a new boot by it at once, where the seq and the
uptime cannot tell (a later boot already past the old one's last frame delivered and its
uptime, after the line was out), and knows a boot going on by it (no reboot claimed by an
uptime going back). Status frames without a tag (firmware before 0.4) are judged by the seq
and the clocks, as before. The frames are read and looked at on a host clock the test sets
(``Link._handle_bytes``), as in test_link_later_boot_live.py."""

from __future__ import annotations

import asyncio

from helpers.link_reader import wind_down
from helpers.pty_device import Pty
from test_link_reboot_while_down import NONE, PIN, PROFILE, Board, _resume

from tablesense.events import Event
from tablesense.link import Checkpoint, Link, LinkStatus, table_items
from tablesense.link.frame import F_ACTIVE, EventFrame, Frame, HeartbeatFrame, HelloFrame, encode_frame
from tablesense.link.hostclock import machine_boot, raw_now

OLD, NEW, OTHER = 0x1234ABCD, 0x0BADCAFE, 0x1234ABCC  # OTHER: OLD with its lowest bit flipped


def _read(link: Link, frames: list[Frame], read_at: float, now: float | None = None) -> list[object]:
    """``frames`` read from the port at ``read_at`` and looked at by the host at ``now``."""
    return link._handle_bytes(b"".join(map(encode_frame, frames)), read_at if now is None else now, read_at)


def _hello(up_s: float, seq: int = NONE, tag: int | None = OLD) -> HelloFrame:
    n = len(PROFILE.channels)
    if tag is None:
        return HelloFrame(seq, int(up_s * 1e6), n, 0, 0, 0, 0, "0.3.0", PROFILE.id, "", "", 1, "")
    return HelloFrame(seq, int(up_s * 1e6), n, 0, 0, 0, 0, "0.4.0", PROFILE.id, "", "", 1, "", tag)


def _beat(up_s: float, seq: int = NONE, tag: int | None = OLD) -> HeartbeatFrame:
    up = int(up_s * 1e6)
    return HeartbeatFrame(seq, up, 0, 0, 0, up, tag)


def _edge(seq: int, t_s: float) -> EventFrame:
    return EventFrame(seq, PIN, 0 if seq % 2 else F_ACTIVE, int(t_s * 1e6))


def _old_boot(link: Link, tag: int | None = OLD) -> list[object]:
    """The boot the host reads, begun at 0 on the host's clock: its HELLO, four edges, a
    heartbeat at 1.0 s reporting them (seq 3)."""
    said = _read(link, [_hello(0.5, tag=tag)], 0.5)
    said += _read(link, [_edge(s, 0.6 + 0.1 * s) for s in range(4)], 0.95)
    return said + _read(link, [_beat(1.0, 3, tag)], 1.0)


def _kinds(said: list[object]) -> list[str]:
    return [s.kind for s in said if isinstance(s, LinkStatus)]


def _text(said: list[object]) -> str:
    return "\n".join(map(str, said))


def test_a_later_boot_past_the_old_seq_and_uptime_is_known_by_its_tag() -> None:
    """The line silent 1.5 s; the board rebooted unseen 0.1 s after it was last heard, its
    HELLO lost, and the new boot is past the old one's seq (9 > 3) and uptime (1.3 s > 1.0 s)
    when it is heard again. Before: read as the old boot going on (its frames under the old
    boot's clock, seqs 0-3 dropped as seqs the host had)."""
    link = Link("loop://", reconnect=False)
    said = _old_boot(link)
    new = [_edge(s, 0.3 + 0.03 * s) for s in range(10)]  # the new boot's, held with its heartbeat
    said += _read(link, [*new[6:], _beat(1.3, 9, NEW)], 2.4)
    assert "!hello" in said, _text(said)  # the claim asks for a HELLO, which says the tag again
    assert "restarted" not in _kinds(said), _text(said)
    said += _read(link, [_hello(1.35, 9, NEW)], 2.45)
    assert _kinds(said).count("restarted") == 1, _text(said)
    assert link.seq.stats.restarts == 1 and link.gate.tag == NEW
    said += _read(link, new, 2.5)  # its replay: all ten on the new boot's numbering
    delivered = [f for f in said if isinstance(f, EventFrame)]
    assert [f.seq for f in delivered] == [0, 1, 2, 3] + list(range(10)), _text(said)


def test_frames_without_a_tag_past_the_old_seq_are_still_read_as_the_boot_going_on() -> None:
    """The same, from firmware before 0.4 (no tag): judged by the seq and the clocks as before,
    which cannot tell (the limit docs/reliability.md keeps for that firmware)."""
    link = Link("loop://", reconnect=False)
    said = _old_boot(link, tag=None)
    said += _read(link, [_beat(1.3, 9, None)], 2.4)
    said += _read(link, [_hello(1.35, 9, None)], 2.45)
    assert "restarted" not in _kinds(said) and link.seq.stats.restarts == 0, _text(said)


def test_a_reboot_without_a_tag_after_a_tagged_boot_is_judged_by_the_clocks() -> None:
    """A board flashed back to firmware 0.3: its HELLO says no tag; its uptime went back, and
    the next status frame follows the new clock: a new boot, as before."""
    link = Link("loop://", reconnect=False)
    said = _old_boot(link)
    said += _read(link, [_hello(0.2, NONE, None)], 1.3)
    said += _read(link, [_beat(0.6, NONE, None)], 1.7)
    assert _kinds(said).count("restarted") == 1, _text(said)


def test_one_status_frame_with_another_tag_is_no_reboot_when_the_next_says_the_old_one() -> None:
    """A heartbeat whose tag a corruption changed (one bit the CRC missed) claims a new boot;
    the next status frame says the boot's own tag: refuted, nothing restarted or lost, the
    edges held behind the claim delivered."""
    link = Link("loop://", reconnect=False)
    said = _old_boot(link)
    said += _read(link, [_beat(1.2, 3, OTHER), _edge(4, 1.25), _edge(5, 1.3)], 1.3)
    said += _read(link, [_hello(1.4, 5, OLD)], 1.4)
    assert not {"restarted", "lost"} & set(_kinds(said)), _text(said)
    assert link.stats.implausible_reboot == 1 and link.gate.tag == OLD
    assert "old boot's tag" in str(link.refused[-1]), link.refused
    assert [f.seq for f in said if isinstance(f, EventFrame)] == [0, 1, 2, 3, 4, 5], _text(said)


def test_the_boots_own_tag_refuses_an_uptime_going_back_at_once() -> None:
    """A heartbeat of the boot's own tag whose uptime went back (a corrupted time): refused at
    once, nothing held or asked, the edge after it delivered in the same read."""
    link = Link("loop://", reconnect=False)
    said = _old_boot(link)
    got = _read(link, [_beat(0.2, 3, OLD), _edge(4, 1.25)], 1.3)
    assert "!hello" not in got and link.stats.implausible_reboot == 1, _text(got)
    assert [f.seq for f in got if isinstance(f, EventFrame)] == [4], _text(said + got)


def test_a_host_lagging_behind_its_port_takes_no_boot_that_says_its_own_tag_for_a_new_one() -> None:
    """The board's boot goes on; the line is silent for 2.8 s, then the host looks at what it
    reads 3 s late, catching up 0.1 s a second: by the tag, nothing is claimed."""
    link = Link("loop://", reconnect=False)
    said = _read(link, [_hello(0.5)], 0.5)
    said += _read(link, [_beat(1.0)], 1.0)
    for k in range(6):
        at = 3.8 + 0.5 * k
        said += _read(link, [_beat(at)], at, at + max(0.0, 3.0 - 0.1 * k))
    said += link._housekeeping(7.0)
    assert not {"restarted", "lost"} & set(_kinds(said)), _text(said)
    assert link.stats.implausible == 0 and link.seq.stats.restarts == 0, _text(said)


def test_a_board_that_boots_again_before_its_new_boot_is_confirmed_is_read_boot_by_boot() -> None:
    """A board rebooting at once (a crash at boot): its new boot's heartbeat and an edge, then
    a third boot's HELLO before the second was confirmed. The second is a new boot all the
    same (its tag is not the old one's): confirmed, its edge read as its own, then the third
    claimed and confirmed by its next status frame."""
    link = Link("loop://", reconnect=False)
    said = _old_boot(link)
    third = 0x7777AAAA
    said += _read(link, [_beat(0.3, NONE, NEW), _edge(0, 0.35)], 1.4)
    said += _read(link, [_hello(0.1, NONE, third)], 1.6)
    said += _read(link, [_beat(0.5, NONE, third)], 2.0)
    assert _kinds(said).count("restarted") == 2 and link.gate.tag == third, _text(said)
    edges = [f for f in said if isinstance(f, EventFrame)]
    assert [f.seq for f in edges] == [0, 1, 2, 3, 0], _text(said)


# --- a host resumed from a checkpoint that keeps the boot tag ------------------------------


def _resumed(cp_tag: int | None, board_tag: int | None) -> tuple[list[Event], list[LinkStatus]]:
    """A host resumed from a checkpoint taken at uptime 0.5 s (the next seq wanted: 4) of a
    boot that began 3.9 s ago on the raw clock (``cp_tag``: its boot tag); the board (its
    tag ``board_tag``) is up 3 s and has written 10 edges: past the checkpoint's seq and
    uptime, begun 0.9 s after the checkpoint's boot (within the second the host's clock
    cannot tell) if it is a new one."""
    began = raw_now() - 3.0 - 0.9
    cp = Checkpoint(4, 500_000, 0, 500_000, logged_us=500_000, boot_s=began, at_s=began + 0.5,
                    machine=machine_boot(), boot_tag=cp_tag)
    cp = Checkpoint.from_json(cp.to_json())  # as the pub saves and reads it
    assert cp.boot_tag == cp_tag
    return asyncio.run(_resume(cp, 3_000_000, 10, board_tag))


def test_a_resumed_host_knows_a_later_boot_by_the_tag_its_checkpoint_kept() -> None:
    """Before, past the checkpoint's seq and uptime and begun within a second of its boot,
    the new boot was read as the old one going on (docs/design.md): seqs 4-9 replayed under
    the old boot's clock, 0-3 never, nothing said."""
    events, statuses = _resumed(OLD, NEW)
    said = "\n".join(map(str, statuses))
    lost = [s for s in statuses if s.kind == "lost"]
    assert len(lost) == 1 and "restarted while the host was down" in lost[0].text, said
    assert len([e for e in events if e.type == "pin"]) == 10, f"{events}\n{said}"


def test_a_resumed_host_knows_the_boot_going_on_by_the_tag_its_checkpoint_kept() -> None:
    events, statuses = _resumed(NEW, NEW)
    said = "\n".join(map(str, statuses))
    assert not {"lost", "restarted"} & {s.kind for s in statuses}, said
    assert len([e for e in events if e.type == "pin"]) == 6, f"{events}\n{said}"  # seqs 4-9


def test_the_checkpoints_of_a_running_host_keep_the_tag_of_the_boot_they_are_of() -> None:
    """A host reading a board that says its tag from its HELLO on: the checkpoints it takes at
    the quiet points keep that tag (a restarted host then judges by it)."""

    async def run() -> list[Checkpoint]:
        pty = Pty()
        board = Board(pty, 2_000_000, 6, NEW)
        device = asyncio.create_task(board.run())
        items = table_items(pty.port, PROFILE, reconnect=False)
        cps: list[Checkpoint] = []

        async def read() -> None:
            async for item in items:
                if isinstance(item, Checkpoint):
                    cps.append(item)

        reader = asyncio.create_task(read())
        try:
            for _ in range(60):
                if cps:
                    break
                await asyncio.sleep(0.05)
        finally:
            await wind_down(reader, items, device, pty)
        return cps

    cps = asyncio.run(run())
    assert cps and {cp.boot_tag for cp in cps} == {NEW}, cps
    assert f'"boot_tag":{NEW}' in cps[-1].to_json()
