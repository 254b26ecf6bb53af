"""Device microseconds -> table seconds, and the mapping to the host's clocks."""

from __future__ import annotations

from tablesense.link.clock import DeviceClock, table_seconds


def test_table_seconds_keep_microseconds() -> None:
    assert table_seconds(12_003_114) == 12.003114
    assert table_seconds(2**48 - 1) == 281474976.710655


def test_the_least_delayed_sample_sets_the_mapping() -> None:
    c = DeviceClock()
    assert c.wall(1_000_000) is None and c.device_now_us() is None
    c.sample(1_000_000, mono=100.030, wall=1_700_000_000.030)  # 30 ms in buffers
    c.sample(2_000_000, mono=101.005, wall=1_700_000_001.005)  # 5 ms: the better one
    c.sample(3_000_000, mono=102.050, wall=1_700_000_002.050)
    assert abs(c.wall(10_000_000) - 1_700_000_009.005) < 1e-6
    # now: the larger lower bound of (best offset, last sample + time since)
    assert c.device_now_us(mono=103.0) == 3_995_000  # best offset: 103.0 - 99.005 s


def test_a_restarted_device_starts_a_new_mapping() -> None:
    c = DeviceClock()
    c.sample(50_000_000, mono=100.0, wall=1000.0)
    c.sample(1_000_000, mono=200.0, wall=1100.0)
    assert abs(c.wall(2_000_000) - 1101.0) < 1e-6
