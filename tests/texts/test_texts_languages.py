"""Every ruling, question and announcement in every language (``tablesense.texts``).

The languages are the folders of ``host/tablesense/texts/`` (discovered: a new folder is
checked here without naming it). English is the reference: every message of English is in
each other language and reads no parameter the English one does not; every file of each
language is Fluent that parses. The parameters are the real ones: every recorded match
under tests/matches/ is replayed and every ruling and question of its final state (and
keglebillard's announcements) is rendered in every language, with a missing parameter an
error instead of a "?".
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from paths import TESTS

from tablesense import texts
from tablesense.replay import Replay
from tablesense.rules.base import player_names
from tablesense.texts import key_of
from tablesense.texts.params import Params

MATCHES = TESTS / "matches"
OTHERS = [lang for lang in texts.LANGS if lang != "en"]


class Replayed:
    """A recorded match replayed to its end."""

    def __init__(self, path: Path) -> None:
        self.path = path
        with path.open(encoding="utf-8") as f:
            self.replay = Replay().feed_lines(f)
        self.state = self.replay.state
        self.names = player_names(self.state) if self.state is not None else {}

    def items(self) -> Iterator[Any]:
        """Its rulings and questions."""
        if self.state is not None:
            yield from self.state.rulings
            yield from self.state.questions


@pytest.fixture(scope="module")
def matches() -> list[Replayed]:
    found = [Replayed(p) for p in sorted(MATCHES.glob("*/*.jsonl"))]
    found = [m for m in found if m.state is not None]
    assert len(found) > 100, "the recorded matches were not found"
    return found


@pytest.fixture
def strict(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rendering with a parameter missing raises instead of writing "?"."""

    def missing(self: Any, key: str) -> str:
        raise KeyError(f"missing parameter {key!r}")

    monkeypatch.setattr(Params, "__missing__", missing)


def test_the_languages_are_found_on_the_disk_english_first() -> None:
    assert texts.LANGS[0] == "en"
    assert {"en", "nl", "da"} <= set(texts.LANGS)
    on_disk = {p.parent.name for p in (Path(texts.__file__).parent).glob("*/*.ftl")}
    assert set(texts.LANGS) == on_disk


@pytest.mark.parametrize("lang", texts.LANGS)
def test_every_file_of_the_language_is_fluent_that_parses(lang: str) -> None:
    assert texts.language(lang).errors == []


@pytest.mark.parametrize("lang", texts.LANGS)
def test_every_message_of_the_language_compiles(lang: str) -> None:
    language = texts.language(lang)
    for ident in language.messages:
        language.compile(ident)


@pytest.mark.parametrize("lang", OTHERS)
def test_every_english_message_is_in_the_language_and_no_other(lang: str) -> None:
    english, theirs = texts.keys("en"), texts.keys(lang)
    assert sorted(english - theirs) == [], f"messages {lang} lacks"
    assert sorted(theirs - english) == [], "messages English does not have"


@pytest.mark.parametrize("lang", OTHERS)
def test_messages_read_only_the_english_parameters(lang: str) -> None:
    english, theirs = texts.language("en"), texts.language(lang)
    wrong = {ident: sorted(theirs.variables(ident) - english.variables(ident))
             for ident in theirs.messages if ident in english.messages}
    assert {k: v for k, v in wrong.items() if v} == {}


@pytest.mark.parametrize("lang", texts.LANGS)
def test_every_recorded_ruling_and_question_renders(lang: str, matches: list[Replayed], strict: None) -> None:
    rendered = 0
    for m in matches:
        for item in m.items():
            key = key_of(item.rule, dict(item.data))
            assert texts.has_text(key, lang), f"{m.path.name}: no {lang} text for {key}"
            text = item.say(lang, m.names)
            assert text and text != item.rule, f"{m.path.name}: {key} renders as {text!r}"
            assert "?" not in text or text.endswith("?"), f"{m.path.name}: {key}: {text!r}"
            rendered += 1
    assert rendered > 500


@pytest.mark.parametrize("lang", OTHERS)
def test_keglebillard_announcements_render(lang: str, matches: list[Replayed], strict: None) -> None:
    said: set[str] = set()
    for m in matches:
        if m.state.game != "kegle" or m.replay.engine is None:
            continue
        english = m.replay.engine.to_json(m.state, "en")["announcements"]
        theirs = m.replay.engine.to_json(m.state, lang)["announcements"]
        assert len(theirs) == len(english)
        said.update(theirs)
        assert not set(theirs) & {"5-minute break", "distance reached", "last series"}, m.path.name
    assert said, "no recorded keglebillard match ends with an announcement"


@pytest.mark.parametrize("lang", OTHERS)
def test_rulings_name_the_players_never_p1_p2(lang: str, matches: list[Replayed]) -> None:
    named = 0
    for m in matches:
        for item in m.items():
            text = item.say(lang, m.names)
            assert not re.search(r"\bp[12]\b", text), f"{m.path.name}: {text!r}"
            english = item.say("en", m.names)
            for name in set(m.names.values()):
                if name in english:
                    assert name in text, f"{m.path.name}: {english!r} names {name}, {lang}: {text!r}"
                    named += 1
    assert named > 100


def test_dutch_carom_says_poedel_entree_dedans_where_english_does(matches: list[Replayed]) -> None:
    found: dict[str, int] = defaultdict(int)
    for m in matches:
        if m.state.game != "carom":
            continue
        for item in m.items():
            english, dutch = item.say("en", m.names), item.say("nl", m.names)
            for word in ("POEDEL", "ENTREE", "DEDANS"):
                if word in english.upper():
                    assert word in dutch, f"{m.path.name}: {english!r} -> {dutch!r}"
                    found[word] += 1
    assert found["POEDEL"] and found["ENTREE"] and found["DEDANS"]


def test_dutch_carom_words_of_the_club_texts() -> None:
    names = {"p1": "Ann", "p2": "Bob"}
    assert texts.render("carom.poedel", {}, "nl", "p1", names) == "POEDEL Ann"
    assert texts.render("carom.foul.push", {"what": "fault", "foul": "push"}, "nl", "p1", names) == (
        "fout: RIJEN (gebiljardeerd)")
    assert texts.render("carom.nastoot", {}, "nl", "p2", names).startswith("Bob speelt de nastoot")
    assert texts.render("carom.zone.entree", {"corner": "head-left"}, "nl", "p1", names) == (
        "ENTREE (linksonder)")
    assert "enbande" in texts.render("carom.bandstoten", {"cushions": 0, "need": 1}, "da", "p1", names)


def test_a_referees_note_is_said_in_the_referees_words_or_else_the_rules() -> None:
    assert texts.render("carom.protest", {"text": "het licht was uit"}, "nl", "p1") == "het licht was uit"
    assert texts.render("carom.protest", {}, "nl", "p1") == "protest bij de arbiter"
    assert texts.render("carom.protest", {}, "da", "p1") == "der protesteres til dommeren"


@pytest.mark.parametrize(("lang", "one", "many"), [("en", "1 carom in", "2 caroms in"),
                                                   ("nl", "1 carambole in", "2 caramboles in"),
                                                   ("da", "1 carambole i", "2 caramboler i")])
def test_a_count_takes_the_languages_plural(lang: str, one: str, many: str) -> None:
    assert texts.render("carom.inning.end", {"run": 1}, lang, "p1").startswith(one)
    assert texts.render("carom.inning.end", {"run": 2}, lang, "p1").startswith(many)
    assert texts.render("carom.inning.end", {"run": 0}, lang, "p1").startswith(many.replace("2", "0"))


def test_danish_names_a_balls_owner_in_the_genitive() -> None:
    names = {"p1": "Jens", "p2": "Mette"}
    said = texts.render("golf.spot.choice", {"ball": "p1", "spot": 3}, "da", "p2", names)
    assert said == "Mette vælger erstatningspunkt 3 til Jens' kugle"
    said = texts.render("golf.spot.choice", {"ball": "p2", "spot": 1}, "da", "p1", names)
    assert said.endswith("til Mettes kugle")


def test_ball_words_are_the_languages() -> None:
    assert texts.render("kegle.ball-falls", {"ball": "red", "pocket": 2}, "da").startswith("den røde faldt")
    assert texts.render("kegle.ball-falls", {"ball": "white", "pocket": 1}, "nl").startswith("de witte viel")
    assert texts.render("kegle.ball-falls", {"ball": None, "pocket": 1}, "en").startswith("a ball fell")


def test_a_translators_folder_adds_a_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder named by ``TABLESENSE_TEXTS`` adds a language without touching the package."""
    (tmp_path / "es").mkdir()
    (tmp_path / "es" / "golf.ftl").write_text("golf_goal = gol válido en la portería { $goal }\n",
                                              encoding="utf-8")
    monkeypatch.setenv("TABLESENSE_TEXTS", str(tmp_path))
    assert "es" in texts.languages.langs()
    language = texts.messages.Language("es", texts.languages.folders("es"))
    assert language.say("golf_goal", Params(goal="A")) == "gol válido en la portería A"
    assert language.say("golf_turn", Params()) is None


@pytest.mark.parametrize("lang", texts.LANGS)
def test_a_referee_answers_yes_or_no_in_the_languages_words(lang: str) -> None:
    from tablesense.rules.base import _as_option

    for answer, value in (("yes", True), ("no", False)):
        words = texts.language(lang).say(f"answer--{answer}", Params()) or ""
        assert words, f"{lang} has no words for {answer}"
        for word in words.split(","):
            assert _as_option(word.strip().capitalize(), (True, False)) is value, (lang, word)


@pytest.mark.parametrize("lang", texts.LANGS)
def test_every_rule_of_the_rule_books_has_its_text_in_the_language(lang: str) -> None:
    """Each rule id of seeds/*.md has a message, or messages for each thing it says (``id:what``)."""
    from test_catalogue import GAMES, catalogue

    have = texts.keys(lang)
    ids = [i for game in GAMES for i in catalogue(game)]
    assert len(ids) > 100, "the rule books were not read"
    missing = [i for i in ids if i not in have and not any(k.startswith(f"{i}:") for k in have)]
    assert missing == [], f"rules with no {lang} text"


@pytest.mark.parametrize("lang", texts.LANGS)
def test_the_languages_code_is_one_whose_plural_rules_are_known(lang: str) -> None:
    from babel import Locale

    assert Locale.parse(lang.replace("-", "_")).plural_form(1) == texts.language(lang).plural(1)
    assert texts.decimal_mark(lang) in ".,"
