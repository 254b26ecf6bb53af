"""A plain carom shot decided in one pass (``plain.plain_shot``) gets the state the general
decision (``CaromEngine._played``: ``decide`` on a ``Draft``) gives, over made-up matches
(hypothesis): full-information shots and shots the cushion sensors alone saw, the referee's
calls during and after a shot (carom, fouls, notes, frozen balls), the wrong ball struck,
balls off the table, rest positions in and out of the corner zones, every discipline and
both club profiles, small targets (matches end, the equalising inning), innings limits, undo."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablesense.errors import TablesenseError
from tablesense.events import parse_event
from tablesense.rules import find_engine
from tablesense.rules.carom.plain import plain_shot

ENGINE = find_engine("carom")

ball = st.sampled_from(["yellow", "white", "red"])
#: a ball's place at rest: anywhere, or in a corner's zone (the head-left one), or on its line
place = st.one_of(
    st.tuples(st.floats(0.04, 2.80), st.floats(0.04, 1.38)).map(list),
    st.tuples(st.floats(0.03, 0.12), st.floats(0.03, 0.12)).map(list),
    st.just([0.1, 0.1]), st.just([0.14, 0.0745]),
)
positions = st.one_of(st.none(), st.none(),
                      st.fixed_dictionaries({"yellow": place, "white": place, "red": place}))
sensor = st.one_of(
    st.builds(lambda c, b: {"type": "cushion", "cushion": c, "ball": b}, st.integers(1, 4),
              st.sampled_from(["yellow", "white", None, None])),
    st.builds(lambda a, b: {"type": "contact", "balls": [a, b]}, ball, ball),
    st.builds(lambda b: {"type": "strike", "ball": b}, ball),
    st.builds(lambda b: {"type": "off_table", "ball": b}, ball),
)
during = st.sampled_from([
    {"type": "call", "call": "carom"},
    {"type": "call", "call": "foul", "foul": "touch"},
    {"type": "call", "call": "note", "rule": "carom.referee.show-ball"},
])


def _full(cue_first: bool, cushions: list[int], second: bool, known: bool) -> list[dict[str, Any]]:
    """A full-information shot as most are (``cue``: filled in for the player at the table)."""
    out: list[dict[str, Any]] = [{"type": "strike", "ball": "cue"}] if cue_first else []
    out.append({"type": "contact", "balls": ["cue", "red"]})
    out.extend({"type": "cushion", "cushion": c, "ball": "cue" if known else None} for c in cushions)
    if second:
        out.append({"type": "contact", "balls": ["cue", "other"]})
    return out


full = st.builds(_full, st.booleans(), st.lists(st.integers(1, 4), max_size=4), st.booleans(),
                 st.sampled_from([True, True, False]))
piezo = st.lists(st.builds(lambda c: {"type": "cushion", "cushion": c, "ball": None}, st.integers(1, 4)),
                 min_size=1, max_size=3)
events = st.one_of(full, full, piezo, piezo,
                   st.lists(st.one_of(sensor, during), min_size=1, max_size=5))
after = st.one_of(st.just([]), st.just([]), st.sampled_from([
    [{"type": "call", "call": "carom"}],
    [{"type": "call", "call": "carom"}],
    [{"type": "call", "call": "foul", "foul": "touch"}],
    [{"type": "call", "call": "foul", "foul": "no-blame"}],
    [{"type": "call", "call": "note", "rule": "carom.referee.show-ball"}],
    [{"type": "call", "call": "frozen", "choice": "outlay"}],
    [{"type": "call", "call": "carom"}, {"type": "call", "call": "carom", "player": "p2"}],
    [{"type": "call", "call": "undo"}],
    [{"type": "call", "call": "carom"}, {"type": "call", "call": "undo"}],
]))
shot = st.tuples(events, positions, after)


#: a match's draws after its shots and discipline (``states``' arguments): the club's profile, the
#: targets, an innings limit or none, who breaks
MATCH_DRAWS = (st.sampled_from(["club", "liemers"]), st.tuples(st.integers(1, 8), st.integers(1, 8)),
               st.sampled_from([None, None, 2, 5]), st.sampled_from([None, None, "p2"]))


def states(shots: list[Any], discipline: str, profile: str, targets: tuple[int, int],
           limit: int | None, first: str | None) -> list[Any]:
    """Every state of the match the shots make (a refused event is skipped, as a replay does)."""
    setup: dict[str, Any] = {"t": 0, "type": "setup", "game": "carom", "discipline": discipline,
                             "profile": profile, "players": {"p1": "A", "p2": "B"},
                             "targets": {"p1": targets[0], "p2": targets[1]}}
    if limit is not None:
        setup["innings_limit"] = limit
    state = ENGINE.new_state(parse_event(setup))
    out = [state]
    t = 0.0
    if first is not None:
        t += 0.1
        state = ENGINE.apply(state, parse_event({"t": t, "type": "call", "call": "start", "player": first}))
    for evs, where, calls in shots:
        cue = "yellow" if state.at_table == "p1" else "white"
        other = "white" if cue == "yellow" else "yellow"
        objs: list[dict[str, Any]] = []
        for e in evs:
            e = dict(e)
            if e.get("ball") == "cue":
                e["ball"] = cue
            if "balls" in e:
                e["balls"] = [cue if b == "cue" else other if b == "other" else b for b in e["balls"]]
            objs.append(e)
        rest: dict[str, Any] = {"type": "rest"}
        if where is not None:
            rest["positions"] = where
        for obj in [*objs, rest, *calls]:
            t += 0.25
            try:
                state = ENGINE.apply(state, parse_event({"t": round(t, 3), **obj}))
            except TablesenseError:
                continue
            out.append(state)
    return out


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(shot, min_size=1, max_size=30), st.sampled_from(["libre", "bandstoten", "driebanden"]),
       *MATCH_DRAWS)
def test_a_plain_shot_is_decided_as_the_general_decision_decides_it(
        shots: list[Any], discipline: str, profile: str, targets: tuple[int, int], limit: int | None,
        first: str | None) -> None:
    for state in states(shots, discipline, profile, targets, limit, first):
        shot, before = state.shot, state.before
        if shot is None or before is None or shot.rest is None or not shot.events:
            continue
        quick = plain_shot(before, shot, shot.rest)
        if quick is not None:
            general = ENGINE._played(before, shot, shot.rest)
            assert quick == general
            assert tuple(quick.rulings) == tuple(general.rulings)


#: a ball's place at rest near a corner: in the head-left zone, on its line, just out of it, or in the
#: foot-right zone (libre's zones entered, dedans, left and entered elsewhere)
cornered = st.one_of(
    st.tuples(st.floats(0.03, 0.10), st.floats(0.03, 0.10)).map(list),
    st.just([0.111, 0.1]), st.just([0.15, 0.1]),
    st.tuples(st.floats(2.76, 2.81), st.floats(1.34, 1.39)).map(list),
)
near = st.fixed_dictionaries({"yellow": place, "white": cornered, "red": cornered})
zone_positions = st.one_of(
    st.none(), st.fixed_dictionaries({"yellow": cornered, "white": cornered, "red": cornered}), near, near)
#: most of them caroms the referee counts after the rest (so that zones are entered, dedans and left)
referee = st.just([{"type": "call", "call": "carom"}])
counted = st.one_of(after, referee, referee)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(events, zone_positions, counted), min_size=1, max_size=30),
       st.sampled_from(["club", "liemers"]), st.tuples(st.integers(3, 12), st.integers(3, 12)))
def test_shots_in_and_out_of_the_zones_are_decided_as_the_general_decision_decides_them(
        shots: list[Any], profile: str, targets: tuple[int, int]) -> None:
    """Libre with the balls at rest near the corners, most shots: entering a zone, dedans, leaving
    it, the next player's entree, a carom left in dedans (a fault: the general way)."""
    for state in states(shots, "libre", profile, targets, None, None):
        shot, before = state.shot, state.before
        if shot is None or before is None or shot.rest is None or not shot.events:
            continue
        quick = plain_shot(before, shot, shot.rest)
        if quick is not None:
            general = ENGINE._played(before, shot, shot.rest)
            assert quick == general
            assert tuple(quick.rulings) == tuple(general.rulings)


def _shot(*lines: dict[str, Any], discipline: str = "libre") -> tuple[Any, Any]:
    """The state before the last shot of a new match and that shot, from its events."""
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "carom", "discipline": discipline,
                                          "players": {"p1": "A", "p2": "B"},
                                          "targets": {"p1": 3, "p2": 3}}))
    for obj in lines:
        state = ENGINE.apply(state, parse_event(obj))
    return state.before, state.shot


def test_a_carom_the_referee_counts_after_the_rest_is_decided_in_one_pass() -> None:
    before, shot = _shot({"t": 1, "type": "cushion", "cushion": 1}, {"t": 2, "type": "rest"},
                         {"t": 3, "type": "call", "call": "carom"})
    quick = plain_shot(before, shot, shot.rest)
    assert quick is not None and quick.m.caroms == (1, 0) and quick == ENGINE._played(before, shot, shot.rest)
    assert [r.rule for r in quick.rulings] == ["carom.carom", "carom.referee.amend"]


def test_a_foul_goes_the_general_way() -> None:
    before, shot = _shot({"t": 1, "type": "cushion", "cushion": 1}, {"t": 2, "type": "rest"},
                         {"t": 3, "type": "call", "call": "foul", "foul": "touch"})
    assert plain_shot(before, shot, shot.rest) is None


#: the balls at rest with p1's object balls (white, red) in the head-left corner's zone, one on its line
ZONE = {"yellow": [1.4, 0.7], "white": [0.1, 0.1], "red": [0.05, 0.12]}
LINE = {"yellow": [1.4, 0.7], "white": [0.1, 0.1], "red": [0.111, 0.1]}
AWAY = {"yellow": [1.4, 0.7], "white": [1.0, 0.5], "red": [2.0, 0.9]}


def _zone_shot(*rests: dict[str, Any] | None) -> list[dict[str, Any]]:
    """p1's cushion shots counted by the referee, each ball at rest as ``rests`` says."""
    out: list[dict[str, Any]] = []
    for k, where in enumerate(rests):
        t = 1.0 + k
        rest: dict[str, Any] = {"t": t + 0.1, "type": "rest"}
        if where is not None:
            rest["positions"] = where
        out += [{"t": t, "type": "cushion", "cushion": 1}, rest,
                {"t": t + 0.2, "type": "call", "call": "carom"}]
    return out


@pytest.mark.parametrize(("rests", "zone", "said"), [
    ((ZONE,), "entree", ["carom.zone.entree"]),
    ((LINE,), "entree", ["carom.zone.line", "carom.zone.entree"]),
    ((ZONE, LINE), "dedans", ["carom.zone.line", "carom.zone.dedans"]),
    ((ZONE, AWAY), None, ["carom.zone"]),
    ((ZONE, None), None, []),
])
def test_a_zone_entered_dedans_or_left_is_decided_in_one_pass(
        rests: tuple[Any, ...], zone: str | None, said: list[str]) -> None:
    """Libre's corner zones (``update_zone``) in the one pass: the same state and rulings as the
    general decision, the zone and its rulings after the carom's."""
    before, shot = _shot(*_zone_shot(*rests))
    quick = plain_shot(before, shot, shot.rest)
    assert quick is not None
    assert quick == ENGINE._played(before, shot, shot.rest)
    assert quick.m.zone == zone
    new = [r.rule for r in quick.rulings[len(before.rulings):]]
    assert new == ["carom.carom", *said, "carom.referee.amend"]


def test_a_carom_left_in_dedans_and_an_inning_ended_into_a_zone() -> None:
    """A carom that leaves the balls in dedans is a fault (the general decision); the end of an
    inning leaving the next player's object balls in a zone is his entree, in one pass."""
    before, shot = _shot(*_zone_shot(ZONE, ZONE, ZONE))
    assert before.m.zone == "dedans" and plain_shot(before, shot, shot.rest) is None
    theirs = {"white": [1.4, 0.7], "yellow": [0.1, 0.1], "red": [0.05, 0.12]}  # p2's object balls
    before, shot = _shot({"t": 1, "type": "cushion", "cushion": 1},
                         {"t": 2, "type": "rest", "positions": theirs})
    quick = plain_shot(before, shot, shot.rest)
    assert quick is not None and quick == ENGINE._played(before, shot, shot.rest)
    assert quick.at_table == "p2" and quick.m.zone == "entree" and quick.m.zone_corner == "head-left"


def _counted(*times: float) -> list[dict[str, Any]]:
    """A piezo shot at each of ``times`` that the referee counts after its rest."""
    return [e for t in times for e in ({"t": t, "type": "cushion", "cushion": 1},
                                        {"t": t + 0.1, "type": "rest"},
                                        {"t": t + 0.2, "type": "call", "call": "carom"})]


def test_the_last_carom_and_the_equalising_inning_are_decided_in_one_pass_too() -> None:
    before, shot = _shot(*_counted(1, 2, 3))
    quick = plain_shot(before, shot, shot.rest)
    assert before.m.caroms == (2, 0) and quick is not None
    assert quick == ENGINE._played(before, shot, shot.rest)
    assert quick.m.nastoot and quick.at_table == "p2" and not quick.finished
    before, shot = _shot(*_counted(1, 2, 3), {"t": 4, "type": "cushion", "cushion": 1},
                         {"t": 4.1, "type": "rest"})
    quick = plain_shot(before, shot, shot.rest)
    assert quick is not None and quick == ENGINE._played(before, shot, shot.rest)
    assert quick.winner == "p1" and quick.m.points == (11, 0)
    assert tuple(quick.rulings) == tuple(ENGINE._played(before, shot, shot.rest).rulings)
