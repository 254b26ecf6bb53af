"""Type-check the firmware the board runs against the published MicroPython ESP32 stubs
(micropython-esp32-esp32-generic-stubs), once for the oldest and once for the newest
MicroPython the firmware supports. Run by `make lint` and tests/micropython/test_firmware_types.py;
`make setup` installs the checker (basedpyright, pyright with its node bundled) and the
stubs (.venv/stubs/esp32-VERSION). CPython (this script) only, not the firmware.

    python tools/firmware_typecheck.py [VERSION ...]     # default: every supported version
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "firmware" / "typecheck"  # the checker's pins and the shared config
VERSIONS = ("1.26", "1.29")  # the supported range's ends: machine.Counter is in 1.26 and later


def stubs_dir(version: str) -> Path:
    return ROOT / ".venv" / "stubs" / f"esp32-{version}"


def config(version: str) -> Path:
    return ROOT / "firmware" / f"pyright-esp32-{version}.json"


def checker() -> str | None:
    beside = Path(sys.executable).parent / "basedpyright"
    return str(beside) if beside.exists() else shutil.which("basedpyright")


def missing() -> str | None:
    """Why the check cannot run here (None when it can)."""
    if checker() is None:
        return "basedpyright is not installed (make setup installs it)"
    for v in VERSIONS:
        if not (stubs_dir(v) / "machine.pyi").exists():
            return f"the MicroPython {v} stubs are not in {stubs_dir(v)} (make setup installs them)"
    return None


def command(project: Path, *extra: str) -> list[str]:
    # --pythonpath to no interpreter: nothing from CPython's stdlib or site-packages is
    # on the search path, only the stubs (a module MicroPython lacks is an error).
    exe = checker()
    assert exe is not None, missing()
    return [exe, "-p", str(project), "--pythonpath", str(HERE / "no-python"), *extra]


def check(version: str, *extra: str) -> subprocess.CompletedProcess[str]:
    cmd = command(config(version), *extra)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=ROOT)


def main(argv: list[str]) -> int:
    why = missing()
    if why:
        print(why, file=sys.stderr)
        return 2
    extra = [a for a in argv if a.startswith("-")]
    versions = [a for a in argv if not a.startswith("-")] or list(VERSIONS)
    worst = 0
    for v in versions:
        r = check(v, *extra)
        out = (r.stdout + r.stderr).strip().splitlines()
        print(f"== firmware against the MicroPython {v} ESP32 stubs: " + (out[-1] if out else ""))
        if r.returncode:
            print("\n".join(out))
            worst = r.returncode
    return worst


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
