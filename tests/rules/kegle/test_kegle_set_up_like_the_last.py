"""A set-up like the last one (``KegleEngine.new_state``'s ``_LAST``) starts from the same first
state; one that differs from it in anything the first state holds (the players' names or their
order, the distance, each player's own distance) starts from its own, the same as when the
engine had seen no set-up before (hypothesis: made-up runs of set-ups, each against a fresh
engine's first state for it)."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.events import Setup, parse_event
from tablesense.rules.kegle import engine as kegle
from tablesense.rules.kegle.engine import KegleEngine

names = st.sampled_from(["Ann", "Bob", "Cor"])
set_ups = st.fixed_dictionaries(
    {"players": st.sampled_from([("p1", "p2"), ("p2", "p1")]).flatmap(
        lambda order: st.tuples(names, names).map(lambda pair: dict(zip(order, pair, strict=True))))},
    optional={"distance": st.sampled_from([4, 10, 100]),
              "targets": st.sampled_from([{"p1": 4, "p2": 20}, {"p1": 4}, {"p2": 20, "p1": 4}])},
)


def _setup(obj: dict[str, Any], t: float) -> Setup:
    """The set-up, its players in ``obj``'s order (the parser writes p1 first; a caller may not)."""
    parsed = parse_event({"t": t, "type": "setup", "game": "kegle", **obj})
    assert type(parsed) is Setup
    return msgspec.structs.replace(parsed, players=dict(obj["players"]))


def _first(obj: dict[str, Any]) -> Any:
    """The first state of a fresh engine, nothing remembered, for this set-up."""
    kegle._LAST.clear()
    kegle._FRESH.clear()
    return KegleEngine().new_state(_setup(obj, 0.0))


@settings(max_examples=150, deadline=None)
@given(st.lists(set_ups, min_size=1, max_size=12))
def test_each_set_up_starts_from_its_own_first_state_whatever_came_before(run: list[dict[str, Any]]) -> None:
    run = [obj for obj in run for _ in range(2)]  # each twice: the second is like the last
    alone = [_first(obj) for obj in run]
    engine = KegleEngine()
    for n, (obj, own) in enumerate(zip(run, alone, strict=True)):
        first = engine.new_state(_setup(obj, float(n)))
        assert first == own
        assert first.players == tuple(obj["players"].items())  # the names in the set-up's order
