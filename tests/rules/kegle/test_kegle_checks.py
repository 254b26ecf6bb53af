"""Each keglebillard rule check is a named pure function citing its seed paragraph
(``rules/kegle/checks.py``): grep a paragraph's number to find where it is decided, and each
check answers as the rule book says."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from test_kegle_fouls import catalogue_seeds

from tablesense.rules.kegle import checks
from tablesense.rules.kegle.shot import ShotFacts
from tablesense.rules.kegle.state import Score

KEGLE = Path(checks.__file__).parent
CHECKS = [f for name, f in inspect.getmembers(checks, inspect.isfunction) if f.__module__ == checks.__name__]
#: "Seed 5.11, kegle.fault.no-cushion: ..." or "Seed 3.4, 3.5, kegle.pin, kegle.carambole: ..."
CITES = re.compile(r"Seed ((?:\d+\.\d+(?: [A-C])?, )+)((?:kegle\.[a-z.-]+)(?:, kegle\.[a-z.-]+)*):")


def facts(toppled: tuple[int, ...] = (), cushions: int = 0) -> ShotFacts:
    return ShotFacts(toppled=toppled, by_red=(), by_cue=(), pins_after=frozenset(toppled), pockets=(),
                     cushions=cushions, jumped=(), wrong_ball=False, carambole=False)


@pytest.mark.parametrize("check", CHECKS, ids=[f.__name__ for f in CHECKS])
def test_kegle_check_cites_its_seed_paragraph_and_catalogue_id(check: Callable[..., object]) -> None:
    doc = inspect.getdoc(check) or ""
    found = CITES.match(doc)
    assert found, f"{check.__name__}: its docstring starts 'Seed N, kegle.<id>: ...', not {doc[:40]!r}"
    seeds = catalogue_seeds("kegle")
    ids = found.group(2).split(", ")
    assert all(i in seeds for i in ids), ids
    paragraphs = found.group(1).rstrip(", ").split(", ")
    in_book = {p for i in ids for p in seeds[i].split(", ")}
    assert set(paragraphs) <= in_book, (paragraphs, ids)


def test_kegle_rule_5_11_is_found_by_its_number_in_the_game_package() -> None:
    hits = [p.name for p in KEGLE.glob("*.py") if re.search(r"def no_cushion_twice\(.*\n\s+\"\"\"Seed 5\.11,",
                                                               p.read_text(encoding="utf-8"))]
    assert hits == ["checks.py"]


def test_kegle_no_cushion_is_a_fault_on_the_second_pin_shot_in_a_row_without_one() -> None:
    once = Score(no_cushion=1, cushions_seen=True)
    assert checks.no_cushion_twice(once, facts(toppled=(1,)))
    assert not checks.no_cushion_twice(once, facts(toppled=(1,), cushions=1))
    assert not checks.no_cushion_twice(once, facts())  # no pin: counts as a cushion shot
    assert not checks.no_cushion_twice(Score(no_cushion=0, cushions_seen=True), facts(toppled=(1,)))
    assert not checks.no_cushion_twice(Score(no_cushion=1), facts(toppled=(1,)))  # a log without cushions
    assert checks.set_ups_without_cushion(Score(), facts(toppled=(2,))) == 1
    assert checks.set_ups_without_cushion(once, facts(toppled=(2,), cushions=2)) == 0
    assert checks.set_ups_without_cushion(once, facts()) == 0


def test_kegle_three_reds_is_a_fault_on_the_third_shot_without_a_pin() -> None:
    assert not checks.three_reds(Score(no_pin_shots=1), facts())
    assert checks.three_reds(Score(no_pin_shots=2), facts())
    assert not checks.three_reds(Score(no_pin_shots=2), facts(toppled=(3,)))
    assert checks.shots_without_pin(Score(no_pin_shots=1), facts()) == 2
    assert checks.shots_without_pin(Score(no_pin_shots=1), facts(toppled=(3,))) == 0


def test_kegle_pins_not_up_excuses_a_pin_a_ball_keeps_off_its_spot() -> None:
    assert checks.pins_not_up(Score(pins_down=frozenset({2})))
    assert not checks.pins_not_up(Score(pins_down=frozenset({2}), blocked=frozenset({2})))
    assert checks.excused_pins(Score(blocked=frozenset({2, 3}), blocked_red=frozenset({3})),
                               frozenset({2, 3}), positions=False) == {2}
    assert checks.excused_pins(Score(blocked=frozenset({2})), frozenset({2}), positions=True) == set()


def test_kegle_remaining_points_are_announced_once_at_twenty_or_under() -> None:
    assert checks.announces_remaining(20, announced=False)
    assert not checks.announces_remaining(21, announced=False)
    assert not checks.announces_remaining(12, announced=True)
    assert not checks.announces_remaining(0, announced=False)
