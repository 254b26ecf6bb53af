"""The compiled path tried for issue 27: the engines' hot modules built with mypyc, in place.

Not part of ``make setup`` (docs/performance.md, "A compiled path (mypyc): tried, figures, why
not"). To repeat the figures on a checkout of the commit it was tried on:

    .venv/bin/pip install mypy                          # mypyc (a compiled wheel from PyPI)
    git apply tools/mypyc_experiment.patch              # the source changes mypyc needs
    .venv/bin/python tools/mypyc_experiment.py          # the .so files beside their sources
    .venv/bin/python bench/replay_speed.py --free-lines 0 --long-shot 0   # compiled
    PYTHONPATH=<a pure checkout>/host .venv/bin/python bench/replay_speed.py ...  # pure
    .venv/bin/python tools/mypyc_experiment.py --clean  # pure Python again

An editable install imports an extension module before the ``.py`` of the same name, so the
compiled modules shadow their sources until ``--clean`` (a source edited after the build is
not seen). Needs a C compiler and Python's headers.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = ROOT / "host"

#: the modules compiled when none are named (paths under host/): the hot ones that define no
#: msgspec Struct (mypyc drops a class's keywords: frozen, kw_only, gc, tag)
MODULES = [
    "tablesense/replay.py",
    "tablesense/rules/ruling_log.py",
    "tablesense/rules/golf/engine.py",
    "tablesense/rules/golf/resolve.py",
    "tablesense/rules/golf/checks.py",
    "tablesense/rules/kegle/verdict.py",
    "tablesense/rules/kegle/engine.py",
    "tablesense/rules/kegle/checks.py",
    "tablesense/rules/carom/resolve.py",
    "tablesense/rules/carom/engine.py",
    "tablesense/rules/carom/fouls.py",
    "tablesense/rules/shot_engine.py",  # its Structs moved out by the patch
]

#: mypy's findings that do not stop the build (the host is not checked by mypy: 60 errors in
#: these modules and the ones they import)
FLAGS = ["--ignore-missing-imports", "--follow-imports=silent",
         *(f"--disable-error-code={code}" for code in
           ("has-type", "attr-defined", "arg-type", "assignment", "type-var", "return-value", "misc"))]


def built() -> list[Path]:
    return sorted(p for p in HOST.rglob("*.so")) + sorted(HOST.rglob("*__mypyc*"))


def clean() -> None:
    for p in set(built()):
        p.unlink()


def msgspec_stubs(into: Path) -> None:
    """msgspec's stubs with ``field`` returning ``Any``: its own say it returns its default's
    type, and mypyc then checks a ``Field`` object against that type in a Struct's class body."""
    import msgspec

    src = Path(msgspec.__file__).parent
    dst = into / "msgspec"
    dst.mkdir(parents=True)
    for f in src.iterdir():
        if f.suffix in (".py", ".pyi") or f.name == "py.typed":
            text = f.read_text(encoding="utf-8")
            if f.name == "__init__.pyi":
                text = re.sub(r"(def field\(.*\)) -> _T: \.\.\.", r"\1 -> Any: ...", text)
            (dst / f.name).write_text(text, encoding="utf-8")


def build(modules: list[str], flags: list[str]) -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    os.chdir(HOST)
    with tempfile.TemporaryDirectory(prefix="tablesense-mypyc-") as tmp:
        msgspec_stubs(Path(tmp) / "stubs")
        os.environ["MYPYPATH"] = str(Path(tmp) / "stubs")
        exts = mypycify([*FLAGS, f"--cache-dir={tmp}/cache", *flags, *modules], opt_level="3",
                        target_dir=str(Path(tmp) / "c"))
        setup(name="tablesense-compiled", ext_modules=exts,
              script_args=["-q", "build_ext", "--inplace", "--build-temp", str(Path(tmp) / "o"),
                           "--build-lib", str(Path(tmp) / "lib")])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("modules", nargs="*")
    ap.add_argument("--clean", action="store_true")
    ap.add_argument("--flag", action="append", default=[], help="a mypy flag, e.g. --disable-error-code=X")
    args = ap.parse_args(argv)
    clean()
    if args.clean:
        return 0
    build(args.modules or MODULES, args.flag)
    for p in built():
        print(p.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
