"""``texts.render`` looks each (rule, what, language)'s message up once and puts in words only the
parameters the message reads; every sentence must stay as it was (``render_reference``, the
render of main 7ba8e0c): every ruling and question of every recorded match of every game, every
message of every language with every parameter, duos among the names, and made-up rulings."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import render_reference
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import TESTS

from tablesense import texts
from tablesense.replay import Replay
from tablesense.rules.base import player_names
from tablesense.texts import LANGS, render

LOGS = sorted((TESTS / "matches").glob("*/*.jsonl"))
SINGLES = {"p1": "Ann", "p2": "Bob"}
DUOS = {"p1": "Ann & Cor", "p2": "Bob & Dirk"}
#: a value for every parameter a message reads, words and lists among them
DATA = dict(goal="A", spot=2, from_spot=1, ball="p2", balls=["white", "red"], frame=2, gap_us=350, member=1,
            pins=[2, 5], points=1, run=1, series=3, remaining=20, pocket=1, pin=4, cushions=1, need=1,
            foul="touch", choice="outlay", corner="head-left", call="carom", scheme="de-bruijn", innings=30,
            seconds=40, left=1, made=2, target=300, text="own words", cue="yellow", object=None, first="red")


def _said(log: Path) -> list[tuple[str, dict, str | None, dict]]:
    lines = [line for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
    rep = Replay().feed_lines(lines)
    if rep.state is None:
        return []
    names = player_names(rep.state)
    records = [*rep.state.rulings, *getattr(rep.state, "questions", ())]
    return [(r.rule, dict(r.data), r.player, names) for r in records]


SAID = {log: _said(log) for log in LOGS}


@pytest.mark.parametrize("lang", [*LANGS, "xx"])
def test_every_recorded_ruling_is_said_as_before_in_every_language(lang: str) -> None:
    games = set()
    for log, said in SAID.items():
        for rule, data, player, names in said:
            for who in (names, DUOS):
                old = render_reference.render(rule, data, lang, player, who)
                assert render(rule, data, lang, player, who) == old, f"{log.name}: {rule} {data}"
            games.add(log.parent.name)
    assert games == {"golf", "kegle", "carom"}


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_said_as_before_with_every_parameter(lang: str) -> None:
    every = set().union(*(texts.keys(code) for code in LANGS))
    assert len(every) > 100
    for key in sorted(every):
        rule, _, what = key.partition(":")
        for data in ({**DATA, "what": what} if what else DATA, {"what": what} if what else {}):
            for player in ("p1", "p2", None):
                for names in (SINGLES, DUOS, None):
                    assert render(rule, data, lang, player, names) == \
                        render_reference.render(rule, data, lang, player, names), (key, data, player, names)


@pytest.mark.parametrize("lang", LANGS)
def test_what_a_message_reads_holds_all_the_parser_finds_it_reads(lang: str) -> None:
    messages, known, referring = texts.language(lang), 0, 0
    for ident in messages.messages:
        reads = texts._reads(messages, ident)
        if reads is not None:  # None: every parameter is put in words
            assert messages.variables(ident) <= reads, ident
            known += 1
            referring += "{ golf_" in messages._source[ident] or "{ carom_" in messages._source[ident]
    assert known > 100 and referring > 0


SCALARS = (st.integers(-3, 3) | st.booleans() | st.none() | st.sampled_from([1.0, 0.5, math.nan])
           | st.sampled_from(["p1", "p2", "white", "red", "push", "head-left", "own words", "é", ""]))
VALUES = SCALARS | st.lists(SCALARS, max_size=3)
PARAMS = st.sampled_from(sorted({*DATA, "what", "player", "player_plural", "pins_count", "balls_count",
                                 "text_given", "member_name", "opponent"}))
WHATS = st.sampled_from(sorted({k.partition(":")[2] for k in texts.keys("en")} - {""})) | SCALARS


@settings(max_examples=300, deadline=None)
@given(rule=st.sampled_from(sorted({k.partition(":")[0] for k in texts.keys("en")}) + ["no.such.rule"]),
       what=WHATS, data=st.lists(st.tuples(PARAMS, VALUES), max_size=5),
       player=st.sampled_from([None, "p1", "p2", "p3"]), names=st.sampled_from([SINGLES, DUOS, None, {}]),
       lang=st.sampled_from([*LANGS, "xx"]))
def test_any_made_up_ruling_is_said_as_before(rule: str, what: object, data: list, player: str | None,
                                             names: dict | None, lang: str) -> None:
    params = dict([("what", what), *data])
    for _ in range(2):  # the second time from the plan kept
        old = render_reference.render(rule, params, lang, player, names)
        assert render(rule, params, lang, player, names) == old
