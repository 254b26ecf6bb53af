"""Benchmark: what a crowd on the pub's Wi-Fi leaves the pub.

Usage: python bench/web_crowd.py [--slow 1000] [--addresses 16] [--sockets 256] [--guessers 4100]

``tablesense run`` under systemd's 1024 file descriptors, clients from loopback
addresses (127.x.y.z, routed to the server on 127.0.0.1 by Linux):

1. Answers: another address asks for the scoreboard 13 times (a new connection each, 0.5 s
   apart), the referee makes 5 calls with the table's token, a fresh guest opens the
   scoreboard's WebSocket: answers had, their slowest time, any 5xx. First on the
   unloaded server (the anchor), then under a crowd: ``--slow`` clients from
   ``--addresses`` addresses trickling a request head a byte a second (reconnecting when
   closed) and ``--sockets`` WebSockets tried from 4 addresses.
2. The TV code: one address guesses until it is refused (the anchor: 10 a minute), then
   ``--guessers`` addresses guess once each: how many guesses were let through (403) and
   refused (429), and whether the first address is still refused after the flood.

An older release is measured the same way with its package first on the path:
``git archive REV host | tar -x -C /tmp/old; PYTHONPATH=/tmp/old/host python bench/web_crowd.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import resource
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
TABLESENSE = [str(Path(sys.executable).parent / "tablesense")]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def addr(block: int, k: int) -> str:
    return f"127.{block}.{k // 250}.{1 + k % 250}"


async def get(port: int, source: str, path: str = "/api/table/1") -> tuple[int, float]:
    """One request on a new connection from ``source``: its status (0: no answer) and seconds."""
    started = time.monotonic()
    try:
        async with asyncio.timeout(5):
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
            writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
            head = await reader.read(32)
            writer.close()
        status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.") else 0
    except (OSError, TimeoutError, ValueError, IndexError):
        status = 0
    return status, time.monotonic() - started


async def answers(port: int, token: str, round_: int) -> dict[str, object]:
    """What another address, the referee and a fresh guest get."""
    other = [await get(port, f"127.0.9.{round_}") for _ in range(13) if not await asyncio.sleep(0.5)]
    ref_status: list[int] = []
    ref_times: list[float] = []
    connector = aiohttp.TCPConnector(local_addr=(f"127.0.8.{round_}", 0), limit=0)
    async with aiohttp.ClientSession(connector=connector) as ref:
        url = f"http://127.0.0.1:{port}/api/table/1"
        for n in range(5):
            body = ({"game": "golf", "players": {"p1": "Ann", "p2": "Bob"}} if n == 0
                    else {"call": "foul", "foul": "touch"})
            started = time.monotonic()
            try:
                async with ref.post(f"{url}/{'setup' if n == 0 else 'call'}", json=body,
                                    headers={"X-Tablesense-Token": token},
                                    timeout=aiohttp.ClientTimeout(total=5)) as r:
                    ref_status.append(r.status)
            except (aiohttp.ClientError, TimeoutError):
                ref_status.append(0)
            ref_times.append(time.monotonic() - started)
    connector = aiohttp.TCPConnector(local_addr=(f"127.0.7.{round_}", 0), limit=0)
    started = time.monotonic()
    screen = None
    async with aiohttp.ClientSession(connector=connector) as guest:
        for _ in range(10):  # as the page does: reconnect after a refusal
            try:
                async with guest.ws_connect(f"ws://127.0.0.1:{port}/ws/1",
                                            timeout=aiohttp.ClientWSTimeout(5)) as ws:
                    msg = await ws.receive(timeout=5)
                    if msg.type == aiohttp.WSMsgType.TEXT:
                        screen = time.monotonic() - started
                        break
            except (aiohttp.ClientError, TimeoutError):
                await asyncio.sleep(0.5)
    return {"other": [s for s, _ in other], "other_max": max(t for _, t in other),
            "ref": ref_status, "ref_max": max(ref_times), "screen": screen}


def show(label: str, got: dict[str, object]) -> None:
    other = got["other"]
    assert isinstance(other, list)
    five = sum(1 for s in [*other, *got["ref"]] if s >= 500)  # type: ignore[has-type, misc]
    screen = got["screen"]
    seen = f"in {screen:.2f} s" if isinstance(screen, float) else "never"
    print(f"{label}: another address {other.count(200)} answers of 13 (slowest {got['other_max']:.2f} s); "
          f"the referee {sum(1 for s in got['ref'] if 200 <= s < 500)} of 5 calls answered "  # type: ignore[attr-defined]
          f"(slowest {got['ref_max']:.2f} s); a fresh guest's scoreboard "
          f"{seen}; {five} answers 5xx")


class Crowd:
    def __init__(self, port: int, slow: int, addresses: int, sockets: int) -> None:
        self.port, self.slow, self.addresses, self.sockets = port, slow, addresses, sockets
        self.stop = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []
        self.held = 0
        self.statuses: Counter[int] = Counter()

    async def slowloris(self, source: str) -> None:
        while not self.stop.is_set():
            try:
                _reader, writer = await asyncio.open_connection("127.0.0.1", self.port,
                                                                local_addr=(source, 0))
                for byte in b"GET / HTTP/1.1\r\nX-Slow: " + b"a" * 1000:
                    if self.stop.is_set() or writer.is_closing():
                        break
                    writer.write(bytes([byte]))
                    await writer.drain()
                    await asyncio.sleep(1.0)
                writer.close()
            except OSError:
                await asyncio.sleep(0.2)

    async def screen(self, http: aiohttp.ClientSession) -> None:
        while not self.stop.is_set():
            try:
                async with http.ws_connect(f"ws://127.0.0.1:{self.port}/ws/1") as ws:
                    self.statuses[101] += 1
                    self.held += 1
                    try:
                        while not self.stop.is_set():
                            msg = await ws.receive(timeout=1)
                            if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                                break
                    except TimeoutError:
                        pass
                    finally:
                        self.held -= 1
            except aiohttp.WSServerHandshakeError as exc:
                self.statuses[exc.status] += 1
                await asyncio.sleep(1.0)
            except (aiohttp.ClientError, OSError, TimeoutError):
                self.statuses[0] += 1
                await asyncio.sleep(1.0)

    async def start(self) -> list[aiohttp.ClientSession]:
        for k in range(self.slow):
            self.tasks.append(asyncio.create_task(self.slowloris(addr(3, k % self.addresses))))
            if k % 50 == 0:
                await asyncio.sleep(0.05)
        sessions = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(addr(4, k), 0), limit=0))
                    for k in range(4)]
        for k in range(self.sockets):
            self.tasks.append(asyncio.create_task(self.screen(sessions[k % 4])))
        await asyncio.sleep(3.0)
        return sessions

    async def end(self, sessions: list[aiohttp.ClientSession]) -> None:
        self.stop.set()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for http in sessions:
            await http.close()


async def guess(port: int, source: str, code: str) -> int:
    body = f'{{"code": "{code}"}}'.encode()
    try:
        async with asyncio.timeout(10):
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
            writer.write(b"POST /api/table/1/tv HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/json\r\nContent-Length: %d\r\n"
                         b"Connection: close\r\n\r\n%s" % (len(body), body))
            head = await reader.read(32)
            writer.close()
        return int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.") else 0
    except (OSError, TimeoutError, ValueError, IndexError):
        return 0


async def tv_codes(port: int, guessers: int) -> None:
    first = [await guess(port, "127.5.0.1", f"{n:08d}") for n in range(12)]
    print(f"anchor: one address guessing the TV code: {first.count(403)} guesses let through, then "
          f"{first.count(429)} refused (429)")
    limit = asyncio.Semaphore(64)

    async def one(k: int) -> int:
        async with limit:
            return await guess(port, addr(6, k), f"{(k * 7919) % 10**8:08d}")

    flood = Counter(await asyncio.gather(*(one(k) for k in range(guessers))))
    after = await guess(port, "127.5.0.1", "12345678")
    print(f"{guessers} addresses guessing once each: {flood[403]} guesses let through (403), "
          f"{flood[429]} refused (429), {sum(v for s, v in flood.items() if s not in (403, 429))} other; "
          f"the first address after the flood: {after}")


async def run(args: argparse.Namespace, port: int, token: str) -> None:
    show("anchor: unloaded", await answers(port, token, 1))
    crowd = Crowd(port, args.slow, args.addresses, args.sockets)
    sessions = await crowd.start()
    try:
        got = await answers(port, token, 2)
    finally:
        held, statuses = crowd.held, dict(crowd.statuses)
        await crowd.end(sessions)
    show(f"under {args.slow} slow clients from {args.addresses} addresses and {args.sockets} WebSockets "
         f"from 4", got)
    print(f"  the crowd's WebSockets: {held} held at the end; handshakes {statuses}")
    await asyncio.sleep(11)  # the crowd's connections idle out
    await tv_codes(port, args.guessers)


def systemd_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--slow", type=int, default=1000)
    ap.add_argument("--addresses", type=int, default=16)
    ap.add_argument("--sockets", type=int, default=256)
    ap.add_argument("--guessers", type=int, default=4100)
    args = ap.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else 65536
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, 65536), hard))
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "pub.db"
        err = Path(tmp) / "stderr"
        with err.open("wb") as out:
            proc = subprocess.Popen([*TABLESENSE, "run", "--tables", "1", "--port-http", str(port),
                                     "--db", str(db)], stdout=subprocess.DEVNULL, stderr=out,
                                    preexec_fn=systemd_limit)
        try:
            deadline = time.monotonic() + 30
            while True:
                with contextlib.suppress(OSError):
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise SystemExit("tablesense run did not start: " + err.read_text()[-500:])
                time.sleep(0.1)
            con = sqlite3.connect(db)
            token = con.execute("SELECT token FROM tables WHERE id='1'").fetchone()[0]
            con.close()
            asyncio.run(run(args, port, token))
        finally:
            proc.terminate()
            proc.wait(15)
        text = err.read_text()
        print(f"tablesense run's stderr: {len(text.splitlines())} lines, "
              f"{'a traceback' if 'Traceback' in text else 'no traceback'}")


if __name__ == "__main__":
    main()
