"""A claim a board's own HELLO or HEARTBEAT refutes (its uptime passed the reboot check: the
boot the host reads) was never the board's word: a restart soon after it says nothing of the
claimed seqs. (The claim was left in doubt as if a PONG had refuted it, and a restart within
the next heartbeat said every seq up to the claim lost, frames no boot ever wrote.)
tests/link/test_link_stale_next.py has the claims a new boot's PONG refutes, which are."""

from __future__ import annotations

from test_link_sequence import F

from tablesense.link.sequence import Sequencer, Step


def test_a_claim_the_boots_own_heartbeat_refutes_is_not_said_lost_at_a_restart_right_after() -> None:
    """A forged heartbeat claims seq 40; the board's PONG is lost, and its next heartbeat
    says 9: the claim is refused as not confirmed. The board resets before its next
    heartbeat (a new boot's HELLO, uptime 0.3 s): nothing of 10..40 is said lost."""
    s = Sequencer(expected=0)
    out = Step()
    for q in range(10):
        out.extend(s.accept(F(q), 0.01 * q))
    out.extend(s.reported(40, 0.5))  # forged: a claim, asked about
    assert out.ask
    out.extend(s.reported(9, 0.9))  # the board's heartbeat (the PONG lost on the wire)
    assert [n.kind for n in out.notes] == ["implausible"]
    out.extend(s.restart(1.5, uptime_s=0.3))
    said = "\n".join(n.text for n in out.notes)
    closed = [n for n in out.notes if n.kind == "lost" and "to" in n.data]
    assert not closed and s.stats.lost == 0, said
    opened = [n.data["from"] for n in out.notes if n.kind == "lost" and "to" not in n.data]
    assert opened in ([], [10]), said  # what the old boot wrote after seq 9, if anything
