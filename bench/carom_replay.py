"""Benchmark: replay speed of the carom engine on a long synthetic match (events/s).

Usage: python bench/carom_replay.py [--shots N] [--repeat R] [--discipline libre|bandstoten|driebanden]

Builds a full-information driebanden/libre match (strike, cushions with ball, contacts,
rest with positions) of N shots with huge targets so that it never ends early, then
times ``Engine.apply`` over the parsed events (parsing excluded; the best of R runs)
and the whole ``Replay.feed_lines`` path (parsing included). Prints events/s for
both beside ``json.loads`` of the same lines (the anchor: on a busy machine every
figure drops together), and the memory the states kept for undo take beside the
log's size, for the first and the second half of the match (undo's memory grows
no faster than the log when the two halves cost the same per shot).
"""

from __future__ import annotations

import argparse
import json
import random
import time
import timeit
import tracemalloc
from typing import Any

from tablesense.events import parse_line
from tablesense.replay import Replay
from tablesense.rules import find_engine


def synthetic_match(shots: int, discipline: str = "libre", seed: int = 1) -> list[str]:
    rnd = random.Random(seed)
    lines = [json.dumps({"t": 0, "type": "setup", "game": "carom", "discipline": discipline,
                         "profile": "liemers", "players": {"p1": "Ann", "p2": "Bob"},
                         "targets": {"p1": 10**6, "p2": 10**6}})]
    t = 0.0
    player = "p1"
    for _ in range(shots):
        cue = "yellow" if player == "p1" else "white"
        objects = ["red", "white" if cue == "yellow" else "yellow"]
        rnd.shuffle(objects)
        t += 5.0
        lines.append(json.dumps({"t": round(t, 6), "type": "strike", "ball": cue}))
        for k in range(rnd.randint(0, 4)):
            t += 0.3
            lines.append(json.dumps({"t": round(t, 6), "type": "cushion", "cushion": k % 4 + 1, "ball": cue}))
        t += 0.2
        lines.append(json.dumps({"t": round(t, 6), "type": "contact", "balls": [cue, objects[0]]}))
        scored = rnd.random() < 0.6
        if scored:
            for k in range(3 if discipline == "driebanden" else 1):
                t += 0.3
                lines.append(json.dumps({"t": round(t, 6), "type": "cushion", "cushion": k % 4 + 1,
                                         "ball": cue}))
            t += 0.2
            lines.append(json.dumps({"t": round(t, 6), "type": "contact", "balls": [cue, objects[1]]}))
        else:
            player = "p2" if player == "p1" else "p1"
        t += 1.0
        pos = {b: [round(rnd.uniform(0.1, 2.7), 3), round(rnd.uniform(0.1, 1.3), 3)]
               for b in ("yellow", "white", "red")}
        lines.append(json.dumps({"t": round(t, 6), "type": "rest", "positions": pos}))
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=3, help="runs of the engine; the best is printed")
    ap.add_argument("--discipline", default="libre", choices=("libre", "bandstoten", "driebanden"))
    args = ap.parse_args()
    lines = synthetic_match(args.shots, args.discipline)
    events = [parse_line(x) for x in lines]
    engine = find_engine("carom")
    n = len(events) - 1
    best = best_cpu = float("inf")
    state = None
    for _ in range(max(1, args.repeat)):
        state = engine.new_state(events[0])  # type: ignore[arg-type]
        start, start_cpu = time.perf_counter(), time.process_time()
        for ev in events[1:]:
            state = engine.apply(state, ev)
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - start_cpu)
    start = time.process_time()
    rep = Replay().feed_lines(lines)
    replay_s = time.process_time() - start
    assert not rep.errors, rep.errors[:3]
    calib = min(timeit.repeat("sum(range(100))", number=20000, repeat=5)) / 20000 * 1e6
    start = time.process_time()
    for x in lines:
        json.loads(x)
    loads_s = time.process_time() - start
    half, full = undo_memory(engine, events)
    log_bytes = sum(len(x) + 1 for x in lines)
    print(f"carom {args.discipline}: {args.shots} shots, {n} events, "
          f"caroms {state.m.caroms}, innings {state.m.innings}")
    print(f"engine.apply: {n / best_cpu:,.0f} events/s of CPU time ({best_cpu * 1e6 / n:.2f} us/event, "
          f"best of {args.repeat}); wall clock {n / best:,.0f} events/s")
    print(f"replay (parse + apply): {n / replay_s:,.0f} events/s of CPU time; "
          f"json.loads alone reads the same lines at {len(lines) / loads_s:,.0f} lines/s")
    print(f"undo memory (every state an undo can reach): {full / 1e6:.1f} MB for a log of "
          f"{log_bytes / 1e6:.1f} MB ({full / log_bytes:.2f} bytes per byte of log); per shot "
          f"{2 * half / args.shots:,.0f} bytes in the first half, "
          f"{2 * (full - half) / args.shots:,.0f} in the second")
    print(f"machine: sum(range(100)) takes {calib:.2f} us (about 0.6-0.9 us on an idle core)")


def undo_memory(engine: Any, events: list[Any]) -> tuple[int, int]:
    """Bytes allocated and still held by the states after half the events and after all
    (the parsed events themselves, made before, are not counted)."""
    tracemalloc.start()
    state = engine.new_state(events[0])
    half = 0
    for i, ev in enumerate(events[1:], 1):
        state = engine.apply(state, ev)
        if i == len(events) // 2:
            half = tracemalloc.get_traced_memory()[0]
    full = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert state is not None
    return half, full


if __name__ == "__main__":
    main()
