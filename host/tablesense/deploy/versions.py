"""Which MicroPython the firmware runs on, stated once, and what a board says it runs.

The floor is 1.26.0: ``hal_esp32.Counter`` (every shipped profile has pulse-counter
channels for the piezos) needs ``machine.Counter`` or ``esp32.PCNT``, and both first
appear in MicroPython 1.26.0 (``ports/esp32/modules/machine.py`` and
``ports/esp32/esp32_pcnt.c``; neither is in 1.25.0). The newest version tested is 1.29.
A newer board is accepted with a note; an older one is refused before anything is copied.

Pure: ``parse_board()`` reads what the board printed for ``PROBE``; ``refusal()`` says
why a version is not supported.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

#: The oldest MicroPython the firmware runs on (machine.Counter / esp32.PCNT: 1.26.0).
MICROPYTHON_MIN = (1, 26, 0)
#: The newest MicroPython the firmware has been tested on.
MICROPYTHON_TESTED = (1, 29, 0)
#: What to install on a board that runs something older.
MICROPYTHON_INSTALL = "1.29"

#: Run on the board (raw REPL): its version, machine and platform, as one Python literal.
PROBE = ("import sys\n"
         "print(repr((tuple(sys.implementation.version), sys.implementation._machine, sys.platform)))")


def version_text(v: tuple[int, ...]) -> str:
    return ".".join(str(n) for n in v)


@dataclass(frozen=True)
class BoardPython:
    """The MicroPython on a board: ``version`` (1, 26, 1), ``preview`` (a build between
    releases), ``machine`` ("Generic ESP32 module with ESP32"), ``platform`` ("esp32")."""

    version: tuple[int, int, int]
    preview: bool
    machine: str
    platform: str

    @property
    def text(self) -> str:
        return version_text(self.version) + ("-preview" if self.preview else "")

    @property
    def chip(self) -> str:
        return chip_from_machine(self.machine, self.platform)


_CHIPS = ("esp32s2", "esp32s3", "esp32c2", "esp32c3", "esp32c5", "esp32c6", "esp32h2", "esp32p4")


def chip_from_machine(machine: str, platform: str = "") -> str:
    """"esp32", "esp32s3", "esp32c3" ... from ``sys.implementation._machine`` ("... with
    ESP32S3"); "unix" for MicroPython's unix port; "" when it cannot be told."""
    m = re.search(r"\bwith (ESP32[A-Z0-9]*)", machine, re.I)
    if m:  # as firmware/hal_esp32.chip_of names it, so the HELLO's chip compares equal
        name = m.group(1).lower()
        for chip in _CHIPS:
            if name.startswith(chip):
                return chip  # ESP32S2FN4R2 -> esp32s2
        return "esp32"  # ESP32-D2WD, ESP32-UNICORE, ESP32-PICO-D4: variants of the original ESP32
    if platform in ("linux", "darwin", "freebsd") or machine.startswith(("linux", "darwin")):
        return "unix"
    if platform.startswith("esp32"):
        return "esp32"
    return ""


def parse_version(text: str) -> tuple[tuple[int, int, int], bool]:
    """"1.26.1" -> ((1, 26, 1), False); "1.27.0-preview" -> ((1, 27, 0), True); ValueError else."""
    m = re.fullmatch(r"\s*v?(\d+)\.(\d+)(?:\.(\d+))?(-preview\S*)?\s*", text)
    if not m:
        raise ValueError(f"not a MicroPython version: {text!r}")
    return (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)), bool(m.group(4))


def parse_board(output: str | bytes) -> BoardPython:
    """What the board printed for ``PROBE``; ValueError when it is not that."""
    if isinstance(output, bytes):
        output = output.decode("utf-8", "replace")
    try:
        version, machine, platform = ast.literal_eval(output.strip())
        nums = tuple(int(n) for n in version[:3])
        level = str(version[3]) if len(version) > 3 else ""
    except (ValueError, SyntaxError, TypeError, IndexError):
        raise ValueError(f"the board did not answer the version probe: {output.strip()[:80]!r}") from None
    if len(nums) != 3:
        raise ValueError(f"the board reported an odd version: {version!r}")
    return BoardPython((nums[0], nums[1], nums[2]), bool(level), str(machine), str(platform))


def supported(version: tuple[int, int, int], preview: bool = False) -> bool:
    """A preview of the floor (a build before 1.26.0 was released) may lack what 1.26.0 has."""
    return version > MICROPYTHON_MIN or (version == MICROPYTHON_MIN and not preview)


def refusal(board: BoardPython) -> str | None:
    """One line saying why the firmware cannot run on ``board``; None when it can."""
    if supported(board.version, board.preview):
        return None
    return (f"the board runs MicroPython {board.text}, the firmware needs {version_text(MICROPYTHON_MIN)} "
            f"or newer (machine.Counter / esp32.PCNT for the piezo channels): install MicroPython "
            f"{MICROPYTHON_INSTALL} on it (docs/installation.md)")


def note(board: BoardPython) -> str | None:
    """A remark for a supported but untested (newer) version; None otherwise."""
    if board.version[:2] > MICROPYTHON_TESTED[:2]:
        return (f"MicroPython {board.text} is newer than the newest tested "
                f"({version_text(MICROPYTHON_TESTED[:2])}); it should work")
    return None


def hello_refusal(mp_version: str) -> str | None:
    """The same check on the version a HELLO reports ("" from firmware before 0.2: no check)."""
    if not mp_version:
        return None
    try:
        version, preview = parse_version(mp_version)
    except ValueError:
        return f"the board reports MicroPython {mp_version!r}, which is not a version"
    return refusal(BoardPython(version, preview, "", ""))


def expected_chip(module: str) -> str:
    """The chip of a profile's ``module``: "esp32-wroom-32" -> "esp32", "esp32-s3-wroom-1" -> "esp32s3"."""
    m = re.match(r"esp32(?:-?([a-z]\d))?", module.lower())
    if not m:
        return ""
    return "esp32" + (m.group(1) or "")
