"""The referee panel's buttons (tablesense.web.fouls, spots, undo): the catalogue's fouls, each
accepted by its engine, in the three languages; golf's spots; what undo takes back."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from paths import ROOT

from tablesense.errors import IllegalCall
from tablesense.events import parse_event
from tablesense.replay import Replay
from tablesense.rules.golf import spots
from tablesense.texts import LANGS
from tablesense.web import fouls, undo
from tablesense.web.pages import strings

TEXTS = ROOT / "host" / "tablesense" / "texts"
ID_ROW = re.compile(r"^\|\s*`((?:golf|kegle|carom)\.[a-z0-9][a-z0-9.-]*)`")
#: the catalogue's fouls: what a referee calls a foul (or fault) of the player at the table
FOUL_IDS = {
    "golf": re.compile(r"^golf\.(foul\..*|own-goal|clock|zone\.leave|triangle\..*"
                       r"|duo\.(opening|order|consult))$"),
    "kegle": re.compile(r"^kegle\.fault\.(?!noticed$).*$"),  # .noticed: when a fault still counts
    "carom": re.compile(r"^carom\.(foul\.(?!carom-void$).*|jump|dedans\.reste|opening-shot\.direct)$"),
}
SETUPS = {
    "golf": {"game": "golf", "players": {"p1": "Ann", "p2": "Bob"}},
    "kegle": {"game": "kegle", "players": {"p1": "Mette", "p2": "Lars"}, "distance": 40},
    "carom": {"game": "carom", "players": {"p1": "Joop", "p2": "Kees"}, "discipline": "libre",
              "profile": "liemers"},
}
SHOT = {
    "golf": [{"t": 2.0, "type": "cushion", "cushion": 1, "ball": None}, {"t": 3.0, "type": "rest"}],
    "kegle": [{"t": 2.0, "type": "cushion", "cushion": 1, "ball": "red"}, {"t": 3.0, "type": "rest"}],
    "carom": [{"t": 2.0, "type": "cushion", "cushion": 1, "ball": None}, {"t": 3.0, "type": "rest"}],
}
#: what a button's foul is ruled as where the shot of the test is not its case
RULED_AS = {
    ("golf", "touch-own"): "golf.foul.touch",  # before zone play a touch is a touch
    ("golf", "touch-opponent"): "golf.foul.touch",
    ("carom", "opening-shot"): "carom.opening-shot.cushion",  # the break went over a cushion first
}


def _catalogue(game: str) -> list[str]:
    text = (ROOT / "seeds" / f"{game}.md").read_text(encoding="utf-8")
    return [m.group(1) for line in text.splitlines() if (m := ID_ROW.match(line))]


@pytest.mark.parametrize("game", sorted(fouls.every()))
def test_every_foul_of_the_catalogue_has_a_button(game: str) -> None:
    wanted = {i for i in _catalogue(game) if FOUL_IDS[game].match(i)}
    assert len(wanted) >= 10
    have = {b.rule for b in fouls.offered(game)}
    assert wanted - have == set(), f"fouls of seeds/{game}.md without a panel button"
    assert have - set(_catalogue(game)) == set(), "buttons citing ids the catalogue does not have"


@pytest.mark.parametrize("game,button", [(g, b) for g, bs in fouls.every().items() for b in bs],
                         ids=lambda x: x if isinstance(x, str) else x.call)
def test_every_button_is_a_foul_its_engine_rules_on(game: str, button: fouls.Offered) -> None:
    setup = dict(SETUPS[game])
    if "duo" in button.profiles:
        setup["format"] = "duo"
        setup["players"] = {"p1": ["Ann", "Cor"], "p2": ["Bob", "Dirk"]}
    rep = Replay()
    rep.apply(parse_event({**setup, "t": 0.0, "type": "setup"}))
    for e in SHOT[game]:
        rep.apply(parse_event(e))
    try:
        rep.apply(parse_event({"t": 4.0, "type": "call", "call": "foul", "foul": button.call}))
    except IllegalCall as exc:
        pytest.fail(f"the engine refuses the button {button.call!r}: {exc}")
    assert rep.state is not None
    rules = {r.rule for r in rep.state.rulings}
    assert RULED_AS.get((game, button.call), button.rule) in rules


PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _file(lang: str) -> dict[str, str]:
    return json.loads((TEXTS / lang / "screen.json").read_text(encoding="utf-8"))


def test_the_screens_words_are_in_every_language_with_the_same_blanks() -> None:
    en = _file("en")
    keys = [fouls.key(g, b.call) for g, bs in fouls.every().items() for b in bs]
    keys += [k for k in en if k.split(".")[0] in ("ls", "panel", "undo", "call", "ball", "foul")]
    for lang in [x for x in LANGS if x != "en"]:
        words = _file(lang)
        missing = [k for k in keys if not words.get(k)]
        assert not missing, f"{lang}.json lacks {missing[:5]}"
        for k in keys:
            assert set(PLACEHOLDER.findall(words[k])) == set(PLACEHOLDER.findall(en[k])), (lang, k)
    assert not [k for k in keys if not en.get(k)]


def test_each_game_keeps_its_own_words() -> None:
    nl, da = strings("nl"), strings("da")
    assert nl["foul.carom.push"].startswith("Rijen") and nl["ls.poedel"].startswith("POEDEL")
    assert "kegle" in da["foul.kegle.pin-by-cue"].lower() and da["discipline.bandstoten"] == "Enbande"
    assert "POEDEL" not in strings("en")["ls.poedel"]  # English players say nil


def _calls(game: str, **kw: Any) -> list[str]:
    return [b["call"] for b in fouls.buttons(game, strings("en"), **kw)]


def test_the_panel_shows_the_fouls_the_match_knows_common_ones_first() -> None:
    kampioen = _calls("carom", profile="kampioen")
    assert "smoking" not in kampioen and "touch" in kampioen  # liemers rules only
    assert "smoking" in _calls("carom", profile="liemers")
    assert "order" not in _calls("golf", profile="single") and "order" in _calls("golf", profile="duo")
    assert "touch-own" in _calls("golf", zone_play=True) and "touch" not in _calls("golf", zone_play=True)
    listed = fouls.buttons("kegle", strings("da"))
    commons = [b["common"] for b in listed]
    assert commons == sorted(commons, reverse=True) and commons[0]
    assert listed[0]["label"] == "Rørte en kugle"


def test_golf_spots_lie_on_the_bed_the_first_three_at_the_attacked_end() -> None:
    d = spots.drawing()
    for player, attacked_far in (("p1", True), ("p2", False)):
        marks = d["spots"][player]
        assert [m["spot"] for m in marks] == [1, 2, 3, 4, 5]
        assert [m["choice"] for m in marks] == [True, True, True, False, False]
        for m in marks:
            assert 0 < m["x"] < d["length"] and 0 < m["y"] < d["width"]
        near_goal = [m for m in marks if m["spot"] in (1, 2)]
        assert all((m["x"] > d["length"] / 2) == attacked_far for m in near_goal)
    assert len(d["pegs"]) == 12


def test_undo_names_the_last_shot_or_call_and_walks_back() -> None:
    s = strings("en")
    lines = [json.dumps(x) for x in (
        {"t": 1, "type": "cushion", "cushion": 1}, {"t": 2, "type": "rest"},
        {"t": 3, "type": "call", "call": "foul", "foul": "touch", "player": "p2"},
        {"t": 4, "type": "goal", "goal": "B", "ball": "p1"}, {"t": 5, "type": "rest"})]
    players = {"p1": "Ann", "p2": "Bob"}
    assert undo.describe(undo.last_unit(lines), "golf", players, s) == "Undo shot 2"
    once = [*lines, json.dumps({"t": 6, "type": "call", "call": "undo"})]
    assert undo.describe(undo.last_unit(once), "golf", players, s) == "Undo foul: Touch (Bob)"
    twice = [*once, json.dumps({"t": 7, "type": "call", "call": "undo"})]
    assert undo.describe(undo.last_unit(twice), "golf", players, s) == "Undo shot 1"
    assert undo.describe(undo.last_unit([]), "golf", players, strings("da")) == "Intet at fortryde"


def test_the_spots_allowed_now_follow_the_balls_at_the_last_rest() -> None:
    at = {n: list(spots.g.REPLACEMENT_SPOTS["p1"][n]) for n in range(1, 6)}
    assert spots.allowed("p1", None) == [1, 2, 3, 4, 5]  # no positions: the referee's eyes
    assert spots.allowed("p1", {"p2": [at[1]]}) == [2, 3]
    assert spots.allowed("p1", {"p1": [at[1], at[3]], "p2": [at[2]]}) == [4]
    assert spots.allowed("p1", {"p1": [at[1], at[2], at[3], at[4]]}) == [5]
    assert spots.allowed("p2", {"p2": [at[1]]}) == [1, 2, 3]  # p1's spots are not p2's


def test_the_panel_is_told_which_spots_a_waiting_ball_may_take(tmp_path: Path) -> None:
    from tablesense.pub import Pub
    from tablesense.store import Store
    from tablesense.web import view

    pub = Pub(Store(str(tmp_path / "pub.db")), ["1", "2"])
    pub.view = view.view
    spot2 = list(spots.g.REPLACEMENT_SPOTS["p1"][2])
    for table, rest in (("1", {}), ("2", {"positions": {"p2": [spot2]}})):
        pub.start_match(table, {"game": "golf", "players": {"p1": "Ann", "p2": "Bob"}})
        pub.submit(table, parse_event({"t": 1.0, "type": "cushion", "cushion": 1, "ball": None}))
        pub.submit(table, parse_event({"t": 2.0, "type": "rest", **rest}))
        pub.call(table, {"call": "foul", "foul": "touch"})
        assert pub.snapshot(table)["state"]["spots_waiting"] == ["p1"]
    assert pub.snapshot("1")["view"]["spots"] == {"owner": "p1", "allowed": [1, 2, 3, 4, 5], "seen": False}
    assert pub.snapshot("2")["view"]["spots"] == {"owner": "p1", "allowed": [1, 3], "seen": True}
