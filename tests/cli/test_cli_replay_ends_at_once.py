"""``tablesense replay`` run as the program (the console script, ``python -m tablesense``) ends its
process as soon as its output is flushed, without the interpreter's teardown (``cli._end_now``):
what it writes and its exit status are those of the same replay in a process, ``| head`` still
ends quietly with 0, and any other command (its child processes, servers and ``atexit`` clean-up)
ends as ever. Called with its arguments (a test, another program) ``main`` only returns."""

from __future__ import annotations

import io
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from helpers.child_python import host_env, short_golf_log
from paths import ROOT

from tablesense.cli import main

#: the console script's call (``tablesense.cli:main``, no arguments) with an ``atexit`` hook that
#: says whether the interpreter's teardown ran
AS_THE_PROGRAM = """
import atexit, sys
atexit.register(lambda: print("torn down", file=sys.stderr))
from tablesense.cli import main
sys.argv = ["tablesense", *sys.argv[1:]]
sys.exit(main())
"""


def as_the_program(*argv: str, stdout: int | None = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", AS_THE_PROGRAM, *argv], env=host_env(), stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=60)


def in_process(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("json", [True, False], ids=["json", "account"])
def test_a_replay_as_the_program_writes_what_it_writes_in_a_process_and_skips_the_teardown(
        tmp_path: Path, json: bool) -> None:
    log = tmp_path / "bad.jsonl"  # a whole match, then a line that is no JSON: exit 1, a line on stderr
    log.write_text((ROOT / "examples" / "golf-match.jsonl").read_text(encoding="utf-8") + "{nope\n",
                   encoding="utf-8")
    argv = ["replay", str(log), *(["--json"] if json else [])]
    done = as_the_program(*argv)
    assert (done.returncode, done.stdout, done.stderr) == in_process(*argv)
    assert done.returncode == 1 and done.stdout and done.stderr
    good = short_golf_log(tmp_path)
    done = as_the_program("replay", str(good), "--json")
    assert (done.returncode, done.stdout, done.stderr) == in_process("replay", str(good), "--json")
    assert done.returncode == 0 and "torn down" not in done.stderr


def test_a_replay_whose_reader_goes_away_ends_quietly(tmp_path: Path) -> None:
    log = tmp_path / "long.jsonl"  # forty matches: an account of ~220 kB, more than a pipe holds
    match = (ROOT / "examples" / "golf-match.jsonl").read_text(encoding="utf-8")
    log.write_text(match * 40, encoding="utf-8")
    reader = subprocess.Popen([sys.executable, "-c", AS_THE_PROGRAM, "replay", str(log)], env=host_env(),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert reader.stdout is not None and reader.stderr is not None
    reader.stdout.read(10)
    reader.stdout.close()  # `| head -c 10`
    err = reader.stderr.read().decode()
    assert reader.wait(timeout=60) == 0
    assert err == ""


@pytest.mark.parametrize("argv", [["--version"], ["replay", "--help"], ["help", "cli"]])
def test_other_commands_and_a_replays_help_end_as_ever(argv: list[str]) -> None:
    done = as_the_program(*argv)
    assert done.returncode == 0 and done.stdout
    assert done.stderr.endswith("torn down\n")
