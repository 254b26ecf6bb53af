"""The league page in a real browser (Playwright driving Debian's chromium) with more results
than its data carries (``view.RESULTS_SHOWN``): the earlier rounds are listed, each opens on
a click with all its results (fetched from ``/api/league/round``), stays open across the
page's polls and closes again; a round cut short says so and opens whole."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from league_broker import Broker, broker, free_port, serve_league  # noqa: F401 (the fixture)
from test_league_inbox import COMP
from test_league_page import ARGS, CHROMIUM
from test_league_page_bounded import store_matches

from tablesense.league import LeagueStore
from tablesense.league.inbox import Inbox
from tablesense.league.view import RESULTS_SHOWN, PageCache, league_json

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MATCHES = RESULTS_SHOWN + 13  # over six evenings: rounds 1-3 of 11 results, 4-6 of 10


@pytest.fixture
def served(broker: Broker, tmp_path: Path) -> Iterator[tuple[str, list[dict[str, Any]]]]:  # noqa: F811
    """The page's address and every round as the data held them before it was bounded."""
    db = tmp_path / "league.db"
    with LeagueStore(str(db)) as store:
        comp = store.create(COMP, season="2026-2027", profile="club")
        for name in ("Ann", "Bob", "Cor"):
            store.add_player(comp, name, 0.8)
        inbox = Inbox(store)
        store_matches(inbox, 0, MATCHES, days=6)
        rounds = json.loads(league_json(inbox, [], PageCache(), whole=True))["competitions"][0]["rounds"]
    http = free_port()
    proc = serve_league(broker, db, http, db.with_suffix(".log"))
    try:
        yield f"http://127.0.0.1:{http}/", rounds
    finally:
        proc.terminate()
        proc.wait(10)


def test_the_earlier_rounds_open_on_a_click_with_all_their_results(
        served: tuple[str, list[dict[str, Any]]]) -> None:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: `make browser` installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    url, rounds = served
    assert [len(r["results"]) for r in rounds] == [11, 11, 11, 10, 10, 10]
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = b.new_page()
            errors: list[Any] = []
            page.on("pageerror", lambda e: errors.append(e))
            page.goto(url)
            first = page.locator("h3", has_text=f"Round 1 ({rounds[0]['date']})")
            first.wait_for(timeout=15000)
            assert page.locator("h3", has_text="Round ").count() == 6, "every round listed"
            assert page.locator("h3", has_text="Round 1 (").locator("+ table").count() == 0, "not carried"
            cut = page.locator("h3", has_text="Round 2 (")
            assert cut.locator("+ p").inner_text() == "the newest 9 of 11"
            assert cut.locator("+ p + table tr").count() == 10
            first.locator("button", has_text="show its 11 results").click()
            page.locator("h3:has-text('Round 1 (') + table").wait_for(timeout=10000)
            page.wait_for_timeout(2500)  # a poll drew the page again: still open
            table = page.locator("h3:has-text('Round 1 (') + table")
            assert table.locator("tr").count() == 12
            text = table.inner_text()
            assert all(r["match"] in text for r in rounds[0]["results"]), "round 1, all of it"
            cut.locator("button", has_text="show all 11 results").click()
            page.locator("h3:has-text('Round 2 (') + table").wait_for(timeout=10000)
            assert page.locator("h3:has-text('Round 2 (') + table tr").count() == 12
            page.locator("h3:has-text('Round 1 (') button", has_text="hide").click()
            assert page.locator("h3:has-text('Round 1 (') + table").count() == 0
            main = page.locator("main").inner_text()
            assert all(r["match"] in main for rd in rounds[1:] for r in rd["results"])
            assert errors == []
        finally:
            b.close()
