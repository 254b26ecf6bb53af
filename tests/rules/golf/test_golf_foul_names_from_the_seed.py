"""What a referee who read only docs/events.md and the seed rule text would write: the foul
names built from the seed's words, a ball off the table called as a foul, an own goal called
by the referee, and no open question where the rules need none."""

from __future__ import annotations

import pytest
from test_golf_helpers import call, foul, goal, miss, off, one_one, play, rest, rules, scores, state

# (name an outsider may call, the catalogue id it means)
SPELLINGS = [
    ("touch", "golf.foul.touch"),
    ("touched", "golf.foul.touch"),
    ("Touch", "golf.foul.touch"),
    ("push", "golf.foul.push"),
    ("push_shot", "golf.foul.push"),
    ("pushed", "golf.foul.push"),
    ("double_hit", "golf.foul.push"),
    ("foot", "golf.foul.foot"),
    ("no_foot", "golf.foul.foot"),
    ("both_feet", "golf.foul.foot"),
    ("foot_off_floor", "golf.foul.foot"),
    ("foot-on-floor", "golf.foul.foot"),
    ("jump", "golf.foul.jump"),
    ("jump_shot", "golf.foul.jump"),
    ("over_pegs", "golf.foul.jump"),
    ("played_over", "golf.foul.jump"),
    ("wrong_ball", "golf.foul.opponent-ball"),
    ("opponent_ball", "golf.foul.opponent-ball"),
    ("opponents_ball", "golf.foul.opponent-ball"),
    ("play_opponent_ball", "golf.foul.opponent-ball"),
    ("own_ball", "golf.foul.own-ball"),
    ("play_on_own_ball", "golf.foul.own-ball"),
    ("early", "golf.foul.not-at-rest"),
    ("not_at_rest", "golf.foul.not-at-rest"),
    ("moving_balls", "golf.foul.not-at-rest"),
    ("aimed_early", "golf.foul.not-at-rest"),
    ("hard_shot", "golf.foul.hard-shot"),
    ("shot_line", "golf.foul.hard-shot"),
    ("massé", "golf.foul.hard-shot"),
    ("piqué", "golf.foul.hard-shot"),
    ("lift", "golf.foul.lift"),
    ("lift_over_cushion", "golf.foul.lift"),
    ("lifting", "golf.foul.lift"),
    ("hold", "golf.foul.hold.own-ball"),
    ("hold_back", "golf.foul.hold.own-ball"),
    ("nudge", "golf.foul.hold.own-ball"),
    ("nudge_opponent", "golf.foul.hold.opponent-ball"),
    ("hold_opponent_ball", "golf.foul.hold.opponent-ball"),
    ("push_through", "golf.foul.push-through"),
    ("touching_ball", "golf.foul.touching-ball"),
    ("triangle", "golf.triangle.defensive"),
    ("zone", "golf.zone.leave"),
    ("no_zone_change", "golf.zone.leave"),
]


@pytest.mark.parametrize(("name", "rule"), SPELLINGS)
def test_golf_foul_names_from_the_seed_words_are_understood(name: str, rule: str) -> None:
    rep = play(goal(1.0, "B", "p1"), rest(2.0), foul(3.0, name))
    assert not rep.errors, rep.errors
    assert rules(rep)[-1] == rule
    s = state(rep)
    assert s["at_table"] == "p2"  # every foul costs the turn
    assert s["questions"] == []  # nothing to answer: the opponent may name a spot with a 'spot' call


@pytest.mark.parametrize(
    "name", ["aim", "aim_behind", "position_behind", "time", "timeout", "time_out", "slow"]
)
def test_golf_fouls_before_the_next_shot_leave_the_goal_standing(name: str) -> None:
    # aiming behind an opponent's ball and the clock are about the next shot: the goal stays
    rep = play(goal(1.0, "B", "p1"), rest(2.0), foul(3.0, name))
    s = state(rep)
    assert not rep.errors and s["balls_left"] == {"p1": 4, "p2": 5} and s["at_table"] == "p2"


def test_golf_unknown_foul_names_are_still_refused() -> None:
    rep = play(goal(1.0, "B", "p1"), rest(2.0), foul(3.0, "miscue"))
    assert "unknown golf foul 'miscue'" in rep.errors[0].error
    assert state(rep)["at_table"] == "p1"  # the goal stands, the match goes on


@pytest.mark.parametrize("name", ["off_table", "off-table", "ball_off_table", "out"])
def test_golf_off_table_called_as_a_foul_is_the_off_table_rule(name: str) -> None:
    # without a ball: the ball played (the shooter's) left the table; the goal counts, the turn is lost
    rep = play(goal(1.0, "B", "p1"), rest(2.0), foul(3.0, name))
    s = state(rep)
    assert rules(rep)[-1] == "golf.off-table.own" and s["balls_left"] == {"p1": 4, "p2": 5}
    assert s["at_table"] == "p2" and s["spots_waiting"] == ["p1"]
    # with the opponent's ball: it goes into the goal
    rep = play(miss(1.0), foul(3.0, name, ball="p2"))
    assert "golf.off-table.opponent" in rules(rep) and state(rep)["balls_left"] == {"p1": 5, "p2": 4}


def test_golf_own_goal_called_by_the_referee() -> None:
    rep = play(miss(1.0), foul(3.0, "own_goal"))
    s = state(rep)
    assert rules(rep)[-1] == "golf.own-goal" and s["at_table"] == "p2" and s["balls_left"]["p1"] == 5
    # seen by the sensor and called as well: one own goal
    rep = play(goal(1.0, "A", "p1"), rest(2.0), foul(3.0, "own-goal"))
    assert rules(rep).count("golf.own-goal") == 1 and state(rep)["spots_waiting"] == ["p1"]


def test_golf_zone_play_miss_asks_nothing() -> None:
    rep = play(scores(1.0, "p1", 4), miss(20.0))
    s = state(rep)
    assert s["zone_play"] is True and s["questions"] == [] and s["at_table"] == "p2"


def test_golf_same_t_double_finish_goes_to_the_goal_listed_first() -> None:
    for first, second, winner in (("p2", "p1", "p2"), ("p1", "p2", "p1")):
        g = {"p1": goal(60.0, "B", "p1"), "p2": goal(60.0, "B", "p2")}  # p2 knocks into B: counts for p2
        rep = play(one_one(), call(59.0, "time"), g[first], g[second], rest(61.0))
        assert state(rep)["frame_winners"] == [winner], (first, second)


def test_golf_spot_call_for_an_off_table_ball_then_the_next_shot() -> None:
    rep = play(off(1.0, "p1"), rest(2.0), call(3.0, "spot", ball="p1", spot=2), miss(5.0))
    s = state(rep)
    assert "golf.spot.choice" in rules(rep) and s["spots_waiting"] == [] and s["at_table"] == "p1"


def test_golf_at_the_table_after_the_match_is_who_played_the_deciding_shot() -> None:
    # docs/events.md's example: winner p1, at_table p2. p1 takes frame 1; in frame 2 (p2 opens)
    # p2, at 1/1, sends p1's ball off the table and scores: p2 loses the frame and the match
    frame1 = scores(1.0, "p1", 5)
    frame2 = one_one(100.0)  # p1 four, a miss, p2 four: p2 at the table at 1/1
    rep = play(
        frame1,
        call(50.0, "start", player="p1"),
        frame2,
        off(160.0, "p1"),
        goal(160.5, "A", "p2"),
        rest(161.0),
    )
    s = state(rep)
    assert "golf.off-table.one-one" in rules(rep)
    assert (s["finished"], s["winner"], s["at_table"]) == (True, "p1", "p2")
    assert s["frames_won"] == {"p1": 2, "p2": 0}
    # the winner scoring their own last ball stays at the table
    s = state(play(frame1, call(50.0, "start", player="p1"), scores(60.0, "p1", 5)))
    assert (s["finished"], s["winner"], s["at_table"]) == (True, "p1", "p1")


@pytest.mark.parametrize(
    ("fmt", "players", "duo"),
    [
        ("single", {"p1": "Ann", "p2": "Bob"}, False),
        ("singles", {"p1": "Ann", "p2": "Bob"}, False),
        ("solo", {"p1": "Ann", "p2": "Bob"}, False),
        ("1v1", {"p1": "Ann", "p2": "Bob"}, False),
        ("doubles", {"p1": ["Ann", "Cor"], "p2": ["Bob", "Dirk"]}, True),
        ("Duo", {"p1": ["Ann", "Cor"], "p2": ["Bob", "Dirk"]}, True),
        (None, {"p1": ["Ann", "Cor"], "p2": ["Bob", "Dirk"]}, True),
    ],
)
def test_golf_setup_format_words_do_not_lose_the_match(fmt: str | None, players: dict, duo: bool) -> None:
    rep = play(goal(1.0, "B", "p1"), rest(2.0), players=players, fmt=fmt)
    s = state(rep)
    assert not rep.errors and s["format"] == ("duo" if duo else "single") and s["balls_left"]["p1"] == 4


def test_golf_sensor_events_with_a_null_ball_decide_nothing_by_themselves() -> None:
    nulls = [
        {"t": 1.0, "type": "strike", "ball": None},
        {"t": 1.2, "type": "cushion", "cushion": 3, "ball": None},
    ]
    rep = play(*nulls, goal(1.5, "B", "p1"), rest(2.0))
    s = state(rep)
    assert not rep.errors and s["balls_left"]["p1"] == 4 and s["at_table"] == "p1"
    assert rules(rep) == ["golf.goal"]


@pytest.mark.parametrize(
    ("name", "rule"),
    [
        ("push", "golf.foul.push"),
        ("touch", "golf.foul.touch"),
        ("foot", "golf.foul.foot"),
        ("jump", "golf.foul.jump"),
    ],
)
def test_golf_a_foul_named_as_the_call_itself(name: str, rule: str) -> None:
    rep = play(goal(1.0, "B", "p1"), rest(2.0), call(3.0, name))
    s = state(rep)
    assert not rep.errors and rules(rep)[-1] == rule and s["balls_left"]["p1"] == 5 and s["at_table"] == "p2"
    bad = play(call(3.0, "sneeze"))
    assert "unknown golf call 'sneeze'" in bad.errors[0].error


def test_golf_spot_call_may_name_the_player_who_chooses() -> None:
    rep = play(goal(1.0, "A", "p1"), rest(2.0), call(3.0, "spot", player="p2", spot=1))
    s = state(rep)
    assert not rep.errors and s["replacements"] == [{"ball": "p1", "spot": 1}] and s["spots_waiting"] == []
