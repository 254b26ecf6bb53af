"""A shot the cushion sensors alone saw, decided at once (``plain.unseen_cushions`` in
``CaromEngine.whole``: the inning's end; ``whole_called``'s own decision of the referee's carom
after the rest, against ``whole`` of the shot and ``apply`` of the call, which decides it with
``plain_decision``), gets the state the plain decision (``plain_parts``,
``plain_decision``) gives, over made-up matches (hypothesis: the matches of
test_carom_call_amends_at_once.py, and runs of cushion shots with and without the call, in
every discipline and profile, with small targets, innings limits, the countdown, the equalising
inning and rest positions in and out of the corner zones); and a call after such a shot's rest
amends it from the facts the shot kept, as before."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_carom_call_amends_at_once import ENGINE, lines_of, shot, shots_of
from test_carom_plain_shot import positions

from tablesense.errors import TablesenseError
from tablesense.events import Call, Rest, parse_event
from tablesense.rules.carom import engine

replace = msgspec.structs.replace


@contextmanager
def plain_decision_only() -> Iterator[None]:
    """The cushion shots decided by ``plain_parts`` and ``plain_decision`` (``whole``'s quick one
    off; ``whole_called``'s is held to ``whole`` and ``apply`` of the call, ``_then``)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(engine, "unseen_cushions", lambda before, shot, facts, rest: None)
        yield


def both_ways(lines: list[str]) -> int:
    """Each shot of the log taken whole (``whole``, and ``whole_called`` where a call follows its
    rest) from the state before it, with and without the quick decisions: the same states, the
    same JSON, and a call after the rest amending it the same. How many shots were cushions alone."""
    cushions = 0
    for state, events, rest, call in shots_of(lines):
        cushions += all(e.type == "cushion" for e in events)
        takes: list[tuple[Any, ...]] = [(ENGINE.whole, state, events, rest)]
        if call is not None:
            takes.append((ENGINE.whole_called, state, events, rest, call))
            takes.append((_then, state, events, rest, call))
            fused = _answer(ENGINE.whole_called, state, events, rest, call)
            if fused is not None and not isinstance(fused, type):  # its decision, in one step
                with plain_decision_only():
                    apart = _answer(_then, state, events, rest, call)
                assert replace(fused, checkpoint=None) == replace(apart, checkpoint=None)
                assert ENGINE.to_json(fused) == ENGINE.to_json(apart)
                assert list(fused.rulings) == list(apart.rulings)
        for take in takes:
            quick = _answer(*take)
            with plain_decision_only():
                slow = _answer(*take)
            assert quick == slow
            if quick is not None and not isinstance(quick, type):
                assert ENGINE.to_json(quick) == ENGINE.to_json(slow)
                assert list(quick.rulings) == list(slow.rulings)
    return cushions


def _then(state: Any, events: list[Any], rest: Rest, call: Call) -> Any:
    """``whole`` of the shot, then ``apply`` of the call after its rest."""
    after = ENGINE.whole(state, events, rest)
    return None if after is None else ENGINE.apply(after, call)


def _answer(take: Any, *args: Any) -> Any:
    try:
        return take(*args)
    except TablesenseError as exc:
        return type(exc)


CONTEXT = (st.sampled_from(["libre", "bandstoten", "driebanden"]), st.sampled_from(["club", "liemers"]),
           st.tuples(st.integers(1, 8), st.integers(1, 8)), st.sampled_from([None, None, 2, 5]),
           st.sampled_from([None, None, "p2"]))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(shot, min_size=1, max_size=20), *CONTEXT)
def test_made_up_matches_decide_their_cushion_shots_as_the_plain_decision(
        shots: list[Any], discipline: str, profile: str, targets: tuple[int, int], limit: int | None,
        first: str | None) -> None:
    both_ways(lines_of(shots, discipline, profile, targets, limit, first))


cushion = st.builds(lambda c, b: {"type": "cushion", "cushion": c, "ball": b}, st.integers(1, 4),
                    st.sampled_from([None, None, "yellow", "white", "red"]))
cushion_run = st.lists(cushion, min_size=1, max_size=4)
called = st.sampled_from([[], [], [({"call": "carom"}, 0.1)], [({"call": "carom"}, 0.1)]])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(cushion_run, positions, called), min_size=1, max_size=25), *CONTEXT)
def test_runs_of_cushion_shots_are_decided_as_the_plain_decision(
        shots: list[Any], discipline: str, profile: str, targets: tuple[int, int], limit: int | None,
        first: str | None) -> None:
    assert both_ways(lines_of(shots, discipline, profile, targets, limit, first)) >= 1


def test_a_poedel_and_a_called_carom_are_taken_at_once() -> None:
    """The quick decisions are taken (not only their fallbacks): a poedel, then the other
    player's cushion shot whose carom the referee calls."""
    setup = {"t": 0, "type": "setup", "game": "carom", "profile": "liemers", "discipline": "bandstoten",
             "players": {"p1": "A", "p2": "B"}, "targets": {"p1": 3, "p2": 3}}
    evs = [parse_event(x) for x in (setup, {"t": 1, "type": "cushion", "cushion": 1},
                                    {"t": 2, "type": "rest"},
                                    {"t": 3, "type": "cushion", "cushion": 2, "ball": "white"},
                                    {"t": 4, "type": "rest"},
                                    {"t": 5, "type": "call", "call": "carom"})]
    seen: list[str] = []
    state = ENGINE.new_state(evs[0])
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(engine, "plain_parts", lambda *a: seen.append("plain_parts"))
        mp.setattr(engine, "plain_decision", lambda *a: seen.append("plain_decision"))
        state = ENGINE.whole(state, evs[1:2], evs[2])
        assert state is not None and state.at_table == "p2" and state.m.announcement == "POEDEL"
        state = ENGINE.whole_called(state, evs[3:4], evs[4], evs[5])
    assert seen == []
    assert state is not None
    assert ENGINE.game_json(state)["caroms"] == {"p1": 0, "p2": 1}
    assert [(r.rule, r.player, r.data) for r in state.rulings] == [
        ("carom.countdown", "p1", (("left", 3),)), ("carom.poedel", "p1", ()),
        ("carom.countdown", "p2", (("left", 3),)), ("carom.carom", "p2", (("made", 1), ("cushions", 1))),
        ("carom.countdown", "p2", (("left", 2),)), ("carom.referee.amend", "p2", (("call", "carom"),))]
