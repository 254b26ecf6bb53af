"""The games a table referees: each declared by its own package, found by one registry."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tablesense import games
from tablesense.errors import BadEvent
from tablesense.events import Setup, parse_event
from tablesense.league.scheme import BUILTIN
from tablesense.pub import turn_clock
from tablesense.rules import find_engine

PACKAGE = Path(__file__).resolve().parent.parent / "host" / "tablesense"
RULES = PACKAGE / "rules"
#: a game compared with a game's name: ``game == "golf"``, ``"carom" != r.game``, ``game in ("golf", ...``
BRANCH = re.compile(r"""game\s*(?:==|!=)\s*["'](?:golf|kegle|carom)["']"""
                    r"""|["'](?:golf|kegle|carom)["']\s*(?:==|!=)\s*[\w.]*game"""
                    r"""|game\s+(?:not\s+)?in\s+\(["'](?:golf|kegle|carom)""")
#: a table keyed by games' names (``{"golf": ..., "kegle": ...}``), a tuple of them (``in ("carom",
#: "kegle")``) or a page's script comparing one (``r.game === 'golf'``): branches the first pattern
#: does not see
KEYED = re.compile(r"""\{\s*["'](?:golf|kegle|carom)["']\s*:"""
                   r"""|game\s*===\s*["'](?:golf|kegle|carom)["']"""
                   r"""|in\s*[(\[{]\s*["'](?:golf|kegle|carom)["']\s*,\s*["'](?:golf|kegle|carom)["']""")
#: the rooms that still branch on a game's name, at most this often (docs/design.md, "A game
#: is one place"): none left (the league, the simulator, the club figures and
#: the rest of the camera ask the game now)
STILL_BRANCHING = {
}
#: the rooms that still key a table by games' names (or compare one in a page's script)
STILL_KEYED: dict[str, int] = {}
#: what every game's league part declares (``tablesense.league.part``)
LEAGUE_PART = ("SCHEME", "ORDER_COLUMNS", "THEN", "REPORTED", "SCHEME_FIELDS", "COUNTS", "DISCIPLINES",
               "SEASON_HALVES", "DUOS", "READ_UNFINISHED", "ENTRY", "COLUMNS", "AVERAGE_DECIMALS",
               "STRENGTH", "RESULT_HEADS", "read", "score", "check_entry", "by_hand", "count", "row",
               "average", "check_scheme", "scheme_lines", "profile", "next_half", "new_strengths",
               "strength", "needs_strength", "joins", "result_fields", "result_cells", "result_line",
               "night_setup")


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


def _outside_the_games(pattern: re.Pattern[str]) -> dict[str, int]:
    """How often ``pattern`` is found in each module outside the games' own packages (a game's
    package may name itself, and so may a room's part of it: ``sim/<game>/``)."""
    found: dict[str, int] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if any(rel.startswith((f"rules/{name}/", f"sim/{name}/")) for name in games.names()):
            continue
        count = len(pattern.findall(path.read_text(encoding="utf-8")))
        if count:
            found[rel] = count
    return found


def test_outside_its_package_nothing_new_branches_on_a_games_name() -> None:
    """The events, the cut, the pub, the scoreboard, the panel, the league, the simulator and
    the club figures ask the game; only the rooms listed still compare a game with a name, and
    never more often than they did."""
    found = _outside_the_games(BRANCH)
    assert BRANCH.findall('if game == "golf":') and BRANCH.findall('"carom" != r.game')  # it sees them
    grown = {rel: n for rel, n in found.items() if n > STILL_BRANCHING.get(rel, 0)}
    assert grown == {}, "ask tablesense.games (or a part of the game's package) instead of naming the game"
    assert {rel: n for rel, n in STILL_BRANCHING.items() if found.get(rel, 0) < n} == {}, \
        "a room branches less than its budget: lower it (or drop the room)"


def test_outside_its_package_nothing_new_keys_a_table_by_games_names() -> None:
    found = _outside_the_games(KEYED)
    assert KEYED.findall('BALLS = {"golf": 5, "kegle": 3}') and KEYED.findall('if game in ("carom", "kegle")')
    assert KEYED.findall("if (r.game === 'golf')")
    grown = {rel: n for rel, n in found.items() if n > STILL_KEYED.get(rel, 0)}
    assert grown == {}, "declare it in the game's package (its game.py or a part) instead of a table by name"
    assert {rel: n for rel, n in STILL_KEYED.items() if found.get(rel, 0) < n} == {}, \
        "a room keys fewer tables by name than its budget: lower it (or drop the room)"


@pytest.mark.parametrize("name", games.names())
def test_every_game_has_its_league_its_score_sheet_and_its_simulated_table(name: str) -> None:
    league = games.part(name, "league")
    assert league is not None and [a for a in LEAGUE_PART if not hasattr(league, a)] == []
    assert BUILTIN[league.SCHEME].game == name
    figures = games.part(name, "figures")
    assert figures is not None and callable(figures.read) and callable(figures.screens)
    table = games.part(name, "table", room="sim")
    assert table is not None and table.table("match").game == name
    play = games.part(name, "play", room="sim")
    assert play is not None
    assert all(callable(getattr(play, f)) for f in ("setup", "player", "called", "reconcile"))
    assert games.part("snooker", "league") is None
