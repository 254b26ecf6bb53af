"""Sequence bookkeeping: in-order delivery, duplicates dropped, gaps found, replayed or lost.

Pure logic: the transport hands every replayable frame to ``Sequencer.accept(frame, now)``
and every seq a status frame reports to ``reported(seq, now)``; each returns a ``Step``:
the frames to deliver now (strictly in seq order), the ``!replay <seq>`` requests to
send, and the notes worth telling (``gap``, ``replay``, ``lost``, ``restarted``). Seqs
are u24 and wrap; inside, they are unwrapped to a plain integer line.

The rules (docs/protocol.md, "Gaps and replays"):

- An intact frame ahead of a gap is kept (up to ``buffer`` frames) and delivered once
  everything before it has come or is declared lost; a frame seen before is a duplicate.
- A gap is reported once (``gap``) and asked for from its first missing seq. The device
  re-sends everything it keeps from that seq on, in one ordered stream, so one request
  also covers the later gaps found before its stream begins.
- A request is retried when its replay does not begin, or stops moving, within its
  timeout (``retry_s``, doubling per unanswered request); a replay that is arriving is
  never asked again. A gap the replay stream passes over (lost again on the wire) is
  asked again.
- A gap is given up only when the device cannot replay it: it says so (ERROR 3 "oldest
  kept is M": what is missing before M is lost, and the partial replay from M fills the
  rest), more than ``buffer`` frames arrived after it (the device, which keeps 2048, no
  longer holds it), the device restarted, or ``max_requests`` requests went unanswered on
  a whole line. A request is *unanswered* only if no frame of its replay ever came while
  the device was heard the whole time and the line lost nothing since it was sent; a
  request that met a cut (a new gap, a silence, a reconnect) may never have reached the
  device and is simply asked again, and a replay that has begun proves the device holds
  the gap (its count starts over). Each gap is reported ``lost`` once, with its range.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from .frame import SEQ_MOD
from .hostclock import later_boot, raw_now

HALF = SEQ_MOD // 2
BUFFER = 4096  # frames held ahead of a gap: twice what the firmware keeps (2048)
MAX_RATE = 100_000  # seqs a device can assign per second, generously (the link carries 720/s)
SEQ_SLACK = 4096  # seqs a device may be ahead of what it has sent (its store, 2048, and margin)
SILENT_S = 1.5  # the device sends a status frame at least every second: a longer silence is a cut
BUSY_S = 1.0  # a record this soon before the device was last heard: it was writing when it went quiet


def seq_diff(a: int, b: int) -> int:
    """a - b on the u24 circle, in -2^23 .. 2^23-1."""
    return (a - b + HALF) % SEQ_MOD - HALF


class Sequenced(Protocol):
    @property
    def seq(self) -> int: ...


class Note(NamedTuple):
    kind: str  # gap | replay | lost | restarted | implausible (a claim the device did not confirm)
    text: str
    data: dict[str, Any]


@dataclass
class Step:
    frames: list[Any] = field(default_factory=list)  # deliver these, in this order
    replay: list[int] = field(default_factory=list)  # send "!replay <seq>" for each
    notes: list[Note] = field(default_factory=list)
    ask: bool = False  # ask the device where it is (a status frame to confirm a claim)
    hello: bool = False  # ask the device for a HELLO (an answer that is not this boot's: a new boot?)

    def extend(self, other: Step) -> None:
        self.frames += other.frames
        self.replay += other.replay
        self.notes += other.notes
        self.ask = self.ask or other.ask
        self.hello = self.hello or other.hello


@dataclass
class SeqStats:
    delivered: int = 0
    duplicates: int = 0
    gaps: int = 0
    replay_requests: int = 0
    buffered: int = 0  # frames held ahead of a gap, now
    buffered_max: int = 0  # the most held at once
    lost: int = 0  # frames given up on (the device could not replay them)
    restarts: int = 0  # the device rebooted (seqs started over)

    def as_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


@dataclass(eq=False)
class _Request:
    start: int  # first seq asked for (unwrapped)
    upto: int  # the newest seq known when asked: its replay re-sends at least start..upto
    sent_at: float
    timeout: float
    number: int  # 1 for the first request of its gap, 2 for the retry ...
    progress_at: float = -1.0
    begun: bool = False
    spoiled: bool = False  # the line lost something after it was sent: it may never have arrived

    def quiet_for(self, now: float) -> float:
        return now - max(self.sent_at, self.progress_at)


@dataclass(eq=False)
class _Gap:
    start: int  # first missing seq (unwrapped, inclusive)
    end: int  # last missing seq (inclusive)
    req: _Request | None = None  # the request whose replay should fill it
    tries: int = 0  # requests that covered it
    lost: bool = False
    unanswered: int = 0  # requests that reached a whole line and got no frame of a replay


@dataclass
class Sequencer:
    replay: bool = True
    retry_s: float = 1.0  # first request's timeout; doubles with each retry
    max_requests: int = 3
    expected: int | None = None  # seq of the next frame to deliver (u24)
    buffer: int = BUFFER
    max_rate: float = MAX_RATE
    stats: SeqStats = field(default_factory=SeqStats)

    def __post_init__(self) -> None:
        self._exp: int | None = None if self.expected is None else self.expected
        self._top = -1 if self._exp is None else self._exp - 1  # newest seq known to exist
        self._seen_at: float | None = None  # host time of the last frame believed
        self._records = 0  # replayable frames accepted since the start (or the device's restart)
        self._claim: int | None = None  # a seq a status frame reported beyond the newest, unconfirmed
        # a claim the next status frame contradicted, until one more status frame (or the
        # device's frames reaching it) tells: that one may have been a new boot's (a PONG
        # answering a !ping meant for the old boot), and a restart says the range lost
        self._doubt: int | None = None
        self._heard_at = -1e9  # host time the device was last heard (any frame believed)
        self._record_at = -1e9  # host time the device's last replayable frame came (this boot's)
        self._reopened = False  # the port was reopened since the device was last heard
        self._last_arrival: int | None = None  # seq of the last frame that arrived
        self._buf: dict[int, Any] = {}
        self._gaps: list[_Gap] = []
        self._req: _Request | None = None  # the newest request
        # the device's uptime at the checkpoint a resumed host starts from (``resume``):
        # a first HELLO below it claims a reboot while the host was down
        self._uptime_us = -1
        self._resumed = False  # resumed, and no frame of the device believed since
        # when the checkpoint's boot began and when the checkpoint was taken (hostclock.py)
        self._boot: tuple[float, float] | None = None
        self._went_on = False  # a claim by the boot's start was refuted (``boot_went_on``)
        self._stamped_us = -1  # the latest sensor event logged after the checkpoint, its device time
        # the old boot's first seq not known, at a restart that said nothing of its end: the new
        # boot's HELLO may still tell how far the old boot stamped (``previous_boot``)
        self._tail: int | None = None

    def resume(self, seq: int, uptime_us: int, boot: tuple[float, float] | None = None,
               stamped_us: int = -1) -> None:
        """Start from a saved checkpoint (link/checkpoint.py): ``seq`` is the next frame
        wanted; a first HELLO whose uptime is below ``uptime_us`` claims a reboot while
        the host was down, and so does one that reports fewer frames written than the
        checkpoint had (``behind_resume``), or, ``boot`` given (when the checkpoint's boot
        began and when it was taken, on the host's raw clock: link/hostclock.py), one whose
        boot began later (``later_boot``). ``stamped_us``: the device time of the latest sensor
        event logged after the checkpoint that a frame stamped (-1: none), which the boot going
        on has a frame from ``seq`` on at (``replay_tells``). Before any frame has been seen."""
        self._start(seq)
        self._uptime_us = uptime_us
        self._resumed = True
        self._boot = boot
        self._went_on = False
        self._stamped_us = stamped_us

    def replay_tells(self) -> tuple[int, int] | None:
        """A resumed host, before any frame of the device was believed, whose log holds sensor
        events after the checkpoint: (the checkpoint's seq, the device time of the latest a
        frame stamped). The boot going on replays a frame from that seq on stamped at it or
        later, up to the seq its status frame reports; a board that replays none booted again
        (plausible.py, ``Replayed``). None: nothing to tell by."""
        if not self._resumed or self._stamped_us < 0 or self._exp is None:
            return None
        return self._exp % SEQ_MOD, self._stamped_us

    def later_boot(self, uptime_us: int, now: float) -> bool:
        """A resumed host: a status frame reporting ``uptime_us`` at host time ``now`` is of a
        boot that began after the checkpoint's (hostclock.later_boot), however far its seq
        and uptime have gone: the board rebooted while the host was down (or before it
        saved the reboot's checkpoint). For the first status frames, until one is believed."""
        return (self._boot is not None and not self._went_on
                and later_boot(*self._boot, uptime_us, raw_now(now)))

    def renumbered_by(self, seq: int) -> bool:
        """A status frame after a lapse reports ``seq`` as the last frame written: either no
        record of this boot has been delivered (nothing the numbering could contradict), or
        ``seq`` is behind the last one delivered, which the boot going on has written: a boot
        that numbers from 0 again. A seq at or past it says nothing either way."""
        return self._records == 0 or (self._exp is not None and self._lin(seq) < self._exp - 1)

    def boot_went_on(self) -> None:
        """A status frame refuted a claim by the boot's start: the checkpoint's boot went on, and
        the status frames read with the claim's (a batch that waited in a buffer, each looking
        as if its boot began that much later) claim nothing by it."""
        self._went_on = True

    def old_boot_now_us(self, now: float) -> int:
        """A resumed host: the checkpoint's boot's uptime now, if it is still running (at least
        this; -1 if not known)."""
        if self._boot is None:
            return -1
        return int((raw_now(now) - self._boot[0]) * 1e6)

    def behind_resume(self, seq: int) -> bool:
        """A resumed host, before any frame of the device was believed: a status frame that
        reports ``seq`` as the last frame written, behind the last one delivered before the
        checkpoint (``resume``'s seq - 1). The device's numbering went back: it booted again
        while the host was down, also where its uptime is already past the checkpoint's."""
        return self._resumed and self._exp is not None and self._lin(seq) < self._exp - 1

    # --- positions -------------------------------------------------------------

    def _lin(self, seq: int) -> int:
        assert self._exp is not None
        return self._exp + seq_diff(seq, self._exp % SEQ_MOD)

    def _start(self, first: int) -> None:
        self._exp = first
        self._top = first - 1
        self.expected = first % SEQ_MOD

    @property
    def waiting(self) -> bool:
        """Some frame is missing (a replay is asked for or due)."""
        return any(not g.lost for g in self._gaps)

    @property
    def gaps(self) -> list[tuple[int, int]]:
        """The missing ranges (u24 seqs, inclusive) still hoped for."""
        return [(g.start % SEQ_MOD, g.end % SEQ_MOD) for g in self._gaps if not g.lost]

    def undelivered(self, seq: int) -> bool:
        """A status frame reports ``seq`` as the last frame written before it, and that frame
        (or one before it) has not been delivered: it is still to come, replayed, or so far
        only claimed. The status frame's time is then ahead of frames still to come."""
        return self._exp is not None and self._lin(seq) >= self._exp

    def says_nothing_written(self, seq: int) -> bool:
        """A status frame reporting ``seq`` as the last frame written says nothing was written
        since boot (``0xFFFFFF``) although frames of this boot have arrived: a new boot, unless
        a replay is at ``0xFFFFFF`` after a wrap (``could_be_replaying``)."""
        return seq == SEQ_MOD - 1 and self._records > 0 and self._exp is not None

    def could_be_replaying(self, seq: int) -> bool:
        """``seq`` is at most ``buffer`` behind the newest known: a replay can be there."""
        return self._exp is not None and 0 <= seq_diff(self._top % SEQ_MOD, seq) <= self.buffer

    def is_duplicate(self, seq: int) -> bool:
        if self._exp is None:
            return False
        p = self._lin(seq)
        return p < self._exp or p in self._buf

    def plausible(self, seq: int, now: float) -> str:
        """'' if a frame of ``seq`` (or a status frame reporting it) could be the device's,
        else why not: a seq further ahead of the newest known than the device can have
        assigned since the last frame believed (``max_rate`` per second and ``SEQ_SLACK``)."""
        if self._exp is None or self._seen_at is None:
            return ""
        ahead = self._lin(seq) - self._top
        elapsed = max(0.0, now - self._seen_at)
        limit = SEQ_SLACK + self.max_rate * elapsed
        if ahead <= limit:
            return ""
        return (
            f"seq {seq} is {ahead} ahead of seq {self._top % SEQ_MOD}, more than the device "
            f"can have assigned in {elapsed:.1f} s"
        )

    # --- replayable frames -------------------------------------------------------

    def accept(self, frame: Sequenced, now: float) -> Step:
        """A replayable frame arrived at host time ``now``."""
        out = Step()
        self._seen_at = now
        self._heard(now)
        self._record_at = now
        self._records += 1
        if self._exp is not None and self._lin(frame.seq) >= self._exp:
            self._resumed = False
        if self._exp is None:
            self._start(frame.seq)
        p = self._lin(frame.seq)
        last, self._last_arrival = self._last_arrival, p
        if self._claim is not None and p >= self._claim:
            self._claim = None  # the device's own frames reach it: the claim is moot
        if self._doubt is not None and p >= self._doubt:
            self._doubt = None
        if p < self._exp or p in self._buf:
            self.stats.duplicates += 1
            self._progress(p, now)
            if last is not None and p > last + 1:
                self._passed_over(last + 1, p - 1)
            self._request(now, out)
            return out
        if not self.replay:
            if p > self._exp:
                n = p - self._exp
                self.stats.lost += n
                out.notes.append(_lost_note(self._exp, p - 1, "replay is off"))
            self._exp = p
            self._top = max(self._top, p)
            self._buf[p] = frame
            self._deliver(out)
            return out
        self._progress(p, now)
        if p > self._top:
            if p > self._top + 1:
                self._new_gap(self._top + 1, p - 1, now, f"got {frame.seq}", out)
            self._top = p
        else:
            self._fill(p)
        if last is not None and p > last + 1:
            self._passed_over(last + 1, p - 1)
        self._buf[p] = frame
        self._deliver(out)
        while len(self._buf) > self.buffer and self._first_open() is not None:
            g = self._first_open()
            assert g is not None
            self._give_up(
                g, f"{len(self._buf)} frames arrived after it, more than the device keeps", out
            )
            self._deliver(out)
        self._request(now, out)
        return out

    def _heard(self, now: float) -> None:
        """The device was heard at ``now``: after a silence longer than a heartbeat's, the
        line was out, and a request sent before may have been lost in it."""
        if now - self._heard_at > SILENT_S:
            self._spoil(now)
        self._heard_at = now
        self._reopened = False

    def _spoil(self, now: float) -> None:
        """The line lost something: the requests sent before ``now`` may never have reached
        the device, so their going unanswered says nothing about what it holds. One whose
        replay has not begun is asked again now (from the first seq still missing), not a
        timeout later: the line is back, as what was just heard shows. (A request made in
        the same batch of bytes, at the same ``now``, has not gone out yet.)"""
        for g in self._gaps:
            r = g.req
            if r is None or r.sent_at >= now:
                continue
            r.spoiled = True
            if not r.begun:
                g.req = None

    def _progress(self, p: int, now: float) -> None:
        """A frame of seq p arrived: the replay stream of a request that covers p moves
        (and the device, which answers, holds the gaps it covers: their count starts over)."""
        for r in {id(g.req): g.req for g in self._gaps if g.req is not None}.values():
            if r.start <= p and (r.begun or p <= r.upto):  # its stream has begun, or goes on
                r.begun = True
                r.progress_at = now
                for g in self._gaps:
                    if g.req is r:
                        g.unanswered = 0

    def _fill(self, p: int) -> None:
        for i, g in enumerate(self._gaps):
            if g.start <= p <= g.end:
                if g.start == g.end:
                    del self._gaps[i]
                elif p == g.start:
                    g.start += 1
                elif p == g.end:
                    g.end -= 1
                else:
                    tail = _Gap(p + 1, g.end, g.req, g.tries, g.lost, g.unanswered)
                    g.end = p - 1
                    self._gaps.insert(i + 1, tail)
                return

    def _passed_over(self, a: int, b: int) -> None:
        """The device's stream went from a-1 to b+1: what is missing in a..b was not in it
        (lost on the wire again) and needs asking again, unless a replay still to begin
        will bring it."""
        for g in self._gaps:
            if g.lost or g.end < a or g.start > b or g.req is None:
                continue
            if g.req.begun:
                g.req = None

    def _new_gap(self, a: int, b: int, now: float, why: str, out: Step) -> None:
        self.stats.gaps += 1
        self._spoil(now)  # frames were lost on the line: a request may have been too
        if a == self._exp:
            text = f"gap: expected seq {a % SEQ_MOD}, {why}"
        else:
            text = f"gap: seq {a % SEQ_MOD}..{b % SEQ_MOD} missing, {why}"
        g = _Gap(a, b)
        r = self._req  # a request made in this batch (older ones were just undone) covers it
        if r is not None and not r.begun and r.start <= a and r in self._live_requests():
            g.req, g.tries = r, 1  # the replay asked for, not begun yet, will pass through it
        self._gaps.append(g)
        out.notes.append(Note("gap", text, _range(a, b)))

    def _live_requests(self) -> list[_Request]:
        return [g.req for g in self._gaps if g.req is not None]

    def _first_open(self) -> _Gap | None:
        return next((g for g in self._gaps if not g.lost), None)

    def _give_up(self, g: _Gap, why: str, out: Step) -> None:
        g.lost, g.req = True, None
        n = g.end - g.start + 1
        self.stats.lost += n
        out.notes.append(_lost_note(g.start, g.end, why))

    def _deliver(self, out: Step) -> None:
        assert self._exp is not None
        buf = self._buf
        while True:
            f = buf.pop(self._exp, None)
            if f is not None:
                out.frames.append(f)
                self.stats.delivered += 1
                self._exp += 1
                continue
            if self._gaps and self._gaps[0].lost and self._gaps[0].start <= self._exp:
                self._exp = self._gaps.pop(0).end + 1
                continue
            break
        self.expected = self._exp % SEQ_MOD
        self.stats.buffered = len(buf)
        self.stats.buffered_max = max(self.stats.buffered_max, len(buf))

    def _request(self, now: float, out: Step) -> None:
        """Ask for every gap no request covers; give up the ones asked often enough."""
        needy = [g for g in self._gaps if not g.lost and g.req is None]
        if not needy:
            return
        for g in needy:
            if g.unanswered >= self.max_requests:
                self._give_up(g, f"no replay after {g.unanswered} requests", out)
        self._deliver(out)
        needy = [g for g in needy if not g.lost]
        if not needy:
            return
        start = needy[0].start
        tries = max(g.tries for g in needy)
        unanswered = max(g.unanswered for g in needy)
        r = _Request(start, self._top, now, self.retry_s * 2**unanswered, tries + 1)
        for g in self._gaps:
            if g.lost or g.start < start:
                continue
            if g.req is None:
                g.tries += 1
            g.req = r
        self._req = r
        self.stats.replay_requests += 1
        out.replay.append(start % SEQ_MOD)
        more = f" (request {r.number})" if r.number > 1 else ""
        out.notes.append(
            Note("replay", f"asked the device to replay from seq {start % SEQ_MOD}{more}",
                 {"from": start % SEQ_MOD, "request": r.number})
        )

    # --- status frames -------------------------------------------------------------

    def reported(self, last_seq: int, now: float, pong: bool = False) -> Step:
        """A HELLO, HEARTBEAT or PONG says ``last_seq`` is the last frame written before it.

        A seq beyond the newest known is a *claim*: not believed (no gap, no request) until a
        second status frame confirms it (``ask``: the transport asks the device, whose PONG is
        that second frame). One that reports as far or further confirms it; one that reports
        less confirms up to there, the rest was never the device's (an ``implausible`` note);
        one at or behind the newest, while no replay is under way (status frames report the
        replay's place), refutes it. The device's own frames reaching it make it moot.

        A refuted claim is still doubted until the next status frame: the one that refuted it
        may have been a new boot's (a PONG answering a ``!ping`` meant for the old boot, the
        new boot's HELLO lost), and the claim the old boot's own word. A restart before the
        next HELLO or HEARTBEAT (``pong`` False: its uptime has passed the transport's reboot
        check) says the claimed range lost, by its seqs, as it does a claim not yet confirmed.
        A PONG carries no uptime, so it cannot end the doubt: it may be the new boot's again.
        A HELLO or HEARTBEAT that refutes a claim is this boot's: the claim was never its
        word, and no doubt is left (a restart after it said the never written seqs lost).
        (No HELLO is asked for: one asked at once after a forged status frame, its uptime a
        little ahead, reads as a reboot claim; the device's heartbeat comes within a second.)"""
        out = Step()
        self._seen_at = now
        self._heard(now)
        self._resumed = False
        if not pong:
            self._doubt = None  # a status frame of this boot, by its uptime: the contradiction stands
        if self._exp is None:
            self._start((last_seq + 1) % SEQ_MOD)
            return out
        p = self._lin(last_seq)
        claim = self._claim
        if p <= self._top or not self.replay:
            if claim is not None and not self.waiting:
                self._claim = None
                self._doubt = claim if pong else None  # a HELLO or HEARTBEAT: this boot's word
                out.notes.append(_refuted(claim, p))
            self._request(now, out)  # what a silence just ended left to ask again, if any
            return out  # nothing new (without replay, losses are counted as frames arrive)
        if claim is None:
            self._claim = p
            out.ask = True
            return out
        q = min(p, claim)
        if p < claim and self.waiting:
            # a replay is under way: the device reports its place in the replay, behind the
            # frames it wrote; that says nothing against the claim, which stays (the soak's
            # seed 3: refuted, the frames after the replay's place were lost with no word
            # when the board rebooted before sending them again)
            pass
        elif p < claim:
            out.notes.append(_refuted(claim, p))
            self._claim = None
            self._doubt = claim if pong else None
        else:
            self._claim = p if p > claim else None
        out.ask = p > claim  # what this one claims beyond the first is a claim of its own
        self._new_gap(self._top + 1, q, now, f"the device is at seq {q % SEQ_MOD}", out)
        self._top = q
        self._request(now, out)
        return out

    def restart(self, now: float, uptime_s: float | None = None, previous: int | None = None) -> Step:
        """The device rebooted (the transport decided, see docs/protocol.md): what it had not
        replayed is lost with its store, what is buffered is delivered, and seqs start over.

        ``uptime_s``: the new boot's age by its status frame. When the line was out before
        the old boot ended (the port reopened since the device was last heard, or a silence
        longer than a heartbeat's before the new boot began), what the old boot wrote after
        the last frame known went with its store unseen: that is said lost from there on, an
        open range (the host cannot know how many; none, if the board sensed nothing). So it
        is when the old boot was writing frames when it was last heard (one came within
        ``BUSY_S`` of the end): a silent cut shorter than a heartbeat in a burst, the board
        rebooted before the line came back, cannot be told by its silence from a reboot on
        a whole line (the reboot's own time is in both), and what it wrote in the cut would
        be lost without a word (make test's season, seed 11: 124 events); on a whole line,
        what it had kept but not yet written went with it too.

        ``previous`` (firmware 0.5): the last seq the old boot assigned, as the new boot's
        HELLO says it from the board's RTC memory (its ``prev_seq``, given only when its
        ``prev_tag`` is the old boot's). Then the timing rules above are not needed: what the
        old boot stamped past the last seq known went with its store, and is said lost,
        from there to that seq, however the line was and whenever it last wrote (the season
        soak, seed 3939: a boot heard by its heartbeats, idle for longer than ``BUSY_S`` on
        the host's side, rebooted with three events stamped and not sent); nothing, if it
        stamped no more. Without it, a later HELLO of the new boot may still say it
        (``previous_boot``)."""
        out = Step()
        self._tail = None
        born = now - uptime_s if uptime_s is not None else None
        heard = self._heard_at > -1e9  # this host heard the old boot (else: link/__init__ says it)
        unheard = heard and (self._reopened or (born is not None and born - self._heard_at > SILENT_S))
        busy = heard and self._heard_at - self._record_at <= BUSY_S
        if self._exp is not None:
            claimed = max(c for c in (self._top, self._claim, self._doubt) if c is not None)
            after = claimed + 1
            for g in self._gaps:
                if not g.lost:
                    self._give_up(g, "the device restarted before replaying them", out)
            if claimed > self._top:
                # a status frame reported these, not yet confirmed (a replay was under way, or
                # the status frame after it, which contradicted it, was the new boot's): the
                # device wrote them, and they went with its store
                a, b = self._top + 1, claimed
                self.stats.lost += b - a + 1
                out.notes.append(_lost_note(a, b, "the device restarted before sending them again"))
            self._deliver(out)
            if heard and previous is not None:
                out.notes.extend(self._unsent(after, self._lin(previous)))
            elif unheard or busy:
                out.notes.append(_restarted_unheard(after, self._reopened, unheard))
            elif heard:
                self._tail = after  # nothing said: the new boot's HELLO, when it comes, may tell
        self.stats.restarts += 1
        self._records = 0
        self._record_at = -1e9
        self._resumed = False
        self._boot = None
        self._claim = self._doubt = None
        self._reopened = False
        self._buf.clear()
        self._gaps.clear()
        self._req = None
        self._last_arrival = None
        self._start(0)
        self._seen_at = now
        # the old boot's last seq assigned, by the new boot's HELLO: a resumed host that never
        # heard the old boot says by it what the boot stamped past its checkpoint (link/__init__)
        data = {} if previous is None else {"previous": previous % SEQ_MOD}
        out.notes.append(Note("restarted", "device restarted: sequence numbers start over", data))
        return out

    def previous_boot(self, previous: int) -> Step:
        """The new boot's HELLO came after the restart was shown (its heartbeat confirmed it):
        ``previous`` is the old boot's last seq assigned (its ``prev_seq``, the ``prev_tag``
        the old boot's). What it stamped past the last seq known is said lost, as ``restart``
        says it; once, and only where ``restart`` said nothing of the old boot's end."""
        out = Step()
        after, self._tail = self._tail, None
        if after is not None:
            out.notes.extend(self._unsent(after, after - 1 + seq_diff(previous, (after - 1) % SEQ_MOD)))
        return out

    def _unsent(self, after: int, last: int) -> list[Note]:
        """The old boot stamped seqs ``after``..``last`` (unwrapped) that never came: lost."""
        if last < after:
            return []
        self.stats.lost += last - after + 1
        return [_restarted_unsent(after, last)]

    def link_reset(self) -> None:
        """The port was reopened: a replay asked for on the old connection will not come
        (and its going unanswered says nothing of what the device holds)."""
        self._reopened = True
        for g in self._gaps:
            g.req = None
        self._req = None
        self._last_arrival = None

    def device_error(self, code: int, text: str, now: float) -> Step:
        """An ERROR frame: a refused ``!replay`` tells what the device no longer holds.

        ERROR 2 "not sent yet (next is M)" never shortens a gap nor refutes a claim: the device
        writes every seq the host knows of before it reads the request, so an M at or before
        the newest seq known is not the word of the boot the host reads (a new boot's answer
        to a request meant for the old one, read before anything else of the new boot); a
        HELLO is asked for (``hello``), and the restart it shows says the old boot's gaps lost
        by their seqs. An M past the newest known says nothing the host did not know."""
        out = Step()
        self._heard(now)
        m = re.match(r"replay (\d+): (.*)", text)
        if m is None or self._exp is None or code not in (2, 3):
            return out
        rest = m.group(2)
        if code == 3:
            kept = re.search(r"oldest kept is (\d+)", rest)
            if kept is None:  # "nothing sent yet", or a text this host does not know
                for g in self._gaps:
                    if not g.lost:
                        self._give_up(g, f"the device no longer holds them ({rest})", out)
                self._deliver(out)
                return out
            oldest = self._lin(int(kept.group(1)) % SEQ_MOD)
            self._lose_before(oldest, out)
            if "replaying from" in rest:  # firmware 0.2: the partial replay from M comes now
                r = _Request(oldest, self._top, now, self.retry_s, 1)
                for g in self._gaps:
                    if not g.lost and g.start >= oldest:
                        g.req = r
                self._req = r
            else:
                for g in self._gaps:
                    if not g.lost and g.start >= oldest:
                        g.req = None
                self._request(now, out)
        elif "not sent yet" in rest:
            nxt = re.search(r"next is (\d+)", rest)
            n = self._lin(int(nxt.group(1)) % SEQ_MOD) if nxt is not None else None
            # The device has written every seq this host knows of (a frame, or a seq a status
            # frame reported) before it read the request: its next is past them all. A next at
            # or before the newest known is not this boot's word (a new boot's answer to a
            # request meant for the old one, read before anything else of the new boot, or a
            # corruption): it changes nothing; a gap it seems to shorten stays asked for until
            # the restart, once shown, says it lost by its seqs, or the device replays it. The
            # device is asked for a HELLO, which shows a new boot at once. A next past them
            # all says nothing new.
            newest = max(self._top, self._claim if self._claim is not None else self._top)
            if n is not None and n <= newest:
                out.hello = True
        self._deliver(out)
        self._request(now, out)
        return out

    def _lose_before(self, oldest: int, out: Step) -> None:
        """Everything missing before ``oldest`` is gone from the device: lost, each range once."""
        assert self._exp is not None
        if oldest - 1 > self._top:  # the device's window moved past all we knew of
            self._gaps.append(_Gap(self._top + 1, oldest - 1))
            self.stats.gaps += 1
            self._top = oldest - 1
        gaps: list[_Gap] = []
        for g in self._gaps:
            if g.lost or g.start >= oldest:
                gaps.append(g)
                continue
            if g.end >= oldest:  # the part from oldest on can still come
                gaps.append(_Gap(oldest, g.end, g.req, g.tries))
                g.end = oldest - 1
            self._give_up(g, f"the device no longer holds them (oldest kept is {oldest % SEQ_MOD})", out)
            gaps.append(g)
        self._gaps = sorted(gaps, key=lambda g: g.start)

    def poll(self, now: float) -> Step:
        """Call now and then: a request whose replay did not begin, or stopped, is asked
        again. It counts as unanswered (towards giving its gaps up) only if no frame of its
        replay came although the line was whole: the device heard since it was sent and
        within a heartbeat's time, nothing lost meanwhile."""
        out = Step()
        timed_out = {
            id(r): r for r in self._live_requests() if r.quiet_for(now) > r.timeout
        }
        if not timed_out:
            return out
        whole = now - self._heard_at <= SILENT_S
        for g in self._gaps:
            r = g.req
            if r is not None and id(r) in timed_out:
                if not r.begun and not r.spoiled and whole and self._heard_at > r.sent_at:
                    g.unanswered += 1
                g.req = None
        self._request(now, out)
        return out


def _range(a: int, b: int) -> dict[str, int]:
    return {"from": a % SEQ_MOD, "to": b % SEQ_MOD, "count": b - a + 1}


def _refuted(claim: int, p: int) -> Note:
    text = (f"a status frame said the device was at seq {claim % SEQ_MOD}, but the device did not "
            f"confirm it (it is at seq {p % SEQ_MOD}): not confirmed")
    return Note("implausible", text, {"claimed": claim % SEQ_MOD, "at": p % SEQ_MOD})


def _lost_note(a: int, b: int, why: str) -> Note:
    n = b - a + 1
    return Note("lost", f"lost {n} frames (seq {a % SEQ_MOD}..{b % SEQ_MOD}): {why}", _range(a, b))


def _restarted_unsent(after: int, last: int) -> Note:
    """The old boot stamped seqs ``after``..``last`` and rebooted before sending them (its next
    boot's HELLO says how far it got, from RTC memory): a closed range, said in the words of
    an open one (``_restarted_unheard``), which the pub and the soak's check read."""
    a, b, n = after % SEQ_MOD, last % SEQ_MOD, last - after + 1
    text = (f"the device restarted before sending all it had stamped: what it sent from seq {a} of "
            f"its previous boot on is lost ({n} frame{'s' if n != 1 else ''}, to seq {b}, by its next "
            f"boot's word)")
    return Note("lost", text, {"from": a, "last": b, "count": n, "rebooted": True})


def _restarted_unheard(after: int, reopened: bool, unheard: bool) -> Note:
    """What the old boot wrote after seq ``after`` - 1, the last known, went with it unseen
    (``Sequencer.restart``): an open range."""
    if unheard:
        how = "after its line was reopened" if reopened else "after a silence on its line"
        tail = ""
    else:
        how, tail = "while it was sending frames", " (if it sent any after the last one heard)"
    seq = after % SEQ_MOD
    text = f"the device restarted {how}: what it sent from seq {seq} of its previous boot on is lost{tail}"
    return Note("lost", text, {"from": seq, "rebooted": True})
