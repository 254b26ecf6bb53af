"""The TV's one line for the last shot (tablesense.web.last_shot), through the real pub and engines."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tablesense.events import parse_event
from tablesense.pub import Pub
from tablesense.sim.match import play_match
from tablesense.store import Store
from tablesense.web import view
from tablesense.web.last_shot import shot_start

GOLF = {"game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}
KEGLE = {"game": "kegle", "players": {"p1": "Mette", "p2": "Lars"}, "distance": 40}
CAROM = {"game": "carom", "discipline": "libre", "players": {"p1": "Joop", "p2": "Kees"}}


def _pub(tmp_path: Path, setup: dict[str, Any], lang: str = "en") -> Pub:
    pub = Pub(Store(str(tmp_path / "pub.db")), ["1"], lang=lang)
    pub.view = view.view
    pub.start_match("1", setup)
    return pub


def _play(pub: Pub, *events: dict[str, Any]) -> str:
    for e in events:
        if e["type"] == "call":
            pub.call("1", {k: v for k, v in e.items() if k not in ("t", "type")})
        else:
            pub.submit("1", parse_event(e))
    return pub.snapshot("1")["view"]["last_shot"]


def test_a_golf_goal_is_told_with_the_players_name(tmp_path: Path) -> None:
    pub = _pub(tmp_path, GOLF)
    told = _play(pub, {"t": 1.0, "type": "goal", "goal": "B", "ball": "p1"}, {"t": 2.0, "type": "rest"})
    assert told == "Ann scores, plays on"


def test_a_golf_shot_without_a_goal_says_who_plays_next_in_dutch(tmp_path: Path) -> None:
    pub = _pub(tmp_path, GOLF, "nl")
    told = _play(pub, {"t": 1.0, "type": "cushion", "cushion": 2, "ball": None}, {"t": 2.0, "type": "rest"})
    assert told == "Ann: geen doelpunt — Bob aan stoot"


def test_a_golf_touch_sends_the_ball_to_a_replacement_spot(tmp_path: Path) -> None:
    pub = _pub(tmp_path, GOLF)
    _play(pub, {"t": 1.0, "type": "goal", "goal": "B", "ball": "p1"}, {"t": 2.0, "type": "rest"})
    told = _play(pub, {"t": 3.0, "type": "cushion", "cushion": 1, "ball": None}, {"t": 4.0, "type": "rest"},
                 {"t": 5.0, "type": "call", "call": "foul", "foul": "touch"})
    assert told == "Ann: Touch — ball to a replacement spot"
    assert pub.snapshot("1")["state"]["spots_waiting"] == ["p1"]
    told = _play(pub, {"t": 6.0, "type": "call", "call": "spot", "ball": "p1", "spot": 2})
    assert told == "Ann: Touch — Bob to play"  # the ball is on its spot: the turn is Bob's


def test_a_carom_counted_by_the_referee_and_a_poedel_in_dutch(tmp_path: Path) -> None:
    pub = _pub(tmp_path, CAROM, "nl")
    told = _play(pub, {"t": 1.0, "type": "cushion", "cushion": 1, "ball": None}, {"t": 2.0, "type": "rest"},
                 {"t": 2.5, "type": "call", "call": "carom"})
    assert told == "Joop caramboleert (1), speelt door"
    _play(pub, {"t": 3.0, "type": "cushion", "cushion": 1, "ball": None}, {"t": 4.0, "type": "rest"})
    told = _play(pub, {"t": 5.0, "type": "cushion", "cushion": 1, "ball": None}, {"t": 6.0, "type": "rest"})
    assert told == "POEDEL Kees — Joop aan stoot"  # Kees's inning opened with a miss


def test_keglebillard_pins_are_told_in_danish(tmp_path: Path) -> None:
    pub = _pub(tmp_path, KEGLE, "da")
    told = _play(pub, {"t": 1.0, "type": "cushion", "cushion": 1, "ball": "red"},
                 {"t": 1.5, "type": "pin", "pin": 2, "state": "down"},
                 {"t": 1.6, "type": "pin", "pin": 1, "state": "down"}, {"t": 3.0, "type": "rest"})
    assert told == "Mette: 4 point, spiller videre"


def test_the_rest_before_the_last_one_starts_the_last_shot() -> None:
    lines = ['{"t": 9.0, "type": "rest"}', '{"t": 8.0, "type": "cushion", "cushion": 1}',
             '{"t": 5.0, "type": "rest"}', '{"t": 2.0, "type": "rest"}']  # newest first
    assert shot_start(lines) == 5.0
    assert shot_start(lines[:2]) == float("-inf")  # one shot so far: all of its rulings


@pytest.mark.slow
@pytest.mark.parametrize("game,lang", [("golf", "nl"), ("kegle", "da"), ("carom", "nl")])
def test_every_shot_of_a_simulated_match_is_told_with_names_never_p1_or_p2(tmp_path: Path, game: str,
                                                                          lang: str) -> None:
    pub = Pub(Store(str(tmp_path / "pub.db")), ["1"], lang=lang)
    pub.view = view.view
    told: list[str] = []
    rests = 0
    events = play_match(game, seed=1, full_info=False)
    names = events[0].to_dict()["players"]
    for event in events:
        pub.submit("1", event, "referee" if event.type == "call" else "table")
        rests += event.type == "rest"
        if rests:
            told.append(pub.snapshot("1")["view"]["last_shot"])
    assert rests > 10 and all(told), [t for t in told if not t][:3]
    leaks = [t for t in told if re.search(r"\bp[12]\b", t)]
    assert not leaks, leaks[:3]
    state = pub.snapshot("1")["state"]
    assert state["finished"] and state["winner"] in names
    assert names[state["winner"]] in told[-1]  # the end: the winner by name


def test_keglebillard_keeps_the_last_shot_while_the_next_plays_after_the_pin_referees_rest(
        tmp_path: Path) -> None:
    """A tilt-switch table reports a rest after the pins are set up (an incident): the line
    still tells the last shot, not nothing, while the next shot plays."""
    pub = _pub(tmp_path, KEGLE)
    told = _play(pub, {"t": 1.0, "type": "cushion", "cushion": 1, "ball": "red"},
                 {"t": 1.5, "type": "pin", "pin": 2, "state": "down"}, {"t": 3.0, "type": "rest"})
    assert told == "Mette: 2 points, plays on"
    during = _play(pub, {"t": 8.0, "type": "pin", "pin": 2, "state": "up"}, {"t": 10.0, "type": "rest"},
                   {"t": 15.0, "type": "cushion", "cushion": 2, "ball": "red"})
    assert during == told  # the set-up's rest is no shot: the line stays
    after = _play(pub, {"t": 16.0, "type": "rest"})
    assert after.startswith("Mette: no points")


def test_golf_the_last_ball_of_a_frame_tells_the_frame_won_and_frame_two_opens_with_its_own_line(
        tmp_path: Path) -> None:
    pub = _pub(tmp_path, GOLF)
    t = 0.0
    for _ in range(4):
        t += 2.0
        told = _play(pub, {"t": t, "type": "goal", "goal": "B", "ball": "p1"}, {"t": t + 1, "type": "rest"})
        assert told.startswith("Ann scores, plays on")  # (the fourth: "· zone play")
    told = _play(pub, {"t": 20.0, "type": "goal", "goal": "B", "ball": "p1"}, {"t": 21.0, "type": "rest"})
    assert told == "Ann wins frame 1" and pub.snapshot("1")["state"]["frame"] == 2
    # frame 2: its first shot has its own line, not the frame's win
    told = _play(pub, {"t": 30.0, "type": "cushion", "cushion": 1, "ball": None}, {"t": 31.0, "type": "rest"})
    assert "frame" not in told and told.endswith("to play")


def test_the_tv_line_waits_for_the_referees_answer_instead_of_naming_who_plays(tmp_path: Path) -> None:
    pub = _pub(tmp_path, GOLF)
    told = _play(pub, {"t": 1.0, "type": "cushion", "cushion": 1, "ball": None},
                 {"t": 1.5, "type": "goal", "goal": "B", "ball": None}, {"t": 2.0, "type": "rest"})
    assert pub.snapshot("1")["state"]["questions"]
    assert told == "Ann's shot — the referee decides"
    q = pub.snapshot("1")["state"]["questions"][0]
    told = _play(pub, {"type": "call", "call": "answer", "question": q["id"], "answer": "p1"})
    assert told == "Ann scores, plays on"


@pytest.mark.parametrize(("lang", "told"), [("en", "Ann & Cor score, play on"),
                                            ("nl", "Ann & Cor scoren, spelen door"),
                                            ("da", "Ann & Cor scorer, spiller videre")])
def test_a_pair_that_scores_is_told_in_the_plural(tmp_path: Path, lang: str, told: str) -> None:
    """A duo's side is two players: its verb is plural where the language has one (Danish has none)."""
    pub = _pub(tmp_path, {**GOLF, "players": {"p1": ["Ann", "Cor"], "p2": ["Bob", "Dirk"]}}, lang)
    goal = {"t": 1.0, "type": "goal", "goal": "B", "ball": "p1"}
    assert _play(pub, goal, {"t": 2.0, "type": "rest"}) == told
