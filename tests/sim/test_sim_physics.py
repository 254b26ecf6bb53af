"""The simulated tables behave like tables: energy goes, balls stay on, shots score."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.sim.physics import BadShot, Shot, Table
from tablesense.sim.tables import UnknownTable, table_spec


def kinds(happenings, kind):
    return [h for h in happenings if h.kind == kind]


@settings(max_examples=25, deadline=None)
@given(
    game=st.sampled_from(["golf", "kegle", "carom"]),
    direction=st.floats(0, 360),
    speed=st.floats(0.2, 5.5),
    curve=st.floats(-2, 2),
)
def test_energy_goes_down_and_balls_stay_on_the_table(game, direction, speed, curve):
    spec = table_spec(game)
    table = Table(spec)
    trace: list[tuple[float, float]] = []
    happenings = table.shoot(Shot(spec.ball_names[0], direction, speed, curve=curve), trace=trace)
    energies = [e for _, e in trace]
    assert energies[-1] == 0.0
    for before, after in itertools.pairwise(energies):
        assert after <= before * 1.0001 + 1e-9
    assert happenings[-1].kind == "rest"
    gone = {h.ball for h in happenings if h.kind in ("goal", "pocket", "off_table")}
    assert set(table.balls) == set(spec.ball_names) - gone
    for xy in table.positions().values():
        assert spec.on_bed(xy, margin=0.002)
    # no ball jumps at these speeds
    assert not kinds(happenings, "off_table")


def test_a_hard_shot_into_a_cushion_jumps_the_ball_off():
    spec = table_spec("carom")
    table = Table(spec, positions={"yellow": (1.0, 0.71)})
    happenings = table.shoot(Shot("yellow", 0, 9.0))
    assert [h.ball for h in kinds(happenings, "off_table")] == ["yellow"]
    assert table.balls == ()


def test_golf_straight_shot_into_the_goal_scores():
    spec = table_spec("golf")
    table = Table(spec, positions={"p1.1": (1.30, spec.width / 2)})
    happenings = table.shoot(Shot("p1.1", 0, 1.5), t0=10.0)
    goals = kinds(happenings, "goal")
    assert [(h.where, h.ball) for h in goals] == [("B", "p1.1")]
    assert 10.0 < goals[0].t < 11.0
    assert "p1.1" not in table.balls


def test_golf_pegs_stop_a_ball_played_into_the_cross():
    spec = table_spec("golf")
    table = Table(spec, positions={"p1.1": (0.5, spec.width / 2)})
    happenings = table.shoot(Shot("p1.1", 0, 1.0))
    assert kinds(happenings, "peg")
    # it bounces back off the first peg of the cross: never reaches goal B
    assert [h.where for h in kinds(happenings, "goal")] in ([], ["A"])
    assert all(x < spec.length / 2 for x, _ in table.positions().values())


@pytest.mark.parametrize("pocket", [1, 2, 3, 4, 5, 6])
def test_kegle_straight_shot_into_a_pocket_drops(pocket):
    import math

    spec = table_spec("kegle")
    px, py = spec.pockets[pocket]
    cx, cy = spec.pins[1]
    away = math.hypot(cx - px, cy - py)
    start = (px + 0.4 * (cx - px) / away, py + 0.4 * (cy - py) / away)  # clear of the pins
    direction = math.degrees(math.atan2(py - start[1], px - start[0]))
    table = Table(spec, positions={"red": start})
    happenings = table.shoot(Shot("red", direction, 3.0))
    assert [(h.where, h.ball) for h in kinds(happenings, "pocket")] == [(pocket, "red")]


def test_kegle_ball_through_the_pins_topples_them_once_each():
    spec = table_spec("kegle")
    cx, cy = spec.pins[1]
    table = Table(spec, positions={"white.1": (cx - 0.5, cy), "red": (0.2, 0.2)})
    happenings = table.shoot(Shot("white.1", 0, 2.0))
    pins = [h.where for h in kinds(happenings, "pin")]
    assert 1 in pins and 2 in pins
    assert len(pins) == len(set(pins))
    assert {h.ball for h in kinds(happenings, "pin")} == {"white.1"}
    assert table.pins_down == set(pins)
    table.pins_up()
    assert table.pins_down == set()


def test_carom_shot_along_three_cushions_reports_them_in_order():
    spec = table_spec("carom")
    table = Table(spec, positions={"yellow": (1.0, 0.3)})
    happenings = table.shoot(Shot("yellow", 20, 5.0))
    cushions = [(h.where, h.ball) for h in kinds(happenings, "cushion")]
    # straight-line reflections: foot (3), right long (2), head (1)
    assert cushions[:3] == [(3, "yellow"), (2, "yellow"), (1, "yellow")]
    times = [h.t for h in happenings]
    assert times == sorted(times)


def test_ball_contacts_name_both_balls_and_follow_changes_the_cue_ball_path():
    spec = table_spec("carom")
    ends = []
    for follow in (-1.0, 0.0, 1.0):
        table = Table(spec, positions={"yellow": (0.7, 0.71), "red": (1.0, 0.71)})
        happenings = table.shoot(Shot("yellow", 0, 0.6, follow=follow))
        assert next((h.ball, h.other) for h in kinds(happenings, "contact")) == ("yellow", "red")
        ends.append(table.positions()["yellow"][0])
    draw, stun, follow_through = ends
    assert draw < stun < follow_through


def test_same_shot_same_happenings():
    spec = table_spec("golf")
    runs = []
    for _ in range(2):
        table = Table(spec)
        runs.append(table.shoot(Shot("p1.3", 7.5, 3.0, curve=0.5)))
    assert runs[0] == runs[1]
    assert runs[0][-1].positions == runs[1][-1].positions


def test_bad_shots_and_tables_are_refused_with_a_reason():
    spec = table_spec("carom")
    table = Table(spec)
    with pytest.raises(BadShot, match="not on the table"):
        table.shoot(Shot("p1.1", 0, 1.0))
    with pytest.raises(BadShot, match="speed"):
        Shot("yellow", 0, -1.0)
    with pytest.raises(BadShot, match="not on the bed"):
        table.place("red", (5.0, 0.2))
    with pytest.raises(UnknownTable, match="tables: match"):
        table_spec("carom", "3.10")
    with pytest.raises(UnknownTable, match="games"):
        table_spec("snooker")


@pytest.mark.parametrize("size,length", [("match", 2.84), ("2.10", 2.10)])
def test_carom_tables_have_their_sizes(size, length):
    spec = table_spec("carom", size)
    assert spec.length == length
    assert spec.width == length / 2



def _play_filmed(table, shot, t0=0.0):
    steps: list[tuple[float, dict]] = []
    happenings = table.shoot(shot, t0=t0, on_step=lambda t, p: steps.append((t, p)))
    return happenings, [h.positions for h in happenings], steps


@settings(max_examples=20, deadline=None)
@given(
    game=st.sampled_from(["golf", "kegle", "carom"]),
    ball=st.integers(0, 9),
    direction=st.floats(0, 360),
    speed=st.floats(0.1, 9.0),
    follow=st.floats(-1, 1),
    curve=st.floats(-3, 3),
    t0=st.floats(0, 5000),
)
def test_shots_stepped_past_pymunks_wrapper_are_the_shots_pymunk_steps(game, ball, direction, speed, follow,
                                                                        curve, t0):
    """Table.shoot calls Chipmunk's step itself while pymunk has nothing queued; pymunk's own
    Space.step on every step gives the same happenings, times, positions and camera frames."""
    from tablesense.sim import physics

    spec = table_spec(game)
    shot = Shot(spec.ball_names[ball % len(spec.ball_names)], direction, speed, follow, curve)
    fast = _play_filmed(Table(spec), shot, t0)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(physics, "_pymunk_idle", lambda space: False)
        ordinary = _play_filmed(Table(spec), shot, t0)
    assert fast == ordinary


def test_what_the_camera_hook_queues_in_pymunk_is_run_by_the_next_step():
    spec = table_spec("carom")
    table = Table(spec, positions={"yellow": (1.0, 0.3), "white": (0.5, 1.0), "red": (2.0, 0.4)})
    ran: list[float] = []

    def film(t, positions):
        if len(ran) < 3:
            table.space.add_post_step_callback(lambda space, t=t: ran.append(t), key=t)

    happenings = table.shoot(Shot("yellow", 20, 3.0), on_step=film)
    assert len(ran) == 3 and ran == sorted(ran)
    again = Table(spec, positions={"yellow": (1.0, 0.3), "white": (0.5, 1.0), "red": (2.0, 0.4)})
    assert again.shoot(Shot("yellow", 20, 3.0)) == happenings
