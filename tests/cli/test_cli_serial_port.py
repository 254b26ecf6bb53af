"""A missing or wrong serial port, the same answer from every command: one line naming the
port and the ports seen, exit 2; ``monitor`` and ``run`` wait for it only with ``--wait``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.ports import free_port

from tablesense.sim import fitl
from tablesense.table.profile import board_config, load_profile

CLI = [sys.executable, "-m", "tablesense"]


def _refused_url() -> str:
    """A socket:// URL on which nobody listens (a port just freed)."""
    return f"socket://127.0.0.1:{free_port()}"


def _commands(port: str) -> list[list[str]]:
    return [["monitor", "--serial", port], ["run", "--serial", port, "--http", str(free_port())],
            ["doctor", "--serial", port], ["flash", "--serial", port, "--no-check"]]


@pytest.mark.parametrize("kind", ["missing", "not a serial port", "nobody answers"])
def test_every_command_answers_a_bad_port_with_one_line_and_exit_2(tmp_path: Path, kind: str) -> None:
    port = {"missing": str(tmp_path / "ttyUSB9"), "not a serial port": os.devnull,
            "nobody answers": _refused_url()}[kind]
    lines = []
    for argv in _commands(port):
        done = subprocess.run([*CLI, *argv], capture_output=True, text=True, timeout=60, cwd=tmp_path)
        assert done.returncode == 2, (argv, done.stderr)
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
        assert f"serial port {port} " in done.stderr
        assert "Ports seen:" in done.stderr or "no serial ports are connected" in done.stderr
        lines.append(done.stderr.split(": ", 1)[1].removesuffix(" (--wait: start and wait for it)\n"))
    assert len({ln.strip() for ln in lines}) == 1, lines  # the same words from each command


def test_no_port_given_is_one_line_too() -> None:
    for cmd in ("monitor", "doctor", "flash"):
        done = subprocess.run([*CLI, cmd], capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and done.stderr.count("\n") == 1
        assert "give the board's serial port with --serial PORT" in done.stderr


@pytest.mark.micropython
@pytest.mark.parametrize("command", ["monitor", "run"])
def test_with_wait_the_command_waits_for_the_board_to_appear(tmp_path: Path, command: str) -> None:
    """The board is "plugged in" by a link appearing at the path given (udev makes such links:
    /dev/serial/by-id/...), pointing at the real firmware's pty."""
    port = tmp_path / "ttyBOARD"
    argv = [*CLI, command, "--serial", str(port), "--wait"]
    argv += ["--profile", "golf"]
    if command == "run":
        argv += ["--http", str(free_port()), "--db", str(tmp_path / "pub.db")]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()
        assert f"serial port {port} not found" in first and "waiting for it" in first, first
        time.sleep(1.0)
        assert proc.poll() is None  # still there, waiting
        board = tmp_path / "golf.json"
        board.write_text(json.dumps(board_config(load_profile("golf"))))
        with fitl.start_firmware(board, realtime=False) as fw:
            port.symlink_to(fw.port)
            seen = ""
            deadline = time.monotonic() + 30
            while "hello" not in seen and time.monotonic() < deadline:
                line = proc.stderr.readline()
                assert line, seen
                seen += line
            assert "hello" in seen and "Traceback" not in seen
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


@pytest.mark.parametrize("url", ["socket://table1", "socket://127.0.0.1:99999", "sokcet://table1:7000"])
def test_a_url_no_board_can_answer_at_is_one_line_and_exit_2_even_with_wait(tmp_path: Path, url: str) -> None:
    """A typing mistake in a URL (no port, a scheme pyserial does not know) is said in words of
    its own, not pyserial's internals, and --wait does not wait for it for ever."""
    commands = [[*argv, "--wait"] if argv[0] in ("monitor", "run") else argv for argv in _commands(url)]
    commands.append(["install-service", "--serial", url, "--dry-run"])
    lines = []
    for argv in commands:
        done = subprocess.run([*CLI, *argv], capture_output=True, text=True, timeout=60, cwd=tmp_path)
        assert done.returncode == 2, (argv, done.stderr)
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
        assert f"serial port {url} " in done.stderr and ("HOST:PORT" in done.stderr), done.stderr
        assert "NoneType" not in done.stderr and "debug|info" not in done.stderr, done.stderr
        lines.append(done.stderr.split(": ", 1)[1])
    assert len(set(lines)) == 1, lines  # the same words from each command


def test_a_port_another_program_holds_is_called_busy_and_its_holder_loses_no_byte(tmp_path: Path) -> None:
    """``monitor`` or ``doctor`` started beside a ``run`` on the same board would have read half
    its bytes: the port is held exclusively, the second program says it is busy, and every byte
    the board sends still reaches the program that holds the port."""
    import tty

    from tablesense.link.port import open_port

    master, slave = os.openpty()
    tty.setraw(slave)
    name = os.ttyname(slave)
    held = open_port(name, timeout=0.5)
    try:
        done = subprocess.run([*CLI, "doctor", "--serial", name, "--seconds", "1"],
                              capture_output=True, text=True, timeout=60, cwd=tmp_path)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert f"port {name} is busy" in done.stderr and "Traceback" not in done.stderr
        watch = subprocess.run([*CLI, "monitor", "--serial", name, "--duration", "1.5"],
                               capture_output=True, text=True, timeout=60, cwd=tmp_path)
        assert "Traceback" not in watch.stderr and f"port {name} is busy" in watch.stderr, watch.stderr
        os.write(master, b"every byte\n")
        assert held.read(11) == b"every byte\n"  # nobody else took any of it
    finally:
        held.close()
        os.close(master)
        os.close(slave)
