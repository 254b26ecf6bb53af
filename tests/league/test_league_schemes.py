"""A competition's scheme is data: built-in records and a club's own TOML or JSON file, kept
with the competition, shown by ``league show``, and every point it gives worked out from it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import ROOT
from test_carom_helpers import Table, setup

from tablesense.cli import main
from tablesense.league import Player, make_result
from tablesense.league.scheme import BUILTIN, SchemeError, builtin, from_dict, from_file, load, resolve
from tablesense.rules.carom.targets import match_points

EXAMPLES = ROOT / "examples" / "league"


def league(db: Path, *args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["league", "--db", str(db), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 200), st.integers(1, 200), st.data())
def test_de_bruijn_as_a_record_gives_the_engines_points(t1: int, t2: int, data: st.DataObject) -> None:
    """003 Art. 11.6 from the record equals the engine's own count, for every score."""
    winner = data.draw(st.sampled_from(["p1", "p2", "draw"]))
    made = (
        t1 if winner in ("p1", "draw") else data.draw(st.integers(0, t1 - 1 if t1 > 0 else 0)),
        t2 if winner in ("p2", "draw") else data.draw(st.integers(0, t2 - 1 if t2 > 0 else 0)),
    )
    for name in ("de-bruijn", "win-draw-loss", "percentage"):
        assert builtin(name).carom_points(winner, made, (t1, t2)) == match_points(
            name, winner, made, (t1, t2)
        )


def test_the_belgian_count_is_caroms_times_ten_over_the_target_cut_down() -> None:
    belgian = builtin("belgian")
    assert belgian.carom_points("p1", (30, 26), (30, 30)) == (10, 8), "26 x 10 / 30 = 8.67: 8"
    assert belgian.carom_points("draw", (45, 20), (45, 20)) == (10, 10)
    assert belgian.carom_points("p2", (0, 20), (37, 20)) == (0, 10)


def test_the_bonus_goes_to_a_match_moyenne_above_ones_own_cut_to_two_decimals() -> None:
    """The Boxtel count: 21 caroms in 24 innings is 0.875, cut to 0.87: not above a moyenne of
    0.87, so no bonus; 22 in 24 (0.916) is: the loser gets 1, a winner 2."""
    s = builtin("belgian-bonus")
    assert s.carom_bonus("p2", (21, 20), (24, 24), (0.87, 5.0)) == (0, 0)
    assert s.carom_bonus("p2", (22, 20), (24, 24), (0.87, 0.5)) == (1, 2)
    ann, bob = Player("Ann", 0.87), Player("Bob", 0.5)
    r = make_result(ann, bob, (21, 12), (24, 24), (22, 12), s)
    assert r.winner == "p2" and r.bonus == (0, 0) and r.points == (9, 10), "21 x 10 / 22 = 9.5: 9"
    r = make_result(ann, bob, (22, 11), (24, 24), (22, 12), s)
    assert r.winner == "p1" and r.bonus == (2, 0) and r.points == (12, 9)


def test_an_innings_cap_ends_a_match_entered_by_hand_with_the_higher_share_winning() -> None:
    s = builtin("visite-25")
    ann, bob = Player("Ann", 1.0), Player("Bob", 2.0)
    r = make_result(ann, bob, (20, 35), (25, 25), (25, 50), s)
    assert r.winner == "p1", "20/25 = 80 % beats 35/50 = 70 %"
    assert r.points[:1] == (8,) and r.points[1] == 7
    with pytest.raises(Exception, match="end at 25"):
        make_result(ann, bob, (20, 35), (26, 26), (25, 50), s)


def test_a_kegle_distance_is_the_series_average_times_the_series_within_bounds() -> None:
    s = builtin("kegle-handicap")
    assert s.kegle_distance(6.5) == 98, "6.5 x 15 = 97.5, half up"
    assert s.kegle_distance(0.5) == 20 and s.kegle_distance(80) == 800, "DDBU: at most 800"
    assert builtin("kegle-100").kegle_distance(12.0) == 100


def test_team_points_compare_the_two_teams_sums() -> None:
    s = builtin("visite-25")
    assert (
        s.team_result(40, 38) == (2, 0) and s.team_result(38, 40) == (0, 2) and s.team_result(9, 9) == (1, 1)
    )


@pytest.mark.parametrize("name", sorted(BUILTIN))
def test_every_built_in_scheme_survives_its_own_record(name: str) -> None:
    s = BUILTIN[name]
    assert from_dict(json.loads(json.dumps(s.to_dict()))) == s


def test_the_example_scheme_files_read(tmp_path: Path) -> None:
    files = sorted(EXAMPLES.glob("*.toml")) + sorted(EXAMPLES.glob("*.json"))
    assert len(files) >= 3
    for path in files:
        s = load(path)
        assert s.name and s.game in ("carom", "golf", "kegle"), path


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('game = "snooker"', "game must be one of carom, golf, kegle, not 'snooker'"),
        ('game = "carom"\n[match]\ncount = "dutch"', "[match] count of a carom scheme is one of"),
        ('game = "carom"\n[match]\nwin = -1', "[match] win is a whole number from 0 to 10,000, not -1"),
        ('game = "carom"\n[match]\nwin = 2.5', "[match] win is a whole number"),
        ('game = "carom"\n[match]\nwin = true', "[match] win is a whole number"),
        ('game = "carom"\n[match]\ninnings_cap = 0', "innings_cap is a number of innings from 1 to 1000"),
        ('game = "golf"\n[match]\nframes_to_win = 3', "the rule engine plays golf to two winning frames"),
        ('game = "golf"\n[match]\ninnings_cap = 20', "[match] innings_cap is for carom, not golf"),
        ('game = "kegle"\n[distance]\nseries = 0', "[distance] wants series at least 1"),
        ('game = "kegle"\n[distance]\nminimum = 900\nmaximum = 800', "1 <= minimum <= maximum"),
        ('game = "carom"\n[team]\npoints = [2, 1]', "[team] points is three counts"),
        ('game = "carom"\n[team]\nnight = "often"', "[team] night is one of ranks, twice, all"),
        (
            'game = "carom"\n[standings]\norder = ["frames"]',
            "[standings] order of a carom scheme is a list of",
        ),
        ('game = "golf"\n[standings]\norder = ["points", "points"]', "each once"),
        ('game = "carom"\n[standings]\ntie = "coin"', "[standings] tie is one of barrage, deciding-game"),
        ('game = "carom"\ncolour = "red"', "unknown key 'colour'"),
        ('game = "carom"\n[match]\nwinner = 3', "unknown key 'winner' in [match]"),
        ('game = "carom"\n[bonus]\ndecimals = 7', "[bonus] decimals is 0 to 3"),
        ("game = ", "is no TOML"),
    ],
)
def test_a_scheme_file_that_does_not_read_is_one_line_naming_the_field(
    tmp_path: Path, text: str, said: str
) -> None:
    path = tmp_path / "club.toml"
    path.write_text(text)
    with pytest.raises(SchemeError) as info:
        load(path)
    assert said in str(info.value) and str(info.value).startswith(str(path)), str(info.value)
    assert "\n" not in str(info.value)


def test_a_json_scheme_reads_as_its_toml_twin(tmp_path: Path) -> None:
    data = {
        "name": "club",
        "game": "carom",
        "match": {"count": "win-draw-loss", "win": 3, "draw": 1, "loss": 0},
        "team": {"points": [2, 1, 0], "night": "twice"},
        "standings": {"order": ["points", "average"]},
    }
    (tmp_path / "club.json").write_text(json.dumps(data))
    (tmp_path / "club.toml").write_text(
        'name = "club"\ngame = "carom"\n[match]\ncount = "win-draw-loss"\nwin = 3\n'
        'draw = 1\nloss = 0\n[team]\npoints = [2, 1, 0]\nnight = "twice"\n'
        '[standings]\norder = ["points", "average"]\n'
    )
    assert load(tmp_path / "club.json") == load(tmp_path / "club.toml") == from_file(data)
    assert resolve(str(tmp_path / "club.json"), "carom").win == 3
    with pytest.raises(SchemeError, match="is a carom scheme; this is a golf competition"):
        resolve(str(tmp_path / "club.json"), "golf")


def test_a_club_changes_its_points_without_code_and_the_competition_keeps_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, path = tmp_path / "club.db", tmp_path / "club.toml"
    path.write_text(
        'name = "three-for-a-win"\ngame = "carom"\ntitle = "3 a win, 1 a draw"\n'
        '[match]\ncount = "win-draw-loss"\nwin = 3\ndraw = 1\nloss = 0\n'
    )
    assert league(db, "create", "Najaar", "--scheme", str(path), capsys=capsys)[0] == 0
    for name, moyenne in (("Ann", "1.2"), ("Bob", "1.8")):
        league(db, "add-player", "Najaar", name, "--moyenne", moyenne, capsys=capsys)
    code, out, _ = league(
        db, "add-result", "Najaar", "Ann", "Bob", "--caroms", "30", "20", "--innings", "25", capsys=capsys
    )
    assert code == 0 and "points 3-0" in out
    path.write_text(
        'game = "carom"\n[match]\ncount = "win-draw-loss"\nwin = 7\n'
    )  # changed later: not this one
    code, out, _ = league(db, "show", "Najaar", capsys=capsys)
    assert "scheme three-for-a-win: 3 a win, 1 a draw" in out and "a win 3, a draw 1, a loss 0" in out
    shown = json.loads(league(db, "show", "Najaar", "--json", capsys=capsys)[1])
    assert shown["scheme"]["win"] == 3 and shown["scheme"]["name"] == "three-for-a-win"
    data = json.loads(league(db, "standings", "Najaar", "--json", capsys=capsys)[1])
    assert [(r["name"], r["points"]) for r in data["standings"]] == [("Ann", 3), ("Bob", 0)]


def test_create_with_a_scheme_that_does_not_read_is_one_line_and_makes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "club.db"
    code, _, err = league(db, "create", "X", "--scheme", "fourteen-one", capsys=capsys)
    assert code == 1 and "no built-in carom scheme 'fourteen-one'" in err and len(err.splitlines()) == 1
    code, _, err = league(db, "create", "X", "--game", "golf", "--scheme", "visite-25", capsys=capsys)
    assert code == 1 and "no built-in golf scheme 'visite-25' (have: golf-frames, golf-match" in err
    code, _, err = league(db, "create", "X", "--scheme", str(tmp_path / "none.toml"), capsys=capsys)
    assert code == 1 and "cannot read" in err
    assert league(db, "list", capsys=capsys)[1] == ""


def test_an_innings_capped_log_is_read_at_the_end_of_the_capped_inning() -> None:
    """The engine plays on to the target; a visite-20 competition reads the match after each
    player's 20th inning: the caroms then, the higher share winning."""
    from tablesense.league import games
    from tablesense.league.matchlog import replay_match

    t = Table(setup(targets={"p1": 30, "p2": 40}))
    for _ in range(20):
        t.run(1).piezo()  # Ann 1 a turn
        t.run(1).piezo()  # Bob 1 a turn
    t.run(5).piezo()  # inning 21: past the cap
    lines = t.lines()
    match = replay_match(lines)
    finished = bool(match.final["finished"])
    assert not finished
    with pytest.raises(Exception, match="not finished"):
        games.read(match, builtin("de-bruijn"))
    r = games.read(match, builtin("visite-20"))
    assert r.caroms == (20, 20) and r.innings == (20, 20) and r.winner == "p1", "20/30 beats 20/40"
    scored = games.score(r, builtin("visite-20"), (Player("Ann", 0.5), Player("Bob", 1.5)))
    assert scored.points == (6 + 2, 5), "20 x 10 / 30 = 6, a winner above 0.5: +2; Bob 5, below 1.5"


scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 2000), st.floats(allow_nan=False),
                    st.text(max_size=12), st.sampled_from(["points", "belgian", "twice", "barrage"]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
sections = st.fixed_dictionaries({}, optional={
    "name": values, "title": values, "game": st.sampled_from(["carom", "golf", "kegle", "pool"]) | values,
    "match": st.dictionaries(st.sampled_from(["count", "win", "draw", "loss", "per_frame", "frames_to_win",
                                              "innings_cap", "x"]), values, max_size=4) | values,
    "bonus": st.dictionaries(st.sampled_from(["points", "winner", "decimals"]), values, max_size=3),
    "distance": st.dictionaries(st.sampled_from(["fixed", "series", "minimum", "maximum"]), values,
                                max_size=3),
    "team": st.dictionaries(st.sampled_from(["points", "night"]), values, max_size=2) | values,
    "standings": st.dictionaries(st.sampled_from(["order", "tie"]), values, max_size=2)})


@settings(max_examples=300, deadline=None)
@given(sections)
def test_any_scheme_file_reads_or_is_one_line_saying_why(data: dict[str, object]) -> None:
    """Whatever a club writes: a scheme whose every field fits, or a SchemeError of one line;
    never another exception. The record a competition keeps reads back the same."""
    try:
        s = from_file(data)
    except SchemeError as exc:
        assert str(exc) and "\n" not in str(exc) and len(str(exc)) <= 300
        return
    assert s.game in ("carom", "golf", "kegle") and s.order and len(s.team_points) == 3
    assert from_dict(json.loads(json.dumps(s.to_dict()))) == s
    for record in (s.to_dict() | {"order": 3}, s.to_dict() | {"team_points": {"a": 1}}, [1]):
        with pytest.raises(SchemeError):
            from_dict(record)  # type: ignore[arg-type]
