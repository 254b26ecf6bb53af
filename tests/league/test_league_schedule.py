"""``league schedule``: a round-robin, home and away, with dates, for the players or teams of a
competition; the schedule says what is played and what is next."""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.cli import main
from tablesense.league.fixtures import pairings, round_robin, schedule


def league(db: Path, *args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["league", "--db", str(db), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 13))
def test_every_entrant_meets_every_other_once_at_home_and_once_away(n: int) -> None:
    names = [f"P{k}" for k in range(n)]
    rounds = round_robin(names)
    assert len(rounds) == 2 * (n - 1 + n % 2)
    games = Counter(pair for rnd in rounds for pair in rnd)
    assert set(games.values()) == {1}, "no fixture twice"
    for a in names:
        for b in names:
            if a != b:
                assert (a, b) in games and (b, a) in games, "home and away"
    for rnd in rounds:
        playing = [x for pair in rnd for x in pair]
        assert len(playing) == len(set(playing)), "nobody twice in a round"
        assert len(rnd) == n // 2, "at most one entrant has the round off"
    once = round_robin(names, home_and_away=False)
    assert Counter(frozenset(p) for rnd in once for p in rnd) == Counter(
        frozenset((a, b)) for i, a in enumerate(names) for b in names[i + 1 :]
    )


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 6), st.integers(2, 5), st.integers(1, 14))
def test_groups_play_their_rounds_side_by_side_every_so_many_days(a: int, b: int, every: int) -> None:
    start = dt.date(2026, 9, 21)
    fixtures = schedule({"A": [f"A{k}" for k in range(a)], "B": [f"B{k}" for k in range(b)]}, start, every)
    for f in fixtures:
        assert f.home[0] == f.away[0] == f.group, "no match across groups"
        assert dt.date.fromisoformat(f.date) == start + dt.timedelta(days=(f.round - 1) * every)
    assert len(fixtures) == a * (a - 1) + b * (b - 1)


def test_a_nights_pairings_follow_the_scheme() -> None:
    home, away = ["A1", "A2", "A3"], ["B1", "B2", "B3"]
    assert pairings("ranks", home, away) == [("A1", "B1"), ("A2", "B2"), ("A3", "B3")]
    twice = pairings("twice", home, away)
    assert (
        len(twice) == 6
        and Counter(h for h, _ in twice) == Counter(home * 2)
        and Counter(a for _, a in twice) == Counter(away * 2)
    ), "visitebiljart: every player twice"
    assert len(pairings("all", home, away)) == 9


def test_league_schedule_makes_the_season_and_shows_what_is_next_and_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "club.db"
    league(db, "create", "Najaar", capsys=capsys)
    for name, moyenne in (("Ann", "1.2"), ("Bob", "1.8"), ("Cor", "0.5"), ("Dirk", "1.0")):
        league(db, "add-player", "Najaar", name, "--moyenne", moyenne, capsys=capsys)
    code, out, err = league(db, "schedule", "Najaar", capsys=capsys)
    assert code == 0 and "has no schedule" in out
    today = dt.date.today()
    code, out, err = league(
        db, "schedule", "Najaar", "--start", today.isoformat(), "--every", "7", capsys=capsys
    )
    assert code == 0, err
    lines = out.strip().splitlines()
    assert len(lines) == 1 + 12, "4 players: 6 pairs, home and away"
    assert sum(" next" in ln for ln in lines) == 2 and today.isoformat() in lines[1]
    first = [ln.split() for ln in lines[1:3]]
    home, away = first[0][4], first[0][5]
    assert (
        league(
            db,
            "add-result",
            "Najaar",
            away,
            home,
            "--caroms",
            "30",
            "10",
            "--innings",
            "9",
            "--targets",
            "30",
            "45",
            capsys=capsys,
        )[0]
        == 0
    )
    data = json.loads(league(db, "schedule", "Najaar", "--json", capsys=capsys)[1])
    by_id = {f["fixture"]: f for f in data["fixtures"]}
    [played] = data["played"]
    assert {by_id[played]["home"], by_id[played]["away"]} == {home, away}, "either of them at the table first"
    assert by_id[played]["date"] == today.isoformat() and len(data["next"]) == 1
    code, _, err = league(db, "schedule", "Najaar", "--start", today.isoformat(), capsys=capsys)
    assert code == 1 and "has a schedule already" in err
    code, _, err = league(db, "schedule", "Najaar", "--start", today.isoformat(), "--replace", capsys=capsys)
    assert code == 1 and "has played fixtures" in err
    code, _, err = league(db, "schedule", "Najaar", "--start", "21-9-2026", capsys=capsys)
    assert code == 1 and "YYYY-MM-DD" in err


def test_a_team_competitions_schedule_is_of_its_teams_at_their_home_pubs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "teams.db"
    league(db, "create", "Visite", "--scheme", "visite-25", capsys=capsys)
    for team, pub in (("Kroeg", "kroeg"), ("Zaal", "zaal"), ("Hoek", "hoek")):
        assert league(db, "add-team", "Visite", team, "--pub", pub, capsys=capsys)[0] == 0
    code, _, err = league(db, "add-team", "Visite", "Dak", "--pub", "de dak", capsys=capsys)
    assert code == 1 and "a team's home is a pub's name" in err
    code, out, err = league(
        db, "schedule", "Visite", "--start", "2026-09-21", "--every", "14", "--json", capsys=capsys
    )
    assert code == 0, err
    fixtures = json.loads(out)["fixtures"]
    assert len(fixtures) == 6 and all(f["pub"] == f["home"].lower() for f in fixtures)
    assert sorted({f["date"] for f in fixtures}) == [
        "2026-09-21",
        "2026-10-05",
        "2026-10-19",
        "2026-11-02",
        "2026-11-16",
        "2026-11-30",
    ], "3 teams: one has a night off"


@pytest.mark.parametrize("option", [["--every", "3"], ["--once"], ["--replace"]])
def test_an_option_for_making_the_schedule_without_start_is_said_not_ignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: list[str]
) -> None:
    """``schedule COMP --every 3`` only showed the schedule there was, as if 3 had been taken."""
    db = tmp_path / "club.db"
    league(db, "create", "Najaar", capsys=capsys)
    for name in ("Ann", "Bob"):
        league(db, "add-player", "Najaar", name, "--moyenne", "1", capsys=capsys)
    code, out, err = league(db, "schedule", "Najaar", *option, capsys=capsys)
    assert code == 2 and out == "", out
    assert err == f"tablesense league: {option[0]} goes with --start YYYY-MM-DD (making the schedule)\n", err
    code, out, err = league(db, "schedule", "Najaar", "--start", "2026-09-21", *option, capsys=capsys)
    assert code == 0 and "2026-09-21" in out, err
