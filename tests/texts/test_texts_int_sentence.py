"""``texts.int_sentence`` gives a ruling's sentence as text and the places of its ``int``
parameters, for ``replay --json`` to write a ruling of those parameters without rendering it;
joined with the values, it must be exactly what ``render`` says: every message of every
language with every parameter it reads, and made-up rulings (keys read and not, names that JSON
or a format string would write otherwise)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense import texts
from tablesense.texts import LANGS, int_sentence, render

NAMES = ({}, {"p1": "Ann", "p2": "Bob"}, {"p1": "Ann & Cor", "p2": "Bob & Dirk"},
         {"p1": 'A"n{0}\\', "p2": "Bø }{ Cy\n"})
EVERY_KEY = sorted(set().union(*(texts.keys(code) for code in LANGS)))


def _joined(parts: list[str | int], values: tuple[int, ...]) -> str:
    return "".join(p if isinstance(p, str) else str(values[p]) for p in parts)


def _reads(key: str, lang: str) -> tuple[str, ...]:
    messages = texts.language(lang if lang in LANGS else "en")
    ident = texts.message_id(key)
    reads = texts._reads(messages, ident) if messages.has(ident) else None
    return tuple(sorted(reads or ()))


@pytest.mark.parametrize("lang", [*LANGS, "xx"])
def test_every_message_with_int_parameters_is_said_as_render_says_it(lang: str) -> None:
    shaped = 0
    for key in EVERY_KEY:
        keys = tuple(k for k in _reads(key, lang) if k != "what")
        values = tuple(range(-1, len(keys) - 1))  # -1, 0, 1, ...: each plural category
        for player in ("p1", "p2", None):
            for names in NAMES:
                parts = int_sentence(key, keys, lang, player, names)
                if parts is None:
                    continue
                shaped += 1
                said = render(key, dict(zip(keys, values)), lang, player, names)
                assert _joined(parts, values) == said, key
    assert shaped > 100  # most messages are text and parameters


@pytest.mark.parametrize("lang", LANGS)
def test_a_carom_and_a_poedel_are_said_without_rendering(lang: str) -> None:
    assert int_sentence("carom.carom", ("made", "cushions"), lang, "p1", {"p1": "Ann"}) is not None
    assert int_sentence("carom.poedel", (), lang, "p2", {"p2": "Bob"}) is not None


def test_a_select_or_a_derived_parameter_is_left_to_render() -> None:
    assert int_sentence("carom.inning.end", ("run",), "en", "p1", {}) is None  # a plural select
    assert int_sentence("carom.carom", ("made", "made"), "en", "p1", {}) is None  # a key twice
    assert int_sentence("carom.carom", ("what", "made"), "en", "p1", {}) is None


PARAMS = st.sampled_from(["made", "cushions", "run", "left", "points", "pins", "spot", "frame", "member",
                          "player", "opponent", "n", "0", "a.b"])


@settings(max_examples=400, deadline=None)
@given(rule=st.sampled_from([*EVERY_KEY, "no.such.rule", ""]),
       data=st.lists(st.tuples(PARAMS, st.integers(-3, 10**12)), max_size=4, unique_by=lambda kv: kv[0]),
       player=st.sampled_from([None, "p1", "p2", "p3"]), names=st.sampled_from(NAMES),
       lang=st.sampled_from([*LANGS, "xx"]))
def test_any_made_up_ruling_of_int_parameters_is_said_as_render_says_it(
        rule: str, data: list[tuple[str, int]], player: str | None, names: dict[str, str], lang: str) -> None:
    keys = tuple(k for k, _ in data)
    values = tuple(v for _, v in data)
    for _ in range(2):  # the second time from the plan kept
        parts = int_sentence(rule, keys, lang, player, names)
        if parts is not None:
            assert _joined(parts, values) == render(rule, dict(data), lang, player, names)
