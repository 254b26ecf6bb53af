"""Keglebillard rules hold however the situation is logged. Each test names its rule id and
generates the ways a log may give the same situation: a strike sensor or none, a set-up of the
pins (with or without the table's rest after it) between, rest positions or none, contacts or
none, the lines of a shot in any order (``t`` orders a shot's events), and on a table that
cannot tell by its sensors the referee's call that settles it (docs/events.md, "What a table
without a strike sensor cannot tell"). The rule's outcome must not change."""

from __future__ import annotations

from typing import Any

from helpers.replaying import ev, replay_log, rules
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.rules.kegle import geometry as geo

SETUP = {"t": 0, "type": "setup", "game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}, "distance": 60}
#: where the balls lie at a rest when a variant gives positions: clear of every pin spot
AWAY = {"red": [0.5, 0.3], "white": [[0.4, 0.8], [1.9, 0.5]]}
SETTLE_S = 1.0  # keglebillard's settle window (tablesense.shots)


def replay(lines: list[dict[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    return replay_log(SETUP, lines)


class Log:
    """A log written as a variant says: shots with or without their strike, in any line order."""

    def __init__(self, draw: Any, strike: bool, positions: bool) -> None:
        self.draw, self.strike, self.positions = draw, strike, positions
        self.lines: list[dict[str, Any]] = []
        self.t = 0.0

    def at(self, dt: float) -> float:
        self.t = round(self.t + dt, 6)
        return self.t

    def rest(self, dt: float = 2.0, positions: dict[str, Any] | None = None) -> None:
        where = positions if positions is not None else (AWAY if self.positions else None)
        self.lines.append(ev(self.at(dt), "rest", **({"positions": where} if where is not None else {})))

    def shot(self, pins: tuple[int, ...], contact: bool = False,
             positions: dict[str, Any] | None = None) -> None:
        """The player at the table plays the red: it hits a cushion, the whites topple ``pins``."""
        t0 = self.at(5.0)
        events = [ev(t0 + 0.4, "cushion", cushion=2, ball="red")]
        if self.strike:
            events.append(ev(t0, "strike", ball="red"))
        if contact:
            events.append(ev(t0 + 0.6, "contact", balls=["red", "white"]))
        events += [ev(t0 + 0.8 + 0.1 * k, "pin", pin=p, state="down") for k, p in enumerate(pins)]
        self.lines += self.draw(st.permutations(events), label="a shot's lines")
        self.t = t0 + 0.8 + 0.1 * len(pins)
        self.rest(positions=positions)

    def set_up(self, pins: tuple[int, ...], rest: bool) -> None:
        """The pin referee stands ``pins`` up again; the table reports a rest after him or not."""
        for p in pins:
            self.lines.append(ev(self.at(3.0), "pin", pin=p, state="up"))
        if rest and pins:
            self.rest()


# --- 10.2: a ball that lay still and falls in a hole is put back ---------------------------

@settings(max_examples=150, deadline=None)
@given(st.data(), st.booleans(), st.booleans(), st.booleans(), st.booleans(),
       st.sampled_from(["none", "pins", "pins+rest"]), st.sampled_from(["red", "white", None]),
       st.booleans(), st.booleans())
def test_kegle_ball_falls_10_2_a_ball_that_lay_still_and_drops_is_put_back_however_logged(
        data: Any, strike: bool, positions: bool, contact: bool, earlier: bool, set_up: str,
        ball: str | None, soon: bool, call_at_rest: bool) -> None:
    log = Log(data.draw, strike, positions)
    points = 0
    if earlier:  # an earlier scoring shot and set-up: the table has shown its rest after a set-up
        log.shot((2,), contact)
        log.set_up((2,), rest=True)
        points += 2
    log.shot((1,), contact)
    points += 2
    within = soon and set_up == "none"  # a drop within the settle window settles the shot
    if set_up != "none":
        log.set_up((1,), rest=set_up == "pins+rest")
    gap = data.draw(st.floats(0.05, SETTLE_S - 0.05) if within else st.floats(SETTLE_S + 0.05, 20.0),
                    label="the drop after the last line")
    log.lines.append(ev(log.at(gap), "pocket", pocket=3, ball=ball))
    if not strike and not within and not call_at_rest:  # the referee sees it at once
        log.lines.append(ev(log.at(0.3), "call", call="replay"))
    log.rest()
    if not strike and not within and call_at_rest:
        # the table cannot tell a ball that lay still and dropped from a shot that pots it at
        # once: the referee's call says which
        log.lines.append(ev(log.at(0.5), "call", call="replay"))
    state, errors = replay(log.lines)
    assert errors == []
    assert state["points"] == {"p1": points, "p2": 0}
    assert state["at_table"] == "p1" and state["series"] == {"p1": 1, "p2": 0}
    assert state["red_in_hand"] is None and state["questions"] == []
    assert "kegle.fault.red-in-hole" not in rules(state) and "kegle.white-in-hole" not in rules(state)
    assert rules(state).count("kegle.ball-falls") == 1
    # the player at the table plays on (the pins put up): his next shot is his
    if set_up == "none":
        log.set_up((1,), rest=True)
    log.shot((4,), contact)
    state, errors = replay(log.lines)
    assert errors == [] and state["points"] == {"p1": points + 2, "p2": 0} and state["at_table"] == "p1"


# --- 7.7, 6.4: the pin referee's hands are no shot ----------------------------------------

@settings(max_examples=150, deadline=None)
@given(st.data(), st.booleans(), st.booleans(), st.booleans(), st.booleans(), st.integers(2, 5),
       st.sampled_from(["after", "before"]), st.booleans())
def test_kegle_shot_7_7_a_pin_knocked_over_and_stood_again_while_setting_up_is_no_shot(
        data: Any, strike: bool, positions: bool, contact: bool, earlier: bool, pin: int, when: str,
        call_anyway: bool) -> None:
    """Also on the match's first set-up: nothing was played, nobody's turn changes."""
    log = Log(data.draw, strike, positions)
    if earlier:
        log.shot((pin,), contact)
        log.set_up((pin,), rest=True)
    log.shot((1,), contact)
    points = 4 if earlier else 2
    fumble = [ev(log.t + 4.0, "pin", pin=pin, state="down"), ev(log.t + 4.6, "pin", pin=pin, state="up")]
    set_up = ev(log.t + (3.0 if when == "after" else 5.0), "pin", pin=1, state="up")
    lines = [set_up, *fumble] if when == "after" else [*fumble, set_up]
    log.lines += lines
    log.t = max(e["t"] for e in lines)
    log.rest()
    # a table that reports strikes says it; one that does not tells a pin falling while the
    # pin referee's hands are at the pins (after he put one up, before the rest); else the
    # referee's 'hands' call says it
    during_set_up = when == "after"
    if not strike and (not during_set_up or call_anyway):
        log.lines.append(ev(log.at(0.5), "call", call="hands"))
    state, errors = replay(log.lines)
    assert errors == []
    assert state["points"] == {"p1": points, "p2": 0}
    assert state["at_table"] == "p1" and state["series"] == {"p1": 1, "p2": 0}
    assert state["pins_down"] == []
    assert "kegle.series" not in rules(state)
    by_hand = [r for r in state["rulings"] if r["rule"] == "kegle.shot" and r.get("pin") == pin]
    assert by_hand and all("player" not in r for r in by_hand)
    log.shot((3,), contact)
    state, errors = replay(log.lines)
    assert errors == [] and state["points"] == {"p1": points + 2, "p2": 0} and state["at_table"] == "p1"


@settings(max_examples=60, deadline=None)
@given(st.data(), st.booleans(), st.booleans())
def test_kegle_shot_6_4_a_pin_the_pin_referee_leaves_down_must_be_up_before_the_next_shot(
        data: Any, strike: bool, contact: bool) -> None:
    log = Log(data.draw, strike, False)
    log.shot((1,), contact)
    log.lines += [ev(log.at(3.0), "pin", pin=1, state="up"), ev(log.at(0.3), "pin", pin=4, state="down")]
    log.rest()
    if not strike:
        log.lines.append(ev(log.at(0.5), "call", call="hands"))
    state, errors = replay(log.lines)
    assert errors == [] and state["pins_down"] == [4] and state["at_table"] == "p1"
    log.shot((2,), contact)  # played with pin 4 down: shooting before the pins are up
    state, errors = replay(log.lines)
    assert errors == [] and "kegle.fault.pins-not-up" in rules(state)
    assert state["points"] == {"p1": 2, "p2": 0} and state["at_table"] == "p2"


def test_kegle_shot_7_7_the_hands_call_is_refused_for_a_shot_that_moved_a_ball() -> None:
    lines = [ev(1.0, "cushion", cushion=2, ball="red"), ev(1.5, "pin", pin=1, state="down"), ev(3.5, "rest"),
             ev(4.0, "call", call="hands")]
    state, errors = replay(lines)
    assert len(errors) == 1 and "moved a ball" in errors[0]
    assert state["points"] == {"p1": 2, "p2": 0}


# --- 8.3 with 5.2 / 7.9: an excused pin is up once its spot is free --------------------------

@settings(max_examples=150, deadline=None)
@given(st.data(), st.booleans(), st.booleans(), st.sampled_from(["red", "white", "call"]),
       st.sampled_from(["free", "none", "still"]), st.booleans(), st.booleans())
def test_kegle_pin_blocked_excuse_ends_with_the_shot_that_frees_the_spot(
        data: Any, strike: bool, contact: bool, blocker: str, after: str, set_up_rest: bool,
        put_up: bool) -> None:
    """8.3: a pin a ball keeps off its spot may stay down until the shot that frees the spot is
    over; a shot after that with the pin still down is shooting before the pins are up (5.2,
    7.9). Where the balls lie says it (rest positions); without positions, a spot the red lay
    on is free once the red was played; a white, or the referee's call, keeps it excused until
    positions or the referee say otherwise."""
    px, py = geo.PINS[3]
    on3 = {"red": [px + 0.02, py], "white": [[0.4, 0.3], [1.9, 0.5]]}
    if blocker == "white":
        on3 = {"red": [0.8, 0.3], "white": [[px - 0.01, py + 0.015], [1.9, 0.5]]}
    log = Log(data.draw, strike, False)
    log.shot((3, 1), contact, positions=on3 if blocker != "call" else None)
    if blocker == "call":
        log.lines.append(ev(log.at(0.5), "call", call="blocked", pin=3))
    log.set_up((1,), rest=set_up_rest)
    # the second shot, with pin 3 down and excused
    still = {"red": [0.9, 0.3], "white": [[px - 0.01, py + 0.015], [1.9, 0.5]]}
    log.shot((2,), contact, positions={"free": AWAY, "still": still}.get(after))
    state, errors = replay(log.lines)
    assert errors == [] and "kegle.fault.pins-not-up" not in rules(state) and state["at_table"] == "p1"
    assert state["pins_down"] == [2, 3]
    log.set_up((2, 3) if put_up else (2,), rest=set_up_rest)
    log.shot((5,), contact)
    state, errors = replay(log.lines)
    assert errors == []
    excused = after == "still" or (after == "none" and blocker != "red")
    fault = not put_up and not excused
    assert ("kegle.fault.pins-not-up" in rules(state)) is fault
    assert state["at_table"] == ("p2" if fault else "p1")
    assert state["points"]["p1"] == (6 if fault else 8)
