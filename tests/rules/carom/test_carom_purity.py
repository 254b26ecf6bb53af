"""The carom engine is pure: old states stay as they were, branches do not see each other."""

from __future__ import annotations

import json

from test_carom_helpers import Table, rules, setup

from tablesense.events import parse_event, parse_line
from tablesense.rules import find_engine
from tablesense.rules.base import Ruling
from tablesense.rules.ruling_log import RulingLog


def _states(lines: list[str]) -> list:
    engine = find_engine("carom")
    events = [parse_line(x) for x in lines]
    states = [engine.new_state(events[0])]
    for ev in events[1:]:
        states.append(engine.apply(states[-1], ev))
    return states


def test_old_states_keep_their_score_and_rulings() -> None:
    engine = find_engine("carom")
    lines = Table(setup(targets={"p1": 5, "p2": 5})).run(3).piezo().run(2).lines()
    states = _states(lines)
    before = [json.dumps(engine.to_json(s)) for s in states]
    engine.apply(states[4], parse_event({"t": 99.0, "type": "call", "call": "foul", "foul": "touch"}))
    engine.apply(states[2], parse_event({"t": 99.0, "type": "rest"}))
    assert [json.dumps(engine.to_json(s)) for s in states] == before


def test_a_branch_from_an_old_state_does_not_see_the_newer_rulings() -> None:
    engine = find_engine("carom")
    states = _states(Table(setup(targets={"p1": 9, "p2": 9})).run(3).lines())
    old = states[2]
    branch = engine.apply(old, parse_event({"t": 50.0, "type": "rest"}))
    assert len(branch.rulings) == len(old.rulings) + 1
    assert [r.rule for r in states[-1].rulings] == ["carom.carom", "carom.referee.amend"] * 3
    assert [r.rule for r in branch.rulings][-1] == "carom.poedel"


def test_ruling_log_behaves_like_an_immutable_tuple() -> None:
    a = RulingLog()
    r1, r2, r3 = (Ruling(t=float(i), rule=f"carom.r{i}") for i in range(3))
    b = a + (r1,)
    c = b + (r2,)
    d = b + (r3,)
    assert len(a) == 0 and list(b) == [r1] and list(c) == [r1, r2] and list(d) == [r1, r3]
    assert c[-1] == r2 and c[0:1] == (r1,) and d == (r1, r3)


def test_notes_after_a_shot_survive_a_late_amendment() -> None:
    t = Table(setup(profile="liemers", targets={"p1": 9, "p2": 9})).piezo()
    t.call("note", rule="carom.board-decides", text="light fell out").call("carom")
    s = t.state()
    assert s["caroms"]["p1"] == 1
    assert rules(s)[-2:] == ["carom.board-decides", "carom.referee.amend"]


def test_a_late_foul_amends_the_deciding_shot_of_a_finished_match() -> None:
    t = Table(setup(targets={"p1": 9, "p2": 2})).piezo().run(2)
    assert t.state()["winner"] == "p2"
    s = t.call("foul", foul="push").state()
    assert not s["finished"] and s["winner"] is None and s["match_points"] is None
    assert s["caroms"]["p2"] == 1 and s["at_table"] == "p1"
