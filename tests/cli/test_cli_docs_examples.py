"""Every example in the README's table of what you can do and in the docs' shell blocks runs
as written, against the simulator: a non-zero exit or a traceback fails.

What is taken: each ``tablesense ...`` command (``.venv/bin/tablesense`` is the same
program) of the README table's "run" column -- the commands of one row run in order in
one directory -- and of each ```sh block of docs/*.md, in order, a block in one directory
(``demo --print > match.jsonl`` then ``replay match.jsonl``). ``[--json]`` in the README
runs once without and once with it.

What is left out, each with its reason (``SKIPS``; ``test_the_examples_left_out_are_only_
those_that_need_a_board_or_the_system`` keeps the list honest): commands that need a board
(a ``/dev/`` port, ``$PORT`` or ``...`` placeholders, ``doctor``, ``flash`` without
``--dry-run``, ``monitor``), that change the system (``sudo``, ``systemctl``, ``apt-get``,
``install-service`` without ``--dry-run``), and ``make`` (its targets build their own
.venv; ``make demo`` is ``tablesense demo``, ``make test`` is this suite).

A plain ``tablesense ...`` of the commands that end on their own (``league``, ``replay``,
``sheet``, ``help``, ``completion``, ``--help``; ``demo`` with ``--print`` or ``--exit``
and no ``--open``), with no shell in it but a final ``> FILE``,
runs in the test's process (``tablesense.cli.main``, the console script's own entry, its
output caught, ``> FILE`` written to FILE), in the example's directory with its HOME: a
Python start-up each, some seventy of them, was most of this file's time. The others (a
pipe, ``<(...)``, ``~``, ``mkdir``; ``run``, ``sim``, ``bench`` and a ``demo`` that serves
or opens a browser) run in bash as written; that ``tablesense`` is
found on the PATH as the README's set-up line puts it there is checked as a process too
(``test_the_readmes_set_up_line_puts_tablesense_on_the_path``).

A command that serves until stopped (``run``; ``demo`` without ``--print`` or ``--exit``)
runs until it prints where its scoreboard is, then gets SIGTERM (systemd's stop) and must
exit 0; its web server is moved to a free port (``--http 127.0.0.1:N`` added, or put in
place of the one given): the machine's 8080 may be taken by another test or a real pub.
Each directory is a fresh temporary one holding links to examples/ and tests/, with HOME
pointing into it (``~/.zfunc`` lands there).

``tablesense`` is found as a reader of the README finds it: on the PATH the README's
set-up line gives (``. .venv/bin/activate``, run in the checkout), starting from a PATH
with no ``tablesense`` on it; and each command of the README's table answers its
``--help``, those that need a board too (in the test's process). A checkout without ``.venv`` (the suite
run from another environment) uses a ``tablesense`` that runs this checkout's code.
"""

from __future__ import annotations

import functools
import io
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from paths import ROOT

SERVE_TIMEOUT = 120  # seconds for a served command to say where its scoreboard is (the firmware boots first)
RUN_TIMEOUT = 180


@dataclass(frozen=True)
class Example:
    where: str  # README.md:44 or docs/simulator.md:21
    commands: tuple[str, ...]


def _join_continuations(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if out and out[-1].endswith("\\"):
            out[-1] = out[-1][:-1].rstrip() + " " + line.strip()
        else:
            out.append(line.strip())
    return [re.sub(r"\s+#\s.*$", "", ln) for ln in out if ln and not ln.startswith("#")]


def doc_blocks() -> list[Example]:
    found = []
    for page in sorted((ROOT / "docs").glob("*.md")):
        lines = page.read_text(encoding="utf-8").splitlines()
        block: list[str] | None = None
        start = 0
        for n, line in enumerate(lines, start=1):
            fence = line.strip()
            if block is None and fence in ("```sh", "```bash", "```shell"):
                block, start = [], n
            elif block is not None and fence.startswith("```"):
                found.append(Example(f"docs/{page.name}:{start}", tuple(_join_continuations(block))))
                block = None
            elif block is not None:
                block.append(line)
    return found


def readme_rows() -> list[Example]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## What you can do", 1)[1].split("\n## ", 1)[0]
    found = []
    first = text[: text.index("## What you can do")].count("\n") + 1
    for n, line in enumerate(section.splitlines(), start=first):
        cells = line.split(" | ")
        if len(cells) < 3 or not line.startswith("|"):
            continue
        commands = re.findall(r"`([^`]+)`", cells[1])
        for variant in _variants(commands):
            if variant:
                found.append(Example(f"README.md:{n}", tuple(variant)))
    return found


def _variants(commands: list[str]) -> list[list[str]]:
    """``tablesense replay FILE [--json]``: once without the optional part, once with it."""
    if not any("[" in c for c in commands):
        return [commands]
    without = [re.sub(r"\s*\[[^\]]*\]", "", c) for c in commands]
    with_ = [re.sub(r"\[([^\]]*)\]", r"\1", c) for c in commands]
    return [without, with_]


_BOARD = re.compile(r"/dev/|\$PORT|\.\.\.|\bmonitor\b|\bdoctor\b|--list-ports")


def skip_reason(command: str) -> str | None:
    """Why ``command`` is not run here, or None."""
    words = command.split()
    program = words[0] if words else ""
    if program == "make":
        return "a make target (it builds its own .venv): make demo is tablesense demo, make test this suite"
    if re.search(r"\bsudo\b|\bsystemctl\b|apt-get|usermod|git (clone|pull)|\bcd ~", command):
        return "changes the system"
    if program == "mkdir":
        return None  # a directory the next command writes into
    if "tablesense" not in command or re.search(r"<\w", command):
        return "not a tablesense command"
    if re.search(r"--camera\s+(/dev/video|rtsp://)", command) and "--serial" not in command:
        return "needs a camera"
    if _BOARD.search(command):
        return "needs a board on a serial port"
    if " flash" in command and "--dry-run" not in command:
        return "needs a board on a serial port"
    if "install-service" in command and "--dry-run" not in command:
        return "changes the system"
    local = r"mqtts?://(\S*@)?(127\.0\.0\.1|localhost)\b"
    if re.search(r"mqtts?://", command) and not re.search(local, command):
        return "needs the league's broker on the network"
    return None


def runnable(example: Example) -> list[str]:
    return [c.replace(".venv/bin/tablesense", "tablesense") for c in example.commands
            if skip_reason(c) is None]


def serves(command: str) -> bool:
    words = command.split()
    if "tablesense" not in words:
        return False
    sub = words[words.index("tablesense") + 1] if len(words) > words.index("tablesense") + 1 else ""
    return sub == "run" or (sub == "demo" and "--print" not in words and "--exit" not in words)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _on_a_free_port(command: str) -> str:
    port = f"127.0.0.1:{_free_port()}"
    if "--http" in command:
        return re.sub(r"--http\s+\S+", f"--http {port}", command)
    return f"{command} --http {port}"


VENV_TABLESENSE = ROOT / ".venv" / "bin" / "tablesense"


def setup_line() -> str:
    """The README's line that puts ``tablesense`` on the PATH (in its first shell block)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("```sh", 1)[1].split("```", 1)[0]
    lines = [re.sub(r"\s+#\s.*$", "", ln).strip() for ln in block.splitlines() if ".venv/bin" in ln]
    assert len(lines) == 1, f"the README's set-up block names no single line for .venv/bin: {lines}"
    return lines[0]


def _path_without_tablesense() -> str:
    dirs = os.environ.get("PATH", "").split(os.pathsep)
    return os.pathsep.join(d for d in dirs if d and not os.access(os.path.join(d, "tablesense"), os.X_OK))


def path_after_setup() -> str:
    """The PATH after the README's set-up line, run in the checkout in a shell whose PATH
    had no ``tablesense``."""
    env = {**os.environ, "PATH": _path_without_tablesense()}
    env.pop("VIRTUAL_ENV", None)
    done = subprocess.run(["bash", "-c", f'{setup_line()} && printf %s "$PATH"'], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _env(home: Path) -> dict[str, str]:
    """What a reader's shell has after the README's set-up (or, without .venv, a ``tablesense``
    that runs this checkout's code), HOME in ``home``."""
    path = os.environ.get("PYTHONPATH", "")
    env = {**os.environ, "HOME": str(home),
           "PYTHONPATH": f"{ROOT / 'host'}{os.pathsep}{path}" if path else str(ROOT / "host")}
    if VENV_TABLESENSE.exists():
        env["PATH"] = path_after_setup()
    else:
        bin_dir = home / ".bin"
        bin_dir.mkdir(exist_ok=True)
        exe = bin_dir / "tablesense"
        exe.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m tablesense "$@"\n')
        exe.chmod(0o755)
        env["PATH"] = f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"
    env.pop("DISPLAY", None)  # --open: chromium headless, no window on the developer's screen
    return env


@pytest.fixture
def workdir(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A fresh directory with examples/ and tests/ in reach, and ``tablesense`` on the PATH
    as the README's set-up line puts it there."""
    for name in ("examples", "tests"):
        (tmp_path / name).symlink_to(ROOT / name)
    return tmp_path, _env(tmp_path)


def _run(command: str, cwd: Path, env: dict[str, str]) -> None:
    done = subprocess.run(["bash", "-c", f"set -o pipefail; {command}"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=RUN_TIMEOUT)
    assert done.returncode == 0, f"{command}\nexit {done.returncode}\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr + done.stdout, f"{command}\n{done.stderr[-3000:]}"


#: the commands that end on their own and start nothing: run in the test's process
IN_PROCESS = {"league", "replay", "sheet", "help", "completion", "--help", "--version"}


def in_process(command: str) -> tuple[list[str], str | None] | None:
    """``tablesense ARGS [> FILE]`` of the commands in ``IN_PROCESS``, with nothing else of the
    shell: (ARGS, FILE or None); None for what runs in bash."""
    if re.search(r"[|<;&$`~(){}*?\\]", command):
        return None
    words = shlex.split(command)
    out = None
    if len(words) >= 3 and words[-2] == ">":
        out, words = words[-1], words[:-2]
    if command.count(">") != (out is not None) or len(words) < 2 or words[0] != "tablesense":
        return None
    ends = words[1] == "demo" and ("--print" in words or "--exit" in words) and "--open" not in words
    return (words[1:], out) if words[1] in IN_PROCESS or ends else None


def _run_in_process(args: list[str], out: str | None, cwd: Path, env: dict[str, str],
                    monkeypatch: pytest.MonkeyPatch) -> None:
    """``tablesense ARGS [> out]`` through the console script's entry, in ``cwd`` with the
    example's HOME; exit 0 and no traceback, as from the process."""
    from tablesense.cli import main

    command = shlex.join(["tablesense", *args]) + (f" > {out}" if out else "")
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    stderr = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with monkeypatch.context() as m:
        m.chdir(cwd)
        m.setenv("HOME", env["HOME"])
        m.delenv("DISPLAY", raising=False)
        m.setattr(sys, "stdout", stdout)
        m.setattr(sys, "stderr", stderr)
        try:
            code = main(args)
        except SystemExit as exc:  # argparse's --help and its errors
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        stdout.flush()
        stderr.flush()
    printed = stdout.buffer.getvalue()  # type: ignore[attr-defined]
    said = stderr.buffer.getvalue().decode("utf-8", "replace")  # type: ignore[attr-defined]
    assert code == 0, f"{command}\nexit {code}\n{said[-3000:]}"
    assert "Traceback" not in said, f"{command}\n{said[-3000:]}"
    if out is not None:
        (cwd / out).write_bytes(printed)


def _serve(command: str, cwd: Path, env: dict[str, str]) -> None:
    command = _on_a_free_port(command)
    proc = subprocess.Popen(["bash", "-c", f"exec {command}"], cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    assert proc.stdout is not None
    out = ""
    try:
        deadline = time.monotonic() + SERVE_TIMEOUT
        while "scoreboard" not in out and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            out += line
        assert "scoreboard" in out, f"{command}\n{out[-3000:]}"
        proc.send_signal(signal.SIGTERM)
        rest, _ = proc.communicate(timeout=30)
        out += rest
        assert proc.returncode == 0, f"{command}\nexit {proc.returncode}\n{out[-3000:]}"
        assert "Traceback" not in out, f"{command}\n{out[-3000:]}"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
        else:
            try:
                os.killpg(proc.pid, signal.SIGKILL)  # a browser the demo opened, should it linger
            except ProcessLookupError:
                pass


EXAMPLES = [e for e in readme_rows() + doc_blocks() if runnable(e)]


def _slow(example: Example) -> bool:
    return any(re.search(r"tablesense (sim|demo|run|bench)\b", c) and "--direct --speed 0" not in c
               for c in example.commands)


@pytest.mark.parametrize("example", [pytest.param(e, id=e.where, marks=[pytest.mark.slow] if _slow(e) else [])
                                     for e in EXAMPLES])
def test_the_example_runs_as_written(example: Example, workdir: tuple[Path, dict[str, str]],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    cwd, env = workdir
    for command in runnable(example):
        plain = in_process(command)
        if plain is not None:
            _run_in_process(*plain, cwd, env, monkeypatch)
        elif serves(command):
            _serve(command, cwd, env)
        else:
            _run(command, cwd, env)


def test_the_examples_left_out_are_only_those_that_need_a_board_or_the_system() -> None:
    every = readme_rows() + doc_blocks()
    left_out = {(c, skip_reason(c)) for e in every for c in e.commands if skip_reason(c) is not None}
    reasons = {r for _, r in left_out}
    assert reasons <= {"needs a board on a serial port", "changes the system", "not a tablesense command",
                       "needs the league's broker on the network", "needs a camera", skip_reason("make demo")}
    taken = [c for e in EXAMPLES for c in runnable(e)]
    for must in ("tablesense sim examples/golf-edges.jsonl", "tablesense replay examples/golf-match.jsonl",
                 "tablesense demo --game kegle --seed 3 --open", "tablesense help cli"):
        assert must in taken
    assert sum("league" in c for c in taken) >= 10 and len(taken) >= 30, taken


def test_the_readmes_set_up_line_puts_tablesense_on_the_path() -> None:
    line = setup_line()
    before = {**os.environ, "PATH": _path_without_tablesense()}
    assert subprocess.run(["bash", "-c", "command -v tablesense"], env=before).returncode != 0  # not yet
    if not VENV_TABLESENSE.exists():
        pytest.skip(f"no .venv in this checkout ({line!r} needs `make setup` first)")
    env = {**os.environ, "PATH": path_after_setup()}
    found = subprocess.run(["bash", "-c", "command -v tablesense && tablesense --version"], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=60)
    assert found.returncode == 0, found.stderr
    where, version = found.stdout.splitlines()
    assert Path(where).resolve() == VENV_TABLESENSE.resolve() and version.startswith("tablesense ")


@functools.cache
def _command_children() -> dict[tuple[str, ...], tuple[str, ...]]:
    """Each command's path -> the words of its subcommands (the parser built once for the
    file's collection, not once a command)."""
    from tablesense.cli import build_parser
    from tablesense.command_line.parsers import walk

    return {cmd.path: cmd.children for cmd in walk(build_parser())}


def _command_path(command: str) -> tuple[str, ...]:
    """``tablesense league create "X" --db f`` -> ("league", "create"): the words naming a
    command and its action."""
    children = _command_children()
    words = shlex.split(command.split("|")[0])
    path: tuple[str, ...] = ()
    for word in words[words.index("tablesense") + 1:]:
        if word not in children.get(path, ()):
            break
        path = (*path, word)
    return path


README_COMMANDS = sorted({_command_path(c) for e in readme_rows() for c in e.commands
                          if re.match(r"(\.venv/bin/)?tablesense ", c)})


@pytest.mark.parametrize("path", README_COMMANDS, ids=lambda p: " ".join(p) or "tablesense")
def test_each_command_of_the_readmes_table_answers_its_help(
        path: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In the test's process, as the plain examples run (``_run_in_process``); the set-up
    line's ``tablesense`` on the PATH is the console script of this code
    (``test_the_readmes_set_up_line_puts_tablesense_on_the_path``)."""
    _run_in_process([*path, "--help"], "help.txt", tmp_path, {"HOME": str(tmp_path)}, monkeypatch)
    assert (tmp_path / "help.txt").read_text(encoding="utf-8").startswith("usage: tablesense")


def test_the_readmes_table_names_the_commands_a_pub_runs() -> None:
    assert {("demo",), ("run",), ("replay",), ("sheet",), ("league", "standings"), ("doctor",)} <= set(
        README_COMMANDS)
