"""``tablesense league serve``: the league service -- subscribes to every pub, checks and
stores each match it receives (``inbox``), keeps the live tables, serves the league page.

The subscription is a persistent MQTT session (client id ``tablesense-league``): while the
service is stopped the broker keeps the pubs' matches for it. paho's thread hands each
match message at once (``quick``), oldest first, to one of the checker processes
(``checkers``, forked at the start: a replay is pure Python, and the processes use every
core), which parses, replays, checks and places it; a thread a process waits for its
answer, so a long log never holds back another message, and the broker connection (paho's
thread) never waits for a replay. One
committer stores what came of every message checked, a pub's in the order they came (at
most ``BATCH`` of a pub), in one transaction (one sync to disk), while the processes check
the next, and only then acknowledges them to the broker: a service killed at any moment
gets every message it had not stored again. The subscriber holds at most
``mqtt.RECEIVE_MAXIMUM`` messages (and ``mqtt.HELD_BYTES``) unacknowledged: at that many it
stops reading its socket, which bounds what waits here whatever the broker sends.
Without processes (``checkers=0``, off Linux) ``WORKERS`` threads check the messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from aiohttp import web

from ..web.limits import server_logger
from . import ingest, part
from .broker_url import BrokerURL
from .checkers import CheckerDied, Checkers, CheckFault, default_count
from .inbox import Inbox, Outcome, Prepared, open_inbox
from .ingest import too_big
from .limits import MAX_LIVE_BYTES
from .logcheck import Stopped
from .messages import ROOT, BadMessage, decode_live, encode, parse_topic
from .mqtt import RETRY_HANDLE_S, Delivery, Subscriber
from .nights import cards_by_pub, nights_message, nights_topic
from .page import make_app

CLIENT_ID = "tablesense-league"
#: threads checking matches at once when the service has no checker processes
WORKERS = 4
#: the most messages of one pub stored in one transaction
BATCH = 20
#: checked messages that are stored at once while more are being checked (a commit, its sync
#: to disk, costs as much CPU as storing ten matches: fewer and fuller commits)
STORE_AT = 8
#: the most messages sent to a checker process at once (when more wait than there are
#: processes: fewer exchanges, each a few system calls and two threads woken)
CALL_AT_MOST = 8
#: seconds a checked message waits at most for others to be stored with (while others are
#: being checked; none are: stored at once)
LINGER_S = 0.02
#: seconds between two looks at the schedule for nights to tell the pubs (league schedule,
#: add-team ... change it from another process)
NIGHTS_EVERY = 5.0
#: seconds the service waits for the broker's PUBACK of a pub's nights (none: the next look)
NIGHTS_PUBACK_S = 10.0
#: what to do about a broker whose ACL refuses the nights (set up before team nights)
NIGHTS_ACL_FIX = ("run tablesense league broker-config --dir DIR --pub PUB ... again, with every pub (the "
                  "passwords stay), then restart Mosquitto")

T = TypeVar("T")
CHECKING = "checking received matches"  # what a check thread was doing when a fault came
#: what the service says when its file refuses a match and when it takes them again (the soak reads them)
REFUSED = "cannot be {} now"
AGAIN = "received matches are {} again"


@dataclass(slots=True)
class Waiting:
    """A match message not stored yet: from the broker (``delivery``, acknowledged once its
    outcome is stored) or kept by an earlier release (``received``: its row); ``prepared``
    once checked."""

    pub: str
    raw: bytes
    delivery: Delivery | None = None
    received: int | None = None
    checking: bool = False
    prepared: Prepared | None = None
    checked_at: float = 0.0  # time.monotonic() when checked


def _warm() -> None:
    """What a first replay of each game loads (its engine, its league part, the texts its
    rulings are said in), loaded before the checker processes are forked: each would load
    it again at its first match of a game (0.1-0.2 s of CPU, on the way of that match)."""
    from .. import games as all_games
    from .. import texts

    for game in all_games.names():
        for piece in ("engine", "figures"):
            all_games.part(game, piece)
        part.of(game)
    with contextlib.suppress(Exception):  # best effort: a first match loads what is left
        texts.language("en").plural(1)  # CLDR's plural rules (babel)


def _check_in_child(meta: tuple[str, float], raw: bytes, members: Sequence[ingest.Members]) -> ingest.Checked:
    """A checker process's work on one message (``checkers``): ``meta`` is (pub, now)."""
    return ingest.check_message(meta[0], raw, members or (), now=meta[1])


class LeagueService:
    def __init__(self, url: BrokerURL, db: str, on_outcome: Callable[[Outcome], None] | None = None,
                 workers: int = WORKERS, checkers: int | None = None) -> None:
        """``checkers``: processes checking matches (None: ``checkers.default_count``; 0: none,
        ``workers`` threads check them)."""
        self.url, self.db = url, db
        self.inbox = open_inbox(db)  # the subscriber's and the workers' threads write through it
        self.on_outcome = on_outcome or _say
        self._live: dict[tuple[str, str], dict[str, Any]] = {}
        self._lock = threading.Lock()
        self.subscriber = Subscriber(url, CLIENT_ID, f"{ROOT}/#", self.handle,
                                     retry_on=(sqlite3.OperationalError,),  # locked, disk full
                                     quick=self.quick)
        lock = threading.Lock()
        self._ready = threading.Condition(lock)  # a message checked (the committer waits for it)
        self._queued = threading.Condition(lock)  # a message to check (the checkers' threads wait)
        self._pending: dict[str, deque[Waiting]] = {}  # each pub's not stored yet, oldest first
        self._jobs: deque[Waiting] = deque()  # not checked yet, oldest first
        self._stop = threading.Event()
        count = default_count() if checkers is None else checkers
        self.checkers = Checkers(_check_in_child, count, _warm) if count else None
        self._workers = [threading.Thread(target=self._check_loop, args=(k,), name=f"league check {k}",
                                          daemon=True) for k in range(count or workers)]
        self._workers.append(threading.Thread(target=self._commit_loop, name="league store", daemon=True))
        self._nights_sent: dict[str, bytes] = {}
        self._nights = threading.Thread(target=self._tell_nights, name="league nights", daemon=True)
        # the broker's PUBACKs of the nights (paho's thread puts them, the nights' thread takes them)
        self._acked = threading.Condition()
        self._acks: dict[int, Any] = {}
        self._abandoned: set[int] = set()
        self._nights_refused = False  # said once (until the broker takes the nights)
        self._faults: set[str] = set()  # the kinds of unexpected error said (``_fault``)
        self._forks_failing = False  # said once (``_unforkable``)
        self.subscriber.client.on_publish = self._published

    # --- paho's and the subscriber's threads: hand each match to the workers ---------------
    def quick(self, topic: str, payload: bytes, delivery: Delivery) -> bool:
        """paho's thread: a match message that can be read, handed to the checkers at once
        (no I/O: one hop between threads less); False: ``handle`` takes it (a live state, a
        topic the league does not read, a message too long: each written down)."""
        where = parse_topic(topic)
        if where is None or where.kind != "matches" or too_big(payload) is not None:
            return False
        self._arrived([Waiting(where.pub, payload, delivery)])
        return True

    def handle(self, topic: str, payload: bytes, retained: bool, delivery: Delivery) -> bool:
        """True: acknowledge the message now; False: a worker acknowledges it once stored."""
        where = parse_topic(topic)
        if where is None:
            pub = topic.split("/")[2] if topic.startswith(f"{ROOT}/") and topic.count("/") >= 2 else "?"
            self.on_outcome(self.inbox.refuse_other(pub, topic, "a topic the league does not read "
                                                    "(a pub writes live/TABLE and matches)"))
            return True
        if where.kind == "live" and where.table is not None:
            self._set_live(where.pub, where.table, payload)
            return True
        out = self.inbox.refuse_unread(where.pub, payload)
        if out is not None:
            self.on_outcome(out)
            return True
        self._arrived([Waiting(where.pub, payload, delivery)])
        return False

    def _arrived(self, messages: list[Waiting]) -> None:
        with self._ready:
            for w in messages:
                self._pending.setdefault(w.pub, deque()).append(w)
                self._jobs.append(w)
            self._queued.notify(len(messages))

    def waiting(self) -> int:
        """Match messages received and not stored yet."""
        with self._ready:
            return sum(len(q) for q in self._pending.values())

    def checking(self) -> set[str]:
        """The pubs a message of which is being checked now."""
        with self._ready:
            return {w.pub for q in self._pending.values() for w in q if w.checking}

    def _set_live(self, pub: str, table: str, payload: bytes) -> None:
        live = None
        if payload:
            try:
                if len(payload) > MAX_LIVE_BYTES:
                    raise BadMessage(f"a live state of {len(payload):,} bytes (at most {MAX_LIVE_BYTES:,})")
                msg = decode_live(payload)
                if (msg.pub, msg.table) != (pub, table):
                    raise BadMessage(f"a live state of {msg.pub}'s table {msg.table} on {pub}'s "
                                     f"table {table}")
            except BadMessage as exc:
                self.on_outcome(self.inbox.refuse_other(pub, f"live/{table}", str(exc)))
                msg = None
            if msg is not None and msg.match is not None and not msg.finished:
                m = msg.match
                live = {"pub": pub, "table": table, "summary": msg.summary, "finished": False,
                        "match": {"id": m.id, "game": m.game, "started": m.started,
                                  "players": {"p1": m.players.p1, "p2": m.players.p2}}}
        with self._lock:
            if live is not None:
                self._live[(pub, table)] = live
            else:
                self._live.pop((pub, table), None)

    def live(self) -> list[dict[str, Any]]:
        with self._lock:
            return [self._live[k] for k in sorted(self._live)]

    # --- the checkers' threads: each message checked as it comes ------------------------
    def _check_loop(self, slot: int) -> None:
        threads = len(self._workers) - 1
        while not self._stop.is_set():
            with self._queued:
                if not self._jobs:
                    self._queued.wait(1.0)
                    continue
                take = 1 if self.checkers is None else max(1, min(CALL_AT_MOST, len(self._jobs) // threads))
                batch = [self._jobs.popleft() for _ in range(take)]
                for w in batch:
                    w.checking = True
            try:
                prepared = self._check(slot, batch)
            except Stopped:
                return
            with self._ready:
                now = time.monotonic()
                for w, p in zip(batch, prepared, strict=True):
                    w.checking, w.prepared, w.checked_at = False, p, now
                self._ready.notify()

    def _check(self, slot: int, batch: list[Waiting]) -> list[Prepared]:
        """What came of each message of ``batch`` (in a checker process, or here without)."""
        if self.checkers is None:
            return [self._retrying(partial(self._prepare, w), CHECKING) for w in batch]
        out = [self._retrying(partial(self.inbox.known, w.pub, w.raw, received=w.received), CHECKING)
               for w in batch]  # a duplicate is not replayed
        todo = [k for k, p in enumerate(out) if p is None]
        if todo:
            shared = self._retrying(self.inbox.shared_members, CHECKING)
            jobs = [((batch[k].pub, time.time()), batch[k].raw) for k in todo]
            delay = RETRY_HANDLE_S[0]
            while True:
                try:
                    answers = self.checkers.call(slot, jobs, shared)
                    break
                except CheckerDied as exc:  # stopping, or no process could be forked (tried again)
                    if self._stop.is_set():
                        raise Stopped from None
                    self._unforkable(f"a received match cannot be checked now ({exc}); trying again")
                    if self._stop.wait(delay):
                        raise Stopped from None
                    delay = min(delay * 2, RETRY_HANDLE_S[1])
            self._unforkable(None)
            for k, answer in zip(todo, answers, strict=True):
                w = batch[k]
                out[k] = (self.inbox.unreadable(w.pub, str(answer), w.received, raw=w.raw)
                          if isinstance(answer, (CheckFault, CheckerDied))
                          else self.inbox.prepared(w.pub, answer, w.received))
        return [p for p in out if p is not None]

    def _unforkable(self, why: str | None) -> None:
        """No checker process can be forked (``why``), said once by whichever check thread
        finds it first, until one can again (None: said once too)."""
        with self._lock:
            if (why is not None) == self._forks_failing:
                return
            self._forks_failing = why is not None
        self._tell(why or "received matches are checked again")

    # --- the committer: store, then acknowledge --------------------------------------------
    def _commit_loop(self) -> None:
        """Store what was checked, then acknowledge it: an error of any kind leaves the batch
        unacknowledged and tried again (``_retrying``); the thread never ends before the service."""
        while not self._stop.is_set():
            try:
                self._commit_once()
            except Stopped:
                return
            except Exception as exc:  # a fault of the league's own: said, and the loop goes on
                self._fault("storing received matches", exc)
                if self._stop.wait(RETRY_HANDLE_S[0]):
                    return

    def _commit_once(self) -> None:
        with self._ready:
            batch = self._checked()
            wait = self._linger(batch)
            if wait > 0:
                self._ready.wait(wait)
                return
        prepared = [w.prepared for w in batch if w.prepared is not None]
        outs = self._retrying(partial(self._commit, prepared))
        with self._ready:
            for w in batch:
                queue = self._pending[w.pub]
                queue.popleft()  # the batch is each pub's oldest, in order
                if not queue:
                    del self._pending[w.pub]
        for w in batch:
            if w.delivery is not None:
                try:
                    self.subscriber.ack(w.delivery)
                except Exception as exc:  # stored: the broker sends it again, a duplicate
                    self._fault("acknowledging a stored match", exc)
        plain = self.on_outcome is _say  # the batch's lines written at once (one flush, not one a match)
        for out in outs:
            try:
                if plain:
                    _say(out, flush=False)
                else:
                    self.on_outcome(out)
            except Exception as exc:  # saying it never stops the storing
                self._fault("saying what came of a match", exc)
        if plain:
            _flush()

    def _tell(self, text: str) -> None:
        """One line on stderr; a stderr gone (a closed pipe) is no reason to stop."""
        with contextlib.suppress(Exception):
            self.subscriber.report.say(text)

    def _fault(self, doing: str, exc: BaseException) -> None:
        """An unexpected error, said once per kind (until the service stores again)."""
        kind = f"{doing}: {type(exc).__name__}"
        if kind in self._faults:
            return
        self._faults.add(kind)
        self._tell(f"a fault {doing} ({type(exc).__name__}: {str(exc)[:200]}); trying again")

    def _linger(self, batch: list[Waiting]) -> float:
        """Seconds to wait before storing ``batch`` (0: store it now): a few messages are
        stored together while others are being checked, none waits longer than ``LINGER_S``."""
        if not batch:
            return 1.0
        if len(batch) >= STORE_AT or not any(w.prepared is None for q in self._pending.values() for w in q):
            return 0.0
        return max(0.0, min(w.checked_at for w in batch) + LINGER_S - time.monotonic())

    def _checked(self) -> list[Waiting]:
        """Each pub's oldest messages that are checked (at most ``BATCH`` a pub), in order."""
        batch: list[Waiting] = []
        for queue in self._pending.values():
            for k, w in enumerate(queue):
                if w.prepared is None or k == BATCH:
                    break
                batch.append(w)
        return batch

    def _prepare(self, w: Waiting) -> Prepared:
        try:
            return self.inbox.prepare(w.pub, w.raw, should_stop=self._stop.is_set, received=w.received)
        except (sqlite3.OperationalError, Stopped, sqlite3.ProgrammingError):
            raise
        except Exception as exc:  # a fault of the league's own: the message is listed, not lost in a loop
            return self.inbox.unreadable(w.pub, exc, w.received, raw=w.raw)

    def _commit(self, prepared: list[Prepared]) -> list[Outcome]:
        try:
            return self.inbox.commit(prepared)
        except (sqlite3.OperationalError, Stopped, sqlite3.ProgrammingError):
            raise
        except Exception as exc:  # a fault of the league's own in one of them: each alone
            if len(prepared) > 1:
                return [out for p in prepared for out in self._commit([p])]
            p = prepared[0]
            return self.inbox.commit([self.inbox.unreadable(p.pub, exc, p.received, of=p)])

    def _retrying(self, step: Callable[[], T], doing: str = "storing received matches") -> T:
        """``step()``, tried again with a back-off while the database is locked by another
        program or the disk is full, or it fails in a way nobody foresaw (each said once, and
        once when it passes); ``Stopped`` when the service stops."""
        delay, failing = RETRY_HANDLE_S[0], False
        while True:
            try:
                out = step()
                break
            except sqlite3.OperationalError as exc:  # locked by another program, a full disk
                if not failing:
                    verb = "checked" if doing == CHECKING else "stored"
                    self._tell(f"a received match {REFUSED.format(verb)} ({exc}); trying again")
            except (Stopped, sqlite3.ProgrammingError):  # stopping (the database closed under us)
                raise Stopped from None
            except Exception as exc:  # a fault of the league's own: not the end of the thread
                self._fault(doing, exc)
            failing = True
            if self._stop.wait(delay):
                raise Stopped from None
            delay = min(delay * 2, RETRY_HANDLE_S[1])
        if failing:
            self._faults.clear()
            self._tell(AGAIN.format("checked" if doing == CHECKING else "stored"))
        return out

    # --- telling each home pub its team nights ---------------------------------------------
    def _tell_nights(self) -> None:
        """Publish each pub's nights (retained) whenever they change, and all again after a
        reconnect (a broker that lost its retained messages)."""
        up = False
        while not self._stop.is_set():
            now_up = self.subscriber.connected.is_set()
            if now_up and not up:
                self._nights_sent.clear()
            up = now_up
            if up:
                try:
                    self.tell_nights()
                except sqlite3.Error:
                    pass  # locked by another program: the next look
            self._stop.wait(NIGHTS_EVERY)

    def tell_nights(self) -> int:
        """Publish the nights that changed since they were last sent; how many pubs were told."""
        with self.inbox.lock:
            cards = cards_by_pub(self.inbox.store, time.strftime("%Y-%m-%d"))
        told = 0
        for pub, mine in cards.items():
            payload = encode(nights_message(pub, mine))
            if self._nights_sent.get(pub) == payload:
                continue
            info = self.subscriber.client.publish(nights_topic(pub), payload, qos=1, retain=True)
            if info.rc != 0:
                continue
            reason = self._puback(info.mid)
            if reason is None:
                continue  # no answer (the broker away): the next look
            if getattr(reason, "is_failure", False):
                self._refused_nights(pub, str(reason))
                continue
            self._nights_refused = False
            self._nights_sent[pub] = payload
            told += 1
            nxt = f", the first on {mine[0]['date']}" if mine else ""
            print(f"told {pub} its team nights: {len(mine)}{nxt}", flush=True)
        return told

    def _refused_nights(self, pub: str, why: str) -> None:
        """The broker refuses the league's nights topic: an ACL written before team nights.
        Said once, in one line, with what to rerun; the nights are tried again at each look."""
        if self._nights_refused:
            return
        self._nights_refused = True
        print(f"tablesense league serve: the broker refuses {nights_topic(pub)} for user "
              f"{self.url.username!r} ({why}): its ACL is older than team nights; {NIGHTS_ACL_FIX}",
              file=sys.stderr, flush=True)

    def _published(self, client: Any, userdata: Any, mid: int, reason: Any, props: Any) -> None:
        """paho's thread: a PUBACK (only the nights are published here)."""
        with self._acked:
            if mid in self._abandoned:
                self._abandoned.discard(mid)
                return
            self._acks[mid] = reason
            self._acked.notify_all()

    def _puback(self, mid: int, timeout: float = NIGHTS_PUBACK_S) -> Any | None:
        """The broker's answer to publish ``mid`` (None: none in ``timeout`` seconds). The
        condition is never held while paho is called, so paho's thread never waits for it long."""
        deadline = time.monotonic() + timeout
        with self._acked:
            while mid not in self._acks:
                left = deadline - time.monotonic()
                if left <= 0 or self._stop.is_set():
                    self._abandoned.add(mid)
                    return None
                self._acked.wait(min(left, 0.5))
            return self._acks.pop(mid)

    def start(self) -> None:
        if self.checkers is not None:
            self.checkers.start()  # forked first: before the service's threads
        # what an earlier release kept and had not checked: first
        self._arrived([Waiting(pub, raw, received=row) for row, pub, raw in self.inbox.kept()])
        for w in self._workers:
            w.start()
        self.subscriber.start()
        self._nights.start()

    def close(self) -> None:
        self._stop.set()
        with self._ready:
            self._ready.notify_all()
            self._queued.notify_all()
        if self.checkers is not None:
            self.checkers.close()  # a long replay is not waited for: the broker sends it again
        self.subscriber.close()
        for w in (*self._workers, self._nights):
            if w.is_alive():
                w.join(10)
        if self.checkers is not None:
            self.checkers.release()
        self.inbox.close()


def _say(out: Outcome, flush: bool = True) -> None:
    """What came of a match, in one line; an output gone (a closed pipe) is not an error."""
    with contextlib.suppress(OSError, ValueError):
        if out.kind == "refused":
            print(f"tablesense league serve: refused {out.match_id}: {out.text}", file=sys.stderr,
                  flush=flush)
        elif out.kind != "duplicate":
            print(f"{out.kind} {out.match_id}: {out.text}", flush=flush)


def _flush() -> None:
    """``_say``'s lines written out (an output gone is not an error)."""
    for out in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            out.flush()


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
            runner = web.AppRunner(make_app(reader, service.live), access_log=None, handle_signals=False,
                                   logger=server_logger())  # a bad request is one line, not a traceback
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
