"""The referee's ``carom`` after a shot's rest amends the shot in one step (``amend.called_carom``)
into the state the general way makes (the call added to the shot, the whole shot resolved again
from the state before it), over made-up matches (hypothesis): piezo and full-information shots,
the referee's calls during and after them (carom, carom naming either player, fouls, notes,
frozen balls, undo), calls timed before the shot's own events, rest positions in and out of the
corner zones, every discipline and both club profiles, small targets (matches end, the equalising
inning), innings limits; each state of the match, played event by event (``apply`` and ``play``)
and replayed whole (``Replay``, bounded history and every undo kept)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_carom_plain_shot import MATCH_DRAWS, events, positions

from tablesense.errors import TablesenseError
from tablesense.events import Call, Event, Rest, parse_event
from tablesense.replay import Replay, history_for
from tablesense.rules import find_engine
from tablesense.rules.carom import amend
from tablesense.rules.shot_engine import SHOT_KINDS

ENGINE = find_engine("carom")

#: what the referee calls after a rest (the ``carom`` most often), ``dt`` after it: a negative
#: ``dt`` times the call before the shot's own events
after = st.lists(st.tuples(st.sampled_from([
    {"call": "carom"}, {"call": "carom"}, {"call": "carom"}, {"call": "carom"},
    {"call": "carom", "player": "p1"}, {"call": "carom", "player": "p2"},
    {"call": "foul", "foul": "touch"}, {"call": "foul", "foul": "wrong-ball"},
    {"call": "note", "rule": "carom.referee.show-ball"},
    {"call": "frozen", "choice": "outlay"}, {"call": "undo"},
]), st.sampled_from([0.1, 0.1, 0.1, -0.5, -5.0])), max_size=3)
shot = st.tuples(events, positions, after)


def shots_of(lines: list[str]) -> Iterator[tuple[Any, list[Event], Rest, Call | None]]:
    """Each line of the log from which table events run to a rest: the state before that line
    (every line before it applied, those refused left out), the events, the rest and the call on
    the line after the rest (None: no call there)."""
    evs = [parse_event(json.loads(x)) for x in lines]
    state = ENGINE.new_state(evs[0])
    for k in range(1, len(evs)):
        j = k
        while j < len(evs) and type(evs[j]) in SHOT_KINDS:
            j += 1
        if j > k and j < len(evs) and type(evs[j]) is Rest:
            after = evs[j + 1] if j + 1 < len(evs) else None
            yield state, evs[k:j], evs[j], after if type(after) is Call else None  # type: ignore[misc]
        try:
            state = ENGINE.apply(state, evs[k])
        except TablesenseError:
            pass


def called_shots_of(lines: list[str]) -> Iterator[tuple[Any, list[Event], Rest, Call, Any]]:
    """Each shot of ``shots_of`` the log with a call on the line after its rest, and the state
    ``whole_called`` takes the shot and the call to in one step (None: no such step, or refused)."""
    for state, table, rest, call in shots_of(lines):
        if call is None:
            continue
        try:
            fused = ENGINE.whole_called(state, table, rest, call)
        except TablesenseError:
            fused = None
        yield state, table, rest, call, fused


def lines_of(shots: list[Any], discipline: str, profile: str, targets: tuple[int, int],
             limit: int | None, first: str | None) -> list[str]:
    """The log of a match the shots make (``cue`` and ``other`` named for the player who is at
    the table as the general way has it: a log as a table writes it)."""
    setup: dict[str, Any] = {"t": 0, "type": "setup", "game": "carom", "discipline": discipline,
                             "profile": profile, "players": {"p1": "A", "p2": "B"},
                             "targets": {"p1": targets[0], "p2": targets[1]}}
    if limit is not None:
        setup["innings_limit"] = limit
    out = [setup]
    t = 0.0
    if first is not None:
        t += 0.1
        out.append({"t": t, "type": "call", "call": "start", "player": first})
    at_table = "p2" if first == "p2" else "p1"
    with general_way():
        state = ENGINE.new_state(parse_event(setup))
        for obj in out[1:]:
            state = ENGINE.apply(state, parse_event(obj))
        for evs, where, calls in shots:
            at_table = state.at_table or at_table
            cue = "yellow" if at_table == "p1" else "white"
            other = "white" if cue == "yellow" else "yellow"
            made: list[dict[str, Any]] = []
            for e in evs:
                e = dict(e)
                if e.get("ball") == "cue":
                    e["ball"] = cue
                if "balls" in e:
                    e["balls"] = [cue if b == "cue" else other if b == "other" else b for b in e["balls"]]
                t += 0.25
                made.append({"t": round(t, 3), **e})
            rest: dict[str, Any] = {"t": round(t + 0.25, 3), "type": "rest"}
            t += 0.25
            if where is not None:
                rest["positions"] = where
            made.append(rest)
            for call, dt in calls:
                made.append({"t": round(max(t + dt, 0.0), 3), "type": "call", **call})
            t += 0.25
            for obj in made:
                try:
                    state = ENGINE.apply(state, parse_event(obj))
                except TablesenseError:
                    pass
                out.append(obj)
    return [json.dumps(obj) for obj in out]


@contextmanager
def general_way() -> Iterator[None]:
    """The carom call amending its shot the general way only (``amend.called_carom`` off)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(amend, "called_carom", lambda state, call: None)
        yield


def played(lines: list[str], play: bool) -> list[Any]:
    """Every state of the log played event by event (``play``: every undo kept), a refused event
    skipped as a replay skips it."""
    evs = [parse_event(json.loads(x)) for x in lines]
    state = ENGINE.new_state(evs[0])
    out = [state]
    for ev in evs[1:]:
        try:
            state = ENGINE.play(state, ev) if play else ENGINE.apply(state, ev)
        except TablesenseError:
            continue
        out.append(state)
    return out


#: a state's links to older states (compared by ``shape``, not field by field: each old state is
#: linked from many, and comparing the links field by field compares them again and again)
LINKS = ("checkpoint", "before", "base", "since")


def shape(state: Any, states: list[Any]) -> Any:
    """``state``'s fields but its links, and where each link leads: the state of ``states`` it is
    (by its place), else that state's own fields but its links (an undo's ``Redo``: its base's,
    and its events)."""

    def flat(s: Any) -> Any:
        return tuple((f, getattr(s, f)) for f in s.__struct_fields__ if f not in LINKS)

    def where(s: Any) -> Any:
        if s is None:
            return None
        for i, known in enumerate(states):
            if known is s:
                return ("state", i)
        if type(s).__name__ == "Redo":
            return ("redo", where(s.base), tuple(s.events))
        return ("fields", flat(s))

    return (flat(state), where(state.checkpoint), where(state.before), where(state.base), tuple(state.since))


def difference(ours: Any, theirs: Any) -> str:
    """The first of the fields (and links) of two ``shape``s that differ, both ways (short: a
    failing example is shrunk through many more)."""
    names = ("fields", "checkpoint", "before", "base", "since")
    for name, x, y in zip(names, ours, theirs, strict=True):
        if x != y:
            if name == "fields":
                for (field, v), (_, w) in zip(x, y, strict=True):
                    if v != w:
                        return f"{field}: {v!r:.300} != {w!r:.300}"
            return f"{name}: {x!r:.300} != {y!r:.300}"
    return "their replay states differ"


def replayed(lines: list[str], history: int | None) -> str:
    rep = Replay(history=history)
    rep.feed_lines(lines)
    return json.dumps(rep.to_json(), sort_keys=True, default=repr)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(shot, min_size=1, max_size=25), st.sampled_from(["libre", "bandstoten", "driebanden"]),
       *MATCH_DRAWS)
def test_a_carom_called_after_the_rest_amends_the_shot_as_resolving_it_again_does(
        shots: list[Any], discipline: str, profile: str, targets: tuple[int, int], limit: int | None,
        first: str | None) -> None:
    lines = lines_of(shots, discipline, profile, targets, limit, first)
    history = history_for(sum('"undo"' in x for x in lines))
    for play in (False, True):
        quick = played(lines, play)
        with general_way():
            general = played(lines, play)
        assert len(quick) == len(general), "a line refused one way and not the other"
        for k, (a, b) in enumerate(zip(quick, general, strict=True)):
            ours, theirs = shape(a, quick), shape(b, general)
            same = ours == theirs and ENGINE.to_json(a) == ENGINE.to_json(b)
            assert same, f"state {k} ({'play' if play else 'apply'}): {difference(ours, theirs)}"
    quick_replays = [replayed(lines, history), replayed(lines, None)]
    with general_way():
        same = [replayed(lines, history), replayed(lines, None)] == quick_replays
    assert same, "a whole replay ends elsewhere"


def _log(*objs: dict[str, Any]) -> list[str]:
    setup = {"t": 0, "type": "setup", "game": "carom", "players": {"p1": "A", "p2": "B"},
             "targets": {"p1": 3, "p2": 3}}
    return [json.dumps(o) for o in (setup, *objs)]


def test_a_carom_called_after_a_shot_the_piezos_saw_takes_the_step_at_once() -> None:
    lines = _log({"t": 1, "type": "cushion", "cushion": 1}, {"t": 2, "type": "rest"})
    state = played(lines, False)[-1]
    call = parse_event({"t": 3, "type": "call", "call": "carom"})
    quick = amend.called_carom(state, call)
    assert quick is not None and quick.m.caroms == (1, 0) and quick.at_table == "p1"
    assert quick.checkpoint is state and quick.shot is not None and quick.shot.calls == (call,)
    with general_way():
        assert ENGINE.apply(state, call) == quick
    assert [r.rule for r in quick.rulings] == ["carom.carom", "carom.referee.amend"]


def test_a_second_carom_or_a_foul_goes_the_general_way_a_zone_in_one_step() -> None:
    counted = played(_log({"t": 1, "type": "cushion", "cushion": 1}, {"t": 2, "type": "rest"},
                          {"t": 3, "type": "call", "call": "carom"}), False)[-1]
    again = parse_event({"t": 4, "type": "call", "call": "carom"})
    assert amend.called_carom(counted, again) is None  # a call after it already
    fouled = played(_log({"t": 1, "type": "cushion", "cushion": 1},
                         {"t": 1.5, "type": "call", "call": "foul", "foul": "touch"},
                         {"t": 2, "type": "rest"}), False)[-1]
    assert amend.called_carom(fouled, again) is None
    zone = {"yellow": [1.4, 0.7], "white": [0.1, 0.1], "red": [0.05, 0.12]}
    zoned = played(_log({"t": 1, "type": "cushion", "cushion": 1}, {"t": 2, "type": "rest"},
                        {"t": 3, "type": "call", "call": "carom"},
                        {"t": 4, "type": "cushion", "cushion": 1},
                        {"t": 5, "type": "rest", "positions": zone},
                        {"t": 6, "type": "call", "call": "carom"},
                        {"t": 7, "type": "cushion", "cushion": 1}, {"t": 8, "type": "rest"}), False)[-1]
    assert zoned.before.m.zone is not None  # a shot from a zone: in one step too, as the general way
    call = parse_event({"t": 9, "type": "call", "call": "carom"})
    quick = amend.called_carom(zoned, call)
    with general_way():
        slow = ENGINE.apply(zoned, call)
    assert quick is not None and quick == slow and quick.m.zone is None  # (no positions: out of it)
