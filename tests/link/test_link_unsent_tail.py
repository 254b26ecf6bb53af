"""A board that reboots loses the frames it had stamped and not yet sent; firmware 0.5 keeps the
boot's tag and last seq assigned in RTC memory (a reset keeps it), and the next boot's HELLO
says them (``prev_tag``, ``prev_seq``). The host then says what the old boot stamped past the
last seq it heard lost, whatever the timing: a boot heard by its heartbeats, idle on the
host's side for longer than ``BUSY_S``, on a whole line, which the timing rules took to have
written nothing more (the season soak, seed 3939: three events of hoek-2 neither logged nor
said lost). Nothing is said lost when the boot stamped no more; a HELLO without the fields (a
power-on, older firmware) or naming a boot the host never heard leaves the timing rules to
judge. The frames are read on a host clock the test sets (``Link._handle_bytes``)."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_link_boot_tag import NEW, OLD, _beat, _edge, _kinds, _read, _text
from test_link_reboot_while_down import NONE, PROFILE

from tablesense.link import Link, LinkStatus
from tablesense.link.frame import EventFrame, HelloFrame

BETWEEN = 0x5EED0001  # a boot the host never heard


def _hello(up_s: float, seq: int = NONE, tag: int = NEW, prev: tuple[int, int] | None = None) -> HelloFrame:
    n = len(PROFILE.channels)
    if prev is None:
        return HelloFrame(seq, int(up_s * 1e6), n, 0, 0, 0, 0, "0.4.0", PROFILE.id, "", "", 1, "", tag)
    return HelloFrame(seq, int(up_s * 1e6), n, 0, 0, 0, 0, "0.5.0", PROFILE.id, "", "", 3, "", tag, *prev)


def _old_boot(link: Link, idle_s: float) -> list[object]:
    """The boot the host reads, begun at 0: its HELLO, edges 0-3 at 0.6-0.9 s (read at 0.95 s),
    then a heartbeat every second for ``idle_s`` after them (seq 3: nothing more sent)."""
    said = _read(link, [_hello(0.5, tag=OLD, prev=None)], 0.5)
    said += _read(link, [_edge(s, 0.6 + 0.1 * s) for s in range(4)], 0.95)
    for t in _beats(idle_s):
        said += _read(link, [_beat(t, 3, OLD)], t)
    return said


def _beats(idle_s: float) -> list[float]:
    return [1.0 + k for k in range(int(idle_s + 0.95 - 1.0) + 1)] if idle_s >= 0.05 else []


def _previous_boot_lost(said: list[object]) -> list[str]:
    return [s.text for s in said if isinstance(s, LinkStatus) and s.kind == "lost"
            and "of its previous boot on is lost" in s.text]


def test_a_reboot_with_stamped_frames_unsent_after_heartbeats_says_them_lost() -> None:
    """Heard by three heartbeats after its last frame (idle 3 s: not busy), the line whole, the
    board stamps seqs 4-6 and reboots before sending them; the new boot's HELLO, 0.3 s after
    the last heartbeat, says the old boot's tag and seq 6. Before: "restarted" and no word of
    4-6 (the soak's "silently lost")."""
    link = Link("loop://", reconnect=False)
    said = _old_boot(link, 3.0)
    said += _read(link, [_hello(0.1, prev=(OLD, 6))], 3.3)
    said += _read(link, [_beat(0.5, NONE, NEW)], 3.7)
    assert _kinds(said).count("restarted") == 1, _text(said)
    lost = _previous_boot_lost(said)
    assert len(lost) == 1, _text(said)
    assert "from seq 4 of its previous boot on is lost (3 frames, to seq 6" in lost[0], lost
    i = next(i for i, s in enumerate(said) if isinstance(s, LinkStatus) and s.kind == "lost")
    j = next(i for i, s in enumerate(said) if isinstance(s, LinkStatus) and s.kind == "restarted")
    assert i < j, _text(said)  # said of the old boot, before the new boot's frames
    assert link.seq.stats.lost == 3


def test_the_new_boots_hello_after_its_heartbeat_still_says_them_lost() -> None:
    """The new boot's HELLO lost on the wire: its heartbeat claims the reboot by its tag and the
    HELLO the host asks for confirms it; that HELLO says how far the old boot stamped."""
    link = Link("loop://", reconnect=False)
    said = _old_boot(link, 2.0)
    said += _read(link, [_beat(0.2, NONE, NEW)], 2.4)
    assert "!hello" in said, _text(said)
    said += _read(link, [_hello(0.25, prev=(OLD, 9))], 2.45)
    said += _read(link, [_hello(0.9, prev=(OLD, 9)), _beat(1.2, NONE, NEW)], 3.4)  # no second word
    assert _kinds(said).count("restarted") == 1, _text(said)
    lost = _previous_boot_lost(said)
    assert len(lost) == 1, lost
    assert "from seq 4 of its previous boot on is lost (6 frames, to seq 9" in lost[0], lost


def test_a_hello_that_comes_after_the_restart_was_shown_says_them_lost_then() -> None:
    """The new boot's first HELLO and the answer to the host's ``!hello`` both lost: two of its
    heartbeats confirm the reboot, nothing said of the old boot's end (idle, a whole line);
    the HELLO asked for next says seq 7: 4-7 said lost then, once."""
    link = Link("loop://", reconnect=False)
    said = _old_boot(link, 2.0)
    said += _read(link, [_beat(0.2, NONE, NEW)], 2.4)
    said += _read(link, [_beat(0.6, NONE, NEW)], 2.8)
    assert _kinds(said).count("restarted") == 1 and "lost" not in _kinds(said), _text(said)
    said += _read(link, [_hello(0.7, prev=(OLD, 7))], 2.9)
    said += _read(link, [_hello(1.0, prev=(OLD, 7))], 3.2)
    lost = _previous_boot_lost(said)
    assert len(lost) == 1, lost
    assert "from seq 4 of its previous boot on is lost (4 frames, to seq 7" in lost[0], lost


def test_nothing_is_said_lost_when_the_old_boot_stamped_no_more() -> None:
    """The old boot was sending when it rebooted (its last frame 0.05 s before): the timing rule
    said "(if it sent any after the last one heard)"; its next boot says seq 5, the last one
    heard: nothing is lost, and nothing is said."""
    link = Link("loop://", reconnect=False)
    said = _old_boot(link, 0.0)
    said += _read(link, [_edge(4, 0.95), _edge(5, 0.97)], 0.98)
    said += _read(link, [_hello(0.02, prev=(OLD, 5))], 1.03)
    said += _read(link, [_beat(0.4, NONE, NEW)], 1.4)
    assert _kinds(said).count("restarted") == 1, _text(said)
    assert "lost" not in _kinds(said), _text(said)
    assert [f.seq for f in said if isinstance(f, EventFrame)] == list(range(6))


def test_without_the_old_boots_word_the_timing_rules_judge_as_before() -> None:
    """A power-on (no prev fields) or a HELLO naming a boot between that the host never heard:
    the old boot busy within BUSY_S is said lost from the next seq on, an open range; idle and
    on a whole line, nothing is said (the limit the RTC record closes)."""
    for prev in (None, (BETWEEN, 40)):
        link = Link("loop://", reconnect=False)
        said = _old_boot(link, 0.0)
        said += _read(link, [_hello(0.05, prev=prev)], 1.05)
        said += _read(link, [_beat(0.5, NONE, NEW)], 1.5)
        lost = _previous_boot_lost(said)
        assert len(lost) == 1 and "while it was sending frames" in lost[0], (prev, _text(said))
        link = Link("loop://", reconnect=False)
        said = _old_boot(link, 3.0)
        said += _read(link, [_hello(0.1, prev=prev)], 3.3)
        said += _read(link, [_beat(0.5, NONE, NEW)], 3.7)
        assert _kinds(said).count("restarted") == 1 and "lost" not in _kinds(said), (prev, _text(said))


@settings(max_examples=80, deadline=None)
@given(idle_s=st.floats(0.0, 4.0), unsent=st.integers(0, 300), gap_s=st.floats(0.02, 2.5),
       first=st.sampled_from(["hello", "heartbeat", "two heartbeats"]))
@example(idle_s=0.0, unsent=1, gap_s=1.0, first="hello")  # "1 frame": the line's singular
def test_whatever_the_timing_the_unsent_tail_is_said_lost_once_and_exactly(
        idle_s: float, unsent: int, gap_s: float, first: str) -> None:
    """However long the old boot was idle, how long after it was last heard the new boot came
    (a silence of up to 2.5 s: the line taken for out) and whether its HELLO came first, after
    a heartbeat, or after the restart was shown (two heartbeats): with ``unsent`` seqs stamped
    past seq 3 and never sent, one "lost" of the old boot, from seq 4 to 3 + unsent, and none
    when it stamped nothing more. Only where the restart was shown before any HELLO and the
    timing rules had said an open range already (busy, or the line out) is that the word."""
    link = Link("loop://", reconnect=False)
    said = _old_boot(link, idle_s)
    at = max([0.95, *_beats(idle_s)]) + gap_s  # the old boot last heard, then the gap
    prev = (OLD, 3 + unsent)
    if first == "hello":
        said += _read(link, [_hello(0.3, prev=prev)], at)
        said += _read(link, [_beat(0.7, NONE, NEW)], at + 0.4)
    elif first == "heartbeat":
        said += _read(link, [_beat(0.3, NONE, NEW)], at)
        said += _read(link, [_hello(0.35, prev=prev)], at + 0.05)
    else:
        said += _read(link, [_beat(0.3, NONE, NEW)], at)
        said += _read(link, [_beat(0.7, NONE, NEW)], at + 0.4)
        said += _read(link, [_hello(0.8, prev=prev)], at + 0.5)
    assert _kinds(said).count("restarted") == 1, _text(said)
    lost = _previous_boot_lost(said)
    opened = [t for t in lost if "(if it sent any" in t or "after a silence" in t]
    if first == "two heartbeats" and opened:
        assert len(lost) == 1 and "from seq 4 of" in lost[0], _text(said)
    elif unsent == 0:
        assert lost == [], _text(said)
    else:
        assert len(lost) == 1, _text(said)
        m = re.search(r"from seq (\d+) of its previous boot on is lost \((\d+) frames?, to seq (\d+)",
                      lost[0])
        assert m is not None and m.groups() == ("4", str(unsent), str(3 + unsent)), lost
