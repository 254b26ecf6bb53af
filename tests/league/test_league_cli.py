"""The club competition through the real ``tablesense league`` command and a real SQLite file."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from test_carom_helpers import Table, setup

from tablesense.cli import main

COMP = "Najaar 2026"


def league(db: Path, *args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["league", "--db", str(db), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "club.db"
    assert league(path, "create", COMP, "--season", "2026-2027", capsys=capsys)[0] == 0
    for name, moyenne in (("Ann", "1.2"), ("Bob", "1.8"), ("Cor", "0.5")):
        assert league(path, "add-player", COMP, name, "--moyenne", moyenne, capsys=capsys)[0] == 0
    return path


def test_carom_league_winner_has_the_most_match_points(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # targets: Ann 1.2 x 25 = 30, Bob 45, Cor 12.5 -> 13 -> at least 20
    code, out, _ = league(db, "add-result", COMP, "Ann", "Bob", "--caroms", "30", "20", "--innings", "25",
                          capsys=capsys)
    assert code == 0 and "Ann wins; points 11-4" in out
    league(db, "add-result", COMP, "Bob", "Cor", "--caroms", "45", "10", "--innings", "20", capsys=capsys)
    league(db, "add-result", COMP, "Cor", "Ann", "--caroms", "20", "30", "--innings", "30", capsys=capsys)
    code, out, _ = league(db, "standings", COMP, "--json", capsys=capsys)
    data = json.loads(out)
    assert [(r["name"], r["points"]) for r in data["standings"]] == [("Ann", 21), ("Bob", 15), ("Cor", 15)]
    assert data["winner"] == "Ann" and data["barrage"] == []
    code, out, _ = league(db, "standings", COMP, capsys=capsys)
    assert "winner: Ann" in out and out.splitlines()[2].split()[:2] == ["1", "Ann"]


def test_carom_league_barrage_breaks_a_tie_at_the_top(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    league(db, "add-result", COMP, "Ann", "Bob", "--caroms", "30", "20", "--innings", "25", capsys=capsys)
    league(db, "add-result", COMP, "Bob", "Ann", "--caroms", "45", "12", "--innings", "25", capsys=capsys)
    _, out, _ = league(db, "standings", COMP, capsys=capsys)
    last = out.strip().splitlines()[-1]
    assert "a barrage match decides between" in last and "Ann" in last and "Bob" in last
    assert json.loads(league(db, "standings", COMP, "--json", capsys=capsys)[1])["winner"] is None
    code, out, _ = league(db, "add-result", COMP, "Ann", "Bob", "--caroms", "28", "45", "--innings", "12",
                          "--barrage", capsys=capsys)
    assert code == 0 and out.startswith("barrage")
    data = json.loads(league(db, "standings", COMP, "--json", capsys=capsys)[1])
    assert data["winner"] == "Bob"
    bob = next(r for r in data["standings"] if r["name"] == "Bob")
    assert bob["played"] == 2 and bob["points"] == 15, "a barrage adds no points"


def test_carom_league_moyenne_is_caroms_over_innings(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    league(db, "add-result", COMP, "Ann", "Bob", "--caroms", "30", "20", "--innings", "25", capsys=capsys)
    league(db, "add-result", COMP, "Cor", "Ann", "--caroms", "20", "30", "--innings", "30", capsys=capsys)
    data = json.loads(league(db, "moyennes", COMP, "--json", capsys=capsys)[1])
    rows = {r["name"]: r for r in data["moyennes"]}
    assert rows["Ann"]["new"] == round(60 / 55, 3) and rows["Ann"]["target"] == 27
    assert rows["Bob"]["new"] == 0.8 and rows["Bob"]["target"] == 20
    assert rows["Cor"]["new"] == round(20 / 30, 3)
    _, out, _ = league(db, "moyennes", COMP, capsys=capsys)
    assert "1.091" in out


def test_carom_league_new_members_cannot_join_a_running_competition(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    league(db, "add-result", COMP, "Ann", "Bob", "--caroms", "30", "20", "--innings", "25", capsys=capsys)
    code, _, err = league(db, "add-player", COMP, "Dirk", "--moyenne", "1.0", capsys=capsys)
    assert code == 1 and "carom.league.new-members" in err


def test_carom_league_visitors_break_in_liemers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "obb.db"
    league(db, "create", "OBB", "--profile", "liemers", capsys=capsys)
    league(db, "add-player", "OBB", "Ann", "--moyenne", "1", capsys=capsys)
    league(db, "add-player", "OBB", "Bob", "--moyenne", "1", capsys=capsys)
    code, _, err = league(db, "add-result", "OBB", "Ann", "Bob", "--caroms", "25", "10", "--innings", "9",
                          "--visitor", "Bob", capsys=capsys)
    assert code == 1 and "carom.league.visitors-break" in err
    code, _, _ = league(db, "add-result", "OBB", "Bob", "Ann", "--caroms", "10", "25", "--innings", "9",
                        "--visitor", "Bob", capsys=capsys)
    assert code == 0


def test_import_takes_the_result_from_a_stored_match_log(db: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    t = Table(setup(targets=None, moyennes={"p1": 1.2, "p2": 1.8}))
    t.events[0]["players"] = {"p1": "Ann", "p2": "Bob"}
    t.run(30)  # Ann reaches 30 in her first inning; Bob's equalising inning: 12
    t.run(12).piezo()
    log = tmp_path / "match.jsonl"
    log.write_text("\n".join(t.lines()) + "\n")
    code, out, err = league(db, "import", COMP, str(log), capsys=capsys)
    assert code == 0, err
    assert "Ann 30/30 - Bob 12/45 in 1 innings: Ann wins; points 11-2" in out
    data = json.loads(league(db, "standings", COMP, "--json", capsys=capsys)[1])
    ann = next(r for r in data["standings"] if r["name"] == "Ann")
    assert ann["high_run"] == 30 and ann["average"] == 30.0


def test_import_refuses_unfinished_or_foreign_logs(db: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "half.jsonl"
    log.write_text("\n".join(Table(setup(targets={"p1": 30, "p2": 30})).run(3).lines()))
    code, _, err = league(db, "import", COMP, str(log), capsys=capsys)
    assert code == 1 and "not finished" in err
    code, _, err = league(db, "import", COMP, str(tmp_path / "missing.jsonl"), capsys=capsys)
    assert code == 2 and "cannot read" in err, "docs/cli.md: a file that cannot be read: 2"


@pytest.mark.parametrize(("args", "message"), [
    (("add-result", COMP, "Ann", "Bob", "--caroms", "10", "20", "--innings", "9"), "neither player reached"),
    (("add-result", COMP, "Ann", "Bob", "--caroms", "30", "20", "--innings", "9", "8"), "innings 9 and 8"),
    (("add-result", COMP, "Ann", "Bob", "--caroms", "31", "20", "--innings", "9"), "more caroms than"),
    (("add-result", COMP, "Ann", "Bob", "--caroms", "30", "20", "--innings", "0"), "at least one inning"),
    (("add-result", COMP, "Ann", "Zed", "--caroms", "30", "20", "--innings", "9"), "'Zed' is not a player"),
    (("add-result", COMP, "Ann", "Ann", "--caroms", "30", "20", "--innings", "9"), "cannot play himself"),
    (("standings", "Voorjaar"), "no competition 'Voorjaar'"),
    (("create", COMP), "exists already"),
    (("create", "X", "--profile", "knbb"), "unknown carom profile"),
    (("add-player", COMP, "Ann", "--moyenne", "1"), "already a player"),
])
def test_mistakes_are_one_line_and_exit_1(db: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                          message: str) -> None:
    code, _, err = league(db, *args, capsys=capsys)
    assert code == 1 and message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_the_installed_command_runs(db: Path, tablesense_cmd: list[str]) -> None:
    proc = subprocess.run([*tablesense_cmd, "league", "--db", str(db), "list"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0 and "Najaar 2026" in proc.stdout and "3 players" in proc.stdout


def test_import_from_the_pubs_match_log(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tablesense.store import Store

    t = Table(setup(targets={"p1": 30, "p2": 45}))
    t.events[0]["players"] = {"p1": "Bob", "p2": "Ann"}
    t.run(3).piezo().run(30)  # Bob 3 and out; Ann 30 of her 45 so far
    pub = tmp_path / "pub.db"
    store = Store(str(pub))
    match_id = store.new_match("t1", t.events[0])
    for seq, ev in enumerate(t.events[1:], start=2):
        store.append("t1", match_id, seq, json.dumps(ev), "sensor")
    store.close()
    code, _, err = league(db, "import", COMP, "--store", str(pub), "--match", str(match_id), capsys=capsys)
    assert code == 1 and "not finished" in err
    store = Store(str(pub))
    seq = len(t.events) + 1
    for ev in Table(setup()).run(15).events[1:]:
        store.append("t1", match_id, seq, json.dumps({**ev, "t": ev["t"] + 1000}), "sensor")
        seq += 1
    store.close()
    code, out, err = league(db, "import", COMP, "--store", str(pub), "--match", str(match_id), capsys=capsys)
    assert code == 0, err
    assert "Bob 3/30 - Ann 45/45 in 1 innings: Ann wins; points 1-11" in out
    code, _, err = league(db, "import", COMP, "--store", str(pub), "--match", "99", capsys=capsys)
    assert code == 1 and "no match 99" in err
    code, _, err = league(db, "import", COMP, "--match", "1", capsys=capsys)
    assert code == 1 and "go together" in err
