"""``tablesense sim EDGES.jsonl [--profile ID] [--json] [--frames] [--fast]``: firmware in the loop.

Starts the real firmware under MicroPython's unix port on a pty (``tablesense.sim.fitl``)
with the board configuration of the profile, plays the edges file on its virtual pins
and reads the port through the same link code that reads ``/dev/ttyUSB0``; prints the
table events (or frames) as ``tablesense monitor`` does, until every edge has been
played and the table has come to rest.

The edges file holds JSON lines ``{"t_us", "ch", "level"|"colour"|"pulses"}`` (and
``{"clock_us"}`` jumps), times in microseconds. Its first line may be a header, an object
with none of those keys (``{"scenario": "...", "game": "golf"}``, as the scenario files
under tests/scenarios/ have): its ``profile`` (else ``game``) is the profile when no
``--profile`` is given. The firmware needs a moment to boot, so
the edges are shifted to start just after it is up; printed times are shifted back, so
they are the file's times.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgspec

from ..errors import TablesenseError
from ..events import Event
from ..link.frame import Frame, HelloFrame
from ..link.show import Printer
from ..link.translate import Translator, table_profile
from ..link.transport import Link, LinkError, LinkStatus
from ..table.profile import Channel, TableProfile, board_config

START_AHEAD_US = 200_000  # the first edge plays this long after the link is up


class EdgeFileError(TablesenseError):
    """A line of the edges file is not an edge."""


EXAMPLES = """
tablesense sim examples/golf-edges.jsonl
tablesense sim examples/golf-edges.jsonl --profile golf --json --fast
tablesense sim tests/scenarios/golf_goal_edges.jsonl --frames
"""

#: keys of an edge line; a first line with none of them is the file's header
EDGE_KEYS = ("t_us", "clock_us", "ch")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("edges", metavar="EDGES",
                   help="edges file: JSON lines of {t_us, ch, level|colour|pulses}, a header line first "
                        "if you like")
    p.add_argument("--profile", metavar="ID", help="table profile id (golf, kegle, carom) or TOML path "
                   "(default: the header's profile or game)")
    p.add_argument("--json", action="store_true", help="JSON lines instead of text")
    p.add_argument("--frames", action="store_true", help="print the decoded wire frames, not table events")
    p.add_argument("--fast", action="store_true", help="play the edges as fast as the firmware takes them")


def _text(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise EdgeFileError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise EdgeFileError(f"{path} is not a text file") from None


def read_header(path: str, text: str | None = None) -> dict[str, Any]:
    """The header of the edges file ``path`` (its first line when that is an object that is no
    edge), or ``{}``; ``text``: the file's text, read already."""
    for line in (_text(path) if text is None else text).splitlines():
        if line.strip():
            try:
                item = json.loads(line)
            except json.JSONDecodeError:
                return {}
            return item if _is_header(item) else {}
    return {}


def _is_header(item: Any) -> bool:
    return isinstance(item, dict) and not any(k in item for k in EDGE_KEYS)


def header_profile(path: str, text: str | None = None) -> str:
    """The profile the header of ``path`` names; EdgeFileError when it names none."""
    head = read_header(path, text)
    name = head.get("profile", head.get("game"))
    if not isinstance(name, str) or not name:
        raise EdgeFileError(f"{path} names no profile (a header line with \"game\" or \"profile\"): "
                            "give one with --profile ID")
    return name


def read_edges(path: str, profile: TableProfile, text: str | None = None) -> list[dict[str, Any]]:
    """The edges of ``path``, checked against ``profile``; ``EdgeFileError`` names the bad line.
    ``text``: the file's text, read already."""
    text = _text(path) if text is None else text
    channels = {c.ch: c for c in profile.channels}
    edges: list[dict[str, Any]] = []
    first = True
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        if first:
            first = False
            with contextlib.suppress(json.JSONDecodeError):
                if _is_header(json.loads(line)):
                    continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise EdgeFileError(f"{path} line {n}: not JSON ({exc.msg})") from None
        if isinstance(item, dict) and "type" in item and not any(k in item for k in EDGE_KEYS):
            raise EdgeFileError(f"{path} is a match log (table events, not sensor edges): replay it with "
                                f"tablesense replay {path}")
        problem = _check_edge(item, channels)
        if problem:
            raise EdgeFileError(f"{path} line {n}: {problem}")
        t = item.get("t_us", item.get("clock_us", 0))
        if edges and t < (last := edges[-1].get("t_us", edges[-1].get("clock_us", 0))):
            raise EdgeFileError(f"{path} line {n}: {t} us is before the line above ({last} us): "
                                "the edges must be in time order")
        edges.append(item)
    if not edges:
        raise EdgeFileError(f"{path} holds no edges")
    return edges


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check_edge(item: Any, channels: dict[int, Channel]) -> str:
    if not isinstance(item, dict):
        return "an edge is a JSON object"
    if "clock_us" in item:
        return (
            "" if _is_int(item["clock_us"]) and item["clock_us"] >= 0 else "clock_us must be an integer >= 0"
        )
    if not _is_int(item.get("t_us")) or item["t_us"] < 0:
        return "needs t_us, an integer >= 0 (microseconds)"
    if not _is_int(item.get("ch")):
        return "needs ch, the channel number"
    if item["ch"] not in channels:
        return (
            f"channel {item['ch']} is not in the profile (channels: {', '.join(map(str, sorted(channels)))})"
        )
    kinds = [k for k in ("level", "colour", "pulses") if k in item]
    if len(kinds) != 1:
        return "needs exactly one of level (0/1), colour (class) or pulses (count)"
    kind, value = kinds[0], item[kinds[0]]
    if not _is_int(value) or value < 0:
        return f"{kind} must be an integer >= 0"
    c = channels[item["ch"]]
    if kind == "level" and value > 1:
        return "level must be 0 (idle) or 1 (active)"
    if kind == "pulses" and c.mode != "pcnt":
        return f"pulses go to a pulse-counter channel; {c.label} is {c.mode} (give it a level)"
    if kind == "level" and c.mode == "pcnt":
        return f"{c.label} is a pulse counter: give it pulses, not a level"
    if kind == "colour" and not c.colour:
        return f"{c.label} has no colour sensor"
    return ""


def run(args: argparse.Namespace) -> int:
    from ..command_line.extras import needs

    missing = needs("tablesense sim", "micropython")
    if missing:
        print(missing, file=sys.stderr)
        return 2
    printer = Printer(sys.stdout, sys.stderr, as_json=args.json, prog="tablesense sim")
    try:
        from ..sim import fitl

        text = _text(args.edges)  # read once: a pipe (<(...), a FIFO) gives its lines only once
        profile = table_profile(args.profile or header_profile(args.edges, text))
        edges = read_edges(args.edges, profile, text)
    except TablesenseError as exc:
        printer.error(str(exc))
        return 2
    with tempfile.TemporaryDirectory(prefix="tablesense-sim-") as tmp:
        board = Path(tmp) / f"{profile.id}.json"
        board.write_text(json.dumps(board_config(profile)))
        try:
            fw = fitl.start_firmware(board, realtime=not args.fast)
        except TablesenseError as exc:
            printer.error(str(exc))
            return 2
        try:
            return asyncio.run(simulate(fw, profile, edges, printer, frames=args.frames, fast=args.fast))
        except LinkError as exc:
            printer.error(f"{exc}\n{fw.stderr_text()[-2000:]}".rstrip())
            return 1
        finally:
            fw.stop()


async def simulate(
    fw: Any,
    profile: TableProfile,
    edges: list[dict[str, Any]],
    printer: Printer,
    *,
    frames: bool = False,
    fast: bool = False,
) -> int:
    """Play ``edges`` on the running firmware ``fw`` and print what the link makes of them."""
    link = Link(fw.port, from_seq=0, reconnect=False)
    tr = Translator(profile)
    times = [e.get("t_us", e.get("clock_us", 0)) for e in edges]
    first, last = min(times), max(times)
    shift: int | None = None
    end_us = 0
    span = (last - first) / 1e6
    deadline = time.monotonic() + (span * (0.2 if fast else 1.0)) + profile.rest_quiet_ms / 1e3 + 15
    out_frames: list[Frame] = []

    def emit(evs: list[Event]) -> None:
        for ev in evs:
            printer.event(msgspec.structs.replace(ev, t=round(ev.t - (shift or 0) / 1e6, 6)))

    try:
        async for item in link.items():
            if isinstance(item, LinkStatus):
                printer.status(item)
                if item.kind == "hello" and shift is None:
                    shift = max(0, item.data["uptime_us"] + START_AHEAD_US - first)
                    fw.send_edges([_shifted(e, shift) for e in edges])
                    end_us = last + shift + profile.rest_quiet_ms * 1000 + 100_000
                continue
            if frames:
                printer.frame(item)
                out_frames.append(item)
            else:
                emit(tr.feed(item))
                for note in tr.notes:
                    printer.status(LinkStatus("profile", note))
                tr.notes.clear()
            now_us = tr.now_us if not frames else _frame_time(item, tr)
            if shift is not None and now_us >= end_us:
                break
            if time.monotonic() > deadline or not fw.alive():
                why = "the firmware stopped" if not fw.alive() else "the edges did not play out in time"
                printer.error(f"{why}; firmware log:\n{fw.stderr_text()[-2000:]}".rstrip())
                return 1
    finally:
        link.close()
    if not frames:
        emit(tr.flush())
    stats = link.seq_stats
    if stats.lost:
        printer.error(f"{stats.lost} frames were lost on the link")
        return 1
    return 0


def _frame_time(f: Frame, tr: Translator) -> int:
    tr.feed(f)  # keeps device time; the events are not printed in --frames mode
    return tr.now_us


def _shifted(e: dict[str, Any], shift: int) -> dict[str, Any]:
    if "clock_us" in e:
        return {**e, "clock_us": e["clock_us"] + shift}
    return {**e, "t_us": e["t_us"] + shift}


__all__ = ["EdgeFileError", "HelloFrame", "read_edges", "simulate"]
