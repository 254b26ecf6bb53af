"""A crowd on the pub's Wi-Fi: WebSockets and slow clients from several addresses, and
TV-code guessers from thousands. What the pub sees: the referee's calls and the paired
TV's scoreboard go on, a guest who arrives late still gets the scoreboard, nothing is
answered 5xx, and the TV code cannot be walked from many addresses.

Every client is a real aiohttp (or socket) client bound to its own loopback address
(127.0.0.x, which Linux routes to the server on 127.0.0.1); all of it ends by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import resource
import socket
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from helpers.processes import serving_run, stop
from helpers.socket_crowd import connecting, status_line

from tablesense.pub import Pub
from tablesense.store import Store
from tablesense.web import guard
from tablesense.web.limits import Limits
from tablesense.web.server import start

SETUP = {"game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}


@pytest.fixture(autouse=True)
def _descriptors() -> None:
    """Room for a few hundred sockets on both ends in this one process."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 4096 if hard == resource.RLIM_INFINITY else min(hard, 4096)
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def _client(addr: str, jar: bool = False) -> aiohttp.ClientSession:
    """An HTTP client whose connections come from ``addr``."""
    connector = aiohttp.TCPConnector(local_addr=(addr, 0), limit=0)
    cookies = aiohttp.CookieJar(unsafe=True) if jar else None
    return aiohttp.ClientSession(connector=connector, cookie_jar=cookies)


@contextlib.asynccontextmanager
async def _server(tmp_path: Path, limits: Limits) -> AsyncIterator[tuple[Pub, str]]:
    pub = Pub(Store(str(tmp_path / "pub.db")), ["1"])
    runner, url = await start(pub, port=0, limits=limits)
    try:
        yield pub, url
    finally:
        await runner.cleanup()


async def _screen(http: aiohttp.ClientSession, url: str, statuses: Counter[int]) -> Any:
    """A scoreboard's WebSocket, its first snapshot read; None when refused (status counted)."""
    try:
        ws = await http.ws_connect(f"{url.replace('http', 'ws')}/ws/1",
                                   timeout=aiohttp.ClientWSTimeout(ws_close=2))
    except aiohttp.WSServerHandshakeError as exc:
        statuses[exc.status] += 1
        return None
    except (aiohttp.ClientOSError, aiohttp.ServerDisconnectedError):
        statuses[0] += 1  # the connection closed at the cap of its address
        return None
    msg = await ws.receive(timeout=10)
    assert msg.type == aiohttp.WSMsgType.TEXT, msg
    statuses[101] += 1
    return ws


async def _pair_tv(http: aiohttp.ClientSession, url: str, pub: Pub) -> None:
    async with http.post(f"{url}/api/table/1/tv", json={"code": guard.tv_code(pub.table("1").token)}) as r:
        assert r.status == 200


async def test_websockets_from_a_few_addresses_leave_room_for_the_next_guest(tmp_path: Path) -> None:
    """256 WebSockets tried from 4 addresses (the whole connection cap, was: a fifth
    client refused for as long as they stayed): 16 per address are taken, the rest refused
    (429, or closed at the address's cap of connections), and a guest from a fifth
    address gets the scoreboard at once."""
    async with _server(tmp_path, Limits()) as (_pub, url):
        statuses: Counter[int] = Counter()
        crowd = [_client(f"127.0.0.{10 + k}") for k in range(4)]
        try:
            socks = await asyncio.gather(*(_screen(http, url, statuses) for http in crowd for _ in range(64)))
            assert statuses[101] == 64 and statuses[429] + statuses[0] == 192, statuses
            started = time.monotonic()
            async with _client("127.0.0.20") as guest:
                ws = await _screen(guest, url, statuses)
                assert ws is not None and time.monotonic() - started < 5
                await ws.close()
            for ws in socks:
                if ws is not None:
                    await ws.close()
        finally:
            for http in crowd:
                await http.close()


async def test_a_guest_crowd_from_many_addresses_never_starves_the_referee_or_the_tv(tmp_path: Path) -> None:
    """Guests from 24 addresses take every guest screen and keep reconnecting; meanwhile
    the paired TV's scoreboard stays open and follows the match, the referee's calls and
    panel go through, and a newcomer is let in by closing a socket of the busiest guest."""
    limits = Limits(max_guest_ws=48, max_ws_per_client=4)
    async with _server(tmp_path, limits) as (pub, url):
        token = pub.table("1").token
        statuses: Counter[int] = Counter()
        tv, ref = _client("127.0.0.2", jar=True), _client("127.0.0.3")
        crowd = [_client(f"127.0.1.{k}") for k in range(1, 25)]
        stop = asyncio.Event()

        async def guest(http: aiohttp.ClientSession) -> None:  # a page that reconnects at once
            while not stop.is_set():
                ws = await _screen(http, url, statuses)
                if ws is None:
                    await asyncio.sleep(0.05)
                    continue
                async for _msg in ws:
                    if stop.is_set():
                        break
                await ws.close()

        try:
            await _pair_tv(tv, url, pub)
            flood = [asyncio.create_task(guest(http)) for http in crowd for _ in range(4)]
            await asyncio.sleep(1.5)
            tv_ws = await _screen(tv, url, statuses)
            assert tv_ws is not None, statuses
            async with ref.post(f"{url}/api/table/1/setup", json=SETUP,
                                headers={guard.TOKEN_HEADER: token}) as r:
                assert r.status == 200
            ref_ws = await _screen(ref, url, statuses)
            assert ref_ws is not None, statuses
            seen_match = False
            for n in range(5):
                async with ref.post(f"{url}/api/table/1/call", json={"call": "start", "player": "p2"},
                                    headers={guard.TOKEN_HEADER: token}) as r:
                    assert r.status in (200, 400), r.status  # 400: the rules refuse a second start
                async with ref.get(f"{url}/api/table/1/panel") as r:
                    assert r.status == 200
                msg = await tv_ws.receive(timeout=5)
                assert msg.type == aiohttp.WSMsgType.TEXT, f"the TV's scoreboard was closed: {msg}"
                seen_match = seen_match or '"Ann"' in msg.data
                await asyncio.sleep(0.2 * n)
            assert seen_match
            async with _client("127.0.0.99") as late:
                ws = await _screen(late, url, statuses)
                assert ws is not None, "a guest who comes late gets a screen"
                await ws.close()
            assert not tv_ws.closed and not ref_ws.closed
            assert statuses[429] > 0  # the crowd was held to its share
            assert all(code in (101, 429) for code in statuses), statuses
            stop.set()
            for task in flood:  # the crowd leaves (a guest may wait on a quiet socket: no need to wake it)
                task.cancel()
            await asyncio.wait_for(asyncio.gather(*flood, return_exceptions=True), 30)
            await tv_ws.close()
            await ref_ws.close()
        finally:
            stop.set()
            for http in (tv, ref, *crowd):
                await http.close()


async def test_an_idle_guest_screen_is_closed_and_a_fresh_guest_gets_in_after_the_idle_limit(
        tmp_path: Path) -> None:
    """Guest screens on a quiet table, one per address, take every guest place: a new
    guest is refused (429) until the idle limit closes them; then it gets in. The paired
    TV's screen, as quiet, stays open."""
    limits = Limits(max_guest_ws=6, ws_idle_timeout=1.5)
    async with _server(tmp_path, limits) as (pub, url):
        statuses: Counter[int] = Counter()
        tv = _client("127.0.0.2", jar=True)
        crowd = [_client(f"127.0.2.{k}") for k in range(1, 7)]
        try:
            await _pair_tv(tv, url, pub)
            tv_ws = await _screen(tv, url, statuses)
            held = [await _screen(http, url, statuses) for http in crowd]
            assert all(ws is not None for ws in held)
            async with _client("127.0.0.50") as fresh:
                assert await _screen(fresh, url, statuses) is None and statuses[429] == 1
                started = time.monotonic()
                for ws in held:
                    msg = await ws.receive(timeout=10)
                    assert msg.type == aiohttp.WSMsgType.CLOSE, msg
                    assert msg.data == 1000 and msg.extra == "idle", msg
                assert 1.0 < time.monotonic() - started < 8
                ws = await _screen(fresh, url, statuses)
                assert ws is not None
                await ws.close()
            assert not tv_ws.closed
            with pytest.raises(asyncio.TimeoutError):
                await tv_ws.receive(timeout=1.0)  # nothing to say, and still open
            await tv_ws.close()
        finally:
            for http in (tv, *crowd):
                await http.close()


def _slow_client(port: int, addr: str) -> socket.socket | None:
    try:
        return connecting(port, addr)
    except OSError:
        return None


def test_a_thousand_slow_clients_from_16_addresses_leave_another_answered(tablesense_cmd: list[str],
                                                                          tmp_path: Path) -> None:
    """`tablesense run` under systemd's 1024 descriptors; 1,000 clients from 16 addresses
    open connections and trickle a request head a byte at a time (was: another address
    got 5-9 answers of 13). Another address, once the crowd is taken in, gets all 13, each
    in under 3 s, none 5xx."""
    proc, port = serving_run(tablesense_cmd, tmp_path)  # under systemd's 1024 descriptors, listening
    stderr = tmp_path / "stderr"
    slow: list[socket.socket] = []
    try:
        for k in range(1000):
            sock = _slow_client(port, f"127.0.3.{1 + k % 16}")
            if sock is not None:
                slow.append(sock)
        # the crowd taken in (its 1,000 accepts: within a second on an idle machine, 5 s at
        # load 18): the first answer to another address, however long the machine takes
        first = status_line(port, "127.0.0.200", 60)
        answers, times = [], []
        for n in range(13):
            for sock in slow:  # a byte of the request head now and then, as a slow client does
                with contextlib.suppress(OSError):
                    sock.send(b"GET / HTTP/1.1\r\n"[n:n + 1] or b"X")
            started = time.monotonic()
            answers.append(status_line(port, "127.0.0.200", 5))
            times.append(time.monotonic() - started)
            time.sleep(0.3)
    finally:
        for sock in slow:
            sock.close()
        stop(proc)
    assert first == b"HTTP/1.1 200 OK" and answers == [b"HTTP/1.1 200 OK"] * 13, (first, answers)
    assert max(times) < 3.0, times
    err = stderr.read_bytes()
    assert b"Traceback" not in err and len(err) < 2000, err[-2000:]


# --- the TV code ---------------------------------------------------------------------------------

def test_the_tv_code_throttle_holds_against_thousands_of_addresses() -> None:
    """4,100 addresses guessing once each (was: every guess let through, and the flood
    forgot the first address's throttle, 429 back to 403)."""
    from aiohttp import web

    now = [0.0]
    throttle = guard.Throttle(clock=lambda: now[0])

    def guess(client: str) -> int:
        try:
            throttle.check(client)
        except web.HTTPTooManyRequests:
            return 429
        throttle.failed(client)
        return 403

    first = [guess("10.0.0.1") for _ in range(11)]
    assert first == [403] * 10 + [429]
    flood = Counter(guess(f"10.{k // 65536}.{k // 256 % 256}.{k % 256}") for k in range(2, 4102))
    assert flood[403] == guard.WRONG_CODES_IN_ALL - 10 and flood[429] == 4100 - flood[403], flood
    now[0] = 30.0
    assert guess("10.0.0.1") == 429  # still: the flood made it forget nothing
    assert len(throttle.wrong) <= 4096
    now[0] = 61.0
    assert guess("10.0.0.1") == 403  # a minute on, it may try again


async def test_guessing_the_tv_code_from_many_addresses_is_throttled_in_all(tmp_path: Path) -> None:
    """Real clients from 41 addresses: the first is throttled after 10 wrong codes and
    stays throttled while 40 others guess once each; of those, only the count in all
    passes (403), the rest are 429, the right code among them too."""
    async with _server(tmp_path, Limits()) as (pub, url):
        code = guard.tv_code(pub.table("1").token)

        async def pair(addr: str, given: str) -> int:
            async with _client(addr) as http, http.post(f"{url}/api/table/1/tv", json={"code": given}) as r:
                return r.status

        first = [await pair("127.0.4.1", f"{n:08d}") for n in range(11)]
        assert first == [403] * 10 + [429]
        others = [await pair(f"127.0.4.{k}", f"{k:08d}") for k in range(2, 42)]
        assert others.count(403) == guard.WRONG_CODES_IN_ALL - 10 and others.count(429) == 20, others
        assert await pair("127.0.4.1", "12345678") == 429  # not forgotten
        assert await pair("127.0.4.250", code) == 429  # even the right code, for the rest of the minute


def test_screens_are_shared_fairly_and_the_trusted_are_kept_apart() -> None:
    """The bookkeeping alone: a newcomer closes the oldest socket of the busiest guest
    only when that guest holds more than the newcomer would; the referee's never count."""
    from tablesense.web.limits import Screens, TooMany

    now = [0.0]
    screens = Screens(Limits(max_guest_ws=4, max_ws_per_client=3, ws_idle_timeout=10), clock=lambda: now[0])
    closed: list[str] = []

    def opened(client: str, trusted: bool = False) -> Any:
        name = f"{client}#{len(screens.screens)}"
        return screens.open(client, trusted, lambda: closed.append(name))

    a = [opened("a") for _ in range(3)]
    opened("b")
    with pytest.raises(TooMany):
        opened("a")  # its own cap
    opened("c")  # a holds 3 > 0 + 1: a's oldest makes room
    assert closed == ["a#0"] and a[0].gone
    opened("d")  # a holds 2 > 0 + 1
    assert closed == ["a#0", "a#1"]
    with pytest.raises(TooMany):
        opened("e")  # everyone holds 1: nobody's place is taken, the pool is full
    ref = opened("r", trusted=True)  # the referee counts against nothing
    assert screens.idle_left(ref) is None and sum(screens.guests.values()) == 4
    now[0] = 11.0
    assert screens.idle_left(a[2]) < 0  # a guest's quiet socket is idle now
    screens.promote("b")  # b showed the token: its socket is the referee's now
    assert "b" not in screens.guests
    opened("e")
