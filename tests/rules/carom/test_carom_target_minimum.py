"""003 Art. 11.5, ``carom.target.minimum``: "Het minimaal aantal te behalen caramboles bedraagt 20."

Art. 11 is the club championship ("clubkampioenschap"); 11.1 names its matches: "Wedstrijden
voor de onderlinge competitie". The minimum holds for those matches, in every discipline (the
article names none), for explicit targets as for targets from the moyenne (11.3-11.4). The
text fixes a minimum and does not say to raise a target given below it: such a target is
refused with one line naming the rule. A moyenne target is raised to it, as before.

Where it applies: a kampioen setup that says it is a competition match (``"competition":
"Najaar 2026"`` or ``true``), and every result of a kampioen competition of ``tablesense
league`` (``add-result --targets``, ``import``). Other matches (a friendly, the simulator's
demo to 8) and liemers (seed 004 has no minimum) keep their targets.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_carom_helpers import Table, setup
from test_league_cli import COMP, league

from tablesense.errors import IllegalCall
from tablesense.league import Player, make_result
from tablesense.rules.carom.profiles import KAMPIOEN, LIEMERS
from tablesense.rules.carom.targets import championship_match, targets_for


@pytest.fixture
def club(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "club.db"
    assert league(path, "create", COMP, "--profile", "club", capsys=capsys)[0] == 0
    for name, moyenne in (("Ann", "1.2"), ("Bob", "1.8")):
        assert league(path, "add-player", COMP, name, "--moyenne", moyenne, capsys=capsys)[0] == 0
    return path


def _played(db: Path, capsys: pytest.CaptureFixture[str]) -> int:
    """Matches entered in the competition (each counts for both players)."""
    rows = json.loads(league(db, "standings", COMP, "--json", capsys=capsys)[1])["standings"]
    return sum(r["played"] for r in rows) // 2


# --- the engine ---------------------------------------------------------------------------

@pytest.mark.parametrize("discipline", ["libre", "bandstoten", "driebanden"])
def test_003_11_5_championship_setup_refuses_a_target_below_20(discipline: str) -> None:
    t = Table(setup(discipline, profile="club", targets={"p1": 12, "p2": 25}, competition=COMP)).run(1)
    s = t.state(errors=True)
    first = s["errors"][0]
    assert first["line"] == 1
    assert "carom.target.minimum" in first["error"] and "003 Art. 11.5" in first["error"]
    assert "target 12 for p1 is below the minimum of 20" in first["error"]
    assert s["game"] is None  # no match was set up


def test_003_11_5_championship_setup_with_targets_of_20_or_more_plays() -> None:
    s = Table(setup(profile="kampioen", targets={"p1": 20, "p2": 45}, competition=True)).run(1).state()
    assert s["targets"] == {"p1": 20, "p2": 45} and s["caroms"]["p1"] == 1


def test_003_11_5_championship_moyenne_targets_are_raised_to_20() -> None:
    t = Table(setup("driebanden", profile="club", moyennes={"p1": 0.42, "p2": 0.61}, competition=COMP))
    s = t.state()
    assert s["targets"] == {"p1": 20, "p2": 20}


def test_003_11_5_minimum_is_for_championship_matches_of_kampioen_only() -> None:
    # a friendly at the club (no competition named) and liemers (004 has no minimum) keep small targets
    assert Table(setup(profile="club", targets={"p1": 8, "p2": 8})).state()["targets"] == {"p1": 8, "p2": 8}
    s = Table(setup(profile="liemers", targets={"p1": 8, "p2": 8}, competition=COMP)).state()
    assert s["targets"] == {"p1": 8, "p2": 8}
    assert championship_match(KAMPIOEN, {"competition": COMP})
    assert not championship_match(KAMPIOEN, {"competition": ""})
    assert not championship_match(KAMPIOEN, {"competition": False})
    assert not championship_match(LIEMERS, {"competition": True})
    with pytest.raises(IllegalCall, match=r"carom\.target\.minimum"):
        targets_for({"p1": 19, "p2": 30}, None, {}, championship=True)


# --- the league ---------------------------------------------------------------------------

def test_003_11_5_league_add_result_refuses_targets_below_20(club: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = league(club, "add-result", COMP, "Ann", "Bob", "--caroms", "15", "10", "--innings", "9",
                          "--targets", "15", "30", capsys=capsys)
    assert code == 1 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "target 15 for Ann is below the minimum of 20" in err and "carom.target.minimum" in err
    assert _played(club, capsys) == 0
    code, out, _ = league(club, "add-result", COMP, "Ann", "Bob", "--caroms", "20", "10", "--innings", "9",
                          "--targets", "20", "30", capsys=capsys)
    assert code == 0 and "Ann 20/20" in out


def test_003_11_5_league_liemers_competition_takes_any_target(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "obb.db"
    league(db, "create", COMP, "--profile", "liemers", capsys=capsys)
    for name in ("Ann", "Bob"):
        league(db, "add-player", COMP, name, "--moyenne", "1", capsys=capsys)
    code, _, err = league(db, "add-result", COMP, "Ann", "Bob", "--caroms", "15", "10", "--innings", "9",
                          "--targets", "15", "30", capsys=capsys)
    assert code == 0, err


def test_003_11_5_league_import_refuses_a_log_played_to_a_target_below_20(
        club: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    short = Table(setup(targets={"p1": 10, "p2": 25}))  # a friendly to 10, not a championship match
    short.events[0]["players"] = {"p1": "Ann", "p2": "Bob"}
    short.run(10).piezo()
    good = Table(setup(targets={"p1": 20, "p2": 25}))
    good.events[0]["players"] = {"p1": "Ann", "p2": "Bob"}
    good.run(20).piezo()
    logs = []
    for name, t in (("good", good), ("short", short)):
        log = tmp_path / f"{name}.jsonl"
        log.write_text("\n".join(t.lines()) + "\n")
        logs.append(str(log))
    code, _, err = league(club, "import", COMP, *logs, capsys=capsys)
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert "short.jsonl" in err and "target 10 for Ann is below the minimum of 20" in err
    # nothing entered, not even the good log before it
    assert _played(club, capsys) == 0
    code, out, err = league(club, "import", COMP, logs[0], capsys=capsys)
    assert code == 0 and "Ann 20/20" in out, err


def test_003_11_5_make_result_checks_given_targets_against_the_competitions_profile() -> None:
    ann, bob = Player("Ann", 1.2), Player("Bob", 1.8)
    with pytest.raises(IllegalCall, match="target 12 for Bob"):
        make_result(ann, bob, (30, 5), (9, 9), (30, 12), profile="kampioen")
    assert make_result(ann, bob, (12, 5), (9, 9), (12, 30), profile="liemers").winner == "p1"
    assert make_result(ann, bob, (12, 5), (9, 9), (12, 30)).winner == "p1"  # no competition given
