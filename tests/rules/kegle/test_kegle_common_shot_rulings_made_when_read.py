"""The common shot's rulings made only when read (``plain.common_shot`` hands the log
``shot_rulings`` and the values it decided, ``ruling_log.made``) are the rulings the longer way
makes (``whole`` with the one function off: ``plain_shot``), at every read, in matches short and
long enough that the log packs its recipes (hypothesis: pins, caramboles, fouls, pockets, balls
off the table, a strike sensor or none, lines out of order, positions or none, calls after the
rest, undo); and a replay of common shots holds recipes, not rulings."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_kegle_common_shot import _play, common
from test_kegle_plain_shot import shot as shots

from tablesense.events import parse_event
from tablesense.rules import find_engine
from tablesense.rules.kegle import plain
from tablesense.rules.ruling_log import PACK_EVERY

ENGINE = find_engine("kegle")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(common, common, common, shots), min_size=40, max_size=90), st.booleans())
def test_a_long_matchs_rulings_made_when_read_are_the_longer_ways_at_every_read(
        played: list[Any], strikes: bool) -> None:
    _play(played, 100_000, strikes)  # (each shot's state and rulings, both ways, compared)


def _common_match(shots: int) -> Any:
    """The state after ``shots`` common shots (a strike, a cushion, a pin, the rest; the pin put up),
    each taken whole, from a new match of a distance none reaches."""
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": 100_000}))
    t = 0.0
    for k in range(shots):
        events = [parse_event({"t": t + 0.05, "type": "strike", "ball": "red"}),
                  parse_event({"t": t + 0.1, "type": "cushion", "cushion": 1, "ball": "red"}),
                  parse_event({"t": t + 0.2, "type": "pin", "pin": 1 + k % 5, "state": "down"})]
        state = ENGINE.whole(state, events, parse_event({"t": t + 0.3, "type": "rest"}))
        up = parse_event({"t": t + 0.4, "type": "pin", "pin": 1 + k % 5, "state": "up"})
        state = ENGINE.apply(state, up)
        t += 1.0
    return state


def test_a_common_shot_hands_the_log_its_recipe_and_each_read_gives_the_same_rulings() -> None:
    state = _common_match(3)
    log = state.rulings
    assert type(log._chunk) is list and log._chunk[0] is plain.shot_rulings
    assert list(log) == list(log) and [r.rule for r in log][-1] == "kegle.pin"
    long = _common_match(PACK_EVERY)  # (its log packed: recipes as values)
    assert len(long.rulings) >= PACK_EVERY and list(long.rulings)[:3] == list(_common_match(3).rulings)[:3]
