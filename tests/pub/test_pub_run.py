"""`tablesense run`: clear errors for bad arguments; serves the pub until interrupted."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from helpers.ports import free_port

from tablesense.commands.run import plan


def test_tables_are_numbered_in_port_order_with_their_profiles() -> None:
    assert plan(["/dev/ttyUSB0", "/dev/ttyUSB1"], ["golf", "carom"], 1) == [
        ("1", "/dev/ttyUSB0", "golf"), ("2", "/dev/ttyUSB1", "carom"), ("3", None, None)]
    assert plan(["a", "b"], ["kegle"], 0) == [("1", "a", "kegle"), ("2", "b", "kegle")]
    assert plan(["a"], [], 0) == [("1", "a", "golf")]


@pytest.mark.parametrize(("args", "message"), [
    ([], "give a table"),
    (["--port", "a", "--port", "b", "--profile", "golf", "--profile", "kegle", "--profile", "carom"],
     "one per --serial"),
    (["--port", "socket://127.0.0.1:1", "--profile", "no-such-table"], "no-such-table"),
    (["--tables", "1", "--profile", "carom"], "--profile goes with --serial"),
])
def test_bad_arguments_say_what_is_wrong(tablesense_cmd: list[str], tmp_path: Path, args: list[str],
                                         message: str) -> None:
    done = subprocess.run([*tablesense_cmd, "run", "--db", str(tmp_path / "x.db"), *args],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr


def test_run_serves_the_pub_and_prints_the_referee_links(tablesense_cmd: list[str], tmp_path: Path) -> None:
    port = free_port("")
    proc = subprocess.Popen([*tablesense_cmd, "run", "--tables", "2", "--port-http", str(port),
                             "--db", str(tmp_path / "pub.db"), "--lang", "nl"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        head = [proc.stdout.readline() for _ in range(3)]
        assert f"http://127.0.0.1:{port}/" in head[0]
        assert "/ref/1?token=" in head[1] and "/ref/2?token=" in head[2]
        deadline = time.monotonic() + 10
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/table/2") as r:
                    assert json.loads(r.read())["lang"] == "nl"
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
    finally:
        proc.send_signal(signal.SIGTERM)  # as systemd stops it
        proc.wait(10)
    assert proc.returncode == 0


def test_port_in_use_is_a_clear_error(tablesense_cmd: list[str], tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        done = subprocess.run([*tablesense_cmd, "run", "--tables", "1", "--port-http", str(port),
                               "--db", str(tmp_path / "x.db")], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert "cannot serve" in done.stderr and "Traceback" not in done.stderr


def test_a_second_run_on_the_same_match_log_is_refused_and_the_first_serves_on(
        tablesense_cmd: list[str], tmp_path: Path) -> None:
    """Two hosts on one log would each start a match on table 1 and interleave their events.
    The second is refused in one line; the first serves on; once the first is killed (as a
    crash or ``kill -9`` would), a restarted host takes the log again."""
    from helpers.ports import wait_port
    from helpers.processes import start_run, stop

    port = free_port()
    first = start_run(tablesense_cmd, port, tmp_path)
    try:
        wait_port(port, 30)
        second = subprocess.run([*tablesense_cmd, "run", "--tables", "1", "--http", str(free_port()),
                                 "--db", str(tmp_path / "pub.db")],
                                capture_output=True, text=True, timeout=60)
        assert second.returncode == 2, second.stderr
        assert second.stderr.count("\n") == 1 and "Traceback" not in second.stderr
        assert "is in use by another tablesense run" in second.stderr
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/table/1", timeout=10) as r:
            assert r.status == 200  # the first one still serves
    finally:
        stop(first, signal.SIGKILL)
    again_port = free_port()
    again = start_run(tablesense_cmd, again_port, tmp_path)
    try:
        wait_port(again_port, 30)
        assert again.poll() is None
    finally:
        assert stop(again) == 0


def test_a_port_bound_between_its_pick_and_runs_start_is_given_up_for_another(
        tablesense_cmd: list[str], tmp_path: Path) -> None:
    """A port free when the test picked it, then taken as the own end of some other test's
    connection before `tablesense run` bound it: run says so in one line and ends, and the
    tests' ``serving_run`` starts it again on another port (was: "not up in time", now and
    then, beside the rest of the suite)."""
    from helpers.processes import serving_run, stop

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))  # bound, not listening: as a connection's own end is
    bound = taken.getsockname()[1]
    try:
        proc, port = serving_run(tablesense_cmd, tmp_path, ports=iter([bound, free_port("")]))
        try:
            assert port != bound
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/table/1", timeout=10) as r:
                assert r.status == 200
        finally:
            assert stop(proc) == 0
    finally:
        taken.close()


@pytest.mark.micropython
def test_run_shows_a_goal_from_the_firmware_on_a_real_pty(tablesense_cmd: list[str], tmp_path: Path) -> None:
    """The whole chain: firmware under MicroPython on a pty -> `tablesense run --port` -> web API."""
    import json

    from tablesense.sim.fitl import start_firmware
    from tablesense.sim.match import MatchSim
    from tablesense.table.profile import board_config_json, load_profile

    prof = load_profile("golf")
    board = tmp_path / "golf.json"
    board.write_text(board_config_json(prof), encoding="utf-8")
    sim = MatchSim("golf", seed=1, full_info=False, opts={"profile": prof}, want_edges=True)
    edges: list[dict] = []  # type: ignore[type-arg]
    in_shot = goal = False
    for event in sim.events():  # the first shot with a goal, as the table's pins see it
        if event.type in ("setup", "call"):
            continue
        if not in_shot:
            in_shot, goal = True, False
            edges = sorted(sim.edges, key=lambda e: e["t_us"])
            sim.edges.clear()
        goal = goal or event.type == "goal"
        if event.type == "rest":
            in_shot = False
            if goal:
                break
    assert goal and edges
    port = free_port("")
    with start_firmware(board, tmp_path / "edges.jsonl", realtime=True) as fw:
        proc = subprocess.Popen([*tablesense_cmd, "run", "--port", fw.port, "--profile", "golf",
                                 "--port-http", str(port), "--db", str(tmp_path / "pub.db")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert proc.stdout is not None
            assert "table 1: " + fw.port in proc.stdout.readline() + proc.stdout.readline()
            fw.send_edges([{"clock_us": edges[0]["t_us"] - 50_000}, *edges])
            deadline = time.monotonic() + 30
            ticker: list[dict] = []  # type: ignore[type-arg]
            while not any(e["type"] == "goal" for e in ticker):
                assert time.monotonic() < deadline, f"no goal on the scoreboard: {ticker}"
                time.sleep(0.2)
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/table/1") as r:
                        ticker = json.loads(r.read())["ticker"]
                except OSError:
                    continue
            assert next(e for e in ticker if e["type"] == "goal")["source"] == "table"
        finally:  # stopped before the firmware: its link never retries the pty once it is free
            proc.send_signal(signal.SIGINT)
            try:
                proc.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate(timeout=10)
            proc.wait(10)
