"""Sequence bookkeeping: in order, duplicates dropped, intact frames kept across a gap,
each gap asked for, reported once and, if it must be, lost once with its exact range."""

from __future__ import annotations

from typing import NamedTuple

from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.link.sequence import BUSY_S, Sequencer, Step, seq_diff


class F(NamedTuple):
    seq: int


def feed(s: Sequencer, seqs, now: float = 0.0) -> Step:  # type: ignore[no-untyped-def]
    out = Step()
    for q in seqs:
        out.extend(s.accept(F(q), now))
    return out


def delivered(step: Step) -> list[int]:
    return [f.seq for f in step.frames]


def kinds(step: Step, kind: str) -> list[str]:
    return [n.text for n in step.notes if n.kind == kind]


def test_seq_diff_wraps_at_24_bits() -> None:
    assert seq_diff(0, 0xFFFFFF) == 1
    assert seq_diff(0xFFFFFF, 0) == -1
    assert seq_diff(5, 3) == 2


def test_in_order_frames_pass_and_wrap() -> None:
    s = Sequencer(expected=0xFFFFFE)
    assert delivered(feed(s, (0xFFFFFE, 0xFFFFFF, 0, 1))) == [0xFFFFFE, 0xFFFFFF, 0, 1]
    assert s.expected == 2 and s.stats.delivered == 4


def test_duplicates_are_dropped() -> None:
    s = Sequencer(expected=10)
    feed(s, (10, 11))
    assert delivered(feed(s, (10, 11))) == [] and s.stats.duplicates == 2


def test_one_missing_frame_that_never_comes_is_exactly_one_lost_and_the_ten_after_it_delivered() -> None:
    s = Sequencer(expected=0)
    step = feed(s, range(0, 5))
    step.extend(feed(s, range(6, 16), now=0.1))  # 5 never comes, nor its replay
    assert delivered(step) == list(range(5)) and s.stats.buffered == 10
    assert step.replay == [5] and kinds(step, "gap") == ["gap: expected seq 5, got 6"]
    polls = Step()
    for t in range(1, 20):  # retries back off: 1 s, 2 s, 4 s; the device's heartbeats come
        polls.extend(s.reported(15, float(t)))
        polls.extend(s.poll(float(t)))
    assert polls.replay == [5, 5]
    assert kinds(polls, "lost") == ["lost 1 frames (seq 5..5): no replay after 3 requests"]
    assert delivered(polls) == list(range(6, 16))
    assert s.stats.lost == 1 and s.stats.gaps == 1 and s.stats.replay_requests == 3


def test_a_device_that_is_not_heard_is_asked_again_and_never_given_up() -> None:
    """A cable out: the requests go nowhere, which says nothing about what the board holds."""
    s = Sequencer(expected=0)
    feed(s, [0, 2], now=0.0)
    step = Step()
    for i in range(1, 600):  # a minute of silence, polled every 0.1 s
        step.extend(s.poll(i / 10))
    assert s.stats.lost == 0 and not kinds(step, "lost") and len(step.replay) >= 30
    step = feed(s, [1, 2], now=60.0)  # the cable is back: the next request's replay
    assert delivered(step) == [1, 2] and s.stats.lost == 0


def test_requests_that_meet_cuts_never_give_a_gap_up_however_many() -> None:
    """Each request is lost in a cut (the line drops frames after it, and the request with
    them): asked again every time, never given up while the board may hold the gap."""
    s = Sequencer(expected=0)
    notes = feed(s, [0, 2]).notes
    top, t = 2, 0.0
    for _ in range(30):
        t += 1.2  # the request timed out; frames came meanwhile, but across a new gap
        notes += s.accept(F(top + 2), t).notes + s.poll(t).notes
        top += 2
    assert not [n for n in notes if n.kind == "lost"] and s.stats.lost == 0
    assert s.stats.replay_requests > 10
    step = feed(s, range(1, top + 1), now=t + 0.1)  # one replay gets through at last
    assert s.stats.lost == 0 and not s.waiting and s.expected == top + 1
    assert delivered(step)[-1] == top


def test_a_replay_that_began_starts_its_gap_count_over() -> None:
    """Each replay is cut part way: three, four, ten requests, but each answered, so the
    board holds the rest and nothing is given up."""
    s = Sequencer(expected=0)
    feed(s, [0, 100])
    t, got = 0.0, 1
    while got < 100:
        t += 0.1
        feed(s, range(got, got + 10), now=t)  # ten replayed frames, then the cut
        got += 10
        for _ in range(15):  # 1.5 s of nothing: the replay stopped
            t += 0.1
            s.reported(100, t)
            s.poll(t)
    assert s.stats.lost == 0 and s.stats.replay_requests >= 9 and not s.waiting


def test_a_replay_that_fills_the_gap_delivers_in_order_and_drops_the_copies() -> None:
    s = Sequencer(expected=10)
    step = feed(s, (10, 11, 14, 15))
    step.extend(feed(s, range(12, 17), now=0.2))  # the replay from 12: 14 and 15 come again
    assert delivered(step) == list(range(10, 17))
    assert s.stats.duplicates == 2 and s.stats.lost == 0 and not s.waiting


def test_a_replay_that_is_arriving_is_not_asked_again() -> None:
    """A whole replay takes ~3 s at 115200 baud: while its frames come, no retry."""
    s = Sequencer(expected=0)
    step = feed(s, [0, 2100])
    assert step.replay == [1]
    for i, q in enumerate(range(1, 2100)):
        step.extend(s.accept(F(q), 0.1 + i * 0.0014))  # 720 frames/s: 2.9 s
        step.extend(s.poll(0.1 + i * 0.0014))
    assert step.replay == [1] and delivered(step) == list(range(2101)) and s.stats.lost == 0


def test_range_gone_reports_exactly_the_range_and_takes_the_partial_replay() -> None:
    s = Sequencer(expected=0)
    feed(s, [0, 3000])
    step = s.device_error(3, "replay 1: oldest kept is 953; replaying from it", 0.1)
    gone = "the device no longer holds them (oldest kept is 953)"
    assert kinds(step, "lost") == [f"lost 952 frames (seq 1..952): {gone}"]
    assert step.notes[0].data == {"from": 1, "to": 952, "count": 952}
    step = feed(s, range(953, 3001), now=0.2)
    assert delivered(step) == list(range(953, 3001)) and s.stats.lost == 952
    assert not kinds(step, "lost") and not step.replay


def test_a_one_frame_gap_gone_is_one_lost_not_two() -> None:
    s = Sequencer(expected=0)
    feed(s, [0, 1, 3])
    step = s.device_error(3, "replay 2: oldest kept is 3; replaying from it", 0.1)
    gone = "the device no longer holds them (oldest kept is 3)"
    assert kinds(step, "lost") == [f"lost 1 frames (seq 2..2): {gone}"]
    assert delivered(step) == [3] and s.stats.lost == 1
    assert delivered(feed(s, [3, 4])) == [4]


def test_a_second_gap_after_a_give_up_still_gets_a_request() -> None:
    s = Sequencer(expected=0)
    feed(s, [0, 2])
    for t in range(1, 12):
        s.reported(2, float(t))
        s.poll(float(t))
    assert s.stats.lost == 1
    step = feed(s, [3, 5], now=12.0)
    assert delivered(step) == [3] and step.replay == [4] and kinds(step, "gap")
    assert delivered(feed(s, [4], now=12.1)) == [4, 5] and s.stats.lost == 1


def test_giving_up_is_said_once_per_gap() -> None:
    s = Sequencer(expected=0)
    notes = feed(s, [0, 2]).notes
    for i in range(200):  # frames keep coming, polls every 0.1 s
        t = 0.1 * i
        notes += s.accept(F(3 + i), t).notes + s.poll(t).notes
    assert [n.kind for n in notes].count("lost") == 1
    assert [n.kind for n in notes].count("gap") == 1


def test_several_gaps_each_asked_for_and_each_lost_once() -> None:
    s = Sequencer(expected=0)
    step = feed(s, [0, 2, 3, 6, 7])
    assert kinds(step, "gap") == ["gap: expected seq 1, got 2", "gap: seq 4..5 missing, got 6"]
    assert step.replay == [1]  # the replay from 1 passes through 4..5 as well
    step = feed(s, [1, 2, 3, 7], now=0.1)  # the replay: 4..5 lost again on the wire
    assert delivered(step) == [1, 2, 3] and step.replay == [4]
    step = feed(s, [4, 5], now=0.2)
    assert delivered(step) == [4, 5, 6, 7] and s.stats.lost == 0


def test_a_cut_longer_than_the_device_keeps_is_lost_at_the_buffer_limit() -> None:
    s = Sequencer(expected=0, buffer=100)
    step = feed(s, [0, *range(5, 106)])
    why = "101 frames arrived after it, more than the device keeps"
    assert kinds(step, "lost") == [f"lost 4 frames (seq 1..4): {why}"]
    assert delivered(step) == [0, *range(5, 106)]


def test_status_frames_reveal_a_gap_at_the_end_of_a_stream() -> None:
    s = Sequencer(expected=10)
    assert s.reported(9, 0.0).replay == []  # nothing missing
    first = s.reported(12, 0.0)  # a claim: the device is asked (its PONG confirms it)
    assert first.ask and not first.replay and not first.notes
    step = s.reported(12, 0.01)
    assert step.replay == [10] and kinds(step, "gap") == ["gap: expected seq 10, the device is at seq 12"]


def test_from_now_starts_after_the_hello_and_from_zero_replays_everything() -> None:
    live = Sequencer()
    assert live.reported(41, 0.0).replay == [] and live.expected == 42
    everything = Sequencer(expected=0)
    assert everything.reported(41, 0.0).ask and everything.reported(41, 0.01).replay == [0]
    fresh = Sequencer(expected=0)  # a board that has sent nothing yet reports seq 0xFFFFFF
    assert fresh.reported(0xFFFFFF, 0.0).replay == []


def test_a_restart_loses_what_was_not_replayed_delivers_what_is_held_and_starts_at_0() -> None:
    s = Sequencer(expected=500)
    feed(s, [500, 502])
    step = s.restart(1.0)
    assert delivered(step) == [502] and kinds(step, "lost") and s.stats.restarts == 1
    assert s.reported(3, 1.0).ask and s.reported(3, 1.01).replay == [0]


@settings(max_examples=80, deadline=None)
@given(heard=st.integers(1, 400), burst_s=st.floats(0.0, 30.0), down_s=st.floats(0.0, 5.0),
       boot_s=st.floats(0.05, 3.0), cut=st.sampled_from(["reopened", "silent", "none"]),
       quiet_s=st.sampled_from([0.0, 0.2, 1.2, 3.0]))
def test_a_restart_after_the_line_was_out_says_what_the_old_boot_sent_after_the_last_frame_is_lost(
        heard: int, burst_s: float, down_s: float, boot_s: float, cut: str, quiet_s: float) -> None:
    """A board that wrote on while its line was out (a cable pulled, a port reopened, a
    silence), then lost its power, took those frames with it: the host cannot know how
    many, but says that what came after the last frame it heard is lost. So it does when
    the board was writing frames when it was last heard (``quiet_s``: its status frames
    since its last record), whatever the silence after: a cut in a burst looks, to the
    host, as a reboot on a whole line does. A board heard to its end, quiet, says nothing."""
    s = Sequencer(expected=0)
    feed(s, range(heard), now=burst_s)
    last_heard = burst_s + quiet_s
    if quiet_s:
        s.reported(heard - 1, last_heard)  # a heartbeat: nothing written since
    if cut == "reopened":
        s.link_reset()
        died = last_heard + down_s * 0.1  # the reboot came soon after the port was reopened
    elif cut == "silent":
        died = last_heard + 1.6 + down_s  # not a status frame for longer than a heartbeat's
    else:
        died = last_heard + 0.5  # heard within a heartbeat of its end
    now = died + boot_s + 0.3
    said = kinds(s.restart(now, uptime_s=now - died), "lost")
    busy = quiet_s <= BUSY_S
    if cut == "none" and not busy:
        assert said == []
    else:
        how = {"reopened": "after its line was reopened", "silent": "after a silence on its line",
               "none": "while it was sending frames"}[cut]
        tail = " (if it sent any after the last one heard)" if cut == "none" else ""
        assert said == [f"the device restarted {how}: what it sent from seq {heard} of its previous "
                        f"boot on is lost{tail}"]
    feed(s, [0], now=now)  # the new boot heard, then quiet: rebooted, heard to its end, says nothing
    s.reported(0, now + 1.5)
    assert kinds(s.restart(now + 2.0, uptime_s=0.5), "lost") == []


def test_a_silent_cut_in_a_burst_then_a_reboot_before_the_line_is_back_says_what_went_with_it() -> None:
    """Make test's season, seed 11, kroeg-1: a practice burst at 236 frames/s, its cable cut
    silently for 0.6 s at 32.84 s, the board rebooted at 33.40 s (down 0.465 s), before the
    line was back: the 153 frames it wrote in the cut went with it. The new boot began about
    1.0 s after the last frame heard (less than the 1.5 s that reads as a cut): before, the
    host said nothing, and 124 sensor events were lost without a word."""
    s = Sequencer(expected=0)
    t = 30.0
    for q in range(564):  # the burst, every frame heard up to the cut
        feed(s, [q], now=t)
        t = 30.0 + q / 236
        if q % 236 == 0:
            s.reported(q, t)  # its heartbeats
    born = t + 0.56 + 0.465  # the reboot 0.56 s into the cut, down 0.465 s
    now = born + 0.1  # the new boot's HELLO
    said = kinds(s.restart(now, uptime_s=now - born), "lost")
    assert said == ["the device restarted while it was sending frames: what it sent from seq 564 of its "
                    "previous boot on is lost (if it sent any after the last one heard)"]


def test_a_claim_the_device_does_not_confirm_is_refused_and_asks_for_nothing() -> None:
    """A forged heartbeat says the device is 500 frames ahead; its answer says it is not."""
    s = Sequencer(expected=0)
    feed(s, range(10))
    claim = s.reported(509, 0.1)
    assert claim.ask and not claim.notes and not claim.replay and not s.waiting
    answer = s.reported(9, 0.11)
    assert kinds(answer, "implausible") and "not confirmed" in answer.notes[0].text
    assert not answer.replay and not s.waiting and not s.gaps
    step = feed(s, range(10, 520), now=0.2)  # the device's frames, all delivered, none lost
    assert delivered(step) == list(range(10, 520)) and s.stats.lost == 0 and not step.replay


def test_a_claim_confirmed_in_part_is_a_gap_of_that_part_only() -> None:
    s = Sequencer(expected=0)
    feed(s, range(10))
    assert s.reported(509, 0.1).ask
    step = s.reported(12, 0.11)  # the device is at 12: 10..12 are missing, 13..509 never were
    assert kinds(step, "gap") == ["gap: expected seq 10, the device is at seq 12"] and step.replay == [10]
    assert kinds(step, "implausible") and s.gaps == [(10, 12)]
    assert delivered(feed(s, range(10, 14), now=0.2)) == [10, 11, 12, 13] and not s.waiting


def test_a_claim_during_a_replay_waits_for_a_report_that_can_tell() -> None:
    """While a replay goes out, status frames report its place: no refutation from them."""
    s = Sequencer(expected=0)
    feed(s, [0, 1, 5])  # 2..4 missing, asked for
    assert s.reported(900, 0.1).ask
    assert not kinds(s.reported(2, 0.11), "implausible")  # the replay's place: cannot tell
    feed(s, [2, 3, 4], now=0.2)
    step = s.reported(5, 0.3)  # the replay is done: the device is at 5
    assert kinds(step, "implausible") and not s.waiting and not step.replay


def test_a_claim_the_device_s_frames_reach_is_moot() -> None:
    s = Sequencer(expected=0)
    feed(s, [0])
    assert s.reported(3, 0.1).ask
    step = feed(s, [1, 2, 3], now=0.2)
    assert delivered(step) == [1, 2, 3] and not s.waiting
    assert not kinds(s.reported(3, 0.3), "implausible")


def test_a_seq_far_ahead_of_what_the_device_can_have_assigned_is_implausible() -> None:
    s = Sequencer(expected=0)
    feed(s, [0, 1], now=100.0)
    assert s.plausible(2, 100.1) == "" and s.plausible(50_000, 100.5) == ""
    why = s.plausible(5_000_000, 100.5)
    assert "is 4999999 ahead of seq 1" in why
    assert s.plausible(5_000_000, 200.0) == ""  # 100 s of absence: anything is possible


def test_replay_off_counts_losses_without_asking() -> None:
    s = Sequencer(replay=False, expected=0)
    step = s.accept(F(3), 0.0)
    assert delivered(step) == [3] and step.replay == [] and s.stats.lost == 3


@settings(max_examples=200, deadline=None)
@given(top=st.integers(5, 300), hole=st.tuples(st.integers(1, 300), st.integers(0, 40)),
       past=st.integers(1, 400), ahead=st.integers(1, 400), reboot=st.booleans())
def test_a_claim_during_a_replay_is_not_refuted_by_the_replays_place_past_the_newest(
        top: int, hole: tuple[int, int], past: int, ahead: int, reboot: bool) -> None:
    """A heartbeat reports seq c (true: the device wrote it) while a replay goes out and the
    cable eats its frames; the device's answer reports its place in the replay, past the
    newest frame the host has but behind c. Then the replay's frames arrive, or the device
    reboots first. Every frame up to c is delivered or said lost, none vanishes (before, the
    answer refuted the claim, and a reboot lost the frames after the replay's place with no
    word: the season soak, seed 3, 282 frames of a 458 frames/s practice burst)."""
    start = min(hole[0], top - 1)
    end = min(start + hole[1], top - 1)
    s = Sequencer(expected=0)
    got = delivered(feed(s, [q for q in range(top + 1) if not start <= q <= end]))
    assert s.waiting  # the hole is asked for: a replay goes out
    place, claim = top + past, top + past + ahead
    step = s.reported(claim, 0.1)
    step.extend(s.reported(place, 0.11))  # the device's answer: its place in the replay
    assert not kinds(step, "implausible"), step.notes
    said: list[tuple[int, int]] = []
    if reboot:
        step.extend(s.restart(0.2))
    else:
        step.extend(feed(s, range(start, claim + 1), now=0.2))
    got += delivered(step)
    ranges = [n for n in step.notes if n.kind == "lost" and "to" in n.data]
    said = [(int(n.data["from"]), int(n.data["to"])) for n in ranges]
    lost = {q for a, b in said for q in range(a, b + 1)}
    assert sorted(set(got) | lost) == list(range(claim + 1)), (said, step.notes)
    assert not set(got) & lost and len(got) == len(set(got))
    assert bool(lost) == reboot
    # a reboot while frames came: what it wrote after the newest known went with it (an open range)
    assert [n.data["from"] for n in step.notes if n.kind == "lost" and "to" not in n.data] == (
        [claim + 1] if reboot else [])
