"""``tablesense league import`` on logs that are no match logs: every one is one clear line on
stderr naming the file and the line, exit status 1 (2 for a file that cannot be read at all,
docs/cli.md), nothing entered, never a traceback; and a log entered once is not entered again."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from league_play import lines_of, match_events
from test_league_cli import COMP, db, league  # noqa: F401 (the fixture)
from test_league_once import junk_line

from tablesense.league import LeagueStore

KINDS = ["NaN", "Infinity in a field", "nested too deep", "nested deeper than an event", "t -1", "t 1e308",
         "t 2^70", "t as text", "back in time", "a number beyond any count", "not an event", "not JSON",
         "a second set-up", "too long", "an unknown event"]


def entered(db: Path) -> int:  # noqa: F811
    with LeagueStore(str(db)) as store:
        return len(store.results(store.competition(COMP)))


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("tablesense league: ") and len(lines[0]) < 400, lines[0][:400]
    return lines[0]


def ann_bob() -> list[str]:
    return lines_of(match_events("Ann", "Bob", 5, 7))


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n")
    return path


@given(kind=st.sampled_from(KINDS), where=st.integers(2, 160))
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_a_log_with_a_junk_line_is_one_line_naming_it_and_exit_1(db: Path, tmp_path: Path,  # noqa: F811
                                                                 capsys: pytest.CaptureFixture[str],
                                                                 kind: str, where: int) -> None:
    lines = ann_bob()
    bad = [*lines[:where - 1], junk_line(kind, where - 1, lines), *lines[where - 1:]]
    log = write(tmp_path / "junk.jsonl", bad)
    code, out, err = league(db, "import", COMP, str(log), capsys=capsys)
    named = where + 1 if kind == "back in time" else where
    assert code == 1 and out == ""
    assert f"{log}: line {named}" in one_line(err), (kind, err)
    assert entered(db) == 0


def setup_with(**over: object) -> list[str]:
    lines = ann_bob()
    return [json.dumps({**json.loads(lines[0]), **over}), *lines[1:]]


@pytest.mark.parametrize(("lines", "words"), [
    (setup_with(targets=None, moyennes={"p1": float("nan"), "p2": 1.0}),
     "line 1: NaN and Infinity are no numbers"),
    (setup_with(targets=None, moyennes={"p1": 1e300, "p2": 1.0}), "line 1: 'moyennes' is 1e+300, beyond any"),
    (setup_with(targets=None, moyennes={"p1": 5000, "p2": 1.0}), "line 1: p1's moyenne 5000.0 is out"),
    (setup_with(rest={"positions": {"red": "@"}}), "line 1 is longer than 16,384 characters"),
    (setup_with(rest={"positions": {"red": "#"}}), "line 1: 'rest' is nested more than 8 deep"),
    # a name is checked where the log is read, as everywhere a log comes in (log_checks)
    (setup_with(players={"p1": "", "p2": "Bob"}), "line 1: setup: player p1: a name is empty"),
    (setup_with(players={"p1": "\n", "p2": "Bob"}),
     "line 1: setup: player p1: a name cannot hold the control character U+000A"),
    (setup_with(players={"p1": "Ann\nBob", "p2": "Bob"}),
     "line 1: setup: player p1: a name cannot hold the control character U+000A ('Ann\\nBob')"),
    (setup_with(players={"p1": "A" * 10_000, "p2": "Bob"}),
     "line 1: setup: player p1: a name has at most 64 characters, not 10000"),
    (setup_with(players={"p1": "A" * 1_000_000, "p2": "Bob"}), "line 1 is longer than 16,384 characters"),
    (setup_with(game="snooker"), "line 1: setup: unknown game 'snooker'"),
    ([json.dumps({"t": 0, "type": "rest"}), *ann_bob()[1:]],
     "line 1: the log does not start with the match's set-up"),
])
def test_a_set_up_that_is_no_set_up_is_one_line_and_exit_1(db: Path, tmp_path: Path,  # noqa: F811
                                                           capsys: pytest.CaptureFixture[str],
                                                           lines: list[str], words: str) -> None:
    lines = [line.replace('"@"', "[" * 200_000 + "]" * 200_000).replace('"#"', "[" * 20 + "]" * 20)
             for line in lines]
    code, _, err = league(db, "import", COMP, str(write(tmp_path / "bad.jsonl", lines)), capsys=capsys)
    assert code == 1 and words in one_line(err), err[:500]
    assert entered(db) == 0


def test_positions_nested_200000_deep_and_nan_through_the_installed_command(
        db: Path, tmp_path: Path, tablesense_cmd: list[str]) -> None:  # noqa: F811
    lines = ann_bob()
    deep = json.dumps({"t": 3.0, "type": "rest", "positions": {"red": "@"}}).replace(
        '"@"', "[" * 200_000 + "]" * 200_000)
    nan = setup_with(targets=None, moyennes={"p1": float("nan"), "p2": 1.0})
    for name, log in (("deep", [*lines[:5], deep, *lines[5:]]), ("nan", nan)):
        path = write(tmp_path / f"{name}.jsonl", log)
        done = subprocess.run([*tablesense_cmd, "league", "import", COMP, str(path), "--db", str(db)],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 1 and done.stdout == "", done.stderr
        one_line(done.stderr)
    assert entered(db) == 0


def test_a_file_that_cannot_be_read_is_exit_2(db: Path, tmp_path: Path,  # noqa: F811
                                              capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty.jsonl").write_text("\n\n")
    (tmp_path / "binary.jsonl").write_bytes(b"\xff\xfe\x00junk")
    for name, words in (("empty.jsonl", "is empty"), ("binary.jsonl", "not UTF-8"),
                        ("missing.jsonl", "cannot read")):
        code, _, err = league(db, "import", COMP, str(tmp_path / name), capsys=capsys)
        assert code == 2 and words in one_line(err)


def test_an_edges_file_is_named_as_one_and_sent_to_sim(db: Path, tmp_path: Path,  # noqa: F811
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """As replay and sheet say it (docs/cli.md), not "line 1: t must be a number"."""
    edges = write(tmp_path / "edges.jsonl", ['{"game": "golf"}', '{"t_us": 1000, "ch": 0, "level": 1}'])
    code, _, err = league(db, "import", COMP, str(edges), capsys=capsys)
    assert code == 2 and f"{edges} is an edges file" in one_line(err) and f"tablesense sim {edges}" in err
    assert entered(db) == 0


def test_a_log_entered_once_is_not_entered_again(db: Path, tmp_path: Path,  # noqa: F811
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    first = write(tmp_path / "ann-bob.jsonl", ann_bob())
    assert league(db, "import", COMP, str(first), capsys=capsys)[0] == 0
    spaced = write(tmp_path / "copy.jsonl", [json.dumps(json.loads(line), separators=(" , ", " : "))
                                             for line in ann_bob()])
    code, _, err = league(db, "import", COMP, str(spaced), capsys=capsys)
    assert code == 1 and f"the same match as {first}, entered already" in one_line(err)
    other = write(tmp_path / "bob-ann.jsonl", lines_of(match_events("Bob", "Ann", 5, 7)))
    code, _, err = league(db, "import", COMP, str(other), str(other), capsys=capsys)
    assert code == 1 and f"the same match as {other}" in one_line(err), "twice in one import: once"
    assert entered(db) == 1


def test_a_libre_log_is_not_imported_into_a_driebanden_competition(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "drie.db"
    assert league(path, "create", "Drie", "--discipline", "driebanden", capsys=capsys)[0] == 0
    for name in ("Ann", "Bob"):
        assert league(path, "add-player", "Drie", name, "--moyenne", "0.4", capsys=capsys)[0] == 0
    libre = write(tmp_path / "libre.jsonl", ann_bob())
    code, _, err = league(path, "import", "Drie", str(libre), capsys=capsys)
    assert code == 1 and "'Drie' is a driebanden competition; this log is a libre match" in one_line(err)


@pytest.mark.parametrize(("name", "moyenne", "words"), [
    ("", "1", "a player's name is empty"),
    ("Ann\nBob", "1", "holds a control character"),
    ("A" * 10_000, "1", "is longer than 100 characters"),
    ("Dirk", "nan", "a moyenne is a number from 0 to 1000, not nan"),
    ("Dirk", "inf", "not inf"),
    ("Dirk", "-1", "not -1.0"),
])
def test_a_member_whose_name_or_moyenne_is_none_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, moyenne: str, words: str) -> None:
    path = tmp_path / "club.db"
    assert league(path, "create", COMP, capsys=capsys)[0] == 0
    code, _, err = league(path, "add-player", COMP, name, f"--moyenne={moyenne}", capsys=capsys)
    assert code == 1 and words in one_line(err)
