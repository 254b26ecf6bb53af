"""The screens' words (host/tablesense/texts/<lang>/screen.json): every key in every language, every
key a page asks for in the tables, and the words that were English in Dutch and Danish pages
now in the page's language."""

from __future__ import annotations

import json
import re

import pytest
from paths import ROOT

from tablesense.store import LANGS
from tablesense.web.pages import strings

TEXTS = ROOT / "host" / "tablesense" / "texts"
STATIC = TEXTS.parent / "web" / "static"


def _table(lang: str) -> dict[str, str]:
    return json.loads((TEXTS / lang / "screen.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_every_key_is_in_every_language() -> None:
    keys = {lang: set(_table(lang)) for lang in LANGS}
    for lang in LANGS:
        assert keys[lang] == keys["en"], (f"{lang}: missing {sorted(keys['en'] - keys[lang])}, "
                                          f"extra {sorted(keys[lang] - keys['en'])}")
        assert all(isinstance(v, str) and v for v in _table(lang).values()), f"{lang}: an empty string"


@pytest.mark.parametrize("lang", [x for x in LANGS if x != "en"])
def test_every_placeholder_of_a_string_is_in_its_translation(lang: str) -> None:
    en, other = _table("en"), _table(lang)
    for key, text in en.items():
        want = set(re.findall(r"\{(\w+)\}", text))
        got = set(re.findall(r"\{(\w+)\}", other[key]))
        assert want == got, f"{lang} {key}: {sorted(got)} where English has {sorted(want)}"


def test_every_word_the_pages_ask_for_is_in_the_tables() -> None:
    """Each literal key of ``t("...")`` in the pages' scripts (a key a page asks for and the
    tables lack shows as the key itself on the screen)."""
    asked: set[str] = set()
    for js in STATIC.glob("*.js"):
        asked |= set(re.findall(r"""\bt(?:In)?\((?:[A-Za-z]+, )?["']([a-z_][\w.]*)["']""", js.read_text()))
    assert asked, "no t(...) call found in the pages' scripts"
    # a key ending in "." is a family ("game." + g): its members are the keys with that start
    missing = sorted(k for k in asked if k not in _table("en") and not k.endswith("."))
    assert not missing, f"the pages ask for words no table has: {missing}"


@pytest.mark.parametrize("key,nl,da", [
    ("frames", "Gewonnen spellen", "Vundne sæt"),  # golf's frames as the rulings say them (spel, sæt)
    ("frame", "Spel", "Sæt"),
    ("announce.POEDEL", "Poedel", "Nul"),  # the club's word in Dutch; "nil" in the others
    ("match_points", "Partijpunten", "Matchpoint"),  # not a bare "MP"
    ("lang.nl", "Nederlands", "Nederlands"),  # the language menu says the language, not its code
])
def test_words_that_were_english_or_codes_are_said_in_the_pages_language(key: str, nl: str, da: str) -> None:
    assert strings("nl")[key] == nl and strings("da")[key] == da
    assert strings("en")["announce.POEDEL"] == "Nil" and strings("en")["frames"] == "Frames won"


def test_the_carom_profiles_are_explained_in_every_language() -> None:
    for lang in LANGS:
        s = strings(lang)
        for profile, seed in (("kampioen", "003"), ("liemers", "004")):
            assert profile in s[f"profile.{profile}"] and seed in s[f"profile.{profile}"]
            assert len(s[f"profile.{profile}"]) > len(profile) + 8  # more than the bare name
