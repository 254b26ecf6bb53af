"""Keglebillard replay speed: events per second of a long synthetic match on one core.

Prints three figures: the engine alone (``engine.apply`` on parsed events), the
whole replay (JSON parsing + engine, as ``tablesense replay`` does it), and the
number of events and shots. Times are CPU time of this process (``process_time``),
so other work on a shared machine does not count against it. The match is deterministic (seeded), with pins,
caramboles, misses, faults, a late referee call now and then, and the pins put up
after every shot that toppled them.

    .venv/bin/python bench/kegle_replay.py [--shots N]

Last, the memory of the undo chain (every state an undo can reach, as on a live table that
keeps all of its history), beside the size of the log: msgspec states share what they do
not change, and the rulings are a persistent log, so it grows with the log, not faster.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import tracemalloc
from typing import Any

from tablesense.events import parse_line
from tablesense.replay import Replay
from tablesense.rules import find_engine


def synthetic_match(shots: int, seed: int = 5) -> list[str]:
    """JSONL lines of a long keglebillard match that does not finish."""
    rng = random.Random(seed)
    t = 0.0
    out: list[dict[str, Any]] = [
        {"t": 0.0, "type": "setup", "game": "kegle", "players": {"p1": "Ann", "p2": "Bob"},
         "distance": 10**9},
    ]

    def ev(kind: str, **kw: Any) -> None:
        nonlocal t
        t += rng.uniform(0.01, 0.4)
        out.append({"t": round(t, 6), "type": kind, **kw})

    for _ in range(shots):
        ev("strike", ball="red")
        for _ in range(rng.randint(1, 4)):
            ev("cushion", cushion=rng.randint(1, 4), ball=rng.choice(["red", "white", None]))
        roll = rng.random()
        toppled: list[int] = []
        if roll < 0.25:
            ev("contact", balls=["red", "white"])
            ev("contact", balls=["red", "white"])
        if roll > 0.35:
            ev("contact", balls=["red", "white"])
            toppled = rng.sample(range(1, 6), rng.randint(1, 3))
            for pin in toppled:
                ev("pin", pin=pin, state="down")
        if rng.random() < 0.03:
            ev("pocket", pocket=rng.randint(1, 6), ball=rng.choice(["red", "white"]))
        ev("rest")
        if rng.random() < 0.02:
            ev("call", call="foul", foul="foot")
        for pin in toppled:
            ev("pin", pin=pin, state="up")
    return [json.dumps(o) for o in out]


def reference_us() -> float:
    """Microseconds for ``sum(range(1000))``: how busy this machine is (about 8 us on an idle
    laptop core of 2024); read the figures below against it."""
    best = float("inf")
    for _ in range(5):
        t0 = time.process_time()
        for _ in range(200):
            sum(range(1000))
        best = min(best, (time.process_time() - t0) / 200)
    return best * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", type=int, default=2000,
                    help="shots in the match (2000: a very long match, about 16,500 events)")
    args = ap.parse_args()
    print(f"reference: sum(range(1000)) takes {reference_us():.1f} us of CPU on this machine")
    lines = synthetic_match(args.shots)
    events = [parse_line(x) for x in lines]

    engine = find_engine("kegle")
    best = float("inf")
    for _ in range(3):
        t0 = time.process_time()
        state = engine.new_state(events[0])  # type: ignore[arg-type]
        for e in events[1:]:
            state = engine.apply(state, e)
        best = min(best, time.process_time() - t0)
    n = len(events) - 1

    t0 = time.process_time()
    rep = Replay().feed_lines(lines)
    whole = time.process_time() - t0
    assert not rep.errors, rep.errors[:3]

    t0 = time.process_time()
    for x in lines:
        json.loads(x)
    loads = time.process_time() - t0

    final = engine.to_json(state)
    print(f"kegle replay: {n} events, {args.shots} shots, points {final['points']}, series {final['series']}")
    print(f"engine.apply: {n / best:,.0f} events/s ({best * 1e6 / n:.2f} us/event)")
    print(f"replay (parse + engine): {len(lines) / whole:,.0f} events/s; "
          f"json.loads alone of the same lines: {len(lines) / loads:,.0f} lines/s")
    undo_memory(engine, events, lines)


def undo_memory(engine: Any, events: list[Any], lines: list[str]) -> None:
    """What the whole undo chain (every state an undo can reach, as on a live table) holds,
    beside the log's own size: it should grow no faster than the log."""
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    parsed = [parse_line(x) for x in lines]
    events_only = tracemalloc.get_traced_memory()[0] - base
    del parsed
    base = tracemalloc.get_traced_memory()[0]
    state = engine.new_state(events[0])
    for e in events[1:]:
        state = engine.apply(state, e)
    held = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    depth, s = 0, state
    while s is not None:
        depth, s = depth + 1, s.checkpoint
    log = sum(len(x) + 1 for x in lines)
    per = len(events)
    print(f"undo chain: {depth:,} states reachable, {held / 1e6:.1f} MB held by the states "
          f"({held / per:.0f} bytes/event; the parsed events they point to: "
          f"{events_only / per:.0f} bytes/event) "
          f"beside a log of {log / 1e6:.1f} MB ({log / per:.0f} bytes/event)")


if __name__ == "__main__":
    main()
