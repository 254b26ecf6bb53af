"""The games a table referees: each declared by its own package, found by one registry."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tablesense import games
from tablesense.errors import BadEvent
from tablesense.events import Setup, parse_event
from tablesense.pub import turn_clock
from tablesense.rules import find_engine

PACKAGE = Path(__file__).resolve().parent.parent / "host" / "tablesense"
RULES = PACKAGE / "rules"
#: a game compared with a game's name: ``game == "golf"``, ``"carom" != r.game``, ``game in ("golf", ...``
BRANCH = re.compile(r"""game\s*(?:==|!=)\s*["'](?:golf|kegle|carom)["']"""
                    r"""|["'](?:golf|kegle|carom)["']\s*(?:==|!=)\s*[\w.]*game"""
                    r"""|game\s+(?:not\s+)?in\s+\(["'](?:golf|kegle|carom)""")
#: the rooms that still branch on a game's name, at most this often (docs/design.md, "A game
#: is one place"): the league, the camera and the simulator's players, and the club figures
STILL_BRANCHING = {
    "club_figures.py": 3, "commands/camera.py": 1, "commands/league.py": 21,
    "league/games.py": 3, "league/ingest.py": 3, "league/matchlog.py": 1, "league/pub_nights.py": 3,
    "league/scheme.py": 6, "league/season.py": 2, "league/standings.py": 6, "league/store.py": 4,
    "league/view.py": 2, "sim/match.py": 6, "sim/tables.py": 3, "vision/colours.py": 3, "vision/live.py": 2,
}


def test_every_rules_package_is_a_game_the_registry_finds_in_its_order() -> None:
    packages = {p.name for p in RULES.iterdir() if (p / "__init__.py").exists()}
    assert set(games.names()) == packages
    assert games.names() == ("golf", "kegle", "carom")
    for name in games.names():
        assert find_engine(name).game == name  # its engine registers under its name


@pytest.mark.parametrize("alias", [(g.name, a) for g in games.every() for a in (g.name, *g.aliases)])
@pytest.mark.parametrize("written", [str.lower, str.upper, str.title, lambda s: f"  {s} "])
def test_a_setup_may_name_a_game_by_any_name_its_package_declares(alias: tuple[str, str],
                                                                  written: Callable[[str], str]) -> None:
    name, said = alias
    players = {"p1": "Ann", "p2": "Bob"}
    event = parse_event({"t": 0, "type": "setup", "game": written(said), "players": players})
    assert isinstance(event, Setup) and event.game == name


def test_a_game_no_package_declares_is_refused_with_the_games_there_are() -> None:
    with pytest.raises(BadEvent, match=r"unknown game 'snooker' \(games: golf, kegle, carom\)"):
        parse_event({"t": 0, "type": "setup", "game": "Snooker", "players": {"p1": "Ann", "p2": "Bob"}})
    with pytest.raises(games.UnknownGame, match="games: golf, kegle, carom"):
        games.get("pool")
    assert games.find(None) is None and games.either() == "golf, kegle or carom"


def test_the_turn_clock_is_the_games_own_or_the_setups_where_the_game_takes_one() -> None:
    assert turn_clock("golf", {}) == 50 and turn_clock("golf", {"shot_clock": 30}) == 50
    assert turn_clock("carom", {}) is None and turn_clock("carom", {"shot_clock": 30}) == 30
    assert turn_clock("carom", {"shot_clock": True}) is None
    assert turn_clock("carom", {"shot_clock": -5}) is None
    assert turn_clock("kegle", {"shot_clock": 30}) is None and turn_clock(None, {}) is None


def test_outside_its_package_nothing_new_branches_on_a_games_name() -> None:
    """The events, the cut, the pub, the scoreboard and the panel ask the game; only the rooms
    listed still compare a game with a name, and never more often than they did."""
    found: dict[str, int] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.split("/")[:2] in (["rules", name] for name in games.names()):
            continue  # a game's own package may name itself
        count = len(BRANCH.findall(path.read_text(encoding="utf-8")))
        if count:
            found[rel] = count
    assert BRANCH.findall('if game == "golf":') and BRANCH.findall('"carom" != r.game')  # it sees them
    grown = {rel: n for rel, n in found.items() if n > STILL_BRANCHING.get(rel, 0)}
    assert grown == {}, "ask tablesense.games (or a part of the game's package) instead of naming the game"
