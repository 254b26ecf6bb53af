"""``CaromTable.zone_of`` answers a point on the bed within reach of a corner with its nearest
corner at once (no walk over the four corners): the same corner, or None, as the walk (the code
before, kept here as the reference) for any point a rest may bring: on the bed, near and on each
zone's diagonal, on a cushion's nose, off the bed, far away, NaN and infinities, on every bed,
with the zone's own leg and line and with others (a leg as wide as half the bed: the walk)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.rules.carom.geometry import ON_LINE, TABLES, ZONE_LEG, CaromTable


def walk_zone(table: CaromTable, x: float, y: float, leg: float = ZONE_LEG,
              on_line: float = ON_LINE) -> str | None:
    """``zone_of`` before the nearest corner was taken at once: each corner in turn."""
    reach = leg + on_line * math.sqrt(2)
    across, along = table.width - y, table.length - x
    if (x if x <= along else along) + (y if y <= across else across) > reach:
        return None
    for corner, (cx, cy) in table.corner_points().items():
        if abs(x - cx) + abs(y - cy) <= reach:
            return corner
    return None


def _near(size: float) -> st.SearchStrategy[float]:
    """A coordinate near either end of a side ``size`` long: in, on and just past the zone."""
    step = st.floats(-0.05, 0.3, allow_nan=False)
    return st.one_of(step, step.map(lambda d: size - d), st.sampled_from([0.0, -0.0, size, size / 2]))


@st.composite
def points(draw: st.DrawFn) -> tuple[CaromTable, float, float]:
    table = draw(st.sampled_from(sorted(TABLES.values(), key=lambda t: t.name)))
    anywhere = st.floats(allow_nan=True, allow_infinity=True)
    x = draw(st.one_of(_near(table.length), anywhere))
    y = draw(st.one_of(_near(table.width), anywhere))
    return table, x, y


@settings(max_examples=600, deadline=None)
@given(points(), st.sampled_from([(ZONE_LEG, ON_LINE), (ZONE_LEG, 0.0), (0.05, 0.01), (0.6, 0.0),
                                   (0.0, 0.0)]))
def test_zone_of_answers_the_corner_the_walk_over_the_corners_answers(
        where: tuple[CaromTable, float, float], shape: tuple[float, float]) -> None:
    table, x, y = where
    leg, on_line = shape
    if (leg, on_line) == (ZONE_LEG, ON_LINE):
        assert table.zone_of(x, y) == walk_zone(table, x, y)
    assert table.zone_of(x, y, leg=leg, on_line=on_line) == walk_zone(table, x, y, leg, on_line)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_each_corner_of_each_bed_is_found_in_its_zone_and_on_its_line(name: str) -> None:
    table = TABLES[name]
    L, W = table.length, table.width
    for corner, (cx, cy) in table.corner_points().items():
        sx, sy = (1.0 if cx == 0.0 else -1.0), (1.0 if cy == 0.0 else -1.0)
        inside = (cx + sx * 0.05, cy + sy * 0.05)
        on_line = (cx + sx * 0.1, cy + sy * (0.11 + ON_LINE / 2))
        past = (cx + sx * 0.1, cy + sy * 0.12)
        assert table.zone_of(*inside) == corner == walk_zone(table, *inside)
        assert table.zone_of(*on_line) == corner == walk_zone(table, *on_line)
        assert table.zone_of(*on_line, on_line=0.0) is None
        assert table.zone_of(*past) is None
        assert table.zone_of(cx, cy) == corner  # the corner itself, on both cushions' noses
    assert table.zone_of(L / 2, W / 2) is None
