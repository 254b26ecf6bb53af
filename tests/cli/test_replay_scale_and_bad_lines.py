"""`tablesense replay` on hostile and huge logs: a bad line is named by its number and
skipped, the account is linear, memory stays flat (only the states undos can reach are
kept), an empty log is an error and a closed pipe ends quietly."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from paths import ROOT

import tablesense.replay as replay_module
from tablesense.commands.replay import new_rulings
from tablesense.replay import Replay, history_for
from tablesense.rules import Ruling

SETUP = '{"t": 0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}'
GOAL = '{"t": 5, "type": "goal", "goal": "B", "ball": "p1"}'
REST = '{"t": 6, "type": "rest"}'


def _replay(cmd: list[str], path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*cmd, "replay", str(path), *extra], capture_output=True, text=True, timeout=120)


def _long_kegle(n: int) -> list[str]:
    """``n`` lines of one kegle match that never ends: a recorded match played over and over."""
    lines = [json.loads(x) for x in (ROOT / "tests/matches/kegle/shot__simulated_full_information.jsonl")
             .read_text().splitlines() if x.strip()]
    setup, body = lines[0], lines[1:]
    setup["distance"] = 10**9
    span = max(e["t"] for e in body) + 1
    out, k = [json.dumps(setup)], 0
    while len(out) < n:
        out += [json.dumps({**e, "t": round(e["t"] + k * span, 6)}) for e in body
                if not (k and e.get("call") == "start")]
        k += 1
    return out[:n]


def test_hostile_lines_are_named_by_number_and_the_replay_goes_on(
        tablesense_cmd: list[str], tmp_path: Path) -> None:
    log = tmp_path / "hostile.jsonl"
    bad = [
        b"[" * 100_000 + b"]" * 100_000,                               # 2: nested 100k deep
        b'{"t": 1, "type": "pin", "pin": ' + b"9" * 5000 + b', "state": "down"}',  # 3: 5,000 digits
        b'{"t": 1, "type": "rest", "note": "caf\xe9"}',                # 4: Latin-1, not UTF-8
        b"this is not json",                                           # 5
        b'{"t": 1, "type": "goal", "goal": "Q", "ball": "p1"}',        # 6: a wrong field
        b'{"t": ' + b"1" * 4000 + b', "type": "rest"}',                # 7: a time beyond float
        b'{"t": 1, "type": "goal", "goal": "B", "ball": "' + b"x" * 100_000 + b'"}',  # 8: a huge name
    ]
    log.write_bytes(b"\n".join([SETUP.encode(), *bad, GOAL.encode(), REST.encode()]) + b"\n")
    proc = _replay(tablesense_cmd, log, "--json")
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    state = json.loads(proc.stdout)
    assert [e["line"] for e in state["errors"]] == [2, 3, 4, 5, 6, 7, 8]
    assert state["balls_left"]["p1"] == 4  # the goal after them counted
    err = proc.stderr.splitlines()
    assert len(err) == 7 and all(len(line) < 300 for line in err), err
    assert "line 2: not an event: nested too deeply" in err[0]
    assert "line 3:" in err[1] and "digits" in err[1]
    assert "line 4: not UTF-8 text: byte 0xe9" in err[2]
    assert "line 5: not JSON" in err[3]
    assert "line 6: goal event: goal must be 'A' or 'B'" in err[4]
    assert "line 7:" in err[5] and "numeric 't'" in err[5]
    # the account goes on the same way
    proc = _replay(tablesense_cmd, log)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "  ! line 4: not UTF-8 text" in proc.stdout and "shot 1:" in proc.stdout


@pytest.mark.parametrize("text", ["", "\n\n  \n"])
def test_an_empty_log_is_an_error(tablesense_cmd: list[str], tmp_path: Path, text: str) -> None:
    log = tmp_path / "empty.jsonl"
    log.write_text(text)
    for extra in ((), ("--json",)):
        proc = _replay(tablesense_cmd, log, *extra)
        assert proc.returncode == 2
        assert proc.stdout == ""
        assert proc.stderr.count("\n") == 1 and "holds no events" in proc.stderr


def test_standard_input_is_replayed_too(tablesense_cmd: list[str]) -> None:
    proc = subprocess.run([*tablesense_cmd, "replay", "-", "--json"], input=f"{SETUP}\n{GOAL}\n{REST}\n",
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["balls_left"]["p1"] == 4


def test_a_log_from_a_pipe_by_its_path_is_replayed_as_from_a_file(
        tablesense_cmd: list[str], tmp_path: Path) -> None:
    """``tablesense replay <(zcat log.gz)`` hands a pipe's path (/dev/fd/N), a FIFO alike: it
    can be read once only, and was a traceback ("underlying stream is not seekable")."""
    import os
    import threading

    fifo = tmp_path / "log.fifo"
    os.mkfifo(fifo)

    def write() -> None:
        with fifo.open("w") as f:
            f.write(f"{SETUP}\n{GOAL}\n{REST}\n")

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    proc = _replay(tablesense_cmd, fifo, "--json")
    writer.join(10)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert json.loads(proc.stdout)["balls_left"]["p1"] == 4


def test_a_closed_pipe_ends_the_account_quietly_with_exit_0(
        tablesense_cmd: list[str], tmp_path: Path) -> None:
    log = tmp_path / "long.jsonl"
    log.write_text("\n".join(_long_kegle(20_000)) + "\n")
    proc = subprocess.Popen([*tablesense_cmd, "replay", str(log)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith(b"match: kegle")
    proc.stdout.close()  # as `| head -1` does
    err = proc.stderr.read().decode()
    assert proc.wait(60) == 0
    assert err == ""


def test_the_account_is_linear(tablesense_cmd: list[str], tmp_path: Path) -> None:
    """The old account took 4.6 s for 25k lines and 17 s for 50k (quadratic); 60k now take
    a second or two: a bound of 30 s leaves room for a busy machine."""
    log = tmp_path / "long.jsonl"
    log.write_text("\n".join(_long_kegle(60_000)) + "\n")
    start = time.monotonic()
    proc = _replay(tablesense_cmd, log)
    took = time.monotonic() - start
    assert proc.returncode == 0, proc.stderr[-500:]
    assert proc.stdout.count("\nshot ") > 5_000
    assert took < 30, f"{took:.1f} s for 60k lines"


def _r(t: float, rule: str = "x") -> Ruling:
    return Ruling(t=t, rule=rule)


def test_new_rulings_finds_what_a_late_call_or_an_undo_changed() -> None:
    a, b, c, d = _r(1), _r(2), _r(3), _r(4)
    assert new_rulings((), (a, b)) == [a, b]
    assert new_rulings((a, b), (a, b, c)) == [c]
    assert new_rulings((a, b, c), (a, b)) == []                      # an undo
    b2, c2 = _r(2), _r(3, "y")                                        # the shot re-decided
    assert new_rulings((a, b, c), (a, b2, c2, d)) == [c2, d]          # b2 equals b: not new
    many = tuple(_r(i) for i in range(10_000))
    assert new_rulings(many, (*many[:9_000], _r(-1))) == [_r(-1)]


def _with_undos(lines: list[str], seed: int) -> list[str]:
    rng = random.Random(seed)
    out: list[str] = []
    for line in lines:
        out.append(line)
        if rng.random() < 0.08:
            try:
                t = json.loads(line)["t"]
            except (ValueError, KeyError, TypeError):
                continue
            out += [json.dumps({"t": t, "type": "call", "call": "undo"})] * rng.choice([1, 1, 2, 3])
    return out


def test_a_bounded_history_replays_every_recorded_match_as_the_whole_history_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every recorded match, with undo calls sprinkled in, and old states let go of after
    every event: the same state and the same errors as with every state kept."""
    monkeypatch.setattr(replay_module, "TRIM_EVERY", 1)
    checked = 0
    for path in sorted((ROOT / "tests" / "matches").glob("*/*.jsonl")):
        lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        for seed in range(2):
            log = _with_undos(lines, seed)
            undos = sum('"undo"' in x for x in log)
            whole = Replay().feed_lines(log)
            bounded = Replay(history=history_for(undos)).feed_lines(log)
            assert bounded.to_json() == whole.to_json(), path
            assert [str(e) for e in bounded.errors] == [str(e) for e in whole.errors], path
            checked += 1
    assert checked > 200


def test_memory_stays_flat_with_a_bounded_history() -> None:
    """States no undo can reach are let go of: 40k lines keep about what 10k keep
    (beyond the rulings themselves, which the state lists)."""
    code = (
        "import sys, tracemalloc\n"
        "from tablesense.replay import Replay, history_for\n"
        "lines = sys.stdin.read().splitlines()\n"
        "tracemalloc.start()\n"
        "rep = Replay(history=history_for(0))\n"
        "for n, text in enumerate(lines, 1): rep.feed_line(text, n)\n"
        "del lines\n"
        "print(tracemalloc.get_traced_memory()[0] - 0)\n"
    )

    def kept(n: int) -> int:
        out = subprocess.run([sys.executable, "-c", code], input="\n".join(_long_kegle(n)),
                             capture_output=True, text=True, timeout=120, check=True)
        return int(out.stdout)

    small, big = kept(10_000), kept(40_000)
    assert big < 4 * small, (small, big)  # linear growth would be 4x; rulings alone are ~1/3 of it
