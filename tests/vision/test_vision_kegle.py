"""Keglebillard from the overhead camera: the red and the two whites found among the white pins.

The simulated camera (tablesense.sim.camera) films kegle shots with the five pins drawn
(white, standing, or lying once the physics topples them); ``TableWatcher(game="kegle")``,
built as ``vision.live.load_watcher`` builds it, reads them. Its events are merged with the
sensors' (pins, pockets, cushions without the ball) as ``tablesense run --camera`` merges
them; the physics' own events are the truth.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tablesense.events import Contact, Event, Rest
from tablesense.rules.kegle.shot import read_shot
from tablesense.sim.camera import ShotFilm, SimCamera
from tablesense.sim.camera_shots import KEGLE_TAIL
from tablesense.sim.physics import Shot, Table
from tablesense.sim.players import ghost_aim
from tablesense.sim.sensors import table_events
from tablesense.sim.tables import XY, table_spec
from tablesense.vision.cushion_hits import cushion_numbers
from tablesense.vision.merge import merge_shot
from tablesense.vision.watch import TableWatcher

SPEC = table_spec("kegle")
#: a "white" seen this far from both true whites is something else: a pin
NOT_A_WHITE = 0.010


@pytest.fixture(scope="module")
def camera() -> SimCamera:
    return SimCamera(SPEC, seed=5)


def watcher_for(camera: SimCamera) -> TableWatcher:
    return TableWatcher(
        camera.model, SPEC.length, SPEC.width, SPEC.ball_radius, game="kegle",
        cushions=cushion_numbers(SPEC.cushions),
    )


def red_onto_white(lay: dict[str, XY], speed: float) -> Shot:
    """The red played to send white.1 at the centre pin (as players.KeglePlayer aims)."""
    return Shot("red", ghost_aim(lay["red"], lay["white.1"], SPEC.pins[1], SPEC.ball_radius), speed)


def watched(
    camera: SimCamera, lay: dict[str, XY], speed: float
) -> tuple[ShotFilm, TableWatcher, list[Event]]:
    film = camera.film(Table(SPEC, lay), red_onto_white(lay, speed), t0=5.0, tail=KEGLE_TAIL)
    watcher = watcher_for(camera)
    seen = [e for t, frame in film.frames() for e in watcher.feed(t, frame)]
    return film, watcher, seen


def whites_not_white(film: ShotFilm, watcher: TableWatcher) -> int:
    """Frames of the shot where the camera had a white more than ``NOT_A_WHITE`` from both whites."""
    track = watcher.last_track
    assert track is not None
    n = 0
    for name in ("white.1", "white.2"):
        for t, (x, y) in zip(track.times, track.tracks[name]):
            if np.isnan(x):
                continue
            truth = [p for b in ("white.1", "white.2") if (p := film.position(b, float(t)))]
            n += min(math.dist((x, y), p) for p in truth) > NOT_A_WHITE
    return n


def test_a_white_into_the_pins_and_a_carambole_read_as_the_truth_reads_them(camera: SimCamera) -> None:
    # the red sends white.1 into the pins (two fall), runs on round the table onto white.2
    lay = {"red": (1.8, 0.3), "white.1": (1.25, 0.60), "white.2": (0.40, 0.30)}
    film, watcher, seen = watched(camera, lay, 1.5)
    assert film.pins_down, "the shot must topple pins for the test to mean anything"
    rest = next(e for e in seen if isinstance(e, Rest))
    true_rest: dict[str, XY] = dict(film.truth.happenings[-1].positions or {})
    assert set(true_rest) == {"red", "white.1", "white.2"}
    pos = rest.positions or {}
    assert math.dist(pos["red"], true_rest["red"]) < 0.003
    whites = pos["white"]
    assert len(whites) == 2  # the pins, lying or standing, are no third white
    for ball in ("white.1", "white.2"):
        assert min(math.dist(w, true_rest[ball]) for w in whites) < 0.003, ball
    assert whites_not_white(film, watcher) == 0
    # merged with the pin switches, the shot scores as the physics' own events score it
    sensors = table_events(film.truth.happenings, None, full_info=False)
    from_camera = read_shot(merge_shot(sensors, seen), frozenset())
    truth = read_shot(film.truth.events, frozenset(), full_info=True)
    assert truth.carambole and truth.toppled
    assert (from_camera.carambole, from_camera.toppled, from_camera.by_red) == (
        truth.carambole, truth.toppled, truth.by_red,
    )


def test_a_white_run_past_the_other_whites_place_keeps_its_name(camera: SimCamera) -> None:
    # white.1 runs up the table through the pins to about as near white.2's place as its own:
    # named by where the whites lay before the shot, the names swapped and no contact was said
    lay = {"red": (0.55, 0.35), "white.1": (0.92, 0.50), "white.2": (1.70, 0.85)}
    film, watcher, seen = watched(camera, lay, 1.2)
    assert watcher.last is not None and watcher.last.doubts == []
    contacts = [e.balls for e in seen if isinstance(e, Contact)]
    assert contacts == [("red", "white")]
    assert whites_not_white(film, watcher) == 0


def contacts_seen(camera: SimCamera, lay: dict[str, XY], shot: Shot) -> tuple[list[float], TableWatcher]:
    film = camera.film(Table(SPEC, lay), shot, t0=5.0, tail=KEGLE_TAIL)
    watcher = watcher_for(camera)
    seen = [e for t, frame in film.frames() for e in watcher.feed(t, frame)]
    return [e.t for e in seen if isinstance(e, Contact)], watcher


def test_a_red_struck_from_beside_a_white_has_not_touched_it(camera: SimCamera) -> None:
    # the red lies 22 mm from white.1 and is played away past it onto white.2: the strike set it
    # moving, not a touch (two red-white contacts would score a false carambole)
    lay = {"red": (1.478, 0.4775), "white.1": (1.557, 0.505), "white.2": (1.512, 0.90)}
    contacts, _ = contacts_seen(camera, lay, Shot("red", 80.88, 1.5))
    assert len(contacts) == 1 and contacts[0] > 5.2


def test_a_white_gone_into_a_pocket_leaves_the_contact_said(camera: SimCamera) -> None:
    # the red sends white.1 into the foot-left corner pocket: the white, never seen again, is
    # in the pocket (its sensor says so), not hidden where it could have touched a ball
    lay = {"red": (1.55, 0.45), "white.1": (1.9, 0.2), "white.2": (0.6, 0.8)}
    aim = ghost_aim(lay["red"], lay["white.1"], SPEC.pockets[3], SPEC.ball_radius)
    contacts, watcher = contacts_seen(camera, lay, Shot("red", aim, 1.2))
    assert watcher.last is not None and watcher.last.doubts == []
    assert len(contacts) == 1
