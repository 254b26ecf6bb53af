"""tablesense doctor: every channel watched, stuck / noisy / silent sensors named.

The pure watcher is fed frames on device time; the command runs against the real firmware
under MicroPython's unix port on a pty (the firmware-in-the-loop of the simulator).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tablesense.cli import main
from tablesense.deploy.doctor import Doctor
from tablesense.link.frame import CountFrame, EventFrame, HeartbeatFrame, HelloFrame, ReadingFrame
from tablesense.table.profile import board_config_json, load_profile

TABLESENSE = [sys.executable, "-m", "tablesense"]


def hello(uptime_us: int = 0, levels: int = 0) -> HelloFrame:
    return HelloFrame(0, uptime_us, 16, levels, 0, 0, 0, "0.1.0", "kegle")


def test_a_beam_that_fires_is_lit_and_reads_its_colour() -> None:
    doc = Doctor(load_profile("kegle"))
    doc.feed(hello())
    assert doc.feed(EventFrame(0, 0, 1, 1_000_000)) == "ch  0 pocket_1: ACTIVE"
    assert doc.feed(ReadingFrame(1, 0, 1, 1_001_000)) == "ch  0 pocket_1: colour red"
    assert doc.feed(EventFrame(2, 0, 0, 1_030_000)) == "ch  0 pocket_1: idle"
    assert doc.render()[0].startswith("● ch  0 pocket_1   GPIO13  irq     idle     1 edges, red x1")
    doc.feed(HeartbeatFrame(2, 2_000_000, 0, 0, 0))
    assert doc.render()[0].startswith("○")  # no longer lit a second later
    assert [f.name for f in doc.findings() if f.problem != "silent"] == []
    assert "pocket_1" not in [f.name for f in doc.findings()]


def test_stuck_needs_the_time_to_pass() -> None:
    doc = Doctor(load_profile("kegle"), stuck_s=5)
    doc.feed(hello(uptime_us=1_000_000, levels=1 << 6))  # pin 1 already down at the start
    doc.feed(HeartbeatFrame(0, 5_900_000, 0, 0, 0))
    assert not [f for f in doc.findings() if f.problem == "stuck"]
    doc.feed(HeartbeatFrame(0, 6_000_000, 0, 0, 0))
    (stuck,) = [f for f in doc.findings() if f.problem == "stuck"]
    assert stuck.text.startswith("pin_1 (GPIO26) stuck ACTIVE for 5.0 s: the pin is down")


def test_noise_is_counted_per_second_window() -> None:
    doc = Doctor(load_profile("kegle"), noisy_edges=10, noisy_pulses=100)
    doc.feed(hello())
    for k in range(10):  # 10 edges within a second: at the limit, not over
        doc.feed(EventFrame(k, 3, 1, 1_000_000 + k * 90_000))
    doc.feed(CountFrame(20, 11, 100, 1_000_000))
    assert not [f for f in doc.findings() if f.problem == "noisy"]
    doc.feed(EventFrame(30, 3, 1, 1_950_000))
    doc.feed(CountFrame(31, 11, 1, 1_500_000))
    noisy = {f.name: f.text for f in doc.findings() if f.problem == "noisy"}
    assert noisy["pocket_4"].startswith("pocket_4 (GPIO19) noisy: 11 edges in one second (limit 10)")
    assert noisy["cushion_1"].startswith("cushion_1 (GPIO34) noisy: 101 pulses in one second (limit 100)")


def test_slow_edges_are_not_noise() -> None:
    doc = Doctor(load_profile("golf"))
    doc.feed(hello())
    for k in range(40):  # one ball every 2 s for 80 s
        doc.feed(EventFrame(k, 0, 1, k * 2_000_000))
    assert not [f for f in doc.findings() if f.problem == "noisy"]


def test_doctor_without_a_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "--port", "/dev/ttyUSB97", "--profile", "golf"]) == 2
    err = capsys.readouterr().err
    assert "serial port /dev/ttyUSB97 not found" in err and "Traceback" not in err


@pytest.mark.micropython
def test_a_board_without_the_profile_is_a_clear_error(tmp_path: Path) -> None:
    from tablesense.sim import fitl

    (tmp_path / "golf.json").write_text(board_config_json(load_profile("golf")))  # no kegle.json
    with fitl.start_firmware(str(tmp_path / "golf.json")) as fw:
        r = subprocess.run([*TABLESENSE, "doctor", "--port", fw.port, "--profile", "kegle", "--seconds", "1"],
                           capture_output=True, text=True, timeout=30)
    assert r.returncode == 1
    assert "board refused '!profile kegle': profile kegle: cannot read" in r.stderr, r.stderr
    assert "tablesense flash --profile" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.micropython
def test_doctor_against_the_real_firmware(tmp_path: Path) -> None:
    from tablesense.sim import fitl

    (tmp_path / "golf.json").write_text(board_config_json(load_profile("golf")))
    (tmp_path / "kegle.json").write_text(board_config_json(load_profile("kegle")))
    with fitl.start_firmware(str(tmp_path / "golf.json")) as fw:  # the board starts on golf
        proc = subprocess.Popen([*TABLESENSE, "doctor", "--port", fw.port, "--profile", "kegle",
                                 "--seconds", "9", "--stuck", "1", "--json"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # The firmware plays the feed on its own clock (from its start): at 6 s the doctor has
        # switched the board to kegle even on a loaded machine (its start took up to 3 s at load
        # 30), and it watches until 9 s after that.
        t0 = 6_000_000
        edges = [{"t_us": t0, "ch": 0, "level": 1}, {"t_us": t0 + 500, "ch": 0, "colour": 2},
                 {"t_us": t0 + 30_000, "ch": 0, "level": 0},
                 {"t_us": t0, "ch": 6, "level": 1},  # pin 1 falls and stays down
                 {"t_us": t0 + 200_000, "ch": 11, "pulses": 3},
                 {"t_us": t0 + 300_000, "ch": 12, "pulses": 250}]  # cushion 2 rings
        edges += [{"t_us": t0 + 100_000 + k * 20_000, "ch": 2, "level": (k + 1) % 2} for k in range(30)]
        fw.send_edges(sorted(edges, key=lambda e: e["t_us"]))
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 1, err
    result = json.loads(out)
    assert result["profile"] == "kegle" and result["firmware"]
    chans = {c["name"]: c for c in result["channels"]}
    assert len(chans) == 16
    assert chans["pocket_1"]["edges"] == 1 and chans["pocket_1"]["colours"] == {"white": 1}
    assert chans["cushion_1"]["pulses"] == 3
    problems = {(f["name"], f["problem"]) for f in result["findings"]}
    assert {("pin_1", "stuck"), ("pocket_3", "noisy"), ("cushion_2", "noisy")} <= problems
    assert ("pocket_2", "silent") in problems
    assert not {n for n, p in problems if p != "silent"} - {"pin_1", "pocket_3", "cushion_2"}


@pytest.mark.micropython
def test_live_view_on_a_terminal_lights_the_channel_that_fires(tmp_path: Path) -> None:
    import os
    import select

    from tablesense.sim import fitl

    (tmp_path / "golf.json").write_text(board_config_json(load_profile("golf")))
    started = time.monotonic()  # before the board: its clock (µs since its start) is behind this one's
    with fitl.start_firmware(str(tmp_path / "golf.json")) as fw:
        master, slave = os.openpty()  # the installer's terminal
        argv = [*TABLESENSE, "doctor", "--port", fw.port, "--profile", "golf", "--seconds", "6"]
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=slave, stderr=subprocess.PIPE)
        os.close(slave)
        screen = b""
        while b"Fire each" not in screen:  # the doctor listens (however long it took to start)
            ready, _, _ = select.select([master], [], [], 30)
            assert ready, f"the doctor said nothing: {screen!r}"
            screen += os.read(master, 65536)
        fire = int((time.monotonic() - started + 0.5) * 1e6)  # half a second ahead on the board's clock
        fw.send_edges([{"t_us": fire, "ch": 1, "level": 1}, {"t_us": fire + 400, "ch": 1, "colour": 1},
                       {"t_us": fire + 20_000, "ch": 1, "level": 0}])
        while True:
            ready, _, _ = select.select([master], [], [], 10)
            try:
                chunk = os.read(master, 65536) if ready else b""
            except OSError:  # the doctor closed the terminal
                chunk = b""
            if not chunk:
                break
            screen += chunk
        os.close(master)
        assert proc.wait(timeout=10) == 0  # nothing stuck or noisy (silent is only a warning)
    text = screen.decode()
    assert "\x1b[3F" in text  # the channel list is redrawn in place
    assert "● ch  1 goal_B" in text  # lit while it fires
    assert "○ ch  0 goal_A" in text
    assert "goal_B     GPIO33  irq     idle     1 edges, p1 x1" in text
    assert "silent ch 0: goal_A (GPIO32) never fired" in text
