"""The replay account in Dutch and Danish: its score lines and result are in the language too.

Every recorded match under tests/matches/ is replayed by ``tablesense replay FILE --lang``;
the account's own words (shot, result, the score line of each game) must not be the English
ones, and no line may show a parameter missing ("?").
"""

from __future__ import annotations

import argparse
import io
import re
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from paths import ROOT, TESTS

from tablesense.commands import replay
from tablesense.texts import LANGS

MATCHES = sorted((TESTS / "matches").glob("*/*.jsonl"))
#: the English account's words: none may be left in another language's account
ENGLISH = re.compile(r"^(match:|shot \d|between shots|result:)|balls left|at the table|frames \d|"
                     r" in \d+( -|$)|won by|a draw")
OWN_WORDS = {"nl": ("wedstrijd:", "stoot ", "uitslag:"), "da": ("kamp:", "stød ", "resultat:")}


def account(path: Path, lang: str) -> list[str]:
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        replay.run(argparse.Namespace(file=str(path), json=False, lang=lang))
    return [line for line in out.getvalue().splitlines() if not line.startswith("  ")]


def test_the_english_account_keeps_its_words() -> None:
    lines = account(ROOT / "examples" / "golf-match.jsonl", "en")
    assert lines[0] == "match: golf  p1=Dirk  p2=Inge"
    assert lines[1].startswith("shot 1: frame 1: balls left p1 5, p2 5; frames 0-0; Dirk (p1) at the table")
    assert lines[-1] == "result: won by Inge"  # the winner by name


@pytest.mark.parametrize("lang", [x for x in LANGS if x != "en"])
def test_every_recorded_account_is_in_the_language(lang: str) -> None:
    games: set[str] = set()
    for path in MATCHES:
        lines = account(path, lang)
        if not lines:
            continue
        games.add(path.parent.name)
        for line in lines:
            assert not ENGLISH.search(line), f"{path.name} ({lang}): {line!r}"
            assert "?" not in line, f"{path.name} ({lang}): {line!r}"
        said = "\n".join(lines)
        assert any(word in said for word in OWN_WORDS.get(lang, ("",))), f"{path.name} ({lang})"
    assert games == {"golf", "kegle", "carom"}
