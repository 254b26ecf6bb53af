"""The camera's ball finder and calibration: following the balls in windows costs no
accuracy, the ball colours learnt at calibration find balls a camera's white balance hides
from the defaults, and the diamonds make the bed's mapping several times finer."""

from __future__ import annotations

import json
import math

import cv2
import numpy as np
import pytest

from tablesense.sim.camera import SimCamera
from tablesense.sim.physics import Shot, Table
from tablesense.sim.tables import table_spec
from tablesense.vision.calibrate import calibrate
from tablesense.vision.colour_fit import fit_colours
from tablesense.vision.colours import colours_for, colours_to_json
from tablesense.vision.detect import BallFinder
from tablesense.vision.follow import BallFollower
from tablesense.vision.lens import BadCalibration, CameraModel, overhead, save_model
from tablesense.vision.live import load_watcher
from tablesense.vision.table_dress import RAIL_HEIGHT, diamonds

CAROM = table_spec("carom")
#: a warmer white balance (a tungsten lamp): less blue, more red
WARM = (0.72, 0.95, 1.12)


@pytest.fixture(scope="module")
def camera() -> SimCamera:
    """The carom table's simulated camera (building one takes a second or two)."""
    return SimCamera(CAROM, seed=3)


def cast(frame: np.ndarray, bgr: tuple[float, float, float]) -> np.ndarray:
    return np.clip(frame.astype(np.float32) * np.array(bgr, np.float32), 0, 255).astype(np.uint8)


def still(camera: SimCamera, layout: dict[str, tuple[float, float]]) -> tuple[np.ndarray, dict]:
    """A picture of the balls lying at ``layout`` (a second before the cue comes) and the true
    positions."""
    film = camera.film(Table(camera.spec, layout), Shot(next(iter(layout)), 0.0, 0.01), t0=5.0)
    return camera.render(film, 4.0), film.truth.rest


def finder_for(camera: SimCamera, colours=None) -> BallFinder:
    s = camera.spec
    return BallFinder(camera.model, s.length, s.width, s.ball_radius, colours or colours_for("carom"))


def errors_mm(found: dict, truth: dict) -> dict[str, list[float]]:
    return {k: [1000 * math.dist((s.x, s.y), truth[k]) for s in v] for k, v in found.items()}


def same_sightings(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        len(a[k]) == len(b[k])
        and all(abs(p.x - q.x) < 1e-9 and abs(p.y - q.y) < 1e-9 and p.outline == q.outline
                for p, q in zip(a[k], b[k]))
        for k in a
    )


@pytest.mark.parametrize("game", ["carom", "kegle"])
def test_following_the_balls_finds_in_every_frame_what_the_whole_bed_finds(game: str) -> None:
    spec = table_spec(game)
    camera = SimCamera(spec, seed=5)
    layout = dict(spec.start)
    cue = "yellow" if game == "carom" else "white.1"
    table = Table(spec, layout)
    aim = math.degrees(math.atan2(layout["red"][1] - layout[cue][1], layout["red"][0] - layout[cue][0]))
    film = camera.film(table, Shot(cue, aim + 2.0, 1.4), t0=5.0, lead=0.4)
    until = film.truth.contacts[0][0] + 0.3  # the arm, the strike, the contact and after
    colours = colours_for(game)
    finder = BallFinder(camera.model, spec.length, spec.width, spec.ball_radius, colours)
    follower = BallFollower(finder)
    frames = 0
    for t, frame in film.frames():
        if t > until:
            break
        assert same_sightings(follower.find(t, frame), finder.find(frame)), t
        frames += 1
    assert follower.whole < 0.3 * frames  # and most frames looked only in the windows


def test_a_window_cutting_a_ball_sends_its_colour_to_the_whole_bed(camera: SimCamera) -> None:
    frame, truth = still(camera, dict(CAROM.start))
    finder = finder_for(camera)
    ((u, v),) = camera.model.project(np.array([[*truth["red"], CAROM.ball_radius]]))
    rho = finder.rho
    near = finder.find_near(frame, {"red": [(u + 1.5 * rho, v, 1.2 * rho)]})
    assert near["red"] is None
    near = finder.find_near(frame, {"red": [(u + 0.5 * rho, v - 0.5 * rho, 3 * rho)]})
    assert same_sightings({"red": near["red"]}, {"red": finder.find(frame)["red"]})


GOLF = table_spec("golf")
#: a golf ball's centre this far (m) from a peg's or a goal's centre: its edge ``gap`` off the
#: peg's (whose top, 40 mm up, leans towards the ball in the picture) or off the hole's
_R, _PEG = GOLF.ball_radius, GOLF.peg_radius


def aside(centre: tuple[float, float], far: float, degrees: float) -> tuple[float, float]:
    """The point ``far`` metres from ``centre`` towards ``degrees``."""
    a = math.radians(degrees)
    return centre[0] + far * math.cos(a), centre[1] + far * math.sin(a)


@pytest.fixture(scope="module")
def golf_camera() -> SimCamera:
    return SimCamera(GOLF, seed=3)


@pytest.mark.parametrize(
    ("where", "ball"),
    [
        ("2 mm beside goal A's peg", (0.04, 0.51 + _PEG + _R + 0.002)),
        ("3 mm from a cross peg, aslant", aside((0.97, 0.45), _PEG + _R + 0.003, -45)),
        ("12 mm from a cross peg", (0.90, 0.52 + _PEG + _R + 0.012)),
        ("half over goal A's hole", (0.06 + GOLF.goal_radius + 0.001, 0.45)),
        ("over goal B's hole, aslant", aside((1.74, 0.45), GOLF.goal_radius + 0.002, -135)),
    ],
)
def test_a_golf_ball_by_a_peg_or_over_a_goal_is_found_within_2_mm_in_every_frame(
    golf_camera: SimCamera, where: str, ball: tuple[float, float]
) -> None:
    layout = {"p1.1": ball, "p2.1": (1.2, 0.2)}
    film = golf_camera.film(Table(GOLF, layout), Shot("p2.1", 0.0, 0.01), t0=5.0)
    s = GOLF
    finder = BallFinder(golf_camera.model, s.length, s.width, s.ball_radius, colours_for("golf"))
    seen = []
    for k in range(4):  # four frames' sensor noise: the place must not flicker between two centres
        found = finder.find(golf_camera.render(film, 4.0, k))["p1"]
        assert len(found) == 1, where
        seen.append((found[0].x, found[0].y))
    errors = [1000 * math.dist(p, film.truth.rest["p1"]) for p in seen]
    assert max(errors) < 2.0, (where, errors)
    assert max(1000 * math.dist(p, seen[0]) for p in seen) < 1.0, (where, seen)


def test_two_touching_carom_balls_are_each_found_as_well_as_a_ball_alone(camera: SimCamera) -> None:
    for degrees in (0, 45, 180, 270):  # the red on each side of the white
        red = aside((1.0, 0.7), 2.0005 * CAROM.ball_radius, degrees)
        frame, truth = still(camera, {"yellow": (2.2, 0.4), "white": (1.0, 0.7), "red": red})
        err = errors_mm(finder_for(camera).find(frame), truth)
        assert all(len(e) == 1 and e[0] < 0.7 for e in err.values()), (degrees, err)


def test_colours_learnt_at_calibration_find_the_white_a_warm_white_balance_hides(camera: SimCamera) -> None:
    picture, _ = still(camera, dict(CAROM.start))
    # the balls elsewhere, in the lamps' light and in a dark corner
    later, truth = still(camera, {"yellow": (0.3, 0.2), "red": (2.7, 1.3), "white": (0.15, 1.3)})
    picture, later = cast(picture, WARM), cast(later, WARM)
    hue = (85, 109)  # the cloth as calibration finds it in the warm picture
    learnt, missing = fit_colours(
        picture, camera.model, CAROM.length, CAROM.width, CAROM.ball_radius, colours_for("carom"), hue
    )
    assert missing == []
    defaults = BallFinder(camera.model, CAROM.length, CAROM.width, CAROM.ball_radius,
                          colours_for("carom"), cloth_hue=hue).find(later)
    assert defaults["white"] == []  # the white ball looks yellowish: the default white misses it
    found = BallFinder(camera.model, CAROM.length, CAROM.width, CAROM.ball_radius, learnt,
                       cloth_hue=hue).find(later)
    err = errors_mm(found, truth)
    assert all(len(e) == 1 and e[0] < 3.0 for e in err.values()), err


def test_colours_learnt_on_a_neutral_camera_find_what_the_defaults_find(camera: SimCamera) -> None:
    picture, _ = still(camera, dict(CAROM.start))
    later, truth = still(camera, {"yellow": (0.3, 0.2), "red": (2.7, 1.3), "white": (0.15, 1.3)})
    learnt, missing = fit_colours(picture, camera.model, CAROM.length, CAROM.width, CAROM.ball_radius,
                                  colours_for("carom"), (91, 115))
    assert missing == []
    err = errors_mm(finder_for(camera, learnt).find(later), truth)
    assert all(len(e) == 1 and e[0] < 3.0 for e in err.values()), err


def test_a_ball_colour_not_on_the_table_at_calibration_keeps_its_default(camera: SimCamera) -> None:
    picture, _ = still(camera, {"yellow": (0.6, 0.5), "red": (1.9, 0.8)})
    defaults = colours_for("carom")
    learnt, missing = fit_colours(picture, camera.model, CAROM.length, CAROM.width, CAROM.ball_radius,
                                  defaults, (91, 115))
    assert missing == ["white"]
    assert learnt[0] == defaults[0]


def test_learnt_colours_survive_the_calibration_file_and_an_older_file_has_the_defaults(
    camera: SimCamera, tmp_path
) -> None:
    picture, _ = still(camera, dict(CAROM.start))
    learnt, _ = fit_colours(cast(picture, WARM), camera.model, CAROM.length, CAROM.width,
                            CAROM.ball_radius, colours_for("carom"), (85, 109))
    assert learnt != colours_for("carom")
    extra = {"game": "carom", "length": CAROM.length, "width": CAROM.width, "ball_radius": CAROM.ball_radius}
    path = tmp_path / "camera-carom.json"
    save_model(path, camera.model, {**extra, "colours": colours_to_json(learnt)})
    assert load_watcher(path).colours == learnt
    save_model(path, camera.model, extra)  # written before colours were learnt
    assert load_watcher(path).colours == colours_for("carom")
    raw = json.loads(path.read_text())
    raw["colours"] = {"white": {"hues": [[0, 400]], "min_sat": 0, "max_sat": 90, "min_val": 100}}
    path.write_text(json.dumps(raw))
    with pytest.raises(BadCalibration, match="colour 'white' is out of OpenCV's HSV ranges"):
        load_watcher(path)


@pytest.fixture(scope="module")
def tilted() -> tuple[CameraModel, np.ndarray]:
    """A camera hung 2.3 m up, a little off the middle and tilted, and its picture of the table."""
    true = overhead(1280, 720, CAROM.length, CAROM.width, camera_height=2.3, fill=0.8, k1=-0.15,
                    tilt=3.0, yaw=-1.5, offset=(-0.04, 0.03))
    picture, _ = still(SimCamera(CAROM, true, cue=False), dict(CAROM.start))
    return true, picture


def bed_errors_mm(true: CameraModel, model: CameraModel) -> np.ndarray:
    r = CAROM.ball_radius
    grid = np.array([[x, y] for x in np.linspace(r, CAROM.length - r, 9)
                     for y in np.linspace(r, CAROM.width - r, 5)])
    uv = true.project(np.column_stack([grid, np.full(len(grid), r)]))
    return 1000 * np.hypot(*(model.bed_from_image(uv, r) - grid).T)


def test_the_diamonds_refine_the_calibration_to_a_fraction_of_a_millimetre(tilted) -> None:
    true, picture = tilted
    # the height measured with a tape, 3 cm out
    corners = calibrate(picture, CAROM.length, CAROM.width, camera_height=2.33, use_diamonds=False)
    both = calibrate(picture, CAROM.length, CAROM.width, camera_height=2.33)
    assert both.diamonds >= 18
    before, after = bed_errors_mm(true, corners.model), bed_errors_mm(true, both.model)
    assert after.max() < 0.6
    assert np.sqrt(np.mean(after**2)) < 0.3 * np.sqrt(np.mean(before**2))


def test_the_diamonds_correct_a_wide_lens_the_straight_sides_leave_out() -> None:
    # low and wide: the sides' straightness leaves the lens's distortion a little out, which
    # the corners' fit turns into 8 mm at the bed's ends; the diamonds ring the picture
    true = overhead(1280, 720, CAROM.length, CAROM.width, camera_height=2.0, fill=0.8, k1=-0.25,
                    tilt=4.0, yaw=2.0, offset=(0.1, 0.05))
    picture, _ = still(SimCamera(CAROM, true, cue=False), dict(CAROM.start))
    corners = calibrate(picture, CAROM.length, CAROM.width, camera_height=2.0, use_diamonds=False)
    both = calibrate(picture, CAROM.length, CAROM.width, camera_height=2.0)
    assert bed_errors_mm(true, corners.model).max() > 5.0
    assert bed_errors_mm(true, both.model).max() < 1.0


def test_a_glint_beside_a_diamond_does_not_pull_the_calibration(tilted) -> None:
    true, picture = tilted
    picture = picture.copy()
    ((u, v),) = true.project(np.array([[*diamonds(CAROM.length, CAROM.width)[2], RAIL_HEIGHT]]))
    cv2.circle(picture, (round(u) + 6, round(v) + 1), 4, (250, 250, 250), -1)  # larger than a diamond
    cal = calibrate(picture, CAROM.length, CAROM.width, camera_height=2.3)
    assert cal.diamonds == len(diamonds(CAROM.length, CAROM.width)) - 1
    assert bed_errors_mm(true, cal.model).max() < 0.6


def test_calibrate_warns_in_one_line_of_a_ball_colour_not_on_the_table(camera: SimCamera, tmp_path,
                                                                       capsys) -> None:
    from tablesense.cli import main

    picture, _ = still(camera, {"yellow": (0.6, 0.5), "red": (1.9, 0.8)})
    cv2.imwrite(str(tmp_path / "table.png"), cast(picture, WARM))
    out = tmp_path / "camera-carom.json"
    rc = main(["camera", "calibrate", "--camera", str(tmp_path / "table.png"), "--profile", "carom",
               "--calibration", str(out)])
    err = capsys.readouterr().err
    assert rc == 0
    assert err == ("tablesense camera calibrate: warning: no white ball found in the picture: its default "
                   "colour is kept (put the balls on the table and calibrate again)\n")
    watcher = load_watcher(out)
    assert [c.name for c in watcher.colours] == ["white", "yellow", "red"]
    assert watcher.colours[0] == colours_for("carom")[0]  # the default white
    assert watcher.colours[1] != colours_for("carom")[1]  # the yellow learnt under the warm light
