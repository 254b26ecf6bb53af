"""A season across three pubs over a real Mosquitto, with a real ``tablesense league serve``
process: the broker stopped and restarted, the league service SIGKILLed and restarted, a
pub offline for a whole round. After each, the league page's standings are the standings
worked out directly from all the match logs: nothing lost, nothing doubled.

The pubs are real ``Pub`` objects with their own SQLite match logs and league links in this
process (their tables fed as a link feeds them). The pub "hoek" reaches the broker through
a TCP relay that the test cuts: a stand-in for its internet line, which no software here
can unplug otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from helpers.processes import stop
from helpers.waits import until
from league_broker import Broker, broker, free_port, serve_league, wait_port  # noqa: F401 (the fixture)
from league_page_read import every_result
from league_play import direct_standings, match_events, play

from tablesense.league import LeagueStore, Player
from tablesense.league.broker_url import parse_broker_url
from tablesense.league.outbox import Outbox
from tablesense.league.publisher import start_publisher
from tablesense.pub import Pub
from tablesense.store import Store

pytestmark = pytest.mark.slow

COMP = "Najaar 2026"
PLAYERS = [Player(n, 0.8) for n in ("Ann", "Bob", "Cor", "Dirk", "Eva", "Fem")]
PUBS = ("kroeg", "zaal", "hoek")


class Relay:
    """A TCP relay to the broker that can be cut (the pub's line down) and restored."""

    def __init__(self, target: int) -> None:
        self.target, self.port = target, free_port()
        self.server: asyncio.Server | None = None
        self.links: set[asyncio.StreamWriter] = set()

    async def up(self) -> None:
        self.server = await asyncio.start_server(self._link, "127.0.0.1", self.port)

    async def down(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
        for w in list(self.links):
            w.close()
        self.server = None

    async def _link(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_r, up_w = await asyncio.open_connection("127.0.0.1", self.target)
        self.links |= {writer, up_w}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError, asyncio.CancelledError):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.close()

        await asyncio.gather(pipe(reader, up_w), pipe(up_r, writer))
        self.links -= {writer, up_w}


class League:
    """``tablesense league serve`` as a process."""

    def __init__(self, broker: Broker, db: Path) -> None:  # noqa: F811
        self.broker, self.db, self.http = broker, db, free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = serve_league(self.broker, self.db, self.http, self.db.with_suffix(".log"), 60,
                                 output=True)

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None:
            stop(self.proc, kill_timeout=None)

    def page(self) -> dict[str, Any]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.http}/api/league", timeout=5) as r:
            return dict(json.load(r))

    def played(self) -> int:
        """The results on the page, every round read whole (the data carries the newest)."""
        try:
            comp = self.page()["competitions"][0]
            return len(every_result(f"http://127.0.0.1:{self.http}", comp))
        except (OSError, AssertionError):  # down, or a result stored between the two reads
            return -1


def schedule(rounds: int) -> list[list[tuple[str, str]]]:
    """A round robin (the circle method): each round three matches, one per pub."""
    names = [p.name for p in PLAYERS]
    out = []
    for r in range(rounds):
        ring = [names[0], *(names[1:][r:] + names[1:][:r])]
        out.append([(ring[i], ring[-1 - i]) for i in range(3)])
    return out


@pytest.fixture
async def season(broker: Broker, tmp_path: Path) -> AsyncIterator[dict[str, Any]]:  # noqa: F811
    db = tmp_path / "league.db"
    with LeagueStore(str(db)) as store:
        comp = store.create(COMP, season="2026-2027", profile="club")
        for p in PLAYERS:
            store.add_player(comp, p.name, p.moyenne)
    league = League(broker, db)
    relay = Relay(broker.port)
    await relay.up()
    pubs: dict[str, tuple[Pub, str]] = {}
    tasks = []
    for name in PUBS:
        path = str(tmp_path / f"{name}.db")
        pub = Pub(Store(path), ["1"])
        url = broker.url(name)
        if name == "hoek":
            url = url.replace(f":{broker.port}", f":{relay.port}")
        tasks.append(start_publisher(pub, path, name, parse_broker_url(url), final_after=0.0))
        pubs[name] = (pub, path)
    league.start()
    try:
        yield {"league": league, "relay": relay, "pubs": pubs, "broker": broker}
    finally:
        league.stop()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await relay.down()
        for pub, _ in pubs.values():
            pub.store.close()


async def test_a_season_across_three_pubs_loses_nothing_and_doubles_nothing(season: dict[str, Any]) -> None:
    league, relay, pubs, broker = season["league"], season["relay"], season["pubs"], season["broker"]  # noqa: F811
    logs: list[list[str]] = []

    def play_round(n: int, pairs: list[tuple[str, str]]) -> None:
        for i, (name, (p1, p2)) in enumerate(zip(PUBS, pairs)):
            pub = pubs[name][0]
            match = play(pub, "1", match_events(p1, p2, (n * 3 + i) % 15 + 1, (n * 5 + 2 * i) % 15 + 1))
            logs.append(pub.export_lines(match))

    async def settled(count: int, what: str) -> None:
        await until(lambda: league.played() == count, timeout=30, what=what)
        assert league.page()["competitions"][0]["standings"] == direct_standings(PLAYERS, logs), what

    rounds = schedule(4)
    play_round(0, rounds[0])
    await settled(3, "round 1")

    broker.stop()  # the broker away for the evening: the pubs keep their matches
    play_round(1, rounds[1])
    await asyncio.sleep(0.5)
    broker.start()
    await settled(6, "round 2, after the broker came back")

    play_round(2, rounds[2])
    await asyncio.sleep(0.05)  # on their way: the league service may be storing one of them
    league.kill()  # killed: what it had not acknowledged the broker keeps in its session
    await asyncio.sleep(0.5)
    league.start()
    await settled(9, "round 3, after the league service was killed")

    await relay.down()  # hoek offline for a whole round
    play_round(3, rounds[3])
    await until(lambda: league.played() == 11, timeout=30, what="the pubs that are online")
    hoek = Outbox(pubs["hoek"][1], "hoek")
    assert hoek.counts()["waiting"] == 1
    await relay.up()
    await settled(12, "round 4, after hoek came back")
    # the league has it; the pub's outbox marks it sent when the broker's PUBACK reaches it
    await until(lambda: hoek.counts() == {"waiting": 0, "sent": 4, "refused": 0}, timeout=30,
                what="hoek's outbox: every match sent")
    hoek.close()
    page = league.page()
    assert page["refused"] == []
    assert len(page["competitions"][0]["rounds"]) >= 1
