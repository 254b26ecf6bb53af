"""A new keglebillard match starts from its own players' and distance's first state, however
many matches came before it (the first states are shared and kept at most ``first_states.KEPT``);
a side of two players is started too."""

from __future__ import annotations

from tablesense.events import parse_event
from tablesense.rules import find_engine
from tablesense.rules.first_states import KEPT


def _setup(p1: object, p2: str, distance: int) -> object:
    return parse_event({"t": 0, "type": "setup", "game": "kegle", "distance": distance,
                        "players": {"p1": p1, "p2": p2}})


def test_each_new_match_starts_with_its_own_players_and_distance_after_many_others() -> None:
    engine = find_engine("kegle")
    for n in range(2 * KEPT + 3):
        p1, p2, distance = f"Ann {n}", f"Bob {n}", 10 + n % 7
        first = engine.new_state(_setup(p1, p2, distance))
        assert first.players == (("p1", p1), ("p2", p2))
        assert first.score.distance == (distance, distance) and first.score.points == (0, 0)
        assert engine.new_state(_setup(p1, p2, distance)) == first
    pair = engine.new_state(_setup(["Ann", "Cor"], "Bob", 12))
    assert pair.players[0][0] == "p1" and pair.score.distance == (12, 12)
