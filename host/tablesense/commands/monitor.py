"""``tablesense monitor --serial PORT [--profile ID] [--json] [--frames]``: a table's events, live.

Events (or, with ``--frames``, the decoded frames) go to standard output as text or
JSON lines; link status changes (connected, hello, gap, replay, disconnected,
reconnecting, device counters) go to standard error. Without ``--profile`` the
profile the board reports in its HELLO is used. A port that is not there (or is no serial
port) is one line and exit 2; with ``--wait`` the line ends "waiting for it" and the link
keeps trying until the board is plugged in.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys

from ..command_line.numbers import seconds
from ..command_line.old_spellings import old_positional
from ..command_line.options import add_serial
from ..command_line.serial_port import serial_problem, url_mistake
from ..errors import TablesenseError
from ..link.frame import Frame, HelloFrame
from ..link.lines import BAUD, baud, link_baud
from ..link.show import Printer
from ..link.translate import Translator, table_profile
from ..link.transport import Link, LinkError, LinkStatus

EXAMPLES = """
tablesense monitor --serial /dev/ttyUSB0 --profile golf
tablesense monitor --serial socket://192.168.1.40:7000 --json --duration 60 > table1.jsonl
tablesense monitor --serial /dev/ttyUSB0 --frames --wait
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    serial_arg = add_serial(p, old=None)
    old_positional(p, "port", serial_arg)
    p.add_argument("--profile", metavar="ID",
                   help="table profile id or TOML path (default: the one the board reports)")
    p.add_argument("--json", action="store_true", help="JSON lines instead of text")
    p.add_argument("--frames", action="store_true", help="print the decoded wire frames, not table events")
    p.add_argument("--baud", type=baud, default=None, metavar="N",
                   help=f"baud rate of a real serial port (default: the profile's, else {BAUD})")
    p.add_argument("--no-reconnect", action="store_true", help="stop when the port goes away")
    p.add_argument("--duration", type=seconds, metavar="S", help="stop after this many seconds")
    p.add_argument("--wait", action="store_true",
                   help="a port that is not there yet: say so and wait for it (default: exit 2)")


def run(args: argparse.Namespace) -> int:
    printer = Printer(sys.stdout, sys.stderr, as_json=args.json, prog="tablesense monitor")
    try:
        profile = table_profile(args.profile) if args.profile else None
        translator = Translator(profile) if profile else None
        rate = link_baud(args.baud, profile)
    except (TablesenseError, ValueError) as exc:
        printer.error(str(exc))
        return 2
    problem = serial_problem(args.serial)
    if problem and (not args.wait or not args.serial or url_mistake(args.serial)):
        print(f"tablesense monitor: {problem}", file=sys.stderr)
        return 2
    if problem:
        print(f"tablesense monitor: {problem}; waiting for it", file=sys.stderr, flush=True)
    link = Link(args.serial, baudrate=rate, reconnect=not args.no_reconnect or args.wait)
    try:
        return asyncio.run(monitor(link, printer, translator, frames=args.frames, duration=args.duration))
    except LinkError as exc:
        printer.error(str(exc))
        return 1


async def monitor(
    link: Link,
    printer: Printer,
    translator: Translator | None,
    *,
    frames: bool = False,
    duration: float | None = None,
) -> int:
    """Print what ``link`` delivers until ``duration`` runs out (or forever)."""
    state = _State(translator)
    try:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(duration):
                async for item in link.items():
                    if isinstance(item, LinkStatus):
                        printer.status(item)
                    elif frames:
                        printer.frame(item)
                    else:
                        code = state.feed(item, printer)
                        if code:
                            return code
    finally:
        link.close()
    if state.translator is not None and not frames:
        for ev in state.translator.flush():
            printer.event(ev)
    return 0


class _State:
    """Frames wait for a profile (from the board's HELLO when none was given)."""

    def __init__(self, translator: Translator | None) -> None:
        self.translator = translator
        self.waiting: list[Frame] = []

    def feed(self, f: Frame, printer: Printer) -> int:
        if self.translator is None:
            if not isinstance(f, HelloFrame):
                self.waiting.append(f)
                return 0
            try:
                self.translator = Translator(table_profile(f.profile_id))
            except TablesenseError as exc:
                printer.error(
                    f"the board reports profile {f.profile_id!r}, which cannot be loaded ({exc}); "
                    "give one with --profile"
                )
                return 2
            printer.status(LinkStatus("profile", f"translating with profile {f.profile_id!r}"))
            for w in self.waiting:
                self._events(w, printer)
            self.waiting.clear()
        self._events(f, printer)
        return 0

    def _events(self, f: Frame, printer: Printer) -> None:
        assert self.translator is not None
        for ev in self.translator.feed(f):
            printer.event(ev)
        for note in self.translator.notes:
            printer.status(LinkStatus("profile", note))
        self.translator.notes.clear()
