"""``Replay.feed_lines`` sends a log holding a void record the general way (``effective_lines``).
It finds one in lines joined a few thousand at a time and searched as the bytes of a file are
(``replay._lines_may_void``: the first letters "v" looked at where they stand, then the word),
not by a call a line: whatever the lines, and wherever the joins and the looks end, it says what
a search of each line says."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tablesense import replay
from tablesense.replay import Replay

PIECES = ['"void"', "void", '"vo', 'id"', "v", '"v', '"', "vv", "x", '{"t": 1.0, "type": "rest"}',
          '"balls_moving"', ""]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.lists(st.sampled_from(PIECES), max_size=6).map("".join), max_size=30),
       st.integers(1, 5), st.integers(1, 4))
@example(['"vo', 'id"'], 1, 1)  # a word cut between two lines is none
@example(["v"] * 70 + ['"void"'], replay.VOID_LINES, replay.VOID_LOOKS)
def test_the_lines_joined_say_what_each_line_says(lines: list[str], joined: int, looks: int) -> None:
    kept = replay.VOID_LINES, replay.VOID_LOOKS
    try:
        for at_once, limit in ((joined, looks), kept):
            replay.VOID_LINES, replay.VOID_LOOKS = at_once, limit
            assert replay._lines_may_void(lines) == any('"void"' in line for line in lines), lines
    finally:
        replay.VOID_LINES, replay.VOID_LOOKS = kept


def test_a_log_with_a_void_record_late_in_it_is_fed_the_general_way() -> None:
    # a void record past the first lines joined: its voided line is left out as a line-by-line
    # feed leaves it out
    setup = '{"t": 0.0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}'
    shot = ['{"t": %d.0, "type": "goal", "goal": "A", "ball": "p1"}', '{"t": %d.5, "type": "rest"}']
    lines = [setup] + [s % i for i in range(1, 40) for s in shot]
    lines.append('{"t": 50.0, "type": "call", "call": "void", "from": 2, "to": 3}')
    kept = replay.VOID_LINES
    try:
        replay.VOID_LINES = 8
        fed = Replay().feed_lines(lines)
    finally:
        replay.VOID_LINES = kept
    general = Replay().feed_counted(replay.effective_lines(lines))
    unvoided = Replay().feed_counted(enumerate(lines, start=1))
    assert fed.to_json() == general.to_json() != unvoided.to_json()
    assert fed.errors == general.errors
    assert fed.events == general.events != unvoided.events
