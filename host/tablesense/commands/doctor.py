"""``tablesense doctor --port P --profile ID``: watch every sensor channel of a table live.

Every channel is listed and lit while it fires; at the end (``--seconds`` or Ctrl-C) the
stuck, noisy and silent sensors are named with what to check.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import serial

from ..deploy.doctor import NOISY_EDGES_PER_S, NOISY_PULSES_PER_S, STUCK_S, Doctor
from ..deploy.hello import HelloError, wait_hello
from ..deploy.ports import PortError, check_port
from ..errors import TablesenseError
from ..link.frame import Frame, HelloFrame, StreamDecoder
from ..link.transport import open_port
from ..table.profile import ProfileError, load_profile


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", required=True, help="serial port of the table's board (or a pty)")
    p.add_argument("--profile", default="golf", help="table profile of the board (default: golf)")
    p.add_argument("--seconds", type=float, default=0.0,
                   help="stop after this long (default: run until Ctrl-C)")
    p.add_argument("--json", action="store_true", help="print the result as JSON at the end (no live view)")
    p.add_argument("--stuck", type=float, default=STUCK_S, metavar="S",
                   help=f"a channel ACTIVE this long is stuck (default {STUCK_S:g} s)")
    p.add_argument("--noisy-edges", type=int, default=NOISY_EDGES_PER_S, metavar="N",
                   help=f"more edges a second than this is noise (default {NOISY_EDGES_PER_S})")
    p.add_argument("--noisy-pulses", type=int, default=NOISY_PULSES_PER_S, metavar="N",
                   help=f"more piezo pulses a second than this is noise (default {NOISY_PULSES_PER_S})")


class DoctorError(TablesenseError):
    """The board could not be checked (no answer, wrong profile)."""


def run(args: argparse.Namespace) -> int:
    try:
        profile = load_profile(args.profile)
        check_port(args.port)
        ser = open_port(args.port)
    except (ProfileError, PortError) as exc:
        print(f"tablesense doctor: {exc}", file=sys.stderr)
        return 2
    except (OSError, serial.SerialException) as exc:
        print(f"tablesense doctor: cannot open {args.port}: {exc}", file=sys.stderr)
        return 2
    doc = Doctor(profile, stuck_s=args.stuck, noisy_edges=args.noisy_edges, noisy_pulses=args.noisy_pulses)
    live = not args.json and sys.stdout.isatty()
    try:
        with ser:
            dec = StreamDecoder()
            hello = _hello(ser, dec, doc, "!hello")
            if hello.profile_id != profile.id:
                say = print if not args.json else _quiet
                say(f"board uses profile {hello.profile_id!r}; switching it to {profile.id!r}")
                hello = _hello(ser, dec, doc, f"!profile {profile.id}")
                if hello.profile_id != profile.id:
                    raise DoctorError(f"board stays on profile {hello.profile_id!r}")
            if not args.json:
                print(f"{args.port}: firmware {hello.fw_version}, profile {hello.profile_id}, "
                      f"{hello.n_channels} channels. Fire each sensor; "
                      + ("Ctrl-C to finish." if not args.seconds else f"{args.seconds:g} s."), flush=True)
            _watch(ser, dec, doc, args.seconds, live, quiet=args.json)
    except DoctorError as exc:
        print(f"tablesense doctor: {exc}", file=sys.stderr)
        return 1
    except (OSError, serial.SerialException) as exc:
        print(f"tablesense doctor: lost {args.port}: {exc}", file=sys.stderr)
        return 1
    return _report(doc, args.json)


def _quiet(*_args: object, **_kw: object) -> None:
    return None


def _hello(ser: serial.SerialBase, dec: StreamDecoder, doc: Doctor, command: str,
           timeout: float = 8.0) -> HelloFrame:
    try:
        return wait_hello(ser, dec, command, timeout, every=1.0, on_frame=doc.feed)
    except HelloError as exc:
        hint = " (flash the profile with `tablesense flash --profile ...`)" if command != "!hello" else ""
        raise DoctorError(f"{exc}{hint}") from None


def _watch(ser: serial.SerialBase, dec: StreamDecoder, doc: Doctor, seconds: float, live: bool,
           quiet: bool) -> None:
    end = time.monotonic() + seconds if seconds > 0 else None
    drawn = 0
    next_draw = 0.0
    try:
        while end is None or time.monotonic() < end:
            data = ser.read(512)
            frames: list[Frame] = dec.feed(data) if data else []
            for f in frames:
                line = doc.feed(f)
                if line and not live and not quiet:
                    print(line, flush=True)
            if live and time.monotonic() >= next_draw:
                lines = doc.render()
                up = f"\x1b[{drawn}F" if drawn else ""  # back to the first line of the last drawing
                sys.stdout.write(up + "".join(f"\x1b[2K{ln}\n" for ln in lines))
                sys.stdout.flush()
                drawn = len(lines)
                next_draw = time.monotonic() + 0.1
    except KeyboardInterrupt:
        pass


def _report(doc: Doctor, as_json: bool) -> int:
    findings = doc.findings()
    bad = [f for f in findings if f.problem in ("stuck", "noisy")]
    if as_json:
        print(json.dumps(doc.to_json()))
        return 1 if bad else 0
    print()
    for line in doc.render():
        print(line)
    fired = sum(1 for w in doc.watch.values() if w.fired)
    c = doc.counters
    print(f"{fired} of {len(doc.watch)} channels fired; ring overflows {c['ring_overflows']}, "
          f"scheduler drops {c['sched_drops']}, late edges {c['late']}")
    for f in findings:
        tag = {"stuck": "STUCK ", "noisy": "NOISY ", "silent": "silent"}[f.problem]
        print(f"  {tag} ch {f.ch}: {f.text}")
    if not findings:
        print("all sensors fired, none stuck or noisy: the table is ready")
    return 1 if bad else 0
