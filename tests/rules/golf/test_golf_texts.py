"""Every golf ruling and question is rendered from its rule id and parameters
(``tablesense/texts/en/golf.ftl``): none renders as its bare id or with a parameter missing,
and the sentences name the players."""

from __future__ import annotations

import re
import sys

from paths import ROOT
from test_golf_helpers import foul, goal, miss, one_one, play, rest, state

from tablesense.replay import Replay
from tablesense.rules.golf.names import FOULS
from tablesense.texts import has_text, keys

RULES = ROOT / "host" / "tablesense" / "rules"


def _cited() -> set[str]:
    """The rule ids (and ``:what`` keys) the engine's code cites in its rulings and questions."""
    keys: set[str] = set()
    for path in (RULES / "golf").glob("*.py"):
        src = path.read_text()
        for m in re.finditer(r'(?:u|self)\.(?:rule|ask)\(\s*(?:[^,()]+,\s*){1,2}"(golf\.[a-z0-9.-]+)"'
                             r'(?:,\s*[^,]+,\s*(?:what=)?"([a-z0-9-]+)")?', src):
            keys.add(m.group(1) + (f":{m.group(2)}" if m.group(2) else ""))
        for m in re.finditer(r'u\.ask\(f?"[^"]*",\s*t,\s*"(golf\.[a-z0-9.-]+)",\s*"([a-z-]+)"', src):
            keys.add(f"{m.group(1)}:{m.group(2)}")
    return keys


def test_every_rule_id_the_golf_engine_cites_has_an_english_sentence() -> None:
    cited = _cited()
    assert {"golf.spot.fallback:named", "golf.goal:whose", "golf.own-goal:count"} <= cited  # the walk works
    missing = sorted(k for k in cited if not has_text(k, "en"))
    # a rule whose sentence is chosen by a value (the score of ``golf.frame.won``) has a
    # sentence for each value, checked by rendering below
    assert not [k for k in missing if ":" in k or not any(t.startswith(f"{k}:") for t in keys("en"))]
    # every foul, in zone play and before it
    assert not [f for f in FOULS if not (has_text(f, "en") and has_text(f"{f}:zone", "en"))]


def _logs() -> list[list[str]]:
    logs = [p.read_text().splitlines() for p in sorted((ROOT / "tests" / "matches" / "golf").glob("*.jsonl"))]
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import golf_replay  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    logs.append(golf_replay.synthetic_log(3000))
    return logs


def test_no_golf_ruling_or_question_renders_as_its_bare_id() -> None:
    seen: set[str] = set()
    for lines in _logs():
        s = Replay().feed_lines(lines).to_json()
        for r in s["rulings"]:
            assert r["text"] and r["text"] != r["rule"] and "?" not in r["text"], r
            seen.add(r["rule"])
        for q in s["questions"]:
            assert q["text"].endswith("?") and "?" not in q["text"][:-1], q
    assert len(seen) > 20


def test_golf_sentences_name_the_players() -> None:
    rep = play(miss(1.0), goal(3.0, "A", "p2"), rest(4.0), foul(5.0, "aim-behind"))
    texts = [r["text"] for r in state(rep)["rulings"]]
    assert texts[0] == "no valid goal of their own: the turn passes to Bob"
    assert texts[1] == "valid goal in goal A: it counts, but this shot costs Bob the turn"
    assert texts[2] == "took up position behind an opponent's ball: turn lost"
    assert "p1" not in " ".join(texts) and "p2" not in " ".join(texts)
    # in zone play a foul says what it costs there
    zs = state(play(one_one(), foul(30.0, "touch-opponent")))
    assert zs["rulings"][-1]["text"].endswith("Ann points out a ball to be placed on a replacement spot")
    # the duo's member who opens, by name
    rep = play({"t": 0.5, "type": "call", "call": "start", "player": "p2", "member": 1},
               players={"p1": ["Ann", "Cor"], "p2": ["Bob", "Dirk"]})
    assert state(rep)["rulings"][-1]["text"] == "Dirk opens frame 1"


def test_a_golf_ruling_chooses_its_sentence_without_saying_so() -> None:
    # ``what`` picks the sentence; it is no parameter of the ruling's data
    s = state(play(miss(1.0), goal(3.0, "A", "p2"), rest(4.0), foul(5.0, "aim-behind")))
    assert all("what" not in r for r in s["rulings"])
    ended = state(play(*[[goal(2.0 * k + 1, "B", "p1"), rest(2.0 * k + 2)] for k in range(10)]))
    assert ended["ended"] == {"rule": "golf.match.won", "winner": "p1", "score": "2-0"}
    assert ended["rulings"][-1]["text"] == "Ann wins the match 2-0"


def test_the_golf_score_sheet_says_each_ruling_in_words() -> None:
    from test_golf_helpers import lines

    from tablesense.store import MatchRow
    from tablesense.web.pages import rulings_html

    log = lines(miss(1.0), goal(3.0, "A", "p2"), rest(4.0)).splitlines()
    match = MatchRow(id=1, table_id="t1", game="golf", players={"p1": "Ann", "p2": "Bob"}, started=0.0,
                     ended=None, result=None)
    sheet = rulings_html(match, log, "en")
    assert "no valid goal of their own: the turn passes to Bob" in sheet
    assert "valid goal in goal A: Bob stays at the table" in sheet
