"""The pubs and tables of the soak's league, and the table profiles they run.

Each table runs its game's profile (hardware/profiles/) with the quiet time before
``rest`` cut to fit the soak's pace (a shot played ``pace`` times faster than real time
comes to rest as much sooner); the profile's id is kept, so the board's HELLO names the
profile the host runs, as on a real table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tablesense.table.profile import TableProfile, board_config_json, load_profile

ROOT = Path(__file__).resolve().parents[2]
PUBS = ("kroeg", "zaal", "hoek")
#: per pub, the game of each table: five carom tables for the league and a keglebillard
#: table (its matches are played and logged; the league refuses them: not carom)
LAYOUT: dict[str, tuple[str, ...]] = {"kroeg": ("carom", "carom"), "zaal": ("carom", "carom"),
                                      "hoek": ("carom", "kegle")}
#: quiet time before the link's rest, ms, per game (the profiles' own: carom 1500, kegle 2000)
QUIET_MS = {"carom": 300, "kegle": 400, "golf": 300}


@dataclass(frozen=True)
class TableSpec:
    pub: str
    table: str  # "1", "2": the pub's table number
    game: str

    @property
    def name(self) -> str:
        return f"{self.pub}-{self.table}"


def tables(layout: dict[str, tuple[str, ...]] | None = None) -> list[TableSpec]:
    layout = layout or LAYOUT
    return [TableSpec(pub, str(i), game) for pub in layout for i, game in enumerate(layout[pub], start=1)]


def quick_profile(directory: Path, game: str) -> tuple[Path, Path, TableProfile]:
    """The game's profile with the soak's quiet time: (TOML path, board JSON path, profile)."""
    src = (ROOT / "hardware" / "profiles" / f"{game}.toml").read_text(encoding="utf-8")
    text, n = re.subn(r"(?m)^rest_quiet_ms\s*=\s*\d+", f"rest_quiet_ms = {QUIET_MS[game]}", src)
    if n != 1:
        raise ValueError(f"profile {game} has no rest_quiet_ms line")
    directory.mkdir(parents=True, exist_ok=True)
    toml = directory / f"{game}-soak.toml"
    toml.write_text(text, encoding="utf-8")
    profile = load_profile(toml)
    board = directory / f"{profile.id}.json"
    board.write_text(board_config_json(profile), encoding="utf-8")
    return toml, board, profile
