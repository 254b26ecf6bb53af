"""The rule catalogue in seeds/: every rule has an id, the engines cite it, a test names it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
ID_ROW = re.compile(r"^\|\s*`((?:golf|kegle|carom)\.[a-z0-9][a-z0-9.-]*)`")


def catalogue(game: str) -> list[str]:
    path = SEEDS / f"{game}.md"
    if not path.exists():
        return []
    return [m.group(1) for line in path.read_text().splitlines() if (m := ID_ROW.match(line))]


def _text(paths: list[Path]) -> str:
    return "\n".join(p.read_text(errors="replace") for p in paths)


GAMES = [g for g in ("golf", "kegle", "carom") if (SEEDS / f"{g}.md").exists()]
# the engines and the host code that cites rules; not the screens, whose tables of words name
# every id (web/fouls.py, web/last_shot.py) and would hide an id no engine cites any more
HOST = ROOT / "host" / "tablesense"
CODE = _text(sorted(p for p in HOST.rglob("*.py") if "web" not in p.relative_to(HOST).parts))
TESTS = _text(sorted(p for p in (ROOT / "tests").rglob("*.py") if p.name != "test_catalogue.py"))


@pytest.mark.parametrize("game", GAMES)
def test_catalogue_ids_are_unique_and_well_formed(game: str) -> None:
    ids = catalogue(game)
    assert ids, f"seeds/{game}.md lists no rule ids"
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    assert not dupes, f"ids listed twice in seeds/{game}.md: {dupes}"


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_is_cited_by_the_engine(game: str) -> None:
    missing = [i for i in catalogue(game) if f'"{i}"' not in CODE and f"'{i}'" not in CODE]
    assert not missing, f"rules of seeds/{game}.md no engine code cites: {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_is_named_by_a_test(game: str) -> None:
    def named(rule: str) -> bool:
        return rule in TESTS or ("test_" + re.sub(r"[.-]", "_", rule)) in TESTS

    missing = [i for i in catalogue(game) if not named(i)]
    assert not missing, f"rules of seeds/{game}.md no test names: {missing}"
