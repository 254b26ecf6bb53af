"""`tablesense replay` on keglebillard logs, through the installed command."""

from __future__ import annotations

import json
import subprocess

from paths import TESTS

MATCHES = TESTS / "matches" / "kegle"


def _replay(tablesense_cmd: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*tablesense_cmd, "replay", *args], capture_output=True, text=True, timeout=60)


def test_kegle_replay_account_prints_the_score_after_each_shot(tablesense_cmd: list[str]) -> None:
    proc = _replay(tablesense_cmd, str(MATCHES / "draw__after_last_series.jsonl"))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "match: kegle  p1=Ann  p2=Bob"
    assert "kegle.last-series [p1] last series, from a new outlay" in proc.stdout
    assert "shot 17: p1 Ann 30 (3 series) - p2 Bob 30 (3 series) | to 30; distance reached" in lines
    assert lines[-1] == "result: a draw"


def test_kegle_replay_json_from_standard_input(tablesense_cmd: list[str]) -> None:
    log = "\n".join(json.dumps(o) for o in [
        {"t": 0, "type": "setup", "game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}, "distance": 50},
        {"t": 1, "type": "pin", "pin": 1, "state": "down"},
        {"t": 2, "type": "rest"},
    ])
    proc = subprocess.run([*tablesense_cmd, "replay", "-", "--json"], input=log, capture_output=True,
                          text=True, timeout=60)
    state = json.loads(proc.stdout)
    assert state["points"] == {"p1": 2, "p2": 0} and state["series"] == {"p1": 1, "p2": 0}
    assert state["remaining"] == {"p1": 48, "p2": 50} and state["pins_down"] == [1]


def test_kegle_replay_bad_lines_named_on_stderr_and_exit_1(tablesense_cmd: list[str]) -> None:
    proc = _replay(tablesense_cmd, str(MATCHES / "log__bad_lines.jsonl"), "--json")
    assert proc.returncode == 1
    assert "line 2: pin event: pin must be 1..5, not 6" in proc.stderr
    assert "line 3: a keglebillard table has no 'goal' sensor" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert json.loads(proc.stdout)["points"] == {"p1": 4, "p2": 0}  # the good lines still count
