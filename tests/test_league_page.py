"""The league page in a real browser (Playwright driving Debian's chromium), served by a real
``tablesense league serve`` over a real Mosquitto: standings, results per round, live tables."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from league_broker import Broker, broker, free_port, wait_port  # noqa: F401 (the fixture)
from league_play import START, lines_of, match_events
from test_league_inbox import message

from tablesense.league import LeagueStore
from tablesense.league.inbox import Inbox

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
    live = {"pub": "hoek", "table": "2", "match": {"id": "hoek:2:1", "game": "carom", "started": START,
                                                  "players": {"p1": "Cor", "p2": "Ann"}},
            "summary": "Cor 7/20 - Ann 3/20", "finished": False, "score": {}}
    subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(broker.port), "-u", "hoek", "-P",
                    broker.passwords["hoek"], "-t", "tablesense/pubs/hoek/live/2", "-r", "-q", "1",
                    "-m", json.dumps(live)], check=True, timeout=10)
    http = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "tablesense", "league", "serve", "--broker",
                             broker.url("league"), "--db", str(db), "--http", f"127.0.0.1:{http}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_port(http, 20)
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
            assert page.locator("h3", has_text="Round 1").count() == 1
            assert f"kroeg table 1\tkroeg:1:{round(START * 1000)}" in page.locator("main").inner_text()
            refused = page.locator("#refused").inner_text()
            assert "Zed and Bob are not both members" in refused
            assert "hoek\thoek:?\tnot a JSON match message" in refused
            assert "Stored results that do not read" in refused
            assert errors == []
            if os.environ.get("LEAGUE_SHOT"):
                page.screenshot(path=os.environ["LEAGUE_SHOT"], full_page=True)
        finally:
            b.close()
