"""Benchmark: replay a long synthetic golf billiards log and print events per second.

The log is a run of whole best-of-three matches (a fixed seed, so every run replays
the same events): shots with several cushion contacts each, misses, valid goals, own
goals with the replacement spot called, opponent's balls in a goal, balls off the
table, late foul calls, and the time calls of the turn clock. Three figures:

- ``parse+engine``: ``Replay.feed_lines`` on the JSON lines (what ``tablesense replay`` does);
- ``engine``: ``Replay.apply`` on events already parsed (the rule engine alone);
- ``json.loads``: the same lines read by ``json.loads`` alone, the anchor measured in the
  same run (issue 13's aim: replay with parsing at 300,000 events/s or more);
- ``undo chain``: the memory a replay of one long match holds with every state
  reachable by undo (a live table's), per event, for its first half and the whole of
  it, beside the log's own bytes per line: it should grow no faster than the log.

Usage: ``python bench/golf_replay.py [EVENTS]`` (default 200000), one core.
"""

from __future__ import annotations

import json
import random
import sys
import time
import tracemalloc
from typing import Any

from tablesense.events import parse_event, parse_line
from tablesense.replay import Replay


def _match(rng: random.Random, t0: float) -> list[dict[str, Any]]:
    """One whole match as event dicts. The engine itself (not timed here) says who is
    at the table and how many balls are left, so the log is always a legal match."""
    setup = {"t": t0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}
    out: list[dict[str, Any]] = [setup]
    rep = Replay()
    rep.apply(parse_event(setup))
    attacks = {"p1": "B", "p2": "A"}
    opp = {"p1": "p2", "p2": "p1"}
    t = t0
    while True:
        state = rep.state
        assert state is not None
        if state.finished:
            return out
        at = state.at_table or "p1"
        left = dict(zip(("p1", "p2"), state.balls_left))
        unit: list[dict[str, Any]] = []
        t += 3.0
        if state.frame == 3 and not state.frame_units and rng.random() < 0.5:
            unit.append({"t": round(t, 6), "type": "call", "call": "start", "player": opp[at]})
        for _ in range(rng.randint(2, 6)):
            t += 0.13
            unit.append({"t": round(t, 6), "type": "cushion", "cushion": rng.randint(1, 4), "ball": None})
        r = rng.random()
        if r < 0.30:  # valid goal
            unit.append({"t": round(t + 0.05, 6), "type": "goal", "goal": attacks[at], "ball": at})
        elif r < 0.34:  # own goal
            unit.append({"t": round(t + 0.05, 6), "type": "goal", "goal": attacks[opp[at]], "ball": at})
        elif r < 0.40 and left[opp[at]] > 1:  # the opponent's ball into a goal
            unit.append({"t": round(t + 0.05, 6), "type": "goal", "goal": attacks[opp[at]], "ball": opp[at]})
        t += 1.0
        unit.append({"t": round(t, 6), "type": "rest"})
        if 0.40 <= r < 0.42:  # a late touch call
            unit.append({"t": round(t + 0.5, 6), "type": "call", "call": "foul", "foul": "touch"})
        elif 0.42 <= r < 0.43:  # the next player runs out of time
            t += 61.0
            unit.append({"t": round(t, 6), "type": "call", "call": "time"})
        for e in unit:
            rep.apply(parse_event(e))
        for q in rep.state.questions if rep.state is not None else ():
            if q.rule == "golf.spot.choice":
                e = {"t": round(t + 0.7, 6), "type": "call", "call": "spot", "ball": q.get("ball"),
                     "spot": rng.randint(1, 3)}
            else:
                e = {"t": round(t + 0.7, 6), "type": "call", "call": "answer", "question": q.id,
                     "answer": q.options[0]}
            unit.append(e)
            rep.apply(parse_event(e))
        out += unit


def synthetic_log(n_events: int, seed: int = 4) -> list[str]:
    rng = random.Random(seed)
    lines: list[str] = []
    t = 0.0
    while len(lines) < n_events:
        events = _match(rng, t)
        t = events[-1]["t"] + 100.0
        lines += [json.dumps(e) for e in events]
    return lines


def _best(run: Any, repeat: int = 3) -> float:
    """Best of ``repeat`` runs, in CPU seconds of this process (steadier than the wall
    clock on a shared machine)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def long_match(n_events: int, seed: int = 5) -> list[str]:
    """One match that never ends: shots without goals, late touch calls, time calls."""
    rng = random.Random(seed)
    out = [json.dumps({"t": 0.0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}})]
    t = 0.0
    while len(out) < n_events:
        t += 3.0
        for _ in range(rng.randint(2, 6)):
            t += 0.13
            out.append(json.dumps({"t": round(t, 6), "type": "cushion", "cushion": rng.randint(1, 4),
                                   "ball": None}))
        t += 1.0
        out.append(json.dumps({"t": round(t, 6), "type": "rest"}))
        r = rng.random()
        if r < 0.05:
            out.append(json.dumps({"t": round(t + 0.5, 6), "type": "call", "call": "foul", "foul": "touch"}))
        elif r < 0.07:
            t += 61.0
            out.append(json.dumps({"t": round(t, 6), "type": "call", "call": "time"}))
    return out


def _held(events: list[Any]) -> int:
    """Bytes a replay of ``events`` holds at its end (every state reachable by undo)."""
    tracemalloc.start()
    rep = Replay()
    for e in events:
        rep.apply(e)
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return held


def main(argv: list[str]) -> int:
    n = int(argv[1]) if len(argv) > 1 else 200_000
    lines = synthetic_log(n)
    check = Replay().feed_lines(lines)
    if check.errors:
        print(f"synthetic log has errors: {check.errors[:3]}", file=sys.stderr)
        return 1
    events = [parse_line(line) for line in lines]

    def engine_only() -> None:
        rep = Replay()
        for e in events:
            rep.apply(e)

    def loads_only() -> None:
        for line in lines:
            json.loads(line)

    full = _best(lambda: Replay().feed_lines(lines))
    engine = _best(engine_only)
    anchor = _best(loads_only)
    matches = sum(1 for e in events if e.type == "setup")
    shots = sum(1 for e in events if e.type == "rest")
    print(f"golf replay: {len(lines)} events, {matches} matches, {shots} shots")
    print("best of 3 runs, CPU time of one process (one core)")
    print(f"parse+engine: {len(lines) / full:>10,.0f} events/s ({full:.2f} s)")
    print(f"engine:       {len(events) / engine:>10,.0f} events/s ({engine:.2f} s)")
    print(f"json.loads:   {len(lines) / anchor:>10,.0f} lines/s ({anchor:.2f} s; the anchor)")
    long = long_match(min(n, 100_000))
    one = [parse_line(line) for line in long]
    half = len(one) // 2
    per_line = sum(len(line) + 1 for line in long) / len(long)
    print(f"undo chain:   {_held(one[:half]) / half:>10,.0f} bytes/event at {half} events of one match, "
          f"{_held(one) / len(one):,.0f} at {len(one)} (the log: {per_line:.0f} bytes/line)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
