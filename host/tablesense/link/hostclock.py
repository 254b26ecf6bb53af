"""The host's clock a link checkpoint is compared by across a restarted host: when the
board's boot began, so that a restarted host can tell the boot it left from a later one.

A board's boot began at (host time of a status frame) - (the uptime it reports), to within
the link's latency. A checkpoint keeps that time of the boot it was taken in
(``Checkpoint.boot_s``, from the newest status frame before it, and ``at_s``, when it was
taken); a status frame after a restart whose boot began more than ``LATER_BOOT_S`` later
(plus ``DRIFT`` of the time since the checkpoint) is a later boot, whatever its seq and
uptime. The clock is the machine's raw monotonic clock (Linux ``CLOCK_MONOTONIC_RAW``):
one clock for every process since the machine booted, neither stepped nor slewed by NTP, so
a wall clock set while the host was down moves nothing. It is only good on the machine boot
it was read in (``machine_boot``, Linux's boot id): after the machine itself restarted (or
where there is no boot id) the boot's start is not compared, and a restarted host judges by
the board's seq and uptime alone, as before.
"""

from __future__ import annotations

import functools
import time
from pathlib import Path

#: a later boot began at least this long after the checkpoint's (the link's latency, a host
#: held up reading the first status frame after a restart, are well under it)
LATER_BOOT_S = 1.0
#: and this much more per second since the checkpoint: the board's crystal and the host's
#: clock drift apart (50 ppm is a crystal's; this is twenty times that)
DRIFT = 1e-3

_BOOT_ID = Path("/proc/sys/kernel/random/boot_id")


@functools.cache
def machine_boot() -> str:
    """This machine's boot (Linux's random boot id); '' where there is none."""
    try:
        return _BOOT_ID.read_text(encoding="ascii").strip()
    except OSError:
        return ""


def raw_now(mono: float | None = None) -> float:
    """The raw monotonic clock now, in seconds; ``mono``: a ``time.monotonic()`` reading taken
    a moment ago, to be moved onto the raw clock (the link's host times are monotonic)."""
    raw_clock = getattr(time, "CLOCK_MONOTONIC_RAW", None)
    if raw_clock is None:
        return time.monotonic() if mono is None else mono
    raw = time.clock_gettime(raw_clock)
    return raw if mono is None else raw - (time.monotonic() - mono)


def later_boot(boot_s: float, at_s: float, uptime_us: int, now_raw: float) -> bool:
    """A status frame reporting ``uptime_us``, arrived at ``now_raw``, was written by a boot that
    began ``LATER_BOOT_S`` (and drift since ``at_s``) after ``boot_s``: not the boot going on.
    ``boot_s`` is never before the boot's true start (it is a frame's arrival less its
    uptime), so a boot going on is not taken for a later one; a frame that waited in a buffer
    longer than the margin is (its boot looks that much later): the next status frame tells
    (``plausible.RebootClaim.judge``)."""
    began = now_raw - uptime_us / 1e6
    return began - boot_s > LATER_BOOT_S + DRIFT * max(0.0, now_raw - at_s)
