"""``tablesense replay FILE --json`` as a process, beside ``json.loads`` of the same lines as one.

For each game, two logs of ``--lines`` lines (default 200,000): ``long``, one long match of
the game as bench/replay_speed.py makes it (golf: its run of whole matches), and
``recorded``, its recorded matches (tests/matches/GAME/*.jsonl, those that replay without
an error) one after another and over again, times shifted on so that every match's clock
runs forward (short matches: a set-up every 10-60 lines, golf's shots of two events). In the same run,
each as its own process, CPU time (user + system, the child's), best of ``--repeat``:

- ``json.loads`` (the anchor): a process that reads the file and decodes every line;
- ``replay --json``: ``tablesense replay FILE --json`` as a user runs it, the console script
  ``make setup`` installs (``tablesense.cli:main``; where none is installed, the same three
  lines pip writes, from a temporary file), start-up included: the ratio and the aim are its;
- beside it, ``python -m tablesense replay FILE --json`` (``runpy`` on top: ~2M instructions
  more a start-up), as this benchmark measured before.

Each child compiles its modules once, as an installed package has them compiled: the
bytecode goes to a temporary ``PYTHONPYCACHEPREFIX`` (``PYTHONDONTWRITEBYTECODE`` left out of
the children's environment), and the first of the ``--repeat`` runs writes it.

Printed: lines/s of each and the ratio (the aim: 0.9x or more for every game). With
``--before COMMIT``, the replay of that commit's host package too (from git, in a temporary
directory), in the same run.

    .venv/bin/python bench/replay_process.py [--lines N] [--repeat R] [--game GAME]
        [--source long|recorded] [--before COMMIT]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MATCHES = ROOT / "tests" / "matches"
GAMES = ("golf", "kegle", "carom")

LOADS = """
import json, sys
with open(sys.argv[1], "rb") as f:
    for line in f:
        json.loads(line)
"""


def clean_matches(game: str) -> list[list[str]]:
    """The game's recorded matches that replay without an error, as lists of lines."""
    sys.path.insert(0, str(ROOT / "host"))
    from tablesense.replay import Replay

    out = []
    for path in sorted((MATCHES / game).glob("*.jsonl")):
        lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        if lines and '"setup"' in lines[0] and not Replay().feed_lines(lines).errors:
            out.append(lines)
    return out


def make_log(path: Path, game: str, n: int) -> int:
    """Write ``n`` lines of ``game``'s recorded matches, over and over; returns the lines."""
    matches = clean_matches(game)
    written, offset = 0, 0.0
    with path.open("w", encoding="utf-8") as f:
        while written < n:
            for lines in matches:
                events = [json.loads(x) for x in lines]
                span = max(float(e.get("t", 0)) for e in events) + 10.0
                for e in events:
                    e["t"] = round(float(e.get("t", 0)) + offset, 6)
                    f.write(json.dumps(e) + "\n")
                written += len(events)
                offset += span
                if written >= n:
                    break
    return written


def make_long(path: Path, game: str, n: int) -> int:
    """Write about ``n`` lines of ``game``'s synthetic log (bench/replay_speed.py); returns the lines."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("replay_speed", ROOT / "bench" / "replay_speed.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    lines = module.logs(n, games=(game,))[game]
    path.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    return len(lines)


def old_tree(commit: str, tmp: Path) -> Path:
    """The host package of ``commit``, unpacked under ``tmp``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "host"],
                             capture_output=True, check=True).stdout
    tmp.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive, check=True)
    return tmp / "host"


def machine() -> str:
    """The processor's model and the cores seen: the ratios move with it (the interpreter and
    the C decoder do not speed up alike from one host to the next)."""
    model = "unknown processor"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"


#: what pip writes as the ``tablesense`` console script (``[project.scripts]``)
CONSOLE_SCRIPT = """\
import sys
from tablesense.cli import main
if __name__ == '__main__':
    sys.exit(main())
"""


def the_command(tmp: Path) -> list[str]:
    """``tablesense`` as a user runs it: the console script installed beside this interpreter
    (it imports the package ``PYTHONPATH`` names first), or pip's three lines written to ``tmp``."""
    script = Path(sys.executable).parent / "tablesense"
    if not script.is_file():
        script = tmp / "tablesense"
        script.write_text(CONSOLE_SCRIPT, encoding="utf-8")
    return [sys.executable, str(script)]


def cpu_of(argv: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one run of ``argv`` as a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{argv}: exit {done.returncode}: {done.stderr.decode(errors='replace')[-400:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--game", choices=GAMES, action="append")
    ap.add_argument("--source", choices=("long", "recorded"), action="append")
    ap.add_argument("--before", metavar="COMMIT", help="also replay with this commit's host package")
    args = ap.parse_args(argv)
    py = sys.executable
    print(f"CPU time of each process (user + system), best of {args.repeat}; aim: replay >= 0.9x json.loads")
    print(f"on {machine()}")
    with tempfile.TemporaryDirectory(prefix="tablesense-replay-process-") as tmp:
        base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        base["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")  # compiled once, as when installed
        env = dict(base, PYTHONPATH=str(ROOT / "host"))
        env_old = None
        command = the_command(Path(tmp))
        if args.before:
            env_old = dict(base, PYTHONPATH=str(old_tree(args.before, Path(tmp) / "old")))
        for game, source in [(g, s) for g in args.game or GAMES for s in args.source or ("long", "recorded")]:
            log = Path(tmp) / f"{game}-{source}.jsonl"
            n = (make_long if source == "long" else make_log)(log, game, args.lines)
            anchor = replay = replay_m = before = before_m = float("inf")
            run = [*command, "replay", str(log), "--json"]
            run_m = [py, "-m", "tablesense", "replay", str(log), "--json"]
            for _ in range(args.repeat):  # alternating, so that a change of load hits both
                anchor = min(anchor, cpu_of([py, "-c", LOADS, str(log)], env))
                replay = min(replay, cpu_of(run, env))
                replay_m = min(replay_m, cpu_of(run_m, env))
                if env_old is not None:
                    before = min(before, cpu_of(run, env_old))
                    before_m = min(before_m, cpu_of(run_m, env_old))
            what = "one long match" if source == "long" and game != "golf" else (
                "whole matches" if source == "long" else "its recorded matches")
            print(f"{game}, {source}: {n:,} lines, {what}")
            print(f"  json.loads, a process (anchor) {n / anchor:>10,.0f} lines/s  ({anchor:.2f} s)")
            ratio = anchor / replay
            print(f"  tablesense replay --json       {n / replay:>10,.0f} lines/s  ({replay:.2f} s; "
                  f"{ratio:.2f}x json.loads, aim 0.9x: {'met' if ratio >= 0.9 else 'not met'})", flush=True)
            print(f"  python -m tablesense replay    {n / replay_m:>10,.0f} lines/s  ({replay_m:.2f} s; "
                  f"{anchor / replay_m:.2f}x json.loads)", flush=True)
            if env_old is not None:
                print(f"  tablesense replay, {args.before[:9]} (before) {n / before:>10,.0f} lines/s  "
                      f"({before:.2f} s; {anchor / before:.2f}x json.loads)", flush=True)
                print(f"  python -m ..., {args.before[:9]} (before)     {n / before_m:>10,.0f} lines/s  "
                      f"({before_m:.2f} s; {anchor / before_m:.2f}x json.loads)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
