"""Keglebillard's fault names: the key of a name is made without a regular expression and the
index of every fault's names when the first name is looked up (the start-up of a replay whose log
names no fault does without them, docs/performance.md). The key is the one ``re.sub`` made."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from tablesense.rules.kegle import names
from tablesense.rules.kegle.names import FAULT_NAMES, VOCABULARY, fault_key


def key_by_regex(name: str) -> str:
    """``fault_key`` as it was written with ``re.sub``."""
    key = unicodedata.normalize("NFKD", name.strip().lower())
    key = "".join(c for c in key if not unicodedata.combining(c))
    for prefix in ("kegle.", "kegle-", "kegle_", "fault.", "foul."):
        if key.startswith(prefix):
            key = key[len(prefix):]
    return re.sub(r"[^a-z0-9]+", "", key)


#: names as referees write them: the table's, with accents, cases, separators and other scripts
NAME_PARTS = st.sampled_from([*FAULT_NAMES, *(a for aliases in FAULT_NAMES.values() for a in aliases),
                              "kegle.", "fault.", "foul.", "Kégle-", " ", "_", "-", ".", "Æ", "ø", "ß", "İ",
                              "ﬁ", "１２", "Ⅻ", "é", "\u0301", "\t", "Touché", "RØD", "\u212a"])


@given(st.lists(NAME_PARTS | st.text(max_size=6), max_size=5).map("".join))
def test_a_fault_names_key_is_the_regular_expressions(name: str) -> None:
    assert fault_key(name) == key_by_regex(name)


def test_the_index_is_made_at_the_first_look_up_and_finds_every_name() -> None:
    names._fault_index.cache_clear()
    names._FOUND.clear()
    assert names._fault_index.cache_info().currsize == 0
    for fault, aliases in FAULT_NAMES.items():
        for name in (fault, fault.removeprefix("kegle.fault."), *aliases):
            assert VOCABULARY.lookup("fouls", name) == fault, name
            assert VOCABULARY.lookup("fouls", f" Kegle.{name.upper()} ") == fault, name
    assert names._fault_index.cache_info().currsize == 1
