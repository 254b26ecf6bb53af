"""Golf billiards rules, one test (at least) per id of seeds/golf.md, through the real Replay."""

from __future__ import annotations

import pytest
from test_golf_helpers import (
    DUO,
    call,
    cushion,
    foul,
    goal,
    miss,
    off,
    one_one,
    play,
    rest,
    rules,
    scores,
    state,
)

from tablesense.rules.golf import geometry as geo

# --- the table, the balls, winning ------------------------------------------------


def test_golf_table_has_the_seed_dimensions_pegs_and_fifteen_zones() -> None:
    assert "golf.table" in geo.RULES
    assert (geo.LENGTH, geo.WIDTH) == (1.80, 0.90)
    assert len(geo.PEGS) == 12 and len(geo.BOS_PEGS) == 8
    for peg in geo.PEGS:
        assert 0 < peg.x < geo.LENGTH and 0 < peg.y < geo.WIDTH
    seen = {geo.zone_of((0.18 + 0.36 * c, 0.15 + 0.30 * r)) for c in range(5) for r in range(3)}
    assert seen == set(range(1, 16))
    assert geo.zone_of(geo.CENTRE) == geo.BOS_ZONE
    assert geo.zone_of((0.36, 0.10)) is None  # on a zone line


def test_golf_balls_five_each_at_the_start() -> None:
    assert "golf.balls" in geo.RULES
    assert geo.BALL_DIAMETER == 0.0615
    s = state(play())
    assert s["balls_left"] == {"p1": 5, "p2": 5}
    assert s["frames_won"] == {"p1": 0, "p2": 0}
    assert s["zone_play"] is False and s["at_table"] == "p1"


def test_golf_goal_valid_goal_keeps_the_player_at_the_table() -> None:
    rep = play(goal(1.0, "B", "p1"), rest(2.0))
    s = state(rep)
    assert s["balls_left"] == {"p1": 4, "p2": 5}
    assert s["at_table"] == "p1"
    assert s["rulings"][0]["rule"] == "golf.goal" and s["rulings"][0]["t"] == 1.0


def test_golf_goal_opponent_ball_counts_for_the_opponent_and_turn_passes() -> None:
    rep = play(goal(1.0, "A", "p2"), rest(2.0))
    s = state(rep)
    assert s["balls_left"] == {"p1": 5, "p2": 4}
    assert s["at_table"] == "p2"
    assert rules(rep) == ["golf.goal.opponent-ball"]
    # into the opponent's own goal counts as well (either goal)
    assert state(play(goal(1.0, "B", "p2"), rest(2.0)))["balls_left"]["p2"] == 4


def test_golf_own_goal_does_not_count_ball_on_a_spot_turn_over() -> None:
    rep = play(goal(1.0, "A", "p1"), rest(2.0))
    s = state(rep)
    assert s["balls_left"] == {"p1": 5, "p2": 5}
    assert s["at_table"] == "p2"
    assert rules(rep) == ["golf.own-goal"]
    # the ball waits for the opponent's 'spot' call; nothing is asked
    assert s["spots_waiting"] == ["p1"] and s["questions"] == []


def test_golf_turn_passes_without_a_valid_goal() -> None:
    rep = play(miss(1.0))
    assert state(rep)["at_table"] == "p2"
    assert rules(rep) == ["golf.turn"]


def test_golf_goal_edge_ball_dropping_after_rest_does_not_count() -> None:
    rep = play(goal(1.0, "B", "p1"), rest(2.0), call(3.0, "edge", ball="p1"))
    s = state(rep)
    assert s["balls_left"]["p1"] == 5
    assert "golf.goal.edge" in rules(rep)
    assert s["at_table"] == "p2"
    bad = play(miss(1.0), call(3.0, "edge", ball="p1"))
    assert "no ball of p1 dropped" in bad.errors[0].error


def test_golf_frame_won_and_the_other_player_opens_frame_two() -> None:
    rep = play(scores(1.0, "p1", 5))
    s = state(rep)
    assert s["frames_won"] == {"p1": 1, "p2": 0}
    assert s["frame"] == 2 and s["balls_left"] == {"p1": 5, "p2": 5}
    assert s["at_table"] == "p2"
    assert rules(rep)[-2:] == ["golf.frame.won", "golf.frame.opening"]


def test_golf_frame_double_finish_decided_by_t_not_file_order() -> None:
    base = scores(1.0, "p1", 4) + miss(10.0) + scores(20.0, "p2", 4)  # 1/1, p2 at the table
    # p2 plays p1's last ball into A (counts for p1) and then its own; p1's dropped 300 µs earlier,
    # but the log lists p2's line first
    shot = [goal(40.000300, "A", "p2"), goal(40.000000, "A", "p1"), rest(41.0)]
    rep = play(base, shot)
    s = state(rep)
    assert s["frames_won"] == {"p1": 1, "p2": 0}
    r = [x for x in s["rulings"] if x["rule"] == "golf.frame.double-finish"]
    assert r and r[0]["player"] == "p1" and r[0]["t"] == 40.0
    swapped = [goal(40.000000, "A", "p2"), goal(40.000300, "A", "p1"), rest(41.0)]
    assert state(play(base, swapped))["frames_won"] == {"p1": 0, "p2": 1}


def test_golf_match_won_best_of_three() -> None:
    rep = play(scores(1.0, "p1", 5), scores(20.0, "p2", 5), call(39.0, "start", player="p1"),
               scores(40.0, "p1", 5))
    s = state(rep)
    assert s["finished"] is True and s["winner"] == "p1"
    assert s["frames_won"] == {"p1": 2, "p2": 1}
    assert s["frame_winners"] == ["p1", "p2", "p1"]
    assert rules(rep)[-1] == "golf.match.won"
    after = play(scores(1.0, "p1", 5), scores(20.0, "p2", 5), scores(40.0, "p1", 5), miss(60.0))
    assert "match is over" in after.errors[0].error


def test_golf_frame_opening_start_call_and_its_limits() -> None:
    rep = play(call(0.5, "start", player="p2"), goal(1.0, "A", "p2"), rest(2.0))
    s = state(rep)
    assert rules(rep) == ["golf.frame.opening", "golf.goal"]
    assert s["balls_left"]["p2"] == 4 and s["at_table"] == "p2"
    late = play(miss(1.0), call(3.0, "start", player="p1"))
    assert "before the first shot" in late.errors[0].error


# --- fouls -------------------------------------------------------------------------

# (name called, id, balls played go on a spot outside zone play)
FOULS = [
    ("foot", "golf.foul.foot", False),
    ("jump", "golf.foul.jump", True),
    ("lift", "golf.foul.lift", True),
    ("hard-shot", "golf.foul.hard-shot", True),
    ("opponent-ball", "golf.foul.opponent-ball", False),
    ("not-at-rest", "golf.foul.not-at-rest", False),
    ("touch", "golf.foul.touch", True),
    ("push", "golf.foul.push", True),
    ("touching-ball", "golf.foul.touching-ball", True),
    ("push-through", "golf.foul.push-through", True),
    ("own-ball", "golf.foul.own-ball", True),
    ("hold-own", "golf.foul.hold.own-ball", True),
    ("hold-opponent", "golf.foul.hold.opponent-ball", True),
    ("defensive-triangle", "golf.triangle.defensive", True),
    ("triangle-several", "golf.triangle.defensive.several", True),
]


@pytest.mark.parametrize(("name", "rule", "spotted"), FOULS)
def test_golf_foul_after_rest_puts_balls_back_and_costs_the_turn(name: str, rule: str, spotted: bool) -> None:
    rep = play(goal(1.0, "B", "p1"), rest(2.0), foul(3.0, name))
    s = state(rep)
    assert s["at_table"] == "p2"
    assert rule in rules(rep)
    assert "golf.goal" not in rules(rep)  # the goal of the shot does not count
    expected_p2 = 4 if rule == "golf.foul.hold.opponent-ball" else 5  # the touched ball into the goal
    assert s["balls_left"] == {"p1": 5, "p2": expected_p2}
    assert bool(s["spots_waiting"]) is spotted and s["questions"] == []


@pytest.mark.parametrize("name", ["aim-behind", "time"])
def test_golf_foul_aim_behind_and_time_cost_the_turn_and_in_zone_play_a_ball(name: str) -> None:
    rule = "golf.foul.aim-behind" if name == "aim-behind" else "golf.clock"
    rep = play(foul(0.5, name))
    s = state(rep)
    assert rules(rep) == [rule] and s["at_table"] == "p2" and s["questions"] == []
    zone = play(one_one(), foul(60.0, name))  # p2 at the table at 1/1
    zs = state(zone)
    assert zs["at_table"] == "p1"
    assert zs["spots_waiting"] == ["p2"] and zs["questions"] == []
    assert "points out a ball" in zs["rulings"][-1]["text"]


def test_golf_clock_starts_at_rest_and_time_call_applies_the_penalty() -> None:
    rep = play(miss(1.0))
    clock = state(rep)["clock"]
    assert clock["start"] == 2.0 and clock["limit"] == 50.0 and clock["grace"] == 10.0
    assert clock["player"] == "p2" and clock["deadline"] == 62.0
    rep = play(miss(1.0), call(62.5, "time"))
    s = state(rep)
    assert rules(rep)[-1] == "golf.clock" and s["at_table"] == "p1"
    assert s["clock"]["start"] == 62.5


@pytest.mark.parametrize("name", ["foot", "no-foot-on-floor", "FOOT", "golf.foul.foot", "foul.foot",
                                  "GOLF_FOUL_FOOT", "no_foot_on_floor"])
def test_golf_foul_names_are_normalised(name: str) -> None:
    assert rules(play(foul(0.5, name))) == ["golf.foul.foot"]


@pytest.mark.parametrize("name", ["touch", "foot", "push", "double-hit", "jump", "wrong-ball", "time"])
def test_golf_referee_panel_foul_buttons_are_all_known(name: str) -> None:
    rep = play(goal(1.0, "B", "p1"), rest(2.0), foul(3.0, name))
    assert not rep.errors and state(rep)["at_table"] == "p2"


def test_golf_unknown_foul_is_an_illegal_call_listing_the_known_ones() -> None:
    rep = play(foul(0.5, "sneeze"), miss(1.0))
    (err,) = rep.errors
    assert err.line == 2 and "unknown golf foul 'sneeze'" in err.error and "touch" in err.error
    assert state(rep)["at_table"] == "p2"  # the match went on


def test_golf_foul_touch_own_ball_and_opponent_ball_in_zone_play() -> None:
    rep = play(one_one(), goal(60.0, "A", "p2"), rest(61.0), foul(62.0, "touch-own"))
    s = state(rep)
    assert "golf.foul.touch.own-ball" in rules(rep)
    assert s["balls_left"] == {"p1": 1, "p2": 1} and s["frames_won"] == {"p1": 0, "p2": 0}
    rep = play(one_one(), goal(60.0, "A", "p2"), rest(61.0), foul(62.0, "touch-opponent"))
    assert "golf.foul.touch.opponent-ball" in rules(rep)
    assert state(rep)["balls_left"] == {"p1": 1, "p2": 1}
    # before zone play the plain touch applies
    assert "golf.foul.touch" in rules(play(miss(1.0), foul(3.0, "touch-own")))


def test_golf_foul_touch_without_a_shot_stands_alone() -> None:
    rep = play(miss(1.0), foul(5.0, "touch", player="p2"))
    s = state(rep)
    # no shot played, so no ball played to put on a replacement spot (issue 13)
    assert s["at_table"] == "p1" and rules(rep)[-1] == "golf.foul.touch.no-shot"
    assert s["spots_waiting"] == []
    bad = play(foul(0.5, "touch", player="p2"))
    assert "p1 is at the table" in bad.errors[0].error


def test_golf_foul_during_the_shot_joins_its_evidence() -> None:
    rep = play(cushion(1.0), foul(1.5, "push"), goal(1.8, "B", "p1"), rest(2.0))
    s = state(rep)
    assert s["balls_left"]["p1"] == 5 and s["at_table"] == "p2"
    assert rules(rep) == ["golf.foul.push"]


def test_golf_foul_opponent_ball_seen_by_the_strike_sensor() -> None:
    rep = play({"t": 1.0, "type": "strike", "ball": "p2"}, goal(1.5, "A", "p2"), rest(2.0))
    assert "golf.foul.opponent-ball" in rules(rep)
    assert state(rep)["balls_left"]["p2"] == 5  # balls put back


def test_golf_foul_own_ball_seen_by_the_first_contact() -> None:
    rep = play({"t": 1.0, "type": "contact", "balls": ["p1", "p1"]}, goal(1.5, "B", "p1"), rest(2.0))
    assert "golf.foul.own-ball" in rules(rep)
    assert state(rep)["at_table"] == "p2"
    ok = play({"t": 1.0, "type": "contact", "balls": ["p1", "p2"]}, goal(1.5, "B", "p1"), rest(2.0))
    assert rules(ok) == ["golf.goal"]


def test_golf_undo_takes_back_a_foul_call() -> None:
    rep = play(goal(1.0, "B", "p1"), rest(2.0), foul(3.0, "touch"), call(4.0, "undo"))
    s = state(rep)
    assert s["balls_left"]["p1"] == 4 and s["at_table"] == "p1" and rules(rep) == ["golf.goal"]


# --- wedged balls and balls off the table -----------------------------------------------


def test_golf_wedged_attacking_goal_is_a_valid_goal() -> None:
    rep = play(cushion(1.0), rest(2.0), call(3.0, "wedged", ball="p1", where="attacking"))
    s = state(rep)
    assert "golf.wedged.attacking-goal" in rules(rep) and s["balls_left"]["p1"] == 4
    assert s["at_table"] == "p1"


def test_golf_wedged_defending_goal_goes_on_a_spot() -> None:
    rep = play(cushion(1.0), rest(2.0), call(3.0, "wedged", ball="p1", where="defending"))
    s = state(rep)
    assert "golf.wedged.defending-goal" in rules(rep)
    assert s["spots_waiting"] == ["p1"] and s["at_table"] == "p2"


def test_golf_wedged_cushion_is_freed_without_penalty() -> None:
    rep = play(goal(1.0, "B", "p1"), rest(2.0), call(3.0, "wedged", ball="p2", where="cushion"))
    assert "golf.wedged.cushion" in rules(rep)
    assert state(rep)["at_table"] == "p1"
    bad = play(call(3.0, "wedged", ball="p2", where="pocket"))
    assert "attacking, defending, cushion" in bad.errors[0].error


def test_golf_off_table_own_ball_on_a_spot_and_the_goal_costs_the_turn() -> None:
    rep = play(goal(1.0, "B", "p1"), off(1.2, "p1"), rest(2.0))
    s = state(rep)
    assert "golf.off-table.own" in rules(rep)
    assert s["balls_left"]["p1"] == 4  # the goal counts
    assert s["at_table"] == "p2"
    assert s["spots_waiting"] == ["p1"]


def test_golf_off_table_opponent_ball_goes_into_the_goal_ball_played_on_a_spot() -> None:
    rep = play(off(1.2, "p2"), rest(2.0))
    s = state(rep)
    assert "golf.off-table.opponent" in rules(rep)
    assert s["balls_left"] == {"p1": 5, "p2": 4}
    assert s["spots_waiting"] == ["p1"] and s["at_table"] == "p2"


def test_golf_off_table_one_one_costs_the_frame() -> None:
    rep = play(one_one(), off(60.0, "p1"), goal(60.5, "A", "p2"), rest(61.0))
    s = state(rep)
    assert "golf.off-table.one-one" in rules(rep)
    assert s["frames_won"] == {"p1": 1, "p2": 0}


def test_golf_off_table_rail_return_is_not_penalised() -> None:
    rep = play(off(1.2, "p2"), rest(2.0), call(3.0, "rail", ball="p2"))
    s = state(rep)
    assert "golf.off-table.rail-return" in rules(rep)
    assert s["balls_left"]["p2"] == 5 and s["questions"] == []
    bad = play(miss(1.0), call(3.0, "rail", ball="p2"))
    assert "no ball of p2 left the table" in bad.errors[0].error


def test_golf_off_table_on_cushion_call_counts_as_off_the_table() -> None:
    rep = play(cushion(1.0), rest(2.0), call(3.0, "off_table", ball="p2"))
    s = state(rep)
    assert rules(rep)[:2] == ["golf.off-table.on-cushion", "golf.off-table.opponent"]
    assert s["balls_left"]["p2"] == 4


def test_golf_off_table_unknown_ball_asks_the_referee() -> None:
    rep = play(off(1.2, None), rest(2.0))
    (q,) = state(rep)["questions"]
    assert q["options"] == ["p1", "p2"]
    rep = play(off(1.2, None), rest(2.0), call(3.0, "answer", question=q["id"], answer="p2"))
    assert state(rep)["balls_left"]["p2"] == 4


def test_golf_goal_with_unknown_ball_asks_whose_it_was() -> None:
    rep = play(goal(1.0, "B", None), rest(2.0))
    (q,) = state(rep)["questions"]
    assert q["rule"] == "golf.goal" and q["options"] == ["p1", "p2"]
    rep = play(goal(1.0, "B", None), rest(2.0), call(3.0, "answer", question=q["id"], answer="p1"))
    s = state(rep)
    assert s["balls_left"]["p1"] == 4 and s["at_table"] == "p1" and s["questions"] == []


# --- triangles, zones and spots decided from positions ---------------------------------


def test_golf_triangle_attacking_from_positions() -> None:
    before = {"p1": [[0.9, 0.15]], "p2": [[1.70, 0.45]]}
    after = {"p1": [[1.50, 0.45]], "p2": [[1.70, 0.45]]}
    rep = play(rest(0.5, before), cushion(1.0), rest(2.0, after))
    assert "golf.triangle.attacking" in rules(rep)
    assert state(rep)["spots_waiting"] == ["p1"]
    fine = {"p1": [[1.50, 0.45]], "p2": [[1.40, 0.80]]}
    assert "golf.triangle.attacking" not in rules(play(rest(0.5, before), cushion(1.0), rest(2.0, fine)))


def test_golf_triangle_defensive_from_positions() -> None:
    start = {"p1": [[0.20, 0.45], [0.9, 0.15]], "p2": [[1.2, 0.75]]}
    end = {"p1": [[0.25, 0.45], [0.9, 0.25]], "p2": [[1.2, 0.75]]}
    rep = play(rest(0.5, start), cushion(1.0), rest(2.0, end))
    assert "golf.triangle.defensive" in rules(rep)
    left = {"p1": [[0.60, 0.45], [0.9, 0.25]], "p2": [[1.2, 0.75]]}
    assert "golf.triangle.defensive" not in rules(play(rest(0.5, start), cushion(1.0), rest(2.0, left)))


def test_golf_triangle_defensive_several_from_positions() -> None:
    start = {"p1": [[0.10, 0.40], [0.15, 0.55]], "p2": [[1.2, 0.75]]}
    end = {"p1": [[0.12, 0.40], [0.15, 0.60]], "p2": [[1.2, 0.75]]}
    rep = play(rest(0.5, start), cushion(1.0), rest(2.0, end))
    assert "golf.triangle.defensive.several" in rules(rep)
    assert state(rep)["spots_waiting"] == ["p1", "p1"]


def test_golf_zone_play_starts_at_one_ball_left() -> None:
    rep = play(scores(1.0, "p1", 3))
    assert state(rep)["zone_play"] is False
    rep = play(scores(1.0, "p1", 4))
    assert state(rep)["zone_play"] is True
    assert rules(rep)[-1] == "golf.zone.play"


def test_golf_zone_leave_from_positions() -> None:
    pos = {"p1": [[0.9, 0.15]], "p2": [[0.54, 0.75]]}
    rep = play(one_one(positions=pos), cushion(51.0), rest(52.0, pos))
    s = state(rep)
    assert "golf.zone.leave" in rules(rep)
    assert s["at_table"] == "p1" and s["spots_waiting"] == ["p2"]
    moved = {"p1": [[0.9, 0.15]], "p2": [[0.9, 0.75]]}
    rep = play(one_one(positions=pos), cushion(51.0), rest(52.0, moved))
    assert "golf.zone.leave" not in rules(rep)
    # a foul that puts the balls back leaves nothing for the positions to decide
    rep = play(one_one(positions=pos), cushion(51.0), rest(52.0, pos), foul(53.0, "push"))
    assert "golf.foul.push" in rules(rep) and "golf.zone.leave" not in rules(rep)
    # a ball in the shooter's large attacking triangle need not change zone
    tri = {"p1": [[0.9, 0.15]], "p2": [[0.20, 0.45]]}
    rep = play(one_one(positions=tri), cushion(51.0), rest(52.0, tri))
    assert "golf.zone.leave" not in rules(rep)


def test_golf_bare_rest_is_a_shot_no_sensor_saw() -> None:
    rep = play(rest(5.0), rest(9.0), rest(13.0))  # a table without cushion sensors: three misses
    s = state(rep)
    assert s["at_table"] == "p2" and rules(rep) == ["golf.turn"] * 3
    # the first lay-out of the balls, or a report where nothing moved, is no shot
    pos = {"p1": [[0.6, 0.15]], "p2": [[1.2, 0.75]]}
    rep = play(rest(0.5, pos), rest(0.7, pos))
    assert state(rep)["at_table"] == "p1" and rules(rep) == []


def test_golf_zone_leave_is_called_by_the_referee_without_positions() -> None:
    # no positions: nothing is asked; a shot with no 'zone' call met the obligation
    rep = play(one_one(), miss(60.0))
    s = state(rep)
    assert s["questions"] == [] and s["at_table"] == "p1" and "golf.zone.leave" not in rules(rep)
    rep = play(one_one(), miss(60.0), foul(61.0, "zone"))
    s = state(rep)
    assert rules(rep)[-1] == "golf.zone.leave"
    # p2 played: the turn passes and p2's ball waits for its replacement spot
    assert s["at_table"] == "p1" and s["spots_waiting"] == ["p2"]


def test_golf_spot_choice_by_spot_call() -> None:
    rep = play(goal(1.0, "A", "p1"), rest(2.0), call(3.0, "spot", ball="p1", spot=3))
    s = state(rep)
    assert s["questions"] == [] and s["spots_waiting"] == [] and rules(rep)[-1] == "golf.spot.choice"
    assert s["replacements"] == [{"ball": "p1", "spot": 3}]
    bad = play(miss(1.0), call(3.0, "spot", ball="p1", spot=1))
    assert "no ball of p1 is waiting" in bad.errors[0].error
    bad = play(goal(1.0, "A", "p1"), rest(2.0), call(3.0, "spot", ball="p1", spot=6))
    assert "spot must be 1..5" in bad.errors[0].error
    # unnamed, the spot lapses when the next shot begins
    rep = play(goal(1.0, "A", "p1"), rest(2.0), miss(5.0))
    assert state(rep)["spots_waiting"] == []


def test_golf_spot_fallback_by_call_or_positions() -> None:
    rep = play(goal(1.0, "A", "p1"), rest(2.0), call(3.0, "spot", ball="p1", spot=4))
    assert rules(rep)[-1] == "golf.spot.fallback"
    covered = [list(geo.REPLACEMENT_SPOTS["p1"][n]) for n in (1, 2, 3)]
    rep = play(goal(1.0, "A", "p1"), rest(2.0, {"p1": [[0.9, 0.15]], "p2": covered}))
    s = state(rep)
    assert rules(rep)[-1] == "golf.spot.fallback"
    assert s["replacements"] == [{"ball": "p1", "spot": 4}] and s["questions"] == []


def test_golf_spot_repeat_fouled_from_a_replacement_spot_in_zone_play() -> None:
    rep = play(scores(1.0, "p1", 4), goal(10.0, "A", "p1"), rest(11.0), call(12.0, "spot", ball="p1", spot=2),
               miss(20.0), cushion(30.0), rest(31.0), foul(32.0, "push"))
    s = state(rep)
    r = [x for x in s["rulings"] if x["rule"] == "golf.spot.repeat"]
    assert r and r[0]["spot"] == 1
    assert s["replacements"] == [{"ball": "p1", "spot": 1}]


def test_golf_replacement_spots_lie_where_the_seed_puts_them() -> None:
    p1 = geo.REPLACEMENT_SPOTS["p1"]
    assert p1[1][0] > 1.7 and p1[2][0] > 1.7  # at p1's attacking goal B
    assert p1[1][1] > geo.WIDTH / 2 > p1[2][1]  # p1 looks towards +x: left is high y
    assert p1[3][1] == geo.WIDTH / 2 and p1[3][0] > geo.LENGTH / 2
    assert p1[4][0] < geo.LENGTH / 2 and p1[5][0] < geo.LENGTH / 2  # defending side of the short axis
    p2 = geo.REPLACEMENT_SPOTS["p2"]
    assert p2[1][0] < 0.1 and p2[3][0] < geo.LENGTH / 2 and p2[4][0] > geo.LENGTH / 2


# --- duo --------------------------------------------------------------------------


def test_golf_duo_order_of_play_and_who_is_at_the_table() -> None:
    rep = play(players=DUO, fmt="duo")
    s = state(rep)
    assert s["format"] == "duo" and s["player_at_table"] == "Ann"
    rep = play(miss(1.0), miss(3.0), players=DUO, fmt="duo")
    s = state(rep)
    assert s["player_at_table"] == "Cor" and s["next_up"] == {"p1": "Cor", "p2": "Dirk"}
    rep = play(miss(1.0), foul(2.5, "order"), players=DUO, fmt="duo")
    assert rules(rep)[-1] == "golf.duo.order"
    single = play(miss(1.0), foul(2.5, "order"))
    assert "duo matches only" in single.errors[0].error


def test_golf_duo_opening_other_player_opens_frame_two() -> None:
    rep = play(scores(1.0, "p1", 5), players=DUO, fmt="duo")
    s = state(rep)
    assert s["at_table"] == "p2" and s["player_at_table"] == "Dirk"
    rep = play(foul(0.5, "opening"), players=DUO, fmt="duo")
    assert rules(rep) == ["golf.duo.opening"] and state(rep)["spots_waiting"] == ["p1"]


def test_golf_duo_deciding_frame_start_call() -> None:
    rep = play(scores(1.0, "p1", 5), scores(20.0, "p2", 5), call(39.0, "start", player="p2", member="Dirk"),
               players=DUO, fmt="duo")
    s = state(rep)
    assert s["frame"] == 3 and rules(rep)[-1] == "golf.duo.deciding"
    assert s["at_table"] == "p2" and s["player_at_table"] == "Dirk"


def test_golf_duo_consult_costs_the_turn() -> None:
    rep = play(miss(1.0), foul(2.5, "consult"), players=DUO, fmt="duo")
    assert rules(rep)[-1] == "golf.duo.consult"
    assert state(rep)["at_table"] == "p2"


def test_golf_duo_needs_two_names_a_side() -> None:
    rep = play(players={"p1": ["Ann"], "p2": ["Bob", "Dirk"]}, fmt="duo")
    assert "two names per side" in rep.errors[0].error


# --- impossible lines ---------------------------------------------------------------------


def test_golf_goal_for_a_player_with_no_balls_left_is_an_illegal_call_and_the_match_goes_on() -> None:
    rep = play(scores(1.0, "p1", 4), goal(10.0, "B", "p1"), goal(10.1, "B", "p1"), rest(11.0))
    (err,) = rep.errors
    assert err.line == 11
    assert "goal B for p1, but p1 has no balls left in play" in err.error
    assert state(rep)["frames_won"] == {"p1": 1, "p2": 0}


def test_golf_calls_that_fit_no_state() -> None:
    rep = play(call(1.0, "carom"), call(1.1, "fly"), {"t": 1.2, "type": "pocket", "pocket": 1, "ball": None},
               call(1.3, "spot", ball="p1", spot=9), goal(2.0, "B", "red"))
    msgs = [e.error for e in rep.errors]
    assert len(msgs) == 5
    assert "no caroms" in msgs[0] and "unknown golf call 'fly'" in msgs[1]
    assert "no pockets" in msgs[2] and "spot must be 1..5" in msgs[3] and "p1 or p2" in msgs[4]


def test_golf_undo_after_a_shot_goes_back_to_before_the_shot() -> None:
    rep = play(goal(1.0, "B", "p1"), rest(2.0), cushion(3.0), goal(3.5, "B", "p1"), rest(4.0),
               call(5.0, "undo"))
    s = state(rep)
    assert s["balls_left"]["p1"] == 4 and s["at_table"] == "p1" and rules(rep) == ["golf.goal"]
    assert s["shot_in_progress"] is False


def test_golf_late_foul_amends_the_deciding_shot_of_the_match() -> None:
    rep = play(scores(1.0, "p1", 5), scores(20.0, "p2", 5), scores(40.0, "p1", 5), foul(60.0, "push"))
    s = state(rep)
    assert s["finished"] is False and s["frames_won"] == {"p1": 1, "p2": 1}
    assert s["balls_left"]["p1"] == 1 and s["at_table"] == "p2"
    over = play(scores(1.0, "p1", 5), scores(20.0, "p2", 5), scores(40.0, "p1", 5), call(60.0, "time"))
    assert "the match is over" in over.errors[0].error
