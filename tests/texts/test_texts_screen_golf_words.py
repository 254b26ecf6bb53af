"""The screens say golf's words as the rulings do, in each language: the replacement spot a
ball waits for on the TV is the rulings' "replacement spot" / "vervangplek" / "erstatningspunkt"
(not a "plaats", a "plads"), and Dutch undoes with one word, "herstel", as its panel does."""

from __future__ import annotations

import pytest

from tablesense import texts

SPOT = {"en": "replacement spot", "nl": "vervangplek", "da": "erstatningspunkt"}


@pytest.mark.parametrize("lang", sorted(SPOT))
def test_the_tv_names_a_replacement_spot_as_the_rulings_do(lang: str) -> None:
    words = texts.screen(lang)
    ruling = texts.render("golf.spot.fallback", {"spot": 4}, lang)
    assert SPOT[lang] in ruling
    assert SPOT[lang] in words["spot"].lower() and SPOT[lang] in words["spot_waiting"].lower()


def test_dutch_says_undo_as_herstel_on_every_screen() -> None:
    words = texts.screen("nl")
    undo = {k: v for k, v in words.items() if k.startswith(("undo", "call.undo")) or "Backspace" in v}
    said = [v for k, v in undo.items() if k not in ("undo.shot", "undo.settle")]  # what is undone
    assert said and all("herstel" in v.lower() for v in said)
    assert not any("ongedaan" in v for v in words.values())
