"""SIGTERM (systemd's stop) and SIGINT (Ctrl-C) end every long-running command cleanly:
exit 0, no traceback, no process left behind -- above all no MicroPython firmware (it runs
in a session of its own), not even when the parent is SIGKILLed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from helpers.ports import free_port
from helpers.processes import signalled

from tablesense.sim import fitl
from tablesense.table.profile import board_config, load_profile


def _children(pid: int) -> set[int]:
    """Every descendant of ``pid``, from /proc."""
    parent: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        parent[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    out: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        kids = {c for c, pp in parent.items() if pp == p}
        out |= kids
        todo.extend(kids)
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _is_firmware(pid: int) -> bool:
    try:
        return b"main.py" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def _gone(pids: set[int], timeout: float = 5.0) -> set[int]:
    """The ``pids`` still alive after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        left = {p for p in pids if _alive(p)}
        if not left:
            return set()
        time.sleep(0.1)
    return {p for p in pids if _alive(p)}


def _wait_for(proc: subprocess.Popen[str], what: str, stream: str = "stdout", timeout: float = 30) -> str:
    pipe = proc.stdout if stream == "stdout" else proc.stderr
    assert pipe is not None
    seen = ""
    deadline = time.monotonic() + timeout
    while what not in seen:
        assert time.monotonic() < deadline, seen
        line = pipe.readline()
        assert line, f"ended before {what!r}: {seen}"
        seen += line
    return seen


def _stop(proc: subprocess.Popen[str], sig: int) -> tuple[int, str]:
    kids = _children(proc.pid)
    code, err = signalled(proc, sig, 20)
    left = _gone(kids)
    assert not left, f"left behind: {left}"
    return code, err


def _firmware_child(proc: subprocess.Popen[str], timeout: float = 20) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        fw = [p for p in _children(proc.pid) if _is_firmware(p)]
        if fw:
            return fw[0]
        time.sleep(0.1)
    raise AssertionError("no firmware child started")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_run_stops_on_sigterm_and_sigint_with_exit_0_and_no_traceback(
        tablesense_cmd: list[str], tmp_path: Path, sig: int) -> None:
    proc = subprocess.Popen([*tablesense_cmd, "run", "--tables", "1", "--port-http", str(free_port("")),
                             "--db", str(tmp_path / "pub.db")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for(proc, "scoreboard on")
    code, err = _stop(proc, sig)
    assert code == 0, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err


@pytest.mark.micropython
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_demo_stops_on_signal_and_takes_its_firmware_with_it(
        tablesense_cmd: list[str], tmp_path: Path, sig: int) -> None:
    proc = subprocess.Popen([*tablesense_cmd, "demo", "--port", "0", "--speed", "5",
                             "--db", str(tmp_path / "demo.db")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for(proc, "scoreboard at")
    fw = _firmware_child(proc)
    code, err = _stop(proc, sig)
    assert code == 0, err
    assert "Traceback" not in err
    assert not _alive(fw)


@pytest.mark.micropython
def test_demo_killed_outright_still_takes_its_firmware_with_it(
        tablesense_cmd: list[str], tmp_path: Path) -> None:
    """SIGKILL runs no code in the parent: the kernel's parent-death signal ends the firmware."""
    proc = subprocess.Popen([*tablesense_cmd, "demo", "--port", "0", "--speed", "5",
                             "--db", str(tmp_path / "demo.db")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for(proc, "scoreboard at")
    fw = _firmware_child(proc)
    proc.kill()
    proc.communicate(timeout=10)
    assert not _gone({fw}), "the firmware outlived its SIGKILLed parent"


def _long_edges(tmp_path: Path, profile_id: str) -> Path:
    profile = load_profile(profile_id)
    ch = next(c.ch for c in profile.channels if c.mode != "pcnt")
    edges = [{"t_us": i * 500_000, "ch": ch, "level": i % 2} for i in range(1, 200)]  # 100 s of play
    path = tmp_path / "edges.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in edges))
    return path


@pytest.mark.micropython
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_sim_stops_on_signal_and_takes_its_firmware_with_it(
        tablesense_cmd: list[str], tmp_path: Path, sig: int) -> None:
    proc = subprocess.Popen([*tablesense_cmd, "sim", str(_long_edges(tmp_path, "golf")), "--profile", "golf"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    fw = _firmware_child(proc)
    _wait_for(proc, "hello", stream="stderr")
    code, err = _stop(proc, sig)
    assert code == 0, err
    assert "Traceback" not in err
    assert not _alive(fw)


@pytest.mark.micropython
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_monitor_stops_on_signal(tablesense_cmd: list[str], tmp_path: Path, sig: int) -> None:
    board = tmp_path / "golf.json"
    board.write_text(json.dumps(board_config(load_profile("golf"))))
    with fitl.start_firmware(board, realtime=False) as fw:
        proc = subprocess.Popen([*tablesense_cmd, "monitor", fw.port],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        _wait_for(proc, "hello", stream="stderr")
        code, err = _stop(proc, sig)
    assert code == 0, err
    assert "Traceback" not in err


@pytest.mark.micropython
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_doctor_stops_on_signal_without_a_traceback(
        tablesense_cmd: list[str], tmp_path: Path, sig: int) -> None:
    """doctor's exit code after a stop is its report's verdict (channels not fired: 1)."""
    board = tmp_path / "golf.json"
    board.write_text(json.dumps(board_config(load_profile("golf"))))
    with fitl.start_firmware(board, realtime=False) as fw:
        proc = subprocess.Popen([*tablesense_cmd, "doctor", "--port", fw.port, "--profile", "golf"],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        _wait_for(proc, "Fire each sensor")
        code, err = _stop(proc, sig)
    assert code in (0, 1), err
    assert "Traceback" not in err


def test_firmware_dies_with_its_parent_process(tmp_path: Path) -> None:
    """start_firmware in a child python that is then SIGKILLed: the firmware goes too."""
    board = tmp_path / "golf.json"
    board.write_text(json.dumps(board_config(load_profile("golf"))))
    script = ("import sys, time\nfrom tablesense.sim import fitl\n"
              f"fw = fitl.start_firmware({str(board)!r})\nprint(fw.pid, flush=True)\ntime.sleep(60)\n")
    import sys

    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    pid = int(proc.stdout.readline())
    assert _alive(pid)
    proc.kill()
    proc.wait(10)
    assert not _gone({pid})


@pytest.mark.parametrize("argv", [
    ["run", "--tables", "1", "--http", "99999"],
    ["run", "--tables", "1", "--http", "0"],
    ["run", "--tables", "1", "--http", "-1"],
    ["demo", "--http", "99999"],
    ["demo", "--http", "-5"],
    ["install-service", "--serial", "/dev/ttyUSB0", "--http", "99999", "--dry-run"],
])
def test_a_web_port_out_of_range_is_one_line_and_exit_2(tablesense_cmd: list[str], argv: list[str]) -> None:
    done = subprocess.run([*tablesense_cmd, *argv], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert "65535" in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
