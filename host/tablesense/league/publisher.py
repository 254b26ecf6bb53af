"""The pub's side of the league: ``tablesense run --league URL --pub NAME``.

One asyncio task beside the tables: it watches every table of the pub and

- publishes each table's live state, retained, under ``tablesense/pubs/PUB/live/TABLE``
  (only the newest state of a table is sent: changes made while a publish is under way
  are sent together after it);
- puts each match whose result is final into the outbox (``outbox``), in the pub's SQLite
  file;
- drains the outbox to ``tablesense/pubs/PUB/matches`` whenever the broker is there,
  one match at a time, each taken off the outbox only after the broker's PUBACK;
- reads the team nights the league tells it (``tablesense/league/nights/PUB``, retained;
  kept in the pub's SQLite file), tags each match of a night with its fixture and keeps the
  night's score for the TV overview (``pub_nights``: ``Pub.team_night``).

A result is final when the referee has moved on: the next set-up at its table, or no
question open and nothing logged for ``FINAL_AFTER_S`` seconds after the end (``final_at``).
The engine ends a match at the rest of its last shot, but the referee may still amend that
shot (a carom called after the rest, which the panel asks for; a foul seen late): sent at
once, the league would show a result the next call reverses. The live state, sent as it
changes, shows the end at once. A change after the result went (a void from "Shots and
calls") is sent again, final in its turn, under a higher revision: the league keeps the
newest revision of a match.

A broker that is away costs nothing but time: the live state is sent again and the
outbox drained when it is back. A full disk that refuses the outbox's writes is said once
on stderr; they are made again on the next turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import sys
import time
from typing import Any

from ..pub import Pub, Table
from ..store import StoreUnavailable
from .broker_url import BrokerURL
from .limits import MAX_MESSAGE_BYTES
from .messages import encode, live_message, live_topic, matches_topic, nights_topic, reported
from .mqtt import AsyncPublisher, NoSubscriber, NotConnected, PublishRefused
from .outbox import Outbox
from .pub_nights import BadNights, PubNights

#: seconds between two looks at the outbox when nothing wakes the publisher
RETRY_S = 5.0
#: the team night's score is worked out at most this often (seconds)
NIGHT_EVERY = 1.0
#: seconds an ended match stays open to the referee's amendments before its result is final
#: for the league (unless the next set-up at its table comes first): a carom called after the
#: last rest, a foul seen late, a void of the last shot come within seconds
FINAL_AFTER_S = 30.0


def final_at(tab: Table, grace: float = FINAL_AFTER_S) -> float:
    """When the result of the ended match now at ``tab`` is final (host epoch): ``grace``
    seconds after its last logged line (a late call or a void starts it again); never while
    the referee has a question open."""
    state = tab.replay.state
    if state is not None and (getattr(state, "questions", ()) or getattr(state, "spot_wait", ())):
        return math.inf
    last = tab.log[-1].at if tab.log else (tab.match.ended if tab.match is not None else None)
    return (last or 0.0) + grace


class LeaguePublisher:
    def __init__(self, pub: Pub, db: str, name: str, url: BrokerURL,
                 final_after: float = FINAL_AFTER_S) -> None:
        self.pub, self.db, self.name, self.url = pub, db, name, url
        self.final_after = final_after
        self.dirty: set[str] = set(pub.tables)
        self.wake = asyncio.Event()
        self._ended: set[tuple[int, int]] = set()
        self._sweep = True
        self.nights = PubNights(name)
        self._night_at = 0.0
        self._night_later = False
        self._capped: set[int] = set()  # matches sent at their night's innings cap
        self._said = ""  # the last fault of the night's score said on stderr (said once)
        self._held: set[int] = set()  # ended matches at their tables, not final yet
        self._due: float | None = None  # when the first of them is
        self._full = False  # the disk refuses the outbox's writes (said once)
        self._unheard = False  # the broker drops the matches: no league subscribed (said once)

    async def run(self) -> None:
        outbox = await self._open()
        self.nights.cards = outbox.nights()
        self.pub.league_setup = self.nights.setup_for  # a night's match is set up to its innings cap
        mqtt = AsyncPublisher(self.url, client_id=f"tablesense-pub-{self.name}", who="run")
        mqtt.on_up = self._reconnected
        mqtt.listen(nights_topic(self.name), lambda raw: self._told(outbox, raw))
        watchers = [asyncio.create_task(self._watch(tid), name=f"league watch {tid}")
                    for tid in self.pub.tables]
        mqtt.start()
        try:
            while True:
                wait = RETRY_S if self._due is None else min(RETRY_S, max(0.05, self._due - time.time()))
                with contextlib.suppress(TimeoutError):  # also a retry now and then (a PUBACK lost);
                    async with asyncio.timeout(wait):  # not wait_for: in 3.11 it can swallow a cancel
                        await self.wake.wait()
                self.wake.clear()
                try:
                    self._queue(outbox)
                    self._show_night(outbox)
                    if mqtt.up.is_set():
                        await self._send(mqtt, outbox)
                except StoreUnavailable as exc:  # the disk is full: every write is made again later
                    self._sweep = True
                    self._refused_disk(exc)
                    continue
                self._refused_disk(None)
        finally:
            self.pub.league_setup = None
            for task in watchers:
                task.cancel()
            for task in watchers:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await asyncio.to_thread(mqtt.close)
            outbox.close()

    def _told(self, outbox: Outbox, raw: bytes) -> None:
        """The league's team nights for this pub (retained: again at every connect)."""
        try:
            cards = self.nights.told(raw)
        except BadNights as exc:
            print(f"tablesense run: {exc}", file=sys.stderr, flush=True)
            return
        outbox.save_nights(raw)
        self._sweep = True
        self._night_at = 0.0
        self.wake.set()
        if cards:
            print(f"  league: {len(cards)} team nights at {self.name}, the next on {cards[0]['date']}",
                  flush=True)

    def _show_night(self, outbox: Outbox) -> None:
        """Tonight's team nights for the overview (``/api/team-night``), at most every ``NIGHT_EVERY`` s."""
        now = time.monotonic()
        if now - self._night_at < NIGHT_EVERY:
            if not self._night_later and self.nights.tonight():  # the last change is shown too
                self._night_later = True
                asyncio.get_running_loop().call_later(NIGHT_EVERY, self._wake_for_night)
            return
        self._night_at = now
        try:
            self.pub.team_night = self.nights.view(self.pub, outbox.log)
        except Exception as exc:  # the overview's score, never the link: the matches go out all the same
            self._night_fault(exc)

    def _night_fault(self, exc: Exception) -> None:
        why = f"{type(exc).__name__}: {exc}"[:200]
        if why != self._said:
            self._said = why
            print(f"tablesense run: tonight's team score cannot be worked out ({why})", file=sys.stderr,
                  flush=True)

    def _wake_for_night(self) -> None:
        self._night_later = False
        self.wake.set()

    async def _open(self) -> Outbox:
        """The outbox, once the disk lets it be made (a new pub on a full disk waits)."""
        while True:
            try:
                outbox = Outbox(self.db, self.name)
            except StoreUnavailable as exc:
                self._refused_disk(exc)
                await asyncio.sleep(RETRY_S)
                continue
            self._refused_disk(None)
            return outbox

    def _refused_disk(self, exc: StoreUnavailable | None) -> None:
        """Say once that the disk refuses the outbox's writes, and once that it takes them again."""
        if exc is not None and not self._full:
            print(f"tablesense run: {exc}; the league's matches wait and are sent when it can",
                  file=sys.stderr, flush=True)
        elif exc is None and self._full:
            print("tablesense run: the league's outbox takes writes again", file=sys.stderr, flush=True)
        self._full = exc is not None

    def _reconnected(self) -> None:
        self.dirty |= set(self.pub.tables)
        self._sweep = True
        self.wake.set()

    async def _watch(self, tid: str) -> None:
        flag = self.pub.subscribe(tid)
        try:
            while True:
                await flag.wait()
                flag.clear()
                self.dirty.add(tid)
                self.wake.set()
        finally:
            self.pub.unsubscribe(flag)

    def _queue(self, outbox: Outbox) -> None:
        """Matches whose result became final since the last look go into the outbox (all of
        them after a start or a reconnect: the log is the truth). An ended match still at its
        table waits out ``final_after`` (``final_at``); one whose table has a new match is final."""
        now = time.time()
        ended = [tab for tab in self.pub.tables.values()
                 if tab.match is not None and tab.match.ended is not None]
        held: dict[int, float] = {}
        for tab in ended:
            assert tab.match is not None
            if (tab.match.id, tab.seq) not in self._ended:
                self._ended.add((tab.match.id, tab.seq))
                self._sweep = True
            due = final_at(tab, self.final_after)
            if due > now:
                held[tab.match.id] = due
        if held.keys() != self._held:  # one became final (or ended, or was amended)
            self._sweep = True
        self._held = set(held)
        self._due = min((due for due in held.values() if due != math.inf), default=None)
        try:
            complete = self.nights.complete(self.pub, outbox.log) if self.nights.cards else set()
        except Exception as exc:  # the night's innings cap: the ended matches go out all the same
            self._night_fault(exc)
            complete = set()
        if complete - self._capped:  # a night's match at its innings cap: played, though not ended
            self._capped |= complete
            self._sweep = True
        if not self._sweep:
            return
        self._sweep = False
        results: dict[int, dict[str, Any]] = {}  # the pub's own replay: the log is not replayed again
        for tab in self.pub.tables.values():
            rep = tab.replay
            # the live replay only with nothing shown and not yet on disk: the message's lines
            # come from the log, and its result must be theirs (else the outbox replays them)
            settled = not tab.shown and not tab.refused
            if tab.match is not None and (tab.match.ended is not None or tab.match.id in complete) \
                    and settled and rep.engine is not None and rep.state is not None:
                results[tab.match.id] = reported(rep.engine.to_json(rep.state))
        outbox.sweep(results, self.nights.cards, complete, hold=self._held)

    async def _send(self, mqtt: AsyncPublisher, outbox: Outbox) -> None:
        try:
            while self.dirty:
                tid = self.dirty.pop()
                try:
                    live = live_message(self.name, tid, self.pub.snapshot(tid))
                    await mqtt.publish(live_topic(self.name, tid), encode(live), retain=True)
                except PublishRefused as exc:
                    self._refused(live_topic(self.name, tid), str(exc))
                except NotConnected:
                    self.dirty.add(tid)
                    raise
            while True:
                batch = outbox.pending()
                if not batch:
                    return
                for item in batch:
                    if self._too_big(outbox, item.key, len(item.payload)):
                        continue
                    try:
                        await mqtt.publish(matches_topic(self.name), item.payload, for_someone=True)
                    except PublishRefused as exc:
                        outbox.refused(item.key, str(exc))
                        self._refused(matches_topic(self.name), str(exc), len(item.payload))
                        continue
                    except NoSubscriber:
                        self._no_league(True)
                        return  # it stays in the outbox: sent again at the next look (RETRY_S)
                    self._no_league(False)
                    outbox.sent(item.key)
                    if self.dirty:  # a table changed meanwhile: its live state first
                        self.wake.set()
                        return
        except NotConnected:
            return  # the broker is away: everything waits for it (on_up wakes us)

    def _no_league(self, unheard: bool) -> None:
        """The broker dropped a match for want of a subscriber (``unheard``): said once, and
        once when the broker takes them for the league again."""
        if unheard == self._unheard:
            return
        self._unheard = unheard
        text = ("the broker has no league service subscribed to this pub's matches (has `tablesense "
                "league serve` connected to it once?); they wait in the outbox and are sent again "
                f"every {RETRY_S:.0f} s" if unheard else "the broker takes the matches for the league again")
        print(f"tablesense run: {text}", file=sys.stderr, flush=True)

    @staticmethod
    def _too_big(outbox: Outbox, key: str, size: int) -> bool:
        """A match longer than a league reads is not sent (the broker and the league would
        refuse it); it stays in the outbox as refused, and the pub is told once."""
        if size <= MAX_MESSAGE_BYTES:
            return False
        why = f"{size / 1e6:,.1f} MB, more than the {MAX_MESSAGE_BYTES / 1e6:.1f} MB a league reads"
        outbox.refused(key, why)
        print(f"tablesense run: match {key.split('#')[0]} is not sent to the league: {why}",
              file=sys.stderr, flush=True)
        return True

    def _refused(self, topic: str, why: str, size: int = 0) -> None:
        if "authori" not in why.lower() and size:  # Mosquitto's message_size_limit: no word of size in it
            print(f"tablesense run: the broker refuses a message of {size:,} bytes on {topic} ({why}): "
                  "longer than its message_size_limit?", file=sys.stderr, flush=True)
            return
        print(f"tablesense run: the broker refuses {topic} for user {self.url.username!r} ({why}): "
              f"is --pub {self.name} the pub's user name in the league's broker set-up?",
              file=sys.stderr, flush=True)


def start_publisher(pub: Pub, db: str, name: str, url: BrokerURL,
                    final_after: float = FINAL_AFTER_S) -> asyncio.Task[None]:
    """The publisher as a task of the running loop (cancelled when the host stops);
    ``final_after``: the seconds an ended match stays open to the referee's amendments."""
    task = asyncio.get_running_loop().create_task(LeaguePublisher(pub, db, name, url, final_after).run(),
                                                  name=f"league {name}")

    def ended(t: asyncio.Task[None]) -> None:
        if not t.cancelled() and t.exception() is not None:
            print(f"tablesense run: the league link stopped: {t.exception()!r}", file=sys.stderr, flush=True)

    task.add_done_callback(ended)
    return task
