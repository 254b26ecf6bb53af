"""``Replay.feed_lines`` feeds a log with no void record and no blank line in batches of its own
lines, numbered by a range, rather than through ``effective_lines``' numbered pairs: the same
match (every link an undo follows), errors and count of events as ``feed_counted(effective_lines(
lines))``, whatever the lines (read from a file with their newlines or not, blank, a void record,
bad lines, the clock run back, an undo), as a list or as any iterable."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_replay_played_shot_and_call import shape, walked

from tablesense.replay import Replay, effective_lines

LINES = ['{"t": 0.0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}',
         '{"t": 0.0, "type": "setup", "game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}}',
         '{"t": 1.0, "type": "goal", "goal": "A"}', '{"t": 1.5, "type": "cushion", "cushion": 2}',
         '{"t": 1.6, "type": "pin", "pin": 3, "state": "up"}',
         '{"t": 1.7, "type": "strike", "ball": "white"}',
         '{"t": 2.0, "type": "rest"}', '{"t": 0.5, "type": "rest"}',
         '{"t": 3.0, "type": "call", "call": "undo"}',
         '{"t": 3.0, "type": "call", "call": "foul", "foul": "push"}',
         '{"t": 3.5, "type": "goal", "goal": "C"}', '{"t": 4, "type": "goal", "goal": "B", "ball": "p2"}',
         '{"t": 5, "type": "call", "call": "void", "seqs": [2]}', '{"t": 5, "type": "rest", "void": 1}',
         "", "  ", "\t", "not json", "{}", '{"t": 6, "type": "rest"'] + ["\u00e9"]


def replayed(rep: Replay) -> tuple[Any, ...]:
    return shape(rep.state, {}), rep.errors, rep.to_json(), rep.events, rep.skipping, rep.skipped, walked(rep)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LINES), max_size=120), st.booleans(), st.booleans())
def test_a_log_fed_in_batches_of_its_lines_is_the_log_fed_as_numbered_lines(
        lines: list[str], newlines: bool, iterated: bool) -> None:
    if newlines:  # as a file gives its lines
        lines = [line + "\n" for line in lines]
    want = replayed(Replay().feed_counted(effective_lines(lines)))
    assert replayed(Replay().feed_lines(iter(lines) if iterated else lines)) == want


def test_a_long_log_is_fed_in_batches_as_numbered_lines() -> None:
    log = [LINES[0]] + [f'{{"t": {k}.0, "type": "goal", "goal": "A"}}\n{{"t": {k}.5, "type": "rest"}}'
                        for k in range(1, 400)]
    lines = "\n".join(log).splitlines()
    lines[517] = "not json"
    want = replayed(Replay().feed_counted(effective_lines(lines)))
    got = Replay().feed_lines(lines)
    assert replayed(got) == want
    assert [e.line for e in got.errors] == [518]
