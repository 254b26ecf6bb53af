"""``tablesense profile check|gen|list|wiring``: table profiles and what is generated from them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..table.profile import ProfileError, TableProfile, board_config_json, load_profile, profile_ids

EXAMPLES = """
tablesense profile list
tablesense profile check
tablesense profile gen golf -o golf.json
tablesense profile wiring carom -o carom.svg
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="action", metavar="ACTION", title="actions")

    def action(name: str, text: str, example: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=text, description=text[:1].upper() + text[1:] + ".",
                              epilog=f"example:\n  {example}",
                              formatter_class=argparse.RawDescriptionHelpFormatter)

    c = action("check", "validate profiles (ids or .toml/.json files); all when none given",
               "tablesense profile check my-table.toml")
    c.add_argument("profiles", nargs="*", metavar="FILE|ID",
                   help="profile ids or files (default: every profile)")
    g = action("gen", "write the board configuration JSON the firmware reads",
               "tablesense profile gen golf -o golf.json")
    g.add_argument("profile", metavar="FILE|ID", help="the profile: an id (golf, kegle, carom) or a file")
    g.add_argument("-o", "--output", metavar="FILE", help="output file (default: standard output)")
    action("list", "list the table profiles under hardware/profiles/", "tablesense profile list")
    w = action("wiring", "write the wiring diagram (SVG) of a profile",
               "tablesense profile wiring golf -o golf.svg")
    w.add_argument("profile", metavar="FILE|ID", help="the profile: an id (golf, kegle, carom) or a file")
    w.add_argument("-o", "--output", metavar="FILE", help="output file (default: standard output)")


def run(args: argparse.Namespace) -> int:
    action = getattr(args, "action", None)
    if action is None:
        print("tablesense profile: say what to do: check, gen, list or wiring", file=sys.stderr)
        return 2
    try:
        if action == "list":
            for pid in profile_ids():
                prof = load_profile(pid)
                print(f"{pid:8} {prof.name} ({len(prof.channels)} channels)")
            return 0
        if action == "check":
            return _check(args.profiles or profile_ids())
        prof = load_profile(args.profile)
        if action == "gen":
            return _write(board_config_json(prof), args.output)
        from ..table.wiring import wiring_svg

        return _write(wiring_svg(prof), args.output)
    except ProfileError as exc:
        print(f"tablesense profile: {exc}", file=sys.stderr)
        return 1


def _check(names: list[str]) -> int:
    bad = 0
    for name in names:
        try:
            prof = load_profile(name)
        except ProfileError as exc:
            print(f"FAIL {exc}")
            bad += 1
            continue
        print(f"ok   {prof.id}: {_summary(prof)}")
    return 1 if bad else 0


def _summary(prof: TableProfile) -> str:
    modes: dict[str, int] = {}
    for c in prof.channels:
        modes[c.mode] = modes.get(c.mode, 0) + 1
    return f"{len(prof.channels)} channels (" + ", ".join(f"{n} {m}" for m, n in sorted(modes.items())) + ")"


def _write(text: str, output: str | None) -> int:
    if not output or output == "-":
        sys.stdout.write(text)
        return 0
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"tablesense profile: cannot write {output}: {exc.strerror}", file=sys.stderr)
        return 1
    print(f"wrote {output}", file=sys.stderr)
    return 0
