"""Keglebillard rulings as data (issue 13): every rule the engine cites has an English sentence,
rendered from the rule id and its parameters with the players' names; an ended match says why;
a shot in progress is shown live, and its pocket question can be answered then."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest
from paths import ROOT

from tablesense.replay import Replay
from tablesense.rules.kegle import fouls as kegle_fouls
from tablesense.rules.kegle.fouls import FAULTS
from tablesense.texts import keys

ENGINE_FILES = sorted((ROOT / "host" / "tablesense" / "rules" / "kegle").glob("*.py"))
RECORDED = sorted((ROOT / "tests" / "matches" / "kegle").glob("*.jsonl"))


def _cited_keys() -> set[str]:
    """The template keys the engine's code cites: each ``rule(...)``, ``ask(...)``, ``end(...)``
    and ``announce(...)`` call with a literal rule id, with its literal ``what`` if any."""
    names = {k: v for k, v in vars(kegle_fouls).items() if isinstance(v, str)}  # RED_IN_HOLE...
    keys: set[str] = set()
    for path in ENGINE_FILES:
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            if node.func.attr not in ("rule", "ask", "end", "announce"):
                continue
            args = [a.value if isinstance(a, ast.Constant) else names.get(a.id) if isinstance(a, ast.Name)
                    else None for a in node.args]
            ids = [a for a in args if isinstance(a, str) and a.startswith("kegle.")]
            what = next((k.value.value for k in node.keywords if k.arg == "what"
                         and isinstance(k.value, ast.Constant)), None)
            keys.update(f"{i}:{what}" if what and ":" not in i else i for i in ids)
    return keys


def test_kegle_every_rule_the_engine_cites_has_an_english_template() -> None:
    cited = _cited_keys() | {f.id for f in FAULTS}  # a fault's ruling cites its id (``v.rule(t, f.id, p)``)
    assert len(cited) > 30  # the walk found the engine's calls
    assert sorted(k for k in cited if k not in keys("en")) == []


def _replayed(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as fh:
        return Replay().feed_lines(fh).to_json()


@pytest.mark.parametrize("log", RECORDED, ids=[p.stem for p in RECORDED])
def test_kegle_recorded_match_renders_every_ruling_in_words(log: Path) -> None:
    state = _replayed(log)
    for said in [*state["rulings"], *state["questions"]]:
        assert said["text"] and said["text"] != said["rule"], said
        assert "what" not in said  # it picks the sentence: no part of the ruling's data
        assert not re.search(r"(?<!\w)\?", said["text"]), said  # a missing parameter renders as "?"
    for announced in state["announcements"]:
        assert not announced.startswith("kegle."), announced


def _match(*objs: dict[str, Any], distance: int = 30) -> dict[str, Any]:
    setup = {"type": "setup", "game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}, "distance": distance}
    lines = [setup, *objs]
    rep = Replay().feed_lines(json.dumps({"t": round(i * 0.25, 3), **o}) for i, o in enumerate(lines))
    assert not rep.errors, rep.errors
    return rep.to_json()


def _said(state: dict[str, Any], rule: str) -> list[str]:
    return [r["text"] for r in state["rulings"] if r["rule"] == rule]


def test_kegle_ruling_says_the_players_names() -> None:
    state = _match({"type": "call", "call": "start", "player": "p2"},
                   {"type": "call", "call": "disqualify", "player": "p1"})
    assert _said(state, "kegle.lag") == ["Bob shoots first, from the outlay"]
    assert _said(state, "kegle.disqualified") == ["Ann is designated the loser; Bob wins"]


def test_kegle_series_ruling_carries_the_points_it_says() -> None:
    state = _match({"type": "pin", "pin": 1, "state": "down"}, {"type": "rest"},
                   {"type": "pin", "pin": 1, "state": "up"}, {"t": 9, "type": "cushion", "cushion": 1},
                   {"t": 9.5, "type": "rest"})
    series = next(r for r in state["rulings"] if r["rule"] == "kegle.series")
    assert (series["run"], series["text"]) == (2, "no points: series of 2 over")


def test_kegle_ended_match_says_why() -> None:
    won = _match({"type": "pin", "pin": 1, "state": "down"}, {"type": "pin", "pin": 2, "state": "down"},
                 {"type": "rest"}, {"t": 5, "type": "cushion", "cushion": 1}, {"t": 5.5, "type": "rest"},
                 distance=4)
    assert won["finished"] and won["winner"] == "p1"
    assert won["ended"] == {"rule": "kegle.same-series", "winner": "p1"}
    disqualified = _match({"type": "call", "call": "disqualify", "player": "p1"})
    assert disqualified["ended"] == {"rule": "kegle.disqualified", "winner": "p2", "player": "p1"}


def test_kegle_announcements_are_said_in_words() -> None:
    state = _match({"type": "pin", "pin": 1, "state": "down"}, {"type": "pin", "pin": 2, "state": "down"},
                   {"type": "rest"}, distance=20)
    assert state["announcements"] == ["16 remaining"]


def test_kegle_shot_in_progress_is_shown_live_with_its_question() -> None:
    rep = Replay()
    lines = [{"t": 0, "type": "setup", "game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}},
             {"t": 1, "type": "cushion", "cushion": 1, "ball": "red"},
             {"t": 1.5, "type": "pocket", "pocket": 3, "ball": None}]
    rep.feed_lines(json.dumps(o) for o in lines)
    live = rep.to_json()
    assert live["series"] == {"p1": 1, "p2": 0}  # the shot's series is counted as it starts
    assert [(q["id"], q["text"]) for q in live["questions"]] == [("q1", "Which ball fell in pocket 3?")]
    answer = {"t": 2, "type": "call", "call": "answer", "question": "q1", "answer": "red"}
    rep.feed_line(json.dumps(answer), 4)
    rep.feed_line(json.dumps({"t": 3, "type": "rest"}), 5)
    assert not rep.errors, rep.errors
    state = rep.to_json()
    assert [r["rule"] for r in state["rulings"]] == ["kegle.fault.red-in-hole", "kegle.red-in-hand"]
    assert state["at_table"] == "p2" and state["questions"] == []


def test_kegle_shot_by_hand_ruling_stays_when_a_late_foul_amends_the_shot() -> None:
    """Seed 7.7: the pin referee knocks pin 4 over while setting up; then the referee calls a
    foul on the shot just played. The shot is resolved again; the referee's pin stays down, and
    its ruling stays on record."""
    rep = Replay()
    t = 0.0
    objs: list[dict[str, Any]] = [
        {"type": "setup", "game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}, "distance": 30},
        {"type": "pin", "pin": 1, "state": "down"}, {"type": "rest"},
        {"type": "pin", "pin": 1, "state": "up"}, {"type": "rest"},  # the table reports rests after set-ups
        {"type": "cushion", "cushion": 1}, {"type": "pin", "pin": 2, "state": "down"}, {"type": "rest"},
        {"type": "pin", "pin": 2, "state": "up"}, {"type": "pin", "pin": 4, "state": "down"},
        {"type": "call", "call": "foul", "foul": "foot"},
    ]
    for n, obj in enumerate(objs, 1):
        t += 2.0
        rep.feed_line(json.dumps({"t": t, **obj}), n)
    assert not rep.errors, rep.errors
    state = rep.to_json()
    assert [r["rule"] for r in state["rulings"]][-2:] == ["kegle.fault.foot", "kegle.shot"]
    assert state["rulings"][-1]["text"].startswith("pin 4 knocked over between shots")
    assert state["pins_down"] == [4] and state["points"]["p1"] == 2 and state["at_table"] == "p2"


def test_kegle_disqualified_during_a_shot_ends_the_shot_and_the_match() -> None:
    rep = Replay()
    objs = [{"t": 0, "type": "setup", "game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}},
            {"t": 1, "type": "cushion", "cushion": 1, "ball": "red"},
            {"t": 1.5, "type": "call", "call": "disqualify", "player": "p1"},
            {"t": 4, "type": "cushion", "cushion": 2, "ball": "red"}]
    for n, obj in enumerate(objs, 1):
        rep.feed_line(json.dumps(obj), n)
    state = rep.to_json()
    assert (state["finished"], state["winner"], state["ended"]["rule"]) == (True, "p2", "kegle.disqualified")
    assert [e.line for e in rep.errors] == [4]
    assert "the match is over" in rep.errors[0].error
