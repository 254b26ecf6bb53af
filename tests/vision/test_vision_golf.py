"""Golf from the overhead camera: its rest positions decide zone play as the true positions do.

The simulated camera (tablesense.sim.camera) films golf shots on the golf table (goals and
pegs drawn); ``TableWatcher(game="golf")`` reads them, its events are merged with the
sensors' (goal sensors, cushion sensors without the ball) as ``tablesense run --camera``
merges them, and the golf engine rules from the result. The same shots with the physics'
own events (full information) are the truth.
"""

from __future__ import annotations

import copy
import json
import math
from typing import Any

import numpy as np
import pytest

from tablesense.events import Event, Rest
from tablesense.replay import Replay
from tablesense.rules.golf import geometry as geo
from tablesense.sim.camera import ShotFilm, SimCamera
from tablesense.sim.camera_shots import GOLF_TAIL
from tablesense.sim.physics import Shot, Table
from tablesense.sim.sensors import table_events
from tablesense.sim.tables import XY, table_spec
from tablesense.vision.calibrate import calibrate
from tablesense.vision.lens import overhead
from tablesense.vision.merge import merge_shot
from tablesense.vision.watch import TableWatcher, alike_names

SPEC = table_spec("golf")


@pytest.fixture(scope="module")
def camera() -> SimCamera:
    return SimCamera(SPEC, seed=7)


def watcher_for(camera: SimCamera) -> TableWatcher:
    return TableWatcher(camera.model, SPEC.length, SPEC.width, SPEC.ball_radius, game="golf", cushions={})


def camera_events(watcher: TableWatcher, film: ShotFilm) -> list[Event]:
    """The shot as ``run --camera`` has it: the sensors' events with the camera's merged in."""
    seen = [e for t, frame in film.frames() for e in watcher.feed(t, frame)]
    sensors = table_events(film.truth.happenings, None, full_info=False)
    return merge_shot(sensors, seen)


def zone_play_p2_two_balls_left() -> list[dict[str, Any]]:
    """p1 down to one ball (zone play), p2 down to two and at the table (test_golf_helpers' log)."""
    out: list[dict[str, Any]] = [
        {"t": 0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}
    ]
    t = 1.0
    for player, goal, n in (("p1", "B", 4), ("p2", "A", 3)):
        for _ in range(n):
            out += [{"t": t, "type": "goal", "goal": goal, "ball": player}, {"t": t + 1, "type": "rest"}]
            t += 2
        if player == "p1":
            out += [{"t": t, "type": "cushion", "cushion": 2, "ball": None}, {"t": t + 1, "type": "rest"}]
            t += 2
    return out


def ruled(log: list[dict[str, Any]], *shots: list[Event]) -> dict[str, Any]:
    lines = [json.dumps(e) for e in log] + [json.dumps(e.to_dict()) for shot in shots for e in shot]
    rep = Replay().feed_lines(lines)
    assert not rep.errors, rep.errors
    return rep.to_json()


def rules_after(state: dict[str, Any], n: int) -> list[str]:
    return [r["rule"] for r in state["rulings"][n:]]


def test_zone_play_decided_from_the_camera_positions_as_from_the_truth(camera: SimCamera) -> None:
    log = zone_play_p2_two_balls_left()
    before = ruled(log)
    assert before["zone_play"] and before["balls_left"] == {"p1": 1, "p2": 2}
    n0 = len(before["rulings"])
    # p2 scores one ball in goal A (p2 stays); the camera's rest gives where the other two lie
    lay = {"p1.1": (1.30, 0.75), "p2.1": (0.30, 0.50), "p2.2": (0.45, 0.15)}
    to_goal = math.degrees(math.atan2(geo.GOALS["A"][1] - 0.50, geo.GOALS["A"][0] - 0.30))
    first = camera.film(Table(SPEC, lay), Shot("p2.1", to_goal, 0.8), t0=100.0, tail=GOLF_TAIL)
    watcher = watcher_for(camera)
    cam1, true1 = camera_events(watcher, first), first.truth.events
    rest1 = next(e for e in cam1 if isinstance(e, Rest))
    true_rest: dict[str, XY] = dict(first.truth.happenings[-1].positions or {})
    assert set(true_rest) == {"p1.1", "p2.2"}
    for ball, xy in true_rest.items():
        (seen,) = rest1.positions[ball.split(".")[0]]
        assert math.dist(seen, xy) < 0.003, ball
    t0 = float(first.times[-1]) + 2.0
    # then p2 plays its last ball: a touch that stays in its zone, or a roll onto the next zone's line
    for speed, foul in ((0.2, True), (0.3, False)):
        film = camera.film(Table(SPEC, true_rest), Shot("p2.2", 0.0, speed), t0=t0)
        branch = copy.copy(watcher)  # the same camera, where it saw the balls lie after the goal
        branch.cutter = copy.deepcopy(watcher.cutter)
        cam2 = camera_events(branch, film)
        from_camera = rules_after(ruled(log, cam1, cam2), n0)
        from_truth = rules_after(ruled(log, true1, film.truth.events), n0)
        assert from_camera == from_truth
        assert ("golf.zone.leave" in from_camera) is foul, from_camera
        assert from_camera[0] == "golf.goal"


def test_calibration_from_a_golf_table_picture_maps_the_bed_to_within_3_mm() -> None:
    # the goals' holes and the pegs lie inside the cloth's outline: they must not bend it
    true = overhead(
        1280,
        720,
        SPEC.length,
        SPEC.width,
        camera_height=2.2,
        fill=0.62,
        k1=-0.12,
        tilt=-2.0,
        yaw=1.5,
        offset=(0.02, 0.03),
    )
    cam = SimCamera(SPEC, true, cue=False, seed=1)
    film = cam.film(Table(SPEC, dict(SPEC.start)), Shot("p1.3", 0.0, 0.5), t0=5.0)
    cal = calibrate(cam.render(film, 4.5), SPEC.length, SPEC.width, camera_height=2.2)
    r = SPEC.ball_radius
    grid = np.array(
        [[x, y] for x in np.linspace(r, SPEC.length - r, 9) for y in np.linspace(r, SPEC.width - r, 5)]
    )
    uv = true.project(np.column_stack([grid, np.full(len(grid), r)]))
    err = np.hypot(*(cal.model.bed_from_image(uv, r) - grid).T)
    assert err.max() < 0.003


def test_alike_balls_keep_their_names_whichever_order_they_are_found_in() -> None:
    # two of p1's balls rolled towards the middle, both now nearer where p1.1 lay: frame after
    # frame they must keep one naming, or the tracker sees them jump and the shot never rests
    lying = {"p1.1": (0.5, 0.5), "p1.2": (1.5, 0.5)}
    a, b = (0.8, 0.5), (0.95, 0.5)
    names = ["p1.1", "p1.2", "p1.3"]
    assert alike_names([a, b], names, lying) == alike_names([b, a], names, lying) == {"p1.1": a, "p1.2": b}
    # a name never seen lying takes a ball only when the known ones are taken
    assert alike_names([a, b, (0.2, 0.2)], names, lying)["p1.3"] == (0.2, 0.2)
