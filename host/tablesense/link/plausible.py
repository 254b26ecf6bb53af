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
- ``Replayed``: a resumed host without a boot tag whose log holds sensor events after the
  checkpoint: the frames the board replays from the checkpoint's seq to its first status
  frame's include one stamped at the latest of them, or it booted again while the host was
  down (firmware 0.3: a reboot within a second, its uptime past the log's, tells no other way).
- boot tags (firmware 0.4, ``Gate.tag``): a HELLO or HEARTBEAT saying another tag than the
  boot the host reads claims a new boot whatever its seq and uptime, judged by the next
  status frame's tag alone (``RebootClaim.by_tag``); one saying the boot's own tag is that
  boot going on. Without a tag, the checks above judge.

``Gate`` puts them together: every CRC-valid frame passes it in stream order, and it holds,
refuses or hands each on to a ``Sink`` (the transport, ``transport.py``, which does the I/O,
sequences what is believed and reports): what fails is a ``Refusal``, counted, kept,
reported, never passed on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from .clock import AHEAD_US, BACK_US, DRIFT, DeviceClock
from .frame import (
    F_REPLAY,
    REPLAYABLE,
    SEQ_MOD,
    ErrorFrame,
    EventFrame,
    Frame,
    HeartbeatFrame,
    HelloFrame,
    PongFrame,
)
from .hostclock import LATER_BOOT_S
from .sequence import BUFFER, Sequencer, seq_diff

HOLD_S = 3.0  # a time ahead of the device's clock not confirmed by a status frame within this is refused
REBOOT_WAIT_S = 2.5  # a reboot claim not confirmed by a status frame within this is refused
SETTLE_S = 0.5  # a claim by the boot's start is judged by a status frame this long after it at the soonest
REPLAY_WAIT_S = 5.0  # a resumed host waits this long for the replay that tells a boot going on (``Replayed``)
STAMP_SLACK_US = 2  # a log line's time, in seconds to the microsecond, read back

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
    """An EVENT whose seq was delivered already, not flagged REPLAY: a device re-sends frames
    only in a replay, flagged; the same seq again unflagged is another frame under a number
    the host has used (a reboot it did not see, or a corruption). To be checked by a HELLO.
    A COUNT or READING has no flags (its byte is the count or the value), so it cannot say
    whether it is a replay: one of a seq delivered already is a duplicate, as it looks."""
    return isinstance(f, EventFrame) and seq.is_duplicate(f.seq) and not f.flags & F_REPLAY


def claims_reboot(
    f: Frame, old_uptime: int, seq: Sequencer, clock: DeviceClock, now: float, suspect: bool = False
) -> bool:
    """A HELLO or HEARTBEAT that says the device booted again: its uptime is below the one
    the device is known to have reached; or a HELLO reporting nothing written since boot
    while frames of this boot have come (``Sequencer.says_nothing_written``: a board reset
    just after boot, its new uptime already past the old one's frames), where no replay can
    be at seq 0xFFFFFF or the HELLO is more than ``SUSPECT_US`` behind the old clock now; or,
    ``suspect`` (renumbered frames came), any HELLO that far behind the old clock; or, a host
    resuming from a checkpoint, one reporting fewer frames written than the checkpoint had
    (``Sequencer.behind_resume``)."""
    if not isinstance(f, (HelloFrame, HeartbeatFrame)):
        return False
    if f.uptime_us < old_uptime or seq.behind_resume(f.seq):
        return True
    if isinstance(f, HelloFrame):
        est = clock.device_now_us(now)
        behind = est is not None and f.uptime_us < est - SUSPECT_US
        if seq.says_nothing_written(f.seq) and (behind or not seq.could_be_replaying(f.seq)):
            return True
        if suspect and behind:
            return True
    return False


def began_later(f: Frame, seq: Sequencer, clock: DeviceClock, now: float) -> bool:
    """A host resuming from a checkpoint, before any status frame was believed: a HELLO or
    HEARTBEAT of a boot that began after the checkpoint's, by the host's raw clock
    (``Sequencer.later_boot``, link/hostclock.py), however far its seq and uptime have gone.
    Its frame may have waited in a buffer (a host held up as it starts): the claim is
    judged only by a status frame that comes ``SETTLE_S`` after it."""
    return (isinstance(f, (HelloFrame, HeartbeatFrame)) and not clock.samples
            and seq.later_boot(f.uptime_us, now))


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
class Holding:
    """Frames held since ``at`` until something tells whose they are (``Doubt``, ``Lapse``):
    at most ``BUFFER`` of them, for at most ``REBOOT_WAIT_S``."""

    at: float
    held: list[Frame] = field(default_factory=list)

    def hold(self, f: Frame) -> bool:
        """Hold ``f``; True when more are held than the buffer keeps."""
        self.held.append(f)
        return len(self.held) > BUFFER

    def overdue(self, now: float) -> bool:
        return now - self.at > REBOOT_WAIT_S


class Doubt(Holding):
    """Renumbered frames came (``renumbered``): frames are held until the HELLO asked for
    tells whether the device booted again (they are the new boot's) or not."""


class Lapse(Holding):
    """The line was out (``Gate.arrived``): the board may have booted again meanwhile, its new
    boot past the seq and uptime the host knew, so that neither tells. Frames are held until
    the first status frame, which is judged by when the boot the host had been reading began
    (``DeviceClock.began_later``); a later boot's frames that came before it go with its
    claim."""


@dataclass
class Replayed(Holding):
    """A host resumed from a checkpoint, the board saying no boot tag (firmware 0.3), and the
    log holding sensor events after the checkpoint made from its frames, the latest at device
    time ``stamped_us`` (the checkpoint's offset taken off): those frames have seqs from the
    checkpoint's (``first``) on, and the boot going on wrote them before its first status
    frame, so it replays one stamped at ``stamped_us`` or later among ``first`` .. that frame's
    seq. A board whose frames there are all in and all stamped before it is another boot: it
    booted again while the host was down, also within a second and heard past the log's
    uptime at the seq the old boot had got, where its uptime, seq and start all read as that
    boot going on (test_link_reboot_mid_shot.py under load). Every frame is held from the
    first on (a record before the first status frame too: the new boot's, sent before the
    host asked, is one); the first status frame the usual checks believe is held as well, and
    the replay asked for, until the frames tell (``verdict``), or for at most
    ``REPLAY_WAIT_S`` (then, an ERROR or more frames than the host holds: as before)."""

    first: int = 0
    stamped_us: int = -1
    status: Status | None = None  # the first status frame, believed by the usual checks, held
    before: int = 0  # frames held before it
    seen: set[int] = field(default_factory=set)  # frames first .. its seq in, by their distance from first
    went_on: bool = False  # one of them is stamped at ``stamped_us`` or later

    def span(self) -> int:
        """How many frames ``first`` .. the status frame's seq are (0: it says none since the
        checkpoint; the log's events after it then cannot be that boot's)."""
        assert self.status is not None
        return max(0, seq_diff(self.status.seq, (self.first - 1) % SEQ_MOD))

    def told(self, f: Frame) -> None:
        """Note a record held after the status frame, or before it once it came."""
        if self.status is None or not isinstance(f, REPLAYABLE):
            return
        d = seq_diff(f.seq, self.first)
        if 0 <= d < self.span():
            self.seen.add(d)
            if frame_time(f) >= self.stamped_us - STAMP_SLACK_US:
                self.went_on = True

    def verdict(self) -> str:
        """``old``: the boot going on (a frame there stamped at the log's sensor time or later);
        ``new``: another boot (every frame there in, none at it); '': not yet."""
        if self.went_on:
            return "old"
        return "new" if len(self.seen) >= self.span() else ""

    def overdue(self, now: float) -> bool:
        return now - self.at > REPLAY_WAIT_S


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
    # status frames that come sooner than this after the claim are held, not judged: a claim
    # by the boot's start (``began_later``), whose frame, and those read with it, may have
    # waited in a buffer while the host was held up; one that comes later was read fresh
    settle_s: float = 0.0
    read_at: float | None = None  # a claim after a lapse: when its frame was read (port.Chunk)
    tagged: bool = False  # a claim by a boot tag not the boot's (firmware 0.4): judged by the tag

    def by_tag(self, f: Status, tag: int | None) -> str | None:
        """A claim by its boot tag, judged by the next status frame's (``tag``: the boot the
        host reads): '' confirmed (the claim's tag again, or a third one: a board that booted
        again at once, whose own claim follows), else why the claim is refuted (the old boot's
        tag: the claim's was a corruption); None when the tags cannot judge (not such a claim,
        or ``f`` says no tag: the clocks do)."""
        if not self.tagged or f.boot_tag is None:
            return None
        if f.boot_tag == tag:
            return "the next status frame says the old boot's tag"
        return ""

    def hold(self, f: Frame) -> bool:
        """Hold a frame that is not a status frame; True if more are held than the host holds."""
        self.held.append(f)
        return len(self.held) > BUFFER

    def overdue(self, now: float) -> bool:
        return now - self.at > REBOOT_WAIT_S

    def judge(self, f: Status, clock: DeviceClock, old_uptime: int, now: float,
              at: float | None = None) -> str:
        """The next status frame ``f`` (come at ``now``; ``at``: when the claim's came, if not
        ``self.at``): '' if it confirms the new boot, else why the claim is
        refuted. Two clocks could have written ``f``: the new boot's, now at the claimed
        uptime plus the host time passed, and the old one's, now where the host's estimate
        of the device's clock says (``DeviceClock.device_now_us``). ``f`` confirms the claim
        if it is nearer the new one, goes on from the claimed uptime and is not ahead of it
        by more than the time passed (drift and latency allowed). (Nearer, not "below the
        old uptime": a board that reboots 1.2-1.8 s after booting has its first heartbeat
        at 1 s on both clocks.)"""
        u, u0 = f.uptime_us, self.frame.uptime_us
        passed = max(0.0, now - (self.at if at is None else at)) * 1e6
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
        replay), '' (none yet). A COUNT or READING of a seq delivered already tells nothing
        (it has no REPLAY flag)."""
        for f in self.held[self.before :]:
            if renumbered(f, seq):
                return "new"
            if isinstance(f, EventFrame) or (isinstance(f, REPLAYABLE) and not seq.is_duplicate(f.seq)):
                return "old"
        return ""

    def refusal(self, why: str, old_uptime: int) -> Refusal:
        f = self.frame
        if f.uptime_us < old_uptime:
            what = f"uptime went back from {old_uptime / 1e6:.3f} s to {f.uptime_us / 1e6:.3f} s"
        else:
            what = f"a new boot was claimed at uptime {f.uptime_us / 1e6:.3f} s"
        return Refusal("reboot", f"{what}, but {why}", f)


# --- the gate every frame passes ---------------------------------------------------------------


class Sink(Protocol):
    """What is done with a frame the gate lets through, or refuses. ``out`` is the caller's
    list for this batch (frames, statuses, command lines), passed along untouched."""

    def accept(self, f: Frame, now: float, out: list[Any]) -> None:
        """A replayable frame believed: to be sequenced."""

    def believe(self, f: Status, now: float, out: list[Any]) -> None:
        """A HELLO or HEARTBEAT believed: its clock, counters and seq."""

    def pong(self, f: PongFrame, now: float, out: list[Any]) -> None:
        """A PONG believed: the seq it reports."""

    def other(self, f: Frame, now: float, out: list[Any]) -> None:
        """ERROR, COLOUR: nothing to check."""

    def restart(self, now: float, out: list[Any], uptime_s: float | None = None,
                previous: int | None = None) -> None:
        """A new boot confirmed (``uptime_s``: its age by its status frame): the device's
        clock and seqs start over. ``previous``: the old boot's last seq assigned, as the new
        boot's HELLO says it (firmware 0.5; None: not said, or of another boot)."""

    def previous_boot(self, previous: int, now: float, out: list[Any]) -> None:
        """The new boot's HELLO, after a restart its heartbeat confirmed, says the old boot's
        last seq assigned (firmware 0.5)."""

    def refuse(self, r: Refusal, now: float, out: list[Any]) -> None:
        """An implausible frame: counted, kept and reported, never passed on."""

    def ask(self, line: str, out: list[Any]) -> None:
        """A command to send the device (``!hello``)."""


class Gate:
    """The checks in stream order, with what they hold: frames stamped ahead of the device's
    clock (``AheadHold``), a reboot claimed (``RebootClaim``), renumbered frames awaiting a
    HELLO (``Doubt``), frames after the line was out awaiting a status frame (``Lapse``).
    ``frame()`` for each frame; ``poll()`` now and then for what is overdue. ``last_t_us`` is
    the time of the last record delivered (-1: none), kept by the sink as the sequencer
    delivers."""

    def __init__(self, seq: Sequencer, clock: DeviceClock, sink: Sink) -> None:
        self.seq = seq
        self.clock = clock
        self.sink = sink
        self.last_t_us = -1
        self.ahead = AheadHold()
        self.reboot: RebootClaim | None = None
        self.doubt: Doubt | None = None
        self.lapse: Lapse | None = None
        self.replayed: Replayed | None = None
        self._replay_judged = False  # a resumed host's first frame was looked at (``Replayed``)
        self._arrived_at: float | None = None  # host time bytes last came from the device (read)
        self._reopened = False  # the port was opened again since
        self._lapse_due = False  # the line was out before the bytes being looked at
        self._suspect = False  # the HELLO being looked at answers a doubt
        self.tag: int | None = None  # the boot tag of the boot the host reads (firmware 0.4; None: none said)
        # the old boot's tag after a restart a HEARTBEAT confirmed, until the new boot's first
        # HELLO: it may say how far the old boot stamped (firmware 0.5)
        self.old_tag: int | None = None

    def old_uptime(self) -> int:
        """The uptime the device is known to have reached: its last believed status frame (or,
        a host resuming from a checkpoint, before any, the checkpoint's ``seq._uptime_us``),
        or the time of the last record delivered, if later (a status frame is written after
        every record the host has before it)."""
        status = self.clock.last_us if self.clock.samples else self.seq._uptime_us
        return max(status, self.last_t_us)

    @property
    def holding(self) -> bool:
        """Frames are held after a lapse, or behind a reboot claim: the sequencer has not seen
        them, and a replay it asked for may be among them (its request is not unanswered:
        frames held after every silence made the host give up ranges the board held, "no
        replay after 3 requests", test_link_cuts on a loaded machine)."""
        return self.lapse is not None or self.reboot is not None or self.replayed is not None

    def line_reset(self) -> None:
        """The port was opened again (a cut, a silence the link gave up on)."""
        self._reopened = True

    def arrived(self, at: float) -> None:
        """Bytes came from the device at host time ``at``, when the port's read returned (their
        frames pass ``frame`` next, maybe much later: a host held up, a backlog to look at,
        at 700 frames/s on a loaded machine). After the port was opened again, or nothing for
        more than ``LATER_BOOT_S``, the line was out:
        the first frame after it starts a ``Lapse``. A boot that began more than that after
        the one the host reads, and is past its uptime, is first heard after such a silence
        (the old boot's last frame heard was written before it rebooted, the new boot's
        first one at least the old uptime after its start). Frames looked at again after a
        hold did not arrive now: they start none."""
        last, self._arrived_at = self._arrived_at, at
        if last is not None and (self._reopened or at - last > LATER_BOOT_S):
            self._lapse_due = True
        self._reopened = False

    def frame(self, f: Frame, now: float, out: list[Any], confirmed: bool = False) -> None:
        """One CRC-valid frame, in stream order: held, refused, or handed to the sink."""
        due, self._lapse_due = self._lapse_due, False
        if self.reboot is not None and self._held(f, now, out):
            return
        if self.doubt is not None and self._doubted(f, now, out):
            return
        if not self._replay_judged:
            self._replay_begins(now)
        if self.replayed is not None and self._replayed(f, now, out):
            return
        if (due or self.lapse is not None) and self._lapsed(f, now, out):
            return
        if self.ahead or (not confirmed and runs_ahead(f, self.seq, self.clock, self.old_uptime(), now)):
            self._hold(f, now, out)
            return
        if isinstance(f, REPLAYABLE):
            self._record(f, now, out)
        elif isinstance(f, (HelloFrame, HeartbeatFrame)):
            self._status(f, now, out)
        elif isinstance(f, PongFrame):
            why = status_seq_doubt(f, self.seq, now)
            if why:
                self.sink.refuse(Refusal("seq", why, f), now, out)
            else:
                self.sink.pong(f, now, out)
        else:
            self.sink.other(f, now, out)

    def poll(self, now: float, out: list[Any]) -> None:
        """What no status frame decided in time: a reboot claim refuted, a doubt ended, the
        first frame held ahead refused."""
        if self.reboot is not None and self.reboot.overdue(now):
            self._reboot_refused(f"no status frame confirmed it within {REBOOT_WAIT_S:g} s", now, out)
        if self.doubt is not None and self.doubt.overdue(now):
            self._doubt_ends(now, out)
        if self.lapse is not None and self.lapse.overdue(now):
            self._lapse_ends(now, out)
        if self.replayed is not None and self.replayed.overdue(now):
            self._replayed_ends(now, out)
        if self.ahead.overdue(now):
            self._expire(f"no status frame confirmed it within {HOLD_S:g} s", now, out)

    # --- records and status frames -----------------------------------------------------

    def _record(self, f: Frame, now: float, out: list[Any]) -> None:
        """A replayable frame: refused if its seq or time cannot be the device's, else on to the
        sink (a refused frame counts as not received: the device is asked to replay its seq).
        A seq delivered already, again and not flagged REPLAY, is held until a HELLO tells
        whether the device booted again."""
        if renumbered(f, self.seq):
            self.doubt = Doubt(now, [f])
            self.sink.ask("!hello", out)
            return
        what, why = record_doubt(f, self.seq, self.last_t_us, now)
        if why:
            self.sink.refuse(Refusal(what, why, f), now, out)
            return
        self.sink.accept(f, now, out)

    def _status(self, f: Status, now: float, out: list[Any]) -> None:
        why = status_seq_doubt(f, self.seq, now)
        if why:
            self.sink.refuse(Refusal("seq", why, f), now, out)
            return
        old = self.old_uptime()
        says = self._tag_says(f)
        if says == "new":  # another boot's tag: a new boot, whatever its seq and uptime
            self._claim_by_tag(f, now, out)
            return
        if says == "same":  # the boot's own tag: no new boot, whatever its seq and uptime
            if f.uptime_us < old:
                self.sink.refuse(Refusal("reboot", (
                    f"uptime went back from {old / 1e6:.3f} s to {f.uptime_us / 1e6:.3f} s, but the "
                    f"boot tag is the boot's own ({f.boot_tag:08x}): not a new boot"), f), now, out)
                return
            self._believe(f, now, out)
            return
        claimed = claims_reboot(f, old, self.seq, self.clock, now, self._suspect)  # a new boot?
        later = not claimed and began_later(f, self.seq, self.clock, now)  # or one of a later start?
        if claimed or later:
            why = reboot_doubt(f, self.clock, old, now)
            if why:
                self.sink.refuse(Refusal("reboot", why, f), now, out)
                return
            self.reboot = RebootClaim(f, now, settle_s=SETTLE_S if later else 0.0)
            self.sink.ask("!hello", out)  # its answer confirms the reboot (or not) within a round trip
            return
        self._believe(f, now, out)

    def _believe(self, f: Status, now: float, out: list[Any]) -> None:
        if f.boot_tag is not None:
            self.tag = f.boot_tag
        self.sink.believe(f, now, out)
        if isinstance(f, HelloFrame) and self.old_tag is not None:  # the first HELLO after a restart
            previous = previous_seq(f, self.old_tag)
            self.old_tag = None
            if previous is not None:
                self.sink.previous_boot(previous, now, out)

    # --- boot tags (firmware 0.4) ------------------------------------------------------------

    def _tag_says(self, f: Status) -> str:
        """What ``f``'s boot tag says of the boot the host reads: ``new`` (another boot's),
        ``same`` (its own), '' (``f`` or that boot says none, firmware before 0.4: the seq and
        the clocks judge, as before)."""
        if f.boot_tag is None or self.tag is None:
            return ""
        return "same" if f.boot_tag == self.tag else "new"

    def _claim_by_tag(self, f: Status, now: float, out: list[Any], held: list[Frame] | None = None) -> None:
        """A status frame says another boot's tag: the board booted again, whatever its seq and
        uptime (past all the host knew of the old boot, or not). Frames are held (``held``:
        those a lapse held before it, which go with it) until the next status frame (the
        HELLO asked for now) says a tag that is not the old boot's: one frame's tag could be a
        corruption the CRC missed. Not refused as no fresh boot by its uptime: a tag is never the old
        boot's going on, and a host held up can have heard the old boot late."""
        kept = held or []
        self.reboot = RebootClaim(f, now, held=kept, before=len(kept), tagged=True)
        self.sink.ask("!hello", out)

    # --- device times ahead of the host's estimate --------------------------------------

    def _hold(self, f: Frame, now: float, out: list[Any]) -> None:
        """Hold ``f`` (and every frame after it) until a status frame confirms or refutes the
        times held; a status frame held behind others settles them."""
        then = self.ahead.add(f, now)
        if then == "settle":
            self._settle(now, out)
        elif then == "expire":
            self._expire("more frames came than the host holds", now, out)

    def _settle(self, now: float, out: list[Any]) -> None:
        """Those held frames stamped later than the status frame behind them are refused, the
        others released in order; the status frame itself is looked at again (held alone, it
        waits for the next one)."""
        queue, s = self.ahead.settle()
        for f, why in queue:
            if why:
                self.sink.refuse(Refusal("time", why, f), now, out)
            else:
                self.frame(f, now, out, confirmed=True)
        self.frame(s, now, out)

    def _expire(self, why: str, now: float, out: list[Any]) -> None:
        """No status frame confirmed the first frame held: it is refused, the rest looked at again."""
        first, why, rest = self.ahead.expire(why)
        self.sink.refuse(Refusal("time", why, first), now, out)
        for f in rest:
            self.frame(f, now, out)

    # --- reboot claims --------------------------------------------------------------------

    def _held(self, f: Frame, now: float, out: list[Any]) -> bool:
        """A reboot is claimed: hold frames until a status frame (or, the clocks too close to
        tell, the numbering of the frames after it) decides. True if ``f`` was held or decided
        on; False if it is to be looked at as usual now."""
        claim = self.reboot
        assert claim is not None
        # a claim after a lapse is judged by when the frames came (read), not when looked at:
        # a host that lags behind its port would find each status frame as late as the last
        t, t0 = (now, claim.at) if claim.read_at is None or self._arrived_at is None else \
            (self._arrived_at, claim.read_at)
        settling = t - t0 < claim.settle_s  # too soon to judge a claim by the boot's start
        if isinstance(f, (HelloFrame, HeartbeatFrame)):
            why = claim.by_tag(f, self.tag)
            if why is not None:  # a claim by the boot tag: the next tag said decides
                if why:
                    self._reboot_refused(why, now, out)
                else:
                    self._reboot_confirmed(claim, now, out, f)
                return self.reboot is not None and self._held(f, now, out)
        if claim.undecided or not isinstance(f, (HelloFrame, HeartbeatFrame)) or settling:
            if claim.hold(f):
                self._reboot_refused("too many frames came before a status frame confirmed it", now, out)
            elif claim.undecided:
                self._numbering_decides(claim, now, out)
            return True
        old = self.old_uptime()
        if not self.clock.samples:  # a resumed host: the checkpoint's boot, if still running, is this far on
            old = max(old, self.seq.old_boot_now_us(now))
        why = claim.judge(f, self.clock, old, t, t0)
        if why == UNDECIDED:  # the clocks are too close: the frames after the claim tell
            claim.undecided = True
            claim.hold(f)
            self._numbering_decides(claim, now, out)
            return True
        if not why:
            self._reboot_confirmed(claim, now, out, f)
        else:
            if claim.settle_s:  # a claim by the boot's start, refuted: the checkpoint's boot goes on
                self.seq.boot_went_on()
            self._reboot_refused(why, now, out)
        # a frame held behind the claim claimed a reboot again: ``f`` came after it, and tells
        return self.reboot is not None and self._held(f, now, out)

    def _numbering_decides(self, claim: RebootClaim, now: float, out: list[Any]) -> None:
        which = claim.numbering(self.seq)
        if which == "new":
            self._reboot_confirmed(claim, now, out)
        elif which == "old":
            self._reboot_refused("the frames after it go on with the old boot's numbering", now, out)

    def _reboot_confirmed(self, claim: RebootClaim, now: float, out: list[Any],
                          by: Frame | None = None) -> None:
        """The new boot is believed: seqs and the clock start over, then the frames held. A
        HELLO of it (the claim's, or ``by``, the status frame that confirmed it) that says the
        old boot's tag as the boot before its own (firmware 0.5: RTC memory kept it) tells how
        far the old boot stamped; with none yet, the new boot's first HELLO may tell it later
        (``_believe``)."""
        self.reboot = None
        uptime = getattr(claim.frame, "uptime_us", None)
        f = claim.frame
        hello = f if isinstance(f, HelloFrame) else by if isinstance(by, HelloFrame) else None
        previous = previous_seq(hello, self.tag) if hello is not None else None
        self.sink.restart(now, out, None if uptime is None else uptime / 1e6, previous)
        self.last_t_us = -1
        self.old_tag = self.tag if hello is None else None
        self.tag = claim.frame.boot_tag  # the new boot's (None: it says none)
        self._believe(claim.frame, now, out)
        for f in claim.held:
            self.frame(f, now, out)

    def _reboot_refused(self, why: str, now: float, out: list[Any]) -> None:
        claim = self.reboot
        assert claim is not None
        self.reboot = None
        self.sink.refuse(claim.refusal(why, self.old_uptime()), now, out)
        for held in claim.held:
            self.frame(held, now, out)

    # --- after the line was out ------------------------------------------------------------

    def _lapsed(self, f: Frame, now: float, out: list[Any]) -> bool:
        """The line was out since the device was last heard (a cut, a silence): hold frames
        until the first status frame, and judge it by when the boot the host reads began. One
        of a boot that began later (``DeviceClock.began_later``), whatever its seq and uptime,
        claims a reboot, judged as a resumed host's claim is (by a status frame ``SETTLE_S``
        after it at the soonest: it may have waited in a buffer); the frames held go with it.
        Otherwise they are looked at as usual, then the status frame. True if ``f`` was held
        or decided on. (The season soak, seed 9455: a board rebooted twice within 2.4 s behind
        cuts; the second new boot, past all the host knew of the first, was read as it.)"""
        lapse = self.lapse
        if lapse is None:
            if self.clock.offset_mono is None or self.ahead:  # no boot to judge by; frames held ahead
                return False
            lapse = self.lapse = Lapse(now)
        if not isinstance(f, (HelloFrame, HeartbeatFrame)):
            if lapse.hold(f):
                self._lapse_ends(now, out)
            return True
        self.lapse = None
        says = self._tag_says(f)
        if says == "new" and not status_seq_doubt(f, self.seq, now):  # another boot: the frames held are its
            self._claim_by_tag(f, now, out, lapse.held)
            return True
        if says != "same" and self._began_later(f, lapse.held, now):  # no tag: judged by the boot's start
            self.reboot = RebootClaim(f, now, held=lapse.held, before=len(lapse.held), settle_s=SETTLE_S,
                                      read_at=self._arrived_at)
            self.sink.ask("!hello", out)  # its answer, or the next heartbeat, decides
            return True
        for g in lapse.held:
            self.frame(g, now, out)
        self.frame(f, now, out)
        return True

    def _began_later(self, f: Status, held: list[Frame], now: float) -> bool:
        """``f``, after a lapse, claims a reboot by its boot's start only where its seq cannot be
        the old boot's going on, or nothing of the old boot was delivered (a false claim then
        costs no frame: see ``Sequencer.renumbered_by``; a host lagging seconds behind a
        700 frames/s line on a machine at load 20 had its boot going on confirmed as a new
        one by the clock alone, test_link_cuts), and its seq is plausible,
        its uptime does not claim one already (it is past the old boot's known uptime and the
        records held before it, which were written before it), and it can be a fresh boot."""
        old = max([self.old_uptime()] + [frame_time(g) for g in held if isinstance(g, REPLAYABLE)])
        at = now if self._arrived_at is None else self._arrived_at  # when it came, not when looked at
        return (not status_seq_doubt(f, self.seq, now)
                and self.seq.renumbered_by(f.seq)
                and not claims_reboot(f, old, self.seq, self.clock, now, self._suspect)
                and self.clock.began_later(f.uptime_us, at)
                and not reboot_doubt(f, self.clock, old, now))

    def _lapse_ends(self, now: float, out: list[Any]) -> None:
        """No status frame came in time (or more frames than the host holds): the frames held
        are looked at as usual."""
        lapse, self.lapse = self.lapse, None
        if lapse is not None:
            for g in lapse.held:
                self.frame(g, now, out)

    # --- a resumed host: the frames replayed tell a boot going on (firmware 0.3) -------------

    def _replay_begins(self, now: float) -> None:
        """The first frame of a resumed host: hold frames (``Replayed``) if the log holds a
        sensor event after the checkpoint and no boot tag judges."""
        self._replay_judged = True
        tells = self.seq.replay_tells() if self.tag is None else None
        if tells is not None:
            self.replayed = Replayed(now, first=tells[0], stamped_us=tells[1])

    def _replayed(self, f: Frame, now: float, out: list[Any]) -> bool:
        """Frames are held until the replay tells the boot going on from another (``Replayed``).
        True if ``f`` was held or decided on."""
        r = self.replayed
        assert r is not None
        if r.status is None:
            if isinstance(f, REPLAYABLE):
                if r.hold(f):
                    self._replayed_ends(now, out)
                return True
            if not isinstance(f, (HelloFrame, HeartbeatFrame)):
                return False  # a PONG, an ERROR: as usual
            if not self._would_believe(f, now):  # a reboot claimed (or refused): as before
                self._replayed_ends(now, out)
                self.frame(f, now, out)
                return True
            r.status, r.before, r.at = f, len(r.held), now
            for g in r.held:
                r.told(g)
            if not r.verdict():
                self.sink.ask(f"!replay {r.first}", out)
        elif isinstance(f, ErrorFrame):  # the replay refused (its frames no longer kept): as before
            self._replayed_ends(now, out)
            self.frame(f, now, out)
            return True
        else:
            if r.hold(f):
                self._replayed_ends(now, out)
                return True
            r.told(f)
        which = r.verdict()
        if which == "old":
            self._replayed_ends(now, out)
        elif which == "new":
            self.replayed = None
            assert r.status is not None
            self._reboot_confirmed(RebootClaim(r.status, r.at, held=r.held, before=r.before), now, out)
        return True

    def _would_believe(self, f: Status, now: float) -> bool:
        """``_status`` would believe ``f`` (no boot tag judges: ``Replayed`` runs without one)."""
        return (not status_seq_doubt(f, self.seq, now)
                and not claims_reboot(f, self.old_uptime(), self.seq, self.clock, now, self._suspect)
                and not began_later(f, self.seq, self.clock, now))

    def _replayed_ends(self, now: float, out: list[Any]) -> None:
        """The boot going on, or nothing to tell by: the frames held, the status frame among them,
        are looked at as usual, in the order they came."""
        r, self.replayed = self.replayed, None
        if r is None:
            return
        held = r.held if r.status is None else [*r.held[:r.before], r.status, *r.held[r.before:]]
        for g in held:
            self.frame(g, now, out)

    # --- renumbered frames ------------------------------------------------------------------

    def _doubted(self, f: Frame, now: float, out: list[Any]) -> bool:
        """Renumbered frames came: hold frames until a HELLO. If the HELLO claims a new boot,
        the frames held are the new boot's (they go with the claim); if not, they are looked
        at again, and the renumbered ones refused. True if ``f`` was held or decided on."""
        doubt = self.doubt
        assert doubt is not None
        if not isinstance(f, HelloFrame):
            if doubt.hold(f):
                self._doubt_ends(now, out)
            return True
        self.doubt = None
        self._suspect = True
        try:
            self.frame(f, now, out)
        finally:
            self._suspect = False
        if self.reboot is not None and self.reboot.frame is f:
            self.reboot.held[:0] = doubt.held
            self.reboot.before += len(doubt.held)  # (a lapse's frames held with it came after them)
        else:
            self._release(doubt, now, out)
        return True

    def _doubt_ends(self, now: float, out: list[Any]) -> None:
        doubt, self.doubt = self.doubt, None
        if doubt is not None:
            self._release(doubt, now, out)

    def _release(self, doubt: Doubt, now: float, out: list[Any]) -> None:
        """No new boot: a renumbered frame is refused (a corruption, or a reboot the HELLO did
        not show: said, never dropped as a duplicate without a word); the others go on."""
        for g in doubt.held:
            if renumbered(g, self.seq):
                why = (f"seq {g.seq} came again, not flagged as a replay, and the device's HELLO "
                       "shows no new boot")
                self.sink.refuse(Refusal("seq", why, g), now, out)
            else:
                self.frame(g, now, out)


def previous_seq(f: object, tag: int | None) -> int | None:
    """The last seq the boot of ``tag`` assigned, if ``f`` is a HELLO of the boot after it that
    says so (firmware 0.5: ``prev_tag`` and ``prev_seq``, kept in RTC memory across a reset);
    None otherwise (a HEARTBEAT, a power-on, older firmware, or a boot between the two)."""
    if not isinstance(f, HelloFrame) or tag is None or f.prev_tag != tag or f.boot_tag == tag:
        return None
    return f.prev_seq
