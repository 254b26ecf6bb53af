"""A replay decodes its lines in batches (``events.parse_lines``): for each line the event
``parse_line`` gives, or None where the line goes through ``parse_line`` alone. Whatever
a batch holds (bad lines, set-ups, lines that only make JSON together, two objects on a
line), no line may get another event than its own, and a replay in batches names the
same bad lines with the same errors as one line at a time."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tablesense import events
from tablesense.errors import BadEvent
from tablesense.events import kind_codes, parse_batch, parse_line, parse_lines
from tablesense.replay import Replay

TESTS = Path(__file__).resolve().parent
MATCH = (TESTS / "matches" / "kegle").glob("*.jsonl")

GOOD = [
    '{"t": 1.0, "type": "strike", "ball": "red"}',
    '{"t": 1.5, "type": "cushion", "cushion": 2, "ball": "red"}',
    '{"t": 2.0, "type": "contact", "balls": ["red", "white"]}',
    '{"t": 3.0, "type": "rest", "positions": {"red": [0.5, 0.25]}}',
    '{"t": 3.5, "type": "pin", "pin": 3, "state": "up"}',
    '{"t": 4.0, "type": "call", "call": "foul", "foul": "jump", "player": "p2"}',
]
ODD = [
    '{"t": 0, "type": "setup", "game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}}',
    '{"t": 0, "type": "setup", "game": "Golf", "players": {"p1": "Ann", "p2": ""}}',
    '{"t": 1, "type": "pin", "pin": 3, "state": "down", "ball": "red"}',  # a key to keep
    '{"t": 1e400, "type": "cushion", "cushion": 1}',
    '{"t": 1, "type": "contact", "balls": ["red"]}',
    '{"t": 1, "type": "rest", "positions": {"red": [1]}}',
    '{"t": 1, "type": "call", "call": "answer", "question": "q1", "answer": null}',
    '{"t": 1, "type": "flash"}',
    '{"t": 1, "type": "goal", "goal": "A"',  # not JSON
    '{"t": 1, "type": "strike"}{"t": 2, "type": "strike"}',  # two objects on one line
    '{"t": 1, "type": "strike"}, {"t": 2, "type": "rest"}',
    '{"t": 1, "type": "strike", "x": "',  # these two make one object together
    '", "ball": "red"}',
    '{"t": 2, "type": "rest", "p": {',
    '}}',
    '   ',
    '{"t": 1, "type": "strike"}\r',
    '{"t": 1, "type": "strike", "ball": "red"}\n{"t": 2, "type": "rest"}',  # a newline inside
    '{"t": 1, "type": "strike", "ball": "\udcff"}',  # not UTF-8, read with surrogates
    '[1, 2]',
    '{}',
    '{"t": -1.0, "type": "strike"}',  # times out of range
    '{"t": 1e12, "type": "rest"}',
    '{"t": 1, "type": "contact", "balls": ["red", "white", "yellow"]}',
    '{"t": 1, "type": "strike", "~extra~": {}}',  # the name the kept keys have inside
    '{"t": 1, "type": "strike", "\\u007eextra~": {"a": 1}}',  # the same, escaped
    '{"t": 1, "type": "c\\u0061ll", "call": "answer", "question": "q1", "answer": 1}',  # a call, escaped
    '{"t": 1, "type": "rest", "p\\u006fsitions": {"red": [1]}}',  # positions, escaped
    '{"t": 1, "type": "r\\u0065st", "positions": {"red": [0.5, 0.5]}}',
]


def _one(line: str) -> object:
    try:
        return parse_line(line)
    except BadEvent as exc:
        return ("error", str(exc))
    except Exception as exc:
        return ("raised", type(exc).__name__)


def _same(lines: list[str]) -> None:
    got = parse_lines(lines)
    assert len(got) == len(lines)
    # the kinds' letters found in passing are those of what it gives; lines cut at newlines (none
    # in a line: the replay's chunks) are decoded the same without their newlines counted
    assert parse_batch(lines) == (got, kind_codes(got))
    if not any("\n" in line for line in lines):
        assert parse_batch(lines, cut=True) == (got, kind_codes(got))
    for line, event in zip(lines, got, strict=True):
        if event is not None:
            assert _one(line) == event, line
            assert event.to_dict() == parse_line(line).to_dict()


@given(st.lists(st.sampled_from(GOOD + ODD), max_size=40))
def test_a_batch_gives_each_line_its_own_event_or_leaves_it_to_parse_line(lines: list[str]) -> None:
    _same(lines)
    _same([line + "\n" for line in lines])  # as read from a file


def test_a_batch_of_good_lines_is_decoded_whole_and_a_bad_line_costs_only_itself() -> None:
    lines = GOOD * 20
    assert None not in parse_lines(lines)
    bad = [*lines[:50], ODD[4], *lines[50:]]  # a contact of one ball: left to parse_line
    got = parse_lines(bad)
    assert got[50] is None
    assert None not in got[:50] + got[51:]


def test_a_replay_in_batches_names_the_same_bad_lines_as_one_line_at_a_time() -> None:
    rng = random.Random(27)
    for path in sorted(MATCH)[:6]:
        lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        for _ in range(3):
            mixed = list(lines)
            for _ in range(4):
                mixed.insert(rng.randrange(1, len(mixed) + 1), rng.choice(ODD[1:]))
            whole, each = Replay(history=64), Replay(history=64)
            whole.feed_counted(list(enumerate(mixed, start=1)), guard=True)
            for n, text in enumerate(mixed, start=1):
                each.feed_counted([(n, text)], guard=True)
            assert [str(e) for e in whole.errors] == [str(e) for e in each.errors]
            assert whole.to_json() == each.to_json()


#: a batch that names no positions, as golf's logs mostly are: its calls and set-ups are found by
#: their kind and looked at alone, every other line taken as decoded (``parse_lines``)
NO_POSITIONS = [
    '{"t": 1.0, "type": "goal", "goal": "A", "ball": "p1"}',
    '{"t": 1.5, "type": "cushion", "cushion": 2, "ball": null}',
    '{"t": 1.7, "type": "off_table", "ball": "p2"}',
    '{"t": 2.0, "type": "rest"}',
    '{"t": 3.0, "type": "call", "call": "foul", "foul": "touch"}',
    '{"t": 3.0, "type": "call", "call": "start", "player": "p3"}',  # a player no table has
    '{"t": 3.0, "type": "call", "call": "spot", "ball": "p1", "spot": 9}',  # a spot out of range
    '{"t": 3.0, "type": "call", "call": "foul"}',  # a foul not named
    '{"t": 3.0, "type": "call", "call": "carom"}',
    '{"t": 3.0, "type": "call", "call": "carom", "player": "p3"}',  # a player no table has
    '{"t": 3.0, "type": "call", "call": "undo", "spot": 0}',  # a spot out of range
    '{"t": 3.0, "type": "call", "call": "undo", "player": "p2", "spot": 2}',
    '{"t": 3.0, "type": "call", "call": "answer", "question": "q1", "answer": "p2"}',
    '{"t": 3.0, "type": "call", "call": "start", "player": "p1", "member": "Cor"}',  # a key to keep
    '{"t": 0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}',
    '{"t": 0, "type": "setup", "game": "golf", "players": {"p1": ["Ann", "Cor"], "p2": ["Bob", "Dirk"]}}',
    '{"t": 0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Zed Unheard"}}',
    '{"t": 0, "type": "setup", "game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}, "distance": 3}',
    '{"t": 0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}, "format": "duo"}',
    '{"t": 0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob", "p3": "Cy"}}',
    '{"t": 0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": 7}}',
]


@given(st.lists(st.sampled_from(NO_POSITIONS), max_size=60))
def test_a_batch_without_positions_gives_its_calls_and_set_ups_what_parse_line_gives(
        lines: list[str]) -> None:
    _same(lines)
    _same([line + "\n" for line in lines])


#: a batch that names positions, as carom's and keglebillard's logs do: only the lines that name
#: them are looked at for a rest's positions (found by the text), whatever else names the word
POSITIONS = [
    '{"t": 2.0, "type": "rest", "positions": {"red": [0.5, 0.25], "white": [1.0, 0.5]}}',
    '{"t": 2.0, "type": "rest", "positions": {"white": [[1.0, 0.5], [1.6, 0.7]]}}',  # a path
    '{"t": 2.0, "type": "rest", "positions": {"red": [1]}}',  # refused: said by parse_line
    '{"t": 2.0, "type": "rest", "positions": {"red": [0.5, NaN]}}',  # not JSON
    '{"t": 2.0, "type": "rest", "positions": {"red": [1e400, 0.5]}}',  # out of range
    '{"t": 2.0, "type": "rest", "positions": null}',
    '{"t": 2.0, "type": "rest", "positions": {"positions": [0.5, 0.5], "red": [true, 0.5]}}',  # twice
    '{"t": 2.0, "type": "rest", "positions": {"red": [0.5, 0.5]}, "note": "positions"}',  # a key to keep
    '{"t": 3.0, "type": "call", "call": "foul", "foul": "positions"}',
    '{"t": 0, "type": "setup", "game": "carom", "players": {"p1": "positions", "p2": "Bob"}}',
]


@given(st.lists(st.sampled_from(NO_POSITIONS + POSITIONS), max_size=60))
def test_a_batch_naming_positions_gives_each_rest_what_parse_line_gives(lines: list[str]) -> None:
    _same(lines)
    _same([line + "\n" for line in lines])


#: lines a batch's decode refuses for a key it does not know, as the tables write them, and texts a
#: batch may look for ahead (``events._REFUSED``): those learned from such lines, and others found
#: in lines that decode (a line holding one is then only left to ``parse_line``)
REFUSED_LINES = [
    '{"t": 1.0, "type": "pin", "pin": 2, "state": "down", "ball": "white"}',
    '{"t": 1.0, "type": "pin", "pin": 4, "state": "down", "ball": null}',
    '{"t": 1.0, "type": "pin", "pin": 4, "state": "up", "ball": "red"}',
    '{"t": 3.0, "type": "call", "call": "start", "player": "p2", "member": "Cor"}',
    '{"t": 3.0, "type": "call", "call": "frozen", "choice": "outlay"}',
    '{"t": 3.0, "type": "call", "call": "frozen", "choice": "outlay", "member": 1}',
]
NEEDLES = ['"down", "ball"', '"up", "ball"', '"p2", "member"', '"frozen", "choice"', '"ball"', '{"t"',
           '}', '"rest"', '"p1", "member"', '2.0, "type"', "\\u007e"]


@settings(max_examples=300)
@given(st.lists(st.sampled_from(GOOD + ODD + NO_POSITIONS + POSITIONS + REFUSED_LINES), max_size=60),
       st.lists(st.sampled_from(NEEDLES), max_size=4, unique=True))
@example(lines=[POSITIONS[0], REFUSED_LINES[3]],  # '"p2", "member"' learned pushes '"rest"' out
         needles=['"p1", "member"', '"down", "ball"', '"up", "ball"', '"rest"'])
def test_a_batch_looking_ahead_for_lines_like_refused_ones_gives_what_parse_line_gives(
        lines: list[str], needles: list[str]) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(events, "_REFUSED", tuple(needles))
        # a batch that meets a line refused for a key to keep learns its text and leaves the
        # lines before it to parse_line that once (the next test holds that); decoded again,
        # a batch looks ahead for it: each way of decoding is compared once the texts are learned
        parse_lines(lines)
        _same(lines)
        _same([line + "\n" for line in lines])


def test_a_line_refused_for_a_key_to_keep_is_known_ahead_in_the_batches_after_it() -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(events, "_REFUSED", ())
        pin = REFUSED_LINES[0]
        batch = [*GOOD * 5, pin, *GOOD * 5, pin.replace('"pin": 2', '"pin": 3')]
        first = parse_lines(batch)
        assert events._REFUSED == ('"down", "ball"',)
        again = parse_lines(batch)
        assert again == first
        assert [again[30], again[-1]] == [parse_line(batch[30]), parse_line(batch[-1])]
        assert [e.extra for e in (again[30], again[-1])] == [{"ball": "white"}] * 2  # type: ignore[union-attr]
        for line in REFUSED_LINES[3:5]:  # a key after a call's name or player: learned as well
            parse_lines([*GOOD, line])
        assert events._REFUSED == ('"frozen", "choice"', '"p2", "member"', '"down", "ball"')
