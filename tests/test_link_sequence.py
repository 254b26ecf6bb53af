"""Sequence bookkeeping: in order, duplicates dropped, gaps replayed, losses counted."""

from __future__ import annotations

from tablesense.link.frame import HelloFrame
from tablesense.link.sequence import Sequencer, seq_diff


def hello(seq: int, uptime_us: int) -> HelloFrame:
    return HelloFrame(seq, uptime_us, 16, 0, 0, 0, 0, "0.1.0", "golf")


def test_seq_diff_wraps_at_24_bits() -> None:
    assert seq_diff(0, 0xFFFFFF) == 1
    assert seq_diff(0xFFFFFF, 0) == -1
    assert seq_diff(5, 3) == 2


def test_in_order_frames_pass_and_wrap() -> None:
    s = Sequencer(expected=0xFFFFFE)
    assert [s.accept(q, 0).deliver for q in (0xFFFFFE, 0xFFFFFF, 0, 1)] == [True] * 4
    assert s.expected == 2 and s.stats.delivered == 4


def test_duplicates_are_dropped() -> None:
    s = Sequencer(expected=10)
    s.accept(10, 0)
    s.accept(11, 0)
    assert not s.accept(10, 0).deliver and not s.accept(11, 0).deliver
    assert s.stats.duplicates == 2


def test_a_gap_asks_for_a_replay_once_then_retries_then_gives_up() -> None:
    s = Sequencer(expected=10, retry_s=1.0, max_requests=2)
    v = s.accept(13, now=0.0)
    assert (v.deliver, v.replay_from) == (False, 10) and "expected seq 10, got 13" in v.note
    assert s.accept(14, now=0.5).replay_from is None  # already asked
    assert s.poll(now=1.2).replay_from == 10  # no answer: ask again
    assert "giving up" in s.poll(now=2.5).note
    v = s.accept(15, now=2.6)  # what is still missing is lost: counted, and delivery goes on
    assert v.deliver and "lost 5 frames (seq 10..14)" in v.note
    assert s.stats.lost == 5 and s.expected == 16


def test_the_replay_fills_the_gap_in_order() -> None:
    s = Sequencer(expected=10)
    s.accept(12, 0.0)
    assert [s.accept(q, 0.1).deliver for q in (10, 11, 12, 13)] == [True] * 4
    assert not s.waiting and s.stats.lost == 0 and s.stats.gaps == 1


def test_device_error_during_a_replay_means_the_range_is_gone() -> None:
    s = Sequencer(expected=10)
    s.accept(700, 0.0)
    assert "no longer holds" in s.device_error()
    assert s.accept(701, 0.1).deliver and s.stats.lost == 691


def test_status_frames_reveal_a_gap_at_the_end_of_a_stream() -> None:
    s = Sequencer(expected=10)
    assert s.last_reported(9, 0.0).replay_from is None  # nothing missing
    assert s.last_reported(12, 0.0).replay_from == 10  # frames 10..12 never came


def test_from_now_starts_after_the_hello_and_from_zero_replays_everything() -> None:
    live = Sequencer()
    assert live.hello(hello(41, 5_000_000), 0.0).replay_from is None and live.expected == 42
    everything = Sequencer(expected=0)
    assert everything.hello(hello(41, 5_000_000), 0.0).replay_from == 0
    fresh = Sequencer(expected=0)  # a board that has sent nothing yet reports seq 0xFFFFFF
    assert fresh.hello(hello(0xFFFFFF, 1000), 0.0).replay_from is None


def test_a_rebooted_device_starts_over_from_seq_0() -> None:
    s = Sequencer()
    s.hello(hello(500, 60_000_000), 0.0)
    s.accept(501, 0.0)
    v = s.hello(hello(3, 2_000_000), 1.0)
    assert "restarted" in v.note and v.replay_from == 0 and s.stats.restarts == 1


def test_replay_off_counts_losses_without_asking() -> None:
    s = Sequencer(replay=False, expected=0)
    v = s.accept(3, 0.0)
    assert v.deliver and v.replay_from is None and s.stats.lost == 3
