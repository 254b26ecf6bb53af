"""Sequence bookkeeping: in-order delivery, duplicates dropped, gaps found and replayed.

Pure logic: ``Sequencer.accept(frame, now)`` says what to do with a frame and when to
ask the device for ``!replay <seq>``; the transport does the I/O. Seqs are u24 and
wrap; a seq within half the space behind the next expected one is a duplicate.

While a replay is outstanding, frames ahead of the gap are dropped: the device
re-sends every kept frame from the gap on, so they come again, in order. When the
device answers that the range is gone (ERROR), or after ``max_requests`` requests
without an answer, the missing frames are counted as lost and delivery resumes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from .frame import SEQ_MOD, HelloFrame

HALF = SEQ_MOD // 2


def seq_diff(a: int, b: int) -> int:
    """a - b on the u24 circle, in -2^23 .. 2^23-1."""
    return (a - b + HALF) % SEQ_MOD - HALF


class Verdict(NamedTuple):
    deliver: bool  # hand the frame on
    replay_from: int | None = None  # send "!replay <seq>" now
    note: str = ""  # a status change worth reporting ("gap ...", "lost ...")


@dataclass
class SeqStats:
    delivered: int = 0
    duplicates: int = 0
    gaps: int = 0
    replay_requests: int = 0
    dropped_ahead: int = 0  # frames dropped while waiting for a replay (they come again)
    lost: int = 0  # frames the device could no longer replay
    restarts: int = 0  # the device rebooted (seqs started over)

    def as_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


@dataclass
class Sequencer:
    replay: bool = True
    retry_s: float = 1.0
    max_requests: int = 3
    expected: int | None = None  # seq of the next frame to deliver
    stats: SeqStats = field(default_factory=SeqStats)
    _waiting_since: float | None = None
    _requests: int = 0
    _give_up: bool = False
    _uptime_us: int = -1

    # --- replayable frames ---------------------------------------------------

    def accept(self, seq: int, now: float) -> Verdict:
        """What to do with a replayable frame of ``seq`` arriving at host time ``now``."""
        exp = self.expected
        if exp is None or seq == exp:
            return self._deliver(seq)
        d = seq_diff(seq, exp)
        if d < 0:
            self.stats.duplicates += 1
            return Verdict(False)
        # seq is ahead: frames exp .. seq-1 are missing
        if not self.replay or self._give_up:
            self.stats.lost += d
            note = f"lost {d} frames (seq {exp}..{(seq - 1) % SEQ_MOD}): the device could not replay them"
            if not self.replay:
                note = f"lost {d} frames (seq {exp}..{(seq - 1) % SEQ_MOD}), replay is off"
            self._give_up = False
            self._deliver(seq)
            return Verdict(True, None, note)
        self.stats.dropped_ahead += 1
        return self._request(now, f"gap: expected seq {exp}, got {seq}")

    def _deliver(self, seq: int) -> Verdict:
        self.expected = (seq + 1) % SEQ_MOD
        self.stats.delivered += 1
        self._waiting_since = None
        self._requests = 0
        return Verdict(True)

    def _request(self, now: float, note: str) -> Verdict:
        assert self.expected is not None
        if self._waiting_since is not None and now - self._waiting_since < self.retry_s:
            return Verdict(False)
        if self._requests >= self.max_requests:
            self._give_up = True
            return Verdict(False, None, f"no replay after {self._requests} requests; giving up on the gap")
        if self._waiting_since is None:
            self.stats.gaps += 1
        self._waiting_since = now
        self._requests += 1
        self.stats.replay_requests += 1
        if self._requests > 1:
            note = f"{note} (request {self._requests})"
        return Verdict(False, self.expected, note)

    # --- status frames -------------------------------------------------------

    def last_reported(self, last_seq: int, now: float) -> Verdict:
        """HELLO/HEARTBEAT/PONG say the device's last assigned seq is ``last_seq``."""
        if self.expected is None:
            self.expected = (last_seq + 1) % SEQ_MOD
            return Verdict(False)
        missing = seq_diff(last_seq, self.expected) + 1
        if missing <= 0:
            return Verdict(False)
        if not self.replay or self._give_up:
            return Verdict(False)  # counted as lost when the next frame arrives
        return self._request(now, f"gap: device is at seq {last_seq}, next expected {self.expected}")

    def hello(self, frame: HelloFrame, now: float) -> Verdict:
        """A HELLO: detects a reboot (uptime went back) and resumes from its seq."""
        rebooted = 0 <= frame.uptime_us < self._uptime_us
        self._uptime_us = frame.uptime_us
        if rebooted:
            self.stats.restarts += 1
            self.expected = None
            self._waiting_since, self._requests, self._give_up = None, 0, False
            self.last_reported(0xFFFFFF, now)  # a rebooted device numbers from 0 again
            v = self.last_reported(frame.seq, now)
            return Verdict(v.deliver, v.replay_from, "device restarted: sequence numbers start over")
        return self.last_reported(frame.seq, now)

    def uptime(self, uptime_us: int) -> bool:
        """Track uptime from heartbeats; True if the device rebooted since the last one."""
        rebooted = 0 <= uptime_us < self._uptime_us
        self._uptime_us = uptime_us
        return rebooted

    def device_error(self) -> str:
        """The device answered ERROR while a replay was outstanding: the range is gone."""
        if self._waiting_since is None:
            return ""
        self._waiting_since = None
        self._requests = 0
        self._give_up = True
        return (
            f"the device no longer holds the frames from seq {self.expected} on; "
            "those before the next frame to arrive are lost"
        )

    def poll(self, now: float) -> Verdict:
        """Call now and then: re-requests a replay that got no answer."""
        if self._waiting_since is not None and self.expected is not None:
            return self._request(now, f"gap: still waiting for seq {self.expected}")
        return Verdict(False)

    @property
    def waiting(self) -> bool:
        return self._waiting_since is not None
