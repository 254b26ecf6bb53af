"""A league season under fire: the whole system played and attacked, then checked.

``run(SoakConfig(seed=S, seconds=N))`` sets up a league across three pubs (two tables
each, ``tables.LAYOUT``) on a real Mosquitto (``tablesense league broker-config``), each
pub's ``tablesense run`` reading its tables' real firmware (MicroPython's unix port)
through a cable that can be cut (``board``) and publishing to the broker, and
``tablesense league serve`` taking the matches. The simulator's players play match after
match at every table (``driver``), the referee calls from his phone through the panel's
HTTP API (``referee``), and the fault plan drawn from the seed (``faults``) kills, cuts,
reboots, fills, loads and attacks meanwhile. At the end the faults stop, everything is
let settle, every process is stopped, and the invariants are checked
(``invariants``). Every process the soak starts is stopped in a ``finally``, also when
it fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
import shutil
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from tablesense.league import LeagueStore
from tablesense.sim.match import NAMES
from tablesense.table.profile import TableProfile

from . import faults as fault_plan
from . import invariants as inv
from .board import Board
from .disk import Disk
from .driver import Play, TableDriver
from .faults import Fault, Rates
from .inject import Injector
from .procs import Proc, Processes
from .record import INVARIANTS, Record, TableRecord
from .record import check as check_record
from .referee import Answers, Pubweb, Referee
from .tables import LAYOUT, quick_profile, tables

COMPETITION = "Soak libre"
TV_CODE = "40404040"


@dataclass
class SoakConfig:
    seed: int = 0
    seconds: float = 50.0  # of play; faults fall within it
    layout: dict[str, tuple[str, ...]] = field(default_factory=lambda: dict(LAYOUT))
    rates: Rates = field(default_factory=Rates)
    kinds: tuple[str, ...] = fault_plan.KINDS  # the fault kinds to inject
    every_kind: bool = False  # at least one fault of each kind
    play: Play = field(default_factory=Play)
    settle: float = 60.0  # longest wait for the league to catch up at the end
    disk_mb: int = 24
    workdir: Path | None = None
    keep: bool = False  # keep the work directory (logs, databases)
    say: Any = None  # a callable for progress lines (None: quiet)


@dataclass
class Report:
    config: SoakConfig
    faults: list[Fault]
    broken: dict[str, list[str]]
    figures: dict[str, Any]
    workdir: Path

    @property
    def ok(self) -> bool:
        return not any(self.broken.values())


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _tablesense() -> list[str]:
    return [sys.executable, "-m", "tablesense"]


class Season(Injector):
    def __init__(self, cfg: SoakConfig) -> None:
        self.cfg = cfg
        self.say = cfg.say or (lambda _line: None)
        self.rng = random.Random(f"soak-{cfg.seed}")
        self.work = Path(cfg.workdir or tempfile.mkdtemp(prefix="tablesense-soak-"))
        self.work.mkdir(parents=True, exist_ok=True)
        self.logs = self.work / "logs"
        self.procs = Processes()
        self.specs = tables(cfg.layout)
        self.pubs = list(cfg.layout)
        self.profiles: dict[str, tuple[Path, Path, TableProfile]] = {}
        self.boards: dict[str, Board] = {}
        self.disks: dict[str, Disk] = {}
        self.hosts: dict[str, Proc] = {}
        self.webs: dict[str, Pubweb] = {}
        self.db: dict[str, Path] = {}
        self.answers = Answers()
        self.referees: dict[str, Referee] = {}
        self.drivers: dict[str, TableDriver] = {}
        self.faults: list[Fault] = []
        self.locks: dict[str, asyncio.Lock] = {}
        self.counts: Counter[str] = Counter()
        self.broker_lost_power = 0
        self.resent = 0
        self.junk_sent: Counter[str] = Counter()
        self.hostile_sent: Counter[str] = Counter()
        self.league_db = self.work / "league" / "disk" / "league.db"
        self.http: aiohttp.ClientSession | None = None
        self.background: list[asyncio.Task[Any]] = []
        self.fault_tasks: list[asyncio.Task[Any]] = []
        self.stopping = False

    # --- setting up ---------------------------------------------------------------------------
    async def setup(self) -> None:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from league_broker import configure, wait_port

        self.say(f"soak: work directory {self.work}")
        self.bport = _free_port()
        bdir = self.work / "broker"
        self.accounts = await asyncio.to_thread(configure, bdir, self.bport, tuple(self.pubs))
        self.broker = self.procs.add("mosquitto", ["mosquitto", "-c", str(bdir / "mosquitto.conf")],
                                     self.logs / "mosquitto.err")
        self.broker.start()
        await asyncio.to_thread(wait_port, self.bport)
        for name in [*self.pubs, "league"]:
            disk = Disk(self.work / name / "disk", self.cfg.disk_mb * (3 if name == "league" else 1))
            disk.mount()
            self.disks[name] = disk
            self.procs.on_stop(disk.unmount)
        with LeagueStore(str(self.league_db)) as store:
            comp = store.create(COMPETITION, season="2026-2027", profile="liemers")  # no minimum target
            for name in NAMES:
                store.add_player(comp, name, 0.5)
        for spec in self.specs:
            if spec.game not in self.profiles:
                self.profiles[spec.game] = quick_profile(self.work / "profiles", spec.game)
            board = Board(spec.name, self.profiles[spec.game][1], self.work / "boards", self.rng)
            (self.work / "boards").mkdir(exist_ok=True)
            await board.start()
            self.boards[spec.name] = board
        for pub in self.pubs:
            self.db[pub] = self.disks[pub].path / "pub.db"
            port = _free_port()
            self.webs[pub] = Pubweb(pub, f"http://127.0.0.1:{port}")
            argv = [*_tablesense(), "run"]
            mine = [s for s in self.specs if s.pub == pub]
            for s in mine:
                argv += ["--serial", self.boards[s.name].url]
            for s in mine:
                argv += ["--profile", str(self.profiles[s.game][0])]
            argv += ["--db", str(self.db[pub]), "--http", f"127.0.0.1:{port}", "--tv-code", TV_CODE,
                     "--league", f"mqtt://{pub}:{self.accounts[pub]}@127.0.0.1:{self.bport}", "--pub", pub,
                     "--wait"]
            host = self.procs.add(f"pub {pub}", argv, self.logs / f"{pub}.err",
                                  stdout_path=self.logs / f"{pub}.out")
            self.hosts[pub] = host
            self.locks[pub] = asyncio.Lock()
            host.start()
            self.disks[pub].pids = [host.pid or 0]
        self.lport = _free_port()
        self.league = self.procs.add("league", [*_tablesense(), "league", "serve", "--broker",
                                                f"mqtt://league:{self.accounts['league']}@127.0.0.1:{self.bport}",
                                                "--db", str(self.league_db),
                                                "--http", f"127.0.0.1:{self.lport}"],
                                     self.logs / "league.err", stdout_path=self.logs / "league.out")
        self.league.start()
        self.disks["league"].pids = [self.league.pid or 0]
        for name in ("league", "broker"):
            self.locks[name] = asyncio.Lock()
        self.http = aiohttp.ClientSession()
        for pub in self.pubs:
            await self._until_up(pub, 90)
            self.webs[pub].tokens = await asyncio.to_thread(self._tokens, pub)
        await self._league_up(60)
        deadline = time.monotonic() + 60
        while not all(b.stats["hello_requests"] for b in self.boards.values()):
            if time.monotonic() > deadline:
                raise RuntimeError("a pub's host never asked its board for a HELLO")
            await asyncio.sleep(0.2)
        await asyncio.sleep(1.0)
        play = self.cfg.play  # the practice bursts cut the cable only when cuts are among the faults
        if "cut" not in self.cfg.kinds:
            play = dataclasses.replace(play, burst_cut_chance=0.0)
        for spec in self.specs:
            ref = Referee(self.http, self.webs[spec.pub], spec.table, self.answers)
            self.referees[spec.name] = ref
            self.drivers[spec.name] = TableDriver(spec, self.profiles[spec.game][2], self.boards[spec.name],
                                                  ref, self.cfg.seed, play)
        self.say(f"soak: {len(self.pubs)} pubs, {len(self.specs)} tables, broker on {self.bport}, "
                 f"league page "
                 f"http://127.0.0.1:{self.lport}/, disks: {self.disks[self.pubs[0]].method}")

    def _tokens(self, pub: str) -> dict[str, str]:
        deadline = time.monotonic() + 30
        while True:
            try:
                con = sqlite3.connect(f"file:{self.db[pub]}?mode=ro", uri=True, timeout=5)
                try:
                    rows = dict(con.execute("SELECT id, token FROM tables").fetchall())
                finally:
                    con.close()
                if len(rows) >= len(self.cfg.layout[pub]):
                    return rows
            except sqlite3.Error:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"pub {pub}: no table tokens in its match log")
            time.sleep(0.2)

    async def _get(self, server: str, url: str, timeout: float = 3.0) -> int | None:
        assert self.http is not None
        try:
            async with self.http.get(url, timeout=aiohttp.ClientTimeout(total=timeout)) as r:
                await r.read()
                self.answers.note(server, f"GET {url}", r.status)
                return r.status
        except (aiohttp.ClientError, TimeoutError):
            return None

    async def _until_up(self, pub: str, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if await self._get(pub, f"{self.webs[pub].base}/api/tables") == 200:
                return True
            await asyncio.sleep(0.3)
        return False

    async def _league_up(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if await self._get("league", f"http://127.0.0.1:{self.lport}/api/league") is not None:
                return True
            await asyncio.sleep(0.3)
        return False

    # --- watching (what the pub's TVs and the league page do all evening) --------------------------
    async def _watch_pub(self, pub: str) -> None:
        web = self.webs[pub]
        n = 0
        while not self.stopping:
            n += 1
            for table in [str(i) for i in range(1, len(self.cfg.layout[pub]) + 1)]:
                await self._get(pub, f"{web.base}/api/table/{table}")
            if n % 5 == 0:
                await self._get(pub, f"{web.base}/")
                await self._get(pub, f"{web.base}/api/table/1/log")
            await asyncio.sleep(1.5)

    async def _watch_overview(self, pub: str) -> None:
        assert self.http is not None
        while not self.stopping:
            try:
                async with self.http.ws_connect(f"{self.webs[pub].base}/ws", heartbeat=None) as ws:
                    async for _msg in ws:
                        self.counts["overview_messages"] += 1
                        if self.stopping:
                            break
            except aiohttp.WSServerHandshakeError as exc:
                self.answers.note(pub, "WS /ws", exc.status)
            except (aiohttp.ClientError, TimeoutError, OSError):
                pass
            await asyncio.sleep(1.0)

    async def _watch_league(self) -> None:
        """The league page: its data every 2 s and, as a user opening them, its rounds in turn
        (``/api/league`` carries the newest results; the others are fetched a round at a time)."""
        base, n = f"http://127.0.0.1:{self.lport}", 0
        while not self.stopping:
            await self._get("league", f"{base}/api/league")
            n += 1
            await self._get("league", f"{base}/api/league/round?competition=1&round={n % 3 + 1}")
            await asyncio.sleep(2.0)

    # --- the evening ------------------------------------------------------------------------------
    async def play(self) -> None:
        cfg = self.cfg
        names = [s.name for s in self.specs]
        rates = Rates(**{k: (v if k in cfg.kinds else 0.0) for k, v in vars(cfg.rates).items()})
        self.faults = fault_plan.plan(cfg.seed, cfg.seconds, self.pubs, names, rates, cfg.every_kind)
        t0 = time.monotonic()
        for d in self.drivers.values():
            d.stop_at = t0 + cfg.seconds
            d.started = t0
        for pub in self.pubs:
            self.background.append(asyncio.create_task(self._watch_pub(pub)))
            self.background.append(asyncio.create_task(self._watch_overview(pub)))
        self.background.append(asyncio.create_task(self._watch_league()))
        scheduler = asyncio.create_task(self._schedule(t0))
        runs = [asyncio.create_task(d.run(), name=n) for n, d in self.drivers.items()]
        try:
            await asyncio.gather(*runs)
        finally:
            scheduler.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await scheduler
            for r in runs:
                r.cancel()
        for d in self.drivers.values():
            self.faults += d.cuts
        self.faults.sort(key=lambda f: f.at)
        self.say(f"soak: play over after {time.monotonic() - t0:.0f} s; the faults end")
        if self.fault_tasks:
            await asyncio.wait(self.fault_tasks, timeout=120)
        await self._all_up()

    async def _all_up(self) -> None:
        """Everything running again, every disk free (the faults are over)."""
        for disk in self.disks.values():
            disk.free()
        if not self.broker.alive():
            self.broker.start()
        for pub, host in self.hosts.items():
            if not host.alive():
                host.start()
                self.disks[pub].pids = [host.pid or 0]
            await self._until_up(pub, 60)
        if not self.league.alive():
            self.league.start()
        await self._league_up(60)

    async def settle(self) -> None:
        """Let the last shots come to rest and the league catch up."""
        await asyncio.sleep(2.0)
        await self._league_caught_up(self.cfg.settle)
        if self.broker_lost_power:
            # docs/league.md: a broker that lost power loses what it had not saved; the pubs send
            # their outboxes again (duplicates are harmless) -- the documented recovery
            for pub, host in self.hosts.items():
                await asyncio.to_thread(self._resend, pub)
                host.terminate()
                host.start()
                await self._until_up(pub, 60)
            await self._league_caught_up(self.cfg.settle)

    def _resend(self, pub: str) -> None:
        con = sqlite3.connect(self.db[pub], timeout=30)
        try:
            with con:
                sql = "UPDATE league_outbox SET sent = NULL WHERE sent IS NOT NULL"
                self.resent += con.execute(sql).rowcount
        finally:
            con.close()

    async def _league_caught_up(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        last, same_since = -1, time.monotonic()
        while time.monotonic() < deadline:
            waiting = sum([await asyncio.to_thread(self._outbox_waiting, pub) for pub in self.pubs])
            have = await asyncio.to_thread(self._league_rows)
            if have != last:
                last, same_since = have, time.monotonic()
            if waiting == 0 and time.monotonic() - same_since > 4.0:
                return True
            await asyncio.sleep(0.5)
        self.counts["league_settle_timeouts"] += 1
        return False

    def _outbox_waiting(self, pub: str) -> int:
        try:
            con = sqlite3.connect(f"file:{self.db[pub]}?mode=ro", uri=True, timeout=5)
            try:
                row = con.execute("SELECT COUNT(*) FROM league_outbox WHERE sent IS NULL AND refused IS NULL")
                n = int(row.fetchone()[0])
                ended = con.execute("SELECT COUNT(*) FROM matches WHERE ended IS NOT NULL").fetchone()[0]
                queued = con.execute("SELECT COUNT(DISTINCT match_id) FROM league_outbox").fetchone()[0]
            finally:
                con.close()
            return n + max(0, int(ended) - int(queued))
        except sqlite3.Error:
            return 1

    def _league_rows(self) -> int:
        try:
            con = sqlite3.connect(f"file:{self.league_db}?mode=ro", uri=True, timeout=5)
            try:
                tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                n = 0
                for t in ("league_matches", "league_refused", "results"):
                    if t in tables:
                        n += int(con.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0])
                return n
            finally:
                con.close()
        except sqlite3.Error:
            return -1

    async def stop(self) -> None:
        self.stopping = True
        for t in self.background:
            t.cancel()
        for t in self.background + self.fault_tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        await asyncio.to_thread(self.procs.stop_all)
        for b in self.boards.values():
            with contextlib.suppress(Exception):
                await b.stop()
        if self.http is not None:
            await self.http.close()

    def kept(self) -> None:
        """The databases as the stopped processes left them, off the unmounted small disks."""
        self.disk_method = self.disks[self.pubs[0]].method.replace(" (unmounted)", "")
        for pub in self.pubs:
            self.db[pub] = self.disks[pub].kept / "pub.db"
        self.league_db = self.disks["league"].kept / "league.db"

    # --- the invariants -----------------------------------------------------------------------------
    def record(self) -> Record:
        return Record(
            seed=self.cfg.seed,
            tables=[TableRecord(s.name, s.pub, s.table, s.game, str(self.profiles[s.game][0]),
                                self.boards[s.name].boots) for s in self.specs],
            pub_dbs={p: str(d) for p, d in self.db.items()}, league_db=str(self.league_db),
            competition=COMPETITION, acks={n: r.acks for n, r in self.referees.items()},
            answers_5xx=self.answers.errors(),
            stderrs={**{p.name: p.stderr_text() for p in self.procs.procs if p.name != "cpu load"},
                     **{f"firmware {n}": b.firmware_stderr() for n, b in self.boards.items()}},
            host_stops={p: h.stops for p, h in self.hosts.items()},
            faults=[dataclasses.asdict(f) for f in self.faults])

    def check(self) -> tuple[dict[str, list[str]], dict[str, Any]]:
        rec = self.record()
        rec.save(self.work / "record.json")
        broken, sensor, per_table = check_record(rec)
        self._attribute(per_table)
        return broken, self._figures(sensor)

    def _attribute(self, per_table: dict[str, list[float]]) -> None:
        """A fault survived if the system recovered from it and no sensor event broke on a table
        it touched while it lasted (or in the 10 s after)."""
        for f in self.faults:
            if f.started is None:
                f.note = f.note or "not injected (play ended first)"
                continue
            if f.kind in ("cut", "reboot"):
                touched = [f.target]
            elif f.target in self.pubs:
                touched = [s.name for s in self.specs if s.pub == f.target]
            elif f.kind == "cpu":
                touched = list(per_table)
            else:
                touched = []
            lo, hi = f.started - 1.0, (f.ended or f.started) + 10.0
            hits = [t for name in touched for t in per_table.get(name, []) if lo <= t <= hi]
            if hits:
                what = f"{len(hits)} sensor event break(s) on its table(s)"
                f.note = f"{f.note}; {what}" if f.note else what
                f.recovered = False

    def _figures(self, sensor: inv.SensorFigures) -> dict[str, Any]:
        fig: dict[str, Any] = {}
        injected: Counter[str] = Counter()
        survived: Counter[str] = Counter()
        for f in self.faults:
            if f.started is None:
                continue
            injected[f.kind] += 1
            if f.recovered:
                survived[f.kind] += 1
        fig["faults"] = {k: (injected[k], survived[k]) for k in fault_plan.KINDS if injected[k]}
        boards = self.boards.values()
        fig["link"] = {k: sum(b.stats[k] for b in boards) for k in
                       ("cuts_hard", "cuts_silent", "reboots", "replay_requests", "host_connects")}
        fig["link"]["frames written"] = sum(len(bt.frames) for b in boards for bt in b.boots)
        fig["link"]["frames written again"] = sum(bt.replayed for b in boards for bt in b.boots)
        fig["sensor events"] = {"the boards wrote": sensor.expected, "logged": sensor.logged,
                                "matched": sensor.matched, "said lost": sensor.said_lost,
                                "silently lost": sensor.silently_lost, "doubled": sensor.doubled,
                                "at a time never written": sensor.invented,
                                "pins set again after a loss": sensor.resync,
                                "out of order": sensor.out_of_order,
                                "logged twice at another time": sensor.doubled_shifted,
                                "lost ranges the board still held": sensor.lost_said_held}
        drv = list(self.drivers.values())
        fig["play"] = {"matches started": sum(d.fig.matches_started for d in drv),
                       "shots": sum(d.fig.shots for d in drv), "edges fed": sum(d.fig.edges for d in drv),
                       "practice bursts": sum(d.fig.bursts for d in drv),
                       "burst edges": sum(d.fig.burst_edges for d in drv),
                       "fastest burst, frames/s": round(max((d.fig.burst_rate_max for d in drv), default=0)),
                       "rests the panel did not show in time": sum(d.fig.rests_not_shown for d in drv)}
        calls: Counter[str] = Counter()
        for d in drv:
            calls.update(d.fig.calls)
        fig["referee"] = dict(sorted(calls.items()))
        finished = 0
        for pub in self.pubs:
            con = sqlite3.connect(f"file:{self.db[pub]}?mode=ro", uri=True)
            try:
                finished += con.execute("SELECT COUNT(*) FROM matches WHERE ended IS NOT NULL").fetchone()[0]
            finally:
                con.close()
        fig["play"]["matches finished in the pubs"] = finished
        _, in_league = inv.league_standings(self.league_db, COMPETITION)
        _, direct = inv.direct_standings(self.league_db, COMPETITION, self.db)
        fig["league"] = {"results in the league": in_league,
                         "finished carom matches in the pubs' logs": direct,
                         "matches resent after the broker lost power": self.resent,
                         "junk messages": sum(self.junk_sent.values())}
        fig["web"] = dict(self.answers.counts) | {"hostile": dict(self.hostile_sent)}
        fig["disk"] = self.disk_method
        fig["process starts"] = {p.name: p.starts for p in self.procs.procs if p.name != "cpu load"}
        fig["invariants checked"] = len(INVARIANTS) * 1
        return fig


async def run_async(cfg: SoakConfig) -> Report:
    season = Season(cfg)
    broken: dict[str, list[str]] = {}
    figures: dict[str, Any] = {}
    try:
        await season.setup()
        await season.play()
        await season.settle()
    finally:
        await season.stop()
    season.kept()
    broken, figures = season.check()
    report = Report(cfg, season.faults, broken, figures, season.work)
    if not cfg.keep and cfg.workdir is None and report.ok:
        shutil.rmtree(season.work, ignore_errors=True)
    return report


def run(cfg: SoakConfig) -> Report:
    """Play a season under fire and check it (every process stopped, whatever happens)."""
    return asyncio.run(run_async(cfg))


def format_report(report: Report) -> str:
    cfg = report.config
    out = [f"season soak: seed {cfg.seed}, {cfg.seconds:.0f} s of play, {len(report.faults)} faults planned, "
           f"disks: {report.figures.get('disk')}"]
    fig = report.figures
    out.append("faults injected / survived:")
    for kind, (n, ok) in fig.get("faults", {}).items():
        out.append(f"  {kind:<12} {n:>4} / {ok}")
    for section in ("play", "sensor events", "link", "referee", "league", "web", "process starts"):
        out.append(f"{section}: " + ", ".join(f"{k} {v}" for k, v in fig.get(section, {}).items()))
    checked = sum(1 for _ in report.broken)
    bad = {k: v for k, v in report.broken.items() if v}
    out.append(f"invariants checked: {checked}, broken: {len(bad)}")
    for k, lines in bad.items():
        out.append(f"BROKEN {k} (seed {cfg.seed}):")
        out += [f"  - {line}" for line in lines[:12]]
        if len(lines) > 12:
            out.append(f"  ... {len(lines) - 12} more")
    unsurvived = [f for f in report.faults if f.started is not None and not f.recovered]
    if unsurvived:
        out.append("faults not survived:")
        out += [f"  {f} -- {f.note}" for f in unsurvived[:20]]
    if not report.ok:
        only = "" if set(cfg.kinds) == set(fault_plan.KINDS) else " --only " + (" ".join(cfg.kinds) or "none")
        every = " --every-kind" if cfg.every_kind else ""
        out.append(f"repeat: python bench/season_soak.py --seed {cfg.seed} --minutes {cfg.seconds / 60:g}"
                   f"{every}{only} --anchor-minutes 0; logs and databases in {report.workdir}")
    return "\n".join(out)
