"""``tablesense monitor`` and ``tablesense sim`` as a user runs them: real processes, real firmware."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tablesense.sim import fitl
from tablesense.table.profile import board_config, load_profile

CLI = [sys.executable, "-m", "tablesense"]
GOLF_EDGES = [  # goal B's beam breaks 200 us before goal A's ("level": 1 = the sensor is active)
    {"t_us": 1_000_000, "ch": 1, "level": 1},
    {"t_us": 1_000_200, "ch": 0, "level": 1},
    {"t_us": 1_000_500, "ch": 1, "colour": 1},
    {"t_us": 1_000_500, "ch": 0, "colour": 2},
    {"t_us": 1_100_000, "ch": 1, "level": 0},
    {"t_us": 1_100_000, "ch": 0, "level": 0},
    {"t_us": 1_200_000, "ch": 2, "pulses": 7},
]


def tablesense(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout)


def write_jsonl(path: Path, items: list[dict]) -> Path:
    path.write_text("".join(json.dumps(i) + "\n" for i in items))
    return path


@pytest.mark.micropython
def test_sim_prints_the_goals_in_order_with_their_balls_then_rest(tmp_path: Path) -> None:
    edges = write_jsonl(tmp_path / "edges.jsonl", GOLF_EDGES)
    r = tablesense("sim", str(edges), "--profile", "golf", "--json", "--fast")
    assert r.returncode == 0, r.stderr
    events = [json.loads(line) for line in r.stdout.splitlines()]
    assert [(e["type"], e.get("goal"), e.get("ball")) for e in events] == [
        ("goal", "B", "p1"),
        ("goal", "A", "p2"),
        ("rest", None, None),
    ]
    assert 1.0 <= events[0]["t"] < events[1]["t"] < 1.1  # file times; the firmware stamps after the edge
    assert events[2]["t"] >= 1.2 + 1.5  # the golf table rests after 1.5 s without activity
    assert "hello: firmware" in r.stderr


@pytest.mark.micropython
def test_sim_frames_mode_prints_every_frame(tmp_path: Path) -> None:
    edges = write_jsonl(tmp_path / "edges.jsonl", GOLF_EDGES)
    r = tablesense("sim", str(edges), "--profile", "golf", "--frames", "--fast")
    assert r.returncode == 0, r.stderr
    kinds = [line.split()[2] for line in r.stdout.splitlines()]
    assert kinds.count("EVENT") == 4 and kinds.count("READING") == 2 and kinds.count("COUNT") == 1, r.stdout


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"t_us": 5, "ch": 1, "level": 1}\nnot json\n', "line 2: not JSON"),
        ('{"t_us": 5, "ch": 9, "level": 1}\n', "line 1: channel 9 is not in the profile (channels: 0, 1, 2)"),
        ('{"t_us": -1, "ch": 1, "level": 1}\n', "line 1: needs t_us, an integer >= 0"),
        ('{"t_us": 5, "ch": 1}\n', "line 1: needs exactly one of level"),
        ('{"t_us": 5, "ch": 1, "level": 7}\n', "line 1: level must be 0 (idle) or 1 (active)"),
        ('{"t_us": 5, "ch": 2, "level": 1}\n', "line 1: channel 2 (motion) is a pulse counter"),
        ('{"t_us": 5, "ch": 0, "pulses": 3}\n', "line 1: pulses go to a pulse-counter channel"),
        ('{"t_us": 5, "ch": 2, "colour": 1}\n', "line 1: channel 2 (motion) has no colour sensor"),
        ('{"t_us": 900, "ch": 1, "level": 1}\n{"t_us": 500, "ch": 0, "level": 1}\n',
         "line 2: 500 us is before the line above (900 us): the edges must be in time order"),
        ("\n", "holds no edges"),
    ],
)
def test_sim_rejects_a_bad_edges_file_naming_the_line(tmp_path: Path, line: str, message: str) -> None:
    edges = tmp_path / "edges.jsonl"
    edges.write_text(line)
    r = tablesense("sim", str(edges), "--profile", "golf")
    assert r.returncode == 2
    assert message in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_sim_and_monitor_reject_an_unknown_profile(tmp_path: Path) -> None:
    edges = write_jsonl(tmp_path / "edges.jsonl", GOLF_EDGES)
    for args in (
        ["sim", str(edges), "--profile", "snooker"],
        ["monitor", "/dev/null", "--profile", "snooker"],
    ):
        r = tablesense(*args)
        assert r.returncode == 2 and "unknown table profile" in r.stderr and "Traceback" not in r.stderr


def test_monitor_on_a_missing_port_says_so(tmp_path: Path) -> None:
    r = tablesense("monitor", "--serial", str(tmp_path / "ttyUSB9"), "--no-reconnect")
    assert r.returncode == 2
    assert f"serial port {tmp_path / 'ttyUSB9'} not found" in r.stderr and "Traceback" not in r.stderr
    assert "Ports seen:" in r.stderr or "no serial ports are connected" in r.stderr
    assert r.stderr.count("\n") == 1


@pytest.mark.micropython
def test_monitor_prints_live_events_from_the_boards_own_profile(tmp_path: Path) -> None:
    profile = load_profile("kegle")
    board = tmp_path / "kegle.json"
    board.write_text(json.dumps(board_config(profile)))
    with fitl.start_firmware(board, realtime=False) as fw:
        mon = subprocess.Popen(
            [*CLI, "monitor", "--serial", fw.port, "--json", "--duration", "4"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert mon.stderr is not None and mon.stdout is not None
            err = ""
            while "hello:" not in err:  # the monitor is connected: now pin 3 falls, pocket 4 takes red
                line = mon.stderr.readline()
                assert line, err
                err += line
            t = 5_000_000
            fw.send_edges(
                [
                    {"t_us": t, "ch": 8, "level": 1},
                    {"t_us": t + 100_000, "ch": 3, "level": 1},
                    {"t_us": t + 101_000, "ch": 3, "colour": 1},
                    {"t_us": t + 200_000, "ch": 3, "level": 0},
                ]
            )
            # Not communicate(): it reads the pipes' descriptors and so loses what readline()
            # above already took into mon.stderr's buffer: under load the profile line arrives
            # in the same read as "hello:". The output is a few lines: no pipe fills meanwhile.
            mon.wait(timeout=20)
            out = mon.stdout.read()
            err += mon.stderr.read()
        finally:
            if mon.poll() is None:
                mon.kill()
                mon.wait(10)
    assert mon.returncode == 0, err
    events = [json.loads(line) for line in out.splitlines()]
    assert [(e["type"], e.get("pin"), e.get("pocket"), e.get("ball")) for e in events][:2] == [
        ("pin", 3, None, None),
        ("pocket", None, 4, "red"),
    ]
    assert "translating with profile 'kegle'" in err and "connected" in err
