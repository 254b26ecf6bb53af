"""A message's line of text and ``{ $parameter }``s is read by hand (``messages._line_format``),
not by the two regular expressions compiled at import it replaced (docs/performance.md): it takes
what they took, and makes the format string they made, for any text."""

from __future__ import annotations

import re

from hypothesis import example, given
from hypothesis import strategies as st

from tablesense.texts import LANGS, language
from tablesense.texts.messages import _line_format

#: the patterns as they were (``_LINE``, ``_PLACEABLE``)
LINE = re.compile(r"(?:[^{}\n]|\{ *\$[a-zA-Z][a-zA-Z0-9_-]* *\})*")
PLACEABLE = re.compile(r"\{ *\$([a-zA-Z][a-zA-Z0-9_-]*) *\}")


def by_regex(text: str) -> str | None:
    if not LINE.fullmatch(text):
        return None
    return PLACEABLE.sub(lambda m: "{" + m.group(1) + "}", text)


PIECES = st.sampled_from(["{", "}", "$", " ", "  ", "\n", "\t", "a", "Z", "q9", "_", "-", "é", "{ $n }",
                          "{$player}", "{  $a-b_c  }", "{ $9 }", "{ $-x }", "{ $x.y }", "{ -term }",
                          "{ GENITIVE($p) }", "}{", "{{", "$x", "{ $n", "$n }", "text, "])


@given(st.lists(PIECES | st.text(max_size=4), max_size=12).map("".join))
@example("{ $n } pin down")
@example("no points: series of { $run } over")
@example("{ $a }}")
@example("{ $a } { $")
@example("")
def test_a_line_is_read_as_the_regular_expressions_read_it(text: str) -> None:
    assert _line_format(text) == by_regex(text)


def test_every_message_of_every_language_line_by_line() -> None:
    """Each line of every message the package has, in every language, read alike."""
    for lang in LANGS:
        messages = language(lang)
        for source in messages._source.values():
            for line in source.split("\n"):
                value = line.partition("=")[2].strip(" ")
                for text in (line, value):
                    assert _line_format(text) == by_regex(text), (lang, text)
