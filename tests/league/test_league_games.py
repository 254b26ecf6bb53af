"""Golf billiards and keglebillard competitions through the real ``tablesense league`` command,
a real SQLite file and the rule engines' own replay of each log."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from league_play import START, game_lines, golf_events, kegle_events

from tablesense.cli import main
from tablesense.league import LeagueStore
from tablesense.league.inbox import Inbox
from tablesense.league.matchlog import replay_match
from tablesense.league.messages import encode, match_message, reported
from tablesense.replay import Replay


def league(db: Path, *args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["league", "--db", str(db), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def write(tmp: Path, name: str, events: list[dict[str, Any]]) -> str:
    path = tmp / name
    path.write_text("\n".join(game_lines(events)) + "\n")
    return str(path)


def rows(db: Path, comp: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code, out, err = league(db, "standings", comp, "--json", capsys=capsys)
    assert code == 0, err
    return json.loads(out)


# --- golf ----------------------------------------------------------------------------------------


@pytest.fixture
def golf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    db = tmp_path / "golf.db"
    assert league(db, "create", "Golf", "--game", "golf", "--season", "2026-2027", capsys=capsys)[0] == 0
    for name, group in (("Ann", "A"), ("Bob", "A"), ("Cor", "A"), ("Eva", "B"), ("Fien", "B")):
        assert league(db, "add-player", "Golf", name, "--group", group, capsys=capsys)[0] == 0
    return db


def test_golf_standings_go_by_match_points_then_frames_then_balls(
    golf: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = [
        write(tmp_path, "1.jsonl", golf_events("Ann", "Bob", [("p1", 4), ("p1", 4)])),  # Ann 2-0, balls 10-8
        write(tmp_path, "2.jsonl", golf_events("Bob", "Cor", [("p1", 0), ("p2", 3), ("p1", 0)])),
        write(tmp_path, "3.jsonl", golf_events("Cor", "Ann", [("p1", 1), ("p2", 2), ("p1", 0)])),
    ]
    code, out, err = league(golf, "import", "Golf", *logs, capsys=capsys)
    assert code == 0, err
    assert "Ann - Bob: frames 2-0, balls 10-8: Ann wins; points 2-0" in out
    data = rows(golf, "Golf", capsys)
    a, b = data["groups"]
    assert a["group"] == "A" and b["group"] == "B" and b["standings"][0]["played"] == 0
    table = {r["name"]: r for r in a["standings"]}
    # points (one a frame): Ann 2 + 1 = 3, Cor 1 + 2 = 3, Bob 0 + 2 = 2; Ann and Cor level on
    # points, Ann's frames 3-2 (+1) before Cor's 3-3
    assert [r["name"] for r in a["standings"]] == ["Ann", "Cor", "Bob"]
    assert (table["Cor"]["points"], table["Cor"]["frames_won"], table["Cor"]["frames_lost"]) == (3, 3, 3)
    assert (table["Ann"]["balls_won"], table["Ann"]["balls_lost"]) == (16, 20)
    assert a["winner"] == "Ann" and a["decider"] == []
    _, text, _ = league(golf, "standings", "Golf", capsys=capsys)
    assert "group A" in text and "group B" in text and "winner: Ann" in text


def test_golf_players_level_on_points_and_frames_are_ordered_by_balls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "g.db"
    league(db, "create", "G", "--game", "golf", capsys=capsys)
    for name in ("Ann", "Bob", "Cor"):
        league(db, "add-player", "G", name, capsys=capsys)
    logs = [
        write(tmp_path, "1.jsonl", golf_events("Ann", "Bob", [("p1", 4), ("p1", 4)])),  # 10-8
        write(tmp_path, "2.jsonl", golf_events("Bob", "Cor", [("p1", 0), ("p1", 0)])),  # 10-0
        write(tmp_path, "3.jsonl", golf_events("Cor", "Ann", [("p1", 1), ("p1", 1)])),
    ]  # 10-2
    assert league(db, "import", "G", *logs, capsys=capsys)[0] == 0
    data = rows(db, "G", capsys)
    # every player 2 points and frames 2-2; balls: Bob 18-10, Cor 10-12, Ann 12-18
    assert [(r["name"], r["points"], r["balls_won"] - r["balls_lost"]) for r in data["standings"]] == [
        ("Bob", 2, 8),
        ("Cor", 2, -2),
        ("Ann", 2, -6),
    ]
    assert data["winner"] == "Bob"


def test_golf_players_of_two_groups_do_not_meet(
    golf: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = write(tmp_path, "x.jsonl", golf_events("Ann", "Eva", [("p1", 0), ("p1", 0)]))
    code, _, err = league(golf, "import", "Golf", log, capsys=capsys)
    assert code == 1 and "Ann plays in group A and Eva in B" in err
    code, _, err = league(golf, "add-result", "Golf", "Ann", "Eva", "--frames", "2", "0", capsys=capsys)
    assert code == 1 and "group" in err


def test_golf_players_level_on_everything_play_a_deciding_game(
    golf: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    league(
        golf, "add-result", "Golf", "Eva", "Fien", "--frames", "2", "1", "--balls", "12", "11", capsys=capsys
    )
    league(
        golf, "add-result", "Golf", "Fien", "Eva", "--frames", "2", "1", "--balls", "12", "11", capsys=capsys
    )
    data = rows(golf, "Golf", capsys)
    b = data["groups"][1]
    assert b["winner"] is None and sorted(b["decider"]) == ["Eva", "Fien"]
    _, text, _ = league(golf, "standings", "Golf", capsys=capsys)
    assert "a deciding game match decides between" in text
    log = write(tmp_path, "d.jsonl", golf_events("Fien", "Eva", [("p2", 0), ("p2", 1)]))
    code, _, err = league(golf, "import", "Golf", log, "--barrage", capsys=capsys)
    assert code == 0, err
    b = rows(golf, "Golf", capsys)["groups"][1]
    assert b["winner"] == "Eva" and {r["name"]: r["played"] for r in b["standings"]} == {
        "Eva": 2,
        "Fien": 2,
    }, "the deciding game orders the top and counts for nothing else"


def test_a_golf_duo_competition_takes_duo_logs_and_records_who_opened_each_frame(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "duo.db"
    league(db, "create", "Duo", "--game", "golf", "--scheme", "golf-match", capsys=capsys)
    league(db, "add-player", "Duo", "De Ballen", "--members", "Ann", "Cor", capsys=capsys)
    league(db, "add-player", "Duo", "Het Bos", "--members", "Bob", "Dirk", capsys=capsys)
    code, _, err = league(db, "add-player", "Duo", "Solo", "--members", "Eva", "Eva", capsys=capsys)
    assert code == 1 and "a duo is two players" in err
    log = write(
        tmp_path, "duo.jsonl", golf_events(["Cor", "Ann"], ["Bob", "Dirk"], [("p2", 2), ("p1", 0), ("p1", 4)])
    )
    code, out, err = league(db, "import", "Duo", log, capsys=capsys)
    assert code == 0, err
    assert "De Ballen - Het Bos: frames 2-1" in out and "points 2-0" in out
    with LeagueStore(str(db)) as store:
        [r] = store.results(store.competition("Duo"))
    assert r.openers == ("p1", "p2", "p1"), "golf.frame.opening: the other side opens frame 2"
    assert (r.balls, r.frames) == ((2 + 5 + 5, 5 + 0 + 4), (2, 1))


def test_a_golf_result_by_hand_must_be_a_match_to_two_frames(
    golf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for frames, balls, said in (
        (("2", "2"), None, "one side has 2"),
        (("1", "0"), None, "one side has 2"),
        (("2", "1"), ("9", "6"), "at least 10 balls"),
        (("2", "0"), ("10", "11"), "at most 10"),
    ):
        extra = ["--balls", *balls] if balls else []
        code, _, err = league(
            golf, "add-result", "Golf", "Ann", "Bob", "--frames", *frames, *extra, capsys=capsys
        )
        assert code == 1 and said in err and len(err.splitlines()) == 1, err
    code, _, err = league(
        golf, "add-result", "Golf", "Ann", "Bob", "--caroms", "2", "1", "--innings", "3", capsys=capsys
    )
    assert code == 1 and "--caroms, --innings is not for a golf match" in err


# --- keglebillard ------------------------------------------------------------------------------------


@pytest.fixture
def kegle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    db = tmp_path / "kegle.db"
    assert league(db, "create", "Kegle", "--game", "kegle", capsys=capsys)[0] == 0
    for name, average in (("Ann", "6.5"), ("Bob", "4"), ("Cor", "2")):
        code, _, err = league(db, "add-player", "Kegle", name, "--average", average, capsys=capsys)
        assert code == 0, err
    return db


def test_a_kegle_player_plays_to_the_distance_his_average_gives(
    kegle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = league(kegle, "show", "Kegle", capsys=capsys)
    assert "Ann, series average 6.5, distance 98" in out and "Cor, series average 2, distance 30" in out
    wrong = write(tmp_path, "w.jsonl", kegle_events("Ann", "Bob", (100, 60), (10, 6)))
    code, _, err = league(kegle, "import", "Kegle", wrong, capsys=capsys)
    assert code == 1 and "Ann played to 100, but his distance here is 98" in err and "kegle.distance" in err
    right = write(tmp_path, "r.jsonl", kegle_events("Ann", "Bob", (98, 60), (10, 4)))
    code, out, err = league(kegle, "import", "Kegle", right, capsys=capsys)
    assert code == 0 and "Ann wins; points 2-0" in out, (out, err)


def test_kegle_standings_show_the_series_average_and_the_highest_series(
    kegle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = [
        write(tmp_path, "1.jsonl", kegle_events("Ann", "Bob", (98, 60), (14, 6))),  # Ann in 7 series
        write(tmp_path, "2.jsonl", kegle_events("Bob", "Cor", (60, 30), (12, 6))),  # a tie in 5
        write(tmp_path, "3.jsonl", kegle_events("Cor", "Ann", (30, 98), (2, 20), first="p2")),
    ]
    code, out, err = league(kegle, "import", "Kegle", *logs, capsys=capsys)
    assert code == 0, err
    assert "a tie; points 1-1" in out
    data = rows(kegle, "Kegle", capsys)
    table = {r["name"]: r for r in data["standings"]}
    direct = {}
    for log in logs:
        final = replay_match(Path(log).read_text().splitlines()).final
        for side in ("p1", "p2"):
            name = json.loads(Path(log).read_text().splitlines()[0])["players"][side]
            got = direct.setdefault(name, [0, 0])
            got[0] += final["points"][side]
            got[1] += final["series"][side]
    for name, (points, series) in direct.items():
        assert (table[name]["scored"], table[name]["series"]) == (points, series)
        assert table[name]["average"] == round(points / series, 2)
    assert table["Ann"]["highest"] == 20 and table["Bob"]["highest"] == 12
    assert data["standings"][0]["name"] == "Ann" and table["Ann"]["points"] == 4
    _, text, _ = league(kegle, "standings", "Kegle", capsys=capsys)
    assert "tied" in text and "highest" in text and "average" in text
    moy = json.loads(league(kegle, "moyennes", "Kegle", "--json", capsys=capsys)[1])["averages"]
    ann = next(r for r in moy if r["name"] == "Ann")
    assert ann["new"] == table["Ann"]["average"] and ann["distance"] == round(ann["new"] * 15 + 1e-9)


def test_kegle_players_level_at_the_top_play_a_shoot_out(
    kegle: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    league(kegle, "add-result", "Kegle", "Ann", "Bob", "--scored", "98", "50", "--series", "9", capsys=capsys)
    league(kegle, "add-result", "Kegle", "Bob", "Ann", "--scored", "60", "50", "--series", "9", capsys=capsys)
    _, text, _ = league(kegle, "standings", "Kegle", capsys=capsys)
    assert "a shoot-out match decides between Ann and Bob" in text
    code, _, err = league(
        kegle, "add-result", "Kegle", "Ann", "Bob", "--scored", "40", "60", "--series", "9", capsys=capsys
    )
    assert code == 0, err
    code, _, err = league(
        kegle, "add-result", "Kegle", "Ann", "Bob", "--scored", "10", "20", "--series", "3", capsys=capsys
    )
    assert code == 1 and "neither player reached his distance" in err


# --- what a pub reports against its log -------------------------------------------------------------


@pytest.fixture
def inbox(tmp_path: Path) -> Iterator[Inbox]:
    box = _inbox(tmp_path / "league.db")
    yield box
    box.store.close()


def _engine(lines: list[str]) -> dict[str, Any]:
    rep = Replay().feed_lines(lines)
    assert rep.engine is not None and rep.state is not None
    return reported(rep.engine.to_json(rep.state))


def _inbox(path: Path) -> Inbox:
    from tablesense.league.inbox import open_inbox

    box = open_inbox(str(path))
    store = box.store
    g = store.create("Golf", game="golf", scheme="golf-frames")
    k = store.create("Kegle", game="kegle", scheme="kegle-handicap")
    for name in ("Ann", "Bob"):
        store.add_player(g, name)
    store.add_player(k, "Ann", 6.5)
    store.add_player(k, "Bob", 4.0)
    return box


@settings(max_examples=10, deadline=None)
@given(
    st.sampled_from(["p1", "p2"]),
    st.integers(0, 2),
    st.lists(st.integers(0, 4), min_size=3, max_size=3),
    st.sampled_from(["winner", "frames_won"]),
    st.integers(1, 2),
)
def test_a_golf_result_that_disagrees_with_its_log_is_refused_naming_the_figure(
    winner: str, where: int, balls: list[int], lie: str, by: int
) -> None:
    loser = "p2" if winner == "p1" else "p1"
    frames = [(winner, balls[0]), (winner, balls[1])]
    if where:  # the loser took frame 1 or 2: a deciding frame
        frames.insert(where - 1, (loser, balls[2]))
    lines = game_lines(golf_events("Ann", "Bob", frames))
    told = _engine(lines)
    assert told["winner"] == winner
    wrong = dict(told)
    if lie == "winner":
        wrong["winner"] = loser
    else:
        wrong["frames_won"] = {"p1": told["frames_won"]["p1"], "p2": (told["frames_won"]["p2"] + by) % 3}
    with tempfile.TemporaryDirectory() as tmp:
        inbox = _inbox(Path(tmp) / "league.db")
        try:
            out = inbox.take(
                "kroeg",
                encode(match_message("kroeg", "1", START, "golf", {"p1": "Ann", "p2": "Bob"}, lines, wrong)),
            )
            assert out.kind == "refused" and "disagrees with its own log" in out.text and lie in out.text, out
            assert inbox.store.results(inbox.store.competition("Golf")) == []
            out = inbox.take(
                "kroeg",
                encode(
                    match_message("kroeg", "1", START + 1, "golf", {"p1": "Ann", "p2": "Bob"}, lines, told)
                ),
            )
            assert out.kind == "stored"
            [r] = inbox.store.results(inbox.store.competition("Golf"))
            assert r.frames == (told["frames_won"]["p1"], told["frames_won"]["p2"])
        finally:
            inbox.store.close()


def test_a_kegle_result_that_disagrees_with_its_log_is_refused_and_the_true_one_taken(inbox: Inbox) -> None:
    lines = game_lines(kegle_events("Ann", "Bob", (98, 60), (10, 4)))
    told = _engine(lines)
    assert told["points"] == {"p1": 100, "p2": 40} and told["series"] == {"p1": 10, "p2": 10}, (
        "over the distance: kept"
    )
    lies = (("points", {"p1": 98, "p2": 40}), ("series", [9, 9]), ("targets", [98, 50]), ("winner", "draw"))
    for k, (key, value) in enumerate(lies):
        out = inbox.take(
            "kroeg",
            encode(
                match_message(
                    "kroeg", "1", START + k, "kegle", {"p1": "Ann", "p2": "Bob"}, lines, {**told, key: value}
                )
            ),
        )
        assert out.kind == "refused" and f"{key} " in out.text and "disagrees with its own log" in out.text
    out = inbox.take(
        "kroeg",
        encode(match_message("kroeg", "1", START + 10, "kegle", {"p1": "Ann", "p2": "Bob"}, lines, told)),
    )
    assert out.kind == "stored", out
    [r] = inbox.store.results(inbox.store.competition("Kegle"))
    assert (r.scored, r.series, r.targets, r.points, r.highest) == (
        (100, 40),
        (10, 10),
        (98, 60),
        (2, 0),
        (10, 4),
    )
    golf = game_lines(golf_events("Bob", "Ann", [("p2", 3), ("p1", 1), ("p1", 0)]))
    out = inbox.take(
        "zaal",
        encode(match_message("zaal", "2", START, "golf", {"p1": "Bob", "p2": "Ann"}, golf, _engine(golf))),
    )
    assert out.kind == "stored" and out.text == "Golf: Bob - Ann", out
