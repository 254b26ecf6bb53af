"""A side of two (a golf duo, any team: ``players: {"p1": ["Ann", "Cor"], ...}``) is said in the
plural: "Ann & Cor stay at the table", "Ann & Cor blijven aan tafel", "Ann & Cor erklæres for
tabere"; a side of one as before. Every message of every language is rendered with a duo on
both sides and searched for a verb in the singular beside the duo's name.
"""

from __future__ import annotations

import re

import pytest

from tablesense import texts

SINGLES = {"p1": "Ann", "p2": "Bob"}
DUOS = {"p1": "Ann & Cor", "p2": "Bob & Dirk"}
DATA = dict(goal="A", spot=2, from_spot=1, ball="p2", balls=2, frame=2, gap_us=350, member=0, pins=[2],
            points=1, run=1, series=3, remaining=20, pocket=1, pin=4, cushions=1, need=1, foul="touch",
            choice="outlay", corner="head-left", call="carom", scheme="de-bruijn", innings=30, seconds=40,
            left=1, made=1, target=300)
#: a verb in the third person singular right after a duo's name (or right before it, inverted)
SINGULAR = {
    "en": re.compile(r"(?:Ann & Cor|Bob & Dirk) (?:is|has|\w+[^'s\W]s)\b"),
    "nl": re.compile(r"(?:Ann & Cor|Bob & Dirk) (?:\w+t|stoot)\b|\bspeelde (?:Ann & Cor|Bob & Dirk)"
                     r"|verliezer\b"),
    "da": re.compile(r"for taber\b"),
}


def _say(key: str, lang: str, player: str, names: dict[str, str]) -> str:
    rule, _, what = key.partition(":")
    return texts.render(rule, {**DATA, "what": what} if what else DATA, lang, player, names)


@pytest.mark.parametrize("lang", sorted(SINGULAR))
def test_no_message_says_a_duo_in_the_singular(lang: str) -> None:
    wrong = sorted({said for key in texts.keys(lang) for player in ("p1", "p2")
                    if SINGULAR[lang].search(said := _say(key, lang, player, DUOS))})
    assert wrong == []


@pytest.mark.parametrize(("lang", "single", "duo"), [
    ("en", "valid goal in goal A: Ann stays at the table",
     "valid goal in goal A: Ann & Cor stay at the table"),
    ("nl", "geldig doelpunt in doel A: Ann blijft aan tafel",
     "geldig doelpunt in doel A: Ann & Cor blijven aan tafel"),
    ("da", "gyldigt mål i mål A: Ann bliver ved bordet", "gyldigt mål i mål A: Ann & Cor bliver ved bordet"),
])
def test_a_duo_that_scores_stays_at_the_table_in_the_plural(lang: str, single: str, duo: str) -> None:
    assert texts.render("golf.goal", {"goal": "A"}, lang, "p1", SINGLES) == single
    assert texts.render("golf.goal", {"goal": "A"}, lang, "p1", DUOS) == duo


@pytest.mark.parametrize(("lang", "duo"), [
    ("en", "Ann & Cor are designated the losers; Bob & Dirk win"),
    ("nl", "Ann & Cor worden als verliezers aangewezen; Bob & Dirk winnen"),
    ("da", "Ann & Cor erklæres for tabere; Bob & Dirk vinder"),
])
def test_a_disqualified_pair_are_the_losers_and_the_other_pair_win(lang: str, duo: str) -> None:
    assert texts.render("kegle.disqualified", {}, lang, "p1", DUOS) == duo
    assert "Ann & Cor" not in texts.render("kegle.disqualified", {}, lang, "p1", SINGLES)


def test_the_other_side_of_a_duo_opens_the_second_frame_as_a_pair() -> None:
    said = texts.render("golf.frame.opening", {"what": "second", "frame": 1}, "en", "p1", DUOS)
    assert said == "frame 1: Ann & Cor open; the other pair opens the second frame"
    said = texts.render("golf.frame.opening", {"what": "second", "frame": 1}, "en", "p1", SINGLES)
    assert said == "frame 1: Ann opens; the other player opens the second frame"


def test_a_side_without_names_is_said_as_before() -> None:
    said = texts.render("golf.goal", {"goal": "B"}, "en", "p1")
    assert said == "valid goal in goal B: p1 stays at the table"
    assert texts.render("golf.goal", {"goal": "B"}, "en") == "valid goal in goal B: ? stays at the table"
