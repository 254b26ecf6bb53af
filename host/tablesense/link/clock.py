"""Device clock -> table seconds and host time.

The table's clock is the device's: ``t = device_us / 1e6`` (seconds since the device
booted). ``DeviceClock`` also keeps the mapping to the host's clocks as metadata:
from each (device uptime, host time of arrival) pair it keeps the smallest offset
seen, i.e. the sample that waited least in buffers, so ``wall(t_us)`` is the host
wall-clock time of a device time, good to the link's latency.

It is also what a device time is checked against (``too_far_ahead``, ``fresh_boot``):
only samples the transport believed go in, so a forged time cannot move the mapping.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .hostclock import LATER_BOOT_S

AHEAD_US = 1_000_000  # a device time may be this far ahead of the host's estimate of it
DRIFT = 1e-3  # and 1 ms more per second since the last sample (a crystal drifts 50 ppm)
BACK_US = 1_000_000  # a record may be stamped this far before the one delivered before it
FRESH_US = 2_000_000  # slack of a reboot claim: uptime <= time since the old boot was heard + this


def table_seconds(t_us: int) -> float:
    """Device microseconds -> the ``t`` of a table event (microsecond precision)."""
    return round(t_us / 1e6, 6)


@dataclass
class DeviceClock:
    offset_mono: float | None = None  # host monotonic - device seconds (minimum seen)
    offset_wall: float | None = None  # host wall clock - device seconds, at the same sample
    offset_at: float = 0.0  # host monotonic time of that sample
    samples: int = 0
    last_us: int = -1
    last_mono: float = 0.0

    def sample(self, device_us: int, mono: float | None = None, wall: float | None = None) -> None:
        mono = time.monotonic() if mono is None else mono
        wall = time.time() if wall is None else wall
        off = mono - device_us / 1e6
        if device_us < self.last_us:  # the device restarted: forget the old mapping
            self.offset_mono = None
        if self.offset_mono is None or off < self.offset_mono:
            self.offset_mono = off
            self.offset_wall = wall - device_us / 1e6
            self.offset_at = mono
        self.last_us = device_us
        self.last_mono = mono
        self.samples += 1

    def wall(self, device_us: int) -> float | None:
        """Host wall-clock seconds (epoch) at device time ``device_us``; None before any sample."""
        return None if self.offset_wall is None else self.offset_wall + device_us / 1e6

    def device_now_us(self, mono: float | None = None) -> int | None:
        """The device time now, estimated from the host's monotonic clock (a lower bound:
        the larger of the best-offset estimate and the last sample plus the time since)."""
        if self.offset_mono is None:
            return None
        mono = time.monotonic() if mono is None else mono
        return max(int((mono - self.offset_mono) * 1e6), self.last_us + int((mono - self.last_mono) * 1e6))

    def too_far_ahead(self, device_us: int, mono: float) -> str:
        """Why ``device_us`` cannot be the device's time at host time ``mono`` ('' if it can):
        later than the estimate of the device's clock now, beyond drift and latency."""
        est = self.device_now_us(mono)
        if est is None:
            return ""
        slack = AHEAD_US + int(DRIFT * max(0.0, mono - self.last_mono) * 1e6)
        if device_us <= est + slack:
            return ""
        return (
            f"device time {device_us / 1e6:.6f} s is {(device_us - est) / 1e6:.3f} s ahead of the "
            f"device's clock ({est / 1e6:.3f} s now)"
        )

    def fresh_boot(self, uptime_us: int, mono: float) -> bool:
        """Could a device that was last heard at ``last_mono`` have booted since and be up
        ``uptime_us`` now?"""
        since = max(0.0, mono - self.last_mono) * (1 + DRIFT)
        return self.samples == 0 or uptime_us <= since * 1e6 + FRESH_US

    def began_later(self, uptime_us: int, mono: float) -> bool:
        """A status frame reporting ``uptime_us``, arrived at host time ``mono``, was written by a
        boot that began more than ``LATER_BOOT_S`` (and drift since the best sample) after the
        one whose status frames were believed: ``offset_mono`` is when that boot began, to
        within the least latency seen (never before its true start), so a frame of that boot
        is not taken for a later one's unless it waited in a buffer longer than the margin
        (``hostclock.later_boot`` is the same test for a host restarted since). The host's
        monotonic clock is never stepped; NTP slews it by 500 ppm at most, within ``DRIFT``."""
        if self.offset_mono is None:
            return False
        began = mono - uptime_us / 1e6
        return began - self.offset_mono > LATER_BOOT_S + DRIFT * max(0.0, mono - self.offset_at)

    def rebase(self) -> None:
        """The device rebooted (confirmed): its clock starts over; forget the old mapping."""
        self.offset_mono = self.offset_wall = None
        self.last_us = -1

    def as_dict(self) -> dict[str, float | int | None]:
        return {"offset_wall": self.offset_wall, "samples": self.samples, "last_us": self.last_us}
