"""Keglebillard's common shot in a match played (every undo kept: the live table, the pub screens,
``Replay()``), decided with ``play``'s links in one copy (``KegleEngine.whole_played``:
``plain.common_shot`` given the base and the events since it), is the state the base's step gives
(``ShotEngine.whole_played``: ``whole``, then the links) the longer way (``common_shot`` turned off),
from every played state of made-up matches (hypothesis: pins falling, rocking and put up, a strike
sensor or none, lines out of order, pockets, calls; matches long enough that the states before shots
are cut, ``_shallow``), fields, rulings, the events since the base and what an undo goes back to."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_kegle_common_shot import common
from test_kegle_held_pin_played import _played, shot_lines
from test_kegle_plain_shot import shot

from tablesense.errors import TablesenseError
from tablesense.events import parse_event
from tablesense.rules import find_engine
from tablesense.rules.kegle import plain
from tablesense.rules.shot_engine import Redo, ShotEngine

ENGINE = find_engine("kegle")


def _take(step: Any, state: Any, events: list[Any], rest: Any, quick: bool) -> Any:
    plain.QUICK = quick
    try:
        new = step(state, events, rest)
    except TablesenseError as exc:
        return type(exc)
    finally:
        plain.QUICK = True
    if new is None:
        return None
    back = new.checkpoint  # (a ``Trace`` equals only itself: the events since the base compared as tuples)
    if type(back) is Redo:  # (the undo of a shot from a state with a base; a set-up's: that state)
        assert back.base is new.base and not back.applied
        back = (back.base, tuple(back.events))
    return msgspec.structs.replace(new, since=tuple(new.since), checkpoint=back)


def _shot(nxt: Any, strikes: bool) -> tuple[list[Any], Any]:
    """The drawn shot's table events and rest, after every line of the match played (from 1000 s)."""
    objs, rest, _ = shot_lines(nxt, strikes, 1000.0)
    return [parse_event(obj) for obj in objs], parse_event(rest)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(common, common, shot), min_size=1, max_size=24), st.one_of(common, shot),
       st.integers(4, 80), st.booleans())
def test_a_played_common_shot_in_one_copy_is_what_the_base_step_gives(
        shots: list[Any], nxt: Any, distance: int, strikes: bool) -> None:
    table, rest = _shot(nxt, strikes)
    assume(table)  # (a shot of no table event: nothing to take)
    for state in _played(shots, distance, strikes):
        if state.in_shot:
            continue
        quick = _take(ENGINE.whole_played, state, table, rest, True)
        slow = _take(lambda s, e, r: ShotEngine.whole_played(ENGINE, s, e, r), state, table, rest, False)
        assert quick == slow
        if quick is not None and not isinstance(quick, type):
            assert tuple(quick.rulings) == tuple(slow.rulings)
            assert quick.since == (*state.since, *table, rest)


def test_a_long_played_match_of_common_shots_is_taken_in_one_copy_each_cut_as_play_cuts() -> None:
    """Forty common shots played: every one taken at once (all but the first in one copy: the
    set-up's state has no base, the base's first-shot step), equal to the base's step, the chain
    of states before shots never deeper than ``play`` keeps it (cut to four once it reaches eight)."""
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": 10_000}))
    t, taken = 0.0, 0
    for k in range(40):
        objs = [{"type": "strike", "ball": "red"}, {"type": "cushion", "cushion": 1 + k % 4, "ball": "red"},
                {"type": "pin", "pin": 1 + k % 5, "state": "down"}]
        table = []
        for obj in objs:
            t += 0.1
            table.append(parse_event({"t": round(t, 3), **obj}))
        t += 0.1
        rest = parse_event({"t": round(t, 3), "type": "rest"})
        quick = _take(ENGINE.whole_played, state, table, rest, True)
        slow = _take(lambda s, e, r: ShotEngine.whole_played(ENGINE, s, e, r), state, table, rest, False)
        assert quick == slow
        if quick is not None:
            taken += 1
            state = ENGINE.whole_played(state, table, rest)
        else:
            for event in (*table, rest):
                state = ENGINE.play(state, event)
        deep, node = 0, state.before
        while node is not None:
            deep, node = deep + 1, node.before
        assert deep <= 8
        t += 0.1
        pin = parse_event({"t": round(t, 3), "type": "pin", "pin": 1 + k % 5, "state": "up"})
        state = ENGINE.play(state, pin)
    assert taken == 40 and state.score.points[0] + state.score.points[1] == 80
