"""``parse_line`` decodes a sensor event written as a log writes it in one pass (msgspec);
everything else goes through ``parse_event``. Whichever way a line goes, the event (or the
error) must be the one ``parse_event`` gives."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.errors import BadEvent
from tablesense.events import _FAST, parse_event, parse_line

TESTS = Path(__file__).resolve().parent
LOG_LINES = sorted({
    line.strip()
    for path in [*TESTS.glob("matches/*/*.jsonl"), *TESTS.glob("scenarios/*.jsonl")]
    for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
})

EDGES = [
    '{"t": 1, "type": "goal", "goal": "a", "ball": "p1"}',  # lower-case goal: normalised
    '{"t": 1, "type": "pocket", "pocket": 2, "ball": "Red "}',  # a ball written by hand
    '{"t": 1, "type": "pin", "pin": 3, "state": "down", "by": "red"}',  # an unknown key: kept
    # a pin naming its ball (keglebillard's tables): a string in one pass, anything else the long way
    '{"t": 1, "type": "pin", "pin": 3, "state": "down", "ball": "red"}',
    '{"t": 2.5, "type": "pin", "pin": 5, "state": "up", "ball": "Wh\\u00eete \\"x\\""}',
    '{"t": 1, "type": "pin", "pin": 3, "state": "down", "ball": ""}',
    '{"t": 1, "type": "pin", "pin": 3, "state": "down", "ball": null}',
    '{"t": 1, "type": "pin", "pin": 3, "state": "down", "ball": 7}',
    '{"t": 1, "type": "pin", "pin": 3, "state": "down", "ball": 1e400}',
    '{"t": 1, "type": "pin", "pin": 3, "state": "down", "ball": ["red"]}',
    '{"t": 1, "type": "pin", "pin": 3, "state": "down", "ball": "red", "by": "x"}',
    '{"t": 1, "type": "pin", "pin": 3, "state": "down", "ball": "red", "ball": "white"}',
    '{"t": 1, "type": "pin", "pin": 3, "pin": 4, "state": "down", "ball": "red"}',
    '{"t": 1, "type": "pin", "pin": 6, "state": "down", "ball": "red"}',
    '{"t": 1, "type": "pin", "pin": true, "state": "down", "ball": "red"}',
    '{"t": 1, "type": "pin", "pin": 2.0, "state": "down", "ball": "red"}',
    '{"t": 1, "type": "pin", "pin": 3, "state": "fallen", "ball": "red"}',
    '{"t": 1, "type": "pin", "pin": 3, "ball": "red"}',
    '{"t": 1e400, "type": "pin", "pin": 3, "state": "down", "ball": "red"}',
    '{"t": -1, "type": "pin", "pin": 3, "state": "down", "ball": "red"}',
    '{"type": "pin", "pin": 3, "state": "down", "ball": "red"}',
    '{"t": 1, "type": "pin", "pin": 3, "state": "down", "ball": "red", "~extra~": {}}',
    '{"t": 1, "type": "pin", "pin": 3, "state": "down", "b\\u0061ll": "red"}',
    '{"t": 1e400, "type": "cushion", "cushion": 1}',  # not finite
    '{"t": true, "type": "cushion", "cushion": 1}',
    '{"t": 1, "type": "cushion", "cushion": 5}',
    '{"t": 1, "type": "cushion", "cushion": 2.0}',
    '{"t": 1, "type": "pin", "pin": true, "state": "down"}',
    '{"t": 1, "type": "contact", "balls": ["red"]}',
    '{"t": 1, "type": "contact", "balls": ["red", "red"]}',
    '{"t": 1, "type": "rest", "positions": {"red": [0.5, 0.25]}}',
    '{"t": 1, "type": "rest", "positions": {"red": [1]}}',
    '{"t": 1, "type": "strike"}',
    '{"t": 2.5, "type": "off_table", "ball": null}',
    '{"t": 1, "type": "goal"}',
    '{"type": "goal", "goal": "A"}',
    '{"t": 1, "type": "goal", "goal": "A", "~extra~": {"x": 1}}',
    '[1, 2]',
    '{"t": 1, "type": "flash"}',
    '{"t": 1, "type": "goal", "goal": "A"',
    '{"t": 1, "type": "call", "call": "carom"}',
    '{"t": 1, "type": "call", "call": "foul", "foul": "jump", "player": "p2"}',
    '{"t": 1, "type": "call", "call": "foul", "foul": null}',
    '{"t": 1, "type": "call", "call": "foul"}',
    '{"t": 1, "type": "call", "call": "start", "player": "p3"}',
    '{"t": 1, "type": "call", "call": "spot", "spot": true}',
    '{"t": 1, "type": "call", "call": "answer", "question": "q1"}',
    '{"t": 1, "type": "call", "call": "answer", "question": "q1", "answer": null}',
    # answers of every kind: text and true/false take the one pass, the rest the long way
    '{"t": 1, "type": "call", "call": "answer", "question": "q1", "answer": "p2"}',
    '{"t": 1, "type": "call", "call": "answer", "question": "q1", "answer": false}',
    '{"t": 1, "type": "call", "call": "answer", "question": "q1", "answer": "\\u00e9t\\u00e9 \\"x\\""}',
    '{"t": 1, "type": "call", "call": "answer", "question": "q1", "answer": ""}',
    '{"t": 1, "type": "call", "call": "answer", "question": "q1", "answer": 3}',
    '{"t": 1, "type": "call", "call": "answer", "question": "q1", "answer": 123456789012345678901234567890}',
    '{"t": 1, "type": "call", "call": "answer", "question": "q1", "answer": 1e400}',
    '{"t": 1, "type": "call", "call": "answer", "question": "q1", "answer": [1, "a"]}',
    '{"t": 1, "type": "call", "call": "answer", "question": "q1", "answer": {"a": null}}',
    '{"t": 1, "type": "call", "call": "answer", "question": null, "answer": "p1"}',
    '{"t": 1, "type": "call", "call": "answer", "question": 7, "answer": "p1"}',
    '{"t": 1, "type": "call", "call": "answer", "answer": "p1"}',
    '{"t": 1, "type": "call", "call": "answer", "question": "q1", "answer": "p1", "player": "p3"}',
    '{"t": 1, "type": "call", "call": "answer", "question": "q1", "answer": true, "player": "p1", "spot": 2}',
    '{"t": 1, "type": "call", "call": "answer", "question": "q1", "answer": true, "spot": 0}',
    '{"t": 1, "type": "call", "call": "answer", "question": "q1", "answer": "p1", "answer": "p2"}',
    '{"t": 1, "type": "call", "call": "answer", "question": "q1", "answer": "p1", "note": "kept"}',
    '{"t": 1, "type": "call", "call": "foul", "foul": "touch", "question": "q1", "answer": "p1"}',
    '{"t": 1, "type": "call", "call": "undo", "note": "by the referee"}',
    '{"t": 1, "type": "call"}',
    # a call keeping a member or a choice (golf's duos, carom's frozen ball): a string in one pass
    '{"t": 1, "type": "call", "call": "start", "player": "p1", "member": "Cor"}',
    '{"t": 1, "type": "call", "call": "frozen", "choice": "outlay"}',
    '{"t": 1, "type": "call", "call": "start", "player": null, "member": "Cor"}',
    '{"t": 1, "type": "call", "call": "start", "member": "Cor"}',
    '{"t": 1, "type": "call", "call": "start", "player": "p1", "member": null}',
    '{"t": 1, "type": "call", "call": "frozen", "choice": "outlay", "member": "Cor"}',
    '{"t": 1, "type": "call", "call": "foul", "member": "Cor"}',
]


def _slow(line: str) -> object:
    try:
        return parse_event(json.loads(line))
    except BadEvent as exc:
        return ("error", str(exc))
    except ValueError:
        return ("not json",)


def _fast(line: str) -> object:
    try:
        return parse_line(line)
    except BadEvent as exc:
        if str(exc).startswith("not JSON"):
            return ("not json",)
        return ("error", str(exc))


@pytest.mark.parametrize("line", EDGES)
def test_an_unusual_line_gives_what_parse_event_gives(line: str) -> None:
    slow, fast = _slow(line), _fast(line)
    assert fast == slow
    if not isinstance(fast, tuple):
        assert fast.to_dict() == slow.to_dict()  # type: ignore[attr-defined]


def test_every_line_of_the_recorded_logs_gives_what_parse_event_gives() -> None:
    assert len(LOG_LINES) > 1000
    differ = [line for line in LOG_LINES if _fast(line) != _slow(line)]
    assert differ == []


def test_most_recorded_sensor_lines_take_the_one_pass_way() -> None:
    sensor = [line for line in LOG_LINES if '"call"' not in line and '"setup"' not in line]
    decoded = 0
    for line in sensor:
        try:
            _FAST.decode(line)
            decoded += 1
        except Exception:
            pass
    assert decoded > 0.9 * len(sensor)


#: a call's keys and the values drawn for each (golf's ``start`` naming a member and carom's ``frozen``
#: with a choice take one pass: ``events._CallKept``); None: the key left out
CALL_KEYS = {
    "t": ['1', '2.5', '-1', '1e400', 'true', None],
    "call": ['"start"', '"frozen"', '"foul"', '"spot"', '"answer"', '"undo"', '"carom"', '"z"', '3', None],
    "player": ['"p1"', '"p2"', '"p3"', 'null', '7', None],
    "member": ['"Cor"', '""', '"D\\u00efrk \\"x\\""', 'null', '3', '["Cor"]', '1e400', None],
    "choice": ['"outlay"', '"play"', 'null', 'false', None],
    "spot": ['2', None, None],
    "foul": ['"touch"', None, None],
    "note": ['"x"', None, None, None],
}


@settings(max_examples=400)
@given(st.fixed_dictionaries({k: st.sampled_from(v) for k, v in CALL_KEYS.items()}), st.randoms(),
       st.booleans())
def test_a_call_keeping_a_member_or_a_choice_gives_what_parse_event_gives(
        values: dict[str, str | None], rng: random.Random, twice: bool) -> None:
    pairs = [f'"{k}": {v}' for k, v in values.items() if v is not None]
    rng.shuffle(pairs)
    if twice and len(pairs) > 1:  # a key written twice: the last one counts, both ways
        pairs.append(pairs[0].split(":")[0] + ': "again"')
    line = "{" + ", ".join(['"type": "call"', *pairs]) + "}"
    slow, fast = _slow(line), _fast(line)
    assert fast == slow, line
    if not isinstance(fast, tuple):
        assert fast.to_dict() == slow.to_dict()  # type: ignore[attr-defined]
        assert type(fast.extra) is dict or not fast.extra  # type: ignore[attr-defined]
