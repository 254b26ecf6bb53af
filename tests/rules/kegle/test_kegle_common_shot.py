"""Keglebillard's most common shot decided in one function (``plain.common_shot``, taken by
``KegleEngine.whole``) ends where the longer way (``whole`` with it turned off: ``plain_shot``
from ``whole``'s state before the shot) ends, rulings included, over made-up matches (hypothesis:
pins put up between shots and held until the strike, a strike sensor or none, lines out of order,
pockets, balls off the table, fouls, a ball keeping a pin off its spot, series that end the match
or bring the break) and over every recorded keglebillard match and a long one replayed whole."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_kegle_helpers import apply_after, pins_put_up
from test_kegle_plain_shot import after, played, positions
from test_kegle_plain_shot import shot as shots

from tablesense.errors import TablesenseError
from tablesense.events import Rest, parse_event
from tablesense.replay import Replay, history_for
from tablesense.rules import find_engine
from tablesense.rules.kegle import engine as kegle_engine
from tablesense.rules.kegle import plain
from tablesense.rules.shot_engine import SHOT_KINDS

ENGINE = find_engine("kegle")
MATCHES = Path(__file__).resolve().parents[2] / "matches" / "kegle"

#: shots as most are (struck on the red, no pockets), so that the one function has shots to take
common = st.tuples(st.just(True), st.just("red"), played, st.just(False), positions, after,
                   st.sampled_from(["all", "all", "all", "toppled", "none"]))


def _whole(state: Any, events: list[Any], rest: Rest, quick: bool) -> Any:
    plain.QUICK = quick
    try:
        return ENGINE.whole(state, events, rest)
    except TablesenseError as exc:
        return type(exc)
    finally:
        plain.QUICK = True


def _play(played: list[Any], distance: int, strikes: bool) -> int:
    """Play the match (each shot's events and rest ``whole`` with the one function and without,
    compared; then ``apply`` of each line, the calls after the rest and the pins put up); returns
    how many shots the one function took."""
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": distance}))
    t, taken = 0.0, 0
    for struck, ball_struck, events, shuffled, where, calls, put_up in played:
        objs: list[dict[str, Any]] = []
        if strikes and struck:
            objs.append({"type": "strike", "ball": ball_struck})
        objs.extend(events)
        times = [t + 0.1 * (i + 1) for i in range(len(objs))]
        if shuffled and len(times) > 1:
            times[0], times[1] = times[1], times[0]
        t = (times[-1] if times else t) + 0.1
        table = [parse_event({"t": round(x, 3), **o}) for x, o in zip(times, objs, strict=True)]
        rest = parse_event({"t": round(t, 3), "type": "rest", **({"positions": where} if where else {})})
        assert type(rest) is Rest
        if table and all(type(e) in SHOT_KINDS for e in table) and not state.in_shot:
            facts = plain.common_facts(table)
            if facts and plain.common_shot(state, table, rest, facts) is not None:
                taken += 1
            quick, longer = _whole(state, table, rest, True), _whole(state, table, rest, False)
            assert quick == longer
            if quick is not None and not isinstance(quick, type):
                assert tuple(quick.rulings) == tuple(longer.rulings)
                assert quick.before == longer.before and quick.checkpoint == longer.checkpoint
        lines: list[dict[str, Any]] = list(calls)
        lines.extend({"type": "pin", "pin": p, "state": "up"} for p in pins_put_up(events, put_up))
        state, t = apply_after(state, table, rest, lines, t)
    return taken


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(common, common, shots), min_size=1, max_size=30), st.integers(4, 60), st.booleans())
def test_the_common_shot_in_one_function_ends_where_the_longer_way_does(
        played: list[Any], distance: int, strikes: bool) -> None:
    _play(played, distance, strikes)


def test_a_short_match_of_common_shots_is_taken_by_the_one_function_to_its_end() -> None:
    """Pins, caramboles, series ending and the match won: every shot but the first taken in one
    function (the first has no last shot to close), each equal to the longer way's."""
    pins = [{"type": "cushion", "cushion": 1, "ball": "red"}, {"type": "contact", "balls": ["red", "white"]},
            {"type": "pin", "pin": 2, "state": "down"}, {"type": "pin", "pin": 4, "state": "down"}]
    carambole = [{"type": "cushion", "cushion": 2, "ball": "red"},
                 {"type": "contact", "balls": ["red", "white"]},
                 {"type": "contact", "balls": ["white", "red"]}]
    miss = [{"type": "cushion", "cushion": 3, "ball": "red"}]
    one = (True, "red", pins, False, None, [], "toppled")
    two = (True, "red", carambole, False, None, [], "toppled")
    nothing = (True, "red", miss, False, None, [], "toppled")
    match = [one, two, nothing, one, nothing, one, one, two, two, nothing, one, one]
    assert _play(match, 24, True) >= len(match) - 2


def _records() -> list[Path]:
    return sorted(MATCHES.glob("*.jsonl"))


def test_every_recorded_match_and_a_long_one_end_where_they_end_without_the_one_function(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every recorded keglebillard match, one after another, and a long match of common shots with
    pins put up between them, replayed as ``tablesense replay --json`` replays (a bounded history):
    the same JSON, errors and events with the one function and without."""
    lines: list[str] = []
    for path in _records():
        lines.extend(x for x in path.read_text(encoding="utf-8").splitlines() if x.strip())
    t = 0.0
    lines.append(json.dumps({"t": t, "type": "setup", "game": "kegle", "players": {"p1": "A", "p2": "B"},
                             "distance": 100_000}))
    for k in range(400):
        shot = [{"type": "strike", "ball": "red"}, {"type": "cushion", "cushion": 1 + k % 4, "ball": "red"}]
        shot += [{"type": "contact", "balls": ["red", "white"]}] * (k % 3)
        down = [1 + (k * 7 + j) % 5 for j in range(k % 4)]
        shot += [{"type": "pin", "pin": p, "state": "down"} for p in dict.fromkeys(down)]
        shot += [{"type": "rest"}] + [{"type": "pin", "pin": p, "state": "up"} for p in dict.fromkeys(down)]
        for obj in shot:
            t += 0.25
            lines.append(json.dumps({"t": round(t, 3), **obj}))
    taken: list[Any] = []

    def counted(*args: Any) -> Any:
        new = plain.common_shot(*args)
        if new is not None:
            taken.append(new)
        return new

    monkeypatch.setattr(kegle_engine, "common_shot", counted)
    outs = []
    for quick in (True, False):
        plain.QUICK = quick
        try:
            rep = Replay(history=history_for(8)).feed_lines(lines)
        finally:
            plain.QUICK = True
        outs.append((json.dumps(rep.to_json()), [str(e) for e in rep.errors], rep.events))
    assert outs[0] == outs[1]
    assert len(taken) > 400  # (the long match's shots and the recorded ones)
