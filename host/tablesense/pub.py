"""The pub runtime: its tables, their event sources, their match logs, their state.

Every event of a table -- from its sensors (the link, the simulator) or from the
referee panel -- goes through ``Pub.submit``: it is appended to the match log and
committed first, then applied to the match (``tablesense.replay.Replay``), then the
table's new state is announced to whoever listens (the web pages). Through the writer
(``tablesense run``) a table's own event is queued for the log, shown, and committed after:
the screens and the table's next events do not wait for the disk; the link's checkpoint and
the match's result in the history do (``_show``, docs/design.md).

At start-up each table's latest match is rebuilt by replaying its log, so a host that
was killed mid-match comes back exactly where it was.

A referee call that the rules refuse (``IllegalCall``) is not logged: the referee gets
the reason back and nothing changes. A sensor event the rules refuse is logged all the
same (it happened on the table) and shows as an error of the match, exactly as a
replay of the log will show it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any

import msgspec

from .corrections import void_record
from .errors import BadEvent, IllegalCall, TablesenseError
from .events import Call, Event, Rest, Setup, parse_event
from .games import find as find_game
from .games import names as games_names
from .link.checkpoint import Checkpoint, CheckpointError, Dedupe
from .pub_sensors import SensorsOut
from .pub_table import TICKER, Step, Table, call_time
from .replay import LineError, Replay
from .shots import cut
from .store import LANGS, LoggedEvent, Store, StoreError, StoreUnavailable, Writer, effective_lines
from .undo_walk import Walk

#: seconds between two tries to write to a match log that refused a write (locked, disk full)
RETRY_S = (0.1, 2.0)
#: a table's events shown and not yet on disk, at most: its feed then waits for the log
AHEAD = 64

#: What a table's feed yields: its events, the link's checkpoints and its losses
#: (``tablesense.link.table_items``); a factory gets the last checkpoint saved.
FeedItem = Any
Feed = AsyncIterator[FeedItem] | Callable[[Checkpoint | None], AsyncIterator[FeedItem]]
def turn_clock(game: str | None, setup: dict[str, Any]) -> int | None:
    """The seconds a turn may take in a match of ``game`` set up with ``setup``; None: no limit.
    The game declares its clock (golf: 50 seconds from the rest, seed 000), or that a
    set-up's ``shot_clock`` sets it (carom, where the competition uses a shot clock)."""
    found = find_game(game)
    if found is None:
        return None
    own = setup.get("shot_clock")
    if found.shot_clock and isinstance(own, int) and not isinstance(own, bool) and own > 0:
        return own
    return found.turn_clock


class Pub(SensorsOut):
    """All tables of one pub over one match log."""

    def __init__(self, store: Store, table_ids: Iterable[str], lang: str = "en",
                 writer: Writer | None = None, games: dict[str, tuple[str, ...]] | None = None) -> None:
        if lang not in LANGS:
            raise StoreError(f"unknown language {lang!r} (languages: {', '.join(LANGS)})")
        self.store = store
        self.writer = writer
        #: the pub's own language (a new table's; the overview's frame)
        self.lang = lang
        #: what the screens add to a table's snapshot (``tablesense.web.view``): its ``view``
        self.view: Callable[[Table, dict[str, Any]], dict[str, Any]] | None = None
        #: tonight's team nights at this pub, their score so far (``league.pub_nights``; the
        #: overview shows it from ``/api/team-night``); None: the pub is in no league
        self.team_night: dict[str, Any] | None = None
        #: what the league makes of a referee's set-up before it is checked (``league.pub_nights``:
        #: a team night's innings cap as its ``innings_limit``); None: the pub is in no league
        self.league_setup: Callable[[dict[str, Any]], dict[str, Any]] | None = None
        self.tables: dict[str, Table] = {}
        for tid in table_ids:
            token, tlang = store.table(tid, lang)
            table = Table(id=tid, token=token, lang=tlang, games=(games or {}).get(tid, games_names()))
            self.tables[tid] = table
            self._load(table)

    # --- reading --------------------------------------------------------------------
    def table(self, table_id: str) -> Table:
        try:
            return self.tables[table_id]
        except KeyError:
            raise StoreError(f"no table {table_id!r} (tables: {', '.join(self.tables)})") from None

    def snapshot(self, table_id: str) -> dict[str, Any]:
        """What the scoreboard shows: the table, its match, the engine's state."""
        tab = self.table(table_id)
        rep = tab.replay
        match: dict[str, Any] | None = None
        if tab.match is not None:
            setup = json.loads(tab.log[0].line) if tab.log else {}
            match = {
                "id": tab.match.id, "game": tab.match.game, "players": tab.match.players,
                "setup": setup, "started": tab.match.started, "events": len(tab.log),
            }
        state: dict[str, Any] | None = None
        summary = ""
        if rep.engine is not None and rep.state is not None:
            state = rep.engine.to_json(rep.state, tab.lang)  # rulings and questions in the table's language
            summary = rep.engine.summary(rep.state, tab.lang)
        errors = [{"seq": e.line, "error": e.error} for e in rep.errors[-5:]] if rep.engine else []
        snap = {
            "table": tab.id, "lang": tab.lang, "version": tab.version, "match": match,
            "state": state, "summary": summary, "errors": errors, "ticker": list(tab.ticker),
            "rest_at": tab.rest_at, "paused_at": tab.paused_at,
            "turn_clock": turn_clock(match["game"], match["setup"]) if match else None,
            "games": list(tab.games),
            "sensors": self.sensors_snapshot(tab),
            "now": time.time(),  # the host's clock as it sends: the page's clock is set by it
        }
        if self.view is not None:
            snap["view"] = self.view(tab, snap)
        return snap

    def snapshot_body(self, table_id: str, rulings: int | None = None) -> bytes:
        """``snapshot`` as UTF-8 JSON (msgspec) without ``now`` and its closing brace, made once
        per version of the table and cut. ``rulings``: the state's newest ``rulings`` and their
        number, ``rulings_count`` (what the screens' WebSocket carries: ``web.messages``); None:
        every ruling (``GET /api/table/<id>``). One snapshot a version serves every cut."""
        tab = self.table(table_id)
        kept = tab.bodies.get(rulings)
        if kept is None or kept[0] != tab.version:
            if tab.snap[0] != tab.version:
                snap = self.snapshot(table_id)
                del snap["now"]
                tab.snap = (tab.version, snap)
                tab.bodies.clear()
            body = _ENCODE(_cut(tab.snap[1], rulings))[:-1]
            kept = tab.bodies[rulings] = (tab.version, body)
        return kept[1]

    def snapshot_message(self, table_id: str, rulings: int | None = None) -> bytes:
        """``snapshot_body`` with ``now``, the host's clock as it is sent (the pages set their
        clocks by it): the whole JSON object."""
        body = self.snapshot_body(table_id, rulings)
        return b"%b%b\"now\":%b}" % (body, b"," if len(body) > 1 else b"", repr(time.time()).encode())

    def log_items(self, table_id: str) -> list[dict[str, Any]]:
        """The current match's effective events as the shot stage cuts them (newest last):
        ``shot`` items (a shot with its late settles; one split by a call is two items
        with the same ``shot`` number), ``incident`` items (between shots, no ball played:
        ``shot`` is the shot before) and one ``call`` item per referee call."""
        tab = self.table(table_id)
        game = tab.match.game if tab.match is not None else None
        objs: list[dict[str, Any]] = []
        for ev in effective_lines(tab.log)[1:]:
            obj = json.loads(ev.line)
            obj["seq"] = ev.seq
            objs.append(obj)
        pieces = cut(objs, [o["seq"] for o in objs], game=game).pieces
        return [_item(p.kind if p.kind in ("shot", "incident") else "call", list(p.events), p.shot)
                for p in pieces]

    def export_lines(self, match_id: int, raw: bool = False) -> list[str]:
        """A match as JSONL: the effective events (replays to the same state) or the raw log."""
        events = self.store.events(match_id)
        if not events:
            raise StoreError(f"no match {match_id}")
        return [e.line for e in (events if raw else effective_lines(events))]

    # --- listening ------------------------------------------------------------------
    def subscribe(self, *table_ids: str) -> asyncio.Event:
        """A flag set at every change of any of ``table_ids`` (its state, its link, its
        language): the follower clears it, reads what it needs, and waits for it again.
        How the web app's screens and the league publisher follow the pub."""
        tabs = [self.table(tid) for tid in table_ids]
        flag = asyncio.Event()
        for tab in tabs:
            tab.listeners.add(flag)
        return flag

    def unsubscribe(self, flag: asyncio.Event) -> None:
        """``flag`` is set no more, by any table."""
        for tab in self.tables.values():
            tab.listeners.discard(flag)

    def _changed(self, tab: Table) -> None:
        tab.version += 1
        for flag in tab.listeners:
            flag.set()

    # --- changing -------------------------------------------------------------------
    # Each change is three steps: prepare (check; a referee call the rules refuse raises
    # here, before anything is logged), log (committed to disk), apply. The sync methods
    # log through the store directly (tools, tests); the async ones, which the web app and
    # the table feeds use, hold the table's lock and log through the group-commit writer.

    def submit(self, table_id: str, event: Event, source: str = "table") -> None:
        """Log, then apply one event. Referee events the rules refuse raise and are not logged."""
        tab = self.table(table_id)
        step = self._prepare(tab, event, source)
        if step is not None:
            self.store.append(*step.row)
            self._apply(tab, step)

    async def submit_async(self, table_id: str, event: Event, source: str = "table") -> None:
        """Log and apply one event; returns once it is on disk. A table's own event (not the
        referee's) is shown first and committed after, its place in the log taken before it
        is shown (``_show``); a referee's change is on disk before it shows."""
        tab = self.table(table_id)
        async with tab.lock:
            if isinstance(event, Setup):
                await self._on_disk_held(tab)  # a new match's first line after the last match's last
            await self._written_again(tab)
            step = self._prepare(tab, event, source)
            if step is None:
                return
            if source == "referee" or self.writer is None:
                await self._append(step)
                self._apply(tab, step)
                return
            logged = self._show(tab, step, self.writer)
        await self._on_disk(tab, logged)

    async def _show_async(self, tab: Table, event: Event) -> None:
        """The table's feed: one of its events logged and applied, returning once it is shown;
        its commit follows (``_show``). ``AHEAD`` events shown and not on disk: it waits."""
        if len(tab.shown) >= AHEAD:
            await self._all_on_disk(tab)
        async with tab.lock:
            if isinstance(event, Setup):
                await self._on_disk_held(tab)  # a new match's first line after the last match's last
            await self._written_again(tab)
            step = self._prepare(tab, event, "table")
            if step is None:
                return
            if self.writer is None:
                await self._append(step)
                self._apply(tab, step)
                return
            self._show(tab, step, self.writer)

    def _show(self, tab: Table, step: Step, writer: Writer) -> asyncio.Future[None]:
        """A table's event (the table's lock held): queued for the match log, so its place in
        the log is the order shown; applied and announced to the screens at once; the future
        of its commit returned. The screens do not wait for the disk; what resumes from the
        log does: the link's checkpoint is saved only once every event shown before it is on
        disk (``_all_on_disk``), so a host killed before a commit resumes before the event
        and the board replays it; the match's end goes into the history once the events are
        on disk (docs/design.md, "A table's event is shown before its commit")."""
        logged = writer.queued(*step.row, shown=True)
        tab.shown.append((step, logged))
        logged.add_done_callback(lambda done: self._committed(tab, step, done))
        self._apply(tab, step, record_end=False)
        return logged

    async def settled(self, timeout: float = 5.0) -> None:
        """Every shown event's commit come back and taken in (``_committed``: a match's end
        into the history), at most ``timeout`` s: after the writer closes, before the store
        does (the commits settle on this loop, after the writer's thread has written them)."""
        pending = [logged for tab in self.tables.values() for _, logged in tab.shown]
        if pending:
            await asyncio.wait(pending, timeout=timeout)

    def _committed(self, tab: Table, step: Step, done: asyncio.Future[None]) -> None:
        """A shown event's commit came back: on disk (or not loggable at all, its seq taken),
        it leaves ``tab.shown``; refused, the table's shown events are written again before
        anything else of it (``_written_again``)."""
        error = None if done.cancelled() else done.exception()
        if isinstance(error, StoreUnavailable):
            tab.refused = True
            return
        tab.shown[:] = [(s, f) for s, f in tab.shown if s is not step]
        mine = tab.match is not None and step.row[1] in (None, tab.match.id)  # never another match's
        if not tab.shown and not tab.refused and mine:
            self._record_end(tab)

    async def _on_disk(self, tab: Table, logged: asyncio.Future[None]) -> None:
        """Wait for a shown event's commit; while the log refuses it, it is written again (the
        same rows, never prepared and applied again) with back-off, the ticker saying why."""
        await asyncio.wait([logged])
        error = None if logged.cancelled() else logged.exception()
        if error is None:
            return
        if not isinstance(error, StoreUnavailable):
            raise error
        first = [error]

        async def again() -> None:
            if first:
                raise first.pop()  # the refusal met: the ticker says it at once
            async with tab.lock:
                await self._written_again(tab)

        await self._retrying(tab, again)

    async def _all_on_disk(self, tab: Table) -> None:
        """Every event the table showed is on disk (written again where the log refused it:
        ``StoreUnavailable`` while it still does). Before the link's checkpoint is saved."""
        while tab.shown:
            await asyncio.wait([tab.shown[-1][1]])
            if tab.refused:
                async with tab.lock:
                    await self._written_again(tab)

    async def _on_disk_held(self, tab: Table) -> None:
        """``_all_on_disk`` with the table's lock held: before a new match replaces the table's,
        so that no event shown for the last match is committed, and its end recorded, after
        the new one has taken its place (``_committed``)."""
        while tab.shown:
            await asyncio.wait([tab.shown[-1][1]])
            await self._written_again(tab)

    async def _written_again(self, tab: Table) -> None:
        """The events the table showed that the log refused go to the log again, in order, in
        one commit, before anything else of the table (the table's lock held; the writer holds
        the table's later writes back until then). Raises ``StoreUnavailable`` while the log
        still refuses them."""
        if not tab.refused or self.writer is None:
            return
        if tab.shown:
            await asyncio.wait([f for _, f in tab.shown])  # those queued after the refusal: refused too
            # shielded: a waiter cancelled mid-commit leaves the commit to finish (and a try
            # that finished unseen is taken as written by the next: ``Writer.again``)
            await asyncio.shield(self.writer.again([step.row for step, _ in tab.shown]))
        tab.shown.clear()
        tab.refused = False
        self._record_end(tab)

    def start_match(self, table_id: str, setup: dict[str, Any]) -> int:
        """The referee starts a match: checked, logged as seq 1, applied."""
        self.submit(table_id, self._setup_event(table_id, setup), source="referee")
        return self._match_id(table_id)

    async def start_match_async(self, table_id: str, setup: dict[str, Any]) -> int:
        await self.submit_async(table_id, self._setup_event(table_id, setup), source="referee")
        return self._match_id(table_id)

    def call(self, table_id: str, call: dict[str, Any]) -> None:
        """A referee call (a JSON object without ``t``/``type``): checked, logged, applied.
        An ``undo`` of a call made while the balls still rolled voids that call's line
        (``_undo_during``): the shot it was made in stands."""
        during = self._undo_during(table_id, call)
        if during is not None:
            self.void(table_id, during, during)
            return
        self.submit(table_id, self._call_event(table_id, call), source="referee")

    async def call_async(self, table_id: str, call: dict[str, Any]) -> None:
        during = self._undo_during(table_id, call)
        if during is not None:
            await self.void_async(table_id, during, during)
            return
        await self.submit_async(table_id, self._call_event(table_id, call), source="referee")

    def _undo_during(self, table_id: str, call: dict[str, Any]) -> int | None:
        """The log line of the call an ``undo`` now takes back, when that call came during a
        shot; None otherwise. The engines' undo returns the state before the call, in the
        middle of the shot, so the rest of the shot would go with it; voiding the call's
        line replays the shot without it, which is what the undo button promised."""
        if call.get("call") != "undo":
            return None
        tab = self.table(table_id)
        unit = tab.walk.last()
        if tab.match is None or unit is None or unit.kind != "call" or not unit.during or unit.seq < 2:
            return None
        return unit.seq

    def void(self, table_id: str, first: int, last: int) -> None:
        """Void events ``first..last`` of the current match (a correction record is logged)."""
        tab = self.table(table_id)
        step = self._prepare_void(tab, first, last)
        self.store.append(*step.row)
        self._apply(tab, step)

    async def void_async(self, table_id: str, first: int, last: int) -> None:
        tab = self.table(table_id)
        async with tab.lock:
            step = self._prepare_void(tab, first, last)
            await self._append(step)
            self._apply(tab, step)

    def set_lang(self, table_id: str, lang: str) -> None:
        tab = self.table(table_id)
        self.store.set_lang(tab.id, lang)
        tab.lang = lang
        self._changed(tab)

    async def feed(self, table_id: str, source: Feed) -> None:
        """Apply a table's live events as they come (one task per table).

        ``source`` may be a factory: it is called with the table's last saved checkpoint
        (None: none yet), so that a restarted host resumes where its log had got; the
        events made again from the frames replayed after it are skipped when the log has
        them already. Checkpoints are saved in order with the events; frames lost for good
        are said on stderr, in the log (incidents) and on the table's ticker. A match log
        that refuses a write keeps the event waiting (and the link unread: the board keeps
        the frames) until it takes it; the ticker says why meanwhile."""
        tab = self.table(table_id)
        self._sensors_resume(tab)  # the board was out when the host went down: merge its replay
        dedupe: Dedupe | None = None
        if callable(source):
            cp, row = self._checkpoint(tab)
            if cp is not None:
                rows = self.store.table_rows_after(table_id, row)
                after = [line for _, line in rows]
                dedupe = Dedupe(after, [r for r, _ in rows], row)
                cp = cp.after_lines(after)
            source = source(cp)
        async for item in source:
            if isinstance(item, Checkpoint):
                self._clock_from(tab, item)  # the device's time now: hand entries are stamped by it
                # while the replay is still behind what the log holds, the checkpoint stands
                # before the logged events not yet made again (link/checkpoint.py, Dedupe.row)
                at = dedupe.row if dedupe is not None and dedupe.pending else None
                await self._retrying(tab, lambda: self._all_on_disk(tab))  # never past an event not on disk
                await self._retrying(tab, lambda item=item, at=at: self._save_checkpoint(tab, item, at))
                continue
            if isinstance(item, Event):
                if dedupe is not None:
                    if dedupe.seen(_line(item)):
                        continue
                    if not dedupe.pending:
                        dedupe = None
                for event in self._from_board(tab, item):  # sensors out: merged with the referee's
                    await self._retrying(tab, lambda event=event: self._show_async(tab, event))
                continue
            status = getattr(item, "kind", None)
            self.link_status(table_id, item)
            if status == "lost" and getattr(item, "data", {}).get("rebooted"):
                dedupe = None  # the old boot's frames are gone: none of the log's lines comes again
            if status == "lost":
                await self._lost(tab, str(getattr(item, "text", item)))
            elif status == "board_reset":  # the board crashed or its watchdog bit; said at every HELLO
                text = str(getattr(item, "text", item))
                if not any(k == status and t == text for _, k, t in self.store.incidents(tab.id, 20)):
                    await self._lost(tab, text, status)
        await self._retrying(tab, lambda: self._all_on_disk(tab))  # the feed ends with its events on disk

    async def _retrying(self, tab: Table, write: Callable[[], Any]) -> None:
        """``await write()`` until the match log takes it; other refusals are shown and dropped."""
        delay = RETRY_S[0]
        failing = False
        while True:
            try:
                await write()
            except StoreUnavailable as exc:
                if not failing:
                    failing = True
                    tab.waiting.add(asyncio.current_task())  # type: ignore[arg-type]
                    text = f"{exc}; the table's events wait and are written when it can"
                    print(f"tablesense: table {tab.id}: {text}", file=sys.stderr, flush=True)
                    tab.ticker.append({"type": "error", "error": text, "at": time.time()})
                    self._changed(tab)
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_S[1])
                continue
            except TablesenseError as exc:  # a table's event that cannot even be logged
                tab.ticker.append({"type": "error", "error": str(exc), "at": time.time()})
                self._changed(tab)
            if failing:
                tab.waiting.discard(asyncio.current_task())  # type: ignore[arg-type]
                again = "the match log takes writes again"
                print(f"tablesense: table {tab.id}: {again}", file=sys.stderr, flush=True)
                tab.ticker.append({"type": "note", "note": again, "at": time.time()})
                self._changed(tab)
            return

    def _checkpoint(self, tab: Table) -> tuple[Checkpoint | None, int]:
        """The table's saved checkpoint and the last event row written before it."""
        saved = self.store.checkpoint(tab.id)
        if saved is None:
            return None, 0
        try:
            return Checkpoint.from_json(saved[0]), saved[1]
        except CheckpointError as exc:
            print(f"tablesense: table {tab.id}: {exc}; reading the board from now on",
                  file=sys.stderr, flush=True)
            return None, 0

    async def _save_checkpoint(self, tab: Table, cp: Checkpoint, row: int | None = None) -> None:
        if self.writer is None:
            self.store.save_checkpoint(tab.id, cp.to_json(), row=row)
        else:
            await self.writer.save_checkpoint(tab.id, cp.to_json(), row)

    async def _lost(self, tab: Table, text: str, kind: str = "lost") -> None:
        """Frames lost for good (or the board restarted by itself, kind ``board_reset``):
        once, with the range, on stderr, in the log, on the ticker."""
        print(f"tablesense: table {tab.id}: {text}", file=sys.stderr, flush=True)
        tab.ticker.append({"type": "error", "error": text, "at": time.time()})
        self._changed(tab)
        if self.writer is None:
            await self._retrying(tab, lambda: _done(self.store.incident(tab.id, kind, text)))
        else:
            writer = self.writer

            async def write() -> None:
                async with tab.lock:  # the shown events the log refused go first: the table is held
                    await self._written_again(tab)
                    await writer.incident(tab.id, kind, text)

            await self._retrying(tab, write)

    # --- the three steps ---------------------------------------------------------------
    def _prepare(self, tab: Table, event: Event, source: str) -> Step | None:
        now = time.time()
        if source != "referee":
            tab.clock = (event.t, time.monotonic())
        if isinstance(event, Setup):
            self._start(tab, event, source, now)  # a new match: logged and applied at once
            return None
        line = _line(event)
        if tab.match is None or (tab.match.ended is not None and source != "referee"):
            if source == "referee":
                raise IllegalCall("no match is running on this table: start one first")
            return Step((tab.id, None, 0, line, source, now), event, None)
        rep = tab.replay
        new_state = None
        if source == "referee":
            if rep.engine is None or rep.state is None:
                raise IllegalCall(f"no rule engine is running for {tab.match.game}: calls cannot be applied")
            new_state = rep.engine.play(rep.state, event)  # raises: nothing logged
            if isinstance(event, Call) and event.call == "foul" and event.player is None:
                event, new_state = _foul_on(rep.engine, rep.state, event, new_state)
                line = _line(event)
        return Step((tab.id, tab.match.id, tab.seq + 1, line, source, now), event, new_state)

    def _prepare_void(self, tab: Table, first: int, last: int) -> Step:
        if tab.match is None:
            raise IllegalCall("no match is running on this table")
        if tab.seq < 2:
            raise IllegalCall("nothing to void yet: this match has only its set-up")
        if not 2 <= first <= last <= tab.seq:
            raise IllegalCall(f"events {first}..{last} cannot be voided (this match has events 2..{tab.seq})")
        record = void_record(call_time(tab), first, last)
        line = json.dumps(record, separators=(", ", ": "))
        return Step((tab.id, tab.match.id, tab.seq + 1, line, "referee", time.time()), None, None)

    async def _append(self, step: Step) -> None:
        await self._written_again(self.table(step.row[0]))  # events shown and refused go first
        if self.writer is None:
            self.store.append(*step.row)
        else:
            await self.writer.append(*step.row)

    def _apply(self, tab: Table, step: Step, record_end: bool = True) -> None:
        _, match_id, seq, line, source, now = step.row
        event = step.event
        self._sensors_step(tab, step)  # an undo or a void takes entries made by hand back
        if match_id is None:  # no match running: logged, shown, not refereed
            assert event is not None
            self._tick(tab, event, 0, source)
            self._changed(tab)
            return
        tab.seq = seq
        tab.log.append(LoggedEvent(seq, source, now, line))
        rep = tab.replay
        if event is None:  # a void record: the match is replayed without the voided events
            tab.replay = _replay(tab.log)
            tab.walk = _walk(tab.log)
            tab.ticker.append({**json.loads(line), "seq": seq, "source": source})
        else:
            tab.walk.feed(line, seq)
            if step.state is not None:
                rep.state = step.state
                rep.events += 1
            else:
                _feed(rep, line, seq)
            self._tick(tab, event, seq, source)
        self._after_apply(tab, record_end)

    def _setup_event(self, table_id: str, setup: dict[str, Any]) -> Event:
        obj = dict(setup) if self.league_setup is None else dict(self.league_setup(setup))
        obj.setdefault("t", self.table(table_id).table_time())
        obj["type"] = "setup"
        return parse_event(obj)

    def _call_event(self, table_id: str, call: dict[str, Any]) -> Event:
        tab = self.table(table_id)
        obj = dict(call)
        obj["t"] = call_time(tab)
        obj["type"] = "call"
        if obj.get("call") == "void":
            raise BadEvent("a void is not a call: void events with their numbers")
        return parse_event(obj)

    def _match_id(self, table_id: str) -> int:
        match = self.table(table_id).match
        assert match is not None
        return match.id

    # --- inside -----------------------------------------------------------------------
    def _start(self, tab: Table, setup: Setup, source: str, now: float) -> None:
        rep = Replay()
        obj = setup.to_dict()
        try:
            rep.apply(setup)
        except IllegalCall:
            if source == "referee":
                raise  # the referee learns that this game has no rule engine; nothing logged
            # a table's own set-up is logged all the same: the scoreboard shows the events
        match_id = self.store.new_match(tab.id, obj, source, now)
        line = json.dumps(obj, separators=(", ", ": "), ensure_ascii=False)
        tab.match = self.store.match(match_id)
        tab.log = [LoggedEvent(1, source, now, line)]
        tab.seq = 1
        tab.replay = rep
        tab.walk = Walk(tab.match.game)
        tab.rest_at = tab.paused_at = None
        tab.ticker.clear()
        self._sensors_new_match(tab)
        self._tick(tab, setup, 1, source)
        self._changed(tab)

    def _after_apply(self, tab: Table, record_end: bool = True) -> None:
        """The turn clock, the match's end in the history (``record_end``; an event shown
        before its commit records it once committed: the history never holds a result whose
        deciding event the log may not), and the news to the screens."""
        self._pause_clock(tab, tab.replay.state)
        if record_end:
            self._record_end(tab, announce=False)
        self._changed(tab)

    def _record_end(self, tab: Table, announce: bool = True) -> None:
        """The match row's end and result as the replay has them (ended, reopened, or amended
        after its end: a late call, a void); ``announce``: a change is said to the followers."""
        rep = tab.replay
        if tab.match is None:
            return
        finished = bool(rep.state is not None and rep.state.finished)
        was = tab.match.ended is not None
        if not (finished or was):
            return
        result = None
        if finished and rep.state is not None and rep.engine is not None:
            result = {"winner": rep.state.winner, "summary": rep.engine.summary(rep.state, tab.lang)}
        before = tab.match
        if finished != was or result != tab.match.result:
            self.store.finish(tab.match.id, result)
        tab.match = self.store.match(tab.match.id)
        if announce and tab.match != before:
            self._changed(tab)

    @staticmethod
    def _pause_clock(tab: Table, state: Any, now: float | None = None) -> None:
        """The turn clock stands still while the referee has a question open or a ball waits
        for its replacement spot, and goes on from where it stood when they are answered."""
        now = time.time() if now is None else now
        waiting = state is not None and not getattr(state, "finished", False) and bool(
            getattr(state, "questions", ()) or getattr(state, "spot_wait", ()))
        if waiting and tab.paused_at is None:
            tab.paused_at = now
        elif not waiting and tab.paused_at is not None:
            if tab.rest_at is not None:
                tab.rest_at += max(0.0, now - max(tab.paused_at, tab.rest_at))
            tab.paused_at = None

    def _tick(self, tab: Table, event: Event, seq: int, source: str) -> None:
        entry = event.to_dict()
        entry["seq"] = seq
        entry["source"] = source
        entry["at"] = time.time()
        tab.ticker.append(entry)
        if isinstance(event, Rest):
            tab.rest_at = entry["at"]
        elif not isinstance(event, Call):
            tab.rest_at = None
        elif event.call == "timeout" and tab.rest_at is not None and tab.match is not None and tab.log:
            period = turn_clock(tab.match.game, json.loads(tab.log[0].line))  # a time-out: one more period
            tab.rest_at += period or 0

    def _load(self, tab: Table) -> None:
        match = self.store.latest_match(tab.id)
        if match is None:
            return
        tab.match = match
        tab.log = self.store.events(match.id)
        tab.seq = tab.log[-1].seq if tab.log else 0
        tab.replay = _replay(tab.log)
        tab.walk = _walk(tab.log)
        for ev in tab.log[-TICKER:]:
            with contextlib.suppress(json.JSONDecodeError):
                tab.ticker.append({**json.loads(ev.line), "seq": ev.seq, "source": ev.source, "at": ev.at})
        if tab.log:
            with contextlib.suppress(json.JSONDecodeError, KeyError, TypeError):
                tab.clock = (float(json.loads(tab.log[-1].line)["t"]), 0.0)
        if tab.ticker and tab.ticker[-1].get("type") == "rest":
            tab.rest_at = tab.ticker[-1]["at"]
        self._pause_clock(tab, tab.replay.state)


_ENCODE = msgspec.json.Encoder().encode


def _cut(snap: dict[str, Any], rulings: int | None) -> dict[str, Any]:
    """``snap`` with its state's rulings cut to the newest ``rulings`` and their number in
    ``rulings_count`` (None: as it is). No screen shows a match's earlier rulings (the last
    shot's line is told by the host, ``web.view.last_shot``), and with them every message
    grew with the match. ``snap`` itself is left as it is: every cut is made from it."""
    state: Any = snap.get("state")
    every: Any = state.get("rulings") if isinstance(state, dict) else None
    if rulings is None or not isinstance(every, list):
        return snap
    cut = dict(state)
    cut["rulings"] = every[-rulings:] if rulings else []
    cut["rulings_count"] = len(every)
    return {**snap, "state": cut}


def _line(event: Event) -> str:
    """An event as its match-log line."""
    return json.dumps(event.to_dict(), separators=(", ", ": "), ensure_ascii=False)


async def _done(_: object) -> None:
    """An awaitable for a write that is already done (the store's own, synchronous)."""


def _replay(log: list[LoggedEvent]) -> Replay:
    rep = Replay()
    for ev in effective_lines(log):
        _feed(rep, ev.line, ev.seq)
    return rep


def _walk(log: list[LoggedEvent]) -> Walk:
    walk = Walk()
    for ev in effective_lines(log):
        walk.feed(ev.line, ev.seq)
    return walk


def _foul_on(engine: Any, before: Any, call: Call, after: Any) -> tuple[Call, Any]:
    """A foul called without a player, with the player its ruling went to (the panel and the
    ticker say on whom, docs/referee.md), when naming him changes nothing the engine decides;
    else the call as it came."""
    player = charged(engine, before, after)
    if player is None:
        return call, after
    named = msgspec.structs.replace(call, player=player)
    try:
        again = engine.play(before, named)
    except TablesenseError:
        return call, after
    if engine.to_json(again) != engine.to_json(after):
        return call, after
    return named, again


def charged(engine: Any, before: Any, after: Any) -> str | None:
    """The player of the foul ruling a call added (``before`` -> ``after``, a shot in progress
    resolved as if it stopped now): the first new ruling with a player whose rule is a foul or
    a fault; None when there is none."""
    live = getattr(engine, "live", lambda state: state)
    seen = {msgspec.json.encode(r) for r in getattr(live(before), "rulings", ())}
    for r in getattr(live(after), "rulings", ()):
        if r.player and msgspec.json.encode(r) not in seen and (".foul" in r.rule or ".fault" in r.rule
                                                                  or r.rule.endswith("own-goal")
                                                                  or r.rule in ("golf.clock", "carom.jump")):
            return str(r.player)
    shot = getattr(before, "shot", None)
    if getattr(before, "in_shot", False) and shot is not None and shot.player:
        return str(shot.player)  # decided at the shot's rest: a foul while the balls roll is the shooter's
    return None


def _feed(rep: Replay, line: str, seq: int) -> None:
    """Apply a logged line; an engine that fails on it costs that event, never the table."""
    try:
        rep.feed_line(line, seq)  # records rule errors (TablesenseError) itself
    except Exception as exc:
        rep.errors.append(LineError(seq, f"internal error of the rule engine: {exc!r}", line))


def _item(kind: str, events: list[dict[str, Any]], shot: int) -> dict[str, Any]:
    return {"kind": kind, "first": events[0]["seq"], "last": events[-1]["seq"], "events": events,
            "shot": shot}
