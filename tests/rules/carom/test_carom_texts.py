"""Carom rulings are data (rule id and parameters) and every one has an English sentence
(``tablesense/texts/en/carom.ftl``) that names the players: no ruling is shown as its bare
rule id or with a parameter missing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from paths import ROOT
from test_carom_helpers import Table, setup

from tablesense.replay import Replay
from tablesense.rules.carom.fouls import BY_NAME as FOULS
from tablesense.rules.carom.profiles import PROFILES
from tablesense.texts import has_text, keys

MATCHES = sorted((ROOT / "tests" / "matches" / "carom").glob("*.jsonl"))
ENGINE = sorted((ROOT / "host" / "tablesense" / "rules" / "carom").glob("*.py"))
DISCIPLINES = ("libre", "bandstoten", "driebanden")
#: a ruling the engine writes: ``d.rule(t, "carom.x", player, "what", ...)`` or ``self.rule(...)``
CITED = re.compile(r"\.rule\((?:[^,()\"]+,\s*){1,2}\"(carom\.[a-z0-9.-]+)\""
                   r"(?:,\s*[^,()\"]+)?(?:,\s*\"([a-z-]+)\")?")
WHAT = re.compile(r"what=\"([a-z-]+)\"")


def _rendered(log: list[str]) -> list[dict[str, object]]:
    rep = Replay().feed_lines(log)
    state = rep.to_json()
    return [*state["rulings"], *state["questions"]]


@pytest.mark.parametrize("log", MATCHES, ids=[p.stem for p in MATCHES])
def test_every_ruling_of_a_recorded_match_renders_as_a_sentence(log: Path) -> None:
    for r in _rendered(log.read_text().splitlines()):
        text = str(r.get("text", ""))
        assert text and text != r["rule"], f"{r['rule']} has no English sentence: {r}"
        assert "?" not in text.replace("(s)", ""), f"{r['rule']} lacks a parameter: {text!r}"
        assert "what" not in r, "'what' picks the sentence and stays out of the JSON"


def test_every_rule_the_engine_writes_has_an_english_template() -> None:
    missing, found = [], 0
    for path in ENGINE:
        for line in path.read_text().splitlines():
            m = CITED.search(line)
            if m is None:
                continue
            found += 1
            what = m.group(2) or next(iter(WHAT.findall(line)), None)
            key = f"{m.group(1)}:{what}" if what else m.group(1)
            if not has_text(key, "en"):
                missing.append(f"{path.name}: {key}")
    assert found >= 15, "the walk finds the engine's rulings"
    assert not missing, missing


@pytest.mark.parametrize("club", sorted(PROFILES))
def test_every_fault_of_every_profile_and_discipline_has_a_sentence(club: str) -> None:
    profile = PROFILES[club]
    wanted = {f"{profile.foul_rule(f, d)}:fault" for f in FOULS if profile.knows(f) for d in DISCIPLINES}
    wanted |= {profile.frozen_rule(d).rule for d in DISCIPLINES} | set(profile.notes)
    assert wanted <= keys("en"), sorted(wanted - keys("en"))


def test_rulings_name_the_players_and_carry_their_parameters() -> None:
    t = Table(setup(targets={"p1": 2, "p2": 2}))
    s = t.carom("p1").miss("p1").state()
    by_rule = {r["rule"]: r for r in s["rulings"]}
    assert by_rule["carom.carom"]["text"] == "carom 1" and by_rule["carom.carom"]["made"] == 1
    assert by_rule["carom.inning.end"]["text"] == "1 carom in the inning"
    assert by_rule["carom.inning.end"]["run"] == 1
    s = Table(setup(targets={"p1": 2, "p2": 2})).miss("p1").state()
    assert [r["text"] for r in s["rulings"] if r["rule"] == "carom.poedel"] == ["POEDEL Ann"]


def test_an_ended_match_says_why_as_data() -> None:
    t = Table(setup(targets={"p1": 1, "p2": 1}))
    s = t.carom("p1").miss("p2").state()
    assert s["finished"] and s["winner"] == "p1"
    assert s["ended"]["rule"] == "carom.match.won" and s["ended"]["winner"] == "p1"
    assert s["ended"]["equalising_inning"] == "short"
    assert s["ended"]["caroms"] == {"p1": 1, "p2": 0}
    won = [r for r in s["rulings"] if r["rule"] == "carom.match.won"]
    assert won[0]["text"] == "the equalising inning fell short: Ann wins"
    json.dumps(s)
