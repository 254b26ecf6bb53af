"""Benchmark: the league across pubs over a real Mosquitto.

Usage: python bench/league_ingest.py [--matches N] [--rounds K] [--latency R] [--beside R]

1. Ingest, in K rounds for each game (carom, golf, keglebillard): in each round N finished
   matches, other ones each round, are published at once by one pub; a real ``tablesense
   league serve`` process checks each by replaying its log through the rule engine and
   stores it. The anchor is the same N logs replayed directly in this process
   (``result_from_lines``; golf's and keglebillard's ``replay_match`` and ``games.read``),
   the league's own floor, run in turn with the ingest: first in even rounds, second in odd
   ones, so that each pair sees the same moments of a machine whose load moves. Prints the
   median of the rounds' ratios with their spread (least-most) for two figures:
   - matches/s from the first publish to the last match committed over the anchor's
     matches/s (the aim's figure, >= 0.9x). The league's processes use both cores (a checker
     process a core), the anchor one: on a machine others load, this ratio is mostly the
     share of the second core the load leaves, so it is the fair figure only on an idle one;
   - the CPU a match of the anchor over that of the league's side (the service, its checker
     processes, live and reaped, and the broker): what each spends on the same matches,
     whatever share of the cores it is given; the load moves it little and alike on both
     sides of a round, so it is the fair figure on a shared machine. Times the cores, it is
     the most the league could ingest on them beside the anchor on one.
   K rounds of N matches of each game are stored: 3 x K x N (4,500 by default) by the end.
2. Latency, before the ingest and after it (the time must not grow with the matches
   stored): R matches played on a pub (``Pub`` with its league link) one after the other;
   for each, the time from its result being final (here at its last event: the publisher's
   time for the referee to amend, ``final_after``, set to 0) to the result in the league page's data
   (``/api/league``, which the page fetches every 2 s), beside the anchor: an MQTT message's
   round trip through the same broker (publish to PUBACK to a subscriber).
3. A big message beside a normal one: one pub sends a 15 MB match (a 200,000-line log)
   and at once another pub a normal match; the time from the normal match's publish to
   its result in the league page's data (``/api/league``), R times, beside the anchor: the
   same with no neighbour. Three neighbours: the 15 MB message through the league's broker
   (``message_size_limit``: the broker drops it), the same through a broker set up without
   the limit (the service refuses it by its size before reading it), and the longest log
   the league reads (about 48,000 lines, under the limit: replayed beside the normal one).
   With each, the league service's peak memory (VmHWM, with its largest checker process's).

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
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from tablesense.events import parse_event
from tablesense.league import LeagueStore, games, result_from_lines
from tablesense.league.broker_url import BrokerURL, parse_broker_url
from tablesense.league.matchlog import replay_match
from tablesense.league.messages import encode, match_message, matches_topic, reported
from tablesense.league.mqtt import AsyncPublisher, make_client, start, stop
from tablesense.league.publisher import start_publisher
from tablesense.league.scheme import builtin
from tablesense.pub import Pub
from tablesense.replay import Replay
from tablesense.store import Store

NAMES = ["Ann", "Bob", "Cor", "Dirk", "Eva", "Fem", "Gijs", "Hans"]

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the tests' match builders
from paths import folders_of_tests  # noqa: E402

sys.path.extend(str(f) for f in folders_of_tests())  # a helper of one folder imports another's
from league_play import golf_events, kegle_events  # noqa: E402


def match(p1: str, p2: str, first: int, second: int, start: float = 0.0, misses: int = 0,
          cushions: int = 2) -> list[dict[str, Any]]:
    """A carom match to 20 in two innings, seen by piezos, caroms called by the referee; its
    first shot ``start`` s into the table's clock. ``misses``: innings before those two in
    which both players miss, each shot running along ``cushions`` cushions (a long log)."""
    events: list[dict[str, Any]] = [{"t": 0, "type": "setup", "game": "carom", "discipline": "libre",
                                     "profile": "club", "players": {"p1": p1, "p2": p2},
                                     "targets": {"p1": 20, "p2": 20}}]
    t = start

    def shot(carom: bool, hits: int = 2) -> None:
        nonlocal t
        for c in range(hits):
            t += 0.001 if hits > 2 else 0.25
            events.append({"t": round(t, 6), "type": "cushion", "cushion": c % 4 + 1, "ball": None})
        t += 0.25
        events.append({"t": round(t, 6), "type": "rest"})
        if carom:
            t += 0.25
            events.append({"t": round(t, 6), "type": "call", "call": "carom"})

    for _ in range(2 * misses):
        shot(False, cushions)
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


def broker(d: Path, limit: bool = True) -> tuple[subprocess.Popen[bytes], int, dict[str, str]]:
    """Mosquitto as ``league broker-config`` sets it up for the pubs kroeg and zaal (``limit``
    False: without its message_size_limit, as a broker set up by hand may be)."""
    port = free_port()
    out = subprocess.run([sys.executable, "-m", "tablesense", "league", "broker-config", "--dir", str(d),
                          "--pub", "kroeg", "--pub", "zaal", "--broker-port", str(port),
                          "--bind", "127.0.0.1", "--json"], capture_output=True, text=True, check=True)
    accounts = {a["user"]: a["password"] for a in json.loads(out.stdout)["accounts"]}
    conf = d / "mosquitto.conf"
    if not limit:
        conf.write_text("".join(x for x in conf.read_text().splitlines(keepends=True)
                                if not x.startswith("message_size_limit")))
    if os.geteuid() == 0:
        with open(conf, "a") as fh:
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
        golf = store.create("Golf", game="golf", scheme="golf-frames")
        kegle = store.create("Kegle", game="kegle", scheme="kegle-handicap")
        for k, n in enumerate(NAMES):
            store.add_player(golf, n)
            store.add_player(kegle, n, KEGLE_AVERAGE[k])


#: the keglebillard players' series averages: distances 20 to 30 (x 15 series)
KEGLE_AVERAGE = [1.0, 1.2, 1.4, 1.5, 1.6, 1.8, 1.9, 2.0]


def stored(db: Path) -> int:
    con = sqlite3.connect(db)
    try:
        return int(con.execute("SELECT COUNT(*) FROM league_matches").fetchone()[0])
    except sqlite3.OperationalError:
        return 0
    finally:
        con.close()


def refused(db: Path) -> str:
    con = sqlite3.connect(db)
    try:
        row = con.execute("SELECT reason FROM league_refused LIMIT 1").fetchone()
        return str(row[0]) if row else ""
    except sqlite3.OperationalError:
        return ""
    finally:
        con.close()


def logs(n: int, game: str = "carom") -> list[list[str]]:
    out = []
    for k in range(n):
        a, b = k % len(NAMES), (k * 3 + 1) % len(NAMES)
        if a == b:
            b = (k + 1) % len(NAMES)
        p1, p2 = NAMES[a], NAMES[b]
        if game == "golf":
            w, lose = ("p1", "p2") if k % 2 else ("p2", "p1")
            frames = [(w, k % 5), (w, (k // 5) % 5)] if k % 3 else [(w, k % 5), (lose, 2), (w, 1)]
            events = golf_events(p1, p2, frames)
        elif game == "kegle":
            d1, d2 = (builtin("kegle-handicap").kegle_distance(KEGLE_AVERAGE[i]) for i in (a, b))
            events = kegle_events(p1, p2, (d1, d2), (k % 5 * 2 + 6, k % 3 * 2 + 6))
        else:
            events = match(p1, p2, k % 15 + 1, (k * 7) % 15 + 1, start=k)
        for e in events[1:]:  # each its own match (a league counts a log once)
            e["t"] = round(e["t"] + k, 6)
        out.append([json.dumps(e) for e in events])
    return out


def replayed_directly(lines: list[list[str]], game: str) -> tuple[float, float]:
    """The anchor: the same logs replayed and read here; (wall seconds, CPU seconds)."""
    t0, cpu0 = time.perf_counter(), time.process_time()
    for log in lines:
        if game == "carom":
            result_from_lines(log)
        else:
            games.read(replay_match(log))
    return time.perf_counter() - t0, time.process_time() - cpu0


def _stat(pid: int) -> list[str]:
    with open(f"/proc/{pid}/stat") as fh:
        return fh.read().rsplit(")", 1)[1].split()


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (the league service's checker processes)."""
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if int(_stat(int(name))[1]) == pid:
                    out.append(int(name))
            except (OSError, IndexError, ValueError):
                pass
    return out


def cpu_s(pid: int) -> float:
    """The CPU seconds (user + system) process ``pid`` has used, with its children's: those
    reaped (counted in its own figures) and those still running."""
    tick = os.sysconf("SC_CLK_TCK")
    fields = _stat(pid)
    own = sum(int(fields[k]) for k in (11, 12, 13, 14)) / tick
    for child in children(pid):
        try:
            cf = _stat(child)
        except OSError:
            continue
        own += (int(cf[11]) + int(cf[12])) / tick
    return own


#: a game's matches start this many seconds after the bench's first (each its own match)
GAME_OFFSET = {"carom": 0, "golf": 20_000, "kegle": 40_000}


def messages_of(lines: list[list[str]], game: str, started: float) -> list[bytes]:
    """kroeg's match messages for ``lines``, the k-th started at ``started + k``, each with the
    result its own replay computes."""
    out = []
    for k, log in enumerate(lines):
        rep = Replay().feed_lines(log)
        assert rep.engine is not None and rep.state is not None
        players = json.loads(log[0])["players"]
        out.append(encode(match_message("kroeg", "1", started + k, game, players, log,
                                        reported(rep.engine.to_json(rep.state)))))
    return out


def _length(n: int) -> bytes:
    """MQTT's remaining length: seven bits a byte, the high bit saying another follows."""
    out = bytearray()
    while True:
        n, byte = n >> 7, n & 0x7F
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _text(s: str) -> bytes:
    raw = s.encode()
    return struct.pack("!H", len(raw)) + raw


class RawPub:
    """A pub's side of the ingest at the least CPU this machine can give it: an MQTT 3.1.1
    client on a socket, its QoS 1 PUBLISH packets built before the clock starts and written at
    once, the broker's PUBACKs read after. The pubs are other machines: what they spend is no
    part of the league's ingest, yet here it takes the same two cores (through paho and
    asyncio, ``AsyncPublisher``, 0.15-0.19 ms of the bench's CPU a golf match while the
    league ingests, as much as the service's own process)."""

    def __init__(self, url: BrokerURL, client_id: str) -> None:
        self.sock = socket.create_connection((url.host, url.port), timeout=30)
        flags = 0x02 | (0x80 if url.username else 0) | (0x40 if url.password else 0)  # clean session
        body = _text("MQTT") + bytes([4, flags]) + struct.pack("!H", 0) + _text(client_id)  # no keepalive
        body += _text(url.username) if url.username else b""
        body += _text(url.password) if url.password else b""
        self.sock.sendall(b"\x10" + _length(len(body)) + body)
        ack = self._read(4)
        if ack[0] != 0x20 or ack[3] != 0:
            raise SystemExit(f"league_ingest: the broker refused the bench's pub ({ack!r})")
        self.mid = 0

    def _read(self, n: int) -> bytes:
        out = b""
        while len(out) < n:
            got = self.sock.recv(n - len(out))
            if not got:
                raise SystemExit("league_ingest: the broker closed the bench's pub")
            out += got
        return out

    def packets(self, topic: str, payloads: list[bytes]) -> bytes:
        """The QoS 1 PUBLISH packets of ``payloads``, one after the other."""
        out = []
        for payload in payloads:
            self.mid = self.mid % 65535 + 1
            head = _text(topic) + struct.pack("!H", self.mid)
            out.append(b"\x32" + _length(len(head) + len(payload)) + head + payload)
        return b"".join(out)

    def send(self, packets: bytes) -> None:
        self.sock.sendall(packets)

    def acknowledged(self, n: int) -> None:
        """The broker's ``n`` PUBACKs, each for a message it took."""
        acks = self._read(4 * n)
        if any(acks[k] != 0x40 for k in range(0, len(acks), 4)):
            raise SystemExit("league_ingest: the broker did not acknowledge a bench message")

    def close(self) -> None:
        self.sock.sendall(b"\xe0\x00")
        self.sock.close()


def through_league(pub: RawPub, db: Path, messages: list[bytes],
                   pids: tuple[int, int]) -> tuple[float, float, float]:
    """``messages`` published at once, until the last is stored: (wall seconds, the CPU seconds
    of the league's side: the service, its checker processes and the broker, ``pids``; the
    bench's own CPU seconds meanwhile: the pub's side, sending and waiting)."""
    have = stored(db)
    packets = pub.packets(matches_topic("kroeg"), messages)
    con = sqlite3.connect(db)
    league0 = sum(map(cpu_s, pids))
    t0, own0 = time.perf_counter(), time.process_time()
    pub.send(packets)
    try:
        while con.execute("SELECT COUNT(*) FROM league_matches").fetchone()[0] < have + len(messages):
            why = con.execute("SELECT reason FROM league_refused LIMIT 1").fetchone()
            if why:
                raise SystemExit(f"league_ingest: the league refused a bench match: {why[0]}")
            if time.perf_counter() - t0 > 300:
                raise SystemExit("league_ingest: the league stored too few of the bench's matches in 300 s")
            time.sleep(0.01)
        took = time.perf_counter() - t0
        league = sum(map(cpu_s, pids)) - league0
        own = time.process_time() - own0
    finally:
        con.close()
    pub.acknowledged(len(messages))
    return took, league, own


#: one round of a game's ingest: (the ingest's wall s, the league side's CPU s, the pub's side's
#: CPU s meanwhile, the anchor's wall s, the anchor's CPU s), all for the same matches
Round = tuple[float, float, float, float, float]


def ingest(url: str, db: Path, n: int, game: str, pids: tuple[int, int], rounds: int) -> list[Round]:
    """``rounds`` rounds of ``n`` matches of ``game`` each (other matches each round), each
    round's matches replayed directly here (the anchor) and ingested by the league in turn,
    the anchor first in even rounds and second in odd ones: both see the same moments of a
    machine whose load moves (the anchor alone, run once before the ingest, swung from 284
    to 1,789 golf matches/s between runs)."""
    every = logs(n * rounds, game)
    started = time.time() - 86400 + GAME_OFFSET[game]  # none before 2000
    replayed_directly(every[:10], game)  # the anchor's code loaded and warm, as the service's is
    pub = RawPub(parse_broker_url(url), f"bench-ingest-{game}")
    out = []
    for r in range(rounds):
        lines = every[r * n:(r + 1) * n]
        messages = messages_of(lines, game, started + r * n)
        if r % 2:
            league = through_league(pub, db, messages, pids)
            direct = replayed_directly(lines, game)
        else:
            direct = replayed_directly(lines, game)
            league = through_league(pub, db, messages, pids)
        out.append((*league, *direct))
    pub.close()
    return out


def spread(each: list[float]) -> str:
    """The median of per-round ratios and their spread, as printed: ``1.02x (0.98-1.05)``."""
    return f"{statistics.median(each):.2f}x ({min(each):.2f}-{max(each):.2f})"


def ingest_line(game: str, n: int, rounds: list[Round]) -> str:
    """What the bench prints of a game's ingest rounds: the wall ratio (the aim's figure; on a
    shared machine it is the share of the two cores the load leaves the league's processes,
    which use both, against the anchor's one) and the CPU a match of the league's side beside the
    anchor's (what each spends on a match whatever share it gets: the steady figure under load;
    times the cores, the most the league could ingest on them beside the anchor on one)."""
    wall = [dw / lw for lw, _, _, dw, _ in rounds]  # matches/s through the league over the anchor's
    cpu = [dc / lc for _, lc, _, _, dc in rounds]  # the anchor's CPU a match over the league side's
    rate = statistics.median(n / lw for lw, _, _, _, _ in rounds)
    direct = statistics.median(n / dw for _, _, _, dw, _ in rounds)
    ms = statistics.median(lc / n * 1000 for _, lc, _, _, _ in rounds)
    pub_ms = statistics.median(pc / n * 1000 for _, _, pc, _, _ in rounds)
    direct_ms = statistics.median(dc / n * 1000 for _, _, _, _, dc in rounds)
    cores = os.cpu_count() or 1
    lines = sum(len(log) for log in logs(min(n, 20), game)) / min(n, 20)
    verdict = "met" if statistics.median(wall) >= 0.9 else "not met"
    return (f"ingest {game}: {len(rounds)} rounds of {n} matches ({lines:.0f} log lines each), each in turn "
            f"with its anchor (the same matches replayed directly here); medians of per-round ratios "
            f"(least-most): matches/s through broker + league serve {spread(wall)} the anchor's (aim 0.9x: "
            f"{verdict}; {rate:.0f} against {direct:.0f} matches/s); CPU a match, the service with its "
            f"checkers and the broker {ms:.2f} ms, the anchor {direct_ms:.2f} ms: {spread(cpu)} "
            f"(x {cores} cores: {statistics.median(cpu) * cores:.2f}x; the pub's side, this bench, "
            f"{pub_ms:.2f} ms)")


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


async def latency(url: str, http: int, pub_db: Path, league: Path, repeat: int,
                  first: int = 0) -> tuple[float, float, tuple[float, int]]:
    """(median seconds to the league page's data, median seconds to the league's database, a
    poll of the page's data after them) of ``repeat`` matches, the ``first``-th of the bench's
    latency matches first (each its own: the same match again would be refused)."""
    pub = Pub(Store(str(pub_db)), ["1"])
    # a result final at its end: the time the referee has to amend it is not measured here
    task = start_publisher(pub, str(pub_db), "kroeg", parse_broker_url(url), final_after=0.0)
    await asyncio.sleep(0.5)
    times, stored_at = [], []

    def count() -> int:  # the first poll after the ingest reads its thousands of results: 30 s
        with urllib.request.urlopen(f"http://127.0.0.1:{http}/api/league", timeout=30) as r:
            return shown_results(json.load(r))

    before, in_db = count(), stored(league)
    for k in range(first, first + repeat):
        events = match(NAMES[k % 4], NAMES[4 + k % 4], k % 10 + 1, k % 7 + 1)
        pub.start_match("1", {k2: v for k2, v in events[0].items() if k2 not in ("t", "type")})
        for ev in events[1:-1]:
            pub.submit("1", parse_event(ev), source="referee" if ev["type"] == "call" else "table")
        t0 = time.perf_counter()
        pub.submit("1", parse_event(events[-1]))  # the equalising inning's miss: the match is over
        assert pub.table("1").match is not None and pub.table("1").match.ended is not None
        while stored(league) < in_db + k - first + 1:
            await asyncio.sleep(0.002)
        stored_at.append(time.perf_counter() - t0)
        while count() < before + k - first + 1:
            await asyncio.sleep(0.005)
        times.append(time.perf_counter() - t0)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    pub.store.close()
    return statistics.median(times), statistics.median(stored_at), page_poll(http)


def shown_results(data: dict[str, Any]) -> int:
    """The first competition's results on the page: ``results_total`` where the data says it
    (the page carries the latest rounds only), else every round's results counted."""
    comp = data["competitions"][0]
    if "results_total" in comp:
        return int(comp["results_total"])
    return sum(len(rd["results"]) for rd in comp["rounds"])


def page_poll(http: int, repeat: int = 5) -> tuple[float, int]:
    """(median seconds of a poll of the league page's data (``/api/league``) read to its end,
    its bytes)."""
    times, size = [], 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        with urllib.request.urlopen(f"http://127.0.0.1:{http}/api/league", timeout=30) as r:
            size = len(r.read())
        times.append(time.perf_counter() - t0)
    return statistics.median(times), size


def serve(broker_url: str, db: Path, http: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-m", "tablesense", "league", "serve", "--broker", broker_url,
                             "--db", str(db), "--http", f"127.0.0.1:{http}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_port(http)
    return proc


def signed(pub: str, events: list[dict[str, Any]], started: float) -> bytes:
    """A pub's match message for ``events``, with the result its own replay computes."""
    log = [json.dumps(e) for e in events]
    rep = Replay().feed_lines(log)
    assert rep.engine is not None and rep.state is not None
    return encode(match_message(pub, "1", started, "carom", events[0]["players"], log,
                                reported(rep.engine.to_json(rep.state))))


def peak_kb(pid: int) -> int:
    """The peak resident memory of ``pid`` and, beside it, the largest of its children's."""
    def hwm(p: int) -> int:
        try:
            with open(f"/proc/{p}/status") as fh:
                for line in fh:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0
    return hwm(pid) + max((hwm(c) for c in children(pid)), default=0)


async def beside(url: str, zaal_url: str, http: int, neighbour: bytes | None, repeat: int,
                 start: float) -> float:
    """Median seconds from kroeg's normal match published to its result in /api/league, each
    time right after zaal sent ``neighbour`` (None: alone)."""
    kroeg = AsyncPublisher(parse_broker_url(url), f"bench-kroeg-{start}")
    kroeg.start()
    await asyncio.wait_for(kroeg.up.wait(), 10)

    def shown() -> int:
        with urllib.request.urlopen(f"http://127.0.0.1:{http}/api/league", timeout=30) as r:
            return shown_results(json.load(r))

    times = []
    for k in range(repeat):
        before = await asyncio.to_thread(shown)
        normal = signed("kroeg", match(NAMES[k % 4], NAMES[4 + k % 4], k % 10 + 1, k % 7 + 1, start=k),
                        start + k)
        side = None
        if neighbour is not None:
            zaal = AsyncPublisher(parse_broker_url(zaal_url), f"bench-zaal-{start}-{k}")
            zaal.start()
            await asyncio.wait_for(zaal.up.wait(), 10)
            big = neighbour.replace(b'"id":"zaal:1:', f'"id":"zaal:{k}:'.encode()).replace(
                b'"table":"1"', f'"table":"{k}"'.encode())
            side = asyncio.ensure_future(zaal.publish(matches_topic("zaal"), big, timeout=120))
            await asyncio.sleep(0.05)  # on its way first
        t0 = time.perf_counter()
        await kroeg.publish(matches_topic("kroeg"), normal, timeout=120)
        while await asyncio.to_thread(shown) == before:
            await asyncio.sleep(0.005)
        times.append(time.perf_counter() - t0)
        if side is not None:
            await asyncio.gather(side, return_exceptions=True)  # the broker refuses it, or takes it
            await asyncio.to_thread(zaal.close)
    await asyncio.to_thread(kroeg.close)
    return statistics.median(times)


def neighbours(tmp: Path, repeat: int) -> None:
    """Section 3: the normal match's time to the page beside each neighbour, and alone."""
    started = time.time() - 86400
    huge = match("Eva", "Fem", 5, 7, misses=100, cushions=999)  # ~200,000 lines, ~15 MB as a message
    longest = match("Gijs", "Hans", 5, 7, misses=24, cushions=999)  # ~48,000 lines, under the limit
    big, long = signed("zaal", huge, started - 7200), signed("zaal", longest, started - 3600)
    longest_name = f"the longest log the league reads ({len(longest):,} lines, {len(long) / 1e6:.1f} MB)"
    runs = [("alone", True, None), ("a 15 MB message, the league's broker", True, big),
            ("a 15 MB message, a broker without the limit", False, big), (longest_name, True, long)]
    results = []
    for n, (name, limit, neighbour) in enumerate(runs):
        d = tmp / f"beside{n}"
        proc, port, acc = broker(d / "broker", limit)
        db = d / "league.db"
        league_db(db)
        http = free_port()
        league = serve(f"mqtt://league:{acc['league']}@127.0.0.1:{port}", db, http)
        try:
            time.sleep(0.5)
            took = asyncio.run(beside(f"mqtt://kroeg:{acc['kroeg']}@127.0.0.1:{port}",
                                      f"mqtt://zaal:{acc['zaal']}@127.0.0.1:{port}", http, neighbour, repeat,
                                      started + 1000 * n))
            results.append((name, took, peak_kb(league.pid)))
        finally:
            league.terminate()
            league.wait(30)
            proc.terminate()
            proc.wait(10)
    anchor = results[0][1]
    print(f"beside: {len(huge):,}-line log = {len(big) / 1e6:.1f} MB; a normal match's time to the league "
          f"page's data, median of {repeat}; anchor: alone {anchor * 1000:.0f} ms "
          f"(service peak {results[0][2] / 1024:.0f} MB)")
    for name, took, peak in results[1:]:
        print(f"beside:   with {name}: {took * 1000:.0f} ms ({took / anchor:.1f}x the anchor; "
              f"service peak {peak / 1024:.0f} MB)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=300, help="matches of each game a round")
    ap.add_argument("--rounds", type=int, default=5, help="ingest rounds, each in turn with an anchor")
    ap.add_argument("--latency", type=int, default=10)
    ap.add_argument("--beside", type=int, default=3, help="repeats of section 3 (0: skip it)")
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
            lats: list[tuple[int, float, float, tuple[float, int]]] = []

            def measure_latency() -> None:
                n = stored(db)
                lats.append((n, *asyncio.run(latency(url, http, d / "pub.db", db, args.latency,
                                                     len(lats) * args.latency))))

            if args.latency:
                measure_latency()  # beside the same with the ingest's matches stored: flat or not
            for game in ("carom", "golf", "kegle"):
                rounds = ingest(url, db, args.matches, game, (league.pid, proc.pid), args.rounds)
                print(ingest_line(game, args.matches, rounds), flush=True)
            if args.latency:
                measure_latency()
                rtt = mqtt_round_trip(url, league_url, 50)  # last: the league refuses its topic
                for n, lat, in_db, (poll, size) in lats:
                    print(f"latency: {lat * 1000:.1f} ms median from a match's final result in a pub to the "
                          f"league page's data, {n} matches stored before ({args.latency} matches; stored in "
                          f"the league's database after {in_db * 1000:.1f} ms; a poll of the page's data "
                          f"{poll * 1000:.1f} ms, {size:,} bytes; the page itself fetches every 2 s); "
                          f"anchor: MQTT round trip {rtt * 1000:.2f} ms")
        finally:
            league.terminate()
            league.wait(10)
            proc.terminate()
            proc.wait(10)
        if args.beside:
            neighbours(d, args.beside)
    return 0


if __name__ == "__main__":
    sys.exit(main())
