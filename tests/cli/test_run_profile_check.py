"""`tablesense run` reads a board only with the profile it runs: a board on another profile
is asked to switch (`!profile`), and refused in one line if it stays where it is."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tablesense.sim import fitl
from tablesense.table.profile import board_config, load_profile


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("", 0))  # free on every address: `run` listens on 0.0.0.0
        return int(s.getsockname()[1])


def _run_for(cmd: list[str], tmp_path: Path, port: str, profile: str, seconds: float) -> tuple[int, str]:
    proc = subprocess.Popen([*cmd, "run", "--port", port, "--profile", profile,
                             "--port-http", str(_free_port()), "--db", str(tmp_path / "pub.db")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(seconds)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=20)
    return proc.returncode, err


@pytest.mark.micropython
def test_a_board_that_stays_on_another_profile_is_refused_in_one_line(
        tablesense_cmd: list[str], tmp_path: Path) -> None:
    board = tmp_path / "golf.json"  # the board holds golf only: `!profile kegle` fails
    board.write_text(json.dumps(board_config(load_profile("golf"))))
    with fitl.start_firmware(board, realtime=True) as fw:
        code, err = _run_for(tablesense_cmd, tmp_path, fw.port, "kegle", 8.5)
    assert code == 0 and "Traceback" not in err
    refused = [line for line in err.splitlines() if "refused" in line]
    assert len(refused) == 1, err
    assert "runs profile 'golf', not 'kegle'" in refused[0] and "--profile golf" in refused[0]


@pytest.mark.micropython
def test_a_board_that_switches_to_the_profile_is_read(tablesense_cmd: list[str], tmp_path: Path) -> None:
    for pid in ("golf", "kegle"):
        (tmp_path / f"{pid}.json").write_text(json.dumps(board_config(load_profile(pid))))
    with fitl.start_firmware(tmp_path / "golf.json", realtime=True) as fw:
        code, err = _run_for(tablesense_cmd, tmp_path, fw.port, "kegle", 8.5)
    assert code == 0 and "Traceback" not in err
    assert "refused" not in err, err
