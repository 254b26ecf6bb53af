"""Device clock -> table seconds and host time.

The table's clock is the device's: ``t = device_us / 1e6`` (seconds since the device
booted). ``DeviceClock`` also keeps the mapping to the host's clocks as metadata:
from each (device uptime, host time of arrival) pair it keeps the smallest offset
seen, i.e. the sample that waited least in buffers, so ``wall(t_us)`` is the host
wall-clock time of a device time, good to the link's latency.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


def table_seconds(t_us: int) -> float:
    """Device microseconds -> the ``t`` of a table event (microsecond precision)."""
    return round(t_us / 1e6, 6)


@dataclass
class DeviceClock:
    offset_mono: float | None = None  # host monotonic - device seconds (minimum seen)
    offset_wall: float | None = None  # host wall clock - device seconds, at the same sample
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

    def as_dict(self) -> dict[str, float | int | None]:
        return {"offset_wall": self.offset_wall, "samples": self.samples, "last_us": self.last_us}
