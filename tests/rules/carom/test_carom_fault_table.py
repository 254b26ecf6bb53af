"""Carom's faults are one table (``rules/carom/fouls.py``): each row cites the clubs' texts
as the catalogue does, carries the referees' names and the panel's button, and the engine,
the names and the panel agree with it."""

from __future__ import annotations

import re

import pytest
from test_catalogue import SEEDS, catalogue

from tablesense.rules.carom.fouls import BY_NAME, FAULTS, Cost, name
from tablesense.rules.carom.names import VOCABULARY
from tablesense.rules.carom.profiles import PROFILES
from tablesense.rules.fault import Fault
from tablesense.vocabulary import for_game

ROW = re.compile(r"^\|\s*`(carom\.[a-z0-9][a-z0-9.-]*)`\s*\|")


def seed_column() -> dict[str, str]:
    """The catalogue's seed column (carom calls it ``source``: 003 Art. N, 004 ...) by id."""
    lines = (SEEDS / "carom.md").read_text().splitlines()
    header = next(line for line in lines if line.startswith("| id |"))
    at = [c.strip() for c in header.strip().strip("|").split("|")].index("source")
    out = {}
    for line in lines:
        if (m := ROW.match(line)) is not None:
            out[m.group(1)] = [c.strip() for c in line.strip().strip("|").split(" | ")][at]
    return out


SEED = seed_column()


def test_the_seed_column_is_read_for_every_catalogue_id() -> None:
    assert sorted(SEED) == sorted(catalogue("carom"))
    assert SEED["carom.foul.touch"] == "003 Art. 5.3; 004 C, D, E"


@pytest.mark.parametrize("fault", FAULTS, ids=[f.id for f in FAULTS])
def test_each_fault_cites_the_seed_paragraphs_of_its_catalogue_row(fault: Fault[Cost]) -> None:
    assert fault.id in SEED, f"{fault.id} is no id of seeds/carom.md"
    assert fault.seed == SEED[fault.id]


def test_fault_ids_and_short_names_are_unique() -> None:
    assert len({f.id for f in FAULTS}) == len(FAULTS)
    assert len(BY_NAME) == len(FAULTS)


@pytest.mark.parametrize("fault", FAULTS, ids=[f.id for f in FAULTS])
def test_a_referee_may_call_a_fault_by_any_of_its_aliases_or_its_id(fault: Fault[Cost]) -> None:
    profile = fault.then.profiles[0] if fault.then.profiles else None
    vocab = for_game("carom", profile)
    for alias in (*fault.aliases, fault.id):
        assert vocab.lookup("fouls", alias) == name(fault), alias
    if fault.then.profiles:
        assert VOCABULARY.lookup("fouls", name(fault)) is None, "a profile's own fault is its own word"


@pytest.mark.parametrize("club", sorted(PROFILES))
def test_a_profile_knows_the_faults_its_text_names(club: str) -> None:
    profile = PROFILES[club]
    known = {name(f) for f in FAULTS if profile.knows(name(f))}
    own = {name(f) for f in FAULTS if f.then.profiles and club not in f.then.profiles}
    assert known == set(BY_NAME) - own
    assert not profile.knows("masse") and not profile.knows("sneeze")
