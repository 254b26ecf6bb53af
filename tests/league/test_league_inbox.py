"""The league's check of the matches pubs send (``Inbox.take``), on a real league SQLite file:
the result the engine computes from the log is kept, once; what does not fit is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from league_play import START, game_lines, golf_events, lines_of, match_events
from test_carom_helpers import Table, setup

from tablesense.league import LeagueStore
from tablesense.league.inbox import Inbox
from tablesense.league.messages import encode, match_id, match_message, reported
from tablesense.replay import Replay

COMP = "Najaar 2026"


@pytest.fixture
def inbox(tmp_path: Path) -> Inbox:
    store = LeagueStore(str(tmp_path / "league.db"))
    comp = store.create(COMP, season="2026-2027", profile="club")
    for name in ("Ann", "Bob", "Cor"):
        store.add_player(comp, name, 0.8)
    return Inbox(store)


def message(pub: str, lines: list[str], started: float = START, **over: object) -> bytes:
    rep = Replay().feed_lines(lines)
    assert rep.engine is not None and rep.state is not None
    first = json.loads(lines[0])
    told = reported(rep.engine.to_json(rep.state))
    msg = match_message(pub, "1", started, "carom", first["players"], lines, told)
    msg.update(over)
    return encode(msg)


def results(inbox: Inbox) -> list[tuple[str, str, tuple[int, int]]]:
    store = inbox.store
    return [(r.p1, r.p2, r.caroms) for r in store.results(store.competition(COMP))]


def test_a_match_sent_twice_counts_once(inbox: Inbox) -> None:
    raw = message("kroeg", lines_of(match_events("Ann", "Bob", 5, 7)))
    assert inbox.take("kroeg", raw).kind == "stored"
    assert inbox.take("kroeg", raw).kind == "duplicate"
    assert results(inbox) == [("Ann", "Bob", (20, 19))]


def test_a_member_or_an_alias_added_while_the_league_runs_counts_for_the_next_match(inbox: Inbox,
                                                                                  tmp_path: Path) -> None:
    """The members are read once and kept while only results come in, but a player added
    meanwhile (by a ``league`` command: another connection) or an alias (this one) counts."""
    dan = lines_of(match_events("Dan", "Cor", 5, 7))
    assert inbox.take("kroeg", message("kroeg", dan, START + 1)).kind == "refused"
    other = LeagueStore(str(tmp_path / "league.db"))  # the league command's own connection
    other.add_player(other.competition(COMP), "Dan", 0.8)
    other.db.close()
    assert inbox.take("kroeg", message("kroeg", dan, START + 2)).kind == "stored"
    annie = lines_of(match_events("annie", "Bob", 5, 7))
    assert inbox.take("kroeg", message("kroeg", annie, START + 3)).kind == "refused"
    inbox.alias(inbox.store.competition(COMP), "annie", "Ann")
    assert inbox.take("kroeg", message("kroeg", annie, START + 4)).kind == "stored"
    assert [r[:2] for r in results(inbox)] == [("Dan", "Cor"), ("Ann", "Bob")]


def test_a_later_revision_of_the_same_match_replaces_its_result(inbox: Inbox) -> None:
    first = lines_of(match_events("Ann", "Bob", 5, 7))
    assert inbox.take("kroeg", message("kroeg", first)).kind == "stored"
    # the referee corrected the match after its end (a void): same match, more events logged
    corrected = lines_of(match_events("Ann", "Bob", 5, 7, equalising=10))
    out = inbox.take("kroeg", message("kroeg", corrected, revision=len(first) + 2))
    assert out.kind == "replaced", out
    assert results(inbox) == [("Ann", "Bob", (20, 17))]
    older = inbox.take("kroeg", message("kroeg", first))
    assert older.kind == "duplicate", "an older revision changes nothing"
    assert results(inbox) == [("Ann", "Bob", (20, 17))]


def test_a_pubs_name_for_a_member_is_mapped_by_an_alias(inbox: Inbox) -> None:
    lines = lines_of(match_events("annie", "Bob", 5, 7))
    out = inbox.take("kroeg", message("kroeg", lines))
    assert out.kind == "refused" and "tablesense league alias" in out.text
    inbox.alias(inbox.store.competition(COMP), "annie", "Ann", pub="kroeg")
    assert inbox.take("zaal", message("zaal", lines)).kind == "refused", "the alias is kroeg's only"
    assert inbox.take("kroeg", message("kroeg", lines, started=START + 2000)).kind == "stored"
    assert results(inbox) == [("Ann", "Bob", (20, 19))]


@pytest.mark.parametrize(("pub", "over", "reason"), [
    ("zaal", {}, "says it is from 'kroeg' but zaal sent it"),
    ("kroeg", {"id": "zaal:1:5"}, "is not one of kroeg's"),
    ("kroeg", {"v": 9}, "message version 9"),
    ("kroeg", {"log": []}, "no event log"),
    ("kroeg", {"result": {"winner": "p1", "caroms": [20, 18], "innings": [2, 2], "targets": [20, 20]}},
     "caroms [20, 18] (log: [20, 19])"),
    ("kroeg", {"competition": "Voorjaar"}, "no competition 'Voorjaar'"),
])
def test_a_message_that_does_not_fit_is_refused_with_its_reason(inbox: Inbox, pub: str,
                                                                over: dict[str, object], reason: str) -> None:
    out = inbox.take(pub, message("kroeg", lines_of(match_events("Ann", "Bob", 5, 7)), **over))
    assert out.kind == "refused" and reason in out.text, out
    assert results(inbox) == []
    assert [r[2] for r in inbox.refused()] == [out.text]


def test_an_unfinished_match_or_one_of_a_game_without_a_competition_is_no_result(inbox: Inbox) -> None:
    golf = [json.dumps({"t": 0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}})]
    assert "not finished" in inbox.take("kroeg", encode(match_message(
        "kroeg", "1", START, "golf", {"p1": "Ann", "p2": "Bob"}, golf, {}))).text
    played = game_lines(golf_events("Ann", "Bob", [("p1", 2), ("p1", 0)]))
    msg = match_message("kroeg", "1", START + 9, "golf", {"p1": "Ann", "p2": "Bob"}, played,
                        {"winner": "p1", "frames_won": [2, 0]})
    said = inbox.take("kroeg", encode(msg)).text
    assert "Ann and Bob are not both members of any golf competition" in said
    half = lines_of(match_events("Ann", "Bob", 5, 7)[:5])
    assert "not finished" in inbox.take("kroeg", message("kroeg", half)).text


def test_a_kampioen_match_below_twenty_is_refused(inbox: Inbox) -> None:
    t = Table(setup(targets={"p1": 15, "p2": 20}))
    t.events[0]["players"] = {"p1": "Ann", "p2": "Bob"}
    t.run(15)
    t.run(3).piezo()
    out = inbox.take("kroeg", message("kroeg", lines_of(t.events)))
    assert out.kind == "refused" and "target 15 for Ann" in out.text and "carom.target.minimum" in out.text
    assert results(inbox) == []


def test_a_match_marked_as_the_barrage_decides_the_top_and_counts_for_nothing_else(inbox: Inbox) -> None:
    from tablesense.league import standings, winner

    store = inbox.store
    comp = store.competition(COMP)
    inbox.take("kroeg", message("kroeg", lines_of(match_events("Ann", "Bob", 5, 7)), started=START + 1))
    inbox.take("kroeg", message("kroeg", lines_of(match_events("Bob", "Ann", 5, 7)), started=START + 2))
    assert winner(standings(store.players(comp), store.results(comp)))[1] == ["Ann", "Bob"]
    inbox.take("zaal", message("zaal", lines_of(match_events("Bob", "Ann", 3, 4)), started=START + 3))
    inbox.mark_barrage(match_id("zaal", "1", START + 3))
    rows = standings(store.players(comp), store.results(comp))
    assert winner(rows) == ("Bob", [])
    assert {r.name: (r.played, r.points) for r in rows}["Bob"] == (2, 20), "a barrage adds no points"
    again = inbox.take("zaal", message("zaal", lines_of(match_events("Bob", "Ann", 3, 4)), started=START + 3,
                                       revision=999))
    assert again.kind == "replaced" and all(r.barrage for r in store.results(comp)[2:])
