"""Benchmark: the league across pubs over a real Mosquitto.

Usage: python bench/league_ingest.py [--matches N] [--latency R]

1. Ingest: N finished carom matches are published at once by one pub; a real
   ``tablesense league serve`` process checks each by replaying its log through the rule
   engine and stores it. Prints matches/s from the first publish to the last match
   committed, beside the anchor: the same N logs replayed directly in this process
   (``result_from_lines``), which is the league's own floor.
2. Latency: R matches played on a pub (``Pub`` with its league link) one after the other;
   for each, the time from its last event to the result in the league page's data
   (``/api/league``, which the page fetches every 2 s), beside the anchor: an MQTT message's
   round trip through the same broker (publish to PUBACK to a subscriber).

Needs Debian's mosquitto (apt-get install mosquitto).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from tablesense.events import parse_event
from tablesense.league import LeagueStore, result_from_lines
from tablesense.league.broker_url import parse_broker_url
from tablesense.league.messages import encode, match_message, matches_topic, reported
from tablesense.league.mqtt import AsyncPublisher, make_client, start, stop
from tablesense.league.publisher import start_publisher
from tablesense.pub import Pub
from tablesense.replay import Replay
from tablesense.store import Store

NAMES = ["Ann", "Bob", "Cor", "Dirk", "Eva", "Fem", "Gijs", "Hans"]


def match(p1: str, p2: str, first: int, second: int) -> list[dict[str, Any]]:
    """A carom match to 20 in two innings, seen by piezos, caroms called by the referee."""
    events: list[dict[str, Any]] = [{"t": 0, "type": "setup", "game": "carom", "discipline": "libre",
                                     "profile": "club", "players": {"p1": p1, "p2": p2},
                                     "targets": {"p1": 20, "p2": 20}}]
    t = 0.0

    def shot(carom: bool) -> None:
        nonlocal t
        for c in (1, 2):
            t += 0.25
            events.append({"t": t, "type": "cushion", "cushion": c, "ball": None})
        t += 0.25
        events.append({"t": t, "type": "rest"})
        if carom:
            t += 0.25
            events.append({"t": t, "type": "call", "call": "carom"})

    for inning, made in enumerate((first, second, 20 - first, 19 - second)):
        for _ in range(made):
            shot(True)
        if inning != 2:  # p1's second inning ends at his target; every other ends with a miss
            shot(False)
    return events


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int) -> None:
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def broker(d: Path) -> tuple[subprocess.Popen[bytes], int, dict[str, str]]:
    port = free_port()
    out = subprocess.run([sys.executable, "-m", "tablesense", "league", "broker-config", "--dir", str(d),
                          "--pub", "kroeg", "--broker-port", str(port), "--bind", "127.0.0.1", "--json"],
                         capture_output=True, text=True, check=True)
    accounts = {a["user"]: a["password"] for a in json.loads(out.stdout)["accounts"]}
    if os.geteuid() == 0:
        with open(d / "mosquitto.conf", "a") as fh:
            fh.write("user root\n")
    proc = subprocess.Popen(["mosquitto", "-c", str(d / "mosquitto.conf")], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    wait_port(port)
    return proc, port, accounts


def league_db(path: Path) -> None:
    with LeagueStore(str(path)) as store:
        comp = store.create("Najaar", profile="club")
        for n in NAMES:
            store.add_player(comp, n, 0.8)


def stored(db: Path) -> int:
    con = sqlite3.connect(db)
    try:
        return int(con.execute("SELECT COUNT(*) FROM league_matches").fetchone()[0])
    except sqlite3.OperationalError:
        return 0
    finally:
        con.close()


def logs(n: int) -> list[list[str]]:
    out = []
    for k in range(n):
        p1, p2 = NAMES[k % len(NAMES)], NAMES[(k * 3 + 1) % len(NAMES)]
        if p1 == p2:
            p2 = NAMES[(k + 1) % len(NAMES)]
        out.append([json.dumps(e) for e in match(p1, p2, k % 15 + 1, (k * 7) % 15 + 1)])
    return out


async def ingest(url: str, db: Path, n: int) -> tuple[float, float]:
    lines = logs(n)
    t0 = time.perf_counter()
    for log in lines:
        result_from_lines(log)
    direct = n / (time.perf_counter() - t0)
    messages = []
    for k, log in enumerate(lines):
        rep = Replay().feed_lines(log)
        assert rep.engine is not None and rep.state is not None
        messages.append(encode(match_message("kroeg", "1", 1000.0 + k, "carom", json.loads(log[0])["players"],
                                             log, reported(rep.engine.to_json(rep.state)))))
    pub = AsyncPublisher(parse_broker_url(url), "bench-ingest")
    pub.start()
    await asyncio.wait_for(pub.up.wait(), 10)
    t0 = time.perf_counter()
    await asyncio.gather(*(pub.publish(matches_topic("kroeg"), m, timeout=120) for m in messages))
    while stored(db) < n:
        await asyncio.sleep(0.01)
    rate = n / (time.perf_counter() - t0)
    await asyncio.to_thread(pub.close)
    return rate, direct


def mqtt_round_trip(url: str, sub_url: str, repeat: int) -> float:
    got = threading.Event()
    sub = make_client(parse_broker_url(sub_url), "bench-rtt-sub")
    sub.on_connect = lambda c, *a: c.subscribe("tablesense/pubs/kroeg/rtt", qos=1)
    sub.on_message = lambda *a: got.set()
    start(sub, parse_broker_url(sub_url))
    pub = make_client(parse_broker_url(url), "bench-rtt-pub")
    start(pub, parse_broker_url(url))
    time.sleep(0.5)
    times = []
    for _ in range(repeat):
        got.clear()
        t0 = time.perf_counter()
        pub.publish("tablesense/pubs/kroeg/rtt", b"x", qos=1)
        got.wait(5)
        times.append(time.perf_counter() - t0)
    stop(pub)
    stop(sub)
    return statistics.median(times)


async def latency(url: str, http: int, pub_db: Path, league: Path, repeat: int) -> tuple[float, float]:
    pub = Pub(Store(str(pub_db)), ["1"])
    task = start_publisher(pub, str(pub_db), "kroeg", parse_broker_url(url))
    await asyncio.sleep(0.5)
    times, stored_at = [], []

    def count() -> int:
        with urllib.request.urlopen(f"http://127.0.0.1:{http}/api/league", timeout=5) as r:
            data = json.load(r)
        return sum(len(rd["results"]) for rd in data["competitions"][0]["rounds"])

    before, in_db = count(), stored(league)
    for k in range(repeat):
        events = match(NAMES[k % 4], NAMES[4 + k % 4], k % 10 + 1, k % 7 + 1)
        pub.start_match("1", {k2: v for k2, v in events[0].items() if k2 not in ("t", "type")})
        for ev in events[1:-1]:
            pub.submit("1", parse_event(ev), source="referee" if ev["type"] == "call" else "table")
        t0 = time.perf_counter()
        pub.submit("1", parse_event(events[-1]))  # the equalising inning's miss: the match is over
        assert pub.table("1").match is not None and pub.table("1").match.ended is not None
        while stored(league) < in_db + k + 1:
            await asyncio.sleep(0.002)
        stored_at.append(time.perf_counter() - t0)
        while count() < before + k + 1:
            await asyncio.sleep(0.005)
        times.append(time.perf_counter() - t0)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    pub.store.close()
    return statistics.median(times), statistics.median(stored_at)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=300)
    ap.add_argument("--latency", type=int, default=10)
    args = ap.parse_args()
    if shutil.which("mosquitto") is None:
        print("league_ingest: needs mosquitto (apt-get install mosquitto)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        proc, port, acc = broker(d / "broker")
        url = f"mqtt://kroeg:{acc['kroeg']}@127.0.0.1:{port}"
        league_url = f"mqtt://league:{acc['league']}@127.0.0.1:{port}"
        db = d / "league.db"
        league_db(db)
        http = free_port()
        league = subprocess.Popen([sys.executable, "-m", "tablesense", "league", "serve",
                                   "--broker", league_url, "--db", str(db), "--http", f"127.0.0.1:{http}"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_port(http)
            time.sleep(0.5)
            rate, direct = asyncio.run(ingest(url, db, args.matches))
            print(f"ingest: {rate:.0f} matches/s through broker + league serve ({args.matches} matches); "
                  f"anchor: the same logs replayed directly {direct:.0f} matches/s")
            lat, in_db = asyncio.run(latency(url, http, d / "pub.db", db, args.latency))
            rtt = mqtt_round_trip(url, league_url, 50)
            print(f"latency: {lat * 1000:.1f} ms median from a match's end in a pub to the league page's "
                  "data "
                  f"({args.latency} matches; stored in the league's database after {in_db * 1000:.1f} ms; "
                  f"the page itself fetches every 2 s); "
                  f"anchor: MQTT round trip {rtt * 1000:.2f} ms")
        finally:
            league.terminate()
            league.wait(10)
            proc.terminate()
            proc.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
