"""What a club counts (tablesense.club_figures), one set of figures for the screens and the
score sheet: through the real pub and engines over simulated matches of several seeds (carom's
runs per inning, last innings, moyennes and share of the target, the innings limit and the
equalising inning; keglebillard's series; golf's best of three; the referee's announcements in
the table's language), and over recorded matches and logs (golf's frames as the engine ended
them, a whole log's figures). The sheet's page is tests/cli/test_cli_sheet.py's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from paths import ROOT

from tablesense.club_figures import figures, figures_of_log, for_screens
from tablesense.events import parse_event
from tablesense.pub import Pub
from tablesense.replay import Replay
from tablesense.sim.match import play_match
from tablesense.store import Store
from tablesense.web import view


def _pub(tmp_path: Path, lang: str = "en") -> Pub:
    pub = Pub(Store(str(tmp_path / "pub.db")), ["1"], lang=lang)
    pub.view = view.view
    return pub


def _club(pub: Pub) -> dict[str, Any]:
    return pub.snapshot("1")["view"]["club"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("seed", [0, 1])
def test_keglebillard_series_by_series_add_up_to_the_points_at_every_step(tmp_path: Path, seed: int) -> None:
    pub = _pub(tmp_path)
    for event in play_match("kegle", seed=seed, full_info=False, distance=20):
        pub.submit("1", event, "referee" if event.type == "call" else "table")
        state, club = pub.snapshot("1")["state"], _club(pub)
        for p in ("p1", "p2"):
            series = club["players"][p]["series"]
            assert sum(series) == state["points"][p] and len(series) == state["series"][p]
            assert club["players"][p]["highest"] == max(series, default=0)
    assert state["finished"]
    for p in ("p1", "p2"):
        c = club["players"][p]
        assert c["average"] == (round(c["points"] / len(c["series"]), 1) if c["series"] else 0.0)


def test_an_undone_keglebillard_shot_leaves_the_series(tmp_path: Path) -> None:
    pub = _pub(tmp_path)
    pub.start_match("1", {"game": "kegle", "players": {"p1": "Mette", "p2": "Lars"}, "distance": 40})
    for e in ({"t": 1.0, "type": "cushion", "cushion": 1, "ball": "red"},
              {"t": 1.5, "type": "pin", "pin": 2, "state": "down"}, {"t": 3.0, "type": "rest"}):
        pub.submit("1", parse_event(e))
    assert _club(pub)["players"]["p1"]["series"] == [2]
    pub.call("1", {"call": "undo"})
    assert _club(pub)["players"]["p1"]["series"] == []


@pytest.mark.parametrize("seed", [3])
def test_carom_runs_per_inning_and_the_last_five(tmp_path: Path, seed: int) -> None:
    pub = _pub(tmp_path)
    events = play_match("carom", seed=seed, full_info=False, targets=6)
    setup = events[0].to_dict()
    setup["moyennes"] = {"p1": 0.5, "p2": 0.25}
    setup.pop("targets")
    pub.start_match("1", {k: v for k, v in setup.items() if k not in ("t", "type")})
    for event in events[1:]:
        pub.submit("1", event, "referee" if event.type == "call" else "table")
        state, club = pub.snapshot("1")["state"], _club(pub)
        if state["finished"]:
            break
        for p in ("p1", "p2"):
            c = club["players"][p]
            assert c["runs"] == state["runs"][p] and c["last"] == c["runs"][-5:]
            assert c["target"] == state["targets"][p] == 20  # moyenne x 25, never below 20
            assert c["moyenne"] == {"p1": 0.5, "p2": 0.25}[p]  # registered, beside tonight's
            assert c["percent"] == c["caroms"] * 100 // c["target"]
            assert c["remaining"] == c["target"] - c["caroms"]
        assert (club["players"][state["at_table"]]["run"] == state["current_run"])


def test_carom_innings_limit_and_the_equalising_inning_on_the_screens(tmp_path: Path) -> None:
    pub = _pub(tmp_path, "nl")
    pub.start_match("1", {"game": "carom", "discipline": "libre", "players": {"p1": "Joop", "p2": "Kees"},
                          "targets": {"p1": 2, "p2": 20}, "innings_limit": 5})
    t = 1.0

    def shot(carom: bool) -> None:
        nonlocal t
        pub.submit("1", parse_event({"t": t, "type": "cushion", "cushion": 1, "ball": None}))
        pub.submit("1", parse_event({"t": t + 0.5, "type": "rest"}))
        if carom:
            pub.call("1", {"call": "carom"})
        t += 1.0

    assert _club(pub)["innings_limit"] == 5 and _club(pub)["inning"] == 1
    shot(False)
    shot(False)  # both have played an inning: the second begins
    assert _club(pub)["inning"] == 2 and _club(pub)["innings_left"] == 4
    shot(True)
    shot(True)  # Joop (p1, breaking) makes his target: Kees's equalising inning
    club = _club(pub)
    assert club["nastoot"] == "p2" and not pub.snapshot("1")["state"]["finished"]
    shot(False)
    assert pub.snapshot("1")["state"]["winner"] == "p1"
    assert _club(pub)["players"]["p1"]["runs"] == [0, 2]


def test_golf_is_best_of_three_frames(tmp_path: Path) -> None:
    pub = _pub(tmp_path)
    for event in play_match("golf", seed=0, full_info=False):
        pub.submit("1", event, "referee" if event.type == "call" else "table")
    club, state = _club(pub), pub.snapshot("1")["state"]
    assert club["best_of"] == 3 and club["frames_won"] == state["frames_won"]
    assert max(club["frames_won"].values()) == club["frames_to_win"] == 2


def test_the_referees_announcements_are_in_the_tables_language(tmp_path: Path) -> None:
    pub = _pub(tmp_path, "da")
    for event in play_match("kegle", seed=1, full_info=False, distance=20):
        pub.submit("1", event, "referee" if event.type == "call" else "table")
        said = pub.snapshot("1")["view"]["announcements"]
        assert "distance" not in said  # the referee's one word, said as what it means
        assert not any(w in " ".join(said) for w in ("remaining", "reached", "last series", "break"))
    assert for_screens(None) == {}


def test_the_screens_and_the_sheet_read_the_same_figures(tmp_path: Path) -> None:
    """A match played through the pub: the screens' figures are the sheet's figures of its log."""
    for game, seed in (("carom", 3), ("kegle", 0), ("golf", 1)):
        (tmp_path / game).mkdir()
        pub = _pub(tmp_path / game)
        opts = {"targets": 6} if game == "carom" else {}
        for event in play_match(game, seed=seed, full_info=False, **opts):
            pub.submit("1", event, "referee" if event.type == "call" else "table")
        match_id = pub.table("1").match.id  # type: ignore[union-attr]
        assert _club(pub) == for_screens(figures_of_log(pub.export_lines(match_id))), game


# --- golf: frame by frame -----------------------------------------------------------------------

GOLF = sorted((ROOT / "tests" / "matches" / "golf").glob("*.jsonl"))


def test_a_golf_frames_balls_and_turns_are_those_the_engine_ended_it_with() -> None:
    """The state racks the next frame after the shot that decides one; the engine keeps how each
    frame ended. Checked where the state itself still holds it: every recorded golf match's last
    frame (its balls left), and every frame's winner and turns against the frames won and the
    shots played."""
    checked = 0
    for path in GOLF:
        rep = Replay().feed_lines(path.read_text(encoding="utf-8").splitlines())
        state = rep.state
        if state is None or not state.finished:
            continue
        golf = figures(state).golf
        assert golf is not None
        assert [f.winner for f in golf.frames] == list(state.frame_winners), path.name
        assert golf.frames[-1].balls_left == tuple(state.balls_left), path.name
        assert [sum(1 for f in golf.frames if f.winner == p) for p in ("p1", "p2")] == list(state.frames_won)
        assert all(f.turns >= 1 for f in golf.frames) and golf.frame == len(golf.frames)
        checked += 1
    assert checked >= 5


def test_the_figures_of_a_log_are_the_same_as_the_sheets() -> None:
    lines = (ROOT / "examples" / "club" / "2-bob-cor.jsonl").read_text(encoding="utf-8").splitlines()
    fig = figures_of_log(lines)
    assert fig.carom is not None and fig.finished
    for p in fig.carom.players:
        assert sum(i.run for i in p.innings) == p.caroms and max(i.run for i in p.innings) == p.high_run
