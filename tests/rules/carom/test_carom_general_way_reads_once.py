"""A shot that goes the general way (a fault, a frozen ball: ``CaromEngine._played``) is decided on
the facts ``plain_parts`` read of it just before it said the shot is not plain (``shot_facts``),
not read again: the same state as its facts read anew, over made-up matches (hypothesis: every
kind of shot tests/rules/carom/test_carom_plain_shot.py makes, fouls and calls after the rest
among them, every discipline and both profiles), and the facts of another shot never used."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_carom_plain_shot import ENGINE, MATCH_DRAWS, shot, states

from tablesense.events import parse_event
from tablesense.rules.carom import plain
from tablesense.rules.carom.shot import NO_FACTS, read_shot


def _forget() -> None:
    assert hasattr(plain, "_read_last")  # (renamed, the reset would set a name nothing reads)
    plain._read_last = (None, "", NO_FACTS)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(shot, min_size=1, max_size=30), st.sampled_from(["libre", "bandstoten", "driebanden"]),
       *MATCH_DRAWS)
def test_a_shot_decided_the_general_way_after_plain_parts_gets_the_state_of_its_facts_read_anew(
        shots: list[Any], discipline: str, profile: str, targets: tuple[int, int], limit: int | None,
        first: str | None) -> None:
    for state in states(shots, discipline, profile, targets, limit, first):
        shot_, before = state.shot, state.before
        if shot_ is None or before is None or shot_.rest is None:
            continue
        _forget()
        anew = ENGINE._played(before, shot_, shot_.rest)  # its facts read (nothing kept)
        plain.plain_parts(before, shot_, shot_.rest)  # what ``resolve`` asks first
        kept = ENGINE._played(before, shot_, shot_.rest)
        assert kept == anew
        assert tuple(kept.rulings) == tuple(anew.rulings)


def test_the_facts_of_another_shot_or_cue_ball_are_not_used() -> None:
    setup = parse_event({"t": 0, "type": "setup", "game": "carom", "discipline": "libre",
                         "profile": "club", "players": {"p1": "A", "p2": "B"}, "targets": {"p1": 5, "p2": 5}})
    state = ENGINE.new_state(setup)
    for obj in ({"t": 1, "type": "strike", "ball": "yellow"},
                {"t": 2, "type": "contact", "balls": ["yellow", "red"]},
                {"t": 3, "type": "contact", "balls": ["yellow", "white"]}, {"t": 4, "type": "rest"},
                {"t": 5, "type": "strike", "ball": "white"}, {"t": 6, "type": "rest"}):
        state = ENGINE.apply(state, parse_event(obj))
    wrong_ball, before = state.shot, state.before  # the second shot: the wrong ball struck
    first = before.shot
    plain.plain_parts(before.before, first, first.rest)  # the first shot's facts kept
    assert plain.shot_facts(wrong_ball, "yellow") == read_shot(wrong_ball, "yellow")
    assert plain.shot_facts(first, "white") == read_shot(first, "white")
    ruled = ENGINE._played(before, wrong_ball, wrong_ball.rest)  # its own facts: the wrong ball, a fault
    assert "carom.foul.wrong-ball" in [r.rule for r in ruled.rulings][len(before.rulings):]
