"""Second outsider pass over the carom engine (recorded matches in tests/matches/carom/:
opening-shot.direct__second_shot_not_a_break.jsonl, foul.touch__touche_accent.jsonl, ...).

What it found: the opponent's first shot after a missed break was still judged as an
opening shot (onto the red first), and referee calls typed with accents ("touché") were
refused. Plus a property: an ``undo`` after a referee call gives back exactly the
state before it, whatever shots and calls came earlier.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_carom_logs_written_from_the_seeds import check_consistent

from tablesense.errors import TablesenseError
from tablesense.events import parse_event
from tablesense.replay import Replay

T = {"p1": 10, "p2": 10}


def replay(*events: dict[str, Any], **setup: Any) -> dict[str, Any]:
    head = {"t": 0, "type": "setup", "game": "carom", "players": {"p1": "Ann", "p2": "Bob"}, "targets": T}
    return Replay().feed_lines([json.dumps({**head, **setup})] + [json.dumps(e) for e in events]).to_json()


def contact_shot(t: float, cue: str, first: str, second: str,
                 cushions_between: int = 0) -> list[dict[str, Any]]:
    shot = [{"t": t, "type": "strike", "ball": cue}, {"t": t + 0.1, "type": "contact", "balls": [cue, first]}]
    shot += [{"t": t + 0.2 + i / 100, "type": "cushion", "cushion": i + 1, "ball": cue}
             for i in range(cushions_between)]
    return shot + [{"t": t + 0.5, "type": "contact", "balls": [cue, second]}, {"t": t + 1, "type": "rest"}]


@pytest.mark.parametrize("profile", ["kampioen", "liemers"])
def test_carom_opening_shot_rule_applies_to_the_break_only_not_to_the_next_players_shot(profile: str) -> None:
    missed_break = [{"t": 0.5, "type": "strike", "ball": "yellow"},
                    {"t": 1.0, "type": "contact", "balls": ["yellow", "red"]}, {"t": 2.0, "type": "rest"}]
    s = replay(*missed_break, *contact_shot(3.0, "white", "yellow", "red"), profile=profile)
    assert s["caroms"] == {"p1": 0, "p2": 1} and s["at_table"] == "p2"
    assert not [r for r in s["rulings"] if r["rule"].startswith("carom.opening-shot")]
    assert s["from_outlay"] is False


def test_carom_opening_shot_direct_still_faults_the_break_onto_the_white() -> None:
    s = replay(*contact_shot(0.5, "yellow", "white", "red"))
    assert s["caroms"]["p1"] == 0 and s["at_table"] == "p2"
    assert "carom.opening-shot.direct" in [r["rule"] for r in s["rulings"]]


def test_carom_jump_driebanden_spots_the_jumped_ball_and_is_no_outlay() -> None:
    s = replay({"t": 0.5, "type": "cushion", "cushion": 1, "ball": None},
               {"t": 1.0, "type": "off_table", "ball": "red"}, {"t": 1.5, "type": "rest"},
               discipline="driebanden", profile="liemers")
    assert s["at_table"] == "p2" and s["from_outlay"] is False
    assert "carom.jump.driebanden" in [r["rule"] for r in s["rulings"]]


@pytest.mark.parametrize("spelling", ["touché", "Touché", "TOUCHÉ", "carom.foul.touché"])
def test_carom_foul_touch_written_with_its_accent(spelling: str) -> None:
    s = replay({"t": 0.5, "type": "cushion", "cushion": 1, "ball": None}, {"t": 1.0, "type": "rest"},
               {"t": 1.5, "type": "call", "call": "carom"},
               {"t": 2.0, "type": "call", "call": "foul", "foul": spelling})
    assert "errors" not in s
    assert s["caroms"]["p1"] == 0 and s["at_table"] == "p2"
    assert "carom.foul.touch" in [r["rule"] for r in s["rulings"]]


@pytest.mark.parametrize("spelling", ["jump_off_table", "ball_left_table", "foot_on_floor"])
def test_more_outsider_foul_names_are_understood(spelling: str) -> None:
    s = replay({"t": 0.5, "type": "call", "call": "foul", "foul": spelling})
    assert "errors" not in s and s["at_table"] == "p2"


def test_masse_with_its_accent_is_still_no_fault_in_kampioen() -> None:
    s = replay({"t": 0.5, "type": "call", "call": "foul", "foul": "massé"})
    assert "carom.masse" in s["errors"][0]["error"] and s["at_table"] == "p1"


# -- undo after a referee call gives back the state before it --------------------------------------

BALLS = ["yellow", "white", "red"]
CUSHION = st.builds(lambda c, b: {"type": "cushion", "cushion": c, "ball": b},
                    st.integers(1, 4), st.sampled_from([None, *BALLS]))
CONTACT = st.builds(lambda pair: {"type": "contact", "balls": pair},
                    st.permutations(BALLS).map(lambda p: p[:2]))
SHOT = st.lists(st.one_of(CUSHION, CONTACT, st.just({"type": "off_table", "ball": None})), max_size=5).map(
    lambda body: [*body, {"type": "rest"}])
CALL = st.one_of(
    st.just([{"type": "call", "call": "carom"}]),
    st.sampled_from(["touch", "push", "foot", "wrong_ball", "jump", "reste_dedans", "poedel", "touché"]).map(
        lambda f: [{"type": "call", "call": "foul", "foul": f}]),
    st.sampled_from(["outlay", "play"]).map(lambda c: [{"type": "call", "call": "frozen", "choice": c}]),
)
UNIT = st.one_of(SHOT, SHOT, CALL)


def _feed(rep: Replay, unit: list[dict[str, Any]], t: float) -> tuple[float, bool]:
    """Apply one unit; False if any of its events was refused."""
    ok = True
    for ev in unit:
        t += 0.25
        try:
            rep.apply(parse_event({"t": t, **ev}))
        except TablesenseError:
            ok = False
    return t, ok


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(units=st.lists(UNIT, min_size=1, max_size=25),
       discipline=st.sampled_from(["libre", "bandstoten", "driebanden"]),
       profile=st.sampled_from(["kampioen", "liemers"]))
def test_undo_after_a_referee_call_gives_back_the_state_before_it(
        units: list[list[dict[str, Any]]], discipline: str, profile: str) -> None:
    rep = Replay()
    rep.apply(parse_event({"t": 0, "type": "setup", "game": "carom", "players": {"p1": "A", "p2": "B"},
                           "discipline": discipline, "profile": profile, "targets": {"p1": 3, "p2": 4}}))
    t = 0.0
    for unit in units:
        before = rep.to_json()
        t, ok = _feed(rep, unit, t)
        check_consistent(rep.to_json())
        if ok and unit[0]["type"] == "call" and not before["finished"]:
            # a call is one step: undo returns exactly the state before it
            t += 0.25
            rep.apply(parse_event({"t": t, "type": "call", "call": "undo"}))
            assert rep.to_json() == before
            t, _ = _feed(rep, unit, t - 0.25)
