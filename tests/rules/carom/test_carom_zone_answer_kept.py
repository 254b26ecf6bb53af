"""The zone check keeps its last answer for balls near a corner (``zones.object_balls_zone``: a
shot's decision asks it two or three times of the same rest): asked over and over of a few rests'
positions, in any order, for either player's object balls (or the two named the other way round)
and any bed, it answers each time what the corner-by-corner check (test_carom_zone_far_check.py's
reference) answers of that rest alone; and a rest's answer for one bed or player is not
another's."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_carom_zone_far_check import _answer, reference_zone, rest_positions

from tablesense.rules.carom.geometry import TABLES
from tablesense.rules.carom.geometry import table as carom_table
from tablesense.rules.carom.resolve import OBJECTS
from tablesense.rules.carom.zones import in_a_corner, object_balls_zone, still_in

balls = st.sampled_from([*OBJECTS.values(), *(b[::-1] for b in OBJECTS.values())])


@settings(max_examples=400, deadline=None)
@given(st.lists(rest_positions(), min_size=1, max_size=4),
       st.lists(st.tuples(st.integers(0, 3), balls, st.sampled_from([None, *sorted(TABLES)])), min_size=1,
                max_size=12))
def test_the_kept_answer_is_the_answer_of_the_rest_asked(rests: list[tuple[str, Any]],
                                                         asks: list[tuple[int, tuple[str, str], str | None]]
                                                         ) -> None:
    for k, objects, other_bed in asks:
        bed, positions = rests[k % len(rests)]
        bed = other_bed or bed
        want = _answer(reference_zone, positions, objects, bed)
        assert _answer(object_balls_zone, positions, objects, carom_table(bed)) == want
        assert _answer(in_a_corner, positions, objects, bed) == (
            want if isinstance(want, type) else want[0] is not None)


def test_the_same_rest_is_asked_again_for_another_bed_or_player() -> None:
    small = TABLES["2.30"]
    # p1's object balls (red, white) in the head-left zone of either bed; on the small bed's far
    # side, the foot-right zone of the small bed only
    near = {"yellow": [1.0, 0.5], "white": [0.05, 0.05], "red": [0.06, 0.04]}
    assert object_balls_zone(near, OBJECTS["p1"], small) == ("head-left", False)
    assert object_balls_zone(near, OBJECTS["p1"], carom_table("match")) == ("head-left", False)
    far = {"yellow": [1.0, 0.5], "white": [2.26, 1.11], "red": [2.27, 1.12]}
    assert object_balls_zone(far, OBJECTS["p1"], small) == ("foot-right", False)
    assert object_balls_zone(far, OBJECTS["p1"], carom_table("match")) == (None, False)
    assert object_balls_zone(far, OBJECTS["p2"], small) == (None, False)  # (yellow, red): not both there
    assert still_in(far, OBJECTS["p1"], "foot-right", small) is True
    assert still_in(far, OBJECTS["p1"], "head-left", small) is False
    assert still_in({"white": [2.26, 1.11]}, OBJECTS["p1"], "foot-right", small) is None
