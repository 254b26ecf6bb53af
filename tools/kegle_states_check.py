"""One-off check of the kegle engine's move to the shot stage (issue 13): every recorded
keglebillard match (tests/matches/kegle) gives the same state and the same readable account
as before, except that a ruling's or question's sentence says the players' names where it
said p1/p2, and the data the sentences are rendered from (a series' points ``run``, the
series played ``series``, why a match ended ``ended``) is new in the JSON.

    # the sources before, e.g. git archive 84d26d1 host | tar -x -C /tmp/before
    PYTHONPATH=/tmp/before/host python tools/kegle_states_check.py write /tmp/states-before
    PYTHONPATH=$PWD/host        python tools/kegle_states_check.py write /tmp/states-after
    python tools/kegle_states_check.py compare /tmp/states-before /tmp/states-after

``write`` runs ``tablesense replay FILE --json`` and ``tablesense replay FILE`` in-process for
each match; ``compare`` prints every difference that is not one of the above and exits 1 if
there is any.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import json
import re
import sys
from pathlib import Path
from typing import Any

MATCHES = Path(__file__).resolve().parent.parent / "tests" / "matches" / "kegle"
#: what is new in the JSON: the data a sentence is rendered from, and why a match ended
NEW_DATA = re.compile(r"^\$\.(ended: new|rulings\[\d+\]\.(run|series): new)")


def write(out_dir: Path) -> None:
    from tablesense.commands import replay as cmd

    out_dir.mkdir(parents=True, exist_ok=True)
    for log in sorted(MATCHES.glob("*.jsonl")):
        for as_json, suffix in ((True, ".json"), (False, ".account.txt")):
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
                cmd.run(argparse.Namespace(file=str(log), json=as_json))
            (out_dir / (log.stem + suffix)).write_text(buf.getvalue())


def _names(stem: str) -> dict[str, str]:
    log = MATCHES / (stem + ".jsonl")
    setup = next(json.loads(x) for x in log.read_text().splitlines() if '"setup"' in x)
    return {k: " & ".join(v) if isinstance(v, list) else str(v) for k, v in setup.get("players", {}).items()}


def _walk(a: Any, b: Any, path: str, names: dict[str, str], out: list[str]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in b:
                out.append(f"{path}.{k}: gone (was {a[k]!r})")
            elif k not in a:
                out.append(f"{path}.{k}: new {b[k]!r}")
            else:
                _walk(a[k], b[k], f"{path}.{k}", names, out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} items, now {len(b)}")
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            _walk(x, y, f"{path}[{i}]", names, out)
    elif path.endswith(".text") and isinstance(a, str) and isinstance(b, str):
        want = re.sub(r"\bp[12]\b", lambda m: names.get(m.group(0), m.group(0)), a)
        if b != want:
            out.append(f"{path}: {a!r} -> {b!r}")
    elif a != b:
        out.append(f"{path}: {a!r} -> {b!r}")


def _account_ids(text: str, names: dict[str, str]) -> str:
    """An account with the names in its rulings' and questions' sentences put back to ids."""
    lines = []
    for line in text.splitlines(True):
        if line.startswith(("  t=", "  ? ")):
            for pid, name in names.items():
                line = re.sub(rf"(?<![\w\[=]){re.escape(name)}\b", pid, line)
        lines.append(line)
    return "".join(lines)


def compare(before: Path, after: Path) -> int:
    bad = 0
    for f in sorted(before.glob("*.json")):
        names = _names(f.stem)
        out: list[str] = []
        _walk(json.loads(f.read_text()), json.loads((after / f.name).read_text()), "$", names, out)
        out = [o for o in out if not NEW_DATA.search(o)]
        old = (before / (f.stem + ".account.txt")).read_text()
        new = _account_ids((after / (f.stem + ".account.txt")).read_text(), names)
        out += [d.rstrip() for d in difflib.unified_diff(old.splitlines(True), new.splitlines(True), n=0)]
        if out:
            bad += 1
            print(f"== {f.stem}\n  " + "\n  ".join(out[:30]))
    total = len(list(before.glob("*.json")))
    print(f"{bad} of {total} recorded matches differ beyond the players' names and the new data")
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    sub.add_parser("write").add_argument("dir", type=Path)
    c = sub.add_parser("compare")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = ap.parse_args()
    if args.what == "write":
        write(args.dir)
        return 0
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
