"""How long the command line takes to answer, each as a fresh process, beside the anchors
measured in the same run: a bare ``python -c pass`` of the same interpreter, and ``python -c
'import json'`` (what a script that reads JSON pays before its first line).

``tablesense --version`` and ``--help`` (aim: at most 4x the anchor; the parser is built
from the static table of commands, no command module imported), as ``python -m
tablesense`` and as the ``tablesense`` script ``make setup`` installs; a command's own
``--help`` (its module alone); ``tablesense help cli``; the serial-port check of a
missing port (``monitor --serial`` on a path that is not there); and ``tablesense replay
FILE --json`` of a log of three lines of each game (its set-up and two lines: the start-up of
a replay, its imports, parser, rule engine and first sentences; aim about 3x ``python -c pass``,
said beside it but not held: msgspec's own import is more than that, docs/performance.md)
and of one whole recorded match of each game (the start-up a long replay pays: its game's
engine, calls, the rulings' sentences), each beside ``python -c 'import json'``'s CPU.
The cases take turns,
round after round, so that a machine busy with other work slows them all alike; each
gets its wall time and the CPU time of its process (user + system, what load changes
least), and its ratio to the anchor by both.

    .venv/bin/python bench/cli_startup.py [--host DIR] [--before COMMIT] [--replay-only]

``--host DIR``: measure the ``tablesense`` package under DIR instead of this tree's ``host/``
(another checkout's, for a figure before a change; the anchors are the same run's).
``--before COMMIT``: every ``tablesense`` case also with that commit's host package (from
git, in a temporary directory), in the same rounds. ``--replay-only``: the anchors and the
replays only.
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
#: one whole recorded match of each game (what a long replay's start-up loads, rulings said)
MATCHES = {"golf": ROOT / "examples" / "golf-match.jsonl",
           "kegle": ROOT / "tests" / "matches" / "kegle" / "draw__after_last_series.jsonl",
           "carom": ROOT / "tests" / "matches" / "carom" / "bandstoten__kampioen_white_wins.jsonl"}


def first_lines(path: Path, n: int = 3) -> str:
    """The first ``n`` lines of the log at ``path``."""
    return "".join(path.read_text(encoding="utf-8").splitlines(True)[:n])


#: the short logs: the first three lines of each game's match (its set-up and two lines: the
#: start-up of a replay, its imports, parser, rule engine and first sentences)
SHORT_LOGS = {game: first_lines(path) for game, path in MATCHES.items()}

#: a case: its name, its command line, whether it is held to the aim, the PYTHONPATH it runs with
Case = tuple[str, list[str], bool, str]


def cases(short_logs: dict[str, Path], host: str, before: str | None = None,
          replay_only: bool = False) -> list[Case]:
    """The cases, the anchors first; with ``before`` (a host folder) each ``tablesense`` case
    again with it, just after its own."""
    py = [sys.executable]
    ts = [*py, "-m", "tablesense"]
    ours: list[tuple[str, list[str], bool]] = []
    if not replay_only:
        ours += [("tablesense --version", [*ts, "--version"], True),
                 ("tablesense --help", [*ts, "--help"], True)]
        script = Path(sys.executable).parent / "tablesense"
        if script.is_file() and before is None:  # the script runs its own tree's package, whatever the path
            ours += [(f"{script.name} --version (the installed script)", [str(script), "--version"], True),
                     (f"{script.name} --help (the installed script)", [str(script), "--help"], True)]
        ours += [("tablesense replay --help (one command's module)", [*ts, "replay", "--help"], False),
                 ("tablesense help cli", [*ts, "help", "cli"], False),
                 ("tablesense monitor --serial /dev/nonesuch",
                  [*ts, "monitor", "--serial", "/dev/nonesuch"], False)]
    for game, short_log in short_logs.items():
        ours.append((f"tablesense replay FILE --json (3 lines, {game})",
                     [*ts, "replay", str(short_log), "--json"], False))
    for game, path in MATCHES.items():
        lines = sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
        ours.append((f"tablesense replay FILE --json (a {game} match, {lines} lines)",
                     [*ts, "replay", str(path), "--json"], False))
    out: list[Case] = [("anchor: python -c pass", [*py, "-c", "pass"], False, host),
                       ("anchor: python -c 'import json'", [*py, "-c", "import json"], False, host)]
    for name, argv, aim in ours:
        out.append((name, argv, aim, host))
        if before is not None:
            out.append((f"{name} (before)", argv, aim, before))
    return out


def main() -> int:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", type=Path, default=ROOT / "host",
                    help="the folder holding the tablesense package to measure (default: this tree's host/)")
    ap.add_argument("--before", metavar="COMMIT", help="also measure this commit's host package, same rounds")
    ap.add_argument("--replay-only", action="store_true", help="the anchors and the replays only")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="tablesense-cli-startup-") as tmp:
        ENV["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")  # compiled once, outside the trees
        short_logs = {game: Path(tmp) / f"{game}-3.jsonl" for game in SHORT_LOGS}
        for game, path in short_logs.items():
            path.write_text(SHORT_LOGS[game], encoding="utf-8")
        before = str(old_tree(args.before, Path(tmp) / "old")) if args.before else None
        if args.before:
            print(f"before: {args.before}")
        return measure(cases(short_logs, str(args.host.resolve()), before, args.replay_only))


def old_tree(commit: str, tmp: Path) -> Path:
    """The host package of ``commit``, unpacked under ``tmp``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "host"],
                             capture_output=True, check=True).stdout
    tmp.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive, check=True)
    return (tmp / "host").resolve()


def _env(host: str) -> dict[str, str]:
    return {**ENV, "PYTHONPATH": host + os.pathsep + os.environ.get("PYTHONPATH", "")}


def measure(every: list[Case]) -> int:
    times: list[list[float]] = [[] for _ in every]
    cpu: list[list[float]] = [[] for _ in every]
    envs = [_env(host) for *_, host in every]
    for (_name, argv, _aim, _host), env in zip(every, envs):  # the warm-up round: the modules compiled
        subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    for _ in range(ROUNDS):
        for i, (_name, argv, _aim, _host) in enumerate(every):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run(argv, env=envs[i], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           check=False)
            times[i].append(time.perf_counter() - t)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[i].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    anchor, anchor_cpu = statistics.median(times[0]), statistics.median(cpu[0])
    missed = 0
    for (name, _argv, aim, _host), ts, cs in zip(every, times, cpu):
        median, cpu_median = statistics.median(ts), statistics.median(cs)
        ratio = median / anchor
        verdict = ""
        if aim:
            verdict = f"  aim <= {AIM:g}x: {'met' if ratio <= AIM else 'MISSED'}"
            missed += ratio > AIM and not name.endswith("(before)")  # only this tree's figures are held
        elif name.startswith("tablesense replay FILE"):
            cpu_ratio = cpu_median / anchor_cpu
            met = "met" if cpu_ratio <= REPLAY_AIM else "not met"
            verdict = (f"  aim ~{REPLAY_AIM:g}x CPU (not held): {met}; "
                       f"{cpu_median / statistics.median(cpu[1]):.2f}x import json's CPU")
        print(f"{name}: median {median * 1e3:.0f} ms, best {min(ts) * 1e3:.0f} ms ({ratio:.1f}x the anchor); "
              f"CPU {cpu_median * 1e3:.0f} ms ({cpu_median / anchor_cpu:.1f}x){verdict}")
    print(f"{ROUNDS} rounds, the cases in turn; anchor median {anchor * 1e3:.1f} ms wall, "
          f"{anchor_cpu * 1e3:.1f} ms CPU; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
