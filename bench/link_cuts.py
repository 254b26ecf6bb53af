"""Cable cuts × edge rates: edges sent, arrived and said lost, beside the same run uncut.

The real firmware (MicroPython's unix port, edges played in real time) is read by the host's
``Link`` over ``socket://`` through ``tablesense.sim.cable.Cable``, which cuts the line (every
byte lost both ways, the port stays open) or unplugs it (the port closes and is refused until
it is back). Three tables, each beside its anchor (the same edges with no fault):

1. the sweep: for each rate up to the link's limit (720 EVENT frames/s at 115200 baud),
   ``CUTS`` faults at the same moments, of each length;
2. issue 22's case: 3,000 edges at 500/s, faults of 0.15-0.8 s at random moments 0.1-1.2 s
   apart (they overlap: requests fall into cuts, replays are cut off), three seeds, cut and
   unplugged (the host used to give up "no replay after 3 requests": 230-313 lost);
3. replays cut off again and again: a 0.8 s fault, then six short ones every 0.35 s.

Printed per cell: edges sent / arrived / said lost, and the seconds from the first edge until
every edge was accounted for. A frame said lost must be one the board said it no longer held.

    python bench/link_cuts.py [--kind cut|unplug] [--rates 100,300,500,700]
                              [--lengths 0.15,0.3,0.5,0.8] [--seconds 3] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path

from tablesense.sim.cable import Cable, CutRun, play_with_cuts
from tablesense.sim.fitl import beam_board, round_robin_edges, start_firmware

CUTS = 3  # faults per run, spread over the edges


def one(board: Path, rate: int, seconds: float, faults: list[tuple[float, str, float]]) -> CutRun:
    edges = round_robin_edges(int(rate * seconds), 0, 1_000_000 // rate)
    fw = start_firmware(board, realtime=True)
    try:
        with Cable(fw.port) as cable:
            return asyncio.run(play_with_cuts(fw, cable, edges, faults, timeout=seconds + 60))
    finally:
        fw.stop()


def cell(run: CutRun) -> str:
    done = f"{run.seconds:4.1f} s" if run.finished else "unfinished"
    return f"{run.sent:5d} / {run.arrived:5d} / {run.said_lost:4d}  {done}"


def dense(kind: str, seed: int, span: float) -> list[tuple[float, str, float]]:
    rnd = random.Random(seed)
    t, out = rnd.uniform(0.1, 0.5), []
    while t < span:
        out.append((t, kind, round(rnd.uniform(0.15, 0.8), 3)))
        t += rnd.uniform(0.1, 1.2)
    return out


def stutter(kind: str) -> list[tuple[float, str, float]]:
    short = 0.1 if kind == "unplug" else 0.15
    return [(0.5, kind, 0.8)] + [(1.3 + 0.35 * k, kind, short) for k in range(1, 7)]


def wrong(run: CutRun) -> bool:
    """Lost frames the board did not say it no longer held, or unfinished."""
    kept = ("no longer holds", "more than the device keeps")
    said = [why for *_, why in run.lost if not any(k in why for k in kept)]
    return bool(said) or not run.finished


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--kind", choices=("cut", "unplug"), default="cut")
    p.add_argument("--rates", default="100,300,500,700")
    p.add_argument("--lengths", default="0.15,0.3,0.5,0.8")
    p.add_argument("--seconds", type=float, default=3.0, help="seconds of edges per run")
    p.add_argument("--quick", action="store_true", help="the sweep only")
    args = p.parse_args(argv)
    rates = [int(x) for x in args.rates.split(",")]
    lengths = [float(x) for x in args.lengths.split(",")]
    moments = [args.seconds * (k + 0.5) / CUTS for k in range(CUTS)]
    print(f"cable {args.kind}s: {CUTS} per run of {args.seconds:g} s of edges, the firmware on "
          "MicroPython's unix port in real time, 115200 baud (720 EVENT frames/s)")
    print("each cell: edges sent / arrived / said lost, and the seconds until every edge was "
          "accounted for")
    head = f"{'edges/s':>8} | {'anchor: no cut':>26} | " + " | ".join(
        f"{f'{x:g} s x {CUTS}':>26}" for x in lengths)
    print(head)
    print("-" * len(head))
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        board = beam_board(Path(tmp) / "beams.json")
        for rate in rates:
            anchor = one(board, rate, args.seconds, [])
            cells = []
            for x in lengths:
                run = one(board, rate, args.seconds, [(at, args.kind, x) for at in moments])
                bad += wrong(run)
                cells.append(cell(run))
            print(f"{rate:>8} | {cell(anchor):>26} | " + " | ".join(f"{c:>26}" for c in cells))
        if not args.quick:
            span = 6.0
            print()
            print("issue 22's case: 3,000 edges at 500/s, faults of 0.15-0.8 s at random moments "
                  "0.1-1.2 s apart (overlapping)")
            print(f"{'':>8} | {'anchor: no cut':>26} | " + " | ".join(f"{f'seed {k}':>26}" for k in range(3)))
            anchor = one(board, 500, span, [])
            for kind in ("cut", "unplug"):
                cells = []
                for seed in range(3):
                    faults = dense(kind, seed, span)
                    run = one(board, 500, span, faults)
                    bad += wrong(run)
                    cells.append(f"{cell(run)} ({len(faults)})")
                print(f"{kind:>8} | {cell(anchor):>26} | " + " | ".join(f"{c:>26}" for c in cells))
            print()
            print("replays cut off again and again: a 0.8 s fault, then six short ones every 0.35 s")
            print(f"{'edges/s':>8} | {'anchor: no cut':>26} | {'line cut':>26} | {'unplugged':>26}")
            for rate in rates:
                anchor = one(board, rate, args.seconds, [])
                cells = []
                for kind in ("cut", "unplug"):
                    run = one(board, rate, args.seconds, stutter(kind))
                    bad += wrong(run)
                    cells.append(cell(run))
                print(f"{rate:>8} | {cell(anchor):>26} | " + " | ".join(f"{c:>26}" for c in cells))
    if bad:
        print(f"{bad} run(s) lost frames the board still held, or did not finish")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
