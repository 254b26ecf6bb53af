"""Replay speed of every game beside ``json.loads`` of the same lines, and undo's memory.

For each game's synthetic log (the generators of ``golf_replay``, ``kegle_replay``,
``carom_replay``), in the same run, CPU time of one process over ``--repeat`` rounds after a
warm-up round (each round runs the anchor and the measured in turn, the order reversed every
other round, the collector emptied and what is alive frozen before each run: ``cpu_rounds``);
a ratio is the median of the rounds' ratios, printed with its spread (least-most), and a rate
the median of the rounds' rates:

- ``json.loads``: every line decoded to a dict (the anchor: the least any replay does);
- ``parse_line``: every line decoded into a checked, typed event (tablesense.events);
- replay: parsing included, as ``tablesense replay`` does it (``Replay.feed_lines``);
  printed with its ratio to ``json.loads`` and the issue's aim of 300,000 events/s, set
  where ``json.loads`` read 620,000 lines/s, so scaled by this core's ``json.loads``;
- undo's memory: the live table keeps every state an undo can reach; the bytes it holds
  after the whole log (``tracemalloc``), per event, beside the bytes of the log's lines; and
  the bytes of the undo walk the pub keeps beside it (``tablesense.undo_walk``);
- one long carom shot (``--long-shot``, default 20,000 events between its strike and its
  rest) beside a quarter of it, each beside ``json.loads`` of its lines: linear time
  replays four times the events in four times the time, quadratic in sixteen;
- the same shots in ``tablesense replay``'s readable account (no ``--json``: the rulings and
  the score shot by shot), beside ``json.loads`` of its lines: linear time as above;
- freeing a live table (``--free-lines``, default 1,000,000 lines of one keglebillard
  match, bench/replay_scale.py's log): a process replays it with every undo kept, frees
  it, and says so; its peak memory beside the log's size (a segfault is exit -11).

    .venv/bin/python bench/replay_speed.py [--events N] [--repeat R] [--game GAME]
        [--long-shot N] [--free-lines N]
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tablesense.events import parse_line
from tablesense.replay import Replay

HERE = Path(__file__).resolve().parent
AIM = 300_000
#: ``json.loads`` of these lines on the core the aim was set on (issue 13): 620k lines/s,
#: so the aim is about 0.48x ``json.loads``; on a slower or busier core it scales with it
AIM_ANCHOR = 620_000


def _bench_module(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: a game's log for undo's memory when it is not the speed log (golf's: one long match)
LONG: dict[str, list[str]] = {}


def logs(events: int, games: tuple[str, ...] = ("golf", "kegle", "carom")) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    if "golf" in games:
        golf_bench = _bench_module("golf_replay")
        out["golf"] = golf_bench.synthetic_log(events)
        LONG["golf"] = golf_bench.long_match(events)  # its log is many short matches: undo in one long one
    if "kegle" in games:
        out["kegle"] = _bench_module("kegle_replay").synthetic_match(max(10, events // 8))
    if "carom" in games:
        out["carom"] = _bench_module("carom_replay").synthetic_match(max(10, events // 6))
    return out


def cpu_rounds(*runs: Callable[[], object], rounds: int) -> list[list[float]]:
    """CPU seconds of each of ``runs`` in each of ``rounds`` rounds, after one warm-up round not
    counted (a replay's first pass over a log runs 10-20 % slower: the interpreter's caches).

    Within a round the runs go one after the other, their order reversed every other round (an
    anchor run second sees what the first left behind in one round, first in the next). Before
    each run the collector is emptied and everything alive frozen (``gc.collect``, ``gc.freeze``):
    no run pays for collecting what the earlier ones or the bench hold (the logs, the modules),
    each pays for collecting only its own objects, as it would alone. Compare the runs by the
    median of their per-round ratios (``ratios``), each pair having seen the same moments of a
    machine whose load moves; the best of each side taken apart can pair a quiet anchor with a
    loaded replay (its in-process keglebillard figure swung 0.79-1.29x that way)."""
    times: list[list[float]] = [[] for _ in runs]
    for r in range(rounds + 1):
        order = range(len(runs)) if r % 2 else range(len(runs) - 1, -1, -1)
        for i in order:
            gc.collect()
            gc.freeze()
            start = time.process_time()
            runs[i]()
            took = time.process_time() - start
            gc.unfreeze()
            if r:
                times[i].append(took)
    return times


def ratios(anchor: list[float], measured: list[float]) -> tuple[float, float, float]:
    """(median, least, most) of the per-round speed ratios measured/anchor (anchor's time over
    the measured run's, round by round)."""
    each = [a / m for a, m in zip(anchor, measured, strict=True)]
    return statistics.median(each), min(each), max(each)


def spread(anchor: list[float], measured: list[float]) -> str:
    """The median per-round ratio and its spread, as printed: ``1.02x (0.98-1.05)``."""
    mid, low, high = ratios(anchor, measured)
    return f"{mid:.2f}x ({low:.2f}-{high:.2f})"


def undo_memory(lines: list[str]) -> int:
    """Bytes held by a live table's replay (every undo reachable) after ``lines``."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    rep = Replay().feed_lines(lines)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert rep.state is not None
    return held


def walk_memory(lines: list[str]) -> int:
    """Bytes held by the undo walk the pub keeps beside a live table (``tablesense.undo_walk``)."""
    from tablesense.undo_walk import Walk

    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    walk = Walk()
    for seq, line in enumerate(lines, 1):
        walk.feed(line, seq)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return held


def long_shot(events: int) -> list[str]:
    """A carom match whose first shot has ``events`` cushions and contacts before its rest."""
    lines = [json.dumps({"t": 0, "type": "setup", "game": "carom", "discipline": "libre",
                         "profile": "liemers", "players": {"p1": "Ann", "p2": "Bob"},
                         "targets": {"p1": 10**6, "p2": 10**6}}),
             json.dumps({"t": 1.0, "type": "strike", "ball": "yellow"})]
    t = 1.0
    for k in range(events):
        t += 0.001
        if k % 3 == 2:
            lines.append(json.dumps({"t": round(t, 6), "type": "contact",
                                     "balls": ["yellow", "red" if k % 2 else "white"]}))
        else:
            lines.append(json.dumps({"t": round(t, 6), "type": "cushion", "cushion": k % 4 + 1,
                                     "ball": "yellow"}))
    lines.append(json.dumps({"t": round(t + 1, 6), "type": "rest"}))
    return lines


FREE = """
import resource, sys
from tablesense.replay import Replay
with open(sys.argv[1], encoding="utf-8") as f:
    rep = Replay().feed_lines(f)
assert not rep.errors, rep.errors[:3]
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
events = rep.events
del rep
print(events, peak)
"""


def free_live_table(lines: int) -> None:
    """Replay ``lines`` of one keglebillard match with every undo kept, in a process; free it."""
    import os
    import subprocess
    import tempfile

    scale = _bench_module("replay_scale")
    with tempfile.TemporaryDirectory(prefix="tablesense-free-") as tmp:
        log = Path(tmp) / "kegle.jsonl"
        scale.make_log(log, lines)
        size = log.stat().st_size
        env = dict(os.environ)
        env.setdefault("PYTHONPATH", str(HERE.parent / "host"))  # another tree's host: the before
        done = subprocess.run([sys.executable, "-c", FREE, str(log)], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        what = "segfault" if done.returncode == -11 else f"exit {done.returncode}"
        print(f"free a live table of {lines:,} keglebillard lines: {what} "
              f"{done.stderr.strip().splitlines()[-1:] if done.stderr.strip() else ''}")
        return
    _events, peak = map(int, done.stdout.split())
    print(f"free a live table of {lines:,} keglebillard lines: freed, exit 0; peak {peak / 1e6:,.0f} MB "
          f"for a log of {size / 1e6:,.0f} MB ({peak / size:.1f}x, the interpreter included)")


def account(lines: list[str]) -> str:
    """``tablesense replay``'s readable account of ``lines`` (as ``replay FILE`` prints it)."""
    import io

    from tablesense.commands import replay as command
    from tablesense.replay import effective_lines

    rep = Replay()
    out = io.StringIO()
    command._account(rep, command._events(rep, iter(effective_lines(lines)), lambda e: None), out)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=60_000, help="about this many events per game")
    ap.add_argument("--repeat", type=int, default=7, help="rounds measured (after one warm-up round)")
    ap.add_argument("--game", choices=("golf", "kegle", "carom"), action="append")
    ap.add_argument("--long-shot", type=int, default=20_000, help="events of the long carom shot (0: none)")
    ap.add_argument("--free-lines", type=int, default=1_000_000,
                    help="lines of the live table freed (0: none)")
    args = ap.parse_args(argv)
    games = args.game or ["golf", "kegle", "carom"]
    every = logs(args.events, tuple(games))
    print(f"CPU time of one process, {args.repeat} rounds in turn with the anchor, medians (spread); "
          f"aim: replay >= 1x json.loads and {AIM:,} events/s with parsing")
    for game in games:
        lines = every[game]
        n = len(lines)
        check = Replay().feed_lines(lines)
        if check.errors:
            print(f"{game}: the synthetic log has errors: {check.errors[:3]}", file=sys.stderr)
            return 1
        anchors, typeds, wholes = cpu_rounds(
            lambda: [json.loads(x) for x in lines],  # noqa: B023
            lambda: [parse_line(x) for x in lines],  # noqa: B023
            lambda: Replay().feed_lines(lines),  # noqa: B023
            rounds=args.repeat,
        )
        anchor, typed, whole = map(statistics.median, (anchors, typeds, wholes))
        held_lines = LONG.get(game, lines)
        held = undo_memory(held_lines)
        log_bytes = sum(len(x) + 1 for x in held_lines)
        print(f"{game}: {n:,} events")
        print(f"  json.loads (anchor)     {n / anchor:>12,.0f} events/s")
        print(f"  parse_line (typed)      {n / typed:>12,.0f} events/s  "
              f"({spread(anchors, typeds)} json.loads)")
        scaled = AIM * (n / anchor) / AIM_ANCHOR  # the aim on this core, by its json.loads
        mid = ratios(anchors, wholes)[0]
        print(f"  replay, parsing incl.   {n / whole:>12,.0f} events/s  "
              f"({spread(anchors, wholes)} json.loads, aim 1x: {'met' if mid >= 1 else 'not met'}; "
              f"aim {AIM:,} at json.loads {AIM_ANCHOR:,}/s, "
              f"{scaled:,.0f} on this core: {'met' if n / whole >= scaled else 'not met'})")
        m = len(held_lines)
        print(f"  undo memory (live)      {held / m:>12,.0f} bytes/event  (the log: {log_bytes / m:,.0f} "
              f"bytes/event; {held / log_bytes:.1f}x; one match of {m:,} events)")
        walked = walk_memory(held_lines)
        print(f"  the pub's undo walk     {walked / m:>12,.0f} bytes/event  "
              f"({walked / log_bytes:.1f}x the log; beside the live table)")
    if args.long_shot:
        print(f"one carom shot of {args.long_shot:,} events, and one of a quarter of them:")
        took = {}
        for k in (args.long_shot // 4, args.long_shot):
            lines = long_shot(k)
            check = Replay().feed_lines(lines)
            assert not check.errors, check.errors[:3]
            anchors, tooks = cpu_rounds(
                lambda: [json.loads(x) for x in lines],  # noqa: B023
                lambda: Replay().feed_lines(lines),  # noqa: B023
                rounds=args.repeat,
            )
            anchor, took[k] = statistics.median(anchors), statistics.median(tooks)
            print(f"  {k:>7,} events: replay {len(lines) / took[k]:>10,.0f} events/s, "
                  f"json.loads (anchor) {len(lines) / anchor:>10,.0f}/s "
                  f"({spread(anchors, tooks)} json.loads)")
        q, n = args.long_shot // 4, args.long_shot
        print(f"  four times the events took {took[n] / took[q]:.1f} times as long "
              "(linear: 4, quadratic: 16)")
        print("the same shots in the readable account (tablesense replay FILE, no --json):")
        account(long_shot(10))  # its modules and texts loaded before the clock starts
        for k in (q, n):
            lines = long_shot(k)
            anchors, tooks = cpu_rounds(
                lambda: [json.loads(x) for x in lines],  # noqa: B023
                lambda: account(lines),  # noqa: B023
                rounds=args.repeat,
            )
            anchor, took[k] = statistics.median(anchors), statistics.median(tooks)
            print(f"  {k:>7,} events: account {len(lines) / took[k]:>10,.0f} events/s ({took[k]:.2f} s), "
                  f"json.loads (anchor) {len(lines) / anchor:>10,.0f}/s "
                  f"({spread(anchors, tooks)} json.loads)")
        print(f"  four times the events took {took[n] / took[q]:.1f} times as long "
              "(linear: 4, quadratic: 16)")
    if args.free_lines:
        free_live_table(args.free_lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
