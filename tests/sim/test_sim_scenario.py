"""Scenario files replay a table situation exactly; malformed files say which line."""

from __future__ import annotations

import re

import pytest
from paths import TESTS

from tablesense.events import Cushion, Goal, Pin, dump_event
from tablesense.replay import Replay
from tablesense.sim.scenario import ScenarioError, load, loads

SCENARIOS = TESTS / "scenarios"


def replay(events):
    return Replay().feed_lines(dump_event(e) for e in events).to_json()


def test_carom_three_cushion_scenario_reports_the_cushions_in_order():
    run = load(SCENARIOS / "carom_three_cushions.jsonl").play()
    cushions = [e for e in run.events if isinstance(e, Cushion)]
    assert [(e.cushion, e.ball) for e in cushions[:3]] == [(3, "yellow"), (2, "yellow"), (1, "yellow")]
    state = replay(run.events)
    assert state["game"] == "carom" and "errors" not in state


def test_golf_straight_goal_scenario_scores_for_p1():
    run = load(SCENARIOS / "golf_straight_goal.jsonl").play()
    assert [(e.goal, e.ball) for e in run.events if isinstance(e, Goal)] == [("B", "p1")]
    state = replay(run.events)
    assert state["balls_left"]["p1"] == 4
    assert state["at_table"] == "p1"  # a valid goal with an own ball: stays at the table


def test_kegle_pins_scenario_scores_two_points_a_pin_and_sets_them_up():
    run = load(SCENARIOS / "kegle_pins.jsonl").play()
    down = [e.pin for e in run.events if isinstance(e, Pin) and e.state == "down"]
    up = [e.pin for e in run.events if isinstance(e, Pin) and e.state == "up"]
    assert down and sorted(down) == sorted(up)
    state = replay(run.events)
    assert state["points"]["p1"] == 2 * len(down)
    assert "errors" not in state


def test_same_scenario_same_events_and_edges():
    a = load(SCENARIOS / "kegle_pins.jsonl").play(seed=3)
    b = load(SCENARIOS / "kegle_pins.jsonl").play(seed=3)
    assert [dump_event(e) for e in a.events] == [dump_event(e) for e in b.events]
    assert a.edges == b.edges


def test_edge_scenario_passes_its_edges_on():
    run = load(SCENARIOS / "golf_goal_edges.jsonl").play()
    assert run.events == []
    assert [e["t_us"] for e in run.edges] == [1000000, 1000000, 1061500, 3000000, 3000000, 3123000]


HEADER = '{"game": "carom", "positions": {"yellow": [1.0, 0.3]}}\n'


@pytest.mark.parametrize("text,message", [
    ("", "empty scenario"),
    ('{"game": "snooker"}\n', "line 1: the header needs \"game\""),
    ('{"game": "carom", "table": "9ft"}\n', "line 1: unknown carom table"),
    ('{"game": "carom", "positions": {"blue": [1, 1]}}\n', "line 1: no ball 'blue'"),
    ('{"game": "carom", "positions": {"red": [1]}}\n', "line 1: position of 'red'"),
    (HEADER + '{"shot": {"ball": "yellow", "speed": 2}}\n', "line 2: shot needs 'direction'"),
    (HEADER + '\n{"shot": {"ball": "yellow", "direction": 0, "speed": 99}}\n', "line 3: shot speed"),
    (HEADER + '{"shot": {"ball": "p1.1", "direction": 0, "speed": 2}}\n', "line 2: no ball 'p1.1'"),
    (HEADER + '{"shot": {"ball": "yellow", "direction": 0, "speed": 2, "spin": 1}}\n',
     "line 2: unknown shot field 'spin'"),
    (HEADER + '{"shot": ', "line 2: not JSON"),
    (HEADER + '[1, 2]\n', "line 2: each line is a JSON object"),
    (HEADER + '{"t": 1, "type": "goal", "goal": "C"}\n', "line 2: goal event"),
    (HEADER + '{"t_us": -5, "ch": 1, "level": 1}\n', "line 2: an edge is"),
    (HEADER + '{"jump": true}\n', "line 2: unknown step"),
])
def test_malformed_scenarios_name_the_line(text, message):
    with pytest.raises(ScenarioError, match=re.escape(message)) as err:
        loads(text, source="bad.jsonl")
    assert str(err.value).startswith("bad.jsonl")


def test_a_ball_placed_off_the_bed_is_reported_at_its_line():
    scenario = loads(HEADER + '{"place": {"red": [9.0, 0.5]}}\n', source="s.jsonl")
    with pytest.raises(ScenarioError, match=re.escape("s.jsonl line 2: ball 'red' cannot be placed")):
        scenario.play()


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(ScenarioError, match="cannot read"):
        load(tmp_path / "nope.jsonl")
