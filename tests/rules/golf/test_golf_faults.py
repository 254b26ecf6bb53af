"""Golf's one fault record (``rules/golf/fouls.py``: a ``Fault`` row per foul) agrees with the
rule book and with what the referee panel shows, and every rule the golf engine decides
is found by its seed paragraph: a ``Fault`` row or a named function citing it."""

from __future__ import annotations

import ast
import re

from paths import ROOT
from test_catalogue import ID_ROW, SEEDS

from tablesense.rules.golf import fouls, names

RULES = ROOT / "host" / "tablesense" / "rules" / "golf"
#: a docstring that cites a rule: ``Seed "Touch", golf.foul.touch: ...`` (several ids: ``, ``)
CITES = re.compile(r'^Seed "([^"]+)", ((?:golf\.[a-z0-9.-]+(?:, )?)+):')


def catalogue_rows(game: str) -> dict[str, list[str]]:
    """The rows of seeds/<game>.md's catalogue by rule id: its cells (id, rule, evidence,
    consequence, seed)."""
    out = {}
    for line in (SEEDS / f"{game}.md").read_text().splitlines():
        if m := ID_ROW.match(line):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            assert len(cells) == 5, line
            out[m.group(1)] = cells
    return out


def seed_column(game: str) -> dict[str, str]:
    """The catalogue's ``seed`` column by rule id, as seeds/<game>.md writes it."""
    return {rule: cells[4] for rule, cells in catalogue_rows(game).items()}


def test_each_golf_fault_cites_the_seed_paragraph_of_its_catalogue_row() -> None:
    seeds = seed_column("golf")
    assert seeds["golf.foul.touch"] == "Touch"  # the parse reads the seed column
    wrong = {f.id: (f.seed, seeds.get(f.id)) for f in fouls.FAULTS if seeds.get(f.id) != f.seed}
    assert not wrong, f"Fault rows whose seed is not the catalogue's (row, catalogue): {wrong}"


def test_a_referee_calls_each_golf_foul_by_the_names_of_its_fault_row() -> None:
    assert names.FOULS == {f.id: f.aliases for f in fouls.FAULTS}
    for f in fouls.FAULTS:
        for name in (f.id, *f.aliases):
            assert names.VOCABULARY.lookup("fouls", name) == f.id, name



def _citations() -> dict[str, set[str]]:
    """Rule id -> the seed paragraphs the docstrings of rules/golf's functions cite for it."""
    out: dict[str, set[str]] = {}
    for path in RULES.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and (doc := ast.get_docstring(node)):
                if m := CITES.match(doc):
                    for rule in m.group(2).rstrip(", ").split(", "):
                        out.setdefault(rule, set()).add(m.group(1))
    return out


def test_every_golf_rule_the_engine_decides_is_a_fault_row_or_a_function_citing_its_seed() -> None:
    seeds = seed_column("golf")
    code = "\n".join(p.read_text() for p in RULES.glob("*.py"))
    # the ids the engine's code names, but the table and the balls (evidence: none, geometry)
    decided = {i for i, cells in catalogue_rows("golf").items()
               if f'"{i}"' in code and not cells[2].startswith("none")}
    assert {"golf.goal", "golf.foul.touch", "golf.spot.repeat"} <= decided
    cited = _citations()
    faults = {f.id for f in fouls.FAULTS}
    missing = sorted(i for i in decided if i not in faults and i not in cited)
    assert not missing, f"golf rules decided inline, cited by no Fault row or named function: {missing}"
    wrong = {i: (sorted(s), seeds.get(i)) for i, s in cited.items() if s != {seeds.get(i)}}
    assert not wrong, f"functions citing a seed paragraph other than the catalogue's: {wrong}"
