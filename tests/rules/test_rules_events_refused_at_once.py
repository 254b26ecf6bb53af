"""An event the engine cannot take is refused when it comes, never later.

A table that reports strikes holds a drop or a pin that comes between shots until the table's
rest or the next shot tells what it was (``ShotEngine.apply``, ``held``). An event held that
the game can never take (a pin, a pocket or a goal on a carom table) was taken without a word
and refused only when it was let go: every later view of the table raised ("pin between
shots: no shot is being played"), the scoreboard stuck on its last good state. Here any order
of a game's sensor events and the referee's calls, after any set-up, must leave the table
either as it was (the event refused with a clear error) or with a state that shows.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablesense.errors import TablesenseError
from tablesense.events import parse_event
from tablesense.replay import Replay

SETUPS: dict[str, dict[str, Any]] = {
    "golf": {"game": "golf", "players": {"p1": "A", "p2": "B"}},
    "kegle": {"game": "kegle", "players": {"p1": "A", "p2": "B"}, "distance": 5},
    "carom": {"game": "carom", "discipline": "libre", "profile": "club",
              "players": {"p1": "A", "p2": "B"}, "targets": {"p1": 1, "p2": 1}},
}
BALLS: dict[str, list[str | None]] = {
    "golf": ["p1", "p2", None], "kegle": ["red", "p1", "p2", None],
    "carom": ["yellow", "white", "red", None],
}


def events(game: str) -> st.SearchStrategy[dict[str, Any]]:
    ball = st.sampled_from(BALLS[game])
    named = st.sampled_from([b for b in BALLS[game] if b is not None])
    return st.one_of(
        st.builds(lambda b: {"type": "strike", "ball": b}, named),
        st.just({"type": "rest"}),
        st.builds(lambda p, s: {"type": "pin", "pin": p, "state": s},
                  st.integers(1, 5), st.sampled_from(["down", "up"])),
        st.builds(lambda p, b: {"type": "pocket", "pocket": p, "ball": b}, st.integers(1, 6), ball),
        st.builds(lambda g, b: {"type": "goal", "goal": g, "ball": b}, st.sampled_from("AB"), ball),
        st.builds(lambda c, b: {"type": "cushion", "cushion": c, "ball": b}, st.integers(1, 4), ball),
        st.builds(lambda b: {"type": "off_table", "ball": b}, named),
        st.sampled_from([{"type": "call", "call": "carom"}, {"type": "call", "call": "undo"},
                         {"type": "call", "call": "foul", "foul": "touch"}]),
    )


def streams(game: str) -> st.SearchStrategy[list[tuple[dict[str, Any], float]]]:
    return st.lists(st.tuples(events(game), st.sampled_from([0.0, 0.01, 0.5, 1.0])), max_size=40)


def play(game: str, stream: list[tuple[dict[str, Any], float]]) -> None:
    rep = Replay()
    rep.apply(parse_event({"t": 0, "type": "setup", **SETUPS[game]}))
    shown = rep.to_json()
    t = 0.0
    for event, dt in stream:
        t += dt
        try:
            rep.apply(parse_event({"t": t, **event}))
        except TablesenseError:
            assert rep.to_json() == shown, f"refused {event}, yet the table changed"
            continue
        shown = rep.to_json()  # raises if the engine took what it cannot show


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_an_event_the_game_cannot_take_is_refused_when_it_comes_not_when_the_table_is_shown(
        game: str) -> None:
    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(stream=streams(game))
    def check(stream: list[tuple[dict[str, Any], float]]) -> None:
        play(game, stream)

    check()


def test_carom_pin_after_the_match_is_won_is_refused_and_the_board_still_shows() -> None:
    """The case Hypothesis found: a carom table that reported a strike, the match won with the
    referee's carom, then a pin (no such sensor on a carom table)."""
    stream = [({"type": "call", "call": "carom"}, 0.0), ({"type": "strike", "ball": "yellow"}, 0.0),
              ({"type": "rest"}, 0.0), ({"type": "strike", "ball": "yellow"}, 0.5),
              ({"type": "pin", "pin": 1, "state": "down"}, 0.5), ({"type": "rest"}, 0.5)]
    rep = Replay()
    rep.apply(parse_event({"t": 0, "type": "setup", **SETUPS["carom"]}))
    refused = []
    t = 0.0
    for event, dt in stream:
        t += dt
        try:
            rep.apply(parse_event({"t": t, **event}))
        except TablesenseError as e:
            refused.append((event["type"], str(e)))
        rep.to_json()
    assert [kind for kind, _ in refused] == ["strike", "pin"]
    assert rep.to_json()["finished"]
