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


def test_a_time_beyond_the_device_clock_estimate_is_too_far_ahead() -> None:
    c = DeviceClock()
    assert c.too_far_ahead(2**48 - 1, mono=0.0) == ""  # no sample yet: nothing to judge by
    c.sample(10_000_000, mono=100.0, wall=1000.0)
    assert c.too_far_ahead(10_500_000, mono=100.1) == ""  # latency and drift allowed
    assert "ahead of the device's clock" in c.too_far_ahead(2**48 - 1, mono=100.1)
    assert c.too_far_ahead(12_000_000, mono=100.1)  # 1.9 s ahead after 0.1 s
    assert c.too_far_ahead(12_000_000, mono=101.5) == ""


def test_a_fresh_boot_is_no_longer_up_than_the_time_since_the_device_was_heard() -> None:
    c = DeviceClock()
    c.sample(600_000_000, mono=100.0, wall=1000.0)
    assert c.fresh_boot(1_500_000, mono=100.5)  # rebooted just now
    assert not c.fresh_boot(595_000_000, mono=101.0)  # 5 s back of a 10-minute uptime
    assert c.fresh_boot(60_000_000, mono=200.0)  # the cable was out for 100 s
    c.rebase()
    assert c.offset_mono is None and c.device_now_us(mono=200.0) is None
