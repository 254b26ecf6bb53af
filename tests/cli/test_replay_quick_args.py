"""``tablesense replay``'s common command lines are read without argparse
(``commands.replay.quick_args``, docs/performance.md): what it reads is what argparse reads,
and whatever it does not read (help, a mistake, an abbreviation) argparse still reads and
answers as before."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.cli import build_parser, main
from tablesense.commands.replay import quick_args

#: the words a replay's command line is made of, good and bad: files (one named like an
#: option's value, one empty, standard input), the options, their values, abbreviations,
#: help, ``--``, a negative number, options it does not have
WORDS = ("log.jsonl", "other.jsonl", "en", "nl", "-", "", "a b", "--json", "--lang", "--lang=da",
         "--lang=", "--lang=xx", "xx", "--js", "--la", "-h", "--help", "--", "-5", "--jsonl",
         "--json=1", "-x", "replay", "=", "--version")
#: the words of the command lines it reads, more often: most lists drawn are then its to read
GOOD = ("log.jsonl", "--json", "--lang", "nl", "--lang=da")


def _argparse_vars(words: list[str]) -> dict[str, object] | None:
    """What argparse makes of ``tablesense replay WORDS``: its namespace's attributes, or
    None where it refuses them (or prints help)."""
    parser = build_parser(load=("replay",))
    try:
        args, extras = parser.parse_known_args(["replay", *words])
    except SystemExit:
        return None
    return None if extras else vars(args)


@settings(max_examples=400)
@given(st.lists(st.sampled_from(GOOD) | st.sampled_from(WORDS), max_size=6))
def test_quick_args_reads_what_argparse_reads(words: list[str]) -> None:
    quick = quick_args(words)
    if quick is None:
        return  # argparse's to read: held below by the command lines it must take
    quick.command, quick._module = "replay", "replay"
    assert vars(quick) == _argparse_vars(words)


@pytest.mark.parametrize("words", [
    ["log.jsonl"], ["log.jsonl", "--json"], ["--json", "log.jsonl"], ["-", "--json"],
    ["log.jsonl", "--lang", "nl"], ["log.jsonl", "--lang=da", "--json"],
    ["--lang", "nl", "--json", "log.jsonl"],
], ids=" ".join)
def test_the_common_command_lines_are_read_without_argparse(words: list[str]) -> None:
    quick = quick_args(words)
    assert quick is not None
    quick.command, quick._module = "replay", "replay"
    assert vars(quick) == _argparse_vars(words)


def test_an_abbreviation_is_left_to_argparse_which_takes_it() -> None:
    assert quick_args(["log.jsonl", "--js"]) is None
    assert _argparse_vars(["log.jsonl", "--js"]) == {"command": "replay", "_module": "replay",
                                                    "file": "log.jsonl", "json": True, "lang": "en"}


@pytest.mark.parametrize(("words", "said"), [
    (["log.jsonl", "--lang", "xx"], "'xx' is not one of en, da, nl"),
    ([], "the following arguments are required: FILE"),
    (["a.jsonl", "b.jsonl"], "unexpected argument 'b.jsonl'"),
    (["log.jsonl", "--jsno"], "unknown option --jsno; did you mean --json?"),
], ids=repr)
def test_what_quick_args_leaves_argparse_still_says(words: list[str], said: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["replay", *words])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1, err
