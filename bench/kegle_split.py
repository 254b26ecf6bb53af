"""Where keglebillard's replay time goes: the engine's own work beside the rest, and ``json.loads``.

The log is bench/kegle_replay.py's long match (``--events``, default ~62,000 events, the
log bench/replay_speed.py uses), or with ``--recorded`` keglebillard's recorded matches
(tests/matches/kegle/) over and over to ``--events`` lines, as bench/replay_process.py makes
them (short matches: a set-up every 10-60 lines, three in ten shots with a hole, a ball off the
table or a question). In the same run, CPU time of this process, best of ``--repeat``:

- ``json.loads`` of the lines (the anchor);
- the whole replay (``Replay.feed_lines``, parsing included);
- the engine's own work, each call made again on the arguments the replay gave it:
  ``verdict.settle`` (a shot's decision at its rest; how many of the shots are plain, decided in
  one pass by ``plain.plain_shot``), ``KegleEngine.incident`` (a pin put
  up, between shots), ``KegleEngine.check`` (every sensor event);
- the rest: the replay less those, i.e. parsing, the shot cut and the shot stage
  (``rules/shot_engine.py``) and the replay's loop, with its ratio to ``json.loads``: the
  best the replay could reach with an engine that took no time.

    .venv/bin/python bench/kegle_split.py [--events N] [--repeat R] [--recorded]

Run it with ``PYTHONPATH=<another tree>/host`` for that tree's figures (the before).
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tablesense.replay import Replay
from tablesense.rules.kegle import engine as kegle

HERE = Path(__file__).resolve().parent


def best_cpu(run: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def recorded_calls(lines: list[str]) -> tuple[list[Any], list[Any], list[Any]]:
    """The arguments of every ``settle``, ``incident`` and ``check`` call of one replay."""
    settles: list[Any] = []
    incidents: list[Any] = []
    checks: list[Any] = []
    settle, incident, check = kegle.settle, kegle.KegleEngine.incident, kegle.KegleEngine.check

    def settle_kept(before: Any, shot: Any) -> Any:
        settles.append((before, shot))
        return settle(before, shot)

    def incident_kept(self: Any, state: Any, event: Any) -> Any:
        incidents.append((state, event))
        return incident(self, state, event)

    def check_kept(self: Any, event: Any) -> None:
        checks.append(event)
        check(self, event)

    kegle.settle, kegle.KegleEngine.incident, kegle.KegleEngine.check = (  # type: ignore[method-assign]
        settle_kept, incident_kept, check_kept)
    try:
        Replay().feed_lines(lines)
    finally:
        kegle.settle, kegle.KegleEngine.incident, kegle.KegleEngine.check = (  # type: ignore[method-assign]
            settle, incident, check)
    return settles, incidents, checks


def recorded(n: int) -> list[str]:
    """``n`` lines of the recorded matches, over and over (bench/replay_process.py's ``make_log``)."""
    spec = importlib.util.spec_from_file_location("replay_process", HERE / "replay_process.py")
    assert spec and spec.loader
    process = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(process)
    with tempfile.TemporaryDirectory(prefix="tablesense-kegle-split-") as tmp:
        path = Path(tmp) / "recorded.jsonl"
        process.make_log(path, "kegle", n)
        return path.read_text(encoding="utf-8").splitlines()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=60_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--recorded", action="store_true", help="the recorded matches, not one long match")
    args = ap.parse_args(argv)
    spec = importlib.util.spec_from_file_location("kegle_replay", HERE / "kegle_replay.py")
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    if args.recorded:
        lines = recorded(args.events)
    else:
        lines = bench.synthetic_match(max(10, args.events // 8))
    settles, incidents, checks = recorded_calls(lines)
    engine = kegle.KegleEngine()
    anchor = best_cpu(lambda: [json.loads(x) for x in lines], args.repeat)
    whole = best_cpu(lambda: Replay().feed_lines(lines), args.repeat)
    r = args.repeat
    parts = {
        "settle": (len(settles), best_cpu(lambda: [kegle.settle(b, s) for b, s in settles], r)),
        "incident": (len(incidents), best_cpu(lambda: [engine.incident(s, e) for s, e in incidents], r)),
        "check": (len(checks), best_cpu(lambda: [engine.check(e) for e in checks], r)),
    }
    n = len(lines)
    what = "its recorded matches" if args.recorded else "one long match"
    print(f"keglebillard, {what}, {n:,} lines; CPU time of one process, best of {args.repeat}")
    print(f"  json.loads (anchor)   {anchor * 1e3:7.0f} ms  {n / anchor:>10,.0f} lines/s")
    print(f"  replay, parsing incl. {whole * 1e3:7.0f} ms  {n / whole:>10,.0f} lines/s  "
          f"({anchor / whole:.2f}x json.loads)")
    engine_s = 0.0
    for name, (calls, took) in parts.items():
        engine_s += took
        print(f"  the engine: {name:<9} {took * 1e3:7.0f} ms  {calls:>7,} calls x "
              f"{took / calls * 1e6:5.2f} us")
    rest = whole - engine_s
    print(f"  the engine, in all    {engine_s * 1e3:7.0f} ms  ({engine_s / whole:.0%} of the replay)")
    try:  # a tree with the one-pass decision of a plain shot (rules/kegle/plain.py)
        from tablesense.rules.kegle.plain import plain_shot
    except ImportError:
        pass
    else:
        plain = sum(1 for b, s in settles if plain_shot(b, s) is not None)
        print(f"  of the shots, plain   {plain:7,} of {len(settles):,} (decided in one pass)")
    print(f"  the rest              {rest * 1e3:7.0f} ms  (parsing, cut, shot stage, replay loop: "
          f"{anchor / rest:.2f}x json.loads with a free engine)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
