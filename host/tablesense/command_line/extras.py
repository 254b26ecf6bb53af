"""The optional parts of tablesense, the extra that installs each, and the one line a command
says when one it needs is missing.

A pub host installs tablesense alone: the link, the match log, the scoreboard, the league,
flashing and checking a board. The overhead camera (OpenCV, numpy) is the ``camera`` extra;
the simulator (pymunk's physics, MicroPython's unix port for the firmware in the loop) is
the ``sim`` extra; the test tools are ``dev`` (pyproject.toml). A command that needs a part
names it at the top of its ``run`` (``needs("tablesense demo", "pymunk")``) and, when it is
missing, says which extra to install and exits 2 (it could not start) before doing
anything. ``tablesense.cli`` says the same for a part a command imports without asking first.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

#: a part -> (what it is called, the extra that installs it); a part is a module, except
#: ``micropython``, the unix port's program (found as ``tablesense.sim.fitl`` finds it)
PARTS: dict[str, tuple[str, str]] = {
    "cv2": ("OpenCV", "camera"),
    "numpy": ("numpy", "camera"),
    "pymunk": ("pymunk", "sim"),
    "micropython": ("MicroPython's unix port", "sim"),
}


def installed(part: str) -> bool:
    if part == "micropython":
        from ..errors import TablesenseError
        from ..sim.fitl import find_micropython

        try:
            find_micropython()
        except TablesenseError:
            return False
        return True
    return importlib.util.find_spec(part) is not None


def needs(prog: str, *parts: str) -> str | None:
    """The line ``prog`` says when one of ``parts`` is not installed, or None when all are:
    ``tablesense demo: needs the sim extra (pymunk is not installed): ... pip install ...``."""
    return missing_line(prog, [p for p in parts if not installed(p)])


def missing_line(prog: str, missing: list[str]) -> str | None:
    if not missing:
        return None
    extras = sorted({PARTS[p][1] for p in missing})
    names = [PARTS[p][0] for p in missing]
    what = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    which = (f"the {extras[0]} extra" if len(extras) == 1
             else f"the {' and '.join(extras)} extras")
    verb = "is" if len(names) == 1 else "are"
    return f"{prog}: needs {which} ({what} {verb} not installed): {install_command(extras)}"


def part_of(module: str | None) -> str | None:
    """The optional part a missing module (``ModuleNotFoundError.name``) belongs to, if any."""
    top = (module or "").partition(".")[0]
    return top if top in PARTS else None


def install_command(extras: list[str]) -> str:
    """What installs ``extras`` into the Python that runs tablesense: from the source checkout
    it was installed from (editable, as ``make setup`` does), else from the index."""
    pip = f"{_shown(Path(sys.executable))} -m pip install"
    root = Path(__file__).resolve().parents[3]
    spec = ",".join(extras)
    if (root / "pyproject.toml").is_file():
        return f"{pip} -e '{_shown(root)}[{spec}]'"
    return f"{pip} 'tablesense[{spec}]'"


def _shown(path: Path) -> str:
    """``path`` as short as it can be said from here: relative below the working folder."""
    rel = os.path.relpath(path)
    if rel.startswith(".."):
        return str(path)
    return rel if rel == "." or os.sep in rel else f".{os.sep}{rel}"
