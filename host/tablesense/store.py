"""The match log: an append-only SQLite (WAL) record of every table event.

One row per event, in the order it entered the host, committed (and synced) before
anything that resumes from the log goes on (the link's checkpoint, a referee's answer;
``Pub`` shows a table's event while its commit is under way), so that a host
switched off mid-match loses nothing: the match state is rebuilt at start-up by replaying
the log, and the board replays what came after its checkpoint.

Nothing is ever changed or deleted. A correction is a record of its own:

- ``{"type": "call", "call": "undo"}`` is handled by the rule engine (pops a snapshot);
- ``{"type": "call", "call": "void", "from": X, "to": Y}`` voids the match's events
  with sequence numbers X..Y (any earlier shot); ``effective_lines`` leaves them out
  of the replay.

Events that arrive while no match is running are kept too (``match_id`` NULL), so a
table's sensors can be checked before a match starts.

A nearly full disk (or a file-size limit, ``ulimit -f``) refuses writes now and then; the
log keeps working through it. Its write-ahead log is kept small (moved into the database
every ``WAL_PAGES`` pages and cut back to ``WAL_BYTES`` when it starts over), and a write
the disk refuses is rolled back whole, after which the write-ahead log is moved into the
database and truncated to nothing (``make_room``): the room it held is free for the next
try. A refused write raises ``StoreUnavailable`` and nothing of it is on disk, so the same
write may simply be tried again; it is taken once the disk has room (docs/reliability.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from . import texts
from .corrections import dropped
from .errors import TablesenseError
from .log_checks import check_players

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id    TEXT PRIMARY KEY,
    token TEXT NOT NULL,
    lang  TEXT NOT NULL DEFAULT 'en'
);
CREATE TABLE IF NOT EXISTS matches (
    id       INTEGER PRIMARY KEY,
    table_id TEXT NOT NULL,
    game     TEXT NOT NULL,
    players  TEXT NOT NULL,
    started  REAL NOT NULL,
    ended    REAL,
    result   TEXT
);
CREATE TABLE IF NOT EXISTS events (
    id       INTEGER PRIMARY KEY,
    table_id TEXT NOT NULL,
    match_id INTEGER REFERENCES matches(id),
    seq      INTEGER NOT NULL,
    source   TEXT NOT NULL,
    at       REAL NOT NULL,
    line     TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS events_match_seq ON events(match_id, seq) WHERE match_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS matches_table ON matches(table_id, id);
CREATE INDEX IF NOT EXISTS events_table ON events(table_id, id);
-- where each table's link stands: the last quiet point of its frames (link/checkpoint.py)
-- and the last event row written before it; a restarted host resumes from there
CREATE TABLE IF NOT EXISTS checkpoints (
    table_id TEXT PRIMARY KEY,
    state    TEXT NOT NULL,
    row      INTEGER NOT NULL,
    at       REAL NOT NULL
);
-- what went wrong on a table's link that the match log must remember (frames lost)
CREATE TABLE IF NOT EXISTS incidents (
    id       INTEGER PRIMARY KEY,
    table_id TEXT NOT NULL,
    at       REAL NOT NULL,
    kind     TEXT NOT NULL,
    text     TEXT NOT NULL
);
"""
INSERT_EVENT = "INSERT INTO events(table_id, match_id, seq, source, at, line) VALUES (?,?,?,?,?,?)"
SAVE_CHECKPOINT = (
    "INSERT OR REPLACE INTO checkpoints(table_id, state, row, at) "
    "VALUES (?, ?, (SELECT COALESCE(MAX(id), 0) FROM events WHERE table_id=?), ?)"
)
# a checkpoint taken while a restarted host replays what the log already holds: it stands
# before the logged events its replay has not yet reached, after the row given
SAVE_CHECKPOINT_AT = "INSERT OR REPLACE INTO checkpoints(table_id, state, row, at) VALUES (?, ?, ?, ?)"
INSERT_INCIDENT = "INSERT INTO incidents(table_id, at, kind, text) VALUES (?,?,?,?)"

LANGS = texts.LANGS  # the languages of the texts' folders (host/tablesense/texts/<code>/)


class StoreError(TablesenseError):
    """The match log cannot do what was asked (unknown match, bad correction)."""


class StoreUnavailable(StoreError):
    """The match log cannot be written now (locked by another program, disk full or
    failing): nothing was written; the same write may succeed later."""


#: the write-ahead log is moved into the database once it holds this many pages (4 KiB
#: each; SQLite's default, 1000, lets it grow to 4 MB, more than a small disk holds)
WAL_PAGES = 128
#: and cut back to this many bytes when it starts over (SQLite's default: never cut)
WAL_BYTES = 512 * 1024
#: how long a write waits for a lock another program holds (a backup)
BUSY_MS = 5000
#: how long making room waits for a reader to let go of the write-ahead log
MAKE_ROOM_WAIT_MS = 100


def make_room(db: sqlite3.Connection) -> bool:
    """After a write the disk refused: roll back what is open, move the write-ahead log
    into the database and truncate it to nothing. True when it is empty now (the room it
    held is free); False when the database could not take it yet (no room for even that,
    or a reader holds it), which the next refused write tries again. Waits for readers a
    tenth of a second at most."""
    with contextlib.suppress(sqlite3.Error):
        if db.in_transaction:
            db.execute("ROLLBACK")
    try:
        db.execute(f"PRAGMA busy_timeout={MAKE_ROOM_WAIT_MS}")
        try:
            busy, _frames, _moved = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        finally:
            db.execute(f"PRAGMA busy_timeout={BUSY_MS}")
    except sqlite3.Error:
        return False
    return not busy


def disk_refused(exc: sqlite3.Error) -> bool:
    """Whether SQLite's error says the disk refused (full, a file-size limit, an I/O error),
    not a lock: only then is there room to make."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:
        return "full" in str(exc) or "I/O" in str(exc)
    return (code & 0xFF) in (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR)


def _refused(db: sqlite3.Connection, exc: sqlite3.Error) -> StoreUnavailable:
    """The error for a write that was refused, the room made first when the disk refused it."""
    with contextlib.suppress(sqlite3.Error):
        if db.in_transaction:
            db.execute("ROLLBACK")
    if disk_refused(exc):
        make_room(db)
    return StoreUnavailable(f"the match log cannot be written: {exc}")


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One match of a table: who played what, when, and how it ended."""

    id: int
    table_id: str
    game: str
    players: dict[str, Any]
    started: float
    ended: float | None
    result: dict[str, Any] | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "table": self.table_id, "game": self.game, "players": self.players,
            "started": self.started, "ended": self.ended, "result": self.result,
        }


@dataclass(frozen=True, slots=True)
class LoggedEvent:
    """One line of a match log with its place (``seq``) and who sent it."""

    seq: int
    source: str
    at: float
    line: str


class Store:
    """The SQLite match log. ``path`` may be ``":memory:"`` for tests of pure logic."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.db = _connect(path)
        _schema(self.db, path)
        #: match results the disk refused (``finish``): shown by ``match``, written later
        self._unfinished: dict[int, tuple[float | None, str | None]] = {}

    def close(self) -> None:
        self._write_results()
        self.db.close()

    def _write(self, sql: str, args: tuple[Any, ...]) -> sqlite3.Cursor:
        """One statement, committed; a refusal of the disk or a lock is ``StoreUnavailable``
        (nothing written, the write-ahead log truncated to make room for the next try)."""
        try:
            return self.db.execute(sql, args)
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as exc:
            raise _refused(self.db, exc) from None

    # --- tables -------------------------------------------------------------------
    def table(self, table_id: str, lang: str = "en") -> tuple[str, str]:
        """The table's referee token and language, created on first use."""
        row = self.db.execute("SELECT token, lang FROM tables WHERE id=?", (table_id,)).fetchone()
        if row:
            return row[0], row[1]
        token = secrets.token_urlsafe(12)
        self._write("INSERT INTO tables(id, token, lang) VALUES (?,?,?)", (table_id, token, lang))
        return token, lang

    def set_lang(self, table_id: str, lang: str) -> None:
        if lang not in LANGS:
            raise StoreError(f"unknown language {lang!r} (languages: {', '.join(LANGS)})")
        self._write("UPDATE tables SET lang=? WHERE id=?", (lang, table_id))

    # --- matches --------------------------------------------------------------------
    def new_match(self, table_id: str, setup: dict[str, Any], source: str = "referee",
                  at: float | None = None) -> int:
        """Open a match whose first event (seq 1) is ``setup``; both in one transaction.
        Its players' names are checked first (``log_checks``: ``BadEvent`` for a bad one)."""
        check_players(setup.get("players"))
        at = time.time() if at is None else at
        line = json.dumps(setup, separators=(", ", ": "), ensure_ascii=False)
        with self._tx() as cur:
            cur.execute(
                "INSERT INTO matches(table_id, game, players, started) VALUES (?,?,?,?)",
                (table_id, setup["game"], json.dumps(setup["players"], ensure_ascii=False), at),
            )
            match_id = int(cur.lastrowid or 0)
            cur.execute(INSERT_EVENT, (table_id, match_id, 1, source, at, line))
        return match_id

    def append(self, table_id: str, match_id: int | None, seq: int, line: str, source: str,
               at: float | None = None) -> None:
        """Append one event line and commit it. ``match_id`` None: no match running."""
        at = time.time() if at is None else at
        try:
            self._write(INSERT_EVENT, (table_id, match_id, seq, source, at, line))
        except sqlite3.IntegrityError:
            raise StoreError(f"match {match_id} already has an event {seq}") from None

    def finish(self, match_id: int, result: dict[str, Any] | None, at: float | None = None) -> None:
        """Record how a match ended (a cache of the replay, for the history list).

        ``result`` None reopens the match (the referee undid the deciding shot). A disk
        that refuses it loses nothing: the event that decided it is in the log already; the
        result is shown as recorded (``match``) and written at the next chance."""
        if result is None:
            self._unfinished[match_id] = (None, None)
        else:
            at = time.time() if at is None else at
            self._unfinished[match_id] = (at, json.dumps(result, ensure_ascii=False))
        self._write_results()

    def _write_results(self) -> None:
        """Write the results ``finish`` could not write (the disk was full); quiet if it still cannot."""
        while self._unfinished:
            match_id, (ended, result) = next(iter(self._unfinished.items()))
            try:
                self._write("UPDATE matches SET ended=?, result=? WHERE id=?", (ended, result, match_id))
            except StoreUnavailable:
                return
            self._unfinished.pop(match_id, None)

    def match(self, match_id: int) -> MatchRow:
        self._write_results()
        row = self.db.execute(
            "SELECT id, table_id, game, players, started, ended, result FROM matches WHERE id=?",
            (match_id,),
        ).fetchone()
        if row is None:
            raise StoreError(f"no match {match_id}")
        return self._shown(row)

    def _shown(self, row: tuple[Any, ...]) -> MatchRow:
        """A match row with the result ``finish`` has not written yet."""
        waiting = self._unfinished.get(row[0])
        if waiting is not None:
            row = (*row[:5], *waiting)
        return _match_row(row)

    def matches(self, table_id: str | None = None, limit: int = 50) -> list[MatchRow]:
        """Newest first."""
        sql = "SELECT id, table_id, game, players, started, ended, result FROM matches"
        args: tuple[Any, ...] = ()
        if table_id is not None:
            sql += " WHERE table_id=?"
            args = (table_id,)
        sql += " ORDER BY id DESC LIMIT ?"
        self._write_results()
        return [self._shown(r) for r in self.db.execute(sql, (*args, limit)).fetchall()]

    def latest_match(self, table_id: str) -> MatchRow | None:
        found = self.matches(table_id, limit=1)
        return found[0] if found else None

    def events(self, match_id: int) -> list[LoggedEvent]:
        """The whole log of a match, corrections included, in order."""
        rows = self.db.execute(
            "SELECT seq, source, at, line FROM events WHERE match_id=? ORDER BY seq", (match_id,)
        )
        return [LoggedEvent(*r) for r in rows]

    def idle_events(self, table_id: str, limit: int = 100) -> list[LoggedEvent]:
        """Events of a table that came while no match was running, newest last."""
        rows = self.db.execute(
            "SELECT seq, source, at, line FROM events WHERE table_id=? AND match_id IS NULL "
            "ORDER BY id DESC LIMIT ?", (table_id, limit),
        ).fetchall()
        return [LoggedEvent(*r) for r in reversed(rows)]

    # --- the link's place -------------------------------------------------------------
    def checkpoint(self, table_id: str) -> tuple[str, int] | None:
        """The table's last saved link checkpoint (its JSON) and the event row before it."""
        sql = "SELECT state, row FROM checkpoints WHERE table_id=?"
        row = self.db.execute(sql, (table_id,)).fetchone()
        return (row[0], int(row[1])) if row else None

    def save_checkpoint(self, table_id: str, state: str, at: float | None = None,
                        row: int | None = None) -> None:
        """``row``: the last event row before the checkpoint; None: the latest written."""
        at = time.time() if at is None else at
        if row is None:
            self._write(SAVE_CHECKPOINT, (table_id, state, table_id, at))
        else:
            self._write(SAVE_CHECKPOINT_AT, (table_id, state, row, at))

    def table_lines_after(self, table_id: str, row: int) -> list[str]:
        """The lines of the table's own events (source ``table``) written after ``row``."""
        rows = self.db.execute(
            "SELECT line FROM events WHERE table_id=? AND id>? AND source='table' ORDER BY id",
            (table_id, row),
        )
        return [r[0] for r in rows]

    def table_rows_after(self, table_id: str, row: int) -> list[tuple[int, str]]:
        """``table_lines_after`` with each line's row."""
        rows = self.db.execute(
            "SELECT id, line FROM events WHERE table_id=? AND id>? AND source='table' ORDER BY id",
            (table_id, row),
        )
        return [(int(r[0]), r[1]) for r in rows]

    def incident(self, table_id: str, kind: str, text: str, at: float | None = None) -> None:
        at = time.time() if at is None else at
        self._write(INSERT_INCIDENT, (table_id, at, kind, text))

    def incidents(self, table_id: str, limit: int = 50) -> list[tuple[float, str, str]]:
        """(at, kind, text) of the table's incidents, newest last."""
        rows = self.db.execute(
            "SELECT at, kind, text FROM incidents WHERE table_id=? ORDER BY id DESC LIMIT ?",
            (table_id, limit),
        ).fetchall()
        return [(r[0], r[1], r[2]) for r in reversed(rows)]

    def _tx(self) -> _Transaction:
        return _Transaction(self.db)


def _schema(db: sqlite3.Connection, path: str) -> None:
    try:
        db.executescript(SCHEMA)
    except sqlite3.Error as exc:
        db.close()
        why = f"{exc} (is another program holding it?)"
        raise StoreError(f"cannot open the match log {path}: {why}") from None


def _connect(path: str) -> sqlite3.Connection:
    try:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        db.execute(f"PRAGMA busy_timeout={BUSY_MS}")
        db.execute("PRAGMA journal_mode=WAL")
        # FULL: a commit is on disk when it returns (a power cut, not only a crash)
        db.execute("PRAGMA synchronous=FULL")
        # a small write-ahead log: a disk of a few MB is not filled by it (make_room)
        db.execute(f"PRAGMA wal_autocheckpoint={WAL_PAGES}")
        db.execute(f"PRAGMA journal_size_limit={WAL_BYTES}")
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open the match log {path}: {exc}") from None
    return db


@dataclass(frozen=True, slots=True)
class _Item:
    """One write of the queue: its statements (one transaction with the rest of its group),
    who waits for it, and what kind it is: ``shown`` (a table's event the screens have seen:
    refused, it holds the table's later writes back) or ``again`` (such events written again,
    in order: taken, it lets them go)."""

    statements: tuple[tuple[str, tuple[Any, ...]], ...]
    done: asyncio.Future[None]
    loop: asyncio.AbstractEventLoop
    table: str | None = None
    shown: bool = False
    again: bool = False


class Writer:
    """Appends for the event loop, committed in groups by a thread of its own.

    ``await writer.append(...)`` returns once the event is on disk. Events that arrive
    while a commit is under way go into the next commit together, so eight tables
    scoring at once cost one disk sync, not eight, and the event loop never waits
    for the disk. A commit the database refuses (locked, disk full) raises
    ``StoreUnavailable`` in every waiter of that group: nothing of it was written, and
    the write-ahead log is truncated (``make_room``) so that the next try finds the room
    it held.

    A table's event shown before its commit (``queued(..., shown=True)``) that the log
    refuses holds back every later write of its table (refused unqueued, whatever it is)
    until those events are written again in order (``again``): the log never takes a
    table's later event, or a checkpoint after it, without the earlier one the screens
    showed (docs/design.md, "A table's event is shown before its commit").
    """

    def __init__(self, path: str) -> None:
        self.db = _connect(path)
        _schema(self.db, path)
        self.commits = 0
        self.refused = 0  # commits the database refused (each retried by its writers)
        self._queue: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()
        self._held: set[str] = set()  # tables whose shown event was refused (the thread's own)
        self._thread = threading.Thread(target=self._run, name="tablesense-log", daemon=True)
        self._thread.start()

    async def append(self, table_id: str, match_id: int | None, seq: int, line: str, source: str,
                     at: float | None = None) -> None:
        await self.queued(table_id, match_id, seq, line, source, at)

    def queued(self, table_id: str, match_id: int | None, seq: int, line: str, source: str,
               at: float | None = None, shown: bool = False) -> asyncio.Future[None]:
        """``append`` in two halves: the event takes its place in the log's order now (before
        whatever is queued after this call); the future it returns is done once it is on disk
        (or says why not). ``shown``: the screens see it before that (``Pub``)."""
        at = time.time() if at is None else at
        row = (table_id, match_id, seq, source, at, line)
        return self._queued(((INSERT_EVENT, row),), table_id, shown=shown)

    async def again(self, rows: list[tuple[str, int | None, int, str, str, float]]) -> None:
        """A table's events shown and refused, written again in one commit, in order (rows as
        ``append`` takes its arguments): the table's later writes are let through once taken."""
        statements = tuple((INSERT_EVENT, (t, m, seq, source, at, line))
                           for t, m, seq, line, source, at in rows)
        await self._queued(statements, rows[0][0], again=True)  # a try written already: taken (``_written``)

    async def save_checkpoint(self, table_id: str, state: str, row: int | None = None) -> None:
        """The link checkpoint, in order with the events before it (the same queue);
        ``row``: the last event row before it, None: the latest written."""
        if row is None:
            await self._put(SAVE_CHECKPOINT, (table_id, state, table_id, time.time()))
        else:
            await self._put(SAVE_CHECKPOINT_AT, (table_id, state, row, time.time()))

    async def incident(self, table_id: str, kind: str, text: str) -> None:
        await self._put(INSERT_INCIDENT, (table_id, time.time(), kind, text))

    async def _put(self, sql: str, row: tuple[Any, ...]) -> None:
        await self._queued(((sql, row),), str(row[0]))

    def _queued(self, statements: tuple[tuple[str, tuple[Any, ...]], ...], table: str | None,
                shown: bool = False, again: bool = False) -> asyncio.Future[None]:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._queue.put(_Item(statements, done, loop, table, shown, again))
        return done

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(10)
        self.db.close()

    def _run(self) -> None:
        stop = False
        while not stop:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            while True:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            self._commit(batch)

    def _commit(self, batch: list[_Item]) -> None:
        results: dict[int, BaseException | None] = {}
        held = StoreUnavailable("the match log cannot be written: the table's events shown before "
                                "this wait to be written again first")
        todo = []
        for n, item in enumerate(batch):
            if item.table in self._held and not item.again:
                results[n] = held  # written again first (``again``), then this may be
            else:
                todo.append((n, item))
        if todo:
            try:
                self.db.execute("BEGIN IMMEDIATE")
                for n, item in todo:
                    if item.again and _written(self.db, item.statements[0][1]):
                        results[n] = None  # written already by a try whose waiter was gone
                        continue
                    try:
                        for sql, row in item.statements:
                            self.db.execute(sql, row)
                        results[n] = None
                    except sqlite3.IntegrityError:
                        row = item.statements[0][1]
                        results[n] = StoreError(f"match {row[1]} already has an event {row[2]}")
                self.db.execute("COMMIT")
                self.commits += 1
                for _, item in todo:
                    if item.again and item.table is not None:
                        self._held.discard(item.table)
            except sqlite3.Error as exc:
                error = _refused(self.db, exc)  # the whole group rolled back
                self.refused += 1
                for n, item in todo:
                    results[n] = error
                    if (item.shown or item.again) and item.table is not None:
                        self._held.add(item.table)
        for n, item in enumerate(batch):
            with contextlib.suppress(RuntimeError):  # its event loop is closed: no one waits
                item.loop.call_soon_threadsafe(_settle, item.done, results[n])


def _written(db: sqlite3.Connection, row: tuple[Any, ...]) -> bool:
    """The event ``row`` (``INSERT_EVENT``'s parameters) is in the log already, exactly."""
    table_id, match_id, seq, source, at, line = row
    same = "table_id=? AND seq=? AND source=? AND at=? AND line=?"
    if match_id is None:  # no match running: rare, and no index of its own
        found = db.execute(f"SELECT 1 FROM events WHERE match_id IS NULL AND {same} LIMIT 1",
                           (table_id, seq, source, at, line))
    else:  # the index of (match, seq)
        found = db.execute(f"SELECT 1 FROM events WHERE match_id=? AND {same} LIMIT 1",
                           (match_id, table_id, seq, source, at, line))
    return found.fetchone() is not None


def _settle(done: asyncio.Future[None], error: BaseException | None) -> None:
    if done.cancelled():
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Cursor:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise _refused(self.db, exc) from None
        return self.db.cursor()

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        if kind is None:
            try:
                self.db.execute("COMMIT")
                return
            except sqlite3.Error as failed:  # the disk refused the commit: nothing of it is kept
                raise _refused(self.db, failed) from None
        with contextlib.suppress(sqlite3.Error):
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error) and not isinstance(exc, sqlite3.IntegrityError):
            raise _refused(self.db, exc) from None  # locked, disk full: may succeed later


def _match_row(row: tuple[Any, ...]) -> MatchRow:
    return MatchRow(
        id=row[0], table_id=row[1], game=row[2], players=json.loads(row[3]), started=row[4],
        ended=row[5], result=json.loads(row[6]) if row[6] else None,
    )


# --- corrections ----------------------------------------------------------------------

def effective_lines(events: Iterable[LoggedEvent]) -> list[LoggedEvent]:
    """The events of one match that count: voided events and the void records themselves
    left out (``tablesense.corrections``)."""
    events = list(events)
    drop = dropped((ev.seq, ev.line) for ev in events)
    return [ev for ev in events if ev.seq not in drop]
