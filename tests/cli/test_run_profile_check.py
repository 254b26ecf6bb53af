"""`tablesense run` reads a board only with the profile it runs: a board on another profile
is asked to switch (`!profile`), and refused in one line if it stays where it is."""

from __future__ import annotations

import json
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.ports import free_port

from tablesense.pipeline import SWITCH_WAIT
from tablesense.sim import fitl
from tablesense.table.profile import board_config, load_profile


def _run_until(cmd: list[str], tmp_path: Path, port: str, profile: str,
               done: Callable[[list[tuple[float, str]]], bool], timeout: float = 60.0) -> tuple[int, str]:
    """``tablesense run`` on the board until ``done`` holds for what it said on stderr so
    far ((when, line) pairs), at most ``timeout`` s; then stopped as systemd stops it."""
    proc = subprocess.Popen([*cmd, "run", "--port", port, "--profile", profile,
                             "--port-http", str(free_port("")), "--db", str(tmp_path / "pub.db")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    said: list[tuple[float, str]] = []

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            said.append((time.monotonic(), line))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None and not done(list(said)):
        time.sleep(0.1)
    proc.send_signal(signal.SIGTERM)
    proc.wait(20)
    reader.join(10)
    return proc.returncode, "".join(line for _, line in said)


def _refused(said: list[tuple[float, str]]) -> bool:
    return any("refused" in line for _, line in said)


def _past_the_switch_wait(said: list[tuple[float, str]]) -> bool:
    """The board's first HELLO came SWITCH_WAIT s ago and 3 s more: a board still on the
    wrong profile would have been refused by now."""
    hello = [at for at, line in said if "hello:" in line]
    return bool(hello) and time.monotonic() > hello[0] + SWITCH_WAIT + 3.0


@pytest.mark.micropython
def test_a_board_that_stays_on_another_profile_is_refused_in_one_line(
        tablesense_cmd: list[str], tmp_path: Path) -> None:
    board = tmp_path / "golf.json"  # the board holds golf only: `!profile kegle` fails
    board.write_text(json.dumps(board_config(load_profile("golf"))))
    with fitl.start_firmware(board, realtime=True) as fw:
        code, err = _run_until(tablesense_cmd, tmp_path, fw.port, "kegle", _refused)
    assert code == 0 and "Traceback" not in err
    refused = [line for line in err.splitlines() if "refused" in line]
    assert len(refused) == 1, err
    assert "runs profile 'golf', not 'kegle'" in refused[0] and "--profile golf" in refused[0]


@pytest.mark.micropython
def test_a_board_that_switches_to_the_profile_is_read(tablesense_cmd: list[str], tmp_path: Path) -> None:
    for pid in ("golf", "kegle"):
        (tmp_path / f"{pid}.json").write_text(json.dumps(board_config(load_profile(pid))))
    with fitl.start_firmware(tmp_path / "golf.json", realtime=True) as fw:
        code, err = _run_until(tablesense_cmd, tmp_path, fw.port, "kegle", _past_the_switch_wait)
    assert code == 0 and "Traceback" not in err
    assert "hello:" in err and "refused" not in err, err
