"""A competition is a half season (najaar, voorjaar) only in carom, whose clubs play their
competition in two halves a year (docs/league.md): a golf or keglebillard competition gets no
half and shows none (``league create``, ``list``, ``show``, the store), unless one is asked
for with ``--half``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablesense.cli import main
from tablesense.league import LeagueStore


def league(db: Path, *args: str, capsys: pytest.CaptureFixture[str]) -> str:
    code = main(["league", "--db", str(db), *args])
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


@pytest.mark.parametrize("game", ["golf", "kegle"])
def test_a_golf_or_keglebillard_competition_has_no_half_season(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    db = tmp_path / "league.db"
    assert "najaar" not in league(db, "create", "Winter", "--game", game, capsys=capsys)
    assert json.loads(league(db, "show", "Winter", "--json", capsys=capsys))["half"] is None
    assert "najaar" not in league(db, "show", "Winter", capsys=capsys)
    assert "najaar" not in league(db, "list", capsys=capsys)
    with LeagueStore(str(db)) as store:
        assert store.competition("Winter").half == ""
        assert store.create("Summer", game=game).half == ""


def test_a_carom_competition_is_the_najaar_half_unless_another_is_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "league.db"
    league(db, "create", "Najaar 2026", "--season", "2026-2027", capsys=capsys)
    league(db, "create", "Voorjaar 2027", "--season", "2026-2027", "--half", "voorjaar", capsys=capsys)
    assert json.loads(league(db, "show", "Najaar 2026", "--json", capsys=capsys))["half"] == "najaar"
    listed = league(db, "list", capsys=capsys)
    assert "najaar 2026-2027" in listed and "voorjaar 2026-2027" in listed


def test_a_golf_competition_asked_to_be_a_half_is_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "league.db"
    league(db, "create", "Golf voorjaar", "--game", "golf", "--half", "voorjaar", "--season", "2027",
           capsys=capsys)
    assert json.loads(league(db, "show", "Golf voorjaar", "--json", capsys=capsys))["half"] == "voorjaar"
    assert "voorjaar 2027" in league(db, "list", capsys=capsys)
