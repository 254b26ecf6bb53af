"""Who gets in: the referee token is on no public page or image; the QR code is for a paired TV;
a foreign Host header (DNS rebinding) is refused."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import aiohttp
import pytest

from tablesense.events import parse_event
from tablesense.pub import Pub
from tablesense.store import Store
from tablesense.web import guard
from tablesense.web.qr import qr_svg
from tablesense.web.server import start

SETUP = {"game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}


def _code(pub: Pub, table: str = "1") -> str:
    return guard.tv_code(pub.table(table).token)


async def _pair(http: aiohttp.ClientSession, url: str, table: str, code: str) -> int:
    async with http.post(f"{url}/api/table/{table}/tv", json={"code": code}) as r:
        return r.status


async def test_no_public_page_or_api_carries_a_token(app) -> None:  # type: ignore[no-untyped-def]
    pub, url, http = app
    match_id = pub.start_match("1", SETUP)
    pub.submit("1", parse_event({"t": 1.0, "type": "goal", "goal": "B", "ball": "p1"}))
    tokens = [pub.table(t).token for t in ("1", "2")]
    codes = [_code(pub, t) for t in ("1", "2")]
    paths = ["/", "/table/1", "/overlay/1", "/table/1?qr=0", "/ref/1", "/history/1", "/api/tables",
             "/api/table/1", "/api/table/1/log", "/api/table/1/matches", "/api/table/1/tv",
             f"/match/{match_id}.jsonl", f"/match/{match_id}.jsonl?raw=1", f"/match/{match_id}/sheet",
             f"/match/{match_id}/rulings", f"/sheet/{match_id}",
             "/static/tv.js", "/static/ref.js", "/static/common.js", "/i18n/en.json"]
    for path in paths:
        async with http.get(url + path) as r:
            assert r.status == 200, path
            body = await r.text()
        for secret in tokens + codes:
            assert secret not in body, path
    async with http.ws_connect(f"{url}/ws") as ws:
        for _ in range(2):
            text = (await ws.receive(timeout=2)).data
            assert not any(secret in text for secret in tokens + codes)


async def test_qr_code_is_refused_to_anyone_but_a_paired_tv(app) -> None:  # type: ignore[no-untyped-def]
    _pub, url, http = app
    for path in ("/api/table/1/qr.svg", "/api/table/1/qr.svg?qr=0", "/api/table/1/qr.svg?tv=1"):
        async with http.get(url + path) as r:
            assert r.status == 403, path
            assert "TV" in await r.text()
    forged = {guard.tv_cookie_name("1"): "0" * 64}
    async with http.get(f"{url}/api/table/1/qr.svg", cookies=forged) as r:
        assert r.status == 403
    async with http.get(f"{url}/api/table/1/tv") as r:
        assert (await r.json())["paired"] is False


async def test_a_paired_tv_gets_the_qr_of_its_own_table_only(app) -> None:  # type: ignore[no-untyped-def]
    pub, url, http = app
    assert await _pair(http, url, "1", _code(pub, "2")) == 403  # table 2's code does not pair table 1
    async with http.post(f"{url}/api/table/1/tv", json={"code": _code(pub)}) as r:
        assert r.status == 200
        cookie = r.cookies[guard.tv_cookie_name("1")]
    assert cookie["httponly"] and cookie["samesite"] == "Strict" and cookie["path"] == "/"
    assert pub.table("1").token not in cookie.value  # the cookie is not the token
    async with http.get(f"{url}/api/table/1/tv") as r:
        assert (await r.json())["paired"] is True
    async with http.get(f"{url}/api/table/1/qr.svg") as r:
        assert r.status == 200 and r.content_type == "image/svg+xml"
        assert r.headers["Cache-Control"] == "no-store"
        svg = await r.read()
    assert svg == qr_svg(f"{url}/ref/1?token={pub.table('1').token}")  # what the phone scans
    async with http.get(f"{url}/api/table/2/qr.svg") as r:
        assert r.status == 403  # paired with table 1, not with table 2


async def test_the_pubs_own_code_pairs_and_a_new_code_unpairs(tmp_path: Path) -> None:
    pub = Pub(Store(str(tmp_path / "pub.db")), ["1"])
    runner, url = await start(pub, port=0, tv_code="bar-7731")
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            assert await _pair(http, url, "1", _code(pub)) == 403  # the derived code is off
            assert await _pair(http, url, "1", "bar-7731") == 200
            async with http.get(f"{url}/api/table/1/qr.svg") as r:
                assert r.status == 200
            cookie = {"Cookie": f"{guard.tv_cookie_name('1')}={guard.tv_key('bar-7731', '1')}"}
            async with http.get(f"{url}/api/table/1/qr.svg", headers=cookie) as r:
                assert r.status == 200  # what the TV's browser keeps
    finally:
        await runner.cleanup()
    runner, url = await start(pub, port=0, tv_code="bar-9000")  # the owner changed the code
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{url}/api/table/1/qr.svg", headers=cookie) as r:
                assert r.status == 403
    finally:
        await runner.cleanup()


async def test_guessing_the_tv_code_is_throttled(app) -> None:  # type: ignore[no-untyped-def]
    pub, url, http = app
    statuses = [await _pair(http, url, "1", f"{n:08d}") for n in range(guard.WRONG_CODES_PER_MINUTE)]
    assert set(statuses) == {403}
    assert await _pair(http, url, "1", "00000000") == 429
    assert await _pair(http, url, "1", _code(pub)) == 429  # even the right one, for a minute


async def test_pairing_from_another_site_is_refused(app) -> None:  # type: ignore[no-untyped-def]
    pub, url, http = app
    async with http.post(f"{url}/api/table/1/tv", json={"code": _code(pub)},
                         headers={"Origin": "http://evil.example"}) as r:
        assert r.status == 403
    async with http.get(f"{url}/api/table/1/tv") as r:
        assert (await r.json())["paired"] is False


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8080", "127.0.0.1.evil.example",
                                  "localhost.evil.example", "[::1", "a:b:c", "8.8.8.8", "0.0.0.0"])
async def test_a_foreign_host_is_refused_even_with_a_matching_origin(app, host: str) -> None:  # type: ignore[no-untyped-def]
    pub, url, http = app
    headers = {"Host": host, "Origin": f"http://{host}", guard.TOKEN_HEADER: pub.table("1").token}
    async with http.post(f"{url}/api/table/1/setup", json=SETUP, headers=headers) as r:
        assert r.status == 421
    for path in ("/", "/api/table/1", "/api/table/1/qr.svg"):
        async with http.get(url + path, headers={"Host": host}) as r:
            assert r.status == 421, path
    assert pub.snapshot("1")["match"] is None


async def test_the_hosts_own_names_are_served(tmp_path: Path) -> None:
    import socket

    pub = Pub(Store(str(tmp_path / "pub.db")), ["1"])
    runner, url = await start(pub, port=0, public_url="http://pub.example:8080",
                              allowed_hosts=("scores.lan",))
    port = url.rsplit(":", 1)[1]
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            names = ["localhost", f"localhost:{port}", "127.0.0.1", f"127.0.0.1:{port}", "tv.localhost",
                     socket.gethostname(), "pub.example", "PUB.example.:8080", "scores.lan"]
            for name in names:
                async with http.get(f"{url}/api/tables", headers={"Host": name}) as r:
                    assert r.status == 200, name
            headers = {"Host": "pub.example:8080", "Origin": "http://pub.example:8080",
                       guard.TOKEN_HEADER: pub.table("1").token}
            async with http.post(f"{url}/api/table/1/setup", json=SETUP, headers=headers) as r:
                assert r.status == 200  # a reverse proxy that passes the public name on
    finally:
        await runner.cleanup()


def test_host_names_are_read_as_a_browser_writes_them() -> None:
    assert guard.host_name("Pub.Example:8080") == "pub.example"
    assert guard.host_name("[::1]:8080") == "::1"
    assert guard.host_name("pub.example.") == "pub.example"
    for bad in ("[::1", "[::1]x", "a:b", "", ":80"):
        assert guard.host_name(bad) is None, bad


async def test_websocket_with_a_foreign_host_is_refused(app) -> None:  # type: ignore[no-untyped-def]
    _pub, url, http = app
    with pytest.raises(aiohttp.WSServerHandshakeError) as err:
        await http.ws_connect(f"{url}/ws/1", headers={"Host": "evil.example"})
    assert err.value.status == 421
    async with http.ws_connect(f"{url}/ws/1") as ws:  # our own host: served
        assert json.loads((await asyncio.wait_for(ws.receive(), 2)).data)["table"] == "1"
