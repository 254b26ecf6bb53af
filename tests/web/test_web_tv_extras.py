"""The TV shows the state's fields its game declares (``Game.tv``), and no other: a field an
engine adds stays off the screen until its game's ``game.py`` names it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tablesense import games
from tablesense.events import parse_event
from tablesense.pub import Pub
from tablesense.store import Store
from tablesense.web import view

DUO = {"game": "golf", "format": "duo", "players": {"p1": ["Ann", "Cor"], "p2": ["Bob", "Dirk"]}}


def _extras(tmp_path: Path, setup: dict[str, Any], events: list[dict[str, Any]]) -> Any:
    pub = Pub(Store(str(tmp_path / "pub.db")), ["1"])
    pub.view = view.view
    pub.start_match("1", setup)
    for e in events:
        pub.submit("1", parse_event(e))
    return pub.snapshot("1")["view"]["extras"]


def _miss(t: float) -> list[dict[str, Any]]:
    return [{"t": t, "type": "cushion", "cushion": 1, "ball": "p1"}, {"t": t + 0.5, "type": "rest"}]


@pytest.mark.parametrize("shots", [0, 1, 2, 5])
def test_a_golf_duo_shows_who_of_each_side_plays_next(tmp_path: Path, shots: int) -> None:
    events = [e for i in range(shots) for e in _miss(1.0 + 2 * i)]
    pub = Pub(Store(str(tmp_path / "pub.db")), ["1"])
    pub.view = view.view
    pub.start_match("1", DUO)
    for e in events:
        pub.submit("1", parse_event(e))
    snap = pub.snapshot("1")
    extras = snap["view"]["extras"]
    assert extras["p1"] == [["next_up", snap["state"]["next_up"]["p1"]]]
    assert extras["p2"] == [["next_up", snap["state"]["next_up"]["p2"]]]
    assert {extras["p1"][0][1], extras["p2"][0][1]} <= {"Ann", "Cor", "Bob", "Dirk"}
    assert extras["centre"] == []


@pytest.mark.parametrize("setup", [
    {"game": "golf", "players": {"p1": "Ann", "p2": "Bob"}},
    {"game": "kegle", "players": {"p1": "Mette", "p2": "Lars"}, "distance": 40},
    {"game": "carom", "players": {"p1": "Ann", "p2": "Bob"}, "targets": {"p1": 20, "p2": 20}},
])
def test_a_game_that_declares_nothing_shows_nothing_beside_its_own_drawing(tmp_path: Path,
                                                                           setup: dict[str, Any]) -> None:
    # every field of these states (per player or plain) is left to the game's own layout
    assert _extras(tmp_path, setup, []) == {"p1": [], "p2": [], "centre": []}


def test_a_declared_field_reaches_the_tv_and_an_undeclared_one_does_not(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kegle = games.get("kegle")
    declared = kegle.replace(tv=("points", "distance", "rulings", "no_such_field"))
    monkeypatch.setattr(games, "find", lambda name: declared if name == "kegle" else None)
    setup = {"game": "kegle", "players": {"p1": "Mette", "p2": "Lars"}, "distance": 40}
    extras = _extras(tmp_path, setup, [])
    assert extras["p1"] == [["points", 0]] and extras["p2"] == [["points", 0]]  # per player, a 0 shown
    assert extras["centre"] == [["distance", 40]]  # a plain value: the middle; a list and a
    # field the state lacks: nowhere


def test_every_declared_field_has_its_label_in_every_language() -> None:
    from tablesense.texts import LANGS
    from tablesense.web.pages import strings
    for game in games.every():
        for field in game.tv:
            for lang in LANGS:
                assert field in strings(lang), f"{game.name} shows {field!r} on the TV: no label in {lang}"
