"""A batch's rests naming positions are checked in one ``msgspec`` call (``events._plain_positions``:
every ball a point, ``[x, y]`` of numbers); where one is anything else, each rest is checked the
long way (``_check_positions``). Whatever the positions (points, paths, ints, bools, numbers past a
double's range, other lengths, other values), a batch gives each rest the event ``parse_line``
gives, or leaves it to ``parse_line``, whether a batch before held a path or not (``_PATHS``: then a
batch holding ``[[`` goes the long way without the call); and a batch the one call passes is one
whose every rest ``_check_positions`` passes."""

from __future__ import annotations

import json

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_events_batch_decode import GOOD, NO_POSITIONS, _same

from tablesense import events
from tablesense.errors import BadEvent

NUMBERS = (st.floats(allow_nan=False, allow_infinity=False) | st.integers(-10, 10)
           | st.sampled_from([2**53 + 1, 2**1023, 2**1024, -(2**1024), 10**400, 0, -0.0, 1e308, 5e-324]))
VALUES = NUMBERS | st.booleans() | st.none() | st.just("0.5")
POINT = st.lists(NUMBERS, min_size=2, max_size=2)
POSITION = (POINT | POINT | st.lists(VALUES, max_size=3)  # a point (mostly), or any short list
            | st.lists(POINT, min_size=1, max_size=3) | VALUES)  # a path, or no list
POSITIONS = st.dictionaries(st.sampled_from(["red", "white", "yellow", "p1", "x"]), POSITION, max_size=3)


def _rest(t: float, positions: object) -> str:
    return json.dumps({"t": t, "type": "rest", "positions": positions})


@settings(max_examples=300, deadline=None)
@given(st.lists(POSITIONS | st.none(), min_size=1, max_size=12),
       st.lists(st.sampled_from(GOOD + NO_POSITIONS), max_size=12), st.randoms(use_true_random=False),
       st.booleans())
def test_any_rests_positions_in_a_batch_give_what_parse_line_gives(
        positions: list[object], others: list[str], rnd: object, paths: bool) -> None:
    """``paths``: whether a batch before had positions not all points (``events._PATHS``)."""
    lines = [_rest(1.0 + i, p) for i, p in enumerate(positions)] + others
    rnd.shuffle(lines)  # type: ignore[attr-defined]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(events, "_PATHS", paths)
        _same(lines)
        _same([line + "\n" for line in lines])


@settings(max_examples=300, deadline=None)
@given(st.lists(POSITIONS | st.none(), min_size=1, max_size=12))
def test_rests_the_one_call_passes_each_pass_the_long_check(positions: list[object]) -> None:
    lines = "\n".join(_rest(1.0, p) for p in positions)
    try:
        decoded = events._FAST.decode_lines(lines)
    except Exception:  # (a number past a double's range: not decoded, no batch to check)
        return
    if not events._plain_positions(decoded, "r" * len(decoded)):
        return
    for rest in decoded:
        if rest.positions is not None:
            try:
                events._check_positions(rest.positions)
            except BadEvent as exc:  # pragma: no cover (the failure this test is for)
                raise AssertionError(f"passed in one call, refused the long way: {rest.positions}") from exc


def test_a_batch_of_points_is_passed_by_the_one_call_and_a_path_is_not() -> None:
    points = [_rest(1.0, {"red": [0.5, 0.25], "white": [1, 2]}), _rest(2.0, None), _rest(3.0, {})]
    decoded = events._FAST.decode_lines("\n".join(points))
    assert events._plain_positions(decoded, "rrr")
    path = [*points, _rest(4.0, {"red": [[0.5, 0.25], [0.7, 0.3]]})]
    decoded = events._FAST.decode_lines("\n".join(path))
    assert not events._plain_positions(decoded, "rrrr")
    assert [type(e).__name__ for e in events.parse_lines(path)] == ["Rest"] * 4  # (a path is good)


def test_after_a_path_a_batch_holding_one_is_checked_the_long_way_and_one_of_points_in_one_call(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    monkeypatch.setattr(events, "_PATHS", False)
    monkeypatch.setattr(events, "_convert", lambda found, kind: calls.append(len(found)) or msgspec.convert(
        found, kind))
    path = [_rest(1.0, {"red": [0.5, 0.25], "white": [[1.0, 0.5], [1.6, 0.7]]}), _rest(2.0, {"red": [1, 2]})]
    points = [_rest(3.0, {"red": [0.5, 0.25]}), _rest(4.0, {"white": [1, 2]})]
    for lines in (path, path, points):
        assert [type(e).__name__ for e in events.parse_lines(lines)] == ["Rest", "Rest"]
    assert calls == [2, 2]  # the first batch of a path, then the points; not the path again
    assert events._PATHS
