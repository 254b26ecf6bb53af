"""The league page in a real browser (Playwright driving Debian's chromium), served by a real
``tablesense league serve`` over a real Mosquitto: standings, results per round, live tables."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from league_broker import Broker, broker, free_port, serve_league, wait_port  # noqa: F401 (the fixture)
from league_play import START, game_lines, golf_events, lines_of, match_events
from test_league_inbox import message

from tablesense.league import LeagueStore
from tablesense.league.fixtures import schedule
from tablesense.league.inbox import Inbox
from tablesense.league.messages import encode, match_message

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]


@pytest.fixture
def page_url(broker: Broker, tmp_path: Path) -> Iterator[str]:  # noqa: F811
    db = tmp_path / "league.db"
    with LeagueStore(str(db)) as store:
        comp = store.create("Najaar 2026", season="2026-2027", profile="club")
        for name in ("Ann", "Bob", "Cor"):
            store.add_player(comp, name, 0.8)
        inbox = Inbox(store)
        played = message("kroeg", lines_of(match_events("Ann", "Bob", 5, 7)))
        assert inbox.take("kroeg", played).kind == "stored"
        stranger = message("zaal", lines_of(match_events("Zed", "Bob", 5, 7)))
        assert inbox.take("zaal", stranger).kind == "refused"
        assert inbox.take("hoek", b'{"v": 1, "started": NaN}').kind == "refused"
        with store.db:  # a row no release writes: listed apart, the page goes on
            store.db.execute("INSERT INTO results (competition_id, data) VALUES (1, '{\"p1\": NaN}')")
        golf = store.create("Golf 2026", game="golf")
        for name in ("Eva", "Fien", "Gus"):
            store.add_player(golf, name)
        store.set_schedule(golf, schedule({"": ["Eva", "Fien", "Gus"]}, dt.date.today(), 7))
        lines = game_lines(golf_events("Fien", "Eva", [("p1", 3), ("p1", 4)]))
        golf_msg = match_message("zaal", "2", START, "golf", {"p1": "Fien", "p2": "Eva"}, lines,
                                 {"winner": "p1", "frames_won": [2, 0]})
        assert inbox.take("zaal", encode(golf_msg)).kind == "stored"
        visite = store.create("Visite", scheme="visite-25")
        for team, pub, names in (("De Kroeg", "kroeg", ("Ann", "Bob")), ("De Zaal", "zaal", ("Cor", "Dirk"))):
            store.add_team(visite, team, pub)
            for name in names:
                store.add_player(visite, name, 0.8, team=team)
        later = dt.date.today() + dt.timedelta(days=3)
        store.set_schedule(visite, schedule({"": ["De Kroeg", "De Zaal"]}, later, 7))
    live = {"pub": "hoek", "table": "2", "match": {"id": "hoek:2:1", "game": "carom", "started": START,
                                                  "players": {"p1": "Cor", "p2": "Ann"}},
            "summary": "Cor 7/20 - Ann 3/20", "finished": False, "score": {}}
    subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(broker.port), "-u", "hoek", "-P",
                    broker.passwords["hoek"], "-t", "tablesense/pubs/hoek/live/2", "-r", "-q", "1",
                    "-m", json.dumps(live)], check=True, timeout=10)
    http = free_port()
    proc = serve_league(broker, db, http, db.with_suffix(".log"))
    try:
        yield f"http://127.0.0.1:{http}/"
    finally:
        proc.terminate()
        proc.wait(10)


def test_the_league_page_shows_standings_rounds_live_tables_and_refusals(page_url: str) -> None:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: `make browser` installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = b.new_page()
            errors: list[Any] = []
            page.on("pageerror", lambda e: errors.append(e))
            page.goto(page_url)
            page.wait_for_selector("text=hoek table 2: Cor 7/20 - Ann 3/20", timeout=15000)
            first = page.locator("main table").first.locator("tr").nth(1).inner_text()
            assert first.split("\t")[:2] == ["1", "Ann"] and "\t11\t" in first
            assert page.locator("h3", has_text="Round 1").count() == 2, "the carom and the golf competition"
            assert f"kroeg table 1\tkroeg:1:{round(START * 1000)}" in page.locator("main").inner_text()
            main = page.locator("main").inner_text()
            assert "Golf 2026 (najaar 2026-2027, golf, golf-frames)" not in main  # no season given
            golf = page.locator("h2", has_text="Golf 2026")
            assert golf.count() == 1 and "frames\tlost\tballs\tagainst" in main
            assert golf.inner_text() == "Golf 2026 (golf, golf-frames)", "no half season, no season"
            carom = page.locator("h2", has_text="Najaar 2026").inner_text()
            assert carom == "Najaar 2026 (najaar 2026-2027, libre)"
            assert "1\tFien\t1\t1\t0\t2\t2\t0\t10\t7" in main, "Fien: 2 frames, 10 balls to 7"
            assert "Fien\t2-0\tEva\t10-7\t2-0\tzaal table 2" in main
            assert page.locator("h3.next", has_text="Next: ").count() == 2, "golf today, the visite in 3 days"
            heads = [t.locator("tr").first.inner_text() for t in page.locator("h3.next + table").all()]
            assert heads == ["date\thome\taway", "date\thome\taway\tpub"], "a team's home pub, players' none"
            assert page.locator("h3.played", has_text="Played: 1 of 6").count() == 1
            assert "De Kroeg\tkroeg" in main and "De Zaal\tzaal" in main, "the team standings"
            refused = page.locator("#refused").inner_text()
            assert "Zed and Bob are not both members" in refused
            assert "hoek\thoek:?\tnot a JSON match message" in refused
            assert "Stored results that do not read" in refused
            assert errors == []
            if os.environ.get("LEAGUE_SHOT"):
                page.screenshot(path=os.environ["LEAGUE_SHOT"], full_page=True)
        finally:
            b.close()
