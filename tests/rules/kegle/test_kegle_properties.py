"""Keglebillard properties over random matches (hypothesis): what must hold whatever happens."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from paths import ROOT

from tablesense.errors import TablesenseError
from tablesense.events import parse_event
from tablesense.rules import find_engine
from tablesense.rules.kegle.fouls import FAULTS
from tablesense.rules.kegle.names import FAULT_NAMES
from tablesense.vocabulary import for_game

ENGINE = find_engine("kegle")

# one shot: a few sensor events, then the rest, then maybe a referee call and the pins put up
cushion = st.builds(lambda c, b: {"type": "cushion", "cushion": c, "ball": b},
                    st.integers(1, 4), st.sampled_from(["red", "white", None]))
pin = st.builds(lambda p: {"type": "pin", "pin": p, "state": "down"}, st.integers(1, 5))
contact = st.just({"type": "contact", "balls": ["red", "white"]})
rare = st.one_of(
    st.builds(lambda p, b: {"type": "pocket", "pocket": p, "ball": b},
              st.integers(1, 6), st.sampled_from(["red", "white", None])),
    st.just({"type": "off_table", "ball": "white"}),
)
# mostly what a game is made of, now and then a ball in a hole or off the table
sensor = st.one_of(cushion, pin, pin, contact, cushion, pin, contact, rare)
after = st.one_of(
    st.none(),
    st.none(),
    st.none(),
    st.just({"type": "call", "call": "carom"}),
    st.builds(lambda f: {"type": "call", "call": "foul", "foul": f},
              st.sampled_from(["touch", "foot", "push"])),
    st.just({"type": "call", "call": "undo"}),
)
shot = st.tuples(st.lists(sensor, min_size=1, max_size=6), after, st.sampled_from([True, True, True, False]))


def play(shots: list[tuple[list[dict[str, Any]], dict[str, Any] | None, bool]], distance: int) -> list[Any]:
    """Feed the shots to the engine; return every state (illegal events are skipped)."""
    t = 0.0
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": distance}))
    states = [state]
    for events, call, put_up in shots:
        objs = [*events, {"type": "rest"}]
        if call is not None:
            objs.append(call)
        if put_up:
            objs.extend({"type": "pin", "pin": p, "state": "up"} for p in range(1, 6))
        for obj in objs:
            t += 0.5
            try:
                state = ENGINE.apply(state, parse_event({"t": t, **obj}))
            except TablesenseError:
                continue  # refused with a clear error; never a traceback
            states.append(state)
        for q in state.questions:  # the referee answers what was asked
            state = ENGINE.apply(state, parse_event({"t": t, "type": "call", "call": "answer",
                                                     "question": q.id, "answer": "white"}))
    return states


@settings(max_examples=60, deadline=None)
@given(st.lists(shot, min_size=1, max_size=40), st.integers(4, 24))
def test_kegle_score_invariants(shots: list[Any], distance: int) -> None:
    for state in play(shots, distance):
        out = json.loads(json.dumps(ENGINE.to_json(state)))  # always plain JSON
        pts, series = out["points"], out["series"]
        # points: even (pins 2, carambole 4), never negative, the sum of the scoring rulings
        for p in ("p1", "p2"):
            assert pts[p] >= 0 and pts[p] % 2 == 0
            scored = sum(r.get("points", 0) for r in out["rulings"]
                         if r["rule"] in ("kegle.pin", "kegle.carambole") and r.get("player") == p)
            assert scored == pts[p]
        # series alternate: the first player is never behind, never more than one ahead
        first, second = out["first"], "p2" if out["first"] == "p1" else "p1"
        assert 0 <= series[first] - series[second] <= 1
        if out["finished"]:
            assert series["p1"] == series["p2"]
            reached = [p for p in ("p1", "p2") if pts[p] >= distance]
            assert reached
            assert out["winner"] == ("draw" if len(reached) == 2 else reached[0])
        else:
            assert out["winner"] is None
        # every ruling carries a catalogue id
        assert all(r["rule"].startswith("kegle.") for r in out["rulings"])


@settings(max_examples=40, deadline=None)
@given(st.lists(shot, min_size=1, max_size=15))
def test_kegle_undo_returns_the_state_before(shots: list[Any]) -> None:
    states = play(shots, 30)
    last = states[-1]
    if last.checkpoint is not None:
        back = ENGINE.apply(last, parse_event({"t": 999, "type": "call", "call": "undo"}))
        assert ENGINE.to_json(back) == ENGINE.to_json(last.checkpoint)


@settings(max_examples=40, deadline=None)
@given(st.lists(shot, min_size=1, max_size=15), st.sampled_from([f.id for f in FAULTS]))
def test_kegle_late_foul_never_adds_points(shots: list[Any], fault: str) -> None:
    state = play(shots, 1000)[-1]
    before = ENGINE.to_json(state)["points"]
    try:
        foul = parse_event({"t": 999, "type": "call", "call": "foul", "foul": fault})
        after_foul = ENGINE.apply(state, foul)
    except TablesenseError:
        return
    pts = ENGINE.to_json(after_foul)["points"]
    assert all(pts[p] <= before[p] for p in ("p1", "p2"))
    assert fault in [r.rule for r in after_foul.rulings]


@given(st.sampled_from(FAULTS), st.sampled_from(["", "kegle.", "fault.", "kegle.fault."]),
       st.sampled_from([str.lower, str.upper, lambda s: s.replace("-", "_"), lambda s: s.replace("-", " ")]))
def test_kegle_fault_names_any_spelling(fault: Any, prefix: str, spell: Any) -> None:
    vocab = for_game("kegle")
    short = fault.id.removeprefix("kegle.fault.")
    assert vocab.lookup("fouls", spell(prefix + short)) == fault.id
    for alias in FAULT_NAMES[fault.id]:
        assert vocab.lookup("fouls", spell(alias)) == fault.id


@settings(max_examples=40, deadline=None)
@given(st.lists(shot, min_size=1, max_size=20))
def test_kegle_undo_after_a_shot_gives_back_the_state_before_it(shots: list[Any]) -> None:
    t = 0.0
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": 12}))
    undo = parse_event({"t": 999, "type": "call", "call": "undo"})
    for events, call, put_up in shots:
        if state.finished:
            break
        shown = ENGINE.to_json(state)
        t += 2.0  # beyond the settle window: a new shot, not a late settle of the last one
        for obj in [*events, {"type": "rest"}]:
            t += 0.5
            state = ENGINE.apply(state, parse_event({"t": t, **obj}))
        assert ENGINE.to_json(ENGINE.apply(state, undo)) == shown
        for obj in ([call] if call else []) + ([{"type": "pin", "pin": p, "state": "up"} for p in range(1, 6)]
                                               if put_up else []):
            t += 0.5
            try:
                state = ENGINE.apply(state, parse_event({"t": t, **obj}))
            except TablesenseError:
                continue


def test_kegle_fault_table_matches_the_catalogue() -> None:
    catalogue = (ROOT / "seeds" / "kegle.md").read_text()
    listed = set(re.findall(r"^\| `(kegle\.fault\.[a-z-]+)`", catalogue, re.M))
    assert listed - {"kegle.fault.noticed"} == {f.id for f in FAULTS}
