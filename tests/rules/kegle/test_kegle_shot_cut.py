"""Keglebillard on the shot cut (tablesense.shots): what settles after the rest belongs to the
shot (seed 7.8), the pin referee's hands are no shot (7.7, 6.4), a ball that lay still and
drops is put back (10.2). Each test names its rule id."""

from __future__ import annotations

import json
from typing import Any

from helpers.replaying import rules

from tablesense.replay import Replay

SETUP = {"t": 0, "type": "setup", "game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}, "distance": 30}


def replay(*events: dict[str, Any]) -> dict[str, Any]:
    rep = Replay()
    for n, e in enumerate((SETUP, *events), 1):
        rep.feed_line(json.dumps(e), n)
    assert not rep.errors, rep.errors
    return rep.to_json()


def ev(t: float, type_: str, **kw: Any) -> dict[str, Any]:
    return {"t": t, "type": type_, **kw}


def pin1() -> list[dict[str, Any]]:
    """p1's shot: a cushion, pin 1 down, the rest at 3.5."""
    return [ev(1.0, "cushion", cushion=2, ball="red"), ev(1.5, "pin", pin=1, state="down"), ev(3.5, "rest")]


# --- 7.8: a shot is completed once all balls and pins are still ------------------------------

def test_kegle_shot_7_8_a_pin_falling_just_after_the_rest_scores_for_that_shot() -> None:
    s = replay(ev(1.0, "cushion", cushion=2, ball="red"), ev(3.0, "rest"),
               ev(3.4, "pin", pin=3, state="down"), ev(5.4, "rest"))
    assert s["points"] == {"p1": 2, "p2": 0}
    assert s["at_table"] == "p1"  # the series goes on: the shot scored
    assert s["series"] == {"p1": 1, "p2": 0}
    assert s["last_shot"]["pins"] == [3]
    assert "kegle.series" not in rules(s)
    late = [r for r in s["rulings"] if r["rule"] == "kegle.shot"]
    assert late and late[0]["pin"] == 3 and late[0]["player"] == "p1"


def test_kegle_shot_7_8_a_late_pin_after_a_scoring_shot_adds_to_it() -> None:
    s = replay(ev(1.0, "cushion", cushion=2, ball="red"), ev(1.5, "pin", pin=1, state="down"),
               ev(3.5, "rest"), ev(3.9, "pin", pin=2, state="down"), ev(5.9, "rest"),
               ev(8.0, "pin", pin=1, state="up"), ev(8.1, "pin", pin=2, state="up"), ev(10.1, "rest"))
    assert s["points"]["p1"] == 4 and s["last_shot"]["pins"] == [1, 2]
    assert s["at_table"] == "p1" and s["pins_down"] == []


def test_kegle_shot_7_8_a_pin_after_the_settle_window_opens_the_next_shot() -> None:
    # 1.5 s after the rest (window 1 s): the next shot, which the same player... did not play:
    # p1's shot scored nothing, so the pin is p2's shot
    s = replay(ev(1.0, "cushion", cushion=2, ball="red"), ev(3.0, "rest"),
               ev(4.5, "pin", pin=3, state="down"), ev(6.5, "rest"))
    assert s["points"] == {"p1": 0, "p2": 2}
    assert s["at_table"] == "p2"


def test_kegle_shot_7_8_a_pin_that_settles_and_rocks_back_up_scores_nothing() -> None:
    s = replay(ev(1.0, "cushion", cushion=2, ball="red"), ev(3.0, "rest"),
               ev(3.4, "pin", pin=3, state="down"), ev(3.6, "pin", pin=3, state="up"), ev(5.6, "rest"))
    assert s["points"] == {"p1": 0, "p2": 0}
    assert s["at_table"] == "p2" and s["series"] == {"p1": 1, "p2": 0}


def test_kegle_shot_7_8_a_late_pin_can_still_be_undone_alone() -> None:
    s = replay(ev(1.0, "cushion", cushion=2, ball="red"), ev(3.0, "rest"),
               ev(3.4, "pin", pin=3, state="down"), ev(5.4, "rest"), ev(6.0, "call", call="undo"))
    assert s["points"] == {"p1": 0, "p2": 0} and s["at_table"] == "p2"


def test_kegle_shot_7_8_a_late_pin_after_the_deciding_shot_still_counts() -> None:
    # p1 reaches 30 in 15 shots; p2's last series: he misses, the match is over ...
    p1 = [e for k in range(15) for e in (
        ev(10 + 10 * k, "cushion", cushion=2, ball="red"), ev(10.5 + 10 * k, "pin", pin=1, state="down"),
        ev(12 + 10 * k, "rest"), ev(14 + 10 * k, "pin", pin=1, state="up"), ev(16 + 10 * k, "rest"))]
    miss = [ev(200.0, "cushion", cushion=2, ball="red"), ev(202.0, "rest")]
    s = replay(*p1, *miss)
    assert s["finished"] is True and s["winner"] == "p1"
    # ... unless a pin falls 0.4 s after his rest: then that shot scored and he plays on
    s = replay(*p1, *miss, ev(202.4, "pin", pin=5, state="down"), ev(204.4, "rest"))
    assert s["finished"] is False and s["points"] == {"p1": 30, "p2": 2} and s["at_table"] == "p2"


# --- 7.7 and 6.4: the pin referee's hands are no shot ----------------------------------------

def _shot_then_setup() -> list[dict[str, Any]]:
    # p1 topples pin 1, the pin referee puts it up; the table reports the rest after his hands
    return [ev(1.0, "cushion", cushion=2, ball="red"), ev(1.5, "pin", pin=1, state="down"), ev(3.5, "rest"),
            ev(8.0, "pin", pin=1, state="up"), ev(10.0, "rest")]


def test_kegle_shot_7_7_a_pin_knocked_over_while_setting_up_is_no_shot() -> None:
    s = replay(*_shot_then_setup(),
               ev(20.0, "pin", pin=1, state="up"),  # the referee straightens pin 1 ...
               ev(20.3, "pin", pin=4, state="down"),  # ... and knocks pin 4 over, no ball touched
               ev(21.0, "pin", pin=4, state="up"),  # 6.4: he puts it back up
               ev(23.0, "rest"))
    assert s["points"] == {"p1": 2, "p2": 0}
    assert s["at_table"] == "p1" and s["series"] == {"p1": 1, "p2": 0}  # the turn does not pass
    assert s["pins_down"] == []
    by_hand = [r for r in s["rulings"] if r["rule"] == "kegle.shot"]
    assert by_hand and by_hand[0]["pin"] == 4 and "player" not in by_hand[0]
    # and p1 plays on: his next shot scores for him
    s = replay(*_shot_then_setup(), ev(20.0, "pin", pin=1, state="up"), ev(20.3, "pin", pin=4, state="down"),
               ev(21.0, "pin", pin=4, state="up"), ev(23.0, "rest"),
               ev(30.0, "cushion", cushion=3, ball="red"), ev(30.5, "pin", pin=2, state="down"),
               ev(32.5, "rest"))
    assert s["points"] == {"p1": 4, "p2": 0} and s["at_table"] == "p1"


def test_kegle_shot_6_4_the_pin_knocked_over_must_be_put_up_before_the_next_shot() -> None:
    # the referee leaves pin 4 down and p1 plays: shooting before the pins are up (5.2, 7.9)
    s = replay(*_shot_then_setup(), ev(20.0, "pin", pin=1, state="up"), ev(20.3, "pin", pin=4, state="down"),
               ev(22.3, "rest"), ev(30.0, "cushion", cushion=3, ball="red"), ev(32.0, "rest"))
    assert s["pins_down"] == [4]
    assert "kegle.fault.pins-not-up" in rules(s)
    assert s["points"] == {"p1": 2, "p2": 0} and s["at_table"] == "p2"


def test_kegle_shot_7_7_a_late_call_after_the_referees_hands_keeps_the_pin_down() -> None:
    s = replay(*_shot_then_setup(), ev(20.0, "pin", pin=1, state="up"), ev(20.3, "pin", pin=4, state="down"),
               ev(21.0, "call", call="foul", foul="foot"))
    assert s["points"] == {"p1": 0, "p2": 0} and s["at_table"] == "p2"
    assert s["pins_down"] == [4]


def test_kegle_shot_7_7_a_log_without_rests_after_the_set_up_keeps_reading_pins_as_shots() -> None:
    # a hand-written log (no rest after the pins are put up): a pin after a set-up is a shot
    s = replay(*pin1(),
               ev(8.0, "pin", pin=1, state="up"), ev(10.0, "pin", pin=2, state="down"), ev(12.0, "rest"))
    assert s["points"] == {"p1": 4, "p2": 0}
    assert "kegle.shot" not in rules(s)


# --- 10.2: a ball that lay still and drops is put back, no fault ----------------------------

def test_kegle_ball_falls_10_2_the_red_dropping_after_the_rest_is_no_fault() -> None:
    s = replay(*pin1(),
               ev(4.0, "pocket", pocket=3, ball="red"), ev(6.0, "rest"))
    assert "kegle.fault.red-in-hole" not in rules(s)
    assert s["red_in_hand"] is None
    assert s["points"] == {"p1": 2, "p2": 0} and s["at_table"] == "p1"
    falls = [r for r in s["rulings"] if r["rule"] == "kegle.ball-falls"]
    assert falls and falls[0]["pocket"] == 3 and falls[0]["ball"] == "red"


def test_kegle_ball_falls_10_2_an_unknown_ball_dropping_after_the_rest_asks_nothing() -> None:
    s = replay(*pin1(),
               ev(4.0, "pocket", pocket=3, ball=None), ev(6.0, "rest"))
    assert s["questions"] == []
    assert s["points"] == {"p1": 2, "p2": 0} and s["at_table"] == "p1"
    assert "kegle.white-in-hole" not in rules(s) and "kegle.fault.red-in-hole" not in rules(s)


def test_kegle_ball_falls_10_2_the_red_pocketed_in_the_shot_is_still_a_fault() -> None:
    s = replay(ev(1.0, "cushion", cushion=2, ball="red"), ev(2.0, "pocket", pocket=3, ball="red"),
               ev(4.0, "rest"))
    assert "kegle.fault.red-in-hole" in rules(s) and s["red_in_hand"] == "p2"
