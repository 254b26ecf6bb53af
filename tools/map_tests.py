"""Put each test file of tests/ in the folder of the package it checks, and fix what moving breaks.

    .venv/bin/python tools/map_tests.py            # show where each tests/test_*.py goes
    .venv/bin/python tools/map_tests.py --apply    # git mv them, rewrite paths and references

The folders mirror host/tablesense/ (tests/README.md): ``tests/rules/golf/`` checks
``tablesense/rules/golf/``, ``tests/link/`` checks ``tablesense/link/``, and so on;
``tests/browser/`` holds the Playwright tests of the pages, ``tests/micropython/`` the
host's tests that run the firmware under MicroPython's unix port (``tests/firmware/`` holds
the MicroPython scripts they run). A test of a module at the package's top
(``tablesense/events.py``) and the house's own checks (the import graph, the catalogue,
the recorded matches, the contributing tours) stay in ``tests/``.

A file is placed by EXCEPTIONS (its name), else by the longest PREFIXES entry its name
starts with (after ``test_``), else by its first word when that names a sub-package of
host/tablesense (``test_sheet_fonts.py`` -> ``tests/sheet/``); what none of them places
stays where it is and is printed. Only files directly in tests/ move, so the script can
run again after others added tests: it moves just the new ones.

On --apply, in each moved file: ``Path(__file__)``'s folder and its parent become
``TESTS`` and ``ROOT`` (tests/paths.py), so paths to tests/matches/ and the like still
hold; ``tests/test_x.py`` (and globs of them, ``tests/test_kegle_*.py``) becomes the new
path in the text files of REFERENCES; ruff sorts the imports it touched. A test imports
another by its module name (``from test_carom_helpers import Table``): tests/conftest.py
puts every folder of tests on sys.path, so module names must stay unique (checked).
"""

from __future__ import annotations

import argparse
import fnmatch
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
PACKAGE = ROOT / "host" / "tablesense"
# text files where a test file may be named by its path
REFERENCES = ("docs", "README.md", "Makefile", ".ci", "pyproject.toml", "tests", "host", "bench", "tools",
              "seeds", "hardware", "examples")
TEXT = {".py", ".md", ".toml", ".txt", ".cfg", ".ini", ".yml", ".yaml", ".sh", ""}
sys.path.insert(0, str(TESTS))
from paths import NOT_TESTS  # noqa: E402  (tests/paths.py: folders of tests/ that hold no host tests)

STAY = ""  # tests/ itself
# after "test_": the folder (longest prefix wins)
PREFIXES: dict[str, str] = {
    "golf": "rules/golf",
    "kegle": "rules/kegle",
    "carom": "rules/carom",
    "engine": "rules",
    "shot_engine": "rules",
    "rules": "rules",
    "undo": "rules",
    "link": "link",
    "protocol": "link",
    "web": "web",
    "browser": "browser",
    "league": "league",
    "season": "league",
    "club": "league",
    "sim": "sim",
    "soak": "sim",
    "vision": "vision",
    "camera": "vision",
    "cli": "cli",
    "replay": "cli",
    "run": "cli",
    "stop": "cli",
    "pub": "pub",
    "store": "pub",
    "host_crash": "pub",
    "texts": "texts",
    "profile": "table",
    "wiring": "table",
    "hardware": "table",
    "board": "table",
    "flash": "deploy",
    "doctor": "deploy",
    "micropython": "deploy",
    "firmware": "micropython",
    "e2e": "e2e",
    "colour_e2e": "e2e",
    "sheet": "sheet",
}
# whole names (without .py) where the prefix says the wrong thing
EXCEPTIONS: dict[str, str] = {
    "test_catalogue": STAY,  # the rule books <-> the engines <-> the tests
    "test_matches": STAY,  # tests/matches/, every game
    "test_match_names": STAY,
    "test_import_graph": STAY,
    "test_docs_contributing": STAY,
    "test_games": STAY,  # tablesense/games.py
    "test_events": STAY,  # tablesense/events.py
    "test_events_fast_decode": STAY,
    "test_events_batch_decode": STAY,
    "test_events_positions_check": STAY,
    "test_events_setup_decode": STAY,
    "test_events_positions_batch": STAY,
    "test_events_newline_in_a_line": STAY,
    "test_shots": STAY,  # tablesense/shots.py
    "test_by_hand": STAY,  # tablesense/by_hand.py
    "test_board_target": STAY,  # the Makefile's test-board target
    "test_colours": "deploy",  # tablesense/deploy/colours.py
    "test_golf_bench": "rules/golf",
    "test_carom_target_minimum": "rules/carom",
    "test_firmware_types": "micropython",
    "test_protocol_vectors": "link",
    "test_club_figures": "league",
}
IMPORT_PATHS = "from paths import {names}\n"


def folder_of(name: str) -> str | None:
    """The folder under tests/ for tests/<name>.py ('' for tests/ itself), None if unplaced."""
    if name in EXCEPTIONS:
        return EXCEPTIONS[name]
    rest = name.removeprefix("test_")
    hits = [p for p in PREFIXES if rest == p or rest.startswith(p + "_")]
    if hits:
        return PREFIXES[max(hits, key=len)]
    first = rest.split("_")[0]
    if (PACKAGE / first / "__init__.py").exists():
        return first
    return None


def modules_of_tests() -> list[Path]:
    """Every test module under tests/ (not the MicroPython scripts nor the board's)."""
    out = []
    for path in sorted(TESTS.rglob("test_*.py")):
        if not set(path.relative_to(TESTS).parts[:-1]) & NOT_TESTS:
            out.append(path)
    return out


def plan() -> tuple[dict[Path, Path], list[str]]:
    moves: dict[Path, Path] = {}
    unplaced: list[str] = []
    for path in sorted(TESTS.glob("test_*.py")):
        folder = folder_of(path.stem)
        if folder is None:
            unplaced.append(path.name)
        elif folder:
            moves[path] = TESTS / folder / path.name
    return moves, unplaced


def fix_paths(text: str, depth: int) -> str:
    """``Path(__file__)``'s folder (tests/ when the file was there) and its parent as names
    (``TESTS``, ``ROOT`` from tests/paths.py); in a file that also runs as a script
    (``python tests/sim/test_sim_reference.py --write``: tests/ is not on its path) as
    ``Path(__file__).resolve().parents[N]`` for the file's depth. A line that put tests/ on
    sys.path goes: tests/conftest.py puts every test folder there."""
    text = re.sub(r"^sys\.path\.insert\(0, str\(Path\(__file__\)(\.resolve\(\))?\.parent\)\)\n", "", text,
                  flags=re.M)
    script = re.search(r"^if __name__ == .__main__.:", text, flags=re.M)
    root, tests = ("ROOT", "TESTS") if not script else (
        f"Path(__file__).resolve().parents[{depth + 1}]", f"Path(__file__).resolve().parents[{depth}]")
    subs = [
        (r"Path\(__file__\)(\.resolve\(\))?\.parent\.parent\b", root),
        (r"Path\(__file__\)\.resolve\(\)\.parents\[1\]", root),
        (r"Path\(__file__\)(\.resolve\(\))?\.parent\b", tests),
    ]
    new = text
    for pattern, repl in subs:
        new = re.sub(pattern, repl, new)
    if new == text or script:
        return new
    if "Path(__file__)" in new:
        raise SystemExit(f"a Path(__file__) this script cannot read:\n{new}")
    # ROOT = ROOT: the module's own constant is now the shared one
    for n in ("ROOT", "TESTS"):
        new = re.sub(rf"^{n}(: Path)? = {n}\n", "", new, flags=re.M)
    # a name the module defines itself (ROOT = TESTS) is its own, not imported
    names = [n for n in ("ROOT", "TESTS") if re.search(rf"(?<![\w.]){n}(?!\w)", new)
             and not re.search(rf"^{n}(: [\w\[\]]+)? = ", new, flags=re.M)]
    if not names:
        return new
    line = IMPORT_PATHS.format(names=", ".join(names))
    m = re.search(r"^from __future__ import annotations\n", new, flags=re.M)
    at = m.end() if m else 0
    return new[:at] + ("\n" if m else "") + line + new[at:]


FLAT = re.compile(r"Path\(__file__\)(\.resolve\(\))?\.parent\b")


def fix_merged_paths() -> list[Path]:
    """A test already in its folder that says ``Path(__file__).parent`` (or ``.parent.parent``)
    was written for tests/ (a change merged from a branch of the flat layout): the same fix
    as a moved file's. (A test written in its folder uses tests/paths.py, never these.)"""
    changed = []
    for path in modules_of_tests():
        depth = len(path.relative_to(TESTS).parts) - 1
        if depth and FLAT.search(text := path.read_text()):
            path.write_text(fix_paths(text, depth))
            changed.append(path)
    return changed


def rewrite_references() -> list[Path]:
    """Every ``tests/test_x.py`` that is not there (any more) -> where test_x.py is now; a
    glob ``tests/test_kegle_*.py`` too when the files it matches are in one folder (else it
    is printed). Where a file is, not what this run moved: a line merged from a branch of
    the flat layout is mended too."""
    where = {p.name: p for p in modules_of_tests()}

    def one(m: re.Match[str]) -> str:
        name = m.group(1)
        if "*" not in name:
            if (TESTS / name).exists() or name not in where:
                return m.group(0)
            return f"tests/{where[name].relative_to(TESTS).as_posix()}"
        folders = {where[n].parent for n in where if fnmatch.fnmatch(n, name)}
        if len(folders) == 1 and folders != {TESTS}:
            return f"tests/{(folders.pop() / name).relative_to(TESTS).as_posix()}"
        if len(folders) > 1:
            print(f"  left as it is (its files are in {len(folders)} folders): tests/{name}")
        return m.group(0)

    pattern = re.compile(r"(?<![\w/])tests/(test_[\w*]*\.py)\b")
    files = subprocess.run(["git", "ls-files", *REFERENCES], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    changed = []
    for name in files:
        path = ROOT / name
        if path.suffix not in TEXT or not path.is_file() or path == Path(__file__).resolve():
            continue
        text = path.read_text(errors="surrogateescape")
        new = pattern.sub(one, text)
        if new != text:
            path.write_text(new, errors="surrogateescape")
            changed.append(path)
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--apply", action="store_true", help="git mv the files, rewrite what moving breaks")
    args = parser.parse_args(argv)
    moves, unplaced = plan()
    names = [p.stem for p in modules_of_tests()]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        print(f"two test modules of one name (tests import each other by name): {dupes}", file=sys.stderr)
        return 1
    for old, new in moves.items():
        print(f"{old.relative_to(ROOT)} -> {new.relative_to(ROOT)}")
    for name in unplaced:
        print(f"could not place tests/{name}: add it to PREFIXES or EXCEPTIONS in tools/map_tests.py")
    if not args.apply:
        print(f"{len(moves)} to move (--apply does it), {len(unplaced)} unplaced")
        return 0
    for old, new in moves.items():
        new.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "mv", str(old), str(new)], cwd=ROOT, check=True)
        text = new.read_text()
        fixed = fix_paths(text, len(new.relative_to(TESTS).parts) - 1)
        if fixed != text:
            new.write_text(fixed)
    for path in fix_merged_paths():
        print(f"  Path(__file__) of the flat layout mended: {path.relative_to(ROOT)}")
    for path in rewrite_references():
        print(f"  references rewritten: {path.relative_to(ROOT)}")
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    moved = [str(p) for p in modules_of_tests() if p.parent != TESTS]
    if moved and Path(ruff).exists():
        fix = ["check", "-q", "--fix", "--fixable", "I,F401,RUF100"]  # the house's rules, these fixes
        subprocess.run([ruff, *fix, *moved], cwd=ROOT, check=False, stdout=subprocess.DEVNULL)
    print(f"{len(moves)} moved, {len(unplaced)} unplaced")
    return 0


if __name__ == "__main__":
    sys.exit(main())
