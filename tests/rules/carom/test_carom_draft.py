"""A shot's working copy of the score (``Draft``): what the shot did not change stays as it was,
what it changed is in the new score, whichever of the score's fields that is."""

from __future__ import annotations

from typing import Any

from tablesense.rules.carom.match import COLD, HOT, Draft, Match
from tablesense.rules.carom.profiles import LIEMERS
from tablesense.rules.carom.shot import Evidence

#: a score with every field away from its default (a field put in the wrong place shows)
SCORE = Match(discipline="driebanden", profile=LIEMERS, scheme="belgian", table="2.10", targets=(31, 32),
              caroms=(3, 4), innings=(5, 6), high_run=(2, 3), run=1, runs=((1, 2), (3,)), innings_limit=40,
              shot_clock=45, timeouts=2, timeouts_used=(1, 0), breaker="p2", shots=11, played=True,
              nastoot=True, from_outlay=False, zone="entree", zone_corner="head-left",
              positions={"red": [1.0, 0.5]}, announcement="POEDEL", evidence=Evidence(1, 1, 2, "contacts"),
              points=(1, 2))

#: a value for each field unlike ``SCORE``'s
OTHER: dict[str, Any] = dict(discipline="libre", profile=Match().profile, scheme="percentage", table="match",
                             targets=(7, 8), caroms=(9, 9), innings=(9, 8), high_run=(7, 7), run=5,
                             runs=((), (4,)), innings_limit=None, shot_clock=None, timeouts=0,
                             timeouts_used=(0, 0), breaker="p1", shots=12, played=False, nastoot=False,
                             from_outlay=True, zone="dedans", zone_corner="foot-right", positions=None,
                             announcement=None, evidence=None, points=None)


def test_every_field_of_the_score_is_a_draft_field_read_fast_or_through() -> None:
    assert sorted((*HOT, *COLD)) == sorted(Match.__struct_fields__) == sorted(OTHER)
    assert not set(HOT) & set(COLD)


def test_a_draft_the_shot_left_alone_freezes_to_the_same_score() -> None:
    d = Draft(SCORE, "p1", False, None)
    assert d.freeze() == SCORE
    for name in Match.__struct_fields__:
        assert getattr(d, name) == getattr(SCORE, name)


def test_a_field_the_shot_set_is_the_new_scores_and_only_that_one() -> None:
    for name, value in OTHER.items():
        d = Draft(SCORE, "p1", False, None)
        setattr(d, name, value)
        assert getattr(d, name) == value
        new = d.freeze()
        assert getattr(new, name) == value, name
        for other in Match.__struct_fields__:
            if other != name:
                assert getattr(new, other) == getattr(SCORE, other), (name, other)
