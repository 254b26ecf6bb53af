"""A board's "not sent yet (next is M)" that cannot be about the boot the host is reading (a
new boot's answer to a request meant for the old one, read before anything else of the new
boot) leaves the old boot's gaps as they are, with M at or past the host's expected seq as
well as before it: every frame of the old boot the host knew of is delivered or said lost by
its seqs when the restart shows. (It used to drop the gap's part from M on without a word.)

Pure logic on ``link/sequence.py``; tests/link/test_link_stale_order.py varies the order of
everything around it, and tests/link/test_link_stale_replay.py plays a stale ``!replay`` on
the real firmware.
"""

from __future__ import annotations

from typing import NamedTuple

from tablesense.link.sequence import Sequencer, Step


class F(NamedTuple):
    seq: int


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
