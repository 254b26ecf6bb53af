"""Frames -> table events (docs/events.md), using the table profile's channel map.

Pure logic, driven by device time only, so a recorded frame stream always gives the
same events:

- goal / pocket ACTIVE edge: held until the READING of that channel that follows
  (at most ``colour_wait_us``, 50 ms) names the ball; then ``goal``/``pocket`` with
  the edge's time. No reading in time -> ``"ball": null``. Idle edges only count
  as activity.
- pin ACTIVE -> ``{"type": "pin", "state": "down"}``, idle -> ``"up"``.
- cushion COUNT -> ``{"type": "cushion", "ball": null}``.
- motion (COUNT or edge) and every sensor frame above are activity; once the table
  has been quiet for the profile's ``rest_quiet_ms`` after activity -> ``rest`` at
  last activity + quiet time. Device time advances with every frame, heartbeat and
  ``advance(now_us)``.

Events come out in device-time order: an event waits behind an earlier goal whose
colour is not read yet, and every event waits until device time is ``reorder_us``
(the profile's scan period) past it, since frames stamped within one pass of the
firmware's main loop may arrive out of time order. ``release_until`` lets a caller
that knows the device time from the host clock release them sooner when all is quiet.
"""

from __future__ import annotations

import heapq
import os
from dataclasses import dataclass, field
from typing import Any

from ..events import Cushion, Event, Goal, Pin, Pocket, Rest
from ..table.model import COLOUR_WAIT_US
from ..table.profile import Channel, TableProfile, load_profile
from .clock import table_seconds
from .frame import F_ACTIVE, F_LATE, CountFrame, EventFrame, Frame, HeartbeatFrame, HelloFrame, ReadingFrame


def table_profile(profile: TableProfile | str | os.PathLike[str]) -> TableProfile:
    """The profile to translate with: a loaded one, an id (``golf``) or a TOML path."""
    if isinstance(profile, TableProfile):
        return profile
    return load_profile(profile)


@dataclass
class TranslateStats:
    events: int = 0
    late_edges: int = 0
    colour_timeouts: int = 0
    stray_readings: int = 0
    unknown_channels: int = 0
    rests: int = 0
    out_of_order: int = 0  # events that arrived after a later one had been released
    restarts: int = 0  # the device rebooted: its clock started over (``t`` goes on from where it was)

    def as_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


@dataclass
class Translator:
    profile: TableProfile
    colour_wait_us: int = COLOUR_WAIT_US
    reorder_us: int | None = None  # default: the profile's scan period
    stats: TranslateStats = field(default_factory=TranslateStats)
    now_us: int = 0
    notes: list[str] = field(default_factory=list)  # things worth reporting (unknown channel ...)

    def __post_init__(self) -> None:
        self._channels: dict[int, Channel] = {c.ch: c for c in self.profile.channels}
        self._quiet_us = self.profile.rest_quiet_ms * 1000
        self._pending: dict[int, tuple[int, bool, int]] = {}  # colour channel -> (edge t_us, late, order)
        self._heap: list[tuple[int, int, Event]] = []
        self._n = 0
        self._last_activity: int | None = None
        self._levels: dict[int, bool] = {}  # channel -> active, as the frames (or a HELLO) tell
        if self.reorder_us is None:
            self.reorder_us = self.profile.scan_ms * 1000
        self._released_to = -1  # events at or before this device time have been released
        # A device that reboots starts its clock at 0 again: its times are shifted by the
        # device time reached before the reboot, so ``t`` never goes back within a match.
        self._offset_us = 0
        self._seen_us = 0  # the latest device time a frame carried (before the offset)
        self._floor_us = 0  # a reboot's times go on after this too (the log's latest, on resume)

    # --- input ---------------------------------------------------------------

    def feed(self, frame: Frame) -> list[Event]:
        """One frame (in seq order); returns the events that are now complete."""
        if isinstance(frame, (HelloFrame, HeartbeatFrame)):
            self._check_restart(frame.uptime_us)
        if isinstance(frame, (EventFrame, CountFrame, ReadingFrame)):
            self._seen_us = max(self._seen_us, frame.t_us)
            if self._offset_us:
                frame = frame._replace(t_us=frame.t_us + self._offset_us)
            self._tick(frame.t_us)  # a rest that ended before this frame comes first
            if isinstance(frame, EventFrame):
                self._edge(frame)
            elif isinstance(frame, CountFrame):
                self._count(frame)
            else:
                self._reading(frame)
        elif isinstance(frame, HelloFrame):
            # no tick: the HELLO's uptime can be ahead of frames still waiting behind the
            # device's send cursor (firmware 0.2); the heartbeats' settled time moves the clock
            for ch in self._channels:  # a baseline for channels no frame has told about yet
                self._levels.setdefault(ch, bool(frame.levels >> ch & 1))
        elif isinstance(frame, HeartbeatFrame):
            # every frame stamped before settled_us has been sent (firmware 0.2; older: uptime)
            settled = frame.uptime_us if frame.settled_us is None else min(frame.settled_us, frame.uptime_us)
            self._tick(settled + self._offset_us)
        else:
            return []
        return self._release()

    def restarted(self) -> list[Event]:
        """The link says the device rebooted (``restarted``: the frames after it are the new
        boot's), also where the new boot's uptime alone does not show it: it is up longer
        than the old boot had got (a host that was down meanwhile).

        Returns the old boot's events still held (for their colour or the reorder window):
        no frame of the old boot comes any more, and the new boot's times go on after them,
        so they are final. What is left of the old boot is at most its shot's ``rest`` to
        come (``activity_us``): the translator is ``settled``, a place a checkpoint can keep."""
        self._check_restart(-1)
        return self._release(max((t for t, _, _ in self._heap), default=-1))

    def _check_restart(self, uptime_us: int) -> None:
        """A HELLO or heartbeat whose uptime is before a frame already seen: the device
        rebooted. Goals waiting for a colour get none (the reading will not come), and the
        new boot's times continue from the device time reached so far."""
        if uptime_us >= self._seen_us:
            self._seen_us = uptime_us
            return
        uptime_us = max(0, uptime_us)
        self.stats.restarts += 1
        for ch, (t0, late, order) in list(self._pending.items()):
            self._emit_ball_event(self._channels[ch], t0, late, order)
        self._pending.clear()
        self._levels.clear()  # the new boot's HELLO gives the baseline again
        self._offset_us = max(self.now_us, self._floor_us)
        # the table's time has got there: a checkpoint taken at the reboot keeps it (seed 9377)
        self.now_us = self._offset_us
        self._seen_us = uptime_us
        self.notes.append(
            f"the device restarted; its clock starts over, table times go on from "
            f"{self._offset_us / 1e6:.6f} s"
        )

    # --- checkpoints (link/checkpoint.py) ---------------------------------------

    @property
    def quiet(self) -> bool:
        """Nothing held: every frame fed so far has given all its events."""
        return self.settled and self._last_activity is None

    @property
    def settled(self) -> bool:
        """Nothing held but a shot's ``rest`` to come (``activity_us``): no goal waits for
        its colour, no event for the reorder window."""
        return not self._pending and not self._heap

    @property
    def activity_us(self) -> int:
        """The last activity whose ``rest`` is still to come (device time with the offset);
        -1: none."""
        return -1 if self._last_activity is None else self._last_activity

    def clock_state(self) -> tuple[int, int, int]:
        """(raw device time reached, offset, device time with the offset): what a
        checkpoint keeps of the translator's clock."""
        return self._seen_us, self._offset_us, self.now_us

    def restore_clock(self, seen_us: int, offset_us: int, now_us: int, logged_us: int = 0,
                      activity_us: int = -1) -> None:
        """Continue from a checkpoint's clock: times go on where the log had got (also
        across a reboot of the board before it), and a HELLO before ``seen_us`` is a reboot.
        ``logged_us``: the latest time the log holds (events written after the checkpoint,
        before a crash); a reboot's times go on after it as well: the frames replayed up to
        it are gone with the old boot, and the log's times must not go back.
        ``activity_us``: a checkpoint taken at a reboot while a shot rolled: its last
        activity, whose ``rest`` is still to come (-1: the table was quiet)."""
        self._seen_us = seen_us
        self._offset_us = offset_us
        self.now_us = max(now_us, offset_us)  # (a reboot's checkpoint saved before 9377's fix: behind it)
        self._floor_us = logged_us
        self._last_activity = None if activity_us < 0 else activity_us

    def active_at(self, t_us: int) -> None:
        """The log holds a shot's events up to table time ``t_us`` (device time with the
        offset) with no ``rest`` after them, and no frame of it comes again (a board that
        rebooted while the host was down): its rest is still to come, at the quiet time after."""
        self._activity(t_us)

    def rested(self) -> None:
        """The log holds the ``rest`` of the shot ``activity_us`` kept (a host killed after it
        was logged, the board's frames after the checkpoint gone with a reboot): none to come."""
        self._last_activity = None

    def advance(self, now_us: int) -> list[Event]:
        """Device time has reached ``now_us``: emit what can no longer change."""
        self._tick(now_us)
        return self._release()

    def _tick(self, now_us: int) -> None:
        if now_us > self.now_us:
            self.now_us = now_us
        now = self.now_us
        for ch, (t0, late, order) in list(self._pending.items()):
            if now - t0 > self.colour_wait_us:
                del self._pending[ch]
                self.stats.colour_timeouts += 1
                self._emit_ball_event(self._channels[ch], t0, late, order)
        last = self._last_activity
        if last is not None and now - last >= self._quiet_us:
            self._push(last + self._quiet_us, Rest(t=table_seconds(last + self._quiet_us)))
            self.stats.rests += 1
            self._last_activity = None

    def snapshot(self, hello: HelloFrame) -> list[Event]:
        """Resynchronise with a HELLO's levels after frames were lost for good.

        A pin whose level differs from what the frames said fell (or was set up) while
        the frames were lost: it gets its ``pin`` event now, at the HELLO's time, marked
        ``"late": true``. A goal or pocket beam cannot tell which ball it missed: a note.
        """
        self._check_restart(hello.uptime_us)
        now_us = hello.uptime_us + self._offset_us
        self._tick(now_us)
        for ch, c in self._channels.items():
            active = bool(hello.levels >> ch & 1)
            known = self._levels.get(ch)
            self._levels[ch] = active
            if known is None or known == active:
                continue
            if c.kind == "pin":
                state = "down" if active else "up"
                pin = Pin(t=table_seconds(now_us), pin=int(c.index), state=state, extra=_late(True))
                self._push(now_us, pin)
                self._activity(now_us)
            elif c.kind in ("goal", "pocket") and active:
                self.notes.append(f"{c.name} is active and its edge was lost: a ball may have gone unseen")
        return self._release()

    def flush(self) -> list[Event]:
        """The stream ended: emit everything held (goals without a colour get ``null``)."""
        for ch, (t0, late, order) in list(self._pending.items()):
            self._emit_ball_event(self._channels[ch], t0, late, order)
        self._pending.clear()
        out = [e for _, _, e in sorted(self._heap)]
        self._heap.clear()
        self.stats.events += len(out)
        return out

    # --- per frame -----------------------------------------------------------

    def _channel(self, ch: int) -> Channel | None:
        c = self._channels.get(ch)
        if c is None:
            self.stats.unknown_channels += 1
            if self.stats.unknown_channels <= 5:
                self.notes.append(f"frame for channel {ch}, which profile {self.profile.id!r} does not have")
        return c

    def _activity(self, t_us: int) -> None:
        if self._last_activity is None or t_us > self._last_activity:
            self._last_activity = t_us

    def _edge(self, f: EventFrame) -> None:
        c = self._channel(f.channel)
        if c is None:
            return
        late = bool(f.flags & F_LATE)
        if late:
            self.stats.late_edges += 1
        self._activity(f.t_us)
        active = bool(f.flags & F_ACTIVE)
        self._levels[f.channel] = active
        if c.kind in ("goal", "pocket"):
            if not active:
                return
            if c.colour:
                prev = self._pending.pop(c.ch, None)
                if prev is not None:  # a second ball before the first one's colour: no colour for it
                    self.stats.colour_timeouts += 1
                    self._emit_ball_event(c, *prev)
                self._n += 1
                self._pending[c.ch] = (f.t_us, late, self._n)
            else:
                self._emit_ball_event(c, f.t_us, late)
        elif c.kind == "pin":
            state = "down" if active else "up"
            self._push(f.t_us, Pin(t=table_seconds(f.t_us), pin=int(c.index), state=state, extra=_late(late)))

    def _count(self, f: CountFrame) -> None:
        c = self._channel(f.channel)
        if c is None:
            return
        if f.count:
            self._activity(f.t_us)
        if c.kind == "cushion" and f.count:
            self._push(f.t_us, Cushion(t=table_seconds(f.t_us), cushion=int(c.index), ball=None))

    def _reading(self, f: ReadingFrame) -> None:
        c = self._channel(f.channel)
        if c is None:
            return
        pending = self._pending.pop(f.channel, None)
        if pending is None or f.t_us - pending[0] > self.colour_wait_us:
            if pending is not None:
                self._pending[f.channel] = pending  # too late; advance() gives it null
            self.stats.stray_readings += 1
            return
        self._emit_ball_event(c, pending[0], pending[1], pending[2], self.profile.colour_of(f.value))

    def _emit_ball_event(
        self, c: Channel, t_us: int, late: bool, order: int | None = None, ball: str | None = None
    ) -> None:
        t = table_seconds(t_us)
        if c.kind == "goal":
            ev: Event = Goal(t=t, goal=str(c.index), ball=ball, extra=_late(late))
        else:
            ev = Pocket(t=t, pocket=int(c.index), ball=ball, extra=_late(late))
        self._push(t_us, ev, order)

    # --- ordered output ------------------------------------------------------

    def _push(self, t_us: int, ev: Event, order: int | None = None) -> None:
        """Queue ``ev``; equal times keep the order of the frames (``order``: when its edge came)."""
        if order is None:
            self._n += 1
            order = self._n
        if t_us <= self._released_to:
            self.stats.out_of_order += 1
        heapq.heappush(self._heap, (t_us, order, ev))

    def release_until(self, t_us: int) -> list[Event]:
        """Release held events up to device time ``t_us`` (no colour timeout, no rest)."""
        return self._release(t_us)

    def _release(self, limit: int | None = None) -> list[Event]:
        assert self.reorder_us is not None
        limit = max(self.now_us - self.reorder_us, limit if limit is not None else -1)
        for t0, _, _ in self._pending.values():
            limit = min(limit, t0 - 1)
        out: list[Event] = []
        heap = self._heap
        while heap and heap[0][0] <= limit:
            t_us, _, ev = heapq.heappop(heap)
            out.append(ev)
            self._released_to = t_us
        self.stats.events += len(out)
        return out


def _late(late: bool) -> dict[str, Any]:
    """Edges found by the level scan carry ``"late": true``: their time is the scan's."""
    return {"late": True} if late else {}
