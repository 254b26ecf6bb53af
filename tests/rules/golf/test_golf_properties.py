"""Properties of the golf engine over random match logs (hypothesis), through the real Replay."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from paths import ROOT
from test_golf_helpers import goal, one_one, play, rest, state

from tablesense.replay import Replay

CATALOGUE = {
    m.group(1)
    for line in (ROOT / "seeds" / "golf.md").read_text().splitlines()
    if (m := re.match(r"^\|\s*`(golf\.[a-z0-9.-]+)`", line))
}

BALL = st.sampled_from(["p1", "p2"])
GOAL = st.sampled_from(["A", "B"])
POINT = st.tuples(st.floats(0.0, 1.8), st.floats(0.0, 0.9))
CALLS = st.one_of(
    st.fixed_dictionaries({"call": st.sampled_from(["edge", "rail", "off_table"]), "ball": BALL}),
    st.fixed_dictionaries({"call": st.just("wedged"), "ball": BALL,
                           "where": st.sampled_from(["attacking", "defending", "cushion", "nowhere"])}),
    st.fixed_dictionaries({"call": st.just("answer"), "question": st.sampled_from(["q1", "q2", "q5"]),
                           "answer": st.sampled_from([True, False, 1, 2, "p1"])}),
    st.fixed_dictionaries({"call": st.sampled_from(["undo", "time", "carom"])}),
    st.fixed_dictionaries({"call": st.just("start"), "player": BALL}),
    st.fixed_dictionaries({"type": st.just("rest"), "positions": st.fixed_dictionaries(
        {"p1": st.lists(POINT.map(list), max_size=5), "p2": st.lists(POINT.map(list), max_size=5)})}),
    st.fixed_dictionaries({"type": st.just("strike"), "ball": BALL}),
    st.fixed_dictionaries({"type": st.just("contact"), "balls": st.lists(BALL, min_size=2, max_size=2)}),
)
FOULS = st.sampled_from(["touch", "push", "foot", "jump", "own-ball", "time", "zone", "hold-opponent"])


@st.composite
def shot(draw: Any) -> list[tuple[str, Any]]:
    """One shot as abstract items: goals, balls off the table, a late foul, a spot."""
    items: list[tuple[str, Any]] = [("cushion", None)]
    for _ in range(draw(st.integers(0, 3))):
        items.append(("goal", (draw(GOAL), draw(BALL))))
    if draw(st.integers(0, 9)) == 0:
        items.append(("off", draw(BALL)))
    items.append(("rest", None))
    if draw(st.integers(0, 5)) == 0:
        items.append(("foul", draw(FOULS)))
    if draw(st.booleans()):
        items.append(("spot", (draw(BALL), draw(st.integers(1, 5)))))
    if draw(st.integers(0, 3)) == 0:
        items.append(("call", draw(CALLS)))
    return items


def _log(shots: list[list[tuple[str, Any]]]) -> list[str]:
    out = [{"t": 0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}]
    t = 0.0
    for items in shots:
        for kind, arg in items:
            t += 0.25
            if kind == "cushion":
                out.append({"t": t, "type": "cushion", "cushion": 1, "ball": None})
            elif kind == "goal":
                out.append({"t": t, "type": "goal", "goal": arg[0], "ball": arg[1]})
            elif kind == "off":
                out.append({"t": t, "type": "off_table", "ball": arg})
            elif kind == "rest":
                out.append({"t": t, "type": "rest"})
            elif kind == "foul":
                out.append({"t": t, "type": "call", "call": "foul", "foul": arg})
            elif kind == "spot":
                out.append({"t": t, "type": "call", "call": "spot", "ball": arg[0], "spot": arg[1]})
            else:
                out.append({"t": t, "type": "call", **arg})
    return [json.dumps(e) for e in out]


@settings(max_examples=200, deadline=None)
@given(st.lists(shot(), min_size=1, max_size=60))
def test_golf_random_logs_keep_the_score_consistent(shots: list[list[tuple[str, Any]]]) -> None:
    rep = Replay().feed_lines(_log(shots))  # anything but a TablesenseError would raise here
    s = rep.to_json()
    assert all(0 <= n <= 5 for n in s["balls_left"].values())
    assert all(0 <= n <= 2 for n in s["frames_won"].values())
    assert s["finished"] == (max(s["frames_won"].values()) == 2)
    if s["finished"]:
        assert s["frames_won"][s["winner"]] == 2
    assert sum(s["frames_won"].values()) == len(s["frame_winners"])
    assert {r["rule"] for r in s["rulings"]} <= CATALOGUE
    assert {q["rule"] for q in s["questions"]} <= CATALOGUE
    for err in rep.errors:
        assert err.error and err.line >= 2


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 999_999), st.permutations([0, 1]))
def test_golf_double_finish_goes_to_the_smaller_t_whatever_the_line_order(
    gap_us: int, order: list[int]
) -> None:
    t1 = 40.0  # p1's last ball (played by p2 into goal A)
    t2 = round(40.0 + gap_us * 1e-6, 6)  # p2's last ball
    goals = [goal(t1, "A", "p1"), goal(t2, "A", "p2")]
    rep = play(one_one(), goals[order[0]], goals[order[1]], rest(42.0))
    assert state(rep)["frame_winners"] == ["p1"]
    swapped = [goal(t2, "A", "p1"), goal(t1, "A", "p2")]
    rep = play(one_one(), swapped[order[0]], swapped[order[1]], rest(42.0))
    assert state(rep)["frame_winners"] == ["p2"]


@settings(max_examples=200, deadline=None)
@given(st.tuples(st.integers(2, 5), st.integers(2, 5)), BALL, st.booleans(),
       st.lists(st.tuples(st.floats(1.0, 2.0), st.sampled_from(["A", "B"]), BALL), max_size=3))
def test_golf_a_shot_is_resolved_from_the_state_before_it_alone(
    balls: tuple[int, int], shooter: str, duo: bool, goals: list[tuple[float, str, str]]
) -> None:
    # the state after a shot's rest is ``resolve(state before, the shot)``, however it was
    # reached: resolving the same shot again from the same state gives an equal state
    from tablesense.errors import IllegalCall
    from tablesense.events import Cushion, Goal, Rest
    from tablesense.rules import find_engine
    from tablesense.rules.golf.state import GolfState
    from tablesense.rules.shot_engine import ShotRecord

    engine = find_engine("golf")
    players = (("p1", ("Ann", "Cor")), ("p2", ("Bob", "Dirk"))) if duo else (("p1", "Ann"), ("p2", "Bob"))
    before = GolfState(players=players, duo=duo, balls_left=balls, at_table=shooter, zone_play=1 in balls)
    events = []
    played = before
    for e in [Cushion(t=0.5, cushion=1), *(Goal(t=t, goal=g, ball=b) for t, g, b in sorted(goals))]:
        try:
            played = engine.apply(played, e)
        except IllegalCall:  # a goal of a player with no ball left in play: refused
            continue
        events.append(e)
    played = engine.apply(played, Rest(t=3.0))
    shot = ShotRecord(player=shooter, events=tuple(events), rest=Rest(t=3.0))
    again = engine.resolve(before, shot)
    for field in ("balls_left", "at_table", "frames_won", "frame", "zone_play", "members", "clock",
                  "finished"):
        assert getattr(again, field) == getattr(played, field), field
    assert list(again.rulings) == list(played.rulings)
    assert played.checkpoint is before  # undo goes back to the state before the shot


@settings(max_examples=200, deadline=None)
@given(st.tuples(st.integers(1, 5), st.integers(1, 5)), BALL, st.booleans(),
       st.lists(st.tuples(st.floats(1.0, 2.0), st.sampled_from(["A", "B"]), BALL), max_size=3))
def test_golf_quick_path_gives_what_the_general_path_gives(
    balls: tuple[int, int], shooter: str, duo: bool, goals: list[tuple[float, str, str]]
) -> None:
    # the common shot (cushions, valid goals or none) is resolved by a quick path; a shot
    # with any call takes the general one: an answer to no question changes nothing else
    from tablesense.events import Call, Cushion, Goal, Rest
    from tablesense.rules import find_engine
    from tablesense.rules.golf.state import GolfState
    from tablesense.rules.shot_engine import ShotRecord

    engine = find_engine("golf")
    players = (("p1", ("Ann", "Cor")), ("p2", ("Bob", "Dirk"))) if duo else (("p1", "Ann"), ("p2", "Bob"))
    before = GolfState(players=players, duo=duo, balls_left=balls, at_table=shooter, zone_play=1 in balls)
    events = (Cushion(t=0.5, cushion=1), *(Goal(t=t, goal=g, ball=b) for t, g, b in goals))
    shot = ShotRecord(player=shooter, events=events, rest=Rest(t=3.0))
    quick = engine.resolve(before, shot)
    general = engine.resolve(before, ShotRecord(player=shooter, events=events, rest=Rest(t=3.0),
                                                calls=(Call(t=3.5, call="answer", question="q99"),)))
    assert quick == general
