"""Is a CRC-valid frame the device's? The checks a frame passes before the link believes it.

A CRC says a frame was not damaged in a way the CRC sees; it does not make its content true
(a corruption the CRC misses, 1 in 65,536 of them, or a device bug). docs/protocol.md,
"Implausible frames", has the rules; this module holds them, as pure logic over the
frames, the host's clock readings (``now``), the ``Sequencer`` and the ``DeviceClock``:

- ``record_doubt``: a replayable frame's seq further ahead than the device can have
  assigned, or its time seconds before the frame delivered before it.
- ``status_seq_doubt``: the same for the seq a HELLO, HEARTBEAT or PONG reports.
- ``runs_ahead`` and ``AheadHold``: a time ahead of the host's estimate of the device's
  clock is held, with every frame after it, until a status frame decides.
- ``claims_reboot``, ``reboot_doubt`` and ``RebootClaim``: an uptime going back (or a HELLO
  that says nothing was written since boot) claims a restart; refused at once if it cannot
  be a fresh boot, else believed once the next status frame follows the new clock rather
  than the old. ``renumbered``: a seq delivered already, again and not flagged REPLAY, makes
  the link ask for a HELLO, which then tells.

The transport (``transport.py``) does the I/O and passes frames through these in order;
what fails is a ``Refusal``: counted, kept, reported, never passed on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .clock import AHEAD_US, BACK_US, DRIFT, DeviceClock
from .frame import F_REPLAY, REPLAYABLE, Frame, HeartbeatFrame, HelloFrame
from .sequence import BUFFER, Sequencer

HOLD_S = 3.0  # a time ahead of the device's clock not confirmed by a status frame within this is refused
REBOOT_WAIT_S = 2.5  # a reboot claim not confirmed by a status frame within this is refused

Status = HelloFrame | HeartbeatFrame


@dataclass(frozen=True)
class Refusal:
    """A CRC-valid frame refused for its content: ``what`` (time, seq, reboot) and why."""

    what: str
    reason: str
    frame: Frame

    def __str__(self) -> str:
        return f"{self.reason} ({type(self.frame).__name__} seq {self.frame.seq})"


def frame_time(f: Frame) -> int:
    """The device time a frame states: a record's stamp, a status frame's uptime (0: none)."""
    return int(getattr(f, "t_us", getattr(f, "uptime_us", 0)))


# --- seq and time of one frame ----------------------------------------------------------


def record_doubt(f: Frame, seq: Sequencer, last_t_us: int, now: float) -> tuple[str, str]:
    """(what, why) a replayable frame cannot be the device's; ('', '') if it can. A duplicate
    is not doubted (the sequencer drops it). ``last_t_us``: the time of the last record
    delivered (-1: none yet)."""
    if seq.is_duplicate(f.seq):
        return "", ""
    why = seq.plausible(f.seq, now)
    if why:
        return "seq", why
    t_us = frame_time(f)
    if last_t_us >= 0 and t_us < last_t_us - BACK_US:
        return "time", (
            f"device time {t_us / 1e6:.6f} s is {(last_t_us - t_us) / 1e6:.3f} s before "
            "the frame delivered before it"
        )
    return "", ""


def status_seq_doubt(f: Frame, seq: Sequencer, now: float) -> str:
    """Why the seq a status frame reports cannot be the device's ('' if it can)."""
    return seq.plausible(f.seq, now)


# --- times ahead of the host's estimate of the device's clock ----------------------------


def runs_ahead(f: Frame, seq: Sequencer, clock: DeviceClock, old_uptime: int, now: float) -> bool:
    """A frame stamped later than the device's clock can be now, by the host's estimate
    (drift and latency allowed): a forged time, or a clock that really jumped (the
    simulator's, playing edges as fast as it can). To be held until a status frame tells."""
    if isinstance(f, REPLAYABLE):
        if seq.is_duplicate(f.seq) or seq.plausible(f.seq, now):
            return False  # a duplicate is dropped, an implausible seq refused, as they are
        t = frame_time(f)
    elif isinstance(f, (HelloFrame, HeartbeatFrame)):
        t = f.uptime_us
        if t < old_uptime or seq.plausible(f.seq, now):
            return False  # a reboot claim, or an implausible seq: decided on their own terms
    else:
        return False
    return bool(clock.too_far_ahead(t, now))


@dataclass
class AheadHold:
    """Frames held because one was stamped ahead of the device's clock (and every frame after
    it, to keep their order), until a status frame confirms or refutes the times held: a
    frame stamped before a status frame was written has a time at most its uptime."""

    frames: list[Frame] = field(default_factory=list)
    since: float = 0.0  # host time the first was held

    def __bool__(self) -> bool:
        return bool(self.frames)

    def add(self, f: Frame, now: float) -> str:
        """Hold ``f``. Returns what to do next: ``settle`` (a status frame came behind held
        frames), ``expire`` (more frames than the host holds), or ''."""
        if not self.frames:
            self.since = now
        self.frames.append(f)
        if isinstance(f, (HelloFrame, HeartbeatFrame)) and len(self.frames) > 1:
            return "settle"
        if len(self.frames) > BUFFER:
            return "expire"
        return ""

    def overdue(self, now: float) -> bool:
        return bool(self.frames) and now - self.since > HOLD_S

    def settle(self) -> tuple[list[tuple[Frame, str]], Frame]:
        """The last frame held is a status frame ``s``, written after the others: none of them
        can be stamped later than its uptime. Returns each of the others with why it is
        refused ('' : released), in order, and ``s`` (to be looked at again on its own)."""
        *queue, s = self.frames
        self.frames = []
        u = frame_time(s)
        out: list[tuple[Frame, str]] = []
        for f in queue:
            t = frame_time(f)
            why = ""
            if t > u:
                why = (
                    f"device time {t / 1e6:.6f} s is after the uptime of the status frame "
                    f"written after it ({u / 1e6:.6f} s)"
                )
            out.append((f, why))
        return out, s

    def expire(self, why: str) -> tuple[Frame, str, list[Frame]]:
        """No status frame confirmed the first frame held: it is refused (with the reason
        returned); the rest are to be looked at again."""
        first, *rest = self.frames
        self.frames = []
        t = frame_time(first)
        return first, f"device time {t / 1e6:.6f} s is ahead of the device's clock and {why}", rest


# --- reboot claims -----------------------------------------------------------------------------

SUSPECT_US = 250_000  # a HELLO this far behind the old clock, asked for after renumbered frames
TIE_US = 200_000  # two clocks nearer than this cannot be told apart by one status frame
UNDECIDED = "?"  # RebootClaim.judge: the clocks cannot tell; the frames after the claim will


def renumbered(f: Frame, seq: Sequencer) -> bool:
    """A record whose seq was delivered already, not flagged REPLAY: a device re-sends frames
    only in a replay, flagged; the same seq again unflagged is another frame under a number
    the host has used (a reboot it did not see, or a corruption). To be checked by a HELLO."""
    return isinstance(f, REPLAYABLE) and seq.is_duplicate(f.seq) and not f.flags & F_REPLAY  # type: ignore[union-attr]


def claims_reboot(
    f: Frame, old_uptime: int, seq: Sequencer, clock: DeviceClock, now: float, suspect: bool = False
) -> bool:
    """A HELLO or HEARTBEAT that says the device booted again: its uptime is below the one
    the device is known to have reached; or a HELLO reporting nothing written since boot
    while frames of this boot have come (``Sequencer.says_nothing_written``: a board reset
    just after boot, its new uptime already past the old one's frames), where no replay can
    be at seq 0xFFFFFF or the HELLO is more than ``SUSPECT_US`` behind the old clock now; or,
    ``suspect`` (renumbered frames came), any HELLO that far behind the old clock."""
    if not isinstance(f, (HelloFrame, HeartbeatFrame)):
        return False
    if f.uptime_us < old_uptime:
        return True
    if isinstance(f, HelloFrame):
        est = clock.device_now_us(now)
        behind = est is not None and f.uptime_us < est - SUSPECT_US
        if seq.says_nothing_written(f.seq) and (behind or not seq.could_be_replaying(f.seq)):
            return True
        if suspect and behind:
            return True
    return False


def reboot_doubt(f: Status, clock: DeviceClock, old_uptime: int, now: float) -> str:
    """Why a reboot claim is refused at once ('' : it could be a fresh boot, to be confirmed):
    the uptime is longer than the time since the device was last heard (plus 2 s)."""
    if clock.fresh_boot(f.uptime_us, now):
        return ""
    return (
        f"uptime went back from {old_uptime / 1e6:.3f} s to "
        f"{f.uptime_us / 1e6:.3f} s, but the device was heard "
        f"{now - clock.last_mono:.1f} s ago: not a fresh boot"
    )


@dataclass
class Doubt:
    """Renumbered frames came (``renumbered``): frames are held until the HELLO asked for
    tells whether the device booted again (they are the new boot's) or not."""

    at: float
    held: list[Frame] = field(default_factory=list)

    def hold(self, f: Frame) -> bool:
        self.held.append(f)
        return len(self.held) > BUFFER

    def overdue(self, now: float) -> bool:
        return now - self.at > REBOOT_WAIT_S


@dataclass
class RebootClaim:
    """A status frame that says the device booted again: frames are held until the next
    status frame confirms the new boot or refutes it (the transport asks for a HELLO at once,
    so that the answer decides within the link's round trip)."""

    frame: Status  # the status frame that claims the new boot
    at: float  # host time it came
    held: list[Frame] = field(default_factory=list)  # frames that came since, undecided
    before: int = 0  # frames at the head of ``held`` that came before the claim (a doubt's)
    undecided: bool = False  # a status frame came that the clocks could not judge

    def hold(self, f: Frame) -> bool:
        """Hold a frame that is not a status frame; True if more are held than the host holds."""
        self.held.append(f)
        return len(self.held) > BUFFER

    def overdue(self, now: float) -> bool:
        return now - self.at > REBOOT_WAIT_S

    def judge(self, f: Status, clock: DeviceClock, old_uptime: int, now: float) -> str:
        """The next status frame ``f``: '' if it confirms the new boot, else why the claim is
        refuted. Two clocks could have written ``f``: the new boot's, now at the claimed
        uptime plus the host time passed, and the old one's, now where the host's estimate
        of the device's clock says (``DeviceClock.device_now_us``). ``f`` confirms the claim
        if it is nearer the new one, goes on from the claimed uptime and is not ahead of it
        by more than the time passed (drift and latency allowed). (Nearer, not "below the
        old uptime": a board that reboots 1.2-1.8 s after booting has its first heartbeat
        at 1 s on both clocks.)"""
        u, u0 = f.uptime_us, self.frame.uptime_us
        passed = max(0.0, now - self.at) * 1e6
        new = u0 + passed
        est = clock.device_now_us(now)
        old = old_uptime if est is None else max(old_uptime, est)
        if u < u0 or u - u0 > passed * (1 + DRIFT) + AHEAD_US:
            if abs(u - old) <= abs(u - new):
                return "the next status frame continues the old clock"
            return "the next status frame does not follow it"
        if abs(old - new) < TIE_US:
            return UNDECIDED  # a claim close to the old clock: the frames after it tell
        if abs(u - old) <= abs(u - new):
            return "the next status frame continues the old clock"
        return ""

    def numbering(self, seq: Sequencer) -> str:
        """When the clocks cannot tell (``UNDECIDED``): the first record held since the claim
        that tells whose numbering goes on: ``new`` (a seq delivered already, not flagged
        REPLAY: the new boot numbers from 0), ``old`` (a seq beyond those delivered, or a
        replay), '' (none yet)."""
        for f in self.held[self.before :]:
            if isinstance(f, REPLAYABLE):
                return "new" if renumbered(f, seq) else "old"
        return ""

    def refusal(self, why: str, old_uptime: int) -> Refusal:
        f = self.frame
        if f.uptime_us < old_uptime:
            what = f"uptime went back from {old_uptime / 1e6:.3f} s to {f.uptime_us / 1e6:.3f} s"
        else:
            what = f"a new boot was claimed at uptime {f.uptime_us / 1e6:.3f} s"
        return Refusal("reboot", f"{what}, but {why}", f)
