"""The games a table referees: each declared by its own package, found by one registry."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tablesense import games
from tablesense.errors import BadEvent
from tablesense.events import Setup, parse_event
from tablesense.pub import turn_clock
from tablesense.rules import find_engine

RULES = Path(__file__).resolve().parent.parent / "host" / "tablesense" / "rules"


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
