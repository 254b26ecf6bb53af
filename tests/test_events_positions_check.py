"""A rest's positions are checked with their common shapes inline (a ball's [x, y] of finite
floats, or its path of such points): every value, of any shape, is taken or refused as the
general rule (``_is_xy`` of the value or of each of its points) takes or refuses it, and a
line refused says which ball."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.errors import BadEvent
from tablesense.events import _check_positions, _is_xy, parse_line

NUMBERS = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-5, 5), st.booleans(),
                    st.sampled_from([0.5, 1.25, 0.0, -0.0, math.inf, math.nan, 10**400]))
POINTS = st.one_of(st.lists(NUMBERS, min_size=0, max_size=3), NUMBERS, st.none(), st.text(max_size=2))
VALUES = st.one_of(POINTS, st.lists(POINTS, max_size=4),
                   st.lists(st.lists(st.floats(), min_size=2, max_size=2), max_size=4))


def _general(positions: dict[str, Any]) -> str | None:
    """The first ball whose value the general rule refuses, or None."""
    for ball, xy in positions.items():
        if not (_is_xy(xy) or (isinstance(xy, list) and all(_is_xy(p) for p in xy))):
            return ball
    return None


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.sampled_from(["red", "white", "p1", "p2"]), VALUES, max_size=3))
def test_positions_are_taken_or_refused_as_the_general_rule_does(positions: dict[str, Any]) -> None:
    refused = _general(positions)
    if refused is None:
        _check_positions(positions)
    else:
        with pytest.raises(BadEvent, match=f"position of '{refused}'"):
            _check_positions(positions)


@pytest.mark.parametrize("path", [[[0.5, 0.25], [1.0, 0.5]], [], [[0.5, 0.25]], [[0.5, 0.25], [1, 0.5]]])
def test_a_balls_path_of_points_is_a_position(path: list[Any]) -> None:
    line = json.dumps({"t": 1.0, "type": "rest", "positions": {"white": path}})
    assert parse_line(line).positions == {"white": path}  # type: ignore[attr-defined]


@pytest.mark.parametrize("path", [[[0.5, 0.25], [1.0]], [[0.5, 0.25], [True, 0.5]], [[0.5, "x"]],
                                  [0.5, [1.0, 2.0]]])
def test_a_path_with_a_point_that_is_not_x_y_is_refused_naming_the_ball(path: list[Any]) -> None:
    line = json.dumps({"t": 1.0, "type": "rest", "positions": {"white": path}})
    with pytest.raises(BadEvent, match="position of 'white'"):
        parse_line(line)
