"""How ``tablesense monitor`` and ``tablesense sim`` print frames, events and link status."""

from __future__ import annotations

import json
from typing import Any, TextIO

from ..events import Event, dump_event
from .frame import (
    F_ACTIVE,
    F_HWCAP,
    F_LATE,
    F_REPLAY,
    ColourFrame,
    CountFrame,
    ErrorFrame,
    EventFrame,
    Frame,
    HeartbeatFrame,
    HelloFrame,
    PongFrame,
    ReadingFrame,
    frame_to_dict,
)
from .transport import LinkStatus

_FLAG_NAMES = ((F_LATE, "late"), (F_HWCAP, "hwcap"), (F_REPLAY, "replay"))


def event_text(ev: Event) -> str:
    """``  12.003114  goal     goal=B ball=p1``"""
    fields = {k: v for k, v in ev.to_dict().items() if k not in ("t", "type")}
    rest = " ".join(f"{k}={_short(v)}" for k, v in fields.items())
    return f"{ev.t:12.6f}  {ev.type:<8} {rest}".rstrip()


def _short(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, (dict, list)):
        return json.dumps(v, separators=(",", ":"))
    return str(v)


def frame_text(f: Frame) -> str:
    if isinstance(f, EventFrame):
        flags = ",".join(name for bit, name in _FLAG_NAMES if f.flags & bit)
        level = "active" if f.flags & F_ACTIVE else "idle"
        return f"seq {f.seq:>8}  EVENT    ch {f.channel:>2} {level:<6} t={f.t_us / 1e6:.6f}" + (
            f" [{flags}]" if flags else ""
        )
    if isinstance(f, CountFrame):
        return f"seq {f.seq:>8}  COUNT    ch {f.channel:>2} +{f.count:<5} t={f.t_us / 1e6:.6f}"
    if isinstance(f, ReadingFrame):
        return f"seq {f.seq:>8}  READING  ch {f.channel:>2} ={f.value:<5} t={f.t_us / 1e6:.6f}"
    if isinstance(f, HelloFrame):
        return (
            f"seq {f.seq:>8}  HELLO    fw {f.fw_version} profile {f.profile_id} channels {f.n_channels} "
            f"levels {f.levels:#x} up {f.uptime_us / 1e6:.3f} s overflows {f.ring_overflows} "
            f"drops {f.sched_drops} late {f.late}"
            + (f" reset {f.reset_text}" if f.reset_text else "") + (f" crash: {f.crash}" if f.crash else "")
        )
    if isinstance(f, HeartbeatFrame):
        return (
            f"seq {f.seq:>8}  HEARTBT  up {f.uptime_us / 1e6:.3f} s overflows {f.ring_overflows} "
            f"drops {f.sched_drops} late {f.late}"
        )
    if isinstance(f, PongFrame):
        return f"seq {f.seq:>8}  PONG     token {f.token}"
    if isinstance(f, ColourFrame):
        return (f"seq {f.seq:>8}  COLOUR   ch {f.channel:>2} class {f.cls} status {f.status:#x} "
                f"clear {f.clear} red {f.red} green {f.green} blue {f.blue}")
    assert isinstance(f, ErrorFrame)
    return f"seq {f.seq:>8}  ERROR    code {f.code}: {f.text}"


class Printer:
    """Prints events or frames on ``out`` (text or JSON lines), status on ``err``."""

    def __init__(self, out: TextIO, err: TextIO, *, as_json: bool, prog: str) -> None:
        self.out, self.err, self.as_json, self.prog = out, err, as_json, prog

    def event(self, ev: Event) -> None:
        self.out.write((dump_event(ev) if self.as_json else event_text(ev)) + "\n")
        self.out.flush()

    def frame(self, f: Frame) -> None:
        self.out.write((json.dumps(frame_to_dict(f)) if self.as_json else frame_text(f)) + "\n")
        self.out.flush()

    def status(self, s: LinkStatus) -> None:
        self.err.write(f"{self.prog}: {s}\n")
        self.err.flush()

    def error(self, text: str) -> None:
        self.err.write(f"{self.prog}: {text}\n")  # one form for every command: "tablesense sim: ..."
        self.err.flush()
