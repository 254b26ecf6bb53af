"""Mistakes in one form for every command: ``tablesense COMMAND: what is wrong``, one line,
"did you mean" for a word close to a known one, exit status 2 for what could not start
(docs/cli.md, "Exit status"); and the messages of ``replay`` and ``league`` that used to
break the form (an edges file, a missing log, a database that is not there, the winner
by id)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from paths import ROOT

from tablesense.cli import COMMANDS, build_parser, main
from tablesense.command_line.parsers import Command, walk
from tablesense.replay import Replay
from tablesense.texts import LANGS, phrase


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as done:
        code = int(done.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _one_line(err: str, prog: str) -> str:
    assert err.count("\n") == 1 and err.startswith(f"{prog}: "), err
    assert "Traceback" not in err and "error:" not in err and "usage:" not in err, err
    return err.strip()


def _swap(option: str) -> str:
    """``--profile`` -> ``--porfile``: a typing slip that is no abbreviation of anything."""
    i = 3
    return option[:i] + option[i + 1] + option[i] + option[i + 2:]


def _valid(cmd: Command) -> list[str]:
    """A command line the parser of ``cmd`` takes: its path, each required value ("1", or
    the first choice)."""
    argv = list(cmd.path)
    for a in cmd.parser._actions:
        if isinstance(a, (argparse._HelpAction, argparse._SubParsersAction)) or a.help == argparse.SUPPRESS:
            continue
        if (a.option_strings and not a.required) or (not a.option_strings and a.nargs in ("?", "*")):
            continue
        value = str(next(iter(a.choices))) if a.choices else "1"
        argv += a.option_strings[:1] + [value] * (a.nargs if isinstance(a.nargs, int) else 1)
    return argv


def _slips() -> list[tuple[Command, str]]:
    out = []
    for cmd in walk(build_parser()):
        if not cmd.path or cmd.children:
            continue
        options = [o for a in cmd.arguments if not a.hidden for o in a.options
                   if o.startswith("--") and len(o) >= 6]
        every = [o for a in cmd.parser._actions for o in a.option_strings]
        usable = [o for o in options if not any(e.startswith(_swap(o)) for e in every)]
        if usable:
            out.append((cmd, usable[0]))
    return out


SLIPS = _slips()


def test_every_command_is_checked_for_a_mistyped_option() -> None:
    assert {cmd.path[0] for cmd, _ in SLIPS} >= set(COMMANDS) - {"completion", "help"}


@pytest.mark.parametrize(("cmd", "option"), SLIPS, ids=[" ".join(c.path) for c, _ in SLIPS])
def test_a_mistyped_option_is_named_in_the_commands_name_with_the_one_meant(
        cmd: Command, option: str, capsys: pytest.CaptureFixture[str]) -> None:
    prog = " ".join(("tablesense", *cmd.path))
    code, _out, err = _run([*_valid(cmd), _swap(option)], capsys)
    assert code == 2
    line = _one_line(err, prog)
    assert f"unknown option {_swap(option)}; did you mean {option}?" in line, line
    assert line.endswith(f"(see {prog} --help)")


@pytest.mark.parametrize(("argv", "prog", "said"), [
    (["replya", "x"], "tablesense", "'replya' is not a command; did you mean replay?"),
    (["leage", "list"], "tablesense", "did you mean league?"),
    (["nonsense"], "tablesense", "'nonsense' is not a command; commands: replay, sheet, monitor"),
    (["league", "standigns", "X"], "tablesense league",
     "'standigns' is not an action; did you mean standings?"),
    (["profile", "chek"], "tablesense profile", "did you mean check?"),
    (["replay", "x", "--lang", "nll"], "tablesense replay",
     f"--lang: 'nll' is not one of {', '.join(LANGS)}; did you mean nl?"),
    (["demo", "--game", "kegel"], "tablesense demo", "did you mean kegle?"),
    (["replay", "a", "b"], "tablesense replay", "unexpected argument 'b'"),
])
def test_a_mistyped_command_action_or_choice_says_what_was_meant(
        argv: list[str], prog: str, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = _run(argv, capsys)
    assert code == 2
    assert said in _one_line(err, prog)


def test_an_error_of_sim_is_in_the_same_form(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _out, err = _run(["sim", str(tmp_path / "none.jsonl"), "--profile", "golf"], capsys)
    assert code == 2 and "cannot read" in _one_line(err, "tablesense sim")


def test_league_import_of_a_missing_log_cannot_start(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "club.db")
    assert _run(["league", "create", "Najaar", "--db", db], capsys)[0] == 0
    missing = str(tmp_path / "missing.jsonl")
    code, _out, err = _run(["league", "import", "Najaar", missing, "--db", db], capsys)
    assert code == 2 and "cannot read" in _one_line(err, "tablesense league")


@pytest.mark.parametrize("argv", [["standings", "Najaar"], ["moyennes", "Najaar"], ["list"],
                                  ["add-player", "Najaar", "Ann", "--moyenne", "1"],
                                  ["import", "Najaar", "examples/club/1-ann-bob.jsonl"]])
def test_a_league_database_that_is_not_there_is_said_and_not_made(
        argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "nosuch.db"
    code, _out, err = _run(["league", *argv, "--db", str(db)], capsys)
    assert code == 2 and f"{db} does not exist" in _one_line(err, "tablesense league")
    assert not db.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("argv", "said"), [
    (["create", ""], "a competition's name is 1 to 200 printable characters"),
    (["create", "Najaar", "--scheme", "nofile.toml"], "cannot read nofile.toml"),
])
def test_a_league_create_refused_makes_no_database(
        argv: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Only a competition made makes the file; a refused create left an empty one behind."""
    db = tmp_path / "club.db"
    code, _out, err = _run(["league", *argv, "--db", str(db)], capsys)
    assert code == 1 and said in _one_line(err, "tablesense league")
    assert list(tmp_path.iterdir()) == []


def _league_actions() -> list[str]:
    return list(next(c for c in walk(build_parser()) if c.path == ("league",)).children)


@pytest.mark.parametrize("argv", [["league"], ["league", "--db", "club.db"]])
def test_league_without_an_action_names_every_action_it_has(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = _run(argv, capsys)
    line = _one_line(err, "tablesense league")
    actions = _league_actions()
    assert code == 2 and {"standings", "year", "serve", "broker-config", "alias", "barrage"} <= set(actions)
    named = line.split("say what to do: ", 1)[1].split(" (see ", 1)[0].split(", ")
    assert sorted(named) == sorted(actions), line
    assert line.endswith("(see tablesense league --help)"), line


#: the edges files (the other scenarios are shots for the simulator)
EDGES = [p for p in [ROOT / "examples" / "golf-edges.jsonl", *sorted((ROOT / "tests/scenarios").glob("*"))]
         if '"t_us"' in p.read_text(encoding="utf-8")]


@pytest.mark.parametrize("header", [True, False], ids=["with its header", "edges only"])
@pytest.mark.parametrize("path", EDGES, ids=[p.name for p in EDGES])
def test_replay_of_an_edges_file_says_once_to_use_sim(path: Path, header: bool, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    if not header:
        lines = [ln for ln in lines if ln.strip() and ("t_us" in ln or "clock_us" in ln)]
    copy = tmp_path / "edges.jsonl"
    copy.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = _run(["replay", str(copy)], capsys)
    assert code == 2 and out == ""
    line = _one_line(err, "tablesense replay")
    assert "is an edges file" in line and line.endswith(f"tablesense sim {copy}")


def _finished_matches() -> list[Path]:
    """One recorded match per game that has a winner, and the example."""
    out: dict[str, Path] = {}
    for path in sorted((ROOT / "tests" / "matches").glob("*/*.jsonl")):
        game = path.parent.name
        if game in out:
            continue
        rep = Replay().feed_lines(path.read_text(encoding="utf-8").splitlines())
        if not rep.errors and rep.state is not None and rep.state.winner in ("p1", "p2"):
            out[game] = path
    return [*out.values(), ROOT / "examples" / "golf-match.jsonl"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", _finished_matches(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_replay_ends_with_the_winner_by_name_in_each_language(path: Path, lang: str,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    rep = Replay().feed_lines(lines)
    assert rep.state is not None
    players = json.loads(lines[0])["players"]
    name = players[rep.state.winner]
    name = " & ".join(name) if isinstance(name, list) else name
    code, out, _err = _run(["replay", str(path), "--lang", lang], capsys)
    assert code == 0
    last = out.rstrip().splitlines()[-1]
    assert last == phrase("account:result", {"result": phrase("result:won", {"winner": name}, lang)}, lang)
    assert rep.state.winner not in last.split()  # "won by Ann", never "won by p1"
