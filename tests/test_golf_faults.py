"""Golf's one fault record (``rules/golf/fouls.py``: a ``Fault`` row per foul) agrees with the
rule book and with what the referee panel shows, and every rule the golf engine decides
is found by its seed paragraph: a ``Fault`` row or a named function citing it."""

from __future__ import annotations

from test_catalogue import ID_ROW, SEEDS

from tablesense.rules.golf import fouls, names
from tablesense.web import fouls as panel


def seed_column(game: str) -> dict[str, str]:
    """The catalogue's ``seed`` column (its last) by rule id, as seeds/<game>.md writes it."""
    out = {}
    for line in (SEEDS / f"{game}.md").read_text().splitlines():
        if m := ID_ROW.match(line):
            out[m.group(1)] = line.rstrip().removesuffix("|").rsplit("|", 1)[1].strip()
    return out


def test_each_golf_fault_cites_the_seed_paragraph_of_its_catalogue_row() -> None:
    seeds = seed_column("golf")
    assert seeds["golf.foul.touch"] == "Touch"  # the parse reads the seed column
    wrong = {f.id: (f.seed, seeds.get(f.id)) for f in fouls.FAULTS if seeds.get(f.id) != f.seed}
    assert not wrong, f"Fault rows whose seed is not the catalogue's (row, catalogue): {wrong}"


def test_the_panel_shows_each_golf_foul_as_its_fault_row_says() -> None:
    differ = {b.rule: b for b in panel.GOLF
              if fouls.BY_ID[b.rule].button != (b.call, b.common, b.profiles, b.zone)}
    assert not differ, f"panel buttons unlike their Fault row's button: {differ}"
    assert {b.rule for b in panel.GOLF} == {f.id for f in fouls.FAULTS if f.button is not None}


def test_a_referee_calls_each_golf_foul_by_the_names_of_its_fault_row() -> None:
    assert names.FOULS == {f.id: f.aliases for f in fouls.FAULTS}
    for f in fouls.FAULTS:
        for name in (f.id, *f.aliases):
            assert names.VOCABULARY.lookup("fouls", name) == f.id, name

