"""Benchmark: a league season under fire (docs/reliability.md, "A season under fire").

Usage: python bench/season_soak.py [--minutes N] [--seed S] [--only KIND ...] [--keep]

Three pubs of two tables each play match after match -- the simulator's players on the
real firmware under MicroPython's unix port, the referee's calls through the panel's HTTP
API, every pub's ``tablesense run`` publishing to a real Mosquitto and ``tablesense league
serve`` taking the matches -- while the fault plan drawn from the seed kills hosts, the
league service and the broker, cuts cables, reboots boards, fills disks, loads both cores,
sends hostile web clients and junk MQTT messages. At the end it prints the figures
(faults injected and survived per kind, events, shots, matches, calls) and every broken
invariant with the seed that repeats the run; exit status 1 if an invariant broke.

Anchor: the same soak's own figures with no fault (``--only none``) on this machine,
which is what the faults are measured against (events the boards wrote, matches
finished in the same minutes).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from soak.faults import KINDS
from soak.season import SoakConfig, format_report, run


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=2.0, help="minutes of play (default 2)")
    ap.add_argument("--seed", type=int, default=0, help="the run to play: the same seed, the same faults")
    ap.add_argument("--only", nargs="*", choices=[*KINDS, "none"], default=None, metavar="KIND",
                    help=f"inject only these fault kinds ({', '.join(KINDS)}; none: no fault)")
    ap.add_argument("--every-kind", action="store_true", help="at least one fault of each kind (short runs)")
    ap.add_argument("--keep", action="store_true", help="keep the work directory (logs, databases)")
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    ap.add_argument("--recheck", metavar="DIR", type=Path,
                    help="check the invariants again over a kept run's work directory (its record.json)")
    args = ap.parse_args(argv)
    if args.recheck is not None:
        return recheck(args.recheck)
    kinds = KINDS if args.only is None else tuple(k for k in args.only if k != "none")
    cfg = SoakConfig(seed=args.seed, seconds=args.minutes * 60, kinds=kinds, keep=args.keep,
                     every_kind=args.every_kind,
                     settle=max(60.0, args.minutes * 10),
                     say=None if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True)))
    start = time.monotonic()
    report = run(cfg)
    print(format_report(report))
    print(f"wall time {time.monotonic() - start:.0f} s")
    return 0 if report.ok else 1


def recheck(work: Path) -> int:
    from soak.record import Record, check

    broken, sensor, _ = check(Record.load(work / "record.json"))
    print(f"sensor events: the boards wrote {sensor.expected}, logged {sensor.logged}, "
          f"said lost {sensor.said_lost}, silently lost {sensor.silently_lost}, doubled {sensor.doubled}")
    for name, lines in broken.items():
        print(f"{'BROKEN' if lines else 'holds '} {name}")
        for line in lines:
            print(f"  - {line}")
    return 1 if any(broken.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
