"""The public event format (docs/events.md): parsing, round trips, clear errors."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablesense.errors import BadEvent
from tablesense.events import Call, Goal, Rest, Setup, dump_event, parse_event, parse_line

EXAMPLES = [
    '{"t": 0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}',
    '{"t": 0, "type": "setup", "game": "golf", "format": "duo", '
    '"players": {"p1": ["Ann", "Cor"], "p2": ["Bob", "Dirk"]}}',
    '{"t": 0, "type": "setup", "game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}, "distance": 100}',
    '{"t": 0, "type": "setup", "game": "carom", "discipline": "libre", "profile": "club", '
    '"players": {"p1": "Ann", "p2": "Bob"}, "targets": {"p1": 30, "p2": 45}}',
    '{"t": 0, "type": "setup", "game": "carom", "discipline": "driebanden", '
    '"players": {"p1": "Ann", "p2": "Bob"}, "moyennes": {"p1": 0.42, "p2": 0.61}}',
    '{"t": 12.003114, "type": "goal", "goal": "B", "ball": "p1"}',
    '{"t": 40.100000, "type": "pocket", "pocket": 4, "ball": "red"}',
    '{"t": 41.000210, "type": "pin", "pin": 3, "state": "down"}',
    '{"t": 41.250000, "type": "cushion", "cushion": 2, "ball": null}',
    '{"t": 42.800000, "type": "off_table", "ball": "p2"}',
    '{"t": 44.000000, "type": "rest"}',
    '{"t": 44.0, "type": "rest", "positions": {"red": [1.2, 0.4], "white": [0.3, 0.2]}}',
    '{"t": 45.0, "type": "contact", "balls": ["yellow", "red"]}',
    '{"t": 45.0, "type": "strike", "ball": "yellow"}',
    '{"t": 50.0, "type": "call", "call": "start", "player": "p2"}',
    '{"t": 51.0, "type": "call", "call": "carom"}',
    '{"t": 52.0, "type": "call", "call": "foul", "foul": "touch"}',
    '{"t": 53.0, "type": "call", "call": "spot", "ball": "p1", "spot": 2}',
    '{"t": 54.0, "type": "call", "call": "answer", "question": "q7", "answer": true}',
    '{"t": 55.0, "type": "call", "call": "undo"}',
]


@pytest.mark.parametrize("line", EXAMPLES)
def test_every_example_of_the_format_parses_and_round_trips(line: str) -> None:
    event = parse_line(line)
    again = parse_event(json.loads(dump_event(event)))
    assert again == event
    original = json.loads(line)
    assert {k: v for k, v in event.to_dict().items() if k in original} == original


def test_fields_are_typed() -> None:
    goal = parse_line(EXAMPLES[5])
    assert isinstance(goal, Goal) and goal.goal == "B" and goal.ball == "p1" and goal.t == 12.003114
    call = parse_line(EXAMPLES[18])
    assert isinstance(call, Call) and call.question == "q7" and call.answer is True
    setup = parse_line(EXAMPLES[3])
    assert isinstance(setup, Setup) and setup.targets == {"p1": 30, "p2": 45}
    assert isinstance(parse_line(EXAMPLES[11]), Rest)


def test_goal_and_ball_names_written_in_another_case_are_understood() -> None:
    event = parse_line('{"t": 1, "type": "goal", "goal": "b", "ball": "P1"}')
    assert isinstance(event, Goal) and event.goal == "B" and event.ball == "p1"


def test_game_and_discipline_written_loosely_are_understood() -> None:
    setup = parse_line('{"t": 0, "type": "setup", "game": "Carom", "discipline": "Driebanden", '
                       '"players": {"p1": "A", "p2": "B"}}')
    assert isinstance(setup, Setup) and setup.game == "carom" and setup.discipline == "driebanden"
    assert parse_line('{"t": 0, "type": "setup", "game": "carom", "discipline": "three-cushion", '
                      '"players": {"p1": "A", "p2": "B"}}').discipline == "driebanden"


def test_unknown_fields_are_kept_not_lost() -> None:
    event = parse_line('{"t": 1, "type": "goal", "goal": "A", "ball": "p2", "beam_ms": 3.1}')
    assert event.to_dict()["beam_ms"] == 3.1


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('{"t": 1}', "no 'type'"),
        ('{"type": "rest"}', "numeric 't'"),
        ('{"t": "soon", "type": "rest"}', "numeric 't'"),
        ('{"t": 1, "type": "teleport"}', "unknown event type 'teleport'"),
        ('{"t": 1, "type": "goal", "goal": "C", "ball": "p1"}', "goal must be 'A' or 'B'"),
        ('{"t": 1, "type": "goal", "ball": "p1"}', "needs 'goal'"),
        ('{"t": 1, "type": "pocket", "pocket": 9}', "pocket must be 1..6"),
        ('{"t": 1, "type": "pin", "pin": 2, "state": "sideways"}', "state must be"),
        ('{"t": 1, "type": "cushion", "cushion": "two"}', "must be an integer"),
        ('{"t": 1, "type": "goal", "goal": "A", "ball": "green"}', "unknown ball 'green'"),
        ('{"t": 0, "type": "setup", "game": "snooker", "players": {"p1": "A", "p2": "B"}}',
         "unknown game 'snooker'"),
        ('{"t": 0, "type": "setup", "game": "golf", "players": {"p1": "A"}}', "needs 'p2'"),
        ('{"t": 0, "type": "setup", "game": "carom", "players": {"p1": "A", "p2": "B"}, '
         '"targets": {"p1": -3, "p2": 20}}', "targets"),
        ('{"t": 1, "type": "call", "call": "answer", "question": "q1"}', "needs 'answer'"),
        ('{"t": 1, "type": "call", "call": "start", "player": "p3"}', "p1 or p2"),
        ('{"t": 1, "type": "contact", "balls": ["red"]}', "two balls"),
        ('{"t": 1, "type": "rest", "positions": {"red": [1]}}', "[x, y]"),
    ],
)
def test_malformed_events_get_a_clear_error(line: str, message: str) -> None:
    with pytest.raises(BadEvent, match=message.replace("[", r"\[").replace("(", r"\(")):
        parse_line(line)


@given(st.dictionaries(st.text(max_size=8), st.none() | st.integers() | st.text(max_size=8), max_size=6))
def test_any_json_object_either_parses_or_raises_bad_event(obj: dict) -> None:
    try:
        parse_event(obj)
    except BadEvent:
        pass
