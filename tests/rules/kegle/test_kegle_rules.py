"""Keglebillard rules, one test (at least) per id of seeds/kegle.md, through the real replay."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tablesense.replay import Replay


class Match:
    """A keglebillard match fed line by line, as `tablesense replay` reads a log."""

    def __init__(self, distance: int | None = 30, **setup: Any) -> None:
        self.t = 0.0
        self.line = 0
        self.rep = Replay()
        extra = {"distance": distance} if distance is not None else {}
        self.feed({"type": "setup", "game": "kegle", "players": {"p1": "Ann", "p2": "Bob"},
                   **extra, **setup})

    def feed(self, obj: dict[str, Any]) -> Match:
        self.t += 0.25
        self.line += 1
        self.rep.feed_line(json.dumps({"t": round(self.t, 6), **obj}), self.line)
        return self

    def ev(self, type_: str, **kw: Any) -> Match:
        return self.feed({"type": type_, **kw})

    def call(self, call: str, **kw: Any) -> Match:
        return self.feed({"type": "call", "call": call, **kw})

    def rest(self, **kw: Any) -> Match:
        return self.ev("rest", **kw)

    def aim(self) -> Match:
        """The next player aims: more than the settle window (1 s, tablesense.shots) passes, so a
        pin or a pocket opening the next shot is not read as the last shot settling (seed 7.8)."""
        self.t += 1.0
        return self

    def pins(self, *pins: int, cushion: bool = True, up: bool = True, **pin_kw: Any) -> Match:
        """A shot in which the whites topple ``pins``; the pins are put up after it."""
        self.aim()
        if cushion:
            self.ev("cushion", cushion=2, ball="red")
        for pin in pins:
            self.ev("pin", pin=pin, state="down", **pin_kw)
        self.rest()
        if up:
            for pin in pins:
                self.ev("pin", pin=pin, state="up")
        return self

    def carambole(self) -> Match:
        self.ev("contact", balls=["red", "white"])
        self.ev("cushion", cushion=3, ball="red")
        self.ev("contact", balls=["red", "white"])
        return self.rest()

    def miss(self) -> Match:
        self.ev("cushion", cushion=1, ball="red")
        return self.rest()

    @property
    def state(self) -> dict[str, Any]:
        return self.rep.to_json()

    @property
    def errors(self) -> list[str]:
        return [str(e) for e in self.rep.errors]

    def rules(self) -> list[str]:
        return [r["rule"] for r in self.state["rulings"]]

    def ruled(self, rule: str) -> list[dict[str, Any]]:
        return [r for r in self.state["rulings"] if r["rule"] == rule]


def test_kegle_lag_start_call_names_the_first_player() -> None:
    m = Match().call("start", player="p2")
    assert m.state["at_table"] == "p2"
    assert m.state["first"] == "p2"
    assert m.ruled("kegle.lag")[0]["player"] == "p2"
    m.pins(1)
    assert m.state["points"] == {"p1": 0, "p2": 2}


def test_kegle_lag_start_after_the_first_shot_is_refused() -> None:
    m = Match().miss().call("start", player="p1")
    assert m.errors and "only before the first shot" in m.errors[0]


def test_kegle_outlay_match_starts_from_an_outlay_for_the_first_player() -> None:
    m = Match()
    assert m.state["outlay"] == "p1"
    m.miss()
    assert m.state["outlay"] is None


def test_kegle_outlay_request_between_shots() -> None:
    m = Match().pins(2).call("outlay")
    assert m.ruled("kegle.outlay.request")[0]["player"] == "p1"
    assert m.state["outlay"] == "p1"
    assert m.state["at_table"] == "p1"  # the series goes on


def test_kegle_outlay_request_stands_when_a_late_call_amends_the_shot() -> None:
    m = Match().pins(2).call("outlay").call("carom")
    assert m.state["points"]["p1"] == 6
    assert m.state["outlay"] == "p1"
    assert m.rules()[-1] == "kegle.outlay.request"
    m.call("foul", foul="touch")  # the shot was a fault after all: the request goes with the turn
    assert m.state["at_table"] == "p2"
    assert m.state["outlay"] == "p2"


def test_kegle_outlay_request_during_a_shot_is_refused() -> None:
    m = Match().ev("cushion", cushion=1, ball="red").call("outlay")
    assert m.errors and "between shots" in m.errors[0]


def test_kegle_pin_two_points_each_counted_at_rest() -> None:
    m = Match().ev("cushion", cushion=2, ball="red")
    m.ev("pin", pin=1, state="down").ev("pin", pin=4, state="down")
    assert m.state["points"]["p1"] == 0  # not before the rest
    m.rest()
    assert m.state["points"] == {"p1": 4, "p2": 0}
    assert m.ruled("kegle.pin")[0]["pins"] == [1, 4]
    assert m.state["pins_down"] == [1, 4]
    assert m.state["at_table"] == "p1"


def test_kegle_pin_bouncing_switch_counts_once() -> None:
    m = Match().ev("cushion", cushion=2, ball="red")
    for state in ("down", "up", "down"):
        m.ev("pin", pin=3, state=state)
    m.rest()
    assert m.state["points"]["p1"] == 2


def test_kegle_carambole_from_two_red_white_contacts() -> None:
    m = Match().carambole()
    assert m.state["points"]["p1"] == 4
    assert "kegle.carambole" in m.rules()


def test_kegle_carambole_same_white_twice_is_not_one() -> None:
    m = Match()
    m.ev("contact", balls=["red", "white"], white=1).ev("contact", balls=["white", "red"], white=1).rest()
    assert m.state["points"]["p1"] == 0
    m2 = Match()
    m2.ev("contact", balls=["red", "white"], white=1).ev("contact", balls=["white", "red"], white=2).rest()
    assert m2.state["points"]["p1"] == 4


def test_kegle_carambole_by_referee_call_after_rest_amends_the_shot() -> None:
    m = Match().miss()
    assert m.state["at_table"] == "p2"
    m.call("carom")
    assert m.state["points"]["p1"] == 4
    assert m.state["at_table"] == "p1"  # the series goes on after all
    m.call("carom")
    assert m.errors and "already counted" in m.errors[0]
    assert m.state["points"]["p1"] == 4


def test_kegle_carambole_call_confirming_the_contacts_counts_once() -> None:
    m = Match().carambole().call("carom")
    assert m.errors == [] and m.state["points"]["p1"] == 4
    assert len(m.ruled("kegle.carambole")) == 1


def test_kegle_carambole_with_pins_scores_both() -> None:
    m = Match()
    m.ev("contact", balls=["red", "white"]).ev("contact", balls=["red", "white"])
    m.ev("pin", pin=2, state="down").ev("pin", pin=1, state="down").rest()
    assert m.state["points"]["p1"] == 8


def test_kegle_series_continues_while_scoring_and_ends_without_points() -> None:
    m = Match().pins(1).pins(2, 3).carambole()
    assert m.state["at_table"] == "p1"
    assert m.state["series_points"] == 10
    m.miss()
    assert m.state["at_table"] == "p2"
    assert m.ruled("kegle.series")[0]["player"] == "p1"
    assert m.state["series"] == {"p1": 1, "p2": 0}
    m.pins(5)
    assert m.state["series"] == {"p1": 1, "p2": 1}
    assert m.state["series_points"] == 2


def test_kegle_shot_pin_put_up_between_shots_is_no_shot() -> None:
    m = Match().pins(1, up=False)
    assert m.state["pins_down"] == [1]
    m.ev("pin", pin=1, state="up")
    assert m.state["pins_down"] == []
    assert m.state["series"] == {"p1": 1, "p2": 0}
    # a rest with nothing played decides nothing
    before = m.state
    m.rest()
    assert m.state == before


def test_kegle_distance_reached_ends_the_series() -> None:
    m = Match(distance=30).call("start", player="p2")
    m.pins(1, 2, 3, 4, 5).pins(1, 2, 3, 4, 5).pins(1, 2, 3, 4, 5)
    assert m.state["points"]["p2"] == 30
    assert m.ruled("kegle.distance")[0]["player"] == "p2"
    assert "distance reached" in m.state["announcements"]
    assert m.state["at_table"] == "p1"


def test_kegle_distance_defaults_to_100() -> None:
    assert Match(distance=None).state["distance"] == 100


def test_kegle_distance_own_per_player_with_targets() -> None:
    m = Match(distance=None, targets={"p1": 10, "p2": 20})
    assert m.state["distance"] == {"p1": 10, "p2": 20}
    assert m.state["remaining"] == {"p1": 10, "p2": 20}
    m.pins(1, 2, 3, 4, 5)  # p1 at his own distance: p2's last series
    assert m.state["last_series"]
    m.pins(1, 2, 3, 4, 5).miss()  # p2 10 of 20: not there
    assert m.state["finished"] and m.state["winner"] == "p1"


def test_kegle_break_at_half_of_the_own_distance() -> None:
    m = Match(distance=None, targets={"p1": 40, "p2": 10}).miss().pins(1, 2, 3).miss()
    assert m.state["break_due"]  # p2: 6 of 10
    assert m.ruled("kegle.break")[0]["player"] == "p2"


def test_kegle_break_first_time_half_the_distance_after_a_series() -> None:
    m = Match(distance=20).pins(1, 2, 3, 4, 5)
    assert m.state["points"]["p1"] == 10
    assert not m.state["break_due"]  # never in the middle of a series
    m.miss()
    assert m.state["break_due"]
    assert "5-minute break" in m.state["announcements"]
    assert m.ruled("kegle.break")[0]["player"] == "p1"
    m.pins(1, 2, 3, 4, 5).miss()  # p2 reaches half too: no second break
    assert not m.state["break_due"]
    assert len(m.ruled("kegle.break")) == 1


def test_kegle_fault_jumped_ball_new_outlay_for_opponent() -> None:
    m = Match().ev("pin", pin=1, state="down").ev("off_table", ball="white").rest()
    assert m.state["points"]["p1"] == 0
    assert "kegle.fault.jumped-ball" in m.rules()
    assert m.state["at_table"] == "p2"
    assert m.state["outlay"] == "p2"
    assert m.ruled("kegle.outlay")[0]["player"] == "p2"


def test_kegle_fault_pins_not_up_when_a_shot_starts_with_a_pin_down() -> None:
    m = Match().pins(4).pins(1, up=False)  # the tilt switches report the pins put up, then not pin 1
    m.ev("cushion", cushion=1, ball="red").ev("pin", pin=2, state="down").rest()
    assert "kegle.fault.pins-not-up" in m.rules()
    assert m.state["points"]["p1"] == 4  # the first two shots only
    assert m.state["at_table"] == "p2"


def test_kegle_fault_pins_not_up_not_decided_by_a_log_without_pin_up_events() -> None:
    # a referee's or hand-written log never says the pins were put up: they stand at each shot
    m = Match().pins(1, up=False).pins(1, 2, up=False).pins(1, up=False)
    assert "kegle.fault.pins-not-up" not in m.rules()
    assert m.state["points"]["p1"] == 8  # pin 1 counts each time it falls again
    assert m.state["at_table"] == "p1"


def test_kegle_fault_pins_not_up_not_after_the_pins_are_put_up() -> None:
    m = Match().pins(1).pins(2)
    assert "kegle.fault.pins-not-up" not in m.rules()
    assert m.state["points"]["p1"] == 4


REFEREE_FAULTS = [
    ("kegle.fault.balls-moving", "moving"),
    ("kegle.fault.touch", "hand"),
    ("kegle.fault.touche", "touché"),
    ("kegle.fault.push", "cue_in_contact"),
    ("kegle.fault.frozen", "Frozen Ball"),
    ("kegle.fault.foot", "no-foot-on-floor"),
    ("kegle.fault.marks", "kegle.fault.marks"),
    ("kegle.fault.touch-toppled-pin", "touched-pin"),
    ("kegle.fault.pin-by-cue", "bridge"),
    ("kegle.fault.red-topples-pin", "red_pin"),
    ("kegle.fault.red-in-hole", "fault.red-in-hole"),
    ("kegle.fault.jumped-ball", "JUMPED"),
    ("kegle.fault.no-cushion", "no-rail"),
    ("kegle.fault.three-reds", "3 reds"),
    ("kegle.fault.pins-not-up", "pins"),
]


@pytest.mark.parametrize(("rule", "name"), REFEREE_FAULTS)
def test_kegle_referee_fault_during_the_shot_voids_its_points(rule: str, name: str) -> None:
    m = Match().pins(1)
    m.ev("cushion", cushion=2, ball="red").ev("pin", pin=3, state="down")
    m.call("foul", foul=name).rest()
    assert m.errors == []
    assert m.ruled(rule)[0]["player"] == "p1"
    assert m.state["points"] == {"p1": 2, "p2": 0}
    assert m.state["at_table"] == "p2"


@pytest.mark.parametrize(("rule", "name"), REFEREE_FAULTS[:8])
def test_kegle_referee_fault_after_rest_amends_the_shot(rule: str, name: str) -> None:
    m = Match().pins(1, 2, up=False)
    assert m.state["points"]["p1"] == 4
    m.call("foul", foul=rule)
    assert m.state["points"]["p1"] == 0
    assert m.state["at_table"] == "p2"
    assert rule in m.rules()
    assert "kegle.pin" not in m.rules()


def test_kegle_unknown_fault_lists_the_known_ones() -> None:
    m = Match().miss().call("foul", foul="sneeze")
    assert m.errors and "unknown keglebillard fault 'sneeze'" in m.errors[0]
    assert "three-reds" in m.errors[0]


def test_kegle_fault_noticed_before_the_next_shot_only() -> None:
    m = Match().pins(1).ev("cushion", cushion=1, ball="red")
    m.call("foul", foul="foot").rest()  # called during shot 2: shot 2 is the faulty one
    assert m.state["points"]["p1"] == 2
    m = Match().pins(1).pins(2).ev("cushion", cushion=1, ball="red").ev("pin", pin=3, state="down")
    m.call("foul", foul="touch", player="p1").rest()  # naming the shooter changes nothing
    assert m.state["points"] == {"p1": 4, "p2": 0} and m.state["at_table"] == "p2"


def test_kegle_fault_noticed_between_shots_is_the_player_at_the_tables() -> None:
    # seed 7.7: a shot is performed as soon as a ball is touched, so a fault before the
    # first shot is the first player's, and ends his (empty) series
    m = Match().call("foul", foul="touch")
    assert m.errors == [] and m.ruled("kegle.fault.touch")[0]["player"] == "p1"
    assert m.state["at_table"] == "p2" and m.state["series"] == {"p1": 1, "p2": 0}
    # after p1's miss, a foul naming p2 (now at the table) is p2's; without a player it is p1's shot
    m = Match().miss().call("foul", foul="touch-pin", player="p2")
    assert m.ruled("kegle.fault.touch-toppled-pin")[0]["player"] == "p2"
    assert m.state["at_table"] == "p1" and m.state["series"] == {"p1": 1, "p2": 1}
    m = Match().miss().call("foul", foul="touch")
    assert m.ruled("kegle.fault.touch")[0]["player"] == "p1" and m.state["at_table"] == "p2"
    # the opponent of the player at the table cannot fault before anyone played
    m = Match().call("foul", foul="touch", player="p2")
    assert m.errors and "p2 is not at the table" in m.errors[0]
    assert m.state["at_table"] == "p1" and m.state["rulings"] == []
    # undo takes the faulty turn back
    m = Match().miss().call("foul", foul="touch", player="p2").call("undo")
    assert m.state["at_table"] == "p2" and m.state["series"] == {"p1": 1, "p2": 0}


def test_kegle_fault_red_in_hole_by_colour_reading() -> None:
    m = Match().ev("pin", pin=1, state="down").ev("pocket", pocket=4, ball="red").rest()
    assert "kegle.fault.red-in-hole" in m.rules()
    assert m.state["points"]["p1"] == 0
    assert m.state["red_in_hand"] == "p2"
    assert m.ruled("kegle.red-in-hand")[0]["player"] == "p2"


def test_kegle_fault_red_in_hole_unknown_ball_asks_the_referee() -> None:
    m = Match().ev("pin", pin=1, state="down").ev("pocket", pocket=2, ball=None).rest()
    q = m.state["questions"][0]
    assert q["rule"] == "kegle.fault.red-in-hole"
    assert q["options"] == ["white", "red"]  # the default first
    assert m.state["points"]["p1"] == 2  # until answered, the default: not the red
    m.call("answer", question=q["id"], answer="red")
    assert m.state["questions"] == []
    assert m.state["points"]["p1"] == 0
    assert m.state["at_table"] == "p2"


def test_kegle_pins_put_up_after_rest_stay_up_when_a_late_call_amends_the_shot() -> None:
    m = Match().pins(1, 2).call("carom")  # pins(...) puts both pins up after the rest
    assert m.state["points"]["p1"] == 8
    assert m.state["pins_down"] == []
    m.pins(3)
    assert "kegle.fault.pins-not-up" not in m.rules()
    assert m.state["points"]["p1"] == 10


def test_kegle_open_question_dropped_when_the_next_shot_starts() -> None:
    m = Match().ev("pin", pin=1, state="down").ev("pocket", pocket=2, ball=None).rest()
    m.ev("pin", pin=1, state="up").miss()
    assert m.state["questions"] == []
    assert m.state["points"]["p1"] == 2
    m.call("answer", question="q1", answer="red")
    assert m.errors and "no open question" in m.errors[0]


@pytest.mark.parametrize("key", ["ball", "by"])
def test_kegle_fault_red_topples_pin_from_pin_event_ball(key: str) -> None:
    m = Match().ev("cushion", cushion=2, ball="red").ev("pin", pin=2, state="down", **{key: "red"}).rest()
    assert "kegle.fault.red-topples-pin" in m.rules()
    assert m.state["points"]["p1"] == 0


def test_kegle_fault_red_topples_pin_before_any_contact_full_information() -> None:
    m = Match().ev("pin", pin=2, state="down")
    m.ev("contact", balls=["red", "white"]).ev("pin", pin=3, state="down")
    m.rest(positions={"red": [0.4, 0.3], "white": [[1.5, 0.3], [1.8, 0.8]]})
    assert "kegle.fault.red-topples-pin" in m.rules()
    # with sensors only, a pin is the white's unless the referee says otherwise
    m2 = Match().ev("pin", pin=2, state="down").rest()
    assert m2.state["points"]["p1"] == 2


def test_kegle_fault_red_topples_pin_a_pin_toppled_by_a_pin_is_no_fault_by_itself() -> None:
    m = Match().ev("contact", balls=["red", "white"]).ev("pin", pin=1, state="down", ball="white")
    m.ev("pin", pin=2, state="down", ball="pin").rest()
    assert m.state["points"]["p1"] == 4
    m = Match().ev("pin", pin=1, state="down", ball="red").ev("pin", pin=2, state="down", ball="pin").rest()
    assert "kegle.fault.red-topples-pin" in m.rules()
    m = Match().ev("pin", pin=1, state="down", ball="blue")
    assert m.errors and "must be red, white, pin or cue" in m.errors[0]


def test_kegle_fault_pin_by_cue_from_pin_event() -> None:
    m = Match().ev("pin", pin=5, state="down", ball="cue").rest()
    assert "kegle.fault.pin-by-cue" in m.rules()


def test_kegle_fault_no_cushion_second_pin_setup_in_a_row() -> None:
    m = Match().miss()  # the log reports cushions (p1's miss hit one)
    m.pins(1, cushion=False)
    assert m.state["points"]["p2"] == 2
    m.pins(2, cushion=False)
    assert "kegle.fault.no-cushion" in m.rules()
    assert m.state["points"]["p2"] == 2
    assert m.state["at_table"] == "p1"


def test_kegle_fault_no_cushion_not_decided_by_a_log_without_cushion_events() -> None:
    m = Match().pins(1, cushion=False).pins(2, cushion=False).pins(3, cushion=False)
    assert "kegle.fault.no-cushion" not in m.rules()
    assert m.state["points"]["p1"] == 6 and m.state["at_table"] == "p1"


def test_kegle_fault_no_cushion_reset_by_a_cushion_or_a_red_alone() -> None:
    m = Match(distance=100).miss().pins(1, cushion=False).pins(2).pins(3, cushion=False)
    assert "kegle.fault.no-cushion" not in m.rules()
    m.ev("contact", balls=["red", "white"]).ev("contact", balls=["red", "white"]).rest()  # red alone
    m.pins(4, cushion=False)
    assert "kegle.fault.no-cushion" not in m.rules()
    assert m.state["points"]["p2"] == 12


def test_kegle_fault_three_reds_third_shot_without_pin() -> None:
    m = Match(distance=100).carambole().carambole()
    assert m.state["points"]["p1"] == 8
    m.carambole()
    assert "kegle.fault.three-reds" in m.rules()
    assert m.state["points"]["p1"] == 8
    assert m.state["at_table"] == "p2"


def test_kegle_fault_three_reds_counter_reset_by_a_pin() -> None:
    m = Match(distance=100).carambole().carambole().pins(1).carambole().carambole()
    assert "kegle.fault.three-reds" not in m.rules()
    assert m.state["points"]["p1"] == 18


def test_kegle_disqualified_opponent_wins() -> None:
    m = Match().pins(1).call("disqualify", player="p1")
    assert m.state["finished"] and m.state["winner"] == "p2"
    assert m.ruled("kegle.disqualified")[0]["player"] == "p1"
    m.miss()
    assert m.errors and "the match is over" in m.errors[0]


def test_kegle_pin_blocked_by_a_ball_at_rest_is_excused() -> None:
    pin1 = [1.12, 0.56]
    m = Match().pins(4).ev("contact", balls=["red", "white"]).ev("pin", pin=1, state="down")
    m.rest(positions={"red": [0.3, 0.3], "white": [[pin1[0] + 0.02, pin1[1]], [1.9, 0.5]]})
    assert m.ruled("kegle.pin-blocked")[0]["pin"] == 1
    m.pins(2)  # pin 1 still down: excused
    assert "kegle.fault.pins-not-up" not in m.rules()
    assert m.state["points"]["p1"] == 6


def test_kegle_pin_blocked_by_referee_call() -> None:
    m = Match().pins(4).pins(3, up=False).call("blocked", pin=3).pins(2)
    assert "kegle.fault.pins-not-up" not in m.rules()
    assert m.state["points"]["p1"] == 6
    m.call("blocked", pin=4)
    assert m.errors and "pin 4 is standing" in m.errors[0]
    m = Match().pins(3, up=False).ev("cushion", cushion=1, ball="red").call("blocked", pin=3)
    assert m.errors and "between shots" in m.errors[0]


def test_kegle_pin_blocked_call_stands_when_a_late_call_amends_the_shot() -> None:
    m = Match().pins(4).pins(3, up=False).call("blocked", pin=3).call("carom").pins(2)
    assert "kegle.fault.pins-not-up" not in m.rules()
    assert m.state["points"]["p1"] == 2 + 2 + 4 + 2


def test_kegle_white_in_hole_points_still_count() -> None:
    m = Match().ev("pin", pin=1, state="down").ev("pocket", pocket=6, ball="white").rest()
    assert m.ruled("kegle.white-in-hole")[0]["pocket"] == 6
    assert m.state["points"]["p1"] == 2
    assert m.state["at_table"] == "p1"


def test_kegle_white_in_hole_goes_to_the_spot_opposite_the_other_white() -> None:
    m = Match().ev("contact", balls=["red", "white"]).ev("pin", pin=1, state="down")
    m.ev("pocket", pocket=3, ball="white").rest(positions={"red": [1.5, 0.3], "white": [0.4, 0.8]})
    ruling = m.ruled("kegle.white-in-hole")[0]
    assert ruling["spot"] == "foot" and "spot_taken" not in ruling
    # the red lies on that spot: the player may ask for a new outlay
    m = Match().ev("contact", balls=["red", "white"]).ev("pocket", pocket=1, ball="white")
    m.rest(positions={"red": [1.69, 0.56], "white": [0.4, 0.8]})
    assert m.ruled("kegle.white-in-hole")[0]["spot_taken"] is True
    # the other white on the middle line: the spot in the half opposite the red (seed 9.3)
    m = Match().ev("contact", balls=["red", "white"]).ev("pocket", pocket=2, ball="white")
    m.rest(positions={"red": [0.3, 0.3], "white": [1.12, 0.8]})
    assert m.ruled("kegle.white-in-hole")[0]["spot"] == "foot"
    m = Match().ev("contact", balls=["red", "white"]).ev("pocket", pocket=2, ball="white")
    m.rest(positions={"red": [[1.9, 0.3]], "white1": [1.12, 0.8], "white2": []})
    assert m.ruled("kegle.white-in-hole")[0]["spot"] == "head"


def test_kegle_white_in_hole_by_answer() -> None:
    m = Match().ev("pin", pin=1, state="down").ev("pocket", pocket=3).rest()
    m.call("answer", question="q1", answer="white")
    assert "kegle.white-in-hole" in m.rules()
    assert m.state["points"]["p1"] == 2


def test_kegle_red_in_hand_cleared_by_the_next_shot() -> None:
    m = Match().ev("pocket", pocket=1, ball="red").rest()
    assert m.state["red_in_hand"] == "p2"
    m.miss()
    assert m.state["red_in_hand"] is None


def test_kegle_ball_falls_replay_takes_the_shot_back() -> None:
    m = Match().pins(1)
    m.ev("pocket", pocket=5, ball="red").rest()
    assert m.state["at_table"] == "p2"
    m.call("replay")
    assert m.state["at_table"] == "p1"
    assert m.state["points"]["p1"] == 2
    assert m.rules()[-1] == "kegle.ball-falls"
    assert "kegle.fault.red-in-hole" not in m.rules()
    m.call("replay")
    assert m.errors and "no shot to replay" in m.errors[0]


def test_kegle_same_series_second_player_reaches_distance_wins_at_once() -> None:
    m = Match(distance=10).miss().pins(1, 2, 3, 4, 5)
    assert m.state["finished"] and m.state["winner"] == "p2"
    assert m.ruled("kegle.same-series")[0]["player"] == "p2"
    assert m.state["series"] == {"p1": 1, "p2": 1}


def test_kegle_fault_noticed_after_the_winning_shot_reopens_the_match() -> None:
    m = Match(distance=10).miss().pins(1, 2, 3, 4, 5, up=False)
    assert m.state["winner"] == "p2"
    m.call("foul", foul="foot")
    assert m.errors == []
    assert not m.state["finished"] and m.state["winner"] is None
    assert m.state["points"]["p2"] == 0 and m.state["at_table"] == "p1"
    m.call("carom")  # the shot before the foul call is still the one amended
    assert m.state["points"]["p2"] == 0
    m2 = Match(distance=10).miss().pins(1, 2, 3, 4, 5)  # the pins go back up after the last shot
    assert m2.errors == [] and m2.state["pins_down"] == []
    m2.call("disqualify", player="p1").call("foul", foul="foot")
    assert m2.errors and "no shot to call 'foul' on" in m2.errors[0]
    m2.ev("pin", pin=1, state="down")
    assert "the match is over" in m2.errors[-1]


def test_kegle_last_series_for_opponent_from_new_outlay() -> None:
    m = Match(distance=10).pins(1, 2, 3, 4, 5)
    assert not m.state["finished"]
    assert m.state["last_series"] and m.state["outlay"] == "p2"
    assert m.ruled("kegle.last-series")[0]["player"] == "p2"
    m.pins(1).miss()
    assert m.state["finished"] and m.state["winner"] == "p1"
    assert m.state["series"] == {"p1": 1, "p2": 1}
    assert "kegle.same-series" in m.rules()


def test_kegle_draw_both_reach_the_distance() -> None:
    m = Match(distance=10).pins(1, 2, 3, 4, 5).pins(1, 2, 3).pins(1, 2)
    assert m.state["finished"] and m.state["winner"] == "draw"
    assert "kegle.draw" in m.rules()
    assert m.state["points"] == {"p1": 10, "p2": 10}


def test_kegle_announce_remaining_once_first_time_at_or_under_20() -> None:
    m = Match(distance=40).pins(1, 2, 3, 4, 5).pins(1, 2, 3, 4, 5)
    assert m.state["remaining"]["p1"] == 20
    assert m.ruled("kegle.announce.remaining")[0]["text"] == "20 remaining"
    m.pins(1)
    assert len(m.ruled("kegle.announce.remaining")) == 1


def test_kegle_announce_remaining_jumped_over_20_says_the_first_count_under() -> None:
    m = Match(distance=30).pins(1, 2, 3, 4).pins(1, 2, 3)
    assert m.ruled("kegle.announce.remaining")[0]["text"] == "16 remaining"


def test_kegle_shot_a_bare_rest_is_a_shot_that_touched_nothing() -> None:
    m = Match().rest()  # p1 played and touched nothing: a miss
    assert m.state["at_table"] == "p2" and m.state["series"] == {"p1": 1, "p2": 0}
    assert m.ruled("kegle.series")[0]["player"] == "p1"
    m.pins(1, up=False).rest()  # p2 scored, then a rest right after the last one: his miss
    assert m.state["points"] == {"p1": 0, "p2": 2} and m.state["at_table"] == "p1"
    m.call("undo")
    assert m.state["at_table"] == "p2"
    # the rest a sensor source reports after the pins were put up is no shot
    m = Match().pins(1, 2)
    assert m.state["at_table"] == "p1"
    m.rest()
    assert m.state["at_table"] == "p1" and m.state["series"] == {"p1": 1, "p2": 0}


def test_kegle_shot_events_count_in_t_order_inside_a_shot() -> None:
    # the pin line is written after the contacts but fell before them: the red toppled it
    m = Match()
    m.ev("contact", balls=["red", "white"]).ev("contact", balls=["red", "white"])
    m.rep.feed_line('{"t": 0.3, "type": "pin", "pin": 2, "state": "down"}', 99)
    m.rest()
    assert "kegle.fault.red-topples-pin" in m.rules()
    assert m.state["points"]["p1"] == 0 and m.state["at_table"] == "p2"


def test_kegle_fault_touch_when_the_cue_strikes_a_white() -> None:
    m = Match().ev("strike", ball="white").ev("pin", pin=1, state="down").rest()
    assert m.ruled("kegle.fault.touch")[0]["player"] == "p1"
    assert m.state["points"]["p1"] == 0 and m.state["at_table"] == "p2"
    m.ev("strike", ball="red").ev("pin", pin=1, state="down").rest()
    assert m.state["points"]["p2"] == 2 and m.state["at_table"] == "p2"


def test_kegle_carambole_call_may_be_named_carambole() -> None:
    m = Match().miss().call("carambole")
    assert m.errors == [] and m.state["points"]["p1"] == 4 and m.state["at_table"] == "p1"
    m.call("carom")
    assert m.errors and "already counted" in m.errors[0]
