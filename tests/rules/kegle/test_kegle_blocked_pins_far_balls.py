"""``geometry.blocked_pins`` answers a rest whose balls all lie far from the pins without a check of
each pin (``away_from_pins``); it is held to the pin-by-pin check (``blocked_near``) over made-up
rests: balls anywhere on the table, just inside and just outside the reach of each pin's spot, on
a spot, written as ``[x, y]`` or ``[[x, y], ...]``, integers, empty or odd values (hypothesis),
and in a replayed shot (the state ``plain_shot`` gives equals ``settle_general``'s: the pins a ball
keeps off their spot ruled as before)."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.events import Cushion, Pin, Rest, parse_event
from tablesense.rules.kegle import geometry as g
from tablesense.rules.kegle.engine import KegleEngine
from tablesense.rules.kegle.verdict import settle_general
from tablesense.rules.shot_engine import ShotRecord

#: where a ball blocks a pin: within this of its spot (``blocks_pin``)
REACH = g.BALL_RADIUS + g.PIN_HEAD_DIAMETER / 2

anywhere = st.tuples(st.floats(0.0, g.LENGTH), st.floats(0.0, g.WIDTH))


@st.composite
def near_a_reach(draw: st.DrawFn) -> tuple[float, float]:
    """A point about ``REACH`` (or about the far bound) from a pin's spot or the centre, either side."""
    cx, cy = draw(st.sampled_from([*g.PINS.values(), g.CENTRE]))
    radius = draw(st.sampled_from([REACH, g.PIN_SPACING + REACH, g._FAR, g._FAR * math.sqrt(2)]))
    radius += draw(st.floats(-0.003, 0.003))
    if draw(st.booleans()):  # close to a pin's axis (the ones the far bound is nearest), or anywhere round
        axis = draw(st.sampled_from([0.0, math.pi / 2, math.pi, 3 * math.pi / 2]))
        angle = axis + draw(st.floats(-0.05, 0.05))
    else:
        angle = draw(st.floats(0.0, 2 * math.pi))
    return cx + radius * math.cos(angle), cy + radius * math.sin(angle)


points = st.one_of(anywhere, near_a_reach(), st.sampled_from([*g.PINS.values(), *g.WHITE_SPOTS.values()]))


def _written(point: tuple[float, float], as_int: bool) -> list[Any]:
    x, y = point
    return [round(x), y] if as_int else [x, y]


values = st.one_of(
    st.builds(_written, points, st.just(False)),  # [x, y] of floats
    st.lists(st.builds(_written, points, st.just(False)), min_size=1, max_size=3),  # [[x, y], ...]
    st.builds(_written, points, st.just(True)),  # an integer among them
    st.sampled_from([[], [[]], [1.0], [1.0, 2.0, 3.0], "red", None, [[1.0, 2.0], "x"], [[0.5, 0.5, 0.5]]]),
)
positions = st.dictionaries(st.sampled_from(["red", "white", "red2", "cue"]), values, max_size=3)
SETUP = parse_event({"t": 0.0, "type": "setup", "game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}})
pins = st.lists(st.integers(1, 5), unique=True, max_size=5).map(sorted)


@settings(max_examples=1500, deadline=None)
@given(positions, pins)
def test_blocked_pins_of_far_balls_equal_the_pin_by_pin_check(where: dict[str, Any],
                                                              which: list[int]) -> None:
    assert g.blocked_pins(where, which) == g.blocked_near(where, which)


@settings(max_examples=300, deadline=None)
@given(st.lists(points, min_size=1, max_size=3),
       st.lists(st.integers(1, 5), unique=True, min_size=1, max_size=5))
def test_a_shot_resting_near_or_far_from_the_pins_decides_as_the_general_way(
        balls: list[tuple[float, float]], toppled: list[int]) -> None:
    engine = KegleEngine()
    start = engine.new_state(SETUP)  # type: ignore[arg-type]
    events = [Cushion(t=1.0, cushion=2, ball="red"), *(Pin(t=1.1 + n / 10, pin=p, state="down")
                                                       for n, p in enumerate(toppled))]
    rest = Rest(t=3.0, positions={"red": list(balls[0]), "white": [list(b) for b in balls[1:]]})
    whole = engine.whole(start, events, rest)
    assert whole is not None
    general = settle_general(whole.before, ShotRecord(whole.before.at_table, tuple(events), rest))
    assert (whole.score, list(whole.rulings), whole.at_table) == (general.score, list(general.rulings),
                                                                  general.at_table)


def test_a_ball_just_inside_a_pins_reach_is_not_taken_for_far() -> None:
    x, y = g.PINS[4]
    near = {"red": [x, y - REACH + 0.001]}
    assert not g.away_from_pins(near)
    assert g.blocked_pins(near, [4]) == ([4], [4])
    assert g.away_from_pins({"red": [0.3, 0.3], "white": [[1.9, 0.1], [0.2, 1.0]]})
