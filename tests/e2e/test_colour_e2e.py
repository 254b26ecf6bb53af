"""Ball identity end to end: the real firmware under MicroPython's unix port, its TCS34725
driver (firmware/colour.py) reading the register-level model (firmware/colour_virtual.py),
the real link and translator, the engine; and ``tablesense doctor --learn-colours`` against
the same firmware, exactly as ``tablesense sim`` and ``make demo`` run it."""

from __future__ import annotations

import asyncio
import json
import shutil
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import serial
from helpers.edges import play_at_hello
from paths import ROOT

from tablesense.commands import doctor as doctor_cmd
from tablesense.deploy.colours import LearnError
from tablesense.link import table_events
from tablesense.sim import fitl
from tablesense.table.profile import board_config, load_profile, profile_from_dict

pytestmark = pytest.mark.micropython



@pytest.fixture
def fwdir() -> Path:
    """The firmware as shipped."""
    return ROOT / "firmware"


@pytest.fixture
def started() -> Iterator[list[fitl.FirmwareProcess]]:
    procs: list[fitl.FirmwareProcess] = []
    yield procs
    for p in procs:
        p.stop()


def _board(tmp_path: Path, pid: str) -> Path:
    board = tmp_path / f"{pid}.json"
    board.write_text(json.dumps(board_config(load_profile(pid))))
    return board


async def _events(fw: fitl.FirmwareProcess, pid: str, edges: list[dict[str, Any]], n: int) -> list[Any]:
    got: list[Any] = []
    on_status = play_at_hello(fw, edges)

    async def run() -> None:
        async for ev in table_events(fw.port, pid, from_seq=0, on_status=on_status):
            if ev.type in ("goal", "pocket"):
                got.append(ev)
                if len(got) == n:
                    return

    await asyncio.wait_for(run(), 20)
    return got


def _goal(t_us: int, ch: int, **colour: Any) -> list[dict[str, Any]]:
    """A ball through channel ch's beam, lying under its colour sensor from the edge on."""
    return [{"t_us": t_us, "ch": ch, **colour}, {"t_us": t_us, "ch": ch, "level": 1},
            {"t_us": t_us + 60_000, "ch": ch, "level": 0}]


async def test_golf_goals_name_the_ball_from_the_sensor_model(tmp_path, fwdir, started) -> None:
    fw = fitl.start_firmware(_board(tmp_path, "golf"), realtime=False, firmware_dir=fwdir)
    started.append(fw)
    edges = (_goal(0, 1, colour=1) + _goal(200, 0, colour=2) + _goal(300_000, 0, colour=1)
             + _goal(600_000, 1, colour=2))
    edges.sort(key=lambda e: e["t_us"])
    got = await _events(fw, "golf", edges, 4)
    assert [(e.goal, e.ball) for e in got] == [("B", "p1"), ("A", "p2"), ("A", "p1"), ("B", "p2")]
    assert "Traceback" not in fw.stderr_text()


async def test_an_unreadable_colour_gives_no_ball_and_the_engine_asks(tmp_path, fwdir, started) -> None:
    """Keglebillard: red and white read; an empty pocket, two balls at once and a reading
    buried in noise are no ball, and the red-in-hole rule asks the referee."""
    fw = fitl.start_firmware(_board(tmp_path, "kegle"), realtime=False, firmware_dir=fwdir)
    started.append(fw)
    edges = (_goal(0, 0, colour=1) + _goal(200_000, 1, colour=2) + _goal(400_000, 2, colour=0)
             + _goal(600_000, 3, colour=[1, 2]) + _goal(800_000, 4, colour=1, noise=400)
             + _goal(1_000_000, 5, rgb=[0, 40, 0]))
    edges.sort(key=lambda e: e["t_us"])
    got = await _events(fw, "kegle", edges, 6)
    assert [(e.pocket, e.ball) for e in got] == [(1, "red"), (2, "white"), (3, None), (4, None), (5, None),
                                                (6, None)]
    from test_kegle_rules import Match

    m = Match().ev("pin", pin=1, state="down").ev("pocket", pocket=got[2].pocket, ball=got[2].ball).rest()
    q = m.state["questions"][0]
    assert q["rule"] == "kegle.fault.red-in-hole" and q["options"] == ["white", "red"]


def _learn_setup(tmp_path: Path, fwdir: Path, started: list[fitl.FirmwareProcess],
                 pid: str = "golf") -> tuple[fitl.FirmwareProcess, Path]:
    prof = tmp_path / "table" / f"{pid}.toml"
    prof.parent.mkdir()
    shutil.copy(ROOT / "hardware" / "profiles" / f"{pid}.toml", prof)
    fw = fitl.start_firmware(_board(tmp_path, pid), realtime=True, firmware_dir=fwdir)
    started.append(fw)
    return fw, prof


def test_doctor_learns_the_colours_and_writes_the_profile(tmp_path, fwdir, started) -> None:
    fw, path = _learn_setup(tmp_path, fwdir, started)
    profile = load_profile(path)
    said: list[str] = []
    balls = {"p1": [{"rgb": [24, 9, 7]}], "p2": [{"rgb": [15, 17, 8]}]}  # red, yellow: not the stock ones

    def prompt(step: doctor_cmd.Step) -> None:
        line = {"ch": step.ch, "colour": 0} if step.ball is None else {"ch": step.ch, **balls[step.ball][0]}
        fw.send_edges([line])
        import time

        time.sleep(0.05)  # two integrations of 9.6 ms and the firmware's passes

    with serial.serial_for_url(fw.port, baudrate=115200, timeout=0.05) as ser:
        refs = doctor_cmd.learn_colours(ser, profile, prompt=prompt, samples=8, say=said.append)
        toml_path, board = doctor_cmd.write_learned(profile, refs, "learned in a test")
    assert [(r.ch, r.ball) for r in refs] == [(0, "p1"), (0, "p2"), (1, "p1"), (1, "p2")]
    red = refs[0]
    assert abs(red.r - 600) < 25 and abs(red.g - 225) < 25 and abs(red.b - 175) < 25, red
    assert 30 <= red.max_dist <= 200 and 0 < red.min_clear < red.clear
    new = profile_from_dict(tomllib.loads(toml_path.read_text()))
    assert new.colour is not None and new.colour.refs == tuple(refs)
    assert json.loads(board.read_text()) == board_config(new)
    assert "learned in a test" in toml_path.read_text()
    assert "# Golf billiards table" in toml_path.read_text()  # the rest of the file as it was
    assert any("empty sensor" in s for s in said)


def test_doctor_refuses_two_balls_it_cannot_tell_apart(tmp_path, fwdir, started) -> None:
    fw, path = _learn_setup(tmp_path, fwdir, started)
    profile = load_profile(path)
    before = path.read_text()

    def prompt(step: doctor_cmd.Step) -> None:
        same = {"ch": step.ch, "rgb": [20, 14, 8]}  # both balls alike
        fw.send_edges([{"ch": step.ch, "colour": 0} if step.ball is None else same])
        import time

        time.sleep(0.05)

    with serial.serial_for_url(fw.port, baudrate=115200, timeout=0.05) as ser:
        with pytest.raises(LearnError, match="the p1 and p2 balls look alike to its sensor"):
            doctor_cmd.learn_colours(ser, profile, prompt=prompt, samples=6, channels=[0], say=lambda s: None)
    assert path.read_text() == before
