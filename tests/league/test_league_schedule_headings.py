"""``league schedule`` as a table: every column is headed by what it holds -- the fixture (``#``,
a team competition's ``night``: what ``--night FIXTURE`` takes), its round, date, group, home
and away, the home team's ``pub`` (a team competition only: a club's players play at the club)
and its ``status`` (played, next, overdue; blank: later)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from tablesense.cli import main


def league(db: Path, *args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["league", "--db", str(db), *args])
    out = capsys.readouterr()
    assert code == 0, out.err
    return code, out.out


def rows(out: str) -> list[list[str]]:
    """The table's lines, cut at its heading's columns (a blank cell as "")."""
    lines = out.rstrip("\n").splitlines()
    head = lines[0]
    starts = [i for i, c in enumerate(head) if c != " " and (i == 0 or head[i - 1] == " ")]
    ends = [*starts[1:], None]
    return [[ln[a:b].strip() for a, b in zip(starts, ends, strict=True)] for ln in lines]


def test_a_club_schedule_heads_its_fixture_round_date_group_home_away_and_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "club.db"
    league(db, "create", "Najaar", capsys=capsys)
    for name in ("Ann", "Bob", "Cor"):
        league(db, "add-player", "Najaar", name, "--moyenne", "1.2", capsys=capsys)
    start = dt.date.today() - dt.timedelta(days=7)  # round 1 a week ago, round 2 today
    league(db, "schedule", "Najaar", "--start", start.isoformat(), "--every", "7", capsys=capsys)
    table = rows(league(db, "schedule", "Najaar", capsys=capsys)[1])
    assert table[0] == ["#", "round", "date", "group", "home", "away", "status"]
    by_round = {int(r[1]): r for r in table[1:]}
    assert by_round[1][6] == "overdue" and by_round[2][6] == "next" and by_round[3][6] == ""
    assert all(r[0].isdigit() and r[3] == "-" and r[4] in ("Ann", "Bob", "Cor") for r in table[1:])


def test_a_team_schedule_heads_its_nights_and_the_home_teams_pub(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "teams.db"
    league(db, "create", "Visite", "--scheme", "visite-25", capsys=capsys)
    for team, pub in (("Kroeg", "kroeg"), ("Zaal", "zaal")):
        league(db, "add-team", "Visite", team, "--pub", pub, capsys=capsys)
    league(db, "schedule", "Visite", "--start", "2099-09-21", "--every", "14", capsys=capsys)
    table = rows(league(db, "schedule", "Visite", capsys=capsys)[1])
    assert table[0] == ["night", "round", "date", "group", "home", "away", "pub", "status"]
    assert [(r[4], r[6]) for r in table[1:]] == [("Zaal", "zaal"), ("Kroeg", "kroeg")] or \
        [(r[4], r[6]) for r in table[1:]] == [("Kroeg", "kroeg"), ("Zaal", "zaal")]
    assert [r[7] for r in table[1:]] == ["next", ""]
