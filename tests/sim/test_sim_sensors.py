"""What the simulated sensors report: as the real ones would, or with full information."""

from __future__ import annotations

import itertools
import random

from tablesense.events import Contact, Cushion, Goal, Pin, Pocket, Rest, Strike
from tablesense.sim.physics import Happening, Shot, Table
from tablesense.sim.sensors import pin_edges, pins_up_edges, sensor_set, table_events
from tablesense.sim.tables import table_spec


def carom_three_cushions():
    spec = table_spec("carom")
    table = Table(spec, positions={"yellow": (1.0, 0.3), "red": (2.0, 1.2), "white": (0.5, 1.0)})
    return spec, table.shoot(Shot("yellow", 20, 5.0), t0=100.0)


def test_full_information_names_balls_contacts_strike_and_positions():
    spec = table_spec("carom")
    table = Table(spec, positions={"yellow": (0.7, 0.71), "red": (1.2, 0.71), "white": (0.5, 1.0)})
    happenings = table.shoot(Shot("yellow", 0, 3.0))
    events = table_events(happenings, sensor_set("carom"), full_info=True)
    assert isinstance(events[0], Strike) and events[0].ball == "yellow"
    cushions = [e for e in events if isinstance(e, Cushion)]
    assert cushions and all(e.ball is not None for e in cushions)
    assert any(isinstance(e, Contact) for e in events)
    rest = events[-1]
    assert isinstance(rest, Rest) and set(rest.positions) == {"yellow", "red", "white"}


def test_sensor_mode_reports_only_what_the_table_can_see():
    _spec, happenings = carom_three_cushions()
    events = table_events(happenings, sensor_set("carom"), full_info=False)
    assert {type(e) for e in events} <= {Cushion, Rest}
    assert [e.cushion for e in events if isinstance(e, Cushion)][:3] == [3, 2, 1]
    assert all(e.ball is None for e in events if isinstance(e, Cushion))
    assert events[-1].positions is None


def test_golf_table_has_no_cushion_sensors_but_goals_know_the_ball():
    spec = table_spec("golf")
    table = Table(spec, positions={"p2.1": (0.40, 0.30)})
    happenings = table.shoot(Shot("p2.1", 270, 2.0))
    events = table_events(happenings, sensor_set("golf"), full_info=False)
    assert not any(isinstance(e, Cushion) for e in events)
    full = table_events(happenings, sensor_set("golf"), full_info=True)
    assert any(isinstance(e, Cushion) and e.ball == "p2" for e in full)


def test_goal_beam_break_lasts_as_long_as_the_ball_takes_to_cross():
    spec = table_spec("golf")
    sensors = sensor_set("golf")
    ch = sensors.channel("goal", "B")
    for speed in (0.5, 2.0):
        h = [Happening(1.0, "goal", "p1.2", where="B", speed=speed)]
        lines = pin_edges(h, spec, sensors)
        levels = [line for line in lines if line["ch"] == ch and "level" in line]
        assert [line["level"] for line in levels] == [1, 0]
        width_us = levels[1]["t_us"] - levels[0]["t_us"]
        assert abs(width_us - 0.0615 / speed * 1e6) < 2
        colour = next(line for line in lines if "colour" in line)
        assert colour["ch"] == ch and sensors.colours[colour["colour"] - 1] == "p1"
        assert colour["t_us"] <= levels[0]["t_us"]


def test_pin_tilt_switch_bounces_then_settles():
    spec = table_spec("kegle")
    sensors = sensor_set("kegle")
    ch = sensors.channel("pin", 3)
    lines = pin_edges([Happening(2.0, "pin", "white.1", where=3, speed=1.0)], spec, sensors,
                      random.Random(7))
    edges = [line for line in lines if line["ch"] == ch]
    assert len(edges) >= 3  # down, up (bounce), down at least
    assert edges[0]["level"] == 1 and edges[-1]["level"] == 1
    gaps = [b["t_us"] - a["t_us"] for a, b in itertools.pairwise(edges)]
    assert all(100 <= g <= 2000 for g in gaps)
    up = pins_up_edges(5.0, [3], sensors, random.Random(7))
    assert up[0]["level"] == 0 and up[-1]["level"] == 0


def test_piezo_rings_harder_for_a_harder_hit_and_not_at_all_for_a_kiss():
    spec = table_spec("carom")
    sensors = sensor_set("carom")
    ch = sensors.channel("cushion", 2)

    def pulses(speed):
        lines = pin_edges([Happening(1.0, "cushion", "red", where=2, speed=speed)], spec, sensors)
        return sum(line["pulses"] for line in lines if line["ch"] == ch)

    assert pulses(0.01) == 0
    assert 0 < pulses(0.3) < pulses(3.0)


def test_kegle_pocket_colour_and_pins_as_events():
    spec = table_spec("kegle")
    sensors = sensor_set("kegle")
    hs = [Happening(1.0, "pocket", "white.2", where=4, speed=1.0),
          Happening(1.5, "pin", "white.1", where=2, speed=0.5), Happening(3.0, "rest", positions={})]
    events = table_events(hs, sensors, full_info=False)
    assert events[0] == Pocket(t=1.0, pocket=4, ball="white")
    assert events[1] == Pin(t=1.5, pin=2, state="down")
    lines = pin_edges(hs, spec, sensors)
    pocket = sensors.channel("pocket", 4)
    assert any(line.get("colour") == 2 and line["ch"] == pocket for line in lines)  # colours: red, white


def test_bed_motion_sensor_pulses_while_balls_move():
    spec, happenings = carom_three_cushions()
    sensors = sensor_set("carom")
    motion = sensors.channel("motion", 0)
    lines = [line for line in pin_edges(happenings, spec, sensors) if line["ch"] == motion]
    start, end = happenings[0].t * 1e6, happenings[-1].t * 1e6
    assert lines[0]["t_us"] == start
    assert end - 60_000 <= lines[-1]["t_us"] <= end
    assert all(b["t_us"] - a["t_us"] <= 50_001 for a, b in itertools.pairwise(lines))


def test_goal_event_is_sensed_without_full_information():
    spec = table_spec("golf")
    table = Table(spec, positions={"p1.1": (1.30, spec.width / 2)})
    events = table_events(table.shoot(Shot("p1.1", 0, 1.5)), sensor_set("golf"), full_info=False)
    assert [type(e) for e in events] == [Goal, Rest]
    assert events[0].ball == "p1" and events[0].goal == "B"
