"""``tablesense bench [NAME ...]``: run the benchmark scripts under bench/ and print their figures."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[3] / "bench"


EXAMPLES = """
tablesense bench --list
tablesense bench link_decode golf_replay
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("names", nargs="*", metavar="NAME",
                   help="benchmarks to run (file names without .py); all by default")
    p.add_argument("--list", action="store_true", help="list the benchmarks")


#: the optional parts a benchmark needs, by what its source names (the camera's, the simulator's)
_CAMERA = re.compile(r"\bcv2\b|tablesense\.vision|import vision\b|\bcamera")
_SIM = re.compile(r"\bpymunk\b|tablesense\.sim\b|import sim\b|\bfitl\b|micropython|from soak\b")


def parts_of(script: Path) -> tuple[str, ...]:
    """The optional parts (``command_line.extras.PARTS``) ``script`` needs: a benchmark of
    the link or the replay runs on a pub's install, one of the camera or the simulator not."""
    text = script.read_text(encoding="utf-8", errors="replace")
    return (("cv2", "numpy") if _CAMERA.search(text) else ()) + \
        (("pymunk", "micropython") if _SIM.search(text) else ())


def run(args: argparse.Namespace) -> int:
    if not BENCH.is_dir():
        print("tablesense bench: no bench/ folder here (benchmarks run from a source checkout)",
              file=sys.stderr)
        return 2
    scripts = sorted(BENCH.glob("*.py"))
    if args.list:
        for s in scripts:
            print(s.stem)
        return 0
    from ..command_line.extras import needs

    if args.names:
        known = {s.stem: s for s in scripts}
        unknown = [n for n in args.names if n not in known]
        if unknown:
            print(f"tablesense bench: unknown benchmark(s) {', '.join(unknown)}; "
                  f"known: {', '.join(known)}", file=sys.stderr)
            return 2
        scripts = [known[n] for n in args.names]
    missing = needs("tablesense bench", *sorted({p for s in scripts for p in parts_of(s)}))
    if missing:
        print(missing, file=sys.stderr)
        return 2
    status = 0
    for script in scripts:
        print(f"== {script.stem}", flush=True)
        status |= subprocess.run([sys.executable, str(script)]).returncode
    return 1 if status else 0
