"""The plural rules written out for the package's languages (``messages.PLURAL_RULES``, so that a
replay's first count said does not load Babel) say what Babel's CLDR rules say, for whole
numbers and for numbers with decimals; a language without one still asks Babel."""

from __future__ import annotations

import pytest
from babel import Locale

from tablesense.texts import LANGS, messages

NUMBERS = [*range(-3, 250), 10**6, 10**20, -(10**20),
           *(k / 10 for k in range(-30, 301)), *(k / 4 for k in range(-12, 13)),
           0.0, -0.0, 1.0, 2.0, 1.05, 1.999, 1.9999999999999998, 2.0000000000000004, 1e-20, 5e-324, 0.1 + 0.2,
           1e20, 123456.789]


@pytest.mark.parametrize("lang", sorted(messages.PLURAL_RULES))
def test_a_written_out_plural_rule_says_what_babel_says(lang: str) -> None:
    babel = Locale.parse(lang).plural_form
    rule = messages.PLURAL_RULES[lang]
    assert [(n, rule(n)) for n in NUMBERS] == [(n, babel(n)) for n in NUMBERS]


def test_every_language_of_the_package_has_its_rule_written_out() -> None:
    assert set(LANGS) <= set(messages.PLURAL_RULES)


def test_a_language_without_a_written_out_rule_counts_by_babels() -> None:
    polish = messages.Language("pl", [])
    assert [polish.plural(n) for n in (1, 2, 5, 22, 1.5)] == ["one", "few", "many", "few", "other"]
