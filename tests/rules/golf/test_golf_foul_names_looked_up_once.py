"""A foul's name a referee calls is looked up by golf's word rules once (``GolfVocabulary.lookup``
keeps what each name gave, ``names._FOUND``), and the answer is the one the rules give every time:
every name of every foul, names built from the seed's words, a ball off the table, names of no
foul and made-up names (hypothesis), asked again and again, and after the memory was cleared at
its bound."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.rules.golf import names
from tablesense.rules.golf.names import FOULS, OFF_TABLE, VOCABULARY, foul_by_words, foul_key, off_table_foul


def by_the_rules(name: str) -> str | None:
    """The foul a name means, by ``foul_key`` and the word rules (no memory)."""
    key = foul_key(name)
    return (off_table_foul(key) or names._FOUL_KEYS.get(key) or foul_by_words(key)) if key else None


KNOWN = sorted({n for table in (FOULS, OFF_TABLE) for canonical, others in table.items()
                for n in (canonical, *others)})
SPELLED = ["touch", "Touch", "touched_a_ball_without_playing", "hold_back_opponent_ball", "no_foot_on_floor",
           "ball_off_table", "off_table_opponent", "double_hit", "wrong_ball", "carom", "", "---", "golf",
           "foul", "Fóul: TOUCH", "zzz"]


@pytest.mark.parametrize("name", KNOWN + SPELLED)
def test_a_foul_name_called_again_means_what_the_rules_say(name: str) -> None:
    expected = by_the_rules(name)
    for _ in range(3):
        assert VOCABULARY.lookup("fouls", name) == expected


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(KNOWN + SPELLED), st.text(max_size=24)), min_size=1, max_size=12))
def test_made_up_names_called_in_any_order_mean_what_the_rules_say(called: list[str]) -> None:
    for name in called + called[::-1]:
        assert VOCABULARY.lookup("fouls", name) == by_the_rules(name)


def test_the_memory_of_names_is_cleared_at_its_bound_and_still_answers(monkeypatch: Any) -> None:
    monkeypatch.setattr(names, "_FOUND_MAX", 5)
    names._FOUND.clear()
    called = [f"touch{i}" for i in range(12)] + ["push", "touch3"]
    for name in called:
        assert VOCABULARY.lookup("fouls", name) == by_the_rules(name)
        assert len(names._FOUND) <= 5
    assert VOCABULARY.lookup("fouls", "touch3") == "golf.foul.touch"
