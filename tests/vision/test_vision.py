"""The overhead camera, measured on the simulator's own video (no camera needed).

The simulated camera (tablesense.sim.camera) stands in for a real one: no software can
play a camera over a real table; it renders the physics' shots with perspective, lens,
uneven light, noise, blur and the cue and arm, and knows the truth.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import cv2
import numpy as np
import pytest

from tablesense.events import Contact, Cushion, Rest, Strike
from tablesense.sim.camera import SimCamera
from tablesense.sim.physics import Shot, Table
from tablesense.sim.tables import table_spec
from tablesense.vision.calibrate import calibrate
from tablesense.vision.lens import load_model, overhead, save_model
from tablesense.vision.merge import merge_shot
from tablesense.vision.source import watch_file
from tablesense.vision.watch import TableWatcher

SPEC = table_spec("carom")
R = SPEC.ball_radius


@pytest.fixture(scope="module")
def camera() -> SimCamera:
    return SimCamera(SPEC, seed=4)


def watcher_for(camera: SimCamera) -> TableWatcher:
    return TableWatcher(camera.model, SPEC.length, SPEC.width, R)


def aim(table: Table, cue: str, target: str) -> float:
    p = table.positions()
    return math.degrees(math.atan2(p[target][1] - p[cue][1], p[target][0] - p[cue][0]))


def film_of(camera: SimCamera, layout: dict[str, tuple[float, float]], target: str, speed: float):
    table = Table(SPEC, layout)
    return camera.film(table, Shot("yellow", aim(table, "yellow", target) + 1.0, speed), t0=5.0)


def test_camera_sees_the_contact_and_where_the_balls_come_to_rest(camera: SimCamera) -> None:
    film = film_of(camera, {"yellow": (0.6, 0.5), "red": (1.1, 0.62), "white": (2.2, 1.1)}, "red", 1.2)
    watcher = watcher_for(camera)
    events = [e for t, frame in film.frames() for e in watcher.feed(t, frame)]
    truth = film.truth
    contacts = [e for e in events if isinstance(e, Contact)]
    assert [set(e.balls) for e in contacts] == [{a, b} for _, a, b in truth.contacts]
    for e, (t, _a, _b) in zip(contacts, truth.contacts):
        assert abs(e.t - t) < 0.02
    assert next(e for e in events if isinstance(e, Strike)).ball == "yellow"
    rest = next(e for e in events if isinstance(e, Rest))
    for ball, xy in truth.rest.items():
        assert math.dist(rest.positions[ball], xy) < 0.003, ball
    said = {(e.ball, e.cushion) for e in events if isinstance(e, Cushion)}
    assert said == {(b, n) for _, b, n in truth.cushions}


@pytest.mark.slow
def test_a_ball_passed_close_by_is_no_contact(camera: SimCamera) -> None:
    # the yellow runs past the red 8 mm clear of touching it
    layout = {"yellow": (0.5, 0.40), "red": (1.4, 0.40 + 2 * R + 0.008), "white": (2.4, 1.2)}
    table = Table(SPEC, layout)
    film = camera.film(table, Shot("yellow", 0.0, 1.6), t0=5.0)
    assert not film.truth.contacts
    watcher = watcher_for(camera)
    events = [e for t, frame in film.frames() for e in watcher.feed(t, frame)]
    assert not [e for e in events if isinstance(e, Contact)]
    assert any(isinstance(e, Rest) for e in events)


@pytest.mark.slow
def test_calibration_from_a_picture_maps_the_bed_to_within_3_mm(tmp_path) -> None:
    true = overhead(
        1280,
        720,
        SPEC.length,
        SPEC.width,
        camera_height=2.3,
        fill=0.8,
        k1=-0.15,
        tilt=3.0,
        yaw=-1.5,
        offset=(-0.04, 0.03),
    )
    cam = SimCamera(SPEC, true, cue=False)
    film = film_of(cam, SPEC.start, "red", 1.0)
    picture = tmp_path / "table.png"
    cv2.imwrite(str(picture), cam.render(film, 4.0))
    out = tmp_path / "cam.json"
    env = {**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tablesense",
            "camera",
            "calibrate",
            "--camera",
            str(picture),
            "--profile",
            "carom",
            "--height",
            "2.3",
            "--calibration",
            str(out),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert out.with_suffix(".png").exists()
    model, extra = load_model(out)
    assert extra["game"] == "carom"
    grid = np.array(
        [[x, y] for x in np.linspace(R, SPEC.length - R, 9) for y in np.linspace(R, SPEC.width - R, 5)]
    )
    uv = true.project(np.column_stack([grid, np.full(len(grid), R)]))
    err = np.hypot(*(model.bed_from_image(uv, R) - grid).T)
    assert err.max() < 0.003
    # and the model survives its file
    save_model(tmp_path / "again.json", model)
    again, _ = load_model(tmp_path / "again.json")
    assert np.allclose(again.bed_from_image(uv, R), model.bed_from_image(uv, R))


def test_calibration_refuses_a_picture_without_a_table() -> None:
    from tablesense.vision.lens import BadCalibration

    with pytest.raises(BadCalibration, match="cloth"):
        calibrate(np.full((720, 1280, 3), 40, np.uint8), SPEC.length, SPEC.width)


@pytest.mark.slow
def test_a_video_file_through_videocapture_gives_the_same_contacts(camera: SimCamera, tmp_path) -> None:
    film = film_of(camera, {"yellow": (0.7, 0.7), "white": (1.2, 0.75), "red": (2.3, 0.4)}, "white", 1.3)
    path = tmp_path / "shot.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), camera.fps, (1280, 720))
    assert writer.isOpened()
    for _t, frame in film.frames():
        writer.write(frame)
    writer.release()
    events = watch_file(str(path), watcher_for(camera))
    got = [set(e.balls) for e in events if isinstance(e, Contact)]
    assert got == [{a, b} for _, a, b in film.truth.contacts]
    start = float(film.times[0])  # the file's clock starts at its first frame
    for e, (t, _a, _b) in zip([e for e in events if isinstance(e, Contact)], film.truth.contacts):
        assert abs(e.t + start - t) < 0.03


def test_merge_names_the_sensor_cushions_and_adds_contacts_and_positions() -> None:
    sensor = [Cushion(t=1.000, cushion=2), Cushion(t=1.500, cushion=3), Rest(t=3.0)]
    camera = [
        Strike(t=0.5, ball="yellow"),
        Contact(t=0.8, balls=("yellow", "red")),
        Cushion(t=1.012, cushion=2, ball="yellow"),
        Rest(t=2.9, positions={"red": [1.0, 0.5]}),
    ]
    merged = merge_shot(sensor, camera)
    assert [e.to_dict() for e in merged] == [
        {"t": 0.5, "type": "strike", "ball": "yellow"},
        {"t": 0.8, "type": "contact", "balls": ["yellow", "red"]},
        {"t": 1.0, "type": "cushion", "cushion": 2, "ball": "yellow"},
        {"t": 1.5, "type": "cushion", "cushion": 3, "ball": None},  # only the sensor saw it
        {"t": 3.0, "type": "rest", "positions": {"red": [1.0, 0.5]}},
    ]


def test_camera_watch_with_no_calibration_says_so_in_one_line(tmp_path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tablesense",
            "camera",
            "watch",
            "--camera",
            "x.avi",
            "--profile",
            "carom",
            "--calibration",
            str(tmp_path / "none.json"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "cannot read calibration" in done.stderr
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"camera": {"width": 1}}))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tablesense",
            "camera",
            "watch",
            "--camera",
            "x.avi",
            "--profile",
            "carom",
            "--calibration",
            str(bad),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr and "not a camera model" in done.stderr


async def test_live_merge_holds_the_sensor_shot_for_the_camera_positions() -> None:
    import asyncio
    import time

    from tablesense.vision.merge import merged

    start = time.monotonic()

    async def sensor():  # stands in for the link (a real one needs a board): what it yields
        yield Cushion(t=100.0, cushion=2)
        await asyncio.sleep(0.1)
        yield Rest(t=100.1)
        yield "checkpoint after the rest"

    async def camera():  # the camera's reading of the shot, on the host's clock, after its rest
        await asyncio.sleep(0.3)
        yield time.monotonic(), [Cushion(t=start + 0.01, cushion=2, ball="yellow"),
                                 Rest(t=start + 0.09, positions={"yellow": [1.0, 0.5]})]

    got = [item async for item in merged(sensor(), camera(), wait=2.0)]
    assert [e if isinstance(e, str) else e.to_dict() for e in got] == [
        {"t": 100.0, "type": "cushion", "cushion": 2, "ball": "yellow"},
        {"t": 100.1, "type": "rest", "positions": {"yellow": [1.0, 0.5]}},
        "checkpoint after the rest",
    ]


def test_run_with_a_camera_not_calibrated_says_so_in_one_line(tmp_path) -> None:
    done = subprocess.run([sys.executable, "-m", "tablesense", "run", "--serial", "socket://127.0.0.1:9",
                           "--wait", "--profile", "carom", "--camera", "/dev/video9",
                           "--db", str(tmp_path / "t.db")],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 2
    last = done.stderr.strip().splitlines()[-1]
    assert last == "tablesense run: cannot read calibration camera-carom.json: No such file or directory"


def test_alike_balls_rest_as_lists_of_positions() -> None:
    from tablesense.vision.shot_events import ShotReader
    from tablesense.vision.track import ShotTrack

    lying = {"red": (1.0, 0.5), "white.1": (0.5, 0.5), "white.2": (2.0, 0.5)}
    shot = ShotTrack(times=np.arange(10) / 60, tracks={b: np.tile(xy, (10, 1)) for b, xy in lying.items()},
                     rest_t=0.1, rest=lying, done_t=0.45)
    events = ShotReader(2.5, 1.25, 0.03).read(shot).events
    assert [e.to_dict() for e in events] == [
        {"t": 0.1, "type": "rest", "positions": {"red": [1.0, 0.5], "white": [[0.5, 0.5], [2.0, 0.5]]}}]
