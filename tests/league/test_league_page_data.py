"""The league page's data kept between polls (``view.PageCache``) is the data read whole,
after every kind of change: a new match, a revision replacing a result, a barrage marked, a
result entered by hand, a row that does not read, a new schedule; and several matches
stored in one transaction (``Inbox.commit``) come out as each stored alone."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from league_play import START, lines_of, match_events
from test_league_inbox import COMP, inbox, message  # noqa: F401 (the fixture)

from tablesense.league import LeagueStore, Player
from tablesense.league.fixtures import schedule
from tablesense.league.inbox import Inbox
from tablesense.league.messages import match_id
from tablesense.league.standings import make_result
from tablesense.league.view import PageCache, league_json


def polled(reader: Inbox, cache: PageCache) -> dict[str, Any]:
    """The page's data from the kept cache, checked against the same read whole (the bounded
    data and every result, ``whole=True``)."""
    kept = json.loads(league_json(reader, [], cache))
    fresh = json.loads(league_json(reader, [], None))
    kept.pop("now"), fresh.pop("now")
    assert kept == fresh
    every = json.loads(league_json(reader, [], cache, whole=True))
    every_fresh = json.loads(league_json(reader, [], None, whole=True))
    every.pop("now"), every_fresh.pop("now")
    assert every == every_fresh
    return kept


def shown(data: dict[str, Any]) -> list[tuple[str, str, list[int]]]:
    comp = data["competitions"][0]
    return [(r["p1"], r["p2"], r["points"]) for rd in comp["rounds"] for r in rd["results"]]


def test_the_page_kept_between_polls_is_the_page_read_whole_after_every_change(
        inbox: Inbox, tmp_path: Path) -> None:  # noqa: F811
    reader = Inbox(LeagueStore(str(tmp_path / "league.db")))  # the page's own connection, as in serve
    cache = PageCache()
    assert shown(polled(reader, cache)) == []
    first = lines_of(match_events("Ann", "Bob", 5, 7))
    assert inbox.take("kroeg", message("kroeg", first)).kind == "stored"
    assert inbox.take("kroeg", message("kroeg", lines_of(match_events("Bob", "Cor", 5, 7)),
                                       started=START + 86400)).kind == "stored"
    assert len(shown(polled(reader, cache))) == 2
    corrected = lines_of(match_events("Ann", "Bob", 5, 7, equalising=10))  # the same id, a revision
    assert inbox.take("kroeg", message("kroeg", corrected, revision=len(first) + 2)).kind == "replaced"
    data = polled(reader, cache)
    assert len(shown(data)) == 2, "replaced, not added"
    assert sum(r["played"] for r in data["competitions"][0]["standings"]) == 4
    assert inbox.take("zaal", message("zaal", lines_of(match_events("Cor", "Ann", 3, 4)),
                                      started=START + 3)).kind == "stored"
    polled(reader, cache)
    inbox.mark_barrage(match_id("zaal", "1", START + 3))
    rounds = polled(reader, cache)["competitions"][0]["rounds"]
    assert any(r["barrage"] for rd in rounds for r in rd["results"])
    store = inbox.store
    comp = store.competition(COMP)
    store.add_result(comp, make_result(Player("Ann", 0.8), Player("Cor", 0.8), (10, 7), (5, 5), (10, 10)))
    assert len(polled(reader, cache)["competitions"][0]["entered"]) == 1
    with store.db:  # a row no release writes
        store.db.execute("INSERT INTO results (competition_id, data) VALUES (?, '{\"p1\": 1}')", (comp.id,))
    assert len(polled(reader, cache)["unreadable"]) == 1
    store.set_schedule(comp, schedule({"": ["Ann", "Bob", "Cor"]}, dt.date.today(), 7))
    assert polled(reader, cache)["competitions"][0]["schedule"]["played"]
    with store.db:  # deleted by hand
        store.db.execute("DELETE FROM results WHERE id = (SELECT MAX(id) FROM results)")
    assert polled(reader, cache)["unreadable"] == []


def test_matches_stored_in_one_transaction_come_out_as_each_stored_alone(inbox: Inbox) -> None:  # noqa: F811
    lines = lines_of(match_events("Ann", "Bob", 5, 7))
    other = lines_of(match_events("Cor", "Bob", 5, 7))
    batch = [inbox.prepare("kroeg", message("kroeg", lines)),
             inbox.prepare("kroeg", message("kroeg", lines)),  # the same message again
             inbox.prepare("zaal", message("zaal", lines)),  # the same match from another pub
             inbox.prepare("kroeg", message("kroeg", other, started=START + 9)),
             inbox.prepare("kroeg", b"{")]
    kinds = [out.kind for out in inbox.commit(batch)]
    assert kinds == ["stored", "duplicate", "refused", "stored", "refused"]
    store = inbox.store
    assert [(r.p1, r.p2) for r in store.results(store.competition(COMP))] == [("Ann", "Bob"), ("Cor", "Bob")]
    assert len(inbox.refused()) == 2
