"""A shot the sensors saw whole (a strike, cushions, contacts), read and decided in one pass
(``sensed.sensed_shot`` in ``CaromEngine.whole``), gets the state ``plain_parts`` and the general
decision give it, over made-up matches (hypothesis): the matches of
test_carom_call_amends_at_once.py, and long runs of full-information shots as a table with every
sensor logs them, in every discipline and profile, with small and large targets, innings limits,
the countdown, the equalising inning, a ball named by its player, the wrong ball struck, a ball
off the table, events logged out of time order, and the balls at rest in and out of the corner
zones; and a long match replayed both ways, its rulings made at once past the log's packing."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_carom_call_amends_at_once import ENGINE, lines_of, shot, shots_of
from test_carom_plain_shot import cornered, place, positions
from test_carom_zone_far_check import rest_positions

from tablesense.errors import TablesenseError
from tablesense.events import Rest, parse_event
from tablesense.replay import Replay, history_for
from tablesense.rules.carom import engine, sensed

replace = msgspec.structs.replace


@contextmanager
def not_at_once() -> Iterator[None]:
    """Every shot decided as before the one pass: ``plain_parts``, else the general decision."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(engine, "sensed_shot", lambda before, events, rest: None)
        yield


def both_ways(lines: list[str]) -> int:
    """Each shot of the log taken whole (``whole``) from the state before it, with and without the
    one pass: the same state, JSON and rulings, and a call after its rest amending it the same.
    How many shots the one pass decided."""
    taken = 0
    for state, events, rest, call in shots_of(lines):
        if not state.in_shot and state.ended is None:
            taken += sensed.sensed_shot(state, tuple(events), rest) is not None
        quick = _answer(ENGINE.whole, state, events, rest)
        with not_at_once():
            slow = _answer(ENGINE.whole, state, events, rest)
        assert quick == slow
        if quick is not None and not isinstance(quick, type):
            assert ENGINE.to_json(quick) == ENGINE.to_json(slow)
            assert list(quick.rulings) == list(slow.rulings)
            if call is not None:
                then = _answer(ENGINE.apply, quick, call)
                with not_at_once():
                    assert then == _answer(ENGINE.apply, slow, call)
    return taken


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
def test_made_up_matches_decide_their_sensed_shots_as_before(
        shots: list[Any], discipline: str, profile: str, targets: tuple[int, int], limit: int | None,
        first: str | None) -> None:
    both_ways(lines_of(shots, discipline, profile, targets, limit, first))


#: a ball as a full-information table names it: the cue ball (filled in for the player at the table),
#: the others by their colour, now and then by its player's name ("p1": the vocabulary's) or none
named = st.sampled_from(["cue", "cue", "cue", "red", "white", "yellow", "p1", None])
#: a shot as such a table logs it: a strike, cushions and contacts in any order (mostly the cue
#: ball's strike first), now and then a ball off the table; ``dt``: a step back in time now and then
sensed_event = st.one_of(
    st.builds(lambda c, b: {"type": "cushion", "cushion": c, "ball": b}, st.integers(1, 4), named),
    st.builds(lambda a, b: {"type": "contact", "balls": [a, b]}, st.sampled_from(["cue", "cue", "red"]),
              st.sampled_from(["red", "other", "other", "cue", "p2"])),
    st.builds(lambda b: {"type": "strike", "ball": b}, named),
)
#: a shot as most are: the cue ball's strike, a contact, its cushions and another contact (with the
#: other object ball, or the same one again)
usual = st.builds(lambda a, cushions, b: [
    {"type": "strike", "ball": "cue"}, {"type": "contact", "balls": ["cue", a]},
    *({"type": "cushion", "cushion": c, "ball": "cue"} for c in cushions),
    {"type": "contact", "balls": [b, "cue"]}],
                  st.sampled_from(["red", "other"]), st.lists(st.integers(1, 4), max_size=4),
                  st.sampled_from(["red", "other", "other"]))
full_shot = st.one_of(
    usual, usual,
    st.builds(lambda evs: [{"type": "strike", "ball": "cue"}, *evs], st.lists(sensed_event, max_size=6)),
    st.lists(sensed_event, min_size=1, max_size=6),
    st.builds(lambda evs, b: [*evs, {"type": "off_table", "ball": b}], st.lists(sensed_event, max_size=3),
              st.sampled_from(["red", "cue"])),
)
#: each shot with its rest's positions, no call after it, and whether its first two events are logged
#: the other way round in time (sensors read by different channels: ``read_events`` sorts them)
swapped = st.sampled_from([False, False, False, True])
sensed_shots = st.lists(st.tuples(full_shot, positions, st.just([]), swapped), min_size=1, max_size=40)


def sensed_lines(shots: list[Any], discipline: str, profile: str, targets: tuple[int, int],
                 limit: int | None, first: str | None) -> list[str]:
    """``lines_of`` the shots, the first two events of those marked logged the other way round in time."""
    made = lines_of([s[:3] for s in shots], discipline, profile, targets, limit, first)
    lines = [json.loads(x) for x in made]
    k = 2 if first is not None else 1
    for evs, _, calls, swapped in shots:
        if swapped and len(evs) >= 2:
            lines[k]["t"], lines[k + 1]["t"] = lines[k + 1]["t"], lines[k]["t"]
        k += len(evs) + 1 + len(calls)
    return [json.dumps(x) for x in lines]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sensed_shots, *CONTEXT)
def test_full_information_matches_decide_their_shots_as_before(
        shots: list[Any], discipline: str, profile: str, targets: tuple[int, int], limit: int | None,
        first: str | None) -> None:
    both_ways(sensed_lines(shots, discipline, profile, targets, limit, first))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sensed_shots, *CONTEXT[:2])
def test_matches_far_from_their_targets_decide_their_shots_as_before(
        shots: list[Any], discipline: str, profile: str) -> None:
    both_ways(sensed_lines(shots, discipline, profile, (1000, 1000), None, None))


#: libre's balls at rest with one player's object balls near a corner and the other player's cue
#: ball anywhere: p1's (white, red) or p2's (yellow, red); the zone asked of is the next shot's player's
one_pair_cornered = st.one_of(st.fixed_dictionaries({"yellow": place, "white": cornered, "red": cornered}),
                              st.fixed_dictionaries({"yellow": cornered, "white": place, "red": cornered}))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(full_shot, one_pair_cornered, st.just([]), swapped), min_size=1, max_size=30),
       st.sampled_from(["club", "liemers"]), st.sampled_from([None, "p2"]))
def test_libre_asks_the_zone_of_the_player_who_plays_next(
        shots: list[Any], profile: str, first: str | None) -> None:
    """A carom leaves the player at the table, an inning's end hands it over: the one pass asks
    whether that player's object balls lie in a corner's zone (``in_a_corner``'s quick check of the
    first, inline), not the other player's, as the plain decision does."""
    both_ways(sensed_lines(shots, "libre", profile, (1000, 1000), None, first))


def _cushions(n: int, ball: str | None) -> list[dict[str, Any]]:
    return [{"type": "cushion", "cushion": k % 4 + 1, "ball": ball} for k in range(n)]


#: an opening shot (or the equalising inning's, from the outlay again): the cue ball's strike, its
#: cushions, the first object ball (the red or not), more cushions (each naming the cue ball, or one
#: naming none), the other object ball; played right or wrong as the club's rule says
def opening_shot(before: int, a: str, between: int, unnamed: int, b: str) -> list[dict[str, Any]]:
    return [{"type": "strike", "ball": "cue"}, *_cushions(before, "cue"),
            {"type": "contact", "balls": ["cue", a]}, *_cushions(between, "cue"), *_cushions(unnamed, None),
            {"type": "contact", "balls": [b, "cue"]}]


opening = st.builds(opening_shot, st.integers(0, 2), st.sampled_from(["red", "red", "other"]),
                    st.integers(0, 3), st.integers(0, 1), st.sampled_from(["red", "other", "other"]))


def test_every_opening_shot_is_judged_as_before() -> None:
    """Each way an opening shot may go (cushions before the first ball, the red or not first,
    cushions before the third, one naming no ball), in every discipline and club, by either
    player, then a shot after it: the one pass takes those played right, the same state as before."""
    taken = 0
    for before, a, between, unnamed, b, discipline, profile, first in itertools.product(
            range(3), ["red", "other"], range(3), range(2), ["red", "other"],
            ["libre", "bandstoten", "driebanden"], ["kampioen", "liemers"], [None, "p2"]):
        shots = [(opening_shot(before, a, between, unnamed, b), None, [], False),
                 (opening_shot(0, "red", 3, 0, "other"), None, [], False)]
        taken += both_ways(sensed_lines(shots, discipline, profile, (5, 5), None, first))
    assert taken > 100


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.one_of(opening, full_shot), positions, st.just([]), st.just(False)), min_size=1,
                max_size=12),
       st.sampled_from(["libre", "bandstoten", "driebanden"]), st.sampled_from(["kampioen", "liemers"]),
       st.tuples(st.integers(1, 4), st.integers(1, 4)), st.sampled_from([None, "p2"]))
def test_opening_shots_are_judged_as_before(shots: list[Any], discipline: str, profile: str,
                                             targets: tuple[int, int], first: str | None) -> None:
    """A match's opening shot, and the equalising inning's (small targets: the breaker reaches his
    soon), played right (a carom like another, in the one pass) or wrong (the red not first, a
    cushion before it where the club plays it direct, too few cushions before the third ball where
    the cushions name their ball: the general decision's fault)."""
    both_ways(sensed_lines(shots, discipline, profile, targets, None, first))


def bench_match(shots: int, discipline: str = "libre") -> list[str]:
    """A long full-information match as bench/carom_replay.py makes it (strike, the cue ball's
    cushions and contacts, rests with positions anywhere on the bed)."""
    import random

    rnd = random.Random(7)
    lines = [json.dumps({"t": 0, "type": "setup", "game": "carom", "discipline": discipline,
                         "profile": "liemers", "players": {"p1": "Ann", "p2": "Bob"},
                         "targets": {"p1": 10**6, "p2": 10**6}})]
    t, player = 0.0, "p1"
    for _ in range(shots):
        cue = "yellow" if player == "p1" else "white"
        objects = ["red", "white" if cue == "yellow" else "yellow"]
        rnd.shuffle(objects)
        t += 5.0
        lines.append(json.dumps({"t": round(t, 6), "type": "strike", "ball": cue}))
        for k in range(rnd.randint(0, 4)):
            t += 0.3
            lines.append(json.dumps({"t": round(t, 6), "type": "cushion", "cushion": k % 4 + 1, "ball": cue}))
        t += 0.2
        lines.append(json.dumps({"t": round(t, 6), "type": "contact", "balls": [cue, objects[0]]}))
        if rnd.random() < 0.6:
            for k in range(3 if discipline == "driebanden" else 1):
                t += 0.3
                lines.append(json.dumps({"t": round(t, 6), "type": "cushion", "cushion": k % 4 + 1,
                                         "ball": cue}))
            t += 0.2
            lines.append(json.dumps({"t": round(t, 6), "type": "contact", "balls": [cue, objects[1]]}))
        else:
            player = "p2" if player == "p1" else "p1"
        t += 1.0
        pos = {b: [round(rnd.uniform(0.0, 0.3) if rnd.random() < 0.2 else rnd.uniform(0.1, 2.7), 3),
                   round(rnd.uniform(0.0, 0.3) if rnd.random() < 0.2 else rnd.uniform(0.1, 1.3), 3)]
               for b in ("yellow", "white", "red")}
        lines.append(json.dumps({"t": round(t, 6), "type": "rest", "positions": pos}))
    return lines


@pytest.mark.parametrize("discipline", ["libre", "driebanden"])
def test_a_long_match_replays_the_same_with_and_without_the_one_pass(discipline: str) -> None:
    """A match of 600 shots (its ruling log packed many times over, its newest rulings made at
    once), replayed as a table plays it (every undo kept) and as ``tablesense replay`` does (a
    bounded history): the same JSON, rulings and score each way; the one pass decides most shots."""
    lines = bench_match(600, discipline)
    calls: list[int] = []
    real = sensed.sensed_shot

    def counted(*args: Any) -> Any:
        out = real(*args)
        calls.append(out is not None)
        return out

    for make in (lambda: Replay(), lambda: Replay(history=history_for(0))):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(engine, "sensed_shot", counted)
            quick = make().feed_lines(lines)
        with not_at_once():
            slow = make().feed_lines(lines)
        assert not quick.errors and not slow.errors
        assert quick.state is not None and slow.state is not None
        assert ENGINE.to_json(quick.state) == ENGINE.to_json(slow.state)
        assert list(quick.state.rulings) == list(slow.state.rulings)
        assert quick.state.m == slow.state.m
    assert sum(calls) > len(calls) // 2


def test_a_rest_at_a_whole_number_time_goes_the_other_way_to_the_same_state() -> None:
    """The one pass makes the shot stage's cut itself where ``whole_cut``'s common case holds (the
    rest's time a float); a rest made with a whole number of seconds (not as a log line decodes)
    goes the other way, to the same state, and so does a float time (an opening shot played right)."""
    setup = parse_event({"t": 0, "type": "setup", "game": "carom", "discipline": "libre",
                         "profile": "liemers",
                         "players": {"p1": "A", "p2": "B"}, "targets": {"p1": 30, "p2": 30}})
    state = ENGINE.new_state(setup)
    events = [parse_event(x) for x in ({"t": 1, "type": "strike", "ball": "yellow"},
                                       {"t": 1.5, "type": "contact", "balls": ["yellow", "red"]},
                                       {"t": 1.7, "type": "cushion", "cushion": 2, "ball": "yellow"},
                                       {"t": 2, "type": "contact", "balls": ["yellow", "white"]})]
    for t in (3, 3.0):
        rest = Rest(t=t, positions={"yellow": [1.0, 0.5], "white": [2.0, 1.0], "red": [1.5, 0.7]})
        assert (sensed.sensed_shot(state, tuple(events), rest) is None) is (type(t) is int)
        quick = ENGINE.whole(state, events, rest)
        with not_at_once():
            slow = ENGINE.whole(state, events, rest)
        assert quick == slow and quick is not None
        assert quick.cut.shot == state.cut.shot + 1 and quick.cut.last_t == t and quick.cut.strikes
        assert quick.m.caroms == (1, 0) and quick.checkpoint is state and quick.before is state


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rest_positions(), st.sampled_from([None, "match", "2.30", "snooker", 2.3, ["x"]]), st.booleans(),
       st.sampled_from(["club", "liemers"]), st.floats(allow_nan=True, allow_infinity=True),
       st.integers(-3, 3))
def test_the_zone_is_asked_as_before_of_any_rest_a_table_or_hand_may_give(
        where: tuple[str, Any], bed: Any, carom: bool, profile: str, odd: float, whole: int) -> None:
    """The one pass asks ``in_a_corner`` of the next shot's object balls unless the first lies far from
    every corner as two floats on a known bed: for any positions (floats, whole numbers, a list of
    points, a tuple, NaN, infinities, a ball missing or null, none) and any bed (one the engine does
    not know too, as a state made by hand may hold), a carom or an inning's end decides the same
    state with and without it, or refuses it the same way."""
    table, positions = where
    if isinstance(positions, dict) and positions:
        positions = dict(positions)
        positions[sorted(positions)[0]] = [odd, whole] if carom else (odd, float(whole))
    setup = parse_event({"t": 0, "type": "setup", "game": "carom", "discipline": "libre", "profile": profile,
                         "players": {"p1": "A", "p2": "B"}, "targets": {"p1": 30, "p2": 30}})
    state = ENGINE.new_state(setup)
    state = replace(state, m=replace(state.m, from_outlay=False, table=bed or table))
    second = "white" if carom else "yellow"  # a carom, or the inning's end (the white touched)
    events = [parse_event(x) for x in ({"t": 1, "type": "strike", "ball": "yellow"},
                                       {"t": 1.5, "type": "contact", "balls": ["yellow", "red"]},
                                       {"t": 2, "type": "contact", "balls": ["red", second]})]
    events.append(parse_event({"t": 2.5, "type": "contact", "balls": ["yellow", second]}))
    rest = Rest(t=3.0, positions=positions)
    quick = _refused_or(ENGINE.whole, state, events, rest)
    with not_at_once():
        slow = _refused_or(ENGINE.whole, state, events, rest)
    assert quick == slow


def _refused_or(take: Any, *args: Any) -> Any:
    try:
        return take(*args)
    except Exception as exc:  # (a bed no table has: ``table`` refuses it, whichever way asked)
        return type(exc)
