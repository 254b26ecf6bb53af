"""Hostile clients on the pub's Wi-Fi and junk on the league's broker.

Web (each a burst, at the fault plan's moments, from loopback addresses 127.0.0.2 and up
so that they are many clients, not one):

- ``bad_requests``: malformed and abusive requests (raw bytes and well-formed ones with a
  wrong token, a body too big or too deep, numbers too long, bad methods, paths that
  name nothing); each answer is recorded (``Answers``), the soak wants 4xx, never 5xx;
- ``idle_sockets``: many connections that send nothing, or half a request;
- ``websockets``: many WebSockets held open on the live pages;
- ``tv_guesses``: guessing the TV code that pairs a TV (and shows the referee QR code).

MQTT (``junk_messages``): what a pub's broken or hostile software could publish on its own
topic (the broker's ACL lets it write nowhere else): bytes that are no JSON, deep
nesting, NaN and infinite numbers, a revision of 2^80, a wrong version, a log too big,
and one of the pub's own finished matches sent again under another id (the same match
twice) or by another pub.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import time
from typing import Any

import aiohttp

from .referee import TOKEN_HEADER, Answers

ADDRESSES = [f"127.0.0.{n}" for n in range(2, 40)]


def _status(raw: bytes) -> int | None:
    line = raw.split(b"\r\n", 1)[0].split()
    if len(line) >= 2 and line[0].startswith(b"HTTP/") and line[1].isdigit():
        return int(line[1])
    return None


async def _raw(host: str, port: int, data: bytes, src: str, timeout: float = 5.0) -> int | None:
    """Send raw bytes; the status of the answer (None: no answer, closed)."""
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(host, port, local_addr=(src, 0))
            try:
                writer.write(data)
                await writer.drain()
                got = await reader.read(512)
                return _status(got)
            finally:
                writer.transport.abort()
    except (OSError, TimeoutError, ConnectionError):
        return None


def _raw_requests(host: str, rng: random.Random) -> list[tuple[str, bytes]]:
    h = f"Host: {host}\r\n".encode()
    deep = b"[" * 60_000 + b"]" * 60_000
    big = b"x" * 200_000
    return [
        ("garbage", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"
         + bytes(rng.randrange(256) for _ in range(64))),
        ("no version", b"GET /\r\n\r\n"),
        ("bad method", b"FROB / HTTP/1.1\r\n" + h + b"\r\n"),
        ("latin-1 header", b"GET / HTTP/1.1\r\n" + h + b"X-Tablesense-Token: \xe9\xff\r\n\r\n"),
        ("header too long", b"GET / HTTP/1.1\r\n" + h + b"X-A: " + b"a" * 70_000 + b"\r\n\r\n"),
        ("content-length lies", b"POST /api/table/1/call HTTP/1.1\r\n" + h
         + b"Content-Type: application/json\r\nContent-Length: 50\r\n\r\n{}"),
        ("deep json", b"POST /api/table/1/call HTTP/1.1\r\n" + h + b"Content-Type: application/json\r\n"
         + f"Content-Length: {len(deep)}\r\n\r\n".encode() + deep),
        ("body too big", b"POST /api/table/1/setup HTTP/1.1\r\n" + h + b"Content-Type: application/json\r\n"
         + f"Content-Length: {len(big)}\r\n\r\n".encode() + big),
        ("chunked junk", b"POST /api/table/1/call HTTP/1.1\r\n" + h
         + b"Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n"),
        ("foreign host", b"GET /api/tables HTTP/1.1\r\nHost: evil.example\r\n\r\n"),
    ]


def _api_requests(rng: random.Random) -> list[tuple[str, str, dict[str, str], Any]]:
    """(method, path, headers, JSON body or raw bytes) with no right to change anything."""
    wrong = {TOKEN_HEADER: "".join(rng.choice("abcdef0123456789") for _ in range(32))}
    digits = "9" * 5000
    return [
        ("GET", "/match/99999999999999999999999.jsonl", {}, None),
        ("GET", "/match/0.jsonl", {}, None),
        ("GET", "/api/table/99", {}, None),
        ("GET", "/api/table/%00", {}, None),
        ("GET", "/history/1?x=" + "y" * 3000, {}, None),
        ("GET", "/i18n/xx.json", {}, None),
        ("GET", "/static/../../etc/passwd", {}, None),
        ("GET", "/api/table/1/qr.svg", {}, None),
        ("POST", "/api/table/1/call", wrong, {"call": "carom"}),
        ("POST", "/api/table/2/setup", wrong, {"game": "carom", "players": {"p1": "X", "p2": "Y"}}),
        ("POST", "/api/table/1/void", {}, {"from": 2, "to": 3}),
        ("POST", "/api/table/1/call", wrong, b'{"call": ' + digits.encode() + b"}"),
        ("POST", "/api/table/1/call", wrong, b"\xff\xfe not json"),
        ("POST", "/api/table/1/lang", wrong, {"lang": "xx"}),
        ("POST", "/api/table/1/tv", {"Origin": "http://evil.example"}, {"code": "12345678"}),
        ("DELETE", "/api/table/1", {}, None),
        ("PUT", "/api/tables", {}, {"a": 1}),
        ("GET", "/ws/99", {}, None),
    ]


async def bad_requests(base: str, answers: Answers, server: str, rng: random.Random, rounds: int = 1) -> int:
    """Every kind of bad request ``rounds`` times, from many addresses; how many were sent."""
    host, port = base.removeprefix("http://").rsplit(":", 1)
    sent = 0
    for _ in range(rounds):
        for what, data in _raw_requests(f"{host}:{port}", rng):
            status = await _raw(host, int(port), data, rng.choice(ADDRESSES))
            sent += 1
            if status is not None:
                answers.note(server, f"raw {what}", status)
        conn = aiohttp.TCPConnector(local_addr=(rng.choice(ADDRESSES), 0), force_close=True)
        async with aiohttp.ClientSession(connector=conn) as http:
            for method, path, headers, body in _api_requests(rng):
                kw: dict[str, Any] = {"headers": headers, "timeout": aiohttp.ClientTimeout(total=5)}
                if isinstance(body, bytes):
                    kw["data"] = body
                    kw["headers"] = {**headers, "Content-Type": "application/json"}
                elif body is not None:
                    kw["json"] = body
                sent += 1
                with contextlib.suppress(aiohttp.ClientError, TimeoutError, ValueError):
                    async with http.request(method, base + path, **kw) as r:
                        answers.note(server, f"{method} {path[:80]}", r.status)
    return sent


async def league_bad_requests(base: str, answers: Answers, rng: random.Random) -> int:
    sent = 0
    async with aiohttp.ClientSession() as http:
        for method, path in (("GET", "/api/league?x=" + "9" * 4000), ("POST", "/api/league"),
                             ("GET", "/nothing"), ("GET", "/api/league/../../x"), ("DELETE", "/"),
                             ("GET", "/api/league/round"),
                             ("GET", "/api/league/round?competition=1&round=-1"),
                             ("GET", "/api/league/round?competition=%ff%00&round=1"),
                             ("GET", "/api/league/round?competition=1&round=" + "9" * 4000),
                             ("GET", "/api/league/round?competition=99999&round=entered"),
                             ("POST", "/api/league/round?competition=1&round=1")):
            sent += 1
            with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                async with http.request(method, base + path, timeout=aiohttp.ClientTimeout(total=5)) as r:
                    answers.note("league", f"{method} {path[:60]}", r.status)
    host, port = base.removeprefix("http://").rsplit(":", 1)
    for what, data in _raw_requests(f"{host}:{port}", rng)[:5]:
        sent += 1
        status = await _raw(host, int(port), data, rng.choice(ADDRESSES))
        if status is not None:
            answers.note("league", f"raw {what}", status)
    return sent


async def idle_sockets(base: str, n: int, hold: float, rng: random.Random) -> int:
    """``n`` connections from a few addresses that send nothing (or half a request head)."""
    host, port = base.removeprefix("http://").rsplit(":", 1)
    socks: list[socket.socket] = []
    loop = asyncio.get_running_loop()
    addrs = rng.sample(ADDRESSES, rng.randint(1, 8))
    try:
        for i in range(n):
            s = socket.socket()
            s.setblocking(False)
            try:
                s.bind((addrs[i % len(addrs)], 0))
                await asyncio.wait_for(loop.sock_connect(s, (host, int(port))), 2)
                if rng.random() < 0.3:
                    s.send(b"GET / HTTP/1.1\r\nHost: x")
                socks.append(s)
            except (OSError, TimeoutError):
                s.close()
        await asyncio.sleep(hold)
    finally:
        for s in socks:
            s.close()
    return len(socks)


async def websockets(base: str, n: int, hold: float, rng: random.Random, answers: Answers,
                     server: str) -> int:
    """``n`` WebSockets on the live pages from a few addresses, held ``hold`` seconds."""
    addrs = rng.sample(ADDRESSES, rng.randint(1, 6))
    sessions = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(a, 0), limit=0))
                for a in addrs]
    opened: list[Any] = []
    try:
        for i in range(n):
            http = sessions[i % len(sessions)]
            path = rng.choice(["/ws", "/ws/1", "/ws/2"])
            try:
                ws = await http.ws_connect(base + path, timeout=aiohttp.ClientWSTimeout(ws_close=2),
                                           heartbeat=None)
                opened.append(ws)
            except aiohttp.WSServerHandshakeError as exc:
                answers.note(server, f"WS {path}", exc.status)
            except (aiohttp.ClientError, TimeoutError, OSError):
                pass
        await asyncio.sleep(hold)
    finally:
        for ws in opened:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 2)
        for http in sessions:
            with contextlib.suppress(Exception):
                await http.close()
    return len(opened)


async def tv_guesses(base: str, n: int, rng: random.Random, answers: Answers, server: str) -> int:
    """``n`` guesses of a table's TV code, spread over many addresses."""
    sent = 0
    per = max(1, n // len(ADDRESSES))
    for addr in rng.sample(ADDRESSES, min(len(ADDRESSES), max(1, n // per))):
        conn = aiohttp.TCPConnector(local_addr=(addr, 0))
        async with aiohttp.ClientSession(connector=conn) as http:
            for _ in range(per):
                table = rng.choice(["1", "2"])
                code = f"{rng.randrange(10 ** 8):08d}"
                sent += 1
                with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                    async with http.post(f"{base}/api/table/{table}/tv", json={"code": code},
                                         timeout=aiohttp.ClientTimeout(total=5)) as r:
                        answers.note(server, "POST /api/table/N/tv (a guess)", r.status)
    return sent


# --- MQTT junk ----------------------------------------------------------------------------------

def junk_messages(pub: str, own: dict[str, Any] | None, other: dict[str, Any] | None,
                  rng: random.Random) -> list[tuple[str, bytes]]:
    """(what, payload) for ``pub``'s matches topic. ``own``: one of the pub's own sent match
    messages (None: none yet); ``other``: another pub's."""
    out: list[tuple[str, bytes]] = [
        ("not JSON", b"\xff\x00 not json at all"),
        ("a JSON list", b"[1, 2, 3]"),
        ("nested 100000 deep", b'{"v": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
        ("version 1.0", json.dumps({"v": 1.0, "pub": pub}).encode()),
        ("NaN everywhere", b'{"v": 1, "pub": "' + pub.encode() + b'", "id": "' + pub.encode()
         + b':1:1", "table": "1", "started": NaN, "revision": NaN, "result": {}, "log": ["x"]}'),
    ]
    if own is not None:
        base = dict(own)
        again = dict(base, id=f"{pub}:{base['table']}:{int(base['started'] * 1000) + 7}",
                     started=base["started"] + 0.007)
        out += [
            ("its own match again under another id", json.dumps(again).encode()),
            ("its own match, started 'inf'", json.dumps(dict(base, id=f"{pub}:9:1", started="inf")).encode()),
            ("its own match, started 1e300", json.dumps(dict(base, id=f"{pub}:9:2", started=1e300)).encode()),
            ("its own match, revision 2^80", json.dumps(dict(base, revision=2 ** 80)).encode()),
            ("its own match, table null", json.dumps(dict(base, id=f"{pub}:None:5", table=None)).encode()),
            ("its own match, version true", json.dumps(dict(base, v=True)).encode()),
            ("a log of 100,000 lines", json.dumps(dict(base, id=f"{pub}:8:3", log=base["log"] + ['{"t": 1e9, '
                                                  '"type": "rest"}'] * 100_000)).encode()),
        ]
    if other is not None:
        theirs = dict(other, pub=pub, id=f"{pub}:{other['table']}:{int(other['started'] * 1000) + 11}",
                      started=other["started"] + 0.011)
        out.append(("another pub's match sent as its own", json.dumps(theirs).encode()))
    rng.shuffle(out)
    return out


def stamp() -> float:
    return time.time()
