"""A language's files are cut into their entries only for a walk over them all: a message or a
term asked for by its id is found by a search for its first line (``messages._Cut``), and is the
entry a cut of every file in turn would give (a later file's, and a later line's, winning), or
none where the cut has none (docs/performance.md)."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from tablesense.texts import LANGS, language
from tablesense.texts.messages import _Cut, entries

IDS = ["a", "ab", "a-b", "b_2", "kegle_series", "x", "Zz"]
LINES = st.one_of(
    st.builds(lambda term, ident, spaces, value: f"{term}{ident}{spaces}={value}",
              st.sampled_from(["", "-", "--", " "]), st.sampled_from([*IDS, "9a", "a b", ""]),
              st.sampled_from(["", " ", "  ", "\t"]),
              st.sampled_from(["", " text", " { $n }", "=", " a = b"])),
    st.sampled_from(["# a comment", "## group", "#", "", " ", "    indented = not an entry", "  *[other] x",
                     "   }", "junk", "a", "ab", "-", "=", "ab =x\r", "x\u2028a = y"]),
)
FILES = st.lists(st.lists(LINES, max_size=10).map("\n".join), min_size=1, max_size=3)


def full_cut(texts: list[str], term: bool) -> dict[str, str]:
    every: dict[str, str] = {}
    for text in texts:
        for is_term, ident, source in entries(text):
            if is_term == term:
                every[ident] = source
    return every


@given(FILES, st.booleans())
@example(["a = 1\n  more\n# c\na = 2\n b\n\n", "ab = 3\n-a = t"], False)
@example(["a = 1\n-a = 2\n  x", "x = 1\na=2"], True)
def test_an_entry_asked_for_is_the_one_a_full_cut_gives(texts: list[str], term: bool) -> None:
    named = [(f"f{i}.ftl", "\n".join(text.splitlines())) for i, text in enumerate(texts)]
    every = full_cut([text for _, text in named], term)
    lazy = _Cut(named, term)
    for ident in [*IDS, "9a", "a b", "", "-a", "A"]:
        assert lazy.get(ident) == every.get(ident), ident
        assert (ident in lazy) == (ident in every)
    assert dict(lazy) == every and len(lazy) == len(every)
    assert all(lazy[ident] == source for ident, source in every.items())  # after the cut too


def test_every_message_and_term_of_every_language() -> None:
    for lang in LANGS:
        asked = language(lang)
        texts = [text for _, text in asked._source._texts]
        for term, cut in ((False, asked._source), (True, asked._term_source)):
            every = full_cut(texts, term)
            fresh = _Cut(asked._source._texts, term)
            assert {ident: fresh[ident] for ident in every} == every
            assert dict(cut) == every
