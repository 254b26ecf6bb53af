"""The faults of the plan, played (``faults`` draws them; each method here plays one kind).

A mixin of ``season.Season``: each ``_fault_KIND`` method injects its fault on the running
system, waits for it to end, and sets ``Fault.recovered`` from what a user would see come
back (the pub's web app answers again, the link is read again, the board says HELLO, the
log says it takes writes again, a guest is served during a web attack); a fault that
broke a sensor event of a table it touched is marked not survived afterwards
(``Season._attribute``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

from tablesense.league.service import AGAIN, REFUSED

from . import hostile
from .faults import Fault
from .procs import Proc

VERBS = ("stored", "checked")  # what the league says it cannot do now, and does again


def _still_refusing(stderr: str) -> bool:
    """Whether a process's stderr ends with a table (or the league) whose log refuses writes."""
    waiting: dict[str, bool] = {}
    for line in stderr.splitlines():
        who = line.split(":", 2)[1].strip() if line.startswith("tablesense: table") else "league"
        if "wait and are written when it can" in line or any(REFUSED.format(v) in line for v in VERBS):
            waiting[who] = True
        elif "takes writes again" in line or any(AGAIN.format(v) in line for v in VERBS):
            waiting[who] = False
    return any(waiting.values())


class Injector:
    """The fault methods of ``Season`` (which holds every attribute they use)."""

    # the attributes of Season that the methods use
    faults: list[Fault]
    fault_tasks: list[asyncio.Task[Any]]
    stopping: bool
    rng: random.Random
    say: Any
    counts: Any
    hosts: dict[str, Proc]
    league: Proc
    broker: Proc
    boards: dict[str, Any]
    disks: dict[str, Any]
    webs: dict[str, Any]
    pubs: list[str]
    drivers: dict[str, Any]
    db: dict[str, Path]
    answers: Any
    procs: Any
    locks: dict[str, asyncio.Lock]
    accounts: dict[str, str]
    bport: int
    lport: int
    broker_lost_power: int
    junk_sent: Any
    hostile_sent: Any

    async def _schedule(self, t0: float) -> None:
        for f in self.faults:
            wait = t0 + f.at - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if self.stopping:
                return
            self.fault_tasks.append(asyncio.create_task(self._execute(f)))

    async def _execute(self, f: Fault) -> None:
        f.started = time.time()
        self.counts[f"fault {f.kind}"] += 1
        self.say(f"soak: fault {f}")
        try:
            await getattr(self, f"_fault_{f.kind}")(f)
        except Exception as exc:  # a fault the soak could not play is reported, never hidden
            f.recovered = False
            f.note = f"the soak could not inject it: {exc!r}"
        finally:
            f.ended = time.time()

    async def _restart(self, proc: Proc, up: Any, down: float) -> bool:
        proc.kill()
        await asyncio.sleep(down)
        proc.start()
        return bool(await up())

    async def _fault_host_kill(self, f: Fault) -> None:
        pub = f.target
        async with self.locks[pub]:
            host = self.hosts[pub]
            ok = await self._restart(host, lambda: self._until_up(pub, 60), f.params["down"])
            if f.params.get("twice"):
                await asyncio.sleep(self.rng.uniform(0.0, 1.5))
                ok = await self._restart(host, lambda: self._until_up(pub, 60), 0.0)
            self.disks[pub].track(host.pid or 0)
            f.recovered = ok

    async def _fault_league_kill(self, f: Fault) -> None:
        async with self.locks["league"]:
            f.recovered = await self._restart(self.league, lambda: self._league_up(60), f.params["down"])
            self.disks["league"].track(self.league.pid or 0)

    async def _fault_broker_kill(self, f: Fault) -> None:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from league_broker import wait_port

        async with self.locks["broker"]:
            if f.params["signal"] == "SIGKILL":
                self.broker.kill()
                self.broker_lost_power += 1
            else:
                await asyncio.to_thread(self.broker.terminate, 15.0)
            await asyncio.sleep(f.params["down"])
            self.broker.start()
            try:
                await asyncio.to_thread(wait_port, self.bport, 20.0)
                f.recovered = True
            except OSError:
                f.recovered = False

    async def _fault_cut(self, f: Fault) -> None:
        board = self.boards[f.target]
        board.cut(f.params["seconds"], f.params["mode"])
        await asyncio.sleep(f.params["seconds"])
        f.recovered = await self._link_back(f.target, 20.0)

    async def _link_back(self, table: str, timeout: float) -> bool:
        board = self.boards[table]
        pub = table.rsplit("-", 1)[0]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if board.host is not None and not board._cut():
                return True
            if not self.hosts[pub].alive():
                deadline = max(deadline, time.monotonic() + 5)
            await asyncio.sleep(0.2)
        return False

    async def _fault_reboot(self, f: Fault) -> None:
        board = self.boards[f.target]
        await board.reboot(f.params["down"])
        for after in f.params.get("again_after") or ():
            await asyncio.sleep(after)
            await board.reboot(self.rng.uniform(0, 0.3))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not board.boot.hello_seen:
            await asyncio.sleep(0.1)
        f.recovered = board.boot.hello_seen

    async def _fault_disk_full(self, f: Fault) -> None:
        disk = self.disks[f.target]
        proc = self.league if f.target == "league" else self.hosts[f.target]
        try:
            disk.fill(f.params["leave"])
            if disk.method.startswith("tmpfs") and disk.free_bytes() < f.params["leave"]:
                f.note = (f"{disk.free_bytes()} bytes left free, not {f.params['leave']}: its process "
                          "wrote while the disk was filled")
            await asyncio.sleep(f.params["seconds"])
        finally:
            disk.free()  # also when the fill failed: a fault never outlasts its time
        freed = time.monotonic()
        # a log that said it refused writes must say that it takes them again
        while time.monotonic() - freed < 30:
            if not _still_refusing(proc.last_run_stderr()):
                f.recovered = True
                return
            await asyncio.sleep(0.5)
        f.recovered = False
        f.note = "the log did not take writes again 30 s after the disk was freed"

    async def _fault_cpu(self, f: Fault) -> None:
        hogs = [self.procs.add("cpu load", [sys.executable, "-c", "while True: pass"], self.logs / "cpu.err")
                for _ in range(2)]
        for h in hogs:
            h.start()
        try:
            await asyncio.sleep(f.params["seconds"])
        finally:
            for h in hogs:
                h.kill()
        f.recovered = True

    async def _fault_web(self, f: Fault) -> None:
        pub, what, n, hold = f.target, f.params["what"], f.params["n"], f.params["hold"]
        base = self.webs[pub].base
        await self._until_up(pub, 30)  # a host restarting now is no test of the attack
        self.hostile_sent[what] += n
        if what == "bad_requests":
            attack = hostile.bad_requests(base, self.answers, pub, self.rng, n)
        elif what == "idle_sockets":
            attack = hostile.idle_sockets(base, n, hold, self.rng)
        elif what == "websockets":
            attack = hostile.websockets(base, n, hold, self.rng, self.answers, pub)
        else:
            attack = hostile.tv_guesses(base, n, self.rng, self.answers, pub)
        task = asyncio.create_task(attack)
        await asyncio.sleep(min(hold, 2.0) / 2)
        # meanwhile another guest (a fresh address) still gets the scoreboard
        starts = self.hosts[pub].starts
        served, why = await self._guest(base, pub)
        await task
        f.recovered = served or self.hosts[pub].starts != starts  # a kill meanwhile is no test of it
        if not f.recovered:
            f.note = f"a guest from another address got no answer during the attack ({why})"

    async def _guest(self, base: str, server: str) -> tuple[bool, str]:
        """A guest's phone from an address of its own asks for the scoreboard: (answered, why not)."""
        why = ""
        conn = aiohttp.TCPConnector(local_addr=("127.0.0.250", 0), force_close=True)
        async with aiohttp.ClientSession(connector=conn) as http:
            for _ in range(3):
                try:
                    async with http.get(f"{base}/api/table/1", timeout=aiohttp.ClientTimeout(total=5)) as r:
                        await r.read()
                        self.answers.note(server, "GET /api/table/1 (a guest during an attack)", r.status)
                        if r.status == 200:
                            return True, ""
                        why = f"HTTP {r.status}"
                except (aiohttp.ClientError, TimeoutError) as exc:
                    why = repr(exc)[:120]
                await asyncio.sleep(1.0)
        return False, why

    async def _fault_league_web(self, f: Fault) -> None:
        self.hostile_sent["league bad requests"] += await hostile.league_bad_requests(
            f"http://127.0.0.1:{self.lport}", self.answers, self.rng)
        f.recovered = await self._league_up(10)

    async def _fault_mqtt_junk(self, f: Fault) -> None:
        from tablesense.league.broker_url import parse_broker_url
        from tablesense.league.messages import matches_topic
        from tablesense.league.mqtt import AsyncPublisher

        # a pub's software that sends its last match again needs a match: wait for one (the
        # planned pub's, else any pub's, whose topic the junk then goes to)
        order = [f.target] + [p for p in self.pubs if p != f.target]
        pub, own = f.target, None
        while not self.stopping:
            for p in order:
                own = await asyncio.to_thread(self._sent_match, p)
                if own is not None:
                    pub = p
                    break
            if own is not None or not any(d.playing() for d in self.drivers.values()):
                break
            await asyncio.sleep(1.0)
        f.params["pub"] = pub
        others = [p for p in self.pubs if p != pub]
        other = await asyncio.to_thread(self._sent_match, self.rng.choice(others)) if others else None
        messages = hostile.junk_messages(pub, own, other, self.rng)
        if self.junk_sent:  # the first junk fault sends every kind; the others a few
            messages = messages[: f.params["messages"]]
        url = parse_broker_url(f"mqtt://{pub}:{self.accounts[pub]}@127.0.0.1:{self.bport}")
        mqtt = AsyncPublisher(url, f"soak-junk-{pub}-{self.rng.randrange(1 << 30)}", who="soak junk")
        mqtt.start()
        try:
            await asyncio.wait_for(mqtt.up.wait(), 20)
            for what, payload in messages:
                with contextlib.suppress(Exception):
                    await mqtt.publish(matches_topic(pub), payload)
                    self.junk_sent[what] += 1
        except TimeoutError:
            f.note = "the broker did not take the junk publisher in 20 s"
        finally:
            await asyncio.to_thread(mqtt.close)
        await asyncio.sleep(2.0)
        async with self.locks["league"]:  # not while a kill of the league restarts it
            f.recovered = self.league.alive() and await self._league_up(20)
        if not f.recovered:
            f.note = f.note or "the league service did not answer 20 s after the junk"


    def _sent_match(self, pub: str) -> dict[str, Any] | None:
        """One of the pub's carom matches from its outbox, as it sent it (None: none yet)."""
        try:
            con = sqlite3.connect(f"file:{self.db[pub]}?mode=ro", uri=True, timeout=5)
            try:
                rows = con.execute("SELECT payload FROM league_outbox ORDER BY queued").fetchall()
            finally:
                con.close()
        except sqlite3.Error:
            return None
        for (payload,) in rows:
            obj = json.loads(payload)
            if obj.get("game") == "carom" and (obj.get("result") or {}).get("winner"):
                return obj  # type: ignore[no-any-return]
        return None

