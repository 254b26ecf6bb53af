"""``tablesense doctor --serial PORT --profile ID``: watch every sensor channel of a table live.

Every channel is listed and lit while it fires; at the end (``--seconds`` or Ctrl-C) the
stuck, noisy and silent sensors are named with what to check.

``--learn-colours``: for each colour sensor, the installer takes the balls away, then holds
each ball of the profile's ``colours`` in front of it when told; the firmware's raw
readings (``!colour <ch>``, COLOUR frames) become the profile's ``[[colour.ref]]`` entries
and the board JSON is generated again (``tablesense flash`` puts it on the board).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import serial

from ..command_line.numbers import count, limit, seconds
from ..command_line.options import add_serial
from ..command_line.serial_port import serial_problem
from ..deploy.colours import (
    LearnError,
    board_json_text,
    check_dark,
    check_separation,
    reference,
    summarise,
    write_refs,
)
from ..deploy.doctor import NOISY_EDGES_PER_S, NOISY_PULSES_PER_S, STUCK_S, Doctor
from ..deploy.hello import HelloError, describe, wait_hello
from ..errors import TablesenseError
from ..link import lines
from ..link.frame import ColourFrame, Frame, HelloFrame, StreamDecoder
from ..link.transport import open_port
from ..table.profile import (
    PROFILE_DIR,
    ColourRef,
    ProfileError,
    TableProfile,
    board_config,
    load_profile,
    profile_from_dict,
)

EXAMPLES = """
tablesense doctor --serial /dev/serial/by-id/usb-Silicon_Labs_CP2102-if00-port0 --profile golf
tablesense doctor --serial /dev/ttyUSB0 --profile kegle --seconds 60 --json
tablesense doctor --serial /dev/ttyUSB0 --profile golf --learn-colours --balls 5
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_serial(p)
    p.add_argument("--profile", default="golf", metavar="ID",
                   help="table profile of the board: golf, kegle, carom or a TOML file (default: golf)")
    p.add_argument("--baud", type=lines.baud, default=None, metavar="N",
                   help=f"the link's rate (default {lines.BAUD}; give flash, monitor and run the same)")
    p.add_argument("--seconds", type=seconds, default=0.0, metavar="S",
                   help="stop after this long (default: run until Ctrl-C)")
    p.add_argument("--json", action="store_true", help="print the result as JSON at the end (no live view)")
    p.add_argument("--stuck", type=seconds, default=STUCK_S, metavar="S",
                   help=f"a channel ACTIVE this long is stuck (default {STUCK_S:g} s)")
    p.add_argument("--noisy-edges", type=limit, default=NOISY_EDGES_PER_S, metavar="N",
                   help=f"more edges a second than this is noise (default {NOISY_EDGES_PER_S})")
    p.add_argument("--noisy-pulses", type=limit, default=NOISY_PULSES_PER_S, metavar="N",
                   help=f"more piezo pulses a second than this is noise (default {NOISY_PULSES_PER_S})")
    p.add_argument("--learn-colours", action="store_true",
                   help="learn each ball's colour at each colour sensor and write them into the profile")
    p.add_argument("--channel", type=int, action="append", metavar="CH",
                   help="with --learn-colours: only this colour channel (repeatable; default all)")
    p.add_argument("--balls", type=count, default=1, metavar="N",
                   help="with --learn-colours: hold N balls of each colour in turn (golf: 5 each)")
    p.add_argument("--samples", type=count, default=12, metavar="N",
                   help="with --learn-colours: readings per ball (default 12)")


class DoctorError(TablesenseError):
    """The board could not be checked (no answer, wrong profile)."""


def run(args: argparse.Namespace) -> int:
    args.port = args.serial  # the port the messages name
    try:
        profile = load_profile(args.profile)
    except ProfileError as exc:
        print(f"tablesense doctor: {exc}", file=sys.stderr)
        return 2
    problem = serial_problem(args.serial, probe=False)
    if problem:
        print(f"tablesense doctor: {problem}", file=sys.stderr)
        return 2
    try:
        ser = open_port(args.port, lines.link_baud(args.baud, profile))
    except (OSError, serial.SerialException) as exc:  # (gone since, or busy: another program holds it)
        print(f"tablesense doctor: {serial_problem(args.serial) or exc}", file=sys.stderr)
        return 2
    if args.learn_colours:
        with ser:
            return learn_colours_command(ser, profile, args)
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
                start = f"; {doc.restart()}" if doc.restart() else ""
                print(f"{args.port}: {describe(hello)}{start}. Fire each sensor; "
                      + ("Ctrl-C to finish." if not args.seconds else f"{args.seconds:g} s."), flush=True)
            _watch(ser, dec, doc, args.seconds, live, quiet=args.json)
            doc.text(dec.text_lines, dec.texts[-1] if dec.texts else "")
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
    start = doc.restart()
    if start:
        print(f"board: {start}")
    if doc.text_lines:
        print(f"board: {doc.text_lines} line(s) of text between frames (its boot ROM at a reset; anything "
              f"else is ESP-IDF's log, which firmware 0.3 turns off); last: {doc.last_text!r}")
    for f in findings:
        tag = {"stuck": "STUCK ", "noisy": "NOISY ", "silent": "silent"}[f.problem]
        print(f"  {tag} ch {f.ch}: {f.text}")
    if not findings:
        print("all sensors fired, none stuck or noisy: the table is ready")
    return 1 if bad else 0


# --- learning the colours -------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """What the installer is asked to do before the next readings: ``ball`` None = take
    every ball away from channel ``ch``'s sensor."""

    ch: int
    name: str
    ball: str | None
    text: str


def _ask(step: Step) -> None:
    input(f"{step.text}, then press Enter ")


def learn_colours(ser: serial.SerialBase, profile: TableProfile, prompt: Callable[[Step], None] = _ask,
                  channels: list[int] | None = None, balls: int = 1, samples: int = 12,
                  say: Callable[[str], None] = print) -> list[ColourRef]:
    """Every (chosen) colour sensor's references, learned from the installer's balls; keeps
    the profile's references of the channels not learned. LearnError when they cannot be."""
    col = profile.colour
    sensors = [c for c in profile.colour_channels() if channels is None or c.ch in channels]
    if col is None or not sensors:
        raise LearnError(f"profile {profile.id} has no colour sensor"
                         + (f" on channel {', '.join(map(str, channels))}" if channels else ""))
    reader = _SampleReader(ser, gap_s=1.5 * col.integration_us / 1e6)
    refs: list[ColourRef] = []
    for c in sensors:
        where = f"{c.label} (mux port {c.mux})" if c.mux is not None else c.label
        prompt(Step(c.ch, c.name, None, f"{c.name}: take every ball away from its colour sensor"))
        dark = [s for s in reader.samples(c.ch, samples) if s.usable]
        if not dark:
            raise LearnError(f"{where}: the colour sensor gives no reading (not found at boot? check its "
                             "cable and mux port; the firmware's ERROR lines name it)")
        dark_clear = sum(s.clear for s in dark) / len(dark)
        say(f"{c.name}: empty sensor, clear {dark_clear:.0f}")
        for ball in profile.colours:
            got = []
            for k in range(balls):
                n = f" ({k + 1} of {balls})" if balls > 1 else ""
                prompt(Step(c.ch, c.name, ball, f"{c.name}: hold a {ball} ball{n} where it stops in front of "
                                                "the colour sensor"))
                got += reader.samples(c.ch, samples)
            learned = summarise(c.ch, ball, got, col, where)
            check_dark(learned, dark_clear, where)
            ref = reference(learned, dark_clear)
            refs.append(ref)
            say(f"{c.name}: {ball}: r {ref.r} g {ref.g} b {ref.b} per mille, clear {ref.clear}, "
                f"spread {learned.spread:.1f} -> max_dist {ref.max_dist}, min_clear {ref.min_clear}")
    check_separation(refs, {c.ch: c.label for c in sensors})
    learned_chs = {c.ch for c in sensors}
    return [r for r in col.refs if r.ch not in learned_chs] + refs


class _SampleReader:
    def __init__(self, ser: serial.SerialBase, gap_s: float) -> None:
        self.ser = ser
        self.gap_s = gap_s
        self.dec = StreamDecoder()

    def samples(self, ch: int, n: int, timeout: float = 2.0) -> list[ColourFrame]:
        out: list[ColourFrame] = []
        for _ in range(n):
            self.ser.write(f"!colour {ch}\n".encode("ascii"))
            end = time.monotonic() + timeout
            got = None
            while got is None and time.monotonic() < end:
                data = self.ser.read(256)
                if data:
                    found = [f for f in self.dec.feed(data) if isinstance(f, ColourFrame)]
                    got = next((s for s in found if s.channel == ch), got)
            if got is None:
                raise LearnError(f"channel {ch}: no answer to !colour (a firmware without colour sensor "
                                 "support? flash it with `tablesense flash`)")
            out.append(got)
            time.sleep(self.gap_s)  # the next reading from another integration
        return out


def write_learned(profile: TableProfile, refs: list[ColourRef], note: str) -> tuple[Path, Path]:
    """Write refs into the profile's TOML file and generate its board JSON again (the
    shipped profiles' firmware/boards/<id>.json, else <profile>.json beside it)."""
    src = Path(profile.source)
    if src.suffix != ".toml":
        raise LearnError(f"{src}: learn the colours into the table's TOML profile, not a board config")
    text = write_refs(src.read_text(encoding="utf-8"), refs, note)
    try:
        new = profile_from_dict(tomllib.loads(text), source=str(src))
    except ProfileError as exc:
        raise LearnError(f"the learned colours do not make a valid profile: {exc}") from None
    src.write_text(text, encoding="utf-8")
    if src.parent.resolve() == PROFILE_DIR.resolve():
        board = PROFILE_DIR.parents[1] / "firmware" / "boards" / f"{new.id}.json"
    else:
        board = src.with_suffix(".json")
    board.write_text(board_json_text(board_config(new)), encoding="utf-8")
    return src, board


def learn_colours_command(ser: serial.SerialBase, profile: TableProfile, args: argparse.Namespace) -> int:
    try:
        dec = StreamDecoder()
        hello = wait_hello(ser, dec, "!hello", 8.0, every=1.0)
        if hello.profile_id != profile.id:
            hello = wait_hello(ser, dec, f"!profile {profile.id}", 8.0, every=1.0)
        print(f"{args.port}: firmware {hello.fw_version}, profile {hello.profile_id}: learning the colours "
              f"({', '.join(profile.colours)})")
        refs = learn_colours(ser, profile, channels=args.channel, balls=args.balls, samples=args.samples)
        note = f"learned {datetime.date.today().isoformat()}"
        toml_path, board = write_learned(profile, refs, note)
    except (HelloError, LearnError) as exc:
        print(f"tablesense doctor: {exc}", file=sys.stderr)
        return 1
    except (OSError, serial.SerialException) as exc:
        print(f"tablesense doctor: lost {args.port}: {exc}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, EOFError):
        print("\ntablesense doctor: stopped; nothing written", file=sys.stderr)
        return 1
    print(f"wrote {len(refs)} references into {toml_path} and {board}; "
          f"put them on the board with `tablesense flash --serial {args.port} --profile {profile.id}`")
    return 0
