"""A carom competition's own settings in the set-up: an innings limit (``carom.innings-limit``),
a shot clock with time-outs (``carom.shot-clock``), and the runs per inning that the score
sheet lists. Shots are played through the real engine (``Replay``), varied by hypothesis."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.errors import IllegalCall
from tablesense.events import parse_event
from tablesense.replay import Replay
from tablesense.texts import LANGS


def _match(**setup: Any) -> Replay:
    rep = Replay()
    rep.apply(parse_event({"t": 0, "type": "setup", "game": "carom", "discipline": "libre",
                           "players": {"p1": "Ann", "p2": "Bob"}, **setup}))
    return rep


class _Table:
    def __init__(self, rep: Replay) -> None:
        self.rep, self.t = rep, 1.0

    def shot(self, carom: bool) -> None:
        self.rep.apply(parse_event({"t": self.t, "type": "cushion", "cushion": 1, "ball": None}))
        self.rep.apply(parse_event({"t": self.t + 0.5, "type": "rest"}))
        if carom:
            self.rep.apply(parse_event({"t": self.t + 0.7, "type": "call", "call": "carom"}))
        self.t += 1.0

    def call(self, **call: Any) -> None:
        self.rep.apply(parse_event({"t": self.t, "type": "call", **call}))
        self.t += 0.1


@settings(max_examples=60, deadline=None)
@given(limit=st.integers(1, 4), targets=st.tuples(st.integers(2, 6), st.integers(2, 6)),
       shots=st.lists(st.booleans(), min_size=1, max_size=60))
def test_carom_innings_limit_ends_the_match_after_the_second_players_last_inning(
        limit: int, targets: tuple[int, int], shots: list[bool]) -> None:
    rep = _match(targets={"p1": targets[0], "p2": targets[1]}, innings_limit=limit)
    table = _Table(rep)
    for carom in shots:
        table.shot(carom)
        state = rep.to_json()
        runs, innings, caroms = state["runs"], state["innings"], state["caroms"]
        for p in ("p1", "p2"):  # the score sheet: one run per inning ended, adding up to the caroms
            assert len(runs[p]) == innings[p]
            assert sum(runs[p]) + (state["current_run"] if state["at_table"] == p and not state["finished"]
                                   else 0) == caroms[p]
        assert innings["p1"] <= limit and innings["p2"] <= limit
        if state["finished"]:
            break
    state = rep.to_json()
    if state["finished"] and state["ended"]["rule"] == "carom.innings-limit":
        assert state["innings"] == {"p1": limit, "p2": limit}
        a, b = state["caroms"]["p1"] / targets[0], state["caroms"]["p2"] / targets[1]
        assert state["winner"] == ("p1" if a > b else "p2" if b > a else "draw")
        assert all(state["caroms"][p] < t for p, t in zip(("p1", "p2"), targets, strict=True))
    elif not state["finished"]:
        assert state["innings"]["p2"] < limit


def test_carom_innings_limit_is_said_in_three_languages_with_the_winner() -> None:
    rep = _match(targets={"p1": 10, "p2": 20}, innings_limit=1)
    table = _Table(rep)
    for carom in (True, True, False, True, False):  # Ann 2 of 10 (20 %), Bob 1 of 20 (5 %)
        table.shot(carom)
    assert rep.to_json()["winner"] == "p1"
    last = [r for r in rep.state.rulings if r.rule == "carom.innings-limit"]
    names = {"p1": "Ann", "p2": "Bob"}
    said = {lang: last[0].say(lang, names) for lang in LANGS}
    assert all("Ann" in s and "1" in s for s in said.values()) and len(set(said.values())) == len(LANGS)
    assert "beurtenlimiet" in said["nl"]


def test_carom_without_an_innings_limit_plays_on_past_any_number_of_innings() -> None:
    rep = _match(targets={"p1": 3, "p2": 3})
    table = _Table(rep)
    for _ in range(40):
        table.shot(False)
    assert not rep.to_json()["finished"] and rep.to_json()["innings"] == {"p1": 20, "p2": 20}


@pytest.mark.parametrize("bad", [0, -3, 2.5, "ten", True])
def test_carom_innings_limit_must_be_a_whole_number(bad: Any) -> None:
    with pytest.raises(IllegalCall, match="innings_limit"):
        _match(innings_limit=bad)


def test_carom_shot_clock_time_outs_are_counted_and_refused_when_used_up() -> None:
    rep = _match(discipline="driebanden", targets={"p1": 15, "p2": 15}, shot_clock=40, timeouts=1)
    table = _Table(rep)
    assert rep.to_json()["shot_clock"] == 40 and rep.to_json()["timeouts_left"] == {"p1": 1, "p2": 1}
    table.call(call="timeout")
    state = rep.to_json()
    assert state["timeouts_left"] == {"p1": 0, "p2": 1}
    assert state["rulings"][-1]["rule"] == "carom.shot-clock"
    with pytest.raises(IllegalCall, match="no time-out left"):
        table.call(call="timeout")
    with pytest.raises(IllegalCall, match="only the player at the table"):
        table.call(call="timeout", player="p2")
    table.shot(False)  # Bob's turn: his own time-out
    table.call(call="timeout")
    assert rep.to_json()["timeouts_left"] == {"p1": 0, "p2": 0}
    table.call(call="undo")
    assert rep.to_json()["timeouts_left"] == {"p1": 0, "p2": 1}


def test_carom_time_out_without_a_shot_clock_is_refused() -> None:
    rep = _match()
    with pytest.raises(IllegalCall, match="no shot clock"):
        _Table(rep).call(call="timeout")
    assert rep.to_json()["timeouts_left"] is None
