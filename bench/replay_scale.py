"""``tablesense replay`` at scale: time and peak memory for 10k, 100k and 1M lines.

The lines are one long keglebillard match: the recorded match
tests/matches/kegle/shot__simulated_full_information.jsonl played over and over (its start
call once, times shifted on, distance raised so that nobody wins), so every line
replays validly. Each size runs as its own process (peak memory is its maxrss):

- ``parse``: the anchor, reading and JSON-decoding every line and nothing else;
- ``account`` and ``--json``: ``tablesense replay`` as it is now;
- ``before``: the account and ``--json`` of the replay as it was before the streaming
  rewrite (commit 5eb08ac, taken from git into a temporary directory), for the sizes it
  finishes in a sensible time (its account is quadratic: 100k lines take minutes).

    .venv/bin/python bench/replay_scale.py [--sizes 10000,100000,1000000] [--no-before]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MATCH = ROOT / "tests" / "matches" / "kegle" / "shot__simulated_full_information.jsonl"
BEFORE = "5eb08ac"  # the last commit before the streaming replay
#: the old replay's quadratic account is measured up to this many lines
BEFORE_ACCOUNT_MAX = 25_000


def make_log(path: Path, n: int) -> None:
    lines = [json.loads(x) for x in MATCH.read_text(encoding="utf-8").splitlines() if x.strip()]
    setup, body = lines[0], lines[1:]
    setup["distance"] = 10**9  # nobody reaches it: the match goes on for every line
    span = max(e["t"] for e in body) + 1.0
    with path.open("w", encoding="utf-8") as f:
        f.write(json.dumps(setup) + "\n")
        written, k = 1, 0
        while written < n:
            for e in body:
                if k and e.get("call") == "start":
                    continue
                f.write(json.dumps({**e, "t": round(e["t"] + k * span, 6)}) + "\n")
                written += 1
                if written >= n:
                    break
            k += 1


PARSE = """
import json, sys
with open(sys.argv[1], "rb") as f:
    for line in f:
        json.loads(line)
"""


def maxrss_of(argv: list[str], env: dict[str, str] | None = None,
              timeout: float = 900) -> tuple[float, int] | None:
    """(seconds, peak resident MB) of one run of ``argv``, measured by a fresh helper
    process (its children's maxrss is this run's alone); None if it did not finish."""
    helper = (
        "import resource, subprocess, sys, time, json\n"
        "t = time.perf_counter()\n"
        "p = subprocess.run(json.loads(sys.argv[1]), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,"
        " timeout=float(sys.argv[2]))\n"
        "if p.returncode not in (0, 1): sys.exit(p.stderr.decode(errors='replace')[-500:])\n"
        "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    try:
        out = subprocess.run([sys.executable, "-c", helper, json.dumps(argv), str(timeout)],
                             capture_output=True, text=True, env=env, timeout=timeout + 30)
    except subprocess.TimeoutExpired:
        return None
    if out.returncode != 0:
        if "TimeoutExpired" in out.stderr:
            return None
        raise SystemExit(f"{argv}: {out.stderr[-500:]}")
    secs, kb = out.stdout.split()
    return float(secs), int(kb) // 1024


def old_tree(tmp: Path) -> Path | None:
    """The host package of commit ``BEFORE``, unpacked under ``tmp``; None outside git."""
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", BEFORE, "host"],
                                 capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    tmp.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive, check=True)
    return tmp / "host"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--no-before", action="store_true", help="skip the replay as it was before")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    py = sys.executable
    now = [py, "-m", "tablesense", "replay"]
    env_now = dict(os.environ, PYTHONPATH=str(ROOT / "host"))
    print(f"{'lines':>9}  {'what':<16} {'seconds':>8} {'peak MB':>8}  lines/s")
    with tempfile.TemporaryDirectory(prefix="tablesense-replay-bench-") as tmpdir:
        tmp = Path(tmpdir)
        old = None if args.no_before else old_tree(tmp / "old")
        env_old = dict(os.environ, PYTHONPATH=str(old)) if old else None
        for n in sizes:
            log = tmp / f"kegle-{n}.jsonl"
            make_log(log, n)
            runs: list[tuple[str, list[str], dict[str, str] | None]] = [
                ("parse (anchor)", [py, "-c", PARSE, str(log)], None),
                ("account", [*now, str(log)], env_now),
                ("--json", [*now, str(log), "--json"], env_now),
            ]
            if env_old is not None:
                if n <= BEFORE_ACCOUNT_MAX:
                    runs.append((f"before {BEFORE} acct", [*now, str(log)], env_old))
                runs.append((f"before {BEFORE} json", [*now, str(log), "--json"], env_old))
            for what, argv, env in runs:
                got = maxrss_of(argv, env)
                if got is None:
                    print(f"{n:>9,}  {what:<16} {'> 900':>8} {'-':>8}  (did not finish)", flush=True)
                    continue
                secs, mb = got
                print(f"{n:>9,}  {what:<16} {secs:>8.2f} {mb:>8}  {n / secs:>9,.0f}", flush=True)
            log.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
