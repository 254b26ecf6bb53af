"""Golf: the edge of the goal, own balls and the replacement spots, one test per rule id.

- ``golf.goal.edge``: "Ball on the edge of the goal: if it drops before it comes to rest,
  the goal counts [...]. In all other cases it does not count: the ball is taken out of
  the table and put back." A drop the shot stage (``tablesense.shots``) places after the
  shot's ``rest`` (a late settle) belongs to that shot, and does not count.
- ``golf.foul.touch.no-shot``: "Touching a ball without playing a shot costs the turn as
  well, and all moved balls are put back": no replacement spot, nothing taken back.
- on the shot stage: a drop within the settle window still does not count when a call
  stood alone between the rest and the drop; a named replacement spot stays with its
  ball when a later call re-decides the shot (``golf.spot.choice``).
"""

from __future__ import annotations

import json

from paths import ROOT
from test_golf_helpers import call, cushion, foul, goal, miss, one_one, play, rest, rules, scores, state

from tablesense.shots import Role, cut


def test_golf_goal_edge_a_drop_after_the_rest_belongs_to_the_shot_before() -> None:
    # p1 scores, the balls rest; 0.4 s later p1's ball on the goal edge drops, the table
    # reports rest again. Before: the drop was p1's next shot (a second goal)
    rep = play(cushion(1.0), goal(1.5, "B", "p1"), rest(3.0), goal(3.4, "B", "p1"), rest(4.9))
    s = state(rep)
    assert s["balls_left"] == {"p1": 4, "p2": 5}  # the goal of the shot counts, the late one not
    assert s["at_table"] == "p1"  # the valid goal of the shot keeps p1 at the table
    assert rules(rep) == ["golf.goal", "golf.goal.edge"]
    edge = s["rulings"][-1]
    assert edge["player"] == "p1" and edge["goal"] == "B" and edge["t"] == 3.4
    assert not s["shot_in_progress"] and not rep.errors


def test_golf_goal_edge_late_drop_does_not_give_the_opponent_a_shot() -> None:
    # p1 misses; p1's own ball on the edge of goal B drops just after the rest: it does not
    # count, and it is still p2's turn (before: p1's shot by the table, at p2's turn: a goal
    # for p2's... nothing, or an opponent's ball in the goal for p1)
    rep = play(miss(1.0), goal(2.5, "B", "p1"), rest(4.0))
    s = state(rep)
    assert s["balls_left"] == {"p1": 5, "p2": 5} and s["at_table"] == "p2"
    assert rules(rep) == ["golf.turn", "golf.goal.edge"]
    # the opponent's ball dropping late counts for no one either
    rep = play(miss(1.0), goal(2.5, "A", "p2"), rest(4.0))
    assert state(rep)["balls_left"] == {"p1": 5, "p2": 5} and state(rep)["at_table"] == "p2"


def test_golf_goal_edge_the_cut_decides_what_is_late() -> None:
    events = [cushion(1.0), goal(1.5, "B", "p1"), rest(3.0), goal(3.4, "B", "p1"), rest(4.9),
              goal(7.0, "B", "p1"), rest(8.0)]
    roles = cut(events, game="golf").roles
    assert roles[3:5] == (Role.SETTLE, Role.SETTLE) and roles[5] is Role.OPEN
    s = state(play(*events))
    # the third goal, 4 s after the balls came to rest, is p1's next shot: a valid goal
    assert s["balls_left"]["p1"] == 3 and rules(play(*events)).count("golf.goal") == 2
    # outside the settle window (0.75 s): the next shot, as before
    s = state(play(cushion(1.0), rest(2.0), goal(2.8, "A", "p2"), rest(3.5)))
    assert s["balls_left"]["p2"] == 4 and s["at_table"] == "p2"


def test_golf_goal_edge_late_drop_with_unknown_ball_asks_nothing() -> None:
    rep = play(miss(1.0), goal(2.3, "A", None), rest(3.5))
    s = state(rep)
    assert s["questions"] == [] and s["balls_left"] == {"p1": 5, "p2": 5}
    assert rules(rep)[-1] == "golf.goal.edge"


def test_golf_goal_edge_call_for_the_late_drop_is_one_edge() -> None:
    # the referee also calls edge for the ball the cut already placed after the rest
    rep = play(cushion(1.0), goal(1.5, "B", "p1"), rest(3.0), goal(3.4, "B", "p1"), rest(4.9),
               call(5.5, "edge", ball="p1"))
    s = state(rep)
    assert s["balls_left"]["p1"] == 4 and s["at_table"] == "p1" and not rep.errors
    assert rules(rep) == ["golf.goal", "golf.goal.edge"]


def test_golf_goal_edge_late_drop_after_the_deciding_shot_is_no_error() -> None:
    # p1 wins frame 1 and frame 2; a ball dropping off the edge after the last rest
    frame = scores(1.0, "p1", 5)
    frame2 = miss(20.0) + scores(30.0, "p1", 5)
    last_rest = frame2[-1]["t"]
    rep = play(frame, frame2, goal(last_rest + 0.3, "A", "p2"), rest(last_rest + 2.0))
    s = state(rep)
    assert s["finished"] and s["winner"] == "p1" and not rep.errors
    assert rules(rep)[-3:] == ["golf.goal.edge", "golf.frame.won", "golf.match.won"]


def test_golf_goal_edge_late_drop_is_undone_with_its_rest() -> None:
    base = [cushion(1.0), goal(1.5, "B", "p1"), rest(3.0)]
    before = state(play(*base))
    rep = play(*base, goal(3.4, "B", "p1"), rest(4.9), call(6.0, "undo"))
    assert state(rep)["rulings"] == before["rulings"]
    assert state(rep)["balls_left"] == before["balls_left"]


def test_golf_goal_edge_late_drop_in_zone_play_keeps_the_count() -> None:
    # 1/1, p2 at the table; p2 misses and p1's last ball drops off the edge after the rest:
    # it does not count, so p1 has not won the frame
    rep = play(one_one(), miss(40.0), goal(41.5, "B", "p1"), rest(43.0))
    s = state(rep)
    assert s["balls_left"] == {"p1": 1, "p2": 1} and s["frame"] == 1 and s["at_table"] == "p1"
    assert rules(rep)[-1] == "golf.goal.edge"


def test_golf_foul_touch_no_shot_after_a_valid_goal_takes_nothing_back() -> None:
    # p1 scores and stays at the table, then touches a ball before the next shot
    rep = play(goal(1.0, "B", "p1"), rest(2.0), foul(3.0, "touch-no-shot"))
    s = state(rep)
    assert s["balls_left"] == {"p1": 4, "p2": 5}  # the goal stands
    assert s["at_table"] == "p2"  # the turn passes
    assert s["spots_waiting"] == [] and s["replacements"] == []  # no ball on a replacement spot
    assert rules(rep) == ["golf.goal", "golf.foul.touch.no-shot"]
    assert s["rulings"][-1]["player"] == "p1"
    assert "put back" in s["rulings"][-1]["text"] and "replacement" not in s["rulings"][-1]["text"]


def test_golf_foul_touch_no_shot_names_and_player() -> None:
    for name in ("touch-no-shot", "touch_between_shots", "golf.foul.touch.no-shot", "Touched without shot",
                 "touched_a_ball_without_playing"):
        rep = play(miss(1.0), foul(3.0, name))
        assert rules(rep)[-1] == "golf.foul.touch.no-shot", name
        assert state(rep)["at_table"] == "p1"
    # the player at the table may be named; the other player has no turn to lose
    rep = play(miss(1.0), foul(3.0, "touch-no-shot", player="p2"))
    assert state(rep)["at_table"] == "p1" and not rep.errors
    bad = play(miss(1.0), foul(3.0, "touch-no-shot", player="p1"))
    assert bad.errors and "p2 is at the table" in bad.errors[0].error
    # as the call itself
    rep = play(miss(1.0), call(3.0, "touch-no-shot"))
    assert rules(rep)[-1] == "golf.foul.touch.no-shot"


def test_golf_foul_touch_no_shot_is_refused_during_a_shot() -> None:
    rep = play(cushion(1.0), foul(1.5, "touch-no-shot"), rest(2.0))
    assert rep.errors and "a shot is being played" in rep.errors[0].error
    assert state(rep)["at_table"] == "p2"  # the shot itself stands: a miss


def test_golf_foul_touch_no_shot_in_zone_play_and_undo() -> None:
    rep = play(one_one(), foul(30.0, "touch-no-shot"))
    s = state(rep)
    assert s["at_table"] == "p1" and s["spots_waiting"] == [] and s["balls_left"] == {"p1": 1, "p2": 1}
    undone = play(one_one(), foul(30.0, "touch-no-shot"), call(31.0, "undo"))
    assert state(undone)["at_table"] == "p2"
    assert "golf.foul.touch.no-shot" not in rules(undone)


def test_golf_foul_touch_no_shot_with_a_later_shot_is_a_normal_game() -> None:
    rep = play(goal(1.0, "B", "p1"), rest(2.0), foul(3.0, "touch-no-shot"), goal(5.0, "A", "p2"), rest(6.0))
    s = state(rep)
    assert s["balls_left"] == {"p1": 4, "p2": 4} and s["at_table"] == "p2"
    assert json.dumps(s)  # serialisable


def test_golf_goal_edge_the_engine_cutter_follows_the_cut() -> None:
    # the engine's shot stage is the one cutter of ``tablesense.shots``: after every rest it
    # holds what ``shots.cut`` holds after the same events (the recorded matches, and
    # a long synthetic log with late drops mixed in)
    import glob
    import sys
    from pathlib import Path

    from tablesense.events import parse_line
    from tablesense.replay import Replay
    from tablesense.rules.golf.state import GOLF_CUTTER
    from tablesense.shots import Cutter, settle_window

    # golf's cutter carries golf's settle window (the one the cut looks up for a golf set-up)
    assert GOLF_CUTTER.window == settle_window("golf")
    root = ROOT
    sys.path.insert(0, str(root / "bench"))
    try:
        import golf_replay  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    matches = sorted(glob.glob(str(root / "tests" / "matches" / "golf" / "*.jsonl")))
    logs = [Path(p).read_text().splitlines() for p in matches]
    synthetic = golf_replay.synthetic_log(4000)
    late: list[str] = []
    for k, line in enumerate(synthetic):  # a ball off the goal edge 0.3 s after some rests
        late.append(line)
        ev = json.loads(line)
        if ev["type"] == "rest" and k % 7 == 0:
            late.append(json.dumps({"t": ev["t"] + 0.3, "type": "goal", "goal": "A", "ball": None}))
    checked = 0
    for lines in [*logs, synthetic, late]:
        rep = Replay()
        ref = Cutter(window=GOLF_CUTTER.window)
        follow = True  # by design the engine's cutter leaves out what the engine does not
        # take: a refused line, what an undo takes back, a lay-out rest, a finished match
        for line in lines:
            try:
                ev = parse_line(line)
            except Exception:
                continue
            _, ref = ref.feed(ev)
            if ev.type == "setup":
                follow = True
            if getattr(ev, "call", None) == "undo" or getattr(ev, "positions", None):
                follow = False
            try:
                rep.apply(ev)
            except Exception:
                follow = False
                continue
            st = rep.state
            if st is None or st.finished:
                follow = False
            elif follow and ev.type == "rest" and not st.in_shot:
                assert st.cut == ref, line
                checked += 1
    assert checked > 500


def test_golf_goal_edge_a_drop_after_a_touch_between_shots_does_not_count() -> None:
    # p1 misses; 0.2 s after the rest p2 touches a ball (a touch between shots), 0.5 s
    # after the rest p1's ball drops off the goal edge: it dropped after resting, so it
    # does not count (before: the drop opened a shot of its own and scored)
    rep = play(miss(1.0), foul(2.2, "touch-no-shot"), goal(2.5, "B", "p1"), rest(4.0))
    s = state(rep)
    assert s["balls_left"] == {"p1": 5, "p2": 5} and not rep.errors
    assert rules(rep) == ["golf.turn", "golf.foul.touch.no-shot", "golf.goal.edge"]
    assert s["at_table"] == "p1"  # p2's touch cost p2 the turn


def test_golf_spot_choice_stays_with_its_ball_when_the_shot_is_amended() -> None:
    # p1's own ball goes off the table (a replacement spot for p1's ball); p2 names spot 2
    # for it; then the referee calls p2's ball wedged in its own goal (a spot for p2's
    # ball): p1's ball stays on spot 2 (before: the choice moved to p2's ball)
    rep = play(cushion(1.0), {"t": 1.5, "type": "off_table", "ball": "p1"}, rest(3.0),
               call(4.0, "spot", ball="p1", spot=2), call(5.0, "wedged", ball="p2", where="defending"))
    s = state(rep)
    assert not rep.errors
    assert s["replacements"] == [{"ball": "p1", "spot": 2}] and s["spots_waiting"] == ["p2"]
    assert [r["rule"] for r in s["rulings"]] == ["golf.wedged.defending-goal", "golf.off-table.own",
                                                 "golf.spot.choice"]
