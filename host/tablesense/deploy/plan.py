"""The flash plan: which files to copy to the board, in which order, as mpremote commands.

Pure: it compares the files built for the board with the manifest the last flash left on
the board and returns the commands; running them is someone else's job. The last command
always restarts the board (``mpremote reset``): reading the board's version and manifest
stopped the firmware (mpremote's Ctrl-C), so even a board that is up to date needs it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from .build import DEFAULT_BOARD, MANIFEST, PROFILES_DIR, Artifact


@dataclass(frozen=True)
class Step:
    argv: tuple[str, ...]
    why: str

    def __str__(self) -> str:
        return " ".join(self.argv)


@dataclass(frozen=True)
class FlashPlan:
    port: str
    steps: tuple[Step, ...]
    copied: tuple[str, ...]  # remote paths written (firmware files and board configs)
    removed: tuple[str, ...]  # remote paths deleted (left over by an older firmware)
    unchanged: tuple[str, ...]
    manifest: dict[str, object] = field(compare=False)

    @property
    def up_to_date(self) -> bool:
        return not self.copied and not self.removed

    @property
    def changes(self) -> tuple[Step, ...]:
        """The steps that change the board (all but the final restart)."""
        return tuple(s for s in self.steps if s.argv[-1] != "reset")


def parse_manifest(text: str | None) -> dict[str, str] | None:
    """Remote path -> sha256 from the manifest on the board; None when there is none (clean board)."""
    if text is None or not text.strip():
        return None
    try:
        data = json.loads(text)
        files = data["files"]
    except (ValueError, KeyError, TypeError):
        return None  # garbage on the board: treat it as clean and rewrite everything
    if not isinstance(files, dict):
        return None
    return {str(k): str(v) for k, v in files.items()}


def _order(remote: str) -> tuple[int, str]:
    """Libraries first, then board configs, main.py last: the old main.py never imports half a
    library set and the new one starts only once everything it needs is there."""
    if remote == "/main.py":
        return (3, remote)
    if remote.startswith(PROFILES_DIR + "/") or remote == DEFAULT_BOARD:
        return (2, remote)
    return (1, remote)


def restart_argv(port: str, mpremote: str = "mpremote", resume: bool = False) -> tuple[str, ...]:
    """``mpremote connect PORT reset``: ``machine.reset()``, a hard reset that runs main.py."""
    return (mpremote, "connect", port, *(("resume",) if resume else ()), "reset")


def make_plan(port: str, artifacts: Sequence[Artifact], on_board: dict[str, str] | None,
              fw_version: str, profile_id: str, force: bool = False,
              mpremote: str = "mpremote", manifest_local: str = "tablesense.json",
              root: str = "/", resume: bool = False) -> FlashPlan:
    """Plan the flash of ``artifacts`` onto a board whose manifest is ``on_board`` (None = clean).

    ``root``: the board's filesystem root as mpremote names it ("/" on the ESP32; "" makes
    the paths relative, for MicroPython's unix port in a scratch folder). ``resume``: no soft
    reset before each command (the unix port's REPL cannot soft-reset).
    """
    base = (mpremote, "connect", port, *(("resume",) if resume else ()))

    def on(remote: str) -> str:
        return ":" + root + remote.lstrip("/")

    steps: list[Step] = []
    known = on_board or {}
    wanted = {a.remote: a for a in artifacts}
    removed = sorted(r for r in known if r not in wanted and r != MANIFEST)
    changed = sorted((a for a in artifacts if force or known.get(a.remote) != a.sha256),
                     key=lambda a: _order(a.remote))
    unchanged = sorted(a.remote for a in artifacts if a not in changed)
    if not any(r.startswith(PROFILES_DIR + "/") for r in known) and any(
            a.remote.startswith(PROFILES_DIR + "/") for a in changed):
        steps.append(Step((*base, "fs", "mkdir", on(PROFILES_DIR)), "clean board: profiles folder"))
    for r in removed:
        steps.append(Step((*base, "fs", "rm", on(r)), "left over by the firmware on the board"))
    for a in changed:
        why = "new" if a.remote not in known else ("forced" if known[a.remote] == a.sha256 else "changed")
        steps.append(Step((*base, "fs", "cp", str(a.local), on(a.remote)), why))
    manifest = {"fw_version": fw_version, "profile": profile_id,
                "files": {a.remote: a.sha256 for a in sorted(artifacts, key=lambda a: a.remote)}}
    if changed or removed:
        steps.append(Step((*base, "fs", "cp", manifest_local, on(MANIFEST)),
                          "record what is on the board for the next flash"))
        steps.append(Step(restart_argv(port, mpremote, resume), "restart into the new firmware"))
    else:
        steps.append(Step(restart_argv(port, mpremote, resume),
                          "start the firmware again (reading the board stopped it)"))
    return FlashPlan(port=port, steps=tuple(steps), copied=tuple(a.remote for a in changed),
                     removed=tuple(removed), unchanged=tuple(unchanged), manifest=manifest)
