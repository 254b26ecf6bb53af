"""What the screens get from the host: the view in each snapshot, the panel's buttons, the
paired TV's keyboard, the demo's referee link at the LAN address."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tablesense.errors import TablesenseError
from tablesense.events import parse_event
from tablesense.pub import Pub
from tablesense.store import Store
from tablesense.web.guard import TOKEN_HEADER, tv_code
from tablesense.web.qr import qr_svg
from tablesense.web.server import start

SETUP = {"game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}


async def test_snapshot_tells_the_last_shot_and_what_undo_takes_back(app: Any) -> None:
    pub, url, http = app
    pub.start_match("1", SETUP)
    pub.set_lang("1", "da")
    for e in ({"t": 1.0, "type": "goal", "goal": "B", "ball": "p1"}, {"t": 2.0, "type": "rest"}):
        pub.submit("1", parse_event(e))
    async with http.get(f"{url}/api/table/1") as r:
        view = (await r.json())["view"]
    assert view["last_shot"] == "Ann scorer, spiller videre"
    assert view["undo"] == "Fortryd stød 1"
    assert view["colours"] == {"p1": "red", "p2": "yellow"}


async def test_panel_lists_the_matchs_fouls_in_the_tables_language(app: Any) -> None:
    pub, url, http = app
    async with http.get(f"{url}/api/table/1/panel") as r:
        assert (await r.json()) == {"game": None, "fouls": []}
    pub.start_match("1", {"game": "carom", "discipline": "libre", "players": {"p1": "Joop", "p2": "Kees"}})
    pub.set_lang("1", "nl")
    async with http.get(f"{url}/api/table/1/panel") as r:
        panel = await r.json()
    labels = {f["call"]: f["label"] for f in panel["fouls"]}
    assert labels["wrong-ball"] == "Verkeerde bal" and "smoking" not in labels  # kampioen rules
    assert "table" not in panel  # no replacement spots in carom
    pub.start_match("2", SETUP)
    async with http.get(f"{url}/api/table/2/panel") as r:
        golf = await r.json()
    assert len(golf["table"]["spots"]["p1"]) == 5


async def test_a_paired_tv_calls_without_the_token_an_unpaired_one_cannot(app: Any) -> None:
    pub, url, http = app
    pub.start_match("1", {"game": "carom", "discipline": "libre", "players": {"p1": "Joop", "p2": "Kees"}})
    for e in ({"t": 1.0, "type": "cushion", "cushion": 1, "ball": None}, {"t": 2.0, "type": "rest"}):
        pub.submit("1", parse_event(e))
    async with http.post(f"{url}/api/table/1/call", json={"call": "carom"}) as r:
        assert r.status == 403  # not paired: the token is needed
    async with http.post(f"{url}/api/table/1/tv", json={"code": tv_code(pub.table("1").token)}) as r:
        assert r.status == 200
    async with http.post(f"{url}/api/table/1/call", json={"call": "carom"}) as r:
        assert r.status == 200, await r.text()  # Space at the TV: +1
    assert pub.snapshot("1")["state"]["caroms"]["p1"] == 1
    async with http.post(f"{url}/api/table/2/call", json={"call": "carom"}) as r:
        assert r.status == 403  # paired with table 1, not 2
    async with http.post(f"{url}/api/table/1/setup", json=SETUP) as r:
        assert r.status == 403  # the TV's keys call; starting a match takes the referee's token
    async with http.post(f"{url}/api/table/1/call", json={"call": "undo"},
                         headers={TOKEN_HEADER: "wrong"}) as r:
        assert r.status == 403  # a wrong token is wrong, paired or not


async def test_the_qr_code_holds_the_public_address_with_the_port_bound(tmp_path: Path) -> None:
    import aiohttp

    pub = Pub(Store(str(tmp_path / "pub.db")), ["1"])
    runner, url = await start(pub, port=0, public_url="http://192.0.2.7:{port}")
    port = url.rsplit(":", 1)[1]
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            async with http.post(f"{url}/api/table/1/tv", json={"code": tv_code(pub.table("1").token)}) as r:
                assert r.status == 200
            async with http.get(f"{url}/api/table/1/qr.svg") as r:
                svg = await r.read()
        assert svg == qr_svg(f"http://192.0.2.7:{port}/ref/1?token={pub.table('1').token}")
    finally:
        await runner.cleanup()


async def test_the_history_names_the_winner_and_the_players_never_p1_p2(app: Any) -> None:
    pub, url, http = app
    pub.start_match("1", {"game": "carom", "discipline": "libre", "players": {"p1": "Joop", "p2": "Kees"},
                          "targets": {"p1": 1, "p2": 1}})
    for e in ({"t": 1.0, "type": "cushion", "cushion": 1, "ball": None}, {"t": 2.0, "type": "rest"}):
        pub.submit("1", parse_event(e))
    pub.call("1", {"call": "carom"})
    for e in ({"t": 3.0, "type": "cushion", "cushion": 1, "ball": None}, {"t": 4.0, "type": "rest"}):
        pub.submit("1", parse_event(e))  # Kees's equalising inning: a miss
    assert pub.snapshot("1")["state"]["winner"] == "p1"
    async with http.get(f"{url}/history/1") as r:
        page = await r.text()
    assert "Winner: Joop" in page
    assert not re.search(r"\bp[12]\b", page.split("<table>")[1])  # the rows: names only


def test_screens_get_the_apis_snapshot_in_every_recorded_match() -> None:
    """The WebSocket's message (``web.messages``: encoded once per version and cut by the
    pub, shared by the screens) says what ``GET /api/table/<id>`` says, but for the moment it is sent and
    the rulings before the newest eight (their number is said): at every tenth line and
    at the end of every recorded match."""
    import json

    from paths import MATCHES

    from tablesense.events import BadEvent, parse_line
    from tablesense.web.messages import message
    from tablesense.web.view import view

    compared = 0
    for path in sorted(MATCHES.glob("*/*.jsonl")):
        pub = Pub(Store(":memory:"), ["1"])  # no disk sync per line: the message is what is tested
        pub.view = view
        lines = path.read_text().splitlines()
        for n, line in enumerate(lines, 1):
            try:
                pub.submit("1", parse_line(line))
            except (BadEvent, TablesenseError):
                continue  # a recorded mistake: the pub refuses it, the screens show nothing new
            if n % 10 and n != len(lines):
                continue
            sent = json.loads(message(pub, "1"))
            api = json.loads(pub.snapshot_message("1"))
            assert sent.pop("now") >= api.pop("now") - 1.0
            if api["state"] is not None:
                rulings = api["state"]["rulings"]
                assert sent["state"].pop("rulings_count") == len(rulings)
                api["state"]["rulings"] = rulings[-8:]
            assert sent == api, (path.name, n)
            compared += 1
    assert compared > 400
