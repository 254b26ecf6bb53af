"""How long the command line takes to answer, each as a fresh process, beside the anchor
measured in the same run: a bare ``python -c pass`` of the same interpreter.

``tablesense --version`` and ``--help`` (aim: at most 4x the anchor; the parser is built
from the static table of commands, no command module imported), as ``python -m
tablesense`` and as the ``tablesense`` script ``make setup`` installs; a command's own
``--help`` (its module alone); ``tablesense help cli``; and the serial-port check of a
missing port (``monitor --serial`` on a path that is not there). The cases take turns,
round after round, so that a machine busy with other work slows them all alike; each
gets its wall time and the CPU time of its process (user + system, what load changes
least), and its ratio to the anchor by both.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: as on a user's machine: Python keeps the compiled modules (a PYTHONDONTWRITEBYTECODE of the
#: shell would have every run compile the program again; the warm-up round writes them)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["PYTHONPATH"] = str(ROOT / "host") + os.pathsep + os.environ.get("PYTHONPATH", "")
ROUNDS = 15
AIM = 4.0  # x the anchor, for --version and --help (issue 27)


def cases() -> list[tuple[str, list[str], bool]]:
    """(name, argv, held to the aim) per case; the anchor first."""
    py = [sys.executable]
    ts = [*py, "-m", "tablesense"]
    out = [("anchor: python -c pass", [*py, "-c", "pass"], False),
           ("tablesense --version", [*ts, "--version"], True),
           ("tablesense --help", [*ts, "--help"], True)]
    script = Path(sys.executable).parent / "tablesense"
    if script.is_file():
        out += [(f"{script.name} --version (the installed script)", [str(script), "--version"], True),
                (f"{script.name} --help (the installed script)", [str(script), "--help"], True)]
    out += [("tablesense replay --help (one command's module)", [*ts, "replay", "--help"], False),
            ("tablesense help cli", [*ts, "help", "cli"], False),
            ("tablesense monitor --serial /dev/nonesuch",
             [*ts, "monitor", "--serial", "/dev/nonesuch"], False)]
    return out


def main() -> int:
    every = cases()
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
        print(f"{name}: median {median * 1e3:.0f} ms, best {min(ts) * 1e3:.0f} ms ({ratio:.1f}x the anchor); "
              f"CPU {cpu_median * 1e3:.0f} ms ({cpu_median / anchor_cpu:.1f}x){verdict}")
    print(f"{ROUNDS} rounds, the cases in turn; anchor median {anchor * 1e3:.1f} ms wall, "
          f"{anchor_cpu * 1e3:.1f} ms CPU; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
