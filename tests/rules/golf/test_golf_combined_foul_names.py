"""The second outsider pass: foul names that combine seed words (a ball off the table named
with whose ball it was, a ball held back named with the opponent's), as a referee who read
only docs/events.md and the seed text would write them."""

from __future__ import annotations

import pytest
from test_golf_helpers import foul, goal, miss, play, rest, rules, state


@pytest.mark.parametrize("name", ["off_table_opponent", "opponent_off_table", "opponents_ball_off_the_table"])
def test_golf_off_table_foul_naming_the_opponent_sends_their_ball_into_the_goal(name: str) -> None:
    # p1 scores and sends one of p2's balls off: the goal counts, p2's ball goes into the goal,
    # the turn is lost (seed: "those go into the goal ... scoring a valid goal ... costs the turn")
    rep = play(goal(1.0, "B", "p1"), rest(2.0), foul(3.0, name))
    s = state(rep)
    assert not rep.errors, rep.errors
    assert rules(rep)[-1] == "golf.off-table.opponent"
    assert s["balls_left"] == {"p1": 4, "p2": 4} and s["at_table"] == "p2"


@pytest.mark.parametrize("name", ["own_ball_off_table", "off_table_own", "ball_left_the_table"])
def test_golf_off_table_foul_naming_no_opponent_is_the_ball_played(name: str) -> None:
    rep = play(goal(1.0, "B", "p1"), rest(2.0), foul(3.0, name))
    s = state(rep)
    assert rules(rep)[-1] == "golf.off-table.own"
    assert s["balls_left"] == {"p1": 4, "p2": 5} and s["at_table"] == "p2"


def test_golf_an_explicit_ball_wins_over_the_word_in_the_foul_name() -> None:
    rep = play(miss(1.0), foul(3.0, "off_table_opponent", ball="p1"))
    assert rules(rep)[-1] == "golf.off-table.own" and state(rep)["balls_left"] == {"p1": 5, "p2": 5}


@pytest.mark.parametrize(
    ("name", "rule"),
    [
        ("held_back", "golf.foul.hold.own-ball"),
        ("held", "golf.foul.hold.own-ball"),
        ("hold_back_opponent_ball", "golf.foul.hold.opponent-ball"),
        ("held_back_opponent", "golf.foul.hold.opponent-ball"),
        ("nudged_other_ball", "golf.foul.hold.opponent-ball"),
        # the zone-play touch rules apply in zone play only; before it, the general touch rule
        ("touched_opponents_ball", "golf.foul.touch"),
    ],
)
def test_golf_hold_and_touch_names_with_the_opponent_anywhere(name: str, rule: str) -> None:
    rep = play(goal(1.0, "B", "p1"), rest(2.0), foul(3.0, name))
    assert not rep.errors, rep.errors
    assert rules(rep)[-1] == rule and state(rep)["at_table"] == "p2"


def test_golf_holding_back_the_opponents_ball_puts_it_into_the_goal() -> None:
    # seed: "... the ball you touched goes into the goal"
    rep = play(miss(1.0), foul(3.0, "hold_back_opponent_ball"))
    assert state(rep)["balls_left"] == {"p1": 5, "p2": 4}


def test_golf_two_fouls_in_one_shot_put_the_ball_played_on_one_replacement_spot() -> None:
    # a touch and a push called for the same shot: one ball was played, so one spot to name
    rep = play(goal(1.0, "B", "p1"), rest(2.0), foul(3.0, "touch"), foul(4.0, "push"))
    s = state(rep)
    assert rules(rep) == ["golf.foul.touch", "golf.foul.push"]
    assert s["spots_waiting"] == ["p1"] and s["balls_left"] == {"p1": 5, "p2": 5} and s["at_table"] == "p2"
