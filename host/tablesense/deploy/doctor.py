"""The installer's live check of a table: what each sensor channel does, on device time.

Pure: ``Doctor.feed(frame)`` takes decoded link frames (HELLO, EVENT, COUNT, READING,
HEARTBEAT); ``report()`` names what is wrong. Rates and durations use the device's
microsecond clock, so the same frames always give the same verdict.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ..link.frame import CountFrame, EventFrame, Frame, HeartbeatFrame, HelloFrame, ReadingFrame
from ..table.profile import Channel, TableProfile
from .hello import describe

#: A channel ACTIVE this long is stuck (a blocked beam, a shorted switch, a pin left down).
STUCK_S = 5.0
#: More edges than this in one second on an edge channel is noise (a flickering beam, a bad contact).
NOISY_EDGES_PER_S = 10
#: More pulses than this in one second on a pulse counter is noise (threshold too low, ringing).
NOISY_PULSES_PER_S = 100
#: A channel is drawn lit this long after it fired.
LIT_S = 0.5


@dataclass
class ChannelWatch:
    channel: Channel
    active: bool = False
    active_since_us: int | None = None
    edges: int = 0  # ACTIVE edges (EVENT frames with level 1)
    pulses: int = 0
    late: int = 0
    colours: dict[str, int] = field(default_factory=dict)
    last_fired_us: int | None = None
    max_rate: int = 0  # most edges or pulses in any one-second window
    window: deque[tuple[int, int]] = field(default_factory=deque)  # (t_us, n)

    @property
    def fired(self) -> bool:
        return self.edges > 0 or self.pulses > 0

    def _count(self, t_us: int, n: int) -> None:
        self.window.append((t_us, n))
        while self.window and self.window[0][0] <= t_us - 1_000_000:
            self.window.popleft()
        self.max_rate = max(self.max_rate, sum(k for _, k in self.window))


@dataclass(frozen=True)
class Finding:
    ch: int
    name: str
    problem: str  # "stuck", "noisy", "silent"
    text: str


class Doctor:
    def __init__(self, profile: TableProfile, stuck_s: float = STUCK_S,
                 noisy_edges: int = NOISY_EDGES_PER_S, noisy_pulses: int = NOISY_PULSES_PER_S) -> None:
        self.profile = profile
        self.stuck_us = int(stuck_s * 1e6)
        self.noisy_edges = noisy_edges
        self.noisy_pulses = noisy_pulses
        self.watch = {c.ch: ChannelWatch(c) for c in sorted(profile.channels, key=lambda c: c.ch)}
        self.now_us = 0
        self.hello: HelloFrame | None = None
        self.counters = {"ring_overflows": 0, "sched_drops": 0, "late": 0}
        self.unknown_channels: set[int] = set()
        self.text_lines = 0  # text the board wrote between frames (StreamDecoder.text_lines) ...
        self.last_text = ""  # ... and its last line

    def feed(self, f: Frame) -> str | None:
        """Apply one frame; a line for the installer when a channel did something."""
        if isinstance(f, HelloFrame):
            self.hello = f
            self.now_us = max(self.now_us, f.uptime_us)
            for ch, w in self.watch.items():
                on = bool(f.levels >> ch & 1) and w.channel.mode != "pcnt"
                if on and not w.active:
                    w.active, w.active_since_us = True, f.uptime_us
                elif not on:
                    w.active, w.active_since_us = False, None
            self.counters = {"ring_overflows": f.ring_overflows, "sched_drops": f.sched_drops, "late": f.late}
            return None
        if isinstance(f, HeartbeatFrame):
            self.now_us = max(self.now_us, f.uptime_us)
            self.counters = {"ring_overflows": f.ring_overflows, "sched_drops": f.sched_drops, "late": f.late}
            return None
        if not isinstance(f, EventFrame | CountFrame | ReadingFrame):
            return None
        self.now_us = max(self.now_us, f.t_us)
        w = self.watch.get(f.channel)
        if w is None:
            self.unknown_channels.add(f.channel)
            return f"channel {f.channel}: not in profile {self.profile.id}"
        name = f"ch {f.channel:2} {w.channel.name}"
        if isinstance(f, EventFrame):
            late = " (late: found by the level scan)" if f.late else ""
            w.late += 1 if f.late else 0
            if f.active:
                w.edges += 1
                w.last_fired_us = f.t_us
                w._count(f.t_us, 1)
                if not w.active:
                    w.active, w.active_since_us = True, f.t_us
                return f"{name}: ACTIVE{late}"
            w.active, w.active_since_us = False, None
            return f"{name}: idle{late}"
        if isinstance(f, CountFrame):
            if f.count:
                w.pulses += f.count
                w.last_fired_us = f.t_us
                w._count(f.t_us, f.count)
                return f"{name}: {f.count} pulses"
            return None
        colour = self.profile.colour_of(f.value) or "unknown"
        w.colours[colour] = w.colours.get(colour, 0) + 1
        return f"{name}: colour {colour}"

    def board(self) -> str:
        """The board as its HELLO describes it: firmware, MicroPython and chip, profile, channels."""
        return describe(self.hello) if self.hello else "no HELLO from the board yet"

    def text(self, lines: int, last: str) -> None:
        """What the link's decoder counted of text between frames (the boot ROM's, ESP-IDF's)."""
        self.text_lines, self.last_text = lines, last

    def restart(self) -> str:
        """How this boot of the board began, from its HELLO (firmware 0.3): the reset cause,
        and the crash or watchdog reset that ended the boot before; "" when not known."""
        h = self.hello
        if h is None or h.reset_cause is None:
            return ""
        line = f"started by a {h.reset_text}" if h.reset_cause else "reset cause unknown"
        if h.crash:
            line += f"; it restarted by itself: {h.crash} (the whole traceback: mpremote fs cat :/crash.txt)"
        return line

    def lit(self, ch: int) -> bool:
        w = self.watch[ch]
        recent = w.last_fired_us is not None and self.now_us - w.last_fired_us <= LIT_S * 1e6
        return w.active or recent

    def findings(self) -> list[Finding]:
        out: list[Finding] = []
        for ch, w in self.watch.items():
            c = w.channel
            where = f"{c.name} (GPIO{c.gpio})"
            since = w.active_since_us
            if w.active and since is not None and self.now_us - since >= self.stuck_us:
                secs = (self.now_us - since) / 1e6
                text = f"{where} stuck ACTIVE for {secs:.1f} s: {_stuck_hint(c)}"
                out.append(Finding(ch, c.name, "stuck", text))
            limit = self.noisy_pulses if c.mode == "pcnt" else self.noisy_edges
            if w.max_rate > limit:
                unit = "pulses" if c.mode == "pcnt" else "edges"
                text = f"{where} noisy: {w.max_rate} {unit} in one second (limit {limit}): {_noisy_hint(c)}"
                out.append(Finding(ch, c.name, "noisy", text))
        for ch, w in self.watch.items():
            if not w.fired and not w.active:
                c = w.channel
                text = f"{c.name} (GPIO{c.gpio}) never fired: {_silent_hint(c)}"
                out.append(Finding(ch, c.name, "silent", text))
        return out

    def render(self) -> list[str]:
        """One line per channel: lit marker, name, GPIO, state and what it has seen."""
        lines = []
        for ch, w in self.watch.items():
            c = w.channel
            mark = "●" if self.lit(ch) else "○"
            state = "ACTIVE" if w.active else ("counting" if c.mode == "pcnt" else "idle")
            seen = f"{w.pulses} pulses" if c.mode == "pcnt" else f"{w.edges} edges"
            if w.colours:
                seen += ", " + ", ".join(f"{k} x{n}" for k, n in sorted(w.colours.items()))
            lines.append(f"{mark} ch {ch:2} {c.name:10} GPIO{c.gpio:<3} {c.mode:7} {state:8} {seen}")
        return lines

    def to_json(self) -> dict[str, object]:
        return {
            "profile": self.profile.id,
            "firmware": self.hello.fw_version if self.hello else None,
            "micropython": (self.hello.mp_version or None) if self.hello else None,
            "chip": (self.hello.chip or None) if self.hello else None,
            "reset": (self.hello.reset_text or None) if self.hello else None,
            "crash": (self.hello.crash or None) if self.hello else None,
            "text_between_frames": {"lines": self.text_lines, "last": self.last_text or None},
            "counters": dict(self.counters),
            "channels": [
                {"ch": ch, "name": w.channel.name, "kind": w.channel.kind, "gpio": w.channel.gpio,
                 "mode": w.channel.mode, "fired": w.fired, "active": w.active, "edges": w.edges,
                 "pulses": w.pulses, "late": w.late, "max_per_s": w.max_rate, "colours": dict(w.colours)}
                for ch, w in self.watch.items()
            ],
            "findings": [{"ch": f.ch, "name": f.name, "problem": f.problem, "text": f.text}
                         for f in self.findings()],
        }


def _stuck_hint(c: Channel) -> str:
    if c.kind in ("goal", "pocket"):
        return "a ball or dirt in the beam, the emitter unpowered, or the emitter and receiver out of line"
    if c.kind == "pin":
        return "the pin is down, or the tilt switch cable is shorted"
    return "check the wiring"


def _noisy_hint(c: Channel) -> str:
    if c.mode == "pcnt":
        return "raise the comparator threshold (trimmer) or check the one-shot"
    if c.kind in ("goal", "pocket"):
        return "room light on the receiver or a loose connector; shade the receiver"
    return "a loose contact or a missing debounce"


def _silent_hint(c: Channel) -> str:
    if c.kind in ("goal", "pocket"):
        return "pass a ball through it; check the beam with a phone camera (the IR emitter glows)"
    if c.kind == "pin":
        return "knock the pin over; check the tilt switch with a multimeter"
    if c.kind == "cushion":
        return "knock on the rail; check the piezo and the comparator threshold"
    return "roll a ball; check the bed piezo and its threshold"
