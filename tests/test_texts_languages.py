"""Every ruling, question and announcement in Dutch and Danish (``tablesense.texts``).

The English templates are the reference: every key of theirs has a Dutch and a Danish
template that reads no parameter the English one does not. The parameters are the
real ones: every recorded match under tests/matches/ is replayed and every ruling and
question of its final state (and keglebillard's announcements) is rendered in both
languages, with a missing parameter an error instead of a "?".
"""

from __future__ import annotations

import re
import string
from collections import defaultdict
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from tablesense import texts
from tablesense.replay import Replay
from tablesense.rules.base import player_names
from tablesense.texts import da, en, key_of, nl

MATCHES = Path(__file__).parent / "matches"
LANGS = {"nl": nl, "da": da}


class Recorder(dict[str, Any]):
    """Template parameters that note every name a template reads (a missing one reads as 2)."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        super().__init__(params)
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key) if dict.__contains__(self, key) else 2

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        self.read.add(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self.read.add(str(key))
        return dict.__contains__(self, key)


def reads(template: Any, params: Mapping[str, Any]) -> set[str]:
    """The parameter names ``template`` reads when filled with ``params``."""
    rec = Recorder(params)
    if callable(template):
        template(rec)
        return rec.read
    names = {re.split(r"[.\[]", f)[0] for _, f, _, _ in string.Formatter().parse(template) if f}
    template.format_map(rec)
    return names | rec.read


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


@pytest.fixture(scope="module")
def seen_params(matches: list[Replayed]) -> dict[str, list[dict[str, Any]]]:
    """Per template key, every parameter set a recorded ruling or question gave it."""
    seen: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for m in matches:
        for item in m.items():
            data = dict(item.data)
            if item.player is not None:
                data |= {"player": item.player, "opponent": "p2" if item.player == "p1" else "p1"}
            seen[key_of(item.rule, data)].append(data)
    return seen


@pytest.fixture
def strict(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rendering with a parameter missing raises instead of writing "?"."""

    def missing(self: Any, key: str) -> str:
        raise KeyError(f"missing parameter {key!r}")

    monkeypatch.setattr(texts.Params, "__missing__", missing)


@pytest.mark.parametrize("lang", LANGS)
def test_every_english_key_has_a_template_in_the_language(lang: str) -> None:
    module = LANGS[lang]
    assert sorted(set(en.TEMPLATES) - set(module.TEMPLATES)) == []
    assert sorted(set(module.TEMPLATES) - set(en.TEMPLATES)) == [], "keys English does not have"


@pytest.mark.parametrize("lang", LANGS)
def test_templates_read_only_the_english_placeholders(
        lang: str, seen_params: dict[str, list[dict[str, Any]]]) -> None:
    wrong = {}
    for key, template in LANGS[lang].TEMPLATES.items():
        samples = [{}, *seen_params.get(key, [])]
        english = set().union(*(reads(en.TEMPLATES[key], s) for s in samples))
        theirs = set().union(*(reads(template, s) for s in samples))
        if theirs - english:
            wrong[key] = sorted(theirs - english)
    assert wrong == {}


@pytest.mark.parametrize("lang", LANGS)
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


@pytest.mark.parametrize("lang", LANGS)
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


@pytest.mark.parametrize("lang", LANGS)
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


def test_danish_names_a_balls_owner_in_the_genitive() -> None:
    names = {"p1": "Jens", "p2": "Mette"}
    said = texts.render("golf.spot.choice", {"ball": "p1", "spot": 3}, "da", "p2", names)
    assert said == "Mette vælger erstatningspunkt 3 til Jens' kugle"
    said = texts.render("golf.spot.choice", {"ball": "p2", "spot": 1}, "da", "p1", names)
    assert said.endswith("til Mettes kugle")


def test_ball_words_are_the_languages() -> None:
    assert texts.render("kegle.ball-falls", {"ball": "red", "pocket": 2}, "da").startswith("den røde faldt")
    assert texts.render("kegle.ball-falls", {"ball": "white", "pocket": 1}, "nl").startswith("de witte viel")
