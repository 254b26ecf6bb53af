"""Keglebillard's faults are one table (``rules/kegle/fouls.py:FAULTS``): each row's seed
paragraph is the rule book's, its names are the ones a referee may call, its button is the
one the referee panel shows, and its cost is what the engine applies."""

from __future__ import annotations

import pytest
from test_catalogue import ID_ROW, SEEDS

from tablesense.replay import Replay
from tablesense.rules.fault import Fault
from tablesense.rules.kegle.fouls import BY_ID, FAULTS, Cost
from tablesense.rules.kegle.names import FAULT_NAMES, VOCABULARY


def catalogue_seeds(game: str) -> dict[str, str]:
    """id -> the ``seed`` column (the last one) of each row of ``seeds/<game>.md``'s tables."""
    out: dict[str, str] = {}
    for line in (SEEDS / f"{game}.md").read_text(encoding="utf-8").splitlines():
        if ID_ROW.match(line):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            out[cells[0].strip("`")] = cells[-1]
    return out


def test_kegle_every_fault_row_cites_the_seed_paragraph_of_the_rule_book() -> None:
    seeds = catalogue_seeds("kegle")
    assert seeds["kegle.fault.no-cushion"] == "5.11"  # the parse found the column
    assert {f.id: f.seed for f in FAULTS} == {f.id: seeds[f.id] for f in FAULTS}


def test_kegle_every_fault_of_the_rule_book_has_its_row() -> None:
    listed = {i for i in catalogue_seeds("kegle") if i.startswith("kegle.fault.")}
    assert listed - {"kegle.fault.noticed"} == set(BY_ID)  # noticed: when a call is too late, no fault


def test_kegle_a_fault_is_read_by_every_alias_of_its_row() -> None:
    assert FAULT_NAMES == {f.id: f.aliases for f in FAULTS}
    for f in FAULTS:
        for alias in f.aliases:
            assert VOCABULARY.lookup("fouls", alias) == f.id, alias
        assert f.button is None or VOCABULARY.lookup("fouls", f.button.call) == f.id


def _after_fault(fault: Fault[Cost]) -> dict[str, object]:
    lines = ['{"t": 0, "type": "setup", "game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}}',
             '{"t": 1, "type": "strike", "ball": "red"}', '{"t": 2, "type": "rest"}',
             f'{{"t": 3, "type": "call", "call": "foul", "foul": "{fault.id}"}}']
    rep = Replay().feed_lines(lines)
    assert not rep.errors, rep.errors
    return rep.to_json()


@pytest.mark.parametrize("fault", FAULTS, ids=[f.id.removeprefix("kegle.fault.") for f in FAULTS])
def test_kegle_a_fault_costs_what_its_row_says(fault: Fault[Cost]) -> None:
    state = _after_fault(fault)
    assert state["at_table"] == "p2"
    assert state["outlay"] == ("p2" if fault.then.outlay else None)
    assert state["red_in_hand"] == ("p2" if fault.then.red_in_hand else None)
