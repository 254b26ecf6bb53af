"""`tablesense replay`: bad input gets a clear error naming the line, and loses nothing."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from paths import ROOT

from tablesense.texts import LANGS


def _replay(cmd: list[str], path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*cmd, "replay", str(path), *extra], capture_output=True, text=True, timeout=60)


def test_missing_file_is_a_clear_error(tablesense_cmd: list[str], tmp_path: Path) -> None:
    proc = _replay(tablesense_cmd, tmp_path / "nope.jsonl", "--json")
    assert proc.returncode == 2
    assert "cannot read" in proc.stderr and "nope.jsonl" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_events_before_setup_and_garbage_are_named_by_line(tablesense_cmd: list[str], tmp_path: Path) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text('{"t": 1, "type": "rest"}\n\nthis is not json\n{"t": 2, "type": "warp"}\n')
    proc = _replay(tablesense_cmd, log, "--json")
    assert proc.returncode == 1
    state = json.loads(proc.stdout)
    assert [e["line"] for e in state["errors"]] == [1, 3, 4]
    assert "before any 'setup'" in state["errors"][0]["error"]
    assert "line 3: not JSON" in proc.stderr
    assert "unknown event type 'warp'" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_empty_log_is_an_error_with_exit_2(tablesense_cmd: list[str], tmp_path: Path) -> None:
    log = tmp_path / "empty.jsonl"
    log.write_text("")
    proc = _replay(tablesense_cmd, log, "--json")
    assert proc.returncode == 2  # issue 12: an empty log is an error, not an empty match
    assert proc.stdout == "" and "holds no events" in proc.stderr


def test_a_void_record_takes_the_voided_shot_out_of_the_replay(
    tablesense_cmd: list[str], tmp_path: Path
) -> None:
    setup = '{"t": 0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}'
    shot = '{"t": 5, "type": "goal", "goal": "B", "ball": "p1"}\n{"t": 6, "type": "rest"}'
    plain, voided = tmp_path / "plain.jsonl", tmp_path / "voided.jsonl"
    plain.write_text(f"{setup}\n{shot}\n")
    # events 2..3 (the goal and its rest) voided by the referee panel's correction record
    voided.write_text(f'{setup}\n{shot}\n{{"t": 9, "type": "call", "call": "void", "from": 2, "to": 3}}\n')
    scored = json.loads(_replay(tablesense_cmd, plain, "--json").stdout)
    proc = _replay(tablesense_cmd, voided, "--json")
    corrected = json.loads(proc.stdout)
    assert proc.returncode == 0, proc.stderr
    assert scored["balls_left"]["p1"] == 4
    assert corrected["balls_left"]["p1"] == 5 and corrected["rulings"] == []


def test_lang_renders_the_rulings_in_dutch_or_danish_with_names(tablesense_cmd: list[str]) -> None:
    example = ROOT / "examples" / "golf-match.jsonl"
    said = {}
    for lang in LANGS:
        proc = _replay(tablesense_cmd, example, "--json", "--lang", lang)
        assert proc.returncode == 0, proc.stderr
        last = json.loads(proc.stdout)["rulings"][-1]
        assert last["rule"] == "golf.match.won" and "Inge" in last["text"] and "p2" not in last["text"]
        said[lang] = last["text"]
        account = _replay(tablesense_cmd, example, "--lang", lang)
        assert said[lang] in account.stdout
    assert len(set(said.values())) == len(LANGS)  # a sentence of each language
