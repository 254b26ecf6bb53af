"""``tablesense league serve``: the league service -- subscribes to every pub, checks and
stores each match it receives (``inbox``), keeps the live tables, serves the league page.

The subscription is a persistent MQTT session (client id ``tablesense-league``): while the
service is stopped the broker keeps the pubs' matches for it, and a message is
acknowledged only once its match is committed, so a service killed at any moment loses
nothing and stores nothing twice.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
import threading
from collections.abc import Callable
from typing import Any

from aiohttp import web

from .broker_url import BrokerURL
from .inbox import Inbox, Outcome, open_inbox
from .messages import ROOT, parse_topic
from .mqtt import Subscriber
from .page import make_app

CLIENT_ID = "tablesense-league"


class LeagueService:
    def __init__(self, url: BrokerURL, db: str, on_outcome: Callable[[Outcome], None] | None = None) -> None:
        self.url, self.db = url, db
        self.inbox = open_inbox(db)  # paho's thread writes through it
        self.on_outcome = on_outcome or _say
        self._live: dict[tuple[str, str], dict[str, Any]] = {}
        self._lock = threading.Lock()
        self.subscriber = Subscriber(url, CLIENT_ID, f"{ROOT}/#", self.handle,
                                     retry_on=(sqlite3.OperationalError,))  # locked, disk full

    def handle(self, topic: str, payload: bytes, retained: bool) -> None:
        where = parse_topic(topic)
        if where is None:
            return
        if where.kind == "live" and where.table is not None:
            self._set_live(where.pub, where.table, payload)
            return
        self.on_outcome(self.inbox.take(where.pub, payload))

    def _set_live(self, pub: str, table: str, payload: bytes) -> None:
        try:
            obj = json.loads(payload) if payload else None
        except (UnicodeDecodeError, json.JSONDecodeError):
            obj = None
        with self._lock:
            if isinstance(obj, dict) and isinstance(obj.get("match"), dict) and not obj.get("finished"):
                self._live[(pub, table)] = {**obj, "pub": pub, "table": table}
            else:
                self._live.pop((pub, table), None)

    def live(self) -> list[dict[str, Any]]:
        with self._lock:
            return [self._live[k] for k in sorted(self._live)]

    def start(self) -> None:
        self.subscriber.start()

    def close(self) -> None:
        self.subscriber.close()
        self.inbox.store.close()


def _say(out: Outcome) -> None:
    if out.kind == "refused":
        print(f"tablesense league serve: refused {out.match_id}: {out.text}", file=sys.stderr, flush=True)
    elif out.kind != "duplicate":
        print(f"{out.kind} {out.match_id}: {out.text}", flush=True)


async def serve(url: BrokerURL, db: str, http: tuple[str, int] | None,
                on_ready: Callable[[str | None], None] | None = None) -> None:
    """Run the league service until cancelled."""
    service = LeagueService(url, db)
    runner = None
    page_url = None
    reader: Inbox | None = None
    try:
        if http is not None:
            reader = open_inbox(db)
            runner = web.AppRunner(make_app(reader, service.live), access_log=None, handle_signals=False)
            await runner.setup()
            site = web.TCPSite(runner, http[0], http[1])
            await site.start()
            server = site._server
            port = server.sockets[0].getsockname()[1] if server and server.sockets else http[1]  # type: ignore[union-attr]
            page_url = f"http://{http[0]}:{port}/"
        service.start()
        if on_ready is not None:
            on_ready(page_url)
        await asyncio.Event().wait()
    finally:
        await asyncio.to_thread(service.close)
        if runner is not None:
            await runner.cleanup()
        if reader is not None:
            reader.store.close()
