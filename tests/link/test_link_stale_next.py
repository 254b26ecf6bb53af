"""A board's "not sent yet (next is M)" that cannot be about the boot the host is reading (a
new boot's answer to a request meant for the old one, read before anything else of the new
boot) leaves the old boot's gaps as they are, with M at or past the host's expected seq as
well as before it: every frame of the old boot the host knew of is delivered or said lost by
its seqs when the restart shows. (It used to drop the gap's part from M on without a word.)
So does a new boot's PONG below a claim of the old boot's: the claim stays in doubt until
the next HELLO or heartbeat, and a restart before it says the claimed seqs lost.

Pure logic on ``link/sequence.py``, and the same through the whole link with a board forged
on a pty; tests/link/test_link_stale_order.py varies the order of everything around it, and
tests/link/test_link_stale_replay.py plays a stale ``!replay`` on the real firmware.
"""

from __future__ import annotations

import asyncio

from helpers.pty_device import Pty
from test_link_plausible import ev, heartbeat, hello, played, script
from test_link_sequence import F

from tablesense.link import Link
from tablesense.link.frame import F_ACTIVE, F_REPLAY, ErrorFrame, PongFrame, encode_frame
from tablesense.link.sequence import Sequencer, Step


def lost_seqs(step: Step) -> set[int]:
    """The seqs said lost by a closed range (``from``..``to``)."""
    return {q for n in step.notes if n.kind == "lost" and "to" in n.data
            for q in range(n.data["from"], n.data["to"] + 1)}


def test_a_new_boots_next_past_the_expected_seq_leaves_the_old_boots_gaps_to_be_said_lost() -> None:
    """The old boot wrote 0..11. 4..7 were lost on the wire, told by a heartbeat and its
    PONG; the host asks ``!replay 4`` and the replay begins (4 comes). 8..11 are lost on the
    wire too, told by the next heartbeat and PONG while the replay is under way: the host
    asks ``!replay 8`` for them. The board resets before reading it, and its new boot, which
    has six frames of its own (next is 6), answers "replay 8: not sent yet (next is 6)"
    before the host has heard anything else of it (its HELLO lost on the wire). The host is
    still at seq 5 of the old boot: 6 is past it. Then the new boot's HELLO shows the reset,
    the old boot quiet for more than a second before: nothing said of what it sent after the
    last frame the host knew of (there was none)."""
    s = Sequencer(expected=0)
    out = Step()
    for q in range(4):
        out.extend(s.accept(F(q), 0.01 * q))
    out.extend(s.reported(7, 0.5))  # the heartbeat: a claim
    assert out.ask
    out.extend(s.reported(7, 0.52))  # the PONG confirms it: gap 4..7
    assert out.replay == [4]
    out.extend(s.accept(F(4), 1.0))  # the replay begins
    out.extend(s.reported(11, 2.2))  # a heartbeat: 8..11 lost on the wire too
    out.extend(s.reported(11, 2.25))  # its PONG
    assert out.replay == [4, 8]  # 5..7 still come in the replay under way; 8..11 asked for
    out.extend(s.device_error(2, "replay 8: not sent yet (next is 6)", 2.3))  # the new boot's
    out.extend(s.restart(2.4, uptime_s=0.2))  # its HELLO: the reset shown
    got = {f.seq for f in out.frames}
    said = "\n".join(n.text for n in out.notes)
    assert got == {0, 1, 2, 3, 4}, said
    assert lost_seqs(out) == set(range(5, 12)), said  # each of the old boot's others, by its seq
    assert s.stats.lost == 7, said


def test_a_new_boots_next_just_past_the_delivered_leaves_a_claimed_range_said_lost() -> None:
    """The same with the new boot's next at the host's expected seq: the old boot's frames
    the host was told of stay asked for until the restart says them lost."""
    s = Sequencer(expected=0)
    out = Step()
    for q in range(4):
        out.extend(s.accept(F(q), 0.01 * q))
    out.extend(s.reported(7, 0.5))
    out.extend(s.reported(7, 0.52))
    out.extend(s.accept(F(4), 1.0))
    out.extend(s.reported(11, 2.2))
    out.extend(s.reported(11, 2.25))
    out.extend(s.device_error(2, "replay 8: not sent yet (next is 5)", 2.3))
    out.extend(s.restart(2.4, uptime_s=0.2))
    said = "\n".join(n.text for n in out.notes)
    assert lost_seqs(out) == set(range(5, 12)), said


async def test_through_the_link_a_new_boots_next_leaves_the_old_boots_gaps_said_lost(pty: Pty) -> None:
    """The first test's board, forged on a pty, through the whole link: the old boot's
    heartbeats and PONGs tell of 4..7 and 8..11 (lost on the wire), the replay of 4.. begins
    and the rest of it is lost, and the board, quiet more than a second, resets before it
    reads ``!replay 8``. Its new boot reads it first thing: "not sent yet (next is 6)", then
    its frames 0..5 (its HELLO lost). The host asks for a HELLO, which shows the reset: the
    old boot's 5..11 are said lost by their seqs, the new boot's 0..5 delivered after them."""
    link = Link(pty.port, from_seq=0, reconnect=False)
    cmds: list[str] = []

    async def next_command(prefix: str) -> str:
        while True:
            line = await pty.command()
            cmds.append(line)
            if line.startswith(prefix):
                return line

    async def steps() -> None:
        await next_command("!hello")
        pty.send(hello(0xFFFFFF, uptime=50_000), *(ev(q, t_us=60_000 + q * 1000) for q in range(4)))
        await asyncio.sleep(0.2)
        pty.send(heartbeat(7, 300_000))  # 4..7 lost on the wire
        await next_command("!ping")
        pty.send(encode_frame(PongFrame(7, 0xFFFF)))
        assert await next_command("!replay") == "!replay 4"
        pty.send(ev(4, t_us=64_000, flags=F_ACTIVE | F_REPLAY))  # the rest of the replay is lost
        await asyncio.sleep(0.2)
        pty.send(heartbeat(11, 700_000))  # 8..11 lost on the wire too
        await next_command("!ping")
        pty.send(encode_frame(PongFrame(11, 0xFFFF)))
        assert await next_command("!replay") == "!replay 8"
        await asyncio.sleep(0.6)
        pty.send(heartbeat(11, 1_300_000))  # the old boot, quiet
        await asyncio.sleep(0.6)  # it resets; the host's retries meanwhile die with it
        pty.send(encode_frame(ErrorFrame(0xFFFFFF, 2, "replay 8: not sent yet (next is 6)")),
                 *(ev(q, t_us=200_000 + q * 1000) for q in range(6)))
        await next_command("!hello")
        pty.send(hello(5, uptime=320_000))
        await asyncio.sleep(0.3)
        pty.send(heartbeat(5, 620_000))

    def done(frames: list, statuses: list) -> bool:  # type: ignore[type-arg]
        return len(frames) == 11 and any(s.kind == "restarted" for s in statuses)

    frames, statuses = await played(link, script(steps), done)
    said = "\n".join(map(str, statuses)) + f"\ncommands: {cmds}"
    assert [f.seq for f in frames] == [*range(5), *range(6)], said
    lost = {q for s in statuses if s.kind == "lost" and "to" in s.data
            for q in range(s.data["from"], s.data["to"] + 1)}
    assert lost == set(range(5, 12)), said
    assert link.seq_stats.lost == 7 and link.seq_stats.restarts == 1, said


def test_a_new_boots_pong_below_the_old_boots_claim_leaves_the_claim_said_lost_at_the_restart() -> None:
    """The old boot wrote 0..3 (3 lost on the wire); its heartbeat says it is at 3, a claim
    the host asks about with ``!ping``. The board resets before it reads it; its new boot,
    which has written nothing, answers with a PONG at 0xFFFFFF (its HELLO lost), and again to
    the next ``!ping``: below the claim, it refutes it. A PONG carries no uptime to show the
    reset by: the claim stays in doubt, and when the new boot's heartbeat shows the reset,
    the old boot's seq 3 is said lost by its seq. (It was refuted for good, and seq 3 lost
    without a word: Hypothesis, in test_link_stale_order.py.)"""
    s = Sequencer(expected=0)
    out = Step()
    for q in range(3):
        out.extend(s.accept(F(q), 0.01 * q))
    out.extend(s.reported(3, 1.5))  # the old boot's heartbeat: a claim
    assert out.ask
    out.extend(s.reported(0xFFFFFF, 1.6, pong=True))  # the new boot's PONG
    out.extend(s.reported(0xFFFFFF, 1.7, pong=True))  # and again
    assert [n.kind for n in out.notes] == ["implausible"]
    out.extend(s.restart(1.8, uptime_s=0.5))  # its heartbeat: the reset shown
    said = "\n".join(n.text for n in out.notes)
    assert [f.seq for f in out.frames] == [0, 1, 2], said
    assert lost_seqs(out) == {3}, said


def test_a_claim_refuted_by_the_boots_own_heartbeat_is_not_said_lost_at_a_later_restart() -> None:
    """A forged heartbeat claims seq 40; the board's PONG and then its heartbeat (its uptime
    passed the reboot check) both say 9: the claim was never the board's. A restart after
    that says nothing of seqs 10..40."""
    s = Sequencer(expected=0)
    out = Step()
    for q in range(10):
        out.extend(s.accept(F(q), 0.01 * q))
    out.extend(s.reported(40, 0.5))  # forged
    out.extend(s.reported(9, 0.55, pong=True))
    out.extend(s.reported(9, 1.5))  # the board's heartbeat
    out.extend(s.restart(5.0, uptime_s=0.5))
    said = "\n".join(n.text for n in out.notes)
    assert lost_seqs(out) == set() and s.stats.lost == 0, said
