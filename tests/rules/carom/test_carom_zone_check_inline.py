"""The zone check of both object balls (``zones.object_balls_zone``) works out each ball's corner and
whether it lies on the line itself where ``CaromTable.zone_of``'s quick answer holds (a ball on the
bed within reach of its nearest corner), not by four calls of ``zone_of``: the same answer as those
calls (the code before, kept here as the reference) for any positions (hypothesis: in, near, on
the line of and just out of every corner's zone, off the bed, NaN and infinities, a ball missing)
on every bed, beds of other sizes too (narrow ones, wider than long: ``zone_of`` walks the corners
there), and by example at the line."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.rules.carom import zones
from tablesense.rules.carom.geometry import _REACH, TABLES, ZONE_LEG, CaromTable
from tablesense.rules.carom.zones import ball_xy, object_balls_zone

BEDS = [*TABLES.values(), CaromTable("narrow", 2.0, 0.6), CaromTable("tiny", 0.5, 0.3),
        CaromTable("square", 1.0, 1.0), CaromTable("wider", 1.0, 2.0)]


def reference(positions: dict[str, Any] | None, balls: tuple[str, str],
              table: CaromTable) -> tuple[str | None, bool]:
    """``object_balls_zone`` as it was: ``zone_of`` asked of each ball, then of each on the line."""
    first = ball_xy(positions, balls[0])
    if first is None:
        return None, False
    corner = table.zone_of(*first)
    if corner is None:
        return None, False
    second = ball_xy(positions, balls[1])
    if second is None or table.zone_of(*second) != corner:
        return None, False
    return corner, (table.zone_of(*first, on_line=0.0) is None or table.zone_of(*second, on_line=0.0) is None)


def _forget() -> None:
    zones._last = (zones._MISSING, None, None, (None, False))


@st.composite
def place(draw: st.DrawFn, table: CaromTable) -> Any:
    """Anywhere on (or off) the bed; near a corner at a distance around the leg, the reach and the
    line; NaN or an infinity; or missing."""
    cx = draw(st.sampled_from([0.0, table.length]))
    cy = draw(st.sampled_from([0.0, table.width]))
    near = draw(st.one_of(st.floats(0.0, 0.4), st.sampled_from([ZONE_LEG, _REACH, 0.0]),
                          st.floats(ZONE_LEG - 1e-6, _REACH + 1e-6)))
    share = draw(st.floats(0.0, 1.0))
    dx, dy = near * share, near - near * share
    out = draw(st.sampled_from([1.0, 1.0, 1.0, -1.0]))  # (-1: beyond the cushion)
    x = draw(st.one_of(st.just(abs(cx - dx) if out > 0 else cx + (dx if cx else -dx)),
                       st.floats(-0.5, table.length + 0.5),
                       st.sampled_from([math.nan, math.inf, -math.inf])))
    y = draw(st.one_of(st.just(abs(cy - dy) if out > 0 else cy + (dy if cy else -dy)),
                       st.floats(-0.5, table.width + 0.5),
                       st.sampled_from([math.nan, math.inf, -math.inf])))
    return draw(st.sampled_from([[x, y], [x, y], [[x, y]], None]))


@st.composite
def asked(draw: st.DrawFn) -> tuple[dict[str, Any], tuple[str, str], CaromTable]:
    table = draw(st.sampled_from(BEDS))
    positions = {}
    for ball in ("yellow", "white", "red"):
        xy = draw(place(table))
        if xy is not None:
            positions[ball] = xy
    balls = draw(st.sampled_from([("red", "white"), ("red", "yellow"), ("white", "red"), ("yellow", "red")]))
    return positions, balls, table


def _answer(f: Any, *args: Any) -> Any:
    try:
        return f(*args)
    except Exception as exc:  # the same refusal, whichever way asked
        return type(exc)


@settings(max_examples=2000, deadline=None)
@given(asked())
def test_the_zone_check_answers_as_zone_of_asked_of_each_ball(case: tuple[dict[str, Any], tuple[str, str],
                                                                          CaromTable]) -> None:
    positions, balls, table = case
    _forget()
    assert _answer(object_balls_zone, positions, balls, table) == _answer(reference, positions, balls, table)


@pytest.mark.parametrize(("white", "red", "want"), [
    ([0.05, 0.05], [0.06, 0.04], ("head-left", False)),
    ([ZONE_LEG, 0.0], [0.06, 0.04], ("head-left", False)),  # on the leg's end: in, not on the line
    ([ZONE_LEG + 0.001, 0.0], [0.06, 0.04], ("head-left", True)),  # beyond it, within the line
    ([0.06, 0.04], [0.0, ZONE_LEG + 0.002], ("head-left", True)),
    ([0.06, 0.04], [0.0, _REACH + 0.001], (None, False)),
    ([2.80, 1.40], [2.83, 1.30], ("foot-right", False)),
    ([2.80, 1.40], [0.05, 0.05], (None, False)),  # two corners
    ([-0.01, 0.05], [0.05, 0.05], ("head-left", False)),  # off the bed: zone_of's walk
])
def test_balls_at_the_line_and_off_the_bed(white: list[float], red: list[float],
                                          want: tuple[str | None, bool]) -> None:
    positions = {"yellow": [1.4, 0.7], "white": white, "red": red}
    table = TABLES["match"]
    _forget()
    balls = ("red", "white")
    assert object_balls_zone(positions, balls, table) == want == reference(positions, balls, table)


def test_a_bed_too_narrow_for_the_quick_answer_walks_the_corners() -> None:
    """On a bed less than twice the reach wide a ball may lie within reach of two corners: the first
    that ``zone_of``'s walk meets (head-left) is the answer, not the nearest (head-right)."""
    tiny = CaromTable("tiny", 0.5, 0.3)
    positions = {"white": [0.05, 0.16], "red": [0.05, 0.16]}
    _forget()
    assert object_balls_zone(positions, ("red", "white"), tiny) == ("head-left", False)
    assert reference(positions, ("red", "white"), tiny) == ("head-left", False)
