"""Every command's ``--help``, walked from the real parser: each argument described, an
example per command, the exit codes on the top-level help, one-line argument errors."""

from __future__ import annotations

import pytest

from tablesense.cli import build_parser, main
from tablesense.command_line.parsers import undescribed, walk

PATHS = [cmd.path for cmd in walk(build_parser()) if cmd.path]


def test_every_argument_command_and_action_is_described_with_an_example() -> None:
    assert undescribed(build_parser()) == []


def test_the_walk_reaches_every_command_and_action() -> None:
    assert {p[0] for p in PATHS} >= {"demo", "run", "replay", "sim", "league", "monitor", "flash", "doctor",
                                     "profile", "install-service", "bench", "completion", "help"}
    assert ("league", "standings") in PATHS and ("profile", "wiring") in PATHS


@pytest.mark.parametrize("path", PATHS, ids=[" ".join(p) for p in PATHS])
def test_help_shows_every_visible_option_and_an_example(path: tuple[str, ...],
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main([*path, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    cmd = next(c for c in walk(build_parser()) if c.path == path)
    for arg in cmd.arguments:
        for spelling in arg.options:
            assert (spelling in out) != arg.hidden, f"{spelling} {'shown' if arg.hidden else 'missing'}"
    assert "example" in out and f"tablesense {' '.join(path)}" in out.split("\nexample")[-1]


def test_the_same_words_the_help_and_docs_name_are_options_of_a_command() -> None:
    """The top-level help and docs/cli.md's "The same words everywhere" name only options a
    command has (they named a --table ID that none had)."""
    import re

    from paths import ROOT

    from tablesense.cli import EPILOG

    have = {"--help"} | {s for cmd in walk(build_parser()) for arg in cmd.arguments for s in arg.options}
    words = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8").split("## The same words everywhere")[1]
    words = words.split("\n## ")[0].split("### Old spellings")[0]
    for where, text in (("tablesense --help", EPILOG), ("docs/cli.md", words)):
        named = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", text))
        assert named and named <= have, (where, sorted(named - have))


def test_top_level_help_is_for_users_and_documents_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "a table of sub-commands" not in out  # the developer docstring it used to open with
    assert "billiards" in out and "tablesense demo" in out
    assert "exit status: 0" in out and "1 the command ran" in out and "2 it could not start" in out


@pytest.mark.parametrize("argv", [["league", "standings"], ["run", "--tables", "x"],
                                  ["demo", "--game", "pool"], ["nonsense"],
                                  ["league", "create", "X", "--half", "zomer"]])
def test_an_argument_mistake_is_one_line_pointing_at_help(argv: list[str],
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--help)" in err and "usage:" not in err, err


def test_an_action_missing_is_a_friendly_line(capsys: pytest.CaptureFixture[str]) -> None:
    for cmd in ("league", "profile"):
        assert main([cmd]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"tablesense {cmd}: say what to do: ") and err.count("\n") == 1
