"""The zone check's quick answer for balls far from every corner (``zones.in_a_corner`` on a
plain shot, the first test of ``object_balls_zone``) says what the corner-by-corner check
(``CaromTable.zone_of`` of each object ball, the code before the quick answer, kept here as
the reference) says, for any positions a rest may bring: every bed, balls in, near and on the
line of each corner's zone, floats, whole numbers, a list of points, a ball missing or null,
and a bed the engine does not know (the quick answer is skipped there, ``table`` refuses it)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.rules.carom.geometry import TABLES
from tablesense.rules.carom.geometry import table as carom_table
from tablesense.rules.carom.resolve import OBJECTS
from tablesense.rules.carom.zones import in_a_corner, object_balls_zone


def _xy(positions: dict[str, Any] | None, ball: str) -> tuple[float, float] | None:
    """``zones.ball_xy`` as it was."""
    if not positions:
        return None
    xy = positions.get(ball, _MISSING)
    if xy is _MISSING:
        return None
    if xy and isinstance(xy[0], list):
        xy = xy[0]
    return float(xy[0]), float(xy[1])


_MISSING: Any = object()


def reference_zone(positions: dict[str, Any] | None, balls: tuple[str, str],
                   bed: str) -> tuple[str | None, bool]:
    """``object_balls_zone`` before the quick answer: each object ball asked of ``zone_of``."""
    table = carom_table(bed)
    first = _xy(positions, balls[0])
    if first is None:
        return None, False
    corner = table.zone_of(*first)
    if corner is None:
        return None, False
    second = _xy(positions, balls[1])
    if second is None or table.zone_of(*second) != corner:
        return None, False
    on_line = table.zone_of(*first, on_line=0.0) is None or table.zone_of(*second, on_line=0.0) is None
    return corner, on_line


def _answer(f: Any, *args: Any) -> Any:
    try:
        return f(*args)
    except Exception as exc:  # the same refusal, whichever way asked
        return type(exc)


@st.composite
def spot(draw: st.DrawFn, length: float, width: float) -> Any:
    """A ball's place: anywhere on the bed, near a corner (in its zone, on its line, just out),
    as floats, whole numbers or a list of points."""
    cx = draw(st.sampled_from([0.0, length]))
    cy = draw(st.sampled_from([0.0, width]))
    near = draw(st.floats(0.0, 0.35))
    share = draw(st.floats(0.0, 1.0))
    dx, dy = near * share, near * (1 - share)
    x = draw(st.one_of(st.floats(0.0, length), st.just(abs(cx - dx))))
    y = draw(st.one_of(st.floats(0.0, width), st.just(abs(cy - dy))))
    point = [x, y]
    return draw(st.sampled_from([point, [point], [int(x), int(y)], [x, int(y)], (x, y)]))


@st.composite
def rest_positions(draw: st.DrawFn) -> tuple[str, Any]:
    bed = draw(st.sampled_from(sorted(TABLES)))
    tab = TABLES[bed]
    balls = {b: draw(spot(tab.length, tab.width)) for b in ("yellow", "white", "red")}
    for b in draw(st.lists(st.sampled_from(["yellow", "white", "red"]), max_size=2)):
        if draw(st.booleans()):
            balls.pop(b, None)
        else:
            balls[b] = None
    return bed, draw(st.sampled_from([balls, balls, balls, {}, None]))


@settings(max_examples=1500, deadline=None)
@given(rest_positions(), st.sampled_from(sorted(OBJECTS)))
def test_zone_check_answers_as_each_corner_asked(where: tuple[str, Any], player: str) -> None:
    bed, positions = where
    balls = OBJECTS[player]
    want = _answer(reference_zone, positions, balls, bed)
    assert _answer(object_balls_zone, positions, balls, carom_table(bed)) == want
    assert _answer(in_a_corner, positions, balls, bed) == (
        want if isinstance(want, type) else want[0] is not None)


@pytest.mark.parametrize("bed", ["snooker", 2.3])
def test_an_unknown_bed_is_refused_as_before(bed: Any) -> None:
    far = {"yellow": [1.4, 0.7], "white": [1.5, 0.7], "red": [1.2, 0.6]}
    assert _answer(in_a_corner, far, OBJECTS["p1"], bed) == _answer(reference_zone, far, OBJECTS["p1"], bed)
