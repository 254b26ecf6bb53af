"""Golf replacement spots 4 and 5 (seeds/golf.md ``golf.spot.fallback``): only for when the
other balls make spots 1-3 unusable. Seed 000, "Replacement spots": "If the position of the
other balls makes these replacement spots unusable, the penalised ball goes on the next
eligible replacement spot, that is spot 4 or spot 5." """

from __future__ import annotations

from test_golf_helpers import call, goal, play, rest, rules, state

from tablesense.rules.golf import geometry as geo
from tablesense.rules.golf.positions import fallback_refused, free_spot

#: p1's ball near the middle, p2's far from every replacement spot of p1
CLEAR = {"p1": [[0.9, 0.15]], "p2": [[1.2, 0.75]]}


def _spot(n: int) -> list[float]:
    return list(geo.REPLACEMENT_SPOTS["p1"][n])


def test_golf_spot_fallback_spot_4_refused_when_positions_show_spots_1_to_3_free() -> None:
    # p1's own goal: his ball waits for the spot p2 chooses; the positions show 1-3 free
    rep = play(goal(1.0, "A", "p1"), rest(2.0, CLEAR), call(3.0, "spot", ball="p1", spot=4))
    err = rep.errors[0].error
    assert "golf.spot.fallback" in err and "spots 1, 2 and 3 free" in err and "choose spot 1, 2 or 3" in err
    s = state(rep)
    assert s["spots_waiting"] == ["p1"] and "golf.spot.fallback" not in rules(rep)
    # the same call with a spot of 1-3 stands
    rep = play(goal(1.0, "A", "p1"), rest(2.0, CLEAR), call(3.0, "spot", ball="p1", spot=4),
               call(4.0, "spot", ball="p1", spot=2))
    s = state(rep)
    assert s["spots_waiting"] == [] and s["replacements"] == [{"ball": "p1", "spot": 2}]
    assert rules(rep)[-1] == "golf.spot.choice"


def test_golf_spot_fallback_spot_5_refused_names_the_one_free_spot() -> None:
    pos = {"p1": [[0.9, 0.15]], "p2": [_spot(1), _spot(3)]}
    rep = play(goal(1.0, "A", "p1"), rest(2.0, pos), call(3.0, "spot", ball="p1", spot=5))
    err = rep.errors[0].error
    assert "spot 2 free" in err and "choose spot 2 " in err
    assert state(rep)["spots_waiting"] == ["p1"]


def test_golf_spot_fallback_spot_4_stands_without_positions_or_with_1_to_3_covered() -> None:
    # no positions: the referee's word decides
    rep = play(goal(1.0, "A", "p1"), rest(2.0), call(3.0, "spot", ball="p1", spot=4))
    assert not rep.errors and rules(rep)[-1] == "golf.spot.fallback"
    # 1-3 covered: the engine puts the ball on 4 itself (nothing waits)
    pos = {"p1": [[0.9, 0.15]], "p2": [_spot(1), _spot(2), _spot(3)]}
    assert free_spot("p1", (((0.9, 0.15),), tuple(tuple(p) for p in pos["p2"]))) == 4  # type: ignore[misc]
    rep = play(goal(1.0, "A", "p1"), rest(2.0, pos))
    assert state(rep)["replacements"] == [{"ball": "p1", "spot": 4}]


def test_golf_spot_fallback_refused_for_a_ball_still_waiting_after_a_time_call() -> None:
    # a TIME call stands alone and leaves p1's ball waiting: the positions still show 1-3 free
    rep = play(goal(1.0, "A", "p1"), rest(2.0, CLEAR), call(3.0, "time"),
               call(4.0, "spot", ball="p1", spot=4))
    assert rep.errors and "golf.spot.fallback" in rep.errors[-1].error


def test_golf_spot_fallback_refused_is_a_plain_function_of_the_positions() -> None:
    clear = (((0.9, 0.15),), ((1.2, 0.75),))
    assert fallback_refused("p1", clear, 2) is None  # 1-3 are always the opponent's choice
    assert fallback_refused("p1", None, 4) is None
    assert fallback_refused("p1", clear, 4) is not None
