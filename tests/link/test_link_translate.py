"""Frames -> table events with the real table profiles (golf, kegle, carom)."""

from __future__ import annotations

from tablesense.link.frame import (
    F_ACTIVE,
    F_LATE,
    CountFrame,
    EventFrame,
    HeartbeatFrame,
    HelloFrame,
    ReadingFrame,
)
from tablesense.link.translate import Translator, table_profile

GOLF = table_profile("golf")  # ch 0 goal A, ch 1 goal B (colour sensors p1/p2), ch 2 motion; quiet 1.5 s
KEGLE = table_profile("kegle")  # ch 0-5 pockets, 6-10 pins, 11-14 cushions, 15 motion; quiet 2 s


def run(tr: Translator, frames: list, end: int | None = None) -> list[dict]:
    """Feed frames, then a heartbeat at device time ``end`` (us), if given."""
    out = []
    for f in frames:
        out += tr.feed(f)
    if end is not None:
        out += tr.feed(HeartbeatFrame(0, end, 0, 0, 0))
    return [e.to_dict() for e in out]


def test_goal_takes_the_ball_from_the_reading_that_follows() -> None:
    tr = Translator(GOLF)
    got = run(
        tr,
        [
            EventFrame(0, 1, F_ACTIVE, 12_003_114),
            ReadingFrame(1, 1, 1, 12_004_000),
            EventFrame(2, 1, 0, 12_020_000),
        ],
        end=12_100_000,
    )
    assert got == [{"t": 12.003114, "type": "goal", "goal": "B", "ball": "p1"}]


def test_goal_without_a_reading_in_50_ms_has_no_ball() -> None:
    tr = Translator(GOLF)
    assert run(tr, [EventFrame(0, 0, F_ACTIVE, 1_000_000), HeartbeatFrame(0, 1_040_000, 0, 0, 0)]) == []
    got = run(tr, [ReadingFrame(1, 0, 2, 1_060_000)], end=1_100_000)  # 60 ms after the edge: too late
    assert got == [{"t": 1.0, "type": "goal", "goal": "A", "ball": None}]
    assert tr.stats.colour_timeouts == 1 and tr.stats.stray_readings == 1


def test_two_goals_200_us_apart_come_out_in_edge_order_even_if_read_in_reverse() -> None:
    tr = Translator(GOLF)
    got = run(
        tr,
        [
            EventFrame(0, 1, F_ACTIVE, 5_000_000),
            EventFrame(1, 0, F_ACTIVE, 5_000_200),
            ReadingFrame(2, 0, 2, 5_001_000),
            ReadingFrame(3, 1, 1, 5_001_100),
        ],
        end=6_000_000,
    )
    assert [(e["goal"], e["ball"], e["t"]) for e in got] == [("B", "p1", 5.0), ("A", "p2", 5.0002)]


def test_events_wait_behind_an_earlier_goal_whose_colour_is_not_read_yet() -> None:
    tr = Translator(KEGLE)
    assert run(tr, [EventFrame(0, 3, F_ACTIVE, 40_100_000), EventFrame(1, 8, F_ACTIVE, 40_100_500)]) == []
    got = run(tr, [ReadingFrame(2, 3, 1, 40_102_000)], end=40_200_000)
    assert got == [
        {"t": 40.1, "type": "pocket", "pocket": 4, "ball": "red"},
        {"t": 40.1005, "type": "pin", "pin": 3, "state": "down"},
    ]


def test_pins_cushions_and_rest_after_the_quiet_time() -> None:
    tr = Translator(KEGLE)
    got = run(
        tr,
        [
            EventFrame(0, 6, F_ACTIVE, 41_000_210),
            EventFrame(1, 6, 0, 41_500_000),
            CountFrame(2, 12, 3, 41_250_000),
            CountFrame(3, 15, 9, 42_000_000),
            HeartbeatFrame(3, 43_000_000, 0, 0, 0),
            HeartbeatFrame(3, 44_000_000, 0, 0, 0),
        ],
        end=45_000_000,
    )
    assert got == [
        {"t": 41.00021, "type": "pin", "pin": 1, "state": "down"},
        {"t": 41.25, "type": "cushion", "cushion": 2, "ball": None},
        {"t": 41.5, "type": "pin", "pin": 1, "state": "up"},
        {"t": 44.0, "type": "rest"},
    ]
    assert run(tr, [HeartbeatFrame(3, 50_000_000, 0, 0, 0)]) == []  # one rest per quiet spell


def test_rest_before_a_later_frame_even_without_heartbeats() -> None:
    tr = Translator(GOLF)
    got = run(tr, [CountFrame(0, 2, 4, 1_000_000), CountFrame(1, 2, 2, 9_000_000)])  # released at 9 s
    assert got == [{"t": 2.5, "type": "rest"}]


def test_late_edges_are_marked_and_counted() -> None:
    tr = Translator(KEGLE)
    got = run(tr, [EventFrame(0, 9, F_ACTIVE | F_LATE, 3_000_000)], end=3_500_000)
    assert got == [{"t": 3.0, "type": "pin", "pin": 4, "state": "down", "late": True}]
    assert tr.stats.late_edges == 1


def test_unknown_channel_is_reported_not_fatal() -> None:
    tr = Translator(GOLF)
    assert run(tr, [EventFrame(0, 12, F_ACTIVE, 1)]) == []
    assert tr.stats.unknown_channels == 1 and "channel 12" in tr.notes[0]


def test_flush_gives_held_goals_without_colour() -> None:
    tr = Translator(GOLF)
    run(tr, [EventFrame(0, 0, F_ACTIVE, 7_000_000)])
    assert [e.to_dict() for e in tr.flush()] == [{"t": 7.0, "type": "goal", "goal": "A", "ball": None}]


def test_frames_a_few_ms_out_of_time_order_still_give_ordered_events() -> None:
    """Within one scan period (20 ms) the firmware may send a later stamp first."""
    tr = Translator(KEGLE)
    got = run(
        tr,
        [
            CountFrame(0, 11, 1, 10_015_000),
            EventFrame(1, 7, F_ACTIVE, 10_004_000),
            CountFrame(2, 13, 1, 10_050_000),
        ],
    )
    assert [e["t"] for e in got] == [10.004, 10.015]  # 10.05 is held: a later frame may still precede it
    assert [e["t"] for e in run(tr, [], end=10_100_000)] == [10.05]
    assert tr.stats.out_of_order == 0


def test_release_until_lets_quiet_events_out_early() -> None:
    tr = Translator(KEGLE)
    assert run(tr, [EventFrame(0, 6, F_ACTIVE, 1_000_000)]) == []
    assert [e.type for e in tr.release_until(1_000_000)] == ["pin"]


def test_goals_stamped_alike_keep_the_order_their_edges_came_in() -> None:
    tr = Translator(GOLF)
    got = run(
        tr,
        [
            EventFrame(0, 1, F_ACTIVE, 2_000_000),
            EventFrame(1, 0, F_ACTIVE, 2_000_000),
            ReadingFrame(2, 0, 2, 2_001_000),
            ReadingFrame(3, 1, 1, 2_001_000),
        ],
        end=3_000_000,
    )
    assert [e["goal"] for e in got] == ["B", "A"]


def test_snapshot_after_lost_frames_tells_the_pins_that_changed() -> None:
    tr = Translator(KEGLE)
    run(
        tr,
        [
            HelloFrame(0xFFFFFF, 1_000, 16, 0, 0, 0, 0, "0.1.0", "kegle"),
            EventFrame(0, 7, F_ACTIVE, 2_000_000),
        ],
    )
    # frames were lost; the HELLO says pin 2 (ch 7) is up again, pin 4 (ch 9) down, pocket 1 (ch 0) active
    levels = 1 << 9 | 1 << 0
    got = [
        e.to_dict() for e in tr.snapshot(HelloFrame(900, 9_000_000, 16, levels, 0, 0, 0, "0.1.0", "kegle"))
    ]
    got += run(tr, [], end=9_100_000)
    assert got == [
        {"t": 2.0, "type": "pin", "pin": 2, "state": "down"},
        {"t": 4.0, "type": "rest"},  # kegle: 2 s without activity
        {"t": 9.0, "type": "pin", "pin": 2, "state": "up", "late": True},
        {"t": 9.0, "type": "pin", "pin": 4, "state": "down", "late": True},
    ]
    assert "pocket_1 is active and its edge was lost" in tr.notes[0]


def test_a_rebooted_device_keeps_table_time_going_and_goals_keep_their_colour() -> None:
    """The board reboots 10 minutes into a match: its clock starts over at 0. Table time must
    not go back, and a goal after the reboot still waits for its colour instead of timing out
    against the old clock."""
    tr = Translator(GOLF)
    before = run(tr, [EventFrame(0, 0, F_ACTIVE, 600_000_000), ReadingFrame(1, 0, 1, 600_002_000)],
                 end=602_000_000)
    assert [(e["type"], e["t"]) for e in before] == [("goal", 600.0), ("rest", 601.5)]
    after = run(
        tr,
        [
            HelloFrame(0xFFFFFF, 300_000, 3, 0, 0, 0, 0, "0.1.0", "golf"),  # the new boot says hello
            EventFrame(0, 1, F_ACTIVE, 1_000_000),
            ReadingFrame(1, 1, 2, 1_002_000),
        ],
        end=3_000_000,
    )
    assert [(e["type"], e.get("goal"), e.get("ball")) for e in after] == [
        ("goal", "B", "p2"),
        ("rest", None, None),
    ]
    assert after[0]["t"] == 603.0  # 602 s reached before the reboot + 1 s into the new boot
    assert tr.stats.restarts == 1 and tr.stats.colour_timeouts == 0
    assert any("restarted" in n for n in tr.notes)


def test_a_heartbeat_ahead_of_frames_behind_the_send_cursor_does_not_end_the_shot() -> None:
    """Firmware 0.2 sends control frames before the kept frames waiting behind its send
    cursor (a replay, a burst at 115200 baud): a heartbeat's uptime can be seconds ahead
    of frames still to come. Its settled time is what moves the clock, so the pin that
    comes after it is part of the same shot, not followed by a rest of its own."""
    kegle = table_profile("kegle")
    pin = next(c for c in kegle.channels if c.kind == "pin")
    tr = Translator(kegle)
    frames = [
        EventFrame(0, pin.ch, F_ACTIVE, 1_000_000),
        HeartbeatFrame(0, 9_000_000, 0, 0, 0, settled_us=1_050_000),  # frames 1.. still to come
        EventFrame(1, pin.ch, 0, 1_100_000),
        HeartbeatFrame(1, 9_500_000, 0, 0, 0, settled_us=9_500_000),
    ]
    got = [e.to_dict()["type"] for f in frames for e in tr.feed(f)]
    assert got == ["pin", "pin", "rest"], got
    # firmware 0.1 (no settled time): the uptime is taken as it is
    tr = Translator(kegle)
    old = [frames[0], HeartbeatFrame(0, 9_000_000, 0, 0, 0), frames[2]]
    assert [e.to_dict()["type"] for f in old for e in tr.feed(f)][:2] == ["pin", "rest"]
