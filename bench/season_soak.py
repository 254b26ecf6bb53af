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

Anchor: first the same season with no fault for ``--anchor-minutes`` (default 1; 0: none),
on the same machine at the same moment: its events, shots and finished matches per
minute are printed beside those under fire.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from soak.faults import KINDS
from soak.season import Report, SoakConfig, format_report, run


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=2.0, help="minutes of play (default 2)")
    ap.add_argument("--seed", type=int, default=0, help="the run to play: the same seed, the same faults")
    ap.add_argument("--only", nargs="*", choices=[*KINDS, "none"], default=None, metavar="KIND",
                    help=f"inject only these fault kinds ({', '.join(KINDS)}; none: no fault)")
    ap.add_argument("--every-kind", action="store_true", help="at least one fault of each kind (short runs)")
    ap.add_argument("--keep", action="store_true", help="keep the work directory (logs, databases)")
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    ap.add_argument("--anchor-minutes", type=float, default=1.0, metavar="M",
                    help="first play M minutes with no fault, the anchor (default 1; 0: none)")
    ap.add_argument("--recheck", metavar="DIR", type=Path,
                    help="check the invariants again over a kept run's work directory (its record.json)")
    args = ap.parse_args(argv)
    missing = [tool for tool in ("mosquitto",) if shutil.which(tool) is None]
    if missing and args.recheck is None:
        print(f"season_soak: {', '.join(missing)} not found: run make broker (Debian's Mosquitto) first",
              file=sys.stderr)
        return 2
    if args.recheck is not None:
        return recheck(args.recheck)
    kinds = KINDS if args.only is None else tuple(k for k in args.only if k != "none")
    cfg = SoakConfig(seed=args.seed, seconds=args.minutes * 60, kinds=kinds, keep=args.keep,
                     every_kind=args.every_kind,
                     settle=max(60.0, args.minutes * 10),
                     say=None if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True)))
    anchor = None
    if args.anchor_minutes > 0 and kinds:
        calm = SoakConfig(seed=args.seed, seconds=args.anchor_minutes * 60, kinds=(), play=cfg.play,
                          say=cfg.say)
        anchor = run(calm)
    start = time.monotonic()
    report = run(cfg)
    print(format_report(report))
    if anchor is not None:
        print(per_minute(report, "under fire"))
        print(per_minute(anchor, "anchor, no fault"))
        print(lost(report, "under fire"))
        print(lost(anchor, "anchor, no fault"))
        if not anchor.ok:
            print("the anchor (no fault) broke invariants too:")
            print(format_report(anchor))
    print(f"wall time {time.monotonic() - start:.0f} s")
    return 0 if report.ok else 1


def per_minute(report: Report, what: str) -> str:
    fig, minutes = report.figures, report.config.seconds / 60
    rate = {"sensor events written": fig["sensor events"]["the boards wrote"], "shots": fig["play"]["shots"],
            "matches finished": fig["play"]["matches finished in the pubs"],
            "league results": fig["league"]["results in the league"]}
    rates = ", ".join(f"{k} {v / minutes:.1f}" for k, v in rate.items())
    return f"per minute ({what}, {minutes:g} min): {rates}"


def lost(report: Report, what: str) -> str:
    """The sensor events' fate and the invariants, one line (beside the anchor's)."""
    ev = report.figures["sensor events"]
    broken = sum(1 for lines in report.broken.values() if lines)
    return (f"sensor events ({what}): written {ev['the boards wrote']}, logged {ev['logged']}, said lost "
            f"{ev['said lost']}, silently lost {ev['silently lost']}, doubled {ev['doubled']}; invariants "
            f"broken {broken} of {len(report.broken)}")


def recheck(work: Path) -> int:
    from soak.record import Record, check

    broken, sensor, _ = check(Record.load(work / "record.json"))
    print(f"sensor events: the boards wrote {sensor.expected}, logged {sensor.logged}, "
          f"said lost {sensor.said_lost}, silently lost {sensor.silently_lost}, doubled {sensor.doubled} "
          f"(and {sensor.doubled_shifted} at another time), out of order {sensor.out_of_order}, "
          f"at a time the board never wrote {sensor.invented}, lost ranges the board still held "
          f"{sensor.lost_said_held}")
    for name, lines in broken.items():
        print(f"{'BROKEN' if lines else 'holds '} {name}")
        for line in lines:
            print(f"  - {line}")
    return 1 if any(broken.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
