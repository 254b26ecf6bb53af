"""A new golf match starts from its own players' first state, however many matches of other
players came before it (the first states are shared and kept at most ``first_states.KEPT``)."""

from __future__ import annotations

from tablesense.events import parse_event
from tablesense.rules import find_engine
from tablesense.rules.first_states import KEPT
from tablesense.rules.golf.state import GolfState


def _setup(p1: str, p2: str) -> object:
    return parse_event({"t": 0, "type": "setup", "game": "golf", "players": {"p1": p1, "p2": p2}})


def test_each_new_match_starts_with_its_own_players_after_many_others() -> None:
    engine = find_engine("golf")
    for n in range(2 * KEPT + 3):
        p1, p2 = f"Ann {n}", f"Bob {n}"
        first = engine.new_state(_setup(p1, p2))
        assert first == GolfState(players=(("p1", p1), ("p2", p2)))
        again = engine.new_state(_setup(p1, p2))
        assert again == first and not again.rulings
