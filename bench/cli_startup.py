"""How long the command line takes to answer, each as a fresh process, beside the anchors
measured in the same run: a bare ``python -c pass`` of the same interpreter, and ``python -c
'import json'`` (what a script that reads JSON pays before its first line).

``tablesense --version`` and ``--help`` (aim: at most 4x the anchor; the parser is built
from the static table of commands, no command module imported), as ``python -m
tablesense`` and as the ``tablesense`` script ``make setup`` installs; a command's own
``--help`` (its module alone); ``tablesense help cli``; the serial-port check of a
missing port (``monitor --serial`` on a path that is not there); and ``tablesense replay
FILE --json`` of a log of three lines (a golf set-up, the start, a rest: the start-up of a
replay, its imports, parser, rule engine and first sentences; aim about 3x ``python -c pass``,
said beside it but not held: msgspec's own import is more than that, docs/performance.md).
The cases take turns,
round after round, so that a machine busy with other work slows them all alike; each
gets its wall time and the CPU time of its process (user + system, what load changes
least), and its ratio to the anchor by both.

    .venv/bin/python bench/cli_startup.py [--host DIR]

``--host DIR``: measure the ``tablesense`` package under DIR instead of this tree's ``host/``
(another checkout's, for a figure before a change; the anchors are the same run's).
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: as on a user's machine: Python keeps the compiled modules (a PYTHONDONTWRITEBYTECODE of the
#: shell would have every run compile the program again; the warm-up round writes them, under
#: a temporary PYTHONPYCACHEPREFIX: nothing is written in the tree measured)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

ROUNDS = 15
AIM = 4.0  # x the anchor, for --version and --help (issue 27)
REPLAY_AIM = 3.0  # x the anchor's CPU, for the replay of a short log: said, not held (issue 27)
#: the short log: the first three lines of the example match
SHORT_LOG = "".join((ROOT / "examples" / "golf-match.jsonl").read_text(encoding="utf-8").splitlines(True)[:3])


def cases(short_log: Path) -> list[tuple[str, list[str], bool]]:
    """(name, argv, held to the aim) per case; the anchor first."""
    py = [sys.executable]
    ts = [*py, "-m", "tablesense"]
    out = [("anchor: python -c pass", [*py, "-c", "pass"], False),
           ("anchor: python -c 'import json'", [*py, "-c", "import json"], False),
           ("tablesense --version", [*ts, "--version"], True),
           ("tablesense --help", [*ts, "--help"], True)]
    script = Path(sys.executable).parent / "tablesense"
    if script.is_file():
        out += [(f"{script.name} --version (the installed script)", [str(script), "--version"], True),
                (f"{script.name} --help (the installed script)", [str(script), "--help"], True)]
    out += [("tablesense replay --help (one command's module)", [*ts, "replay", "--help"], False),
            ("tablesense help cli", [*ts, "help", "cli"], False),
            ("tablesense monitor --serial /dev/nonesuch",
             [*ts, "monitor", "--serial", "/dev/nonesuch"], False),
            ("tablesense replay FILE --json (3 lines)", [*ts, "replay", str(short_log), "--json"], False)]
    return out


def main() -> int:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", type=Path, default=ROOT / "host",
                    help="the folder holding the tablesense package to measure (default: this tree's host/)")
    args = ap.parse_args()
    ENV["PYTHONPATH"] = str(args.host.resolve()) + os.pathsep + os.environ.get("PYTHONPATH", "")
    with tempfile.TemporaryDirectory(prefix="tablesense-cli-startup-") as tmp:
        ENV["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")  # compiled once, outside the trees
        short_log = Path(tmp) / "golf-3.jsonl"
        short_log.write_text(SHORT_LOG, encoding="utf-8")
        return measure(cases(short_log))


def measure(every: list[tuple[str, list[str], bool]]) -> int:
    times: list[list[float]] = [[] for _ in every]
    cpu: list[list[float]] = [[] for _ in every]
    for _name, argv, _aim in every:  # the warm-up round: the compiled modules written
        subprocess.run(argv, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    for _ in range(ROUNDS):
        for i, (_name, argv, _aim) in enumerate(every):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run(argv, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            times[i].append(time.perf_counter() - t)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[i].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    anchor, anchor_cpu = statistics.median(times[0]), statistics.median(cpu[0])
    missed = 0
    for (name, _argv, aim), ts, cs in zip(every, times, cpu):
        median, cpu_median = statistics.median(ts), statistics.median(cs)
        ratio = median / anchor
        verdict = ""
        if aim:
            verdict = f"  aim <= {AIM:g}x: {'met' if ratio <= AIM else 'MISSED'}"
            missed += ratio > AIM
        elif name.startswith("tablesense replay FILE"):
            cpu_ratio = cpu_median / anchor_cpu
            met = "met" if cpu_ratio <= REPLAY_AIM else "not met"
            verdict = (f"  aim ~{REPLAY_AIM:g}x CPU (not held): {met}; "
                       f"{cpu_median / statistics.median(cpu[1]):.1f}x import json's CPU")
        print(f"{name}: median {median * 1e3:.0f} ms, best {min(ts) * 1e3:.0f} ms ({ratio:.1f}x the anchor); "
              f"CPU {cpu_median * 1e3:.0f} ms ({cpu_median / anchor_cpu:.1f}x){verdict}")
    print(f"{ROUNDS} rounds, the cases in turn; anchor median {anchor * 1e3:.1f} ms wall, "
          f"{anchor_cpu * 1e3:.1f} ms CPU; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
