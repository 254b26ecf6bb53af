"""A recorded match is found by the rule it checks: tests/matches/<game>/<rule>__<situation>.jsonl,
<rule> an id of seeds/<game>.md without the game, or `undo` or `log` (tests/matches/README.md)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
while not (ROOT / "tools" / "name_matches.py").exists():  # tests/<folder>/ or tests/
    ROOT = ROOT.parent


def _naming() -> object:
    spec = importlib.util.spec_from_file_location("name_matches", ROOT / "tools" / "name_matches.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_recorded_match_is_named_for_a_rule_of_its_game() -> None:
    naming = _naming()
    logs = sorted((ROOT / "tests" / "matches").glob("*/*.jsonl"))
    assert logs
    assert naming.problems(logs) == []  # type: ignore[attr-defined]


def test_a_name_for_no_rule_of_the_game_is_refused(tmp_path: Path) -> None:
    naming = _naming()
    bad = tmp_path / "kegle" / "fault.no-such-rule__twice.jsonl"
    bad.parent.mkdir()
    bad.write_text("")
    bad.with_suffix(".expect.json").write_text("{}")
    old = tmp_path / "kegle" / "outsider_no_cushion_twice.jsonl"
    old.write_text("")
    old.with_suffix(".expect.json").write_text("{}")
    assert naming.problems([bad, old]) == [  # type: ignore[attr-defined]
        "kegle/fault.no-such-rule__twice: fault.no-such-rule is no rule of seeds/kegle.md nor a behaviour",
        "kegle/outsider_no_cushion_twice: not <rule>__<situation>",
    ]
