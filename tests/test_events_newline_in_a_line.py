"""A batch is decoded in one go only where each line is one value (``events.parse_batch``): a line
holding a newline must not pass for two lines. Lines that hold two objects with a newline between
them, beside lines that make one object together, give as many values as lines and as many
``}\\n{`` as line breaks; only the newlines inside the lines tell them apart (``_one_line_each``).
Whatever the lines, each one gets the event ``parse_line`` gives it, or None."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tablesense.errors import BadEvent
from tablesense.events import kind_codes, parse_batch, parse_line, parse_lines

PIECES = [
    '{"t": 1.0, "type": "strike", "ball": "red"}',
    '{"t": 2.0, "type": "rest"}',
    '{"t": 1.0, "type": "strike", "ball": "red"}\n{"t": 2.0, "type": "rest"}',  # two, a newline between
    '{"t": 3.0, "type": "cushion",',  # these two make one object together
    '"cushion": 1}',
    '{"t": 4.0, "type": "rest", "x": {',  # and these two
    '}}',
    '{"t": 5.0,\n"type": "rest"}',  # one object, a newline inside it
    '{"t": 6.0, "type": "call", "call": "carom"}',
]


def _one(line: str) -> object:
    try:
        return parse_line(line)
    except BadEvent as exc:
        return ("error", str(exc))


def _each_its_own(lines: list[str]) -> None:
    got = parse_lines(lines)
    assert len(got) == len(lines)
    assert parse_batch(lines) == (got, kind_codes(got))
    for line, event in zip(lines, got, strict=True):
        if event is not None:
            assert _one(line) == event, (line, lines)


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12))
@example([PIECES[2], PIECES[5], PIECES[6]])
@example([PIECES[2], PIECES[3], PIECES[4]])
def test_a_line_holding_a_newline_never_passes_for_two(lines: list[str]) -> None:
    _each_its_own(lines)
    _each_its_own([line + "\n" for line in lines])  # as read from a file
