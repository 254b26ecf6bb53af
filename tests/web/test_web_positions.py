"""The snapshot's plan of the table (``view.plan``, web/plan.py): the balls where the last
rest put them, none without positions, junk left out."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from tablesense.errors import TablesenseError
from tablesense.events import parse_event, parse_line
from tablesense.pub import Pub
from tablesense.rules.kegle import geometry as kegle_geometry
from tablesense.store import Store
from tablesense.web import plan, view

CAROM = {"game": "carom", "discipline": "libre", "players": {"p1": "Joop", "p2": "Kees"},
         "targets": {"p1": 30, "p2": 30}}
KEGLE = {"game": "kegle", "players": {"p1": "Mette", "p2": "Lars"}, "distance": 100}
GOLF = {"game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}


@pytest.fixture
def pub(tmp_path: Path) -> Pub:
    p = Pub(Store(str(tmp_path / "pub.db")), ["1", "2"])
    p.view = view.view
    return p


def _shot(pub: Pub, table: str, t: float, positions: dict[str, Any] | None, ball: str | None = None) -> None:
    pub.submit(table, parse_event({"t": t, "type": "cushion", "cushion": 1, "ball": ball}))
    pub.submit(table, parse_event({"t": t + 1.0, "type": "rest",
                                   **({"positions": positions} if positions is not None else {})}))


def _drawn(pub: Pub, table: str = "1") -> dict[str, list[tuple[float, float]]] | None:
    """The snapshot's balls as the TV gets them (JSON: what the wire carries), by ball."""
    snap = json.loads(json.dumps(pub.snapshot(table), allow_nan=False))
    p = snap["view"].get("plan")
    if p is None:
        return None
    out: dict[str, list[tuple[float, float]]] = {}
    for b in p["balls"]:
        out.setdefault(b["ball"], []).append((b["x"], b["y"]))
    return out


def test_the_snapshot_carries_the_last_rests_positions_and_none_without(pub: Pub) -> None:
    for table in ("1", "2"):
        pub.start_match(table, CAROM)
    _shot(pub, "1", 1.0, {"white": [0.71, 0.355], "yellow": [2.13, 1.065], "red": [1.42, 0.71]})
    _shot(pub, "2", 1.0, None)  # a table without a camera
    assert _drawn(pub, "1") == {"white": [(0.71, 0.355)], "yellow": [(2.13, 1.065)], "red": [(1.42, 0.71)]}
    assert "plan" not in pub.snapshot("2")["view"]
    _shot(pub, "1", 5.0, {"white": [0.2, 1.2], "yellow": [2.6, 0.25], "red": [0.9, 0.4]})
    assert _drawn(pub, "1") == {"white": [(0.2, 1.2)], "yellow": [(2.6, 0.25)], "red": [(0.9, 0.4)]}
    plan_ = pub.snapshot("1")["view"]["plan"]
    assert (plan_["length"], plan_["width"]) == (2.84, 1.42)
    assert [b["colour"] for b in plan_["balls"]] == ["white", "yellow", "red"]


def test_a_rest_without_positions_after_one_with_them_leaves_no_old_plan(pub: Pub) -> None:
    pub.start_match("1", CAROM)
    _shot(pub, "1", 1.0, {"white": [0.71, 0.355], "yellow": [2.13, 1.065], "red": [1.42, 0.71]})
    _shot(pub, "1", 5.0, None)  # the camera could not tell: the balls are not where they were
    assert _drawn(pub) is None


def test_the_cameras_rest_beside_the_motion_sensors_rest_of_the_same_moment_counts(pub: Pub) -> None:
    pub.start_match("1", CAROM)
    pub.submit("1", parse_event({"t": 1.0, "type": "cushion", "cushion": 1, "ball": None}))
    pub.submit("1", parse_event({"t": 2.0, "type": "rest"}))  # the motion sensor
    pub.submit("1", parse_event({"t": 2.1, "type": "rest", "positions": {"red": [1.0, 0.5]}}))  # the camera
    assert _drawn(pub) == {"red": [(1.0, 0.5)]}
    pub.submit("1", parse_event({"t": 2.2, "type": "rest"}))  # and the other way round
    assert _drawn(pub) == {"red": [(1.0, 0.5)]}


def test_golf_and_kegle_plans_give_alike_balls_each_and_the_players_colours(pub: Pub) -> None:
    pub.start_match("1", GOLF)
    pub.start_match("2", KEGLE)
    _shot(pub, "1", 1.0, {"p1": [[0.3, 0.2], [0.6, 0.45]], "p2": [[1.2, 0.3]]})
    _shot(pub, "2", 1.0, {"red": [0.56, 0.56], "white": [[1.68, 0.3], [1.9, 0.9]]}, ball="red")
    golf = pub.snapshot("1")["view"]["plan"]
    colours = [(b["ball"], b["colour"]) for b in golf["balls"]]
    assert colours == [("p1", "red"), ("p1", "red"), ("p2", "yellow")]
    assert (golf["length"], golf["width"]) == (1.8, 0.9) and len(golf["goals"]) == 2
    assert len(golf["triangles"]) == 2
    assert _drawn(pub, "2") == {"red": [(0.56, 0.56)], "white": [(1.68, 0.3), (1.9, 0.9)]}
    kegle = pub.snapshot("2")["view"]["plan"]
    assert (kegle["length"], kegle["width"]) == (2.24, 1.12)
    assert len(kegle["pockets"]) == 6 and len(kegle["pins"]) == 5


def test_libres_corner_zones_are_drawn_and_the_one_the_balls_lie_in_is_marked(pub: Pub) -> None:
    pub.start_match("1", CAROM)
    pub.start_match("2", {**CAROM, "discipline": "driebanden", "table": "2.10"})
    # Joop's yellow plays no carom; Kees's object balls (yellow, red) lie in the head-left corner
    corner = {"red": [0.06, 0.05], "yellow": [0.05, 0.08], "white": [2.0, 0.7]}
    _shot(pub, "1", 1.0, corner)
    _shot(pub, "2", 1.0, {"red": [0.06, 0.05], "yellow": [0.05, 0.08], "white": [1.5, 0.5]})
    libre = pub.snapshot("1")["view"]["plan"]
    assert [z["corner"] for z in libre["zones"]] == ["head-left", "head-right", "foot-right", "foot-left"]
    assert libre["zones"][0]["points"] == [[0.0, 0.0], [0.21, 0.0], [0.0, 0.21]]
    assert libre["zone"] == "head-left" == pub.snapshot("1")["state"]["zone"]
    three = pub.snapshot("2")["view"]["plan"]
    assert "zones" not in three  # driebanden has no zones
    assert (three["length"], three["width"]) == (2.10, 1.05)  # the setup's bed


def test_a_voided_rest_takes_its_positions_off_the_tv(pub: Pub) -> None:
    pub.start_match("1", CAROM)
    _shot(pub, "1", 1.0, {"red": [1.0, 0.5]})
    _shot(pub, "1", 5.0, {"red": [2.0, 1.0]})
    assert _drawn(pub) == {"red": [(2.0, 1.0)]}
    last = len(pub.table("1").log)
    pub.void("1", last - 1, last)  # the referee voids the last shot
    assert _drawn(pub) == {"red": [(1.0, 0.5)]}
    pub.submit("1", parse_event({"t": 9.0, "type": "cushion", "cushion": 2, "ball": None}))
    assert _drawn(pub) == {"red": [(1.0, 0.5)]}  # the next shot under way: still not the voided rest
    _shot(pub, "1", 12.0, {"red": [0.5, 0.25]})
    assert _drawn(pub) == {"red": [(0.5, 0.25)]}  # the shot after the void: its rest


JUNK: list[Any] = [
    ["a", "b"], [math.nan, 0.5], [0.5, math.inf], [True, False], [1e300, -1e300], [1.0], [1, 2, 3],
    "red", None, {"x": 1, "y": 2}, [[math.nan, 0.3]], [3.5, 0.5], [0.5, -0.5],
]


@pytest.mark.parametrize("junk", JUNK, ids=repr)
def test_junk_positions_are_left_out_not_drawn(junk: Any) -> None:
    positions = {"red": junk, "white": [1.0, 0.5]}
    drawn = plan.drawing("carom", {}, {}, positions, {})
    assert drawn is not None and [b["ball"] for b in drawn["balls"]] == ["white"]
    json.dumps(drawn, allow_nan=False)  # the wire takes it
    assert plan.drawing("carom", {}, {}, {"red": junk}, {}) is None  # nothing left: no plan


def test_no_more_balls_are_drawn_than_the_game_has_and_off_bed_ones_meet_the_cushion() -> None:
    many: dict[str, Any] = {f"ball{n}": [0.5, 0.5] for n in range(1000)}
    many |= {"white": [[0.5, 0.5]] * 1000, "red": [-0.05, 1.16]}
    drawn = plan.drawing("kegle", {}, {}, many, {})
    assert drawn is not None
    balls = [(b["ball"], b["x"], b["y"]) for b in drawn["balls"]]
    r = kegle_geometry.BALL_RADIUS
    assert balls == [("red", round(r, 4), round(1.12 - r, 4)), ("white", 0.5, 0.5), ("white", 0.5, 0.5)]
    crowd = {"p1": [[0.5, 0.5]] * 50, "p2": [[1.0, 0.4]] * 7}
    golf = plan.drawing("golf", {}, {}, crowd, view.colours("golf"))
    assert golf is not None and len(golf["balls"]) == 10


def test_a_junk_setup_bed_is_the_match_bed() -> None:
    assert plan.bed("carom", {"table": "table 7"})[:2] == (2.84, 1.42)
    assert plan.bed("carom", {"table": 9.99})[:2] == (2.84, 1.42)


def test_a_rest_position_that_is_no_finite_number_is_refused_with_one_line() -> None:
    for line in ('{"t": 1, "type": "rest", "positions": {"red": [NaN, 0.5]}}',
                 '{"t": 1, "type": "rest", "positions": {"white": [[0.5, 0.5], [1e999, 0.5]]}}'):
        with pytest.raises(TablesenseError) as err:
            parse_line(line)
        assert "\n" not in str(err.value) and "must be [x, y] in metres" in str(err.value)
    with pytest.raises(TablesenseError):
        parse_event({"t": 1.0, "type": "rest", "positions": {"red": [math.inf, 0.5]}})


def test_the_server_stays_up_through_hostile_positions(pub: Pub) -> None:
    pub.start_match("1", KEGLE)
    junk: dict[str, Any] = {f"ball{n}": [n, n] for n in range(1000)}
    junk |= {"red": [1e300, -1e300], "white": [[0.5, 0.5]] * 1000}
    _shot(pub, "1", 1.0, junk, ball="red")
    assert _drawn(pub) == {"white": [(0.5, 0.5), (0.5, 0.5)]}
    assert "error" not in pub.snapshot("1")["view"]
    _shot(pub, "1", 5.0, {"red": [0.56, 0.56]}, ball="red")
    assert _drawn(pub) == {"red": [(0.56, 0.56)]}
