"""The web app over a real server: read-only public pages, the protected referee API, live updates."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from paths import ROOT

from tablesense.events import parse_event
from tablesense.pub import Pub
from tablesense.texts import LANGS
from tablesense.web.guard import TOKEN_HEADER, tv_code
from tablesense.web.messages import IN_FLIGHT, Pace
from tablesense.web.pages import strings

PLAYERS = {"p1": "Ann", "p2": "Bob"}
SETUP = {"game": "golf", "players": PLAYERS}


def _auth(pub: Pub, table: str = "1", **extra: str) -> dict[str, str]:
    return {TOKEN_HEADER: pub.table(table).token, **extra}


async def test_public_pages_are_served(app) -> None:  # type: ignore[no-untyped-def]
    _pub, url, http = app
    for path in ("/", "/table/1", "/overlay/1", "/table/1?overlay=1", "/ref/1", "/history/1",
                 "/static/tv.js", "/static/ref.js", "/api/tables", "/api/table/1", "/i18n/da.json"):
        async with http.get(url + path) as r:
            assert r.status == 200, path
    async with http.get(url + "/table/9") as r:
        assert r.status == 404


async def test_change_without_token_is_refused(app) -> None:  # type: ignore[no-untyped-def]
    pub, url, http = app
    async with http.post(f"{url}/api/table/1/setup", json=SETUP) as r:
        assert r.status == 403
        assert "token" in await r.text()
    async with http.post(f"{url}/api/table/1/setup", json=SETUP, headers={TOKEN_HEADER: "guess"}) as r:
        assert r.status == 403
    async with http.post(f"{url}/api/table/1/setup", json=SETUP, headers=_auth(pub, "2")) as r:
        assert r.status == 403  # another table's token
    assert pub.snapshot("1")["match"] is None


async def test_forged_origin_is_refused_even_with_the_token(app) -> None:  # type: ignore[no-untyped-def]
    pub, url, http = app
    for headers in (_auth(pub, Origin="http://evil.example"), _auth(pub, Origin="null"),
                    _auth(pub, **{"Sec-Fetch-Site": "cross-site"})):
        async with http.post(f"{url}/api/table/1/setup", json=SETUP, headers=headers) as r:
            assert r.status == 403
            assert "another site" in await r.text()
    assert pub.snapshot("1")["match"] is None


async def test_referee_with_token_starts_a_match_and_calls(app) -> None:  # type: ignore[no-untyped-def]
    pub, url, http = app
    async with http.post(f"{url}/api/table/1/setup", json=SETUP, headers=_auth(pub, Origin=url)) as r:
        assert r.status == 200
        assert (await r.json())["match"] == 1
    async with http.get(f"{url}/api/table/1") as r:
        snap = await r.json()
    assert snap["match"]["players"] == PLAYERS and snap["state"]["game"] == "golf"
    async with http.post(f"{url}/api/table/1/call", json={"call": "start", "player": "p2"},
                         headers=_auth(pub)) as r:
        assert r.status == 200
    assert pub.snapshot("1")["state"]["at_table"] == "p2"


async def test_token_in_the_body_works_too(app) -> None:  # type: ignore[no-untyped-def]
    pub, url, http = app
    async with http.post(f"{url}/api/table/1/setup", json={**SETUP, "token": pub.table("1").token}) as r:
        assert r.status == 200


async def test_referee_mistakes_come_back_as_plain_reasons(app) -> None:  # type: ignore[no-untyped-def]
    pub, url, http = app
    async with http.post(f"{url}/api/table/1/call", json={"call": "undo"}, headers=_auth(pub)) as r:
        assert r.status == 400
        assert "no match is running" in (await r.json())["error"]
    async with http.post(f"{url}/api/table/1/setup", json={"game": "snooker", "players": PLAYERS},
                         headers=_auth(pub)) as r:
        assert r.status == 400
        assert "unknown game 'snooker'" in (await r.json())["error"]
    async with http.post(f"{url}/api/table/1/setup", data=b"{not json", headers=_auth(pub)) as r:
        assert r.status == 400
    async with http.post(f"{url}/api/table/1/void", json={"from": "x"}, headers=_auth(pub)) as r:
        assert r.status == 400  # the panel shows the reason as it shows every other one
        assert "void needs 'from' and 'to'" in (await r.json())["error"]
    async with http.post(f"{url}/api/table/1/sensors", json={"answer": True}, headers=_auth(pub)) as r:
        assert r.status == 400
        assert "an answer needs 'question'" in (await r.json())["error"]
    async with http.post(f"{url}/api/table/1/lang", json={"lang": "fr"}, headers=_auth(pub)) as r:
        assert r.status == 400
        assert "error" in await r.json()


async def test_websocket_pushes_each_new_event(app) -> None:  # type: ignore[no-untyped-def]
    pub, url, http = app
    async with http.ws_connect(f"{url}/ws/1") as ws:
        first = json.loads((await ws.receive(timeout=2)).data)
        assert first["match"] is None
        pub.start_match("1", SETUP)
        pub.submit("1", parse_event({"t": 1.0, "type": "goal", "goal": "B", "ball": "p1"}))
        seen = []
        while not seen or seen[-1]["ticker"][-1]["type"] != "goal":
            seen.append(json.loads((await ws.receive(timeout=2)).data))
        assert seen[-1]["ticker"][-1]["goal"] == "B"


async def test_a_page_that_answers_is_sent_the_newest_state_not_a_queue(app) -> None:  # type: ignore[no-untyped-def]
    """A page that has ``IN_FLIGHT`` messages unanswered (busy showing them) is sent nothing
    more; its answer brings the newest snapshot of the changes meanwhile, in one message."""
    pub, url, http = app

    async def receive() -> dict[str, Any]:
        return json.loads((await ws.receive(timeout=2)).data)

    def cushion(t: float) -> None:
        pub.submit("1", parse_event({"t": t, "type": "cushion", "cushion": 1, "ball": None}))

    async with http.ws_connect(f"{url}/ws/1?ack=1") as ws:
        assert (await receive())["match"] is None
        pub.start_match("1", SETUP)
        for n in range(1, IN_FLIGHT):  # each change comes at once while fewer are unanswered
            cushion(float(n))
            assert (await receive())["ticker"][-1]["t"] == float(n)
        for t in (20.0, 21.0, 22.0):
            cushion(t)
        with pytest.raises(TimeoutError):
            await ws.receive(timeout=0.3)  # IN_FLIGHT unanswered: nothing comes
        await ws.send_str("1")
        newest = await receive()
        assert newest["version"] == pub.table("1").version
        assert [e["t"] for e in newest["ticker"]][-3:] == [20.0, 21.0, 22.0]
        cushion(23.0)
        with pytest.raises(TimeoutError):
            await ws.receive(timeout=0.3)


async def test_overview_page_is_sent_each_changed_table_when_it_has_answered(app) -> None:  # type: ignore[no-untyped-def]
    pub, url, http = app
    async with http.ws_connect(f"{url}/ws?ack=1") as ws:
        for _ in range(2):  # a table each
            await ws.receive(timeout=2)
        for n in range(IN_FLIGHT - 2):
            pub.set_lang("1", ("nl", "en")[n % 2])
            await ws.receive(timeout=2)
        pub.set_lang("1", "da")
        pub.set_lang("2", "da")
        with pytest.raises(TimeoutError):
            await ws.receive(timeout=0.3)
        await ws.send_str("1")
        snaps = [json.loads((await ws.receive(timeout=2)).data) for _ in range(2)]
        assert {(s["table"], s["lang"]) for s in snaps} == {("1", "da"), ("2", "da")}


def test_answers_beyond_the_messages_sent_count_for_nothing() -> None:
    pace = Pace(acks=True)
    assert pace.free()
    pace.sending()
    for _ in range(5):
        pace.answered()
    for _ in range(IN_FLIGHT):
        pace.sending()
    assert not pace.free()
    assert pace.answered() and pace.free()
    plain = Pace(acks=False)  # a client that did not ask: every change, at once
    for _ in range(5):
        plain.sending()
    assert plain.free() and not plain.answered()


async def test_overview_websocket_covers_every_table(app) -> None:  # type: ignore[no-untyped-def]
    pub, url, http = app
    async with http.ws_connect(f"{url}/ws") as ws:
        tables = {json.loads((await ws.receive(timeout=2)).data)["table"] for _ in range(2)}
        assert tables == {"1", "2"}
        pub.set_lang("2", "nl")
        snap = json.loads((await ws.receive(timeout=2)).data)
        assert (snap["table"], snap["lang"]) == ("2", "nl")
        assert all(len(pub.table(t).listeners) == 1 for t in ("1", "2"))  # it follows the pub's tables
    for _ in range(200):  # the screen gone, the pub no longer wakes it (Pub.unsubscribe)
        if not any(pub.table(t).listeners for t in ("1", "2")):
            break
        await asyncio.sleep(0.02)
    assert not any(pub.table(t).listeners for t in ("1", "2"))


async def test_export_history_rulings_and_score_sheet(app) -> None:  # type: ignore[no-untyped-def]
    pub, url, http = app
    match_id = pub.start_match("1", SETUP)
    for e in ({"t": 1.0, "type": "goal", "goal": "B", "ball": "p1"}, {"t": 2.0, "type": "rest"}):
        pub.submit("1", parse_event(e))
    async with http.get(f"{url}/match/{match_id}.jsonl") as r:
        lines = (await r.text()).splitlines()
    assert [json.loads(x)["type"] for x in lines] == ["setup", "goal", "rest"]
    async with http.get(f"{url}/match/{match_id}/rulings") as r:
        rulings = await r.text()
    assert "Ann" in rulings and "Bob" in rulings and "golf.goal" in rulings and "<h1>Rulings" in rulings
    assert "p1:" not in rulings and "p2:" not in rulings  # the players by name
    assert f"href='/sheet/{match_id}'" in rulings  # the club's score sheet, one tap away
    async with http.get(f"{url}/history/1") as r:
        history = await r.text()
    # one score sheet (the club's) and the rulings, each under its own name
    assert f"<a href='/sheet/{match_id}'>Score sheet</a>" in history
    assert f"<a href='/match/{match_id}/rulings'>Rulings</a>" in history
    async with http.get(f"{url}/sheet/{match_id}") as r:
        assert r.status == 200 and "<h1>Score sheet" in await r.text()
    async with http.get(f"{url}/match/{match_id}/sheet", allow_redirects=False) as r:  # an old link
        assert r.status == 301 and r.headers["Location"] == f"/sheet/{match_id}"
    async with http.get(f"{url}/api/table/1/matches") as r:
        assert (await r.json())["matches"][0]["players"] == PLAYERS
    async with http.get(f"{url}/match/999.jsonl") as r:
        assert r.status == 404


async def test_qr_code_is_svg_and_differs_per_table(app) -> None:  # type: ignore[no-untyped-def]
    pub, url, http = app
    bodies = []
    for table in ("1", "2"):  # on a TV paired with the table (tests/web/test_web_access.py)
        code = tv_code(pub.table(table).token)
        async with http.post(f"{url}/api/table/{table}/tv", json={"code": code}) as r:
            assert r.status == 200
        async with http.get(f"{url}/api/table/{table}/qr.svg") as r:
            assert r.content_type == "image/svg+xml"
            bodies.append(await r.read())
    assert bodies[0].startswith(b"<svg") and bodies[0] != bodies[1]


async def test_void_over_http_corrects_a_shot(app) -> None:  # type: ignore[no-untyped-def]
    pub, url, http = app
    pub.start_match("1", SETUP)
    for e in ({"t": 1.0, "type": "goal", "goal": "B", "ball": "p1"}, {"t": 2.0, "type": "rest"}):
        pub.submit("1", parse_event(e))
    async with http.get(f"{url}/api/table/1/log") as r:
        item = (await r.json())["items"][0]
    async with http.post(f"{url}/api/table/1/void", json={"from": item["first"], "to": item["last"]}) as r:
        assert r.status == 403
    async with http.post(f"{url}/api/table/1/void", json={"from": item["first"], "to": item["last"]},
                         headers=_auth(pub)) as r:
        assert r.status == 200
    assert pub.snapshot("1")["state"]["balls_left"] == {"p1": 5, "p2": 5}


def test_every_language_has_every_string() -> None:
    # corners: the rulings' own words; lang.<code>: each language's name in itself
    english = {k for k in strings("en") if not k.startswith(("corner.", "lang."))}
    for lang in LANGS:
        path = ROOT / "host/tablesense/texts" / lang / "screen.json"
        assert set(json.loads(path.read_text(encoding="utf-8"))) == english, lang
        assert strings(lang).keys() == strings("en").keys(), lang
    assert strings("nl")["table"] == "Tafel" and strings("da")["table"] == "Bord"
    assert strings("nl")["corner.head-left"] == "linksonder"


async def test_serve_feeds_table_sources(tmp_path: Path) -> None:
    from tablesense.pipeline import serve

    ready: asyncio.Future[tuple[str, Pub]] = asyncio.get_running_loop().create_future()

    async def source() -> AsyncIterator:  # type: ignore[type-arg]
        yield parse_event({"t": 0.0, "type": "setup", "game": "golf", "players": PLAYERS})
        yield parse_event({"t": 1.0, "type": "goal", "goal": "B", "ball": "p1"})

    task = asyncio.create_task(serve({"1": source(), "2": None}, port=0, db=str(tmp_path / "pub.db"),
                                     on_ready=lambda url, pub: ready.set_result((url, pub))))
    url, pub = await asyncio.wait_for(ready, 5)
    for _ in range(100):
        if pub.snapshot("1")["ticker"] and pub.snapshot("1")["ticker"][-1]["type"] == "goal":
            break
        await asyncio.sleep(0.01)
    async with aiohttp.ClientSession() as http, http.get(f"{url}/api/table/1") as r:
        assert (await r.json())["ticker"][-1]["type"] == "goal"
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_a_late_scoreboard_gets_the_hosts_clock_of_now(app) -> None:  # type: ignore[no-untyped-def]
    pub, url, http = app
    pub.start_match("1", SETUP)
    pub.submit("1", parse_event({"t": 1.0, "type": "rest"}))
    first = json.loads(pub.snapshot_message("1"))
    await asyncio.sleep(0.2)  # a TV that connects later, with nothing new on the table
    async with http.get(f"{url}/api/table/1") as r:
        later = await r.json()
    assert later["version"] == first["version"] and later["rest_at"] == first["rest_at"]
    assert later["now"] - first["now"] >= 0.2  # the turn clock is measured against the host's now


async def test_the_rulings_page_lists_the_rulings_that_stand(app) -> None:  # type: ignore[no-untyped-def]
    pub, url, http = app
    match_id = pub.start_match("1", SETUP)
    for e in ({"t": 1.0, "type": "goal", "goal": "B", "ball": "p1"}, {"t": 2.0, "type": "rest"}):
        pub.submit("1", parse_event(e))
    pub.call("1", {"call": "undo"})
    pub.set_lang("1", "nl")
    async with http.get(f"{url}/match/{match_id}/rulings") as r:
        sheet = await r.text()
    assert "golf.goal" not in sheet  # undone: not among the rulings
    assert "Afdrukken" in sheet and "Beslissingen" in sheet  # the table's language
    assert "Scoreformulier" in sheet  # the link to the score sheet
