"""`tablesense replay` on golf logs through the real command line: the readable account."""

from __future__ import annotations

import subprocess
from pathlib import Path

from paths import TESTS

MATCHES = TESTS / "matches" / "golf"


def _replay(cmd: list[str], name: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*cmd, "replay", str(MATCHES / name), *extra], capture_output=True, text=True,
                          timeout=60)


def test_golf_readable_account_shows_rulings_score_and_result(tablesense_cmd: list[str]) -> None:
    proc = _replay(tablesense_cmd, "duo.deciding__duo.jsonl")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "golf.duo.deciding [p1] Cor opens frame 3" in out
    assert "golf.match.won [p1] Ann & Cor win the match 2-1" in out
    assert "frame 1: balls left p1 4, p2 5; frames 0-0; Ann (p1) at the table" in out
    assert out.rstrip().endswith("result: won by Ann & Cor")  # the winner by name


def test_golf_bad_lines_are_named_and_the_match_goes_on(tablesense_cmd: list[str]) -> None:
    proc = _replay(tablesense_cmd, "log__bad_lines.jsonl")
    assert proc.returncode == 1
    assert "line 14: goal B for p1, but p1 has no balls left in play" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert "frames 1-0" in proc.stdout


def test_golf_long_match_replays_with_its_history_trimmed(tmp_path: Path, tablesense_cmd: list[str]) -> None:
    # 400 misses in one frame: more states than the replay keeps reachable (it lets go of
    # the older ones every 512 events), so the frozen golf states are unlinked on the way
    import json

    from test_golf_helpers import lines, miss

    shots = [e for k in range(400) for e in miss(2.0 * k + 1)]
    log = tmp_path / "long.jsonl"
    log.write_text(lines(shots))
    proc = subprocess.run([*tablesense_cmd, "replay", str(log), "--json"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    state = json.loads(proc.stdout)
    assert state["balls_left"] == {"p1": 5, "p2": 5} and state["at_table"] == "p1"
    assert len(state["rulings"]) == 400 and state["rulings"][-1]["text"].endswith("passes to Ann")
