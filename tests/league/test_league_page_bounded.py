"""The league page's data is bounded however many results are stored: it carries each
competition's newest results in their rounds (``view.RESULTS_SHOWN``, ``ENTERED_SHOWN``) and
says how many there are in all; every earlier round, and every result entered by hand, is
reachable whole through ``/api/league/round`` and equal to what the data held before it was
bounded (``league_json(..., whole=True)``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from league_play import START, lines_of, match_events
from test_league_inbox import COMP, inbox, message  # noqa: F401 (the fixture)

from tablesense.league import LeagueStore, Player
from tablesense.league.inbox import Inbox
from tablesense.league.page import make_app, round_query
from tablesense.league.standings import make_result
from tablesense.league.view import ENTERED_SHOWN, RESULTS_SHOWN, PageCache, league_json, round_json

NAMES = ("Ann", "Bob", "Cor")
DAY = 86400.0


def store_matches(inbox: Inbox, first: int, n: int, days: int) -> None:  # noqa: F811
    """``n`` matches from kroeg, the ``first``-th first, spread over ``days`` evenings."""
    for k in range(first, first + n):
        events = match_events(NAMES[k % 3], NAMES[(k + 1) % 3], k % 9 + 1, k % 7 + 1)
        for e in events[1:]:  # each its own log (a league counts a log once)
            e["t"] = round(e["t"] + k, 6)
        started = START + (k % days) * DAY + k
        assert inbox.take("kroeg", message("kroeg", lines_of(events), started=started)).kind == "stored"


def enter_by_hand(inbox: Inbox, n: int) -> None:  # noqa: F811
    comp = inbox.store.competition(COMP)
    for k in range(n):
        inbox.store.add_result(comp, make_result(Player("Ann", 0.8), Player("Cor", 0.8), (10, k % 9),
                                                 (5, 5), (10, 10)))


def carried(data: dict[str, Any]) -> int:
    comp = data["competitions"][0]
    return sum(len(r["results"]) for r in comp["rounds"]) + len(comp["entered"])


def test_the_pages_data_does_not_grow_with_results_stored_beyond_the_bound(inbox: Inbox) -> None:  # noqa: F811
    cache = PageCache()
    store_matches(inbox, 0, RESULTS_SHOWN + 5, days=1)  # one evening: a round cut short
    enter_by_hand(inbox, ENTERED_SHOWN + 2)
    at_bound = league_json(inbox, [], cache)
    store_matches(inbox, RESULTS_SHOWN + 5, 3 * RESULTS_SHOWN, days=1)
    enter_by_hand(inbox, 3 * ENTERED_SHOWN)
    beyond = league_json(inbox, [], cache)
    data = json.loads(beyond)
    comp = data["competitions"][0]
    assert carried(data) == RESULTS_SHOWN + ENTERED_SHOWN
    assert comp["results_total"] == 4 * RESULTS_SHOWN + 5 and comp["rounds_total"] == 1
    assert comp["entered_total"] == 4 * ENTERED_SHOWN + 2
    assert comp["rounds"][0]["total"] == 4 * RESULTS_SHOWN + 5
    # the same number of results carried, a few digits of the counts more: never a result's worth
    assert len(beyond) - len(at_bound) < 60, (len(at_bound), len(beyond))
    whole = league_json(inbox, [], PageCache(), whole=True)
    assert len(whole) > 3 * len(beyond), "the bound is what keeps it small"


def test_the_newest_results_are_carried_and_the_earlier_rounds_are_listed(inbox: Inbox) -> None:  # noqa: F811
    store_matches(inbox, 0, 2 * RESULTS_SHOWN, days=8)  # 8 rounds of 12 or 13
    data = json.loads(league_json(inbox, [], PageCache()))
    whole = json.loads(league_json(inbox, [], PageCache(), whole=True))
    comp, every = data["competitions"][0], whole["competitions"][0]["rounds"]
    listed = [r["round"] for r in comp["earlier"]] + [r["round"] for r in comp["rounds"]]
    assert listed == list(range(1, len(every) + 1)) and comp["rounds_total"] == len(every)
    for r in comp["rounds"]:  # each carried round: its newest results, in their order
        full = every[r["round"] - 1]
        assert r["date"] == full["date"] and r["total"] == len(full["results"])
        assert r["results"] == full["results"][len(full["results"]) - len(r["results"]):]
    assert all(len(r["results"]) == r["total"] for r in comp["rounds"][1:]), "only the oldest cut short"
    for r in comp["earlier"]:
        full = every[r["round"] - 1]
        assert r["total"] == len(full["results"]) and r["date"] == full["date"]
    assert carried(data) == RESULTS_SHOWN


def test_a_league_under_the_bound_has_the_data_it_had(inbox: Inbox) -> None:  # noqa: F811
    store_matches(inbox, 0, 7, days=3)
    enter_by_hand(inbox, 2)
    data = json.loads(league_json(inbox, [], PageCache()))
    whole = json.loads(league_json(inbox, [], PageCache(), whole=True))
    comp, old = data["competitions"][0], whole["competitions"][0]
    assert [{k: v for k, v in r.items() if k != "total"} for r in comp["rounds"]] == old["rounds"]
    assert comp["entered"] == old["entered"] and comp["earlier"] == []


def test_every_round_and_every_result_entered_by_hand_is_reachable_as_the_whole_data_held_it(
        inbox: Inbox, tmp_path: Path) -> None:  # noqa: F811
    store_matches(inbox, 0, 3 * RESULTS_SHOWN, days=9)
    enter_by_hand(inbox, ENTERED_SHOWN + 3)
    reader = Inbox(LeagueStore(str(tmp_path / "league.db")))  # the page's own connection, as in serve
    cache = PageCache()
    comp = json.loads(league_json(reader, [], cache))["competitions"][0]
    old = json.loads(league_json(reader, [], PageCache(), whole=True))["competitions"][0]
    got = []
    for n in range(1, comp["rounds_total"] + 1):
        text = round_json(reader, cache, comp["id"], n)
        assert text is not None
        one = json.loads(text)
        assert one.pop("competition") == comp["id"] and one.pop("name") == COMP
        got.append(one)
    assert got == old["rounds"]
    entered = json.loads(round_json(reader, cache, comp["id"], None) or "{}")["entered"]
    assert entered == old["entered"]
    stored = inbox.store.results(inbox.store.competition(COMP))
    assert sum(len(r["results"]) for r in got) + len(entered) == len(stored)
    assert len(stored) == 3 * RESULTS_SHOWN + ENTERED_SHOWN + 3
    assert round_json(reader, cache, comp["id"], comp["rounds_total"] + 1) is None
    assert round_json(reader, cache, comp["id"] + 1, 1) is None


@pytest.mark.parametrize(("query", "words"), [
    ({}, "give competition= once"),
    ({"competition": "1"}, "give round= once"),
    ({"competition": "x", "round": "1"}, "competition is a competition's id"),
    ({"competition": "0", "round": "1"}, "competition is a competition's id"),
    ({"competition": "1", "round": "-1"}, "round is a round's number"),
    ({"competition": "1", "round": "1.5"}, "round is a round's number"),
    ({"competition": "1", "round": "٣"}, "round is a round's number"),  # a digit, not an ASCII one
    ({"competition": "1" * 40, "round": "1"}, "competition is a competition's id"),
])
def test_a_rounds_query_that_does_not_read_says_why(query: dict[str, str], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        round_query(query)


def test_a_rounds_query_reads_a_round_or_the_results_entered_by_hand() -> None:
    assert round_query({"competition": "3", "round": "12"}) == (3, 12)
    assert round_query({"competition": "3", "round": "entered"}) == (3, None)


async def test_the_round_endpoint_answers_a_round_400_on_a_bad_query_404_on_none_and_never_500(
        inbox: Inbox, tmp_path: Path) -> None:  # noqa: F811
    store_matches(inbox, 0, 4, days=2)
    reader = Inbox(LeagueStore(str(tmp_path / "league.db")))
    async with TestClient(TestServer(make_app(reader, list))) as client:
        data = await (await client.get("/api/league")).json()
        cid = data["competitions"][0]["id"]
        r = await client.get(f"/api/league/round?competition={cid}&round=2")
        assert r.status == 200
        assert (await r.json())["results"] == data["competitions"][0]["rounds"][1]["results"]
        r = await client.get(f"/api/league/round?competition={cid}&round=entered")
        assert r.status == 200 and (await r.json())["entered"] == []
        for path, status, words in (
                (f"/api/league/round?competition={cid}&round=3", 404, "no round 3 in competition"),
                (f"/api/league/round?competition={cid + 1}&round=1", 404, "no round 1 in competition"),
                (f"/api/league/round?competition={cid}", 400, "give round= once"),
                (f"/api/league/round?competition={cid}&round=1&round=2", 400, "give round= once"),
                ("/api/league/round?competition=%00&round=1", 400, "competition is"),
                ("/api/league/round?competition=1&round=" + "9" * 4000, 400, "round is"),
                (f"/api/league/round?competition={cid}&round=99999999999999999999", 400, "round is")):
            r = await client.get(path)
            assert r.status == status, path
            assert words in (await r.json())["error"], path
        reader.db.close()  # the file cannot be read: said, never a 500
        r = await client.get(f"/api/league/round?competition={cid}&round=1")
        assert r.status == 200 and (await r.json())["error"]
