"""The soak's web clients: the referee's phone (the panel's HTTP API with the table's
token, as ``ref.html`` sends it) and a recorder of every answer any client of the soak got
from any web server, for the "no 5xx" invariant. A referee's change the pub's match log
cannot take (a full disk) is answered 503 "not taken (nothing changed)" by design: nothing
of it is kept, the panel says so and the referee presses again; those are counted apart
(``web["503 not taken"]`` in the figures), not as a break.

The referee's phone does what a referee with a flaky phone does. A request that could
not connect (the pub's host is down, restarting) is sent again until the host answers. A
request whose answer never came (the host killed mid-request, the connection closed) may
or may not have been taken: the referee looks at the panel (the match's log) once the
host answers again and presses again only if his call is not there. Only a 200 counts as
acknowledged (``invariants.Ack``); the invariant is that every acknowledged call is kept.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from .invariants import Ack

TOKEN_HEADER = "X-Tablesense-Token"
#: how the pub's 503 for a change its match log cannot take begins (web/server.py NOT_TAKEN)
NOT_TAKEN = "not taken (nothing changed): "


@dataclass
class Answers:
    """Every HTTP answer the soak's clients got: (server, request, status)."""

    seen: list[tuple[str, str, int]] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)

    def note(self, server: str, request: str, status: int, said: str = "") -> None:
        if status == 503 and NOT_TAKEN in said:  # refused by design: nothing taken, the referee told
            self.counts["503 not taken"] += 1
            return
        self.counts[f"{status // 100}xx"] += 1
        if status >= 500 or len(self.seen) < 200_000:
            self.seen.append((server, request, status))

    def errors(self) -> list[tuple[str, str, int]]:
        return [x for x in self.seen if x[2] >= 500]


@dataclass
class Pubweb:
    """How the soak reaches one pub's web app."""

    pub: str
    base: str  # http://127.0.0.1:PORT
    tokens: dict[str, str] = field(default_factory=dict)


class Referee:
    """The referee of one table, on his phone."""

    def __init__(self, http: aiohttp.ClientSession, web: Pubweb, table: str, answers: Answers,
                 give_up: float = 40.0) -> None:
        self.http, self.web, self.table, self.answers = http, web, table, answers
        self.give_up = give_up
        self.acks: list[Ack] = []
        self.stats: Counter[str] = Counter()
        self.match: int | None = None

    @property
    def api(self) -> str:
        return f"{self.web.base}/api/table/{self.table}"

    async def get(self, path: str = "", timeout: float = 5.0) -> dict[str, Any] | None:
        """GET a read-only answer of the table (None: the host did not answer)."""
        try:
            async with self.http.get(self.api + path, timeout=aiohttp.ClientTimeout(total=timeout)) as r:
                self.answers.note(self.web.pub, f"GET {self.api + path}", r.status)
                if r.status != 200:
                    return None
                return await r.json()  # type: ignore[no-any-return]
        except (aiohttp.ClientError, TimeoutError, ValueError):
            return None

    async def _calls_on_panel(self) -> tuple[int | None, int] | None:
        snap = await self.get()
        if snap is None:
            return None
        log = await self.get("/log")
        if log is None:
            return None
        match = snap.get("match") or {}
        return match.get("id"), sum(1 for it in log.get("items", []) if it.get("kind") == "call")

    async def send(self, kind: str, body: dict[str, Any]) -> str:
        """Send a set-up or a call until the pub acknowledges, refuses it, or it shows on the
        panel; returns ``ack``, ``refused``, ``applied`` (on the panel, no answer came) or
        ``gave_up``."""
        deadline = time.monotonic() + self.give_up
        url = f"{self.api}/{kind}"
        before: tuple[int | None, int] | None = None
        while time.monotonic() < deadline:
            if before is None:
                before = await self._calls_on_panel()
                if before is None:
                    await asyncio.sleep(0.5)
                    continue
            try:
                async with self.http.post(url, json=body, headers={TOKEN_HEADER: self.web.tokens[self.table]},
                                          timeout=aiohttp.ClientTimeout(total=10)) as r:
                    text = await r.text()
                    self.answers.note(self.web.pub, f"POST {url} {body}", r.status, text)
                    if r.status == 200:
                        match = None
                        if kind == "setup":
                            try:
                                match = int((await r.json())["match"])
                            except (ValueError, KeyError, TypeError, aiohttp.ContentTypeError):
                                match = None
                        self.acks.append(Ack(self.table, kind, dict(body), match, time.time()))
                        self.stats["ack"] += 1
                        return "ack"
                    if r.status in (429,) or r.status >= 500:
                        self.stats[f"http_{r.status}"] += 1
                        await asyncio.sleep(1.0)
                        continue
                    self.stats["refused"] += 1
                    self.stats[f"refused: {text[:60]}"] += 1
                    return "refused"
            except aiohttp.ClientConnectorError:  # nothing was sent: the host is not there
                self.stats["no_host"] += 1
                await asyncio.sleep(0.5)
                continue
            except (aiohttp.ClientError, TimeoutError):  # sent, no answer: look at the panel
                self.stats["no_answer"] += 1
                now = None
                while now is None and time.monotonic() < deadline:
                    await asyncio.sleep(0.5)
                    now = await self._calls_on_panel()
                if now is None:
                    break
                if kind == "setup" and now[0] != before[0]:
                    self.stats["applied"] += 1
                    return "applied"
                if kind == "call" and now[0] == before[0] and now[1] > before[1]:
                    self.stats["applied"] += 1
                    return "applied"
                before = now
        self.stats["gave_up"] += 1
        return "gave_up"

    async def wait_rest(self, since: float, timeout: float) -> bool:
        """Wait until the panel shows the table at rest after wall time ``since`` (the
        referee watches the balls stop before he calls)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            snap = await self.get(timeout=3.0)
            if snap is not None:
                for entry in snap.get("ticker") or ():
                    if entry.get("type") == "rest" and entry.get("source") == "table" and \
                            float(entry.get("at") or 0) >= since:
                        return True
            await asyncio.sleep(0.3)
        return False
