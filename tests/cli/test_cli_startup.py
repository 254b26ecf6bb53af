"""``tablesense --version`` and ``--help`` answer without loading the program: the parser is
built from the static table of commands, and a command's module is imported only when
that command is asked for. Checked by what a fresh process has imported (``sys.modules``),
not by timing (bench/cli_startup.py measures the time beside its anchor)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from paths import ROOT

from tablesense.texts import messages

#: what a start-up must not pay for: the event loop, the web server, the decoders, the
#: simulator, the camera, and the program's own heavy parts
HEAVY = ("asyncio", "aiohttp", "msgspec", "numpy", "cv2", "pymunk", "serial", "sqlite3", "qrcode",
         "paho", "tablesense.league", "tablesense.web", "tablesense.rules", "tablesense.link",
         "tablesense.events", "tablesense.replay", "tablesense.sim", "tablesense.vision", "tablesense.sheet",
         "shutil", "typing", "dataclasses")  # shutil: bz2, lzma, zlib; typing, dataclasses: inspect

#: the console script ``make setup`` installs runs ``tablesense.cli:main``; this does the same
#: and then writes what the process has imported to stderr
PROBE = """
import json, sys
from tablesense.cli import main
try:
    main(json.loads(sys.argv[1]))
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def imported(argv: list[str]) -> tuple[set[str], str]:
    """The modules a fresh ``tablesense ARGV`` process has imported, and what it printed."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "host") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(argv)], env=env, capture_output=True,
                          text=True, timeout=60)
    return set(json.loads(done.stderr.strip().splitlines()[-1])), done.stdout


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["-h"], []], ids=repr)
def test_version_and_help_import_no_heavy_module_and_no_command(argv: list[str]) -> None:
    modules, out = imported(argv)
    assert "tablesense" in out  # it did answer: the version, or the list of commands
    assert _heavy(modules) == []
    assert not [m for m in modules if m.startswith("tablesense.commands.")]


def test_the_top_level_help_still_lists_every_command() -> None:
    from tablesense.cli import COMMANDS

    _modules, out = imported(["--help"])
    for name, (_module, help_text) in COMMANDS.items():
        assert name in out and help_text.split()[0] in out, name


@pytest.mark.parametrize("command", ["replay", "league", "help", "completion"])
def test_a_commands_help_imports_that_command_alone(command: str) -> None:
    modules, out = imported([command, "--help"])
    assert f"tablesense {command}" in out and "example" in out
    loaded = {m for m in modules if m.startswith("tablesense.commands.")}
    assert loaded == {f"tablesense.commands.{command}"}, loaded


#: what a replay has no use for, each a start-up's few milliseconds or more: the pub's parts,
#: the message parser (a ruling of text and parameters is said without it), Babel (the
#: package's languages' plural rules are written out: its import and locale data alone cost
#: ~0.1 s), standard input's spool, stdlib weight the replay does without (pathlib with
#: urllib.parse and ipaddress, pickle), argparse with gettext and locale (its common command
#: lines are read by ``commands.replay.quick_args``), dataclasses (each compiles its methods
#: at import: the records on its path are msgspec Structs or written out) and signal's enums
#: (the stop handler is set through ``_signal``), typing_extensions with inspect, ast, dis and
#: tokenize (msgspec is imported without it: ``command_line.lean_msgspec``), and the void
#: records' reader (``tablesense.corrections``: imported where a line names ``"void"``)
REPLAY_UNUSED = ("asyncio", "aiohttp", "sqlite3", "babel", "fluent", "tempfile", "shutil", "pathlib",
                 "pickle", "tablesense.web", "tablesense.league", "tablesense.sim", "tablesense.store",
                 "tablesense.sheet", "argparse", "gettext", "locale", "dataclasses", "signal",
                 "typing_extensions", "inspect", "ast", "dis", "tokenize", "tablesense.corrections")
GAMES = ("golf", "kegle", "carom")


def _unused(modules: set[str], game: str) -> list[str]:
    """What of ``REPLAY_UNUSED`` and the other games' engines ``modules`` holds."""
    unused = (*REPLAY_UNUSED, *(f"tablesense.rules.{g}.engine" for g in GAMES if g != game))
    return sorted(m for m in modules if any(m == u or m.startswith(u + ".") for u in unused))


def test_a_replay_of_a_golf_log_imports_nothing_it_does_not_use(tmp_path: Path) -> None:
    log = tmp_path / "golf.jsonl"
    lines = (ROOT / "examples" / "golf-match.jsonl").read_text(encoding="utf-8").splitlines(True)
    log.write_text("".join(lines[:3]), encoding="utf-8")
    modules, out = imported(["replay", str(log), "--json"])
    assert json.loads(out)["game"] == "golf"  # it did replay
    assert "tablesense.rules.golf.engine" in modules
    assert _unused(modules, "golf") == []


def test_a_replay_of_a_log_with_a_void_record_reads_it_after_the_start(tmp_path: Path) -> None:
    """``tablesense.corrections`` is imported where a line names ``"void"``: the voided lines are
    left out as ever (the state of the log without them)."""
    lines = (ROOT / "examples" / "golf-match.jsonl").read_text(encoding="utf-8").splitlines(True)
    kept = tmp_path / "kept.jsonl"
    kept.write_text("".join(lines[:3] + lines[5:8]), encoding="utf-8")
    voided = tmp_path / "voided.jsonl"  # events 4 and 5 of the match voided, the record itself too
    void = '{"t": 27.06, "type": "call", "call": "void", "from": 4, "to": 5}\n'
    voided.write_text("".join([*lines[:5], void, *lines[5:8]]), encoding="utf-8")
    modules, out = imported(["replay", str(voided), "--json"])
    assert "tablesense.corrections" in modules
    assert json.loads(out) == json.loads(imported(["replay", str(kept), "--json"])[1])


#: a whole match of each game: its calls and rulings said (the names, the texts), as a long replay
MATCHES = {"golf": ROOT / "examples" / "golf-match.jsonl",
           "kegle": ROOT / "tests" / "matches" / "kegle" / "draw__after_last_series.jsonl",
           "carom": ROOT / "tests" / "matches" / "carom" / "bandstoten__kampioen_white_wins.jsonl"}


@pytest.mark.parametrize("game", GAMES)
def test_a_replay_of_a_whole_match_imports_nothing_it_does_not_use(game: str) -> None:
    modules, out = imported(["replay", str(MATCHES[game]), "--json", "--lang", "nl"])
    state = json.loads(out)
    assert state["game"] == game and state["rulings"]  # it did replay, and said its rulings
    assert f"tablesense.rules.{game}.engine" in modules
    assert _unused(modules, game) == []


AFTER_A_REPLAY = """
import json, sys
from tablesense.cli import main
main(json.loads(sys.argv[1]))
import typing_extensions  # hidden from msgspec's import only: importable after it
from tablesense.events import parse_line
print(json.dumps([typing_extensions.__name__, repr(parse_line(sys.argv[2]))]))
"""


def test_after_a_replays_start_typing_extensions_imports_and_msgspec_reads_the_events(tmp_path: Path) -> None:
    lines = (ROOT / "examples" / "golf-match.jsonl").read_text(encoding="utf-8").splitlines()
    log = tmp_path / "golf.jsonl"
    log.write_text("\n".join(lines[:3]) + "\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "host") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", AFTER_A_REPLAY, json.dumps(["replay", str(log), "--json"]),
                           lines[3]], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    name, event = json.loads(done.stdout.strip().splitlines()[-1])
    assert name == "typing_extensions"
    from tablesense.events import parse_line  # this process: msgspec imported with typing_extensions

    assert event == repr(parse_line(lines[3]))


GC_PROBE = """
import gc, json, sys
from tablesense.cli import main
main(json.loads(sys.argv[1]))
print(json.dumps([gc.isenabled(), gc.get_freeze_count() > 0]), file=sys.stderr)
"""


def test_a_replays_start_up_freezes_its_imports_and_leaves_the_collector_on(tmp_path: Path) -> None:
    # the start-up's imports are made with the collector paused and frozen out of its walks
    # (``lean_start``); the collector is on again after it, as it was
    log = tmp_path / "m.jsonl"
    log.write_text('{"t": 0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}\n',
                   encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "host") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", GC_PROBE, json.dumps(["replay", str(log), "--json"])],
                          env=env, capture_output=True, text=True, timeout=60)
    assert json.loads(done.stderr.strip().splitlines()[-1]) == [True, True]


def test_a_replay_in_a_process_that_has_msgspec_freezes_nothing(tmp_path: Path) -> None:
    import gc

    import msgspec  # (a test run: imported already)

    from tablesense.command_line.lean_msgspec import lean_start

    before = gc.get_freeze_count()
    assert lean_start(lambda: msgspec) is msgspec
    assert gc.get_freeze_count() == before


#: a replay in a fresh process after msgspec and json (which compile their own patterns): the
#: patterns compiled by the program, its enums and its named tuples' classes
OWN_WORK = """
import enum, json, re, sys
from tablesense.command_line.lean_msgspec import import_msgspec
import_msgspec()
import json
patterns = set(re._cache)
from tablesense.cli import main
main(json.loads(sys.argv[1]))
program = [m for name, m in sys.modules.items() if name.startswith("tablesense")]
classes = {c for m in program for c in vars(m).values() if isinstance(c, type) and c.__module__ == m.__name__}
print(json.dumps([sorted(key[1] for key in set(re._cache) - patterns),
                  sorted(c.__qualname__ for c in classes if issubclass(c, enum.Enum)),
                  sorted(c.__qualname__ for c in classes if issubclass(c, tuple) and hasattr(c, "_fields"))]))
"""


#: the patterns a short replay may compile: those of a message with a select on a parameter, when
#: one is said (``texts.messages``: compiled at their first use); and, not this test's files, golf's
#: fault names' key at import (``rules/golf/names.py``'s ``foul_key``, ``re.sub``)
SAID = {messages._SELECT, messages._VARIANT}
KNOWN_PATTERNS = {"golf": {"[^a-z0-9]", *SAID}, "kegle": SAID, "carom": SAID}


@pytest.mark.parametrize("game", GAMES)
def test_a_short_replay_compiles_no_pattern_and_makes_no_enum_of_its_own(game: str, tmp_path: Path) -> None:
    """Each a start-up's ~1M instructions or more (docs/performance.md): a pattern compiled at
    import (the message files cut by a regular expression, a fault name's key), an ``enum`` class
    (the cut's roles), a named tuple (the panel's button). The three lines say a ruling or two (the
    golf match's ``NamedTuple``s are golf's own rows and geometry, not on this list)."""
    log = tmp_path / f"{game}.jsonl"
    log.write_text("".join(MATCHES[game].read_text(encoding="utf-8").splitlines(True)[:3]), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "host") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", OWN_WORK, json.dumps(["replay", str(log), "--json"])],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    patterns, enums, named_tuples = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(patterns) <= KNOWN_PATTERNS[game]
    assert enums == []
    assert "Button" not in named_tuples
