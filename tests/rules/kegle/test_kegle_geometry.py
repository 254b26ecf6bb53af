"""The keglebillard table as documented in rules/kegle/geometry.py and docs/kegle.md."""

from __future__ import annotations

import math

import pytest

from tablesense.rules.kegle import geometry as g


def test_kegle_table_is_twice_as_long_as_wide() -> None:
    assert (g.LENGTH, g.WIDTH) == (2.24, 1.12)
    assert g.BALL_RADIUS == pytest.approx(g.BALL_DIAMETER / 2)


def test_kegle_pockets_numbered_round_the_table_from_the_origin() -> None:
    assert g.POCKETS[1] == (0.0, 0.0)
    assert g.POCKETS[2] == (g.LENGTH / 2, 0.0)
    assert g.POCKETS[4] == (g.LENGTH, g.WIDTH)
    assert set(g.POCKETS) == g.CORNER_POCKETS | g.MIDDLE_POCKETS == {1, 2, 3, 4, 5, 6}
    for n, (x, y) in g.POCKETS.items():
        corner = x in (0.0, g.LENGTH) and y in (0.0, g.WIDTH)
        assert corner == (n in g.CORNER_POCKETS)


def test_kegle_five_pins_a_cross_on_the_centre_spot() -> None:
    assert g.PINS[1] == g.CENTRE == (g.LENGTH / 2, g.WIDTH / 2)
    for n in (2, 3, 4, 5):
        assert math.dist(g.PINS[n], g.CENTRE) == pytest.approx(g.PIN_SPACING)
    assert g.PINS[2][0] < g.CENTRE[0] < g.PINS[3][0]  # 2 towards the head, 3 towards the foot
    assert g.PINS[4][1] < g.CENTRE[1] < g.PINS[5][1]  # 4 towards the left (y = 0), 5 the right
    # room for a ball between two neighbouring pins? no: pins are closer than a ball; but a ball
    # resting on a white spot never blocks a pin
    for spot in g.WHITE_SPOTS.values():
        assert not any(g.blocks_pin(spot, n) for n in g.PINS)


def test_kegle_white_spots_on_the_strings_one_per_half() -> None:
    assert g.half(g.WHITE_SPOTS["head"][0]) == "head"
    assert g.half(g.WHITE_SPOTS["foot"][0]) == "foot"
    assert g.WHITE_SPOTS["head"][0] == g.HEAD_STRING_X
    assert g.WHITE_SPOTS["foot"][0] == g.FOOT_STRING_X


def test_kegle_halves_kitchens_and_the_middle_line() -> None:
    assert g.half(g.MIDDLE_LINE_X) == "middle"
    assert g.opposite("head") == "foot" and g.opposite("foot") == "head"
    assert g.in_kitchen(0.2, "head") and not g.in_kitchen(0.8, "head")
    assert g.in_kitchen(2.1, "foot") and not g.in_kitchen(1.5, "foot")
    assert g.on_table(1.0, 0.5) and not g.on_table(-0.1, 0.5) and not g.on_table(1.0, g.WIDTH)


def test_kegle_a_ball_on_a_pin_spot_blocks_that_pin_only() -> None:
    x, y = g.PINS[3]
    assert g.blocks_pin((x + 0.01, y), 3)
    assert not g.blocks_pin((x + 0.2, y), 3)
    assert g.CUSHIONS[1][0] == "head" and g.LONG_CUSHIONS == {2, 4}
