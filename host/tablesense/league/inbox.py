"""What the league service received, in the league's SQLite file beside the competitions.

- ``league_matches``: one row per match id (``PUB:TABLE:START``), its revision and the result
  row it entered, whose digest (``digest``: what the match is) ``match_digests`` holds beside
  those ``league import`` entered. The same match id again is a duplicate (counted once); a
  higher revision replaces the result it entered before; the same digest under another id,
  from another pub or imported by hand is refused: one log, one match;
- ``league_refused``: every refused message with the reason (the league page lists them);
- ``league_aliases``: a name a pub's referee typed for a competition member;
- ``league_received``: messages an earlier release kept on receipt and had not checked yet
  (the service checks them at its start; nothing is kept there now).

A message is checked in two steps: ``prepare`` parses and replays it without holding the
database (the service does this part in processes of its own: ``ingest.check_message``,
``checkers``; ``known`` and ``prepared`` are its two ends here), and ``commit`` stores
what came of one or several prepared messages in one transaction, under ``lock``: a
service killed half-way stores nothing of them, and the broker, which has not had their
acknowledgement, sends them again. ``take`` is the two for one message.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import msgspec

from . import ingest
from .ingest import Checked, Entry, Members, Refused, junk_key, key_of, parse, too_big
from .limits import MAX_SAID, cut
from .logcheck import name_fault
from .standings import Result
from .store import Competition, LeagueError, LeagueStore, _result_dict, _result_from

SCHEMA = """
CREATE TABLE IF NOT EXISTS league_matches (
    match_id  TEXT PRIMARY KEY,
    pub       TEXT NOT NULL,
    table_id  TEXT NOT NULL,
    started   REAL NOT NULL,
    revision  INTEGER NOT NULL,
    result_id INTEGER NOT NULL REFERENCES results(id),
    received  REAL NOT NULL,
    barrage   INTEGER NOT NULL DEFAULT 0  -- the league said it was a barrage (``mark_barrage``)
);
CREATE TABLE IF NOT EXISTS league_refused (
    key      TEXT PRIMARY KEY,
    pub      TEXT NOT NULL,
    match_id TEXT NOT NULL,
    reason   TEXT NOT NULL,
    received REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS league_aliases (
    competition_id INTEGER NOT NULL REFERENCES competitions(id),
    pub            TEXT NOT NULL DEFAULT '',
    name           TEXT NOT NULL,
    member         TEXT NOT NULL,
    PRIMARY KEY (competition_id, pub, name)
);
-- the page's and the digest check's join from a result to the match it came from
CREATE INDEX IF NOT EXISTS league_matches_result ON league_matches(result_id);
-- each competition's results changed or deleted (the league page reads such a competition
-- again whole; a new result it reads by its id: ``view.PageCache``)
CREATE TABLE IF NOT EXISTS league_changes (
    competition_id INTEGER PRIMARY KEY,
    changes        INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS league_result_changed AFTER UPDATE ON results BEGIN
    INSERT INTO league_changes VALUES (OLD.competition_id, 1)
        ON CONFLICT (competition_id) DO UPDATE SET changes = changes + 1;
    INSERT INTO league_changes VALUES (NEW.competition_id, 1)
        ON CONFLICT (competition_id) DO UPDATE SET changes = changes + 1;
END;
CREATE TRIGGER IF NOT EXISTS league_result_deleted AFTER DELETE ON results BEGIN
    INSERT INTO league_changes VALUES (OLD.competition_id, 1)
        ON CONFLICT (competition_id) DO UPDATE SET changes = changes + 1;
END;
-- each change to what the checks read of the competitions (``_read_members``: their rows,
-- players, aliases, teams, fixtures), by any connection: the service reads the members again
-- when this grew, not after every match it stored (``Inbox.shared_members``)
CREATE TABLE IF NOT EXISTS league_member_changes (
    id      INTEGER PRIMARY KEY CHECK (id = 0),
    changes INTEGER NOT NULL
);
""" + "".join(f"""CREATE TRIGGER IF NOT EXISTS league_members_{table}_{op.lower()} AFTER {op} ON {table} BEGIN
    INSERT INTO league_member_changes VALUES (0, 1) ON CONFLICT (id) DO UPDATE SET changes = changes + 1;
END;
""" for table in ("competitions", "players", "league_aliases", "teams", "fixtures")
    for op in ("INSERT", "UPDATE", "DELETE")) + """
CREATE TABLE IF NOT EXISTS league_received (
    id       INTEGER PRIMARY KEY,
    pub      TEXT NOT NULL,
    payload  BLOB NOT NULL,
    received REAL NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class Outcome:
    kind: str  # "stored" | "replaced" | "duplicate" | "refused"
    match_id: str
    text: str = ""


@dataclass(frozen=True, slots=True)
class Prepared:
    """A message checked and replayed, to be stored by ``Inbox.commit``: a match (``entry``:
    what the check made of it), a refusal (``why``) or a duplicate (``known``)."""

    pub: str
    key: str  # the refusal's key (``league_refused``)
    match_id: str
    received: int | None = None  # its ``league_received`` row (an earlier release's), deleted with it
    why: str | None = None
    known: Outcome | None = None
    entry: Entry | None = None


class _Ids(msgspec.Struct):
    """The two fields of a match message that say whether the league has it (``Inbox.known``)."""

    id: str
    revision: int


_IDS = msgspec.json.Decoder(_Ids)


class Inbox:
    def __init__(self, store: LeagueStore) -> None:
        self.store = store
        self.db = store.db
        #: every use of ``db`` from the service's threads holds it (one connection, several threads)
        self.lock = threading.RLock()
        self.db.execute("PRAGMA journal_mode=WAL")  # the league page reads while matches come in
        # a commit is on disk when it returns (the WAL synced): the broker's acknowledgement
        # of a message follows its commit, so a power cut after it loses nothing (docs/design.md)
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(SCHEMA)
        #: the competitions' members as last read, and the file's version then (``_version``)
        self._members: list[Members] | None = None
        self._members_at: tuple[int, int] | None = None
        #: how many times the members were read (a checker process is sent them again when it grows)
        self.members_read = 0
        #: the file, for the second connection (read once here: ``db`` is the committer's)
        self._path = str(self.db.execute("PRAGMA database_list").fetchone()[2])
        #: a second connection for ``known`` and ``shared_members`` (its own lock): it reads
        #: while a commit holds ``lock`` and syncs, so the checkers are fed meanwhile (WAL:
        #: readers never wait)
        self._reader_store: LeagueStore | None = None
        self._reader_lock = threading.Lock()
        #: what ``shared_members`` last read: (its generation, the members), the reader's
        #: ``data_version`` then
        self._shared: tuple[int, list[Members]] | None = None
        self._shared_at: int | None = None
        self._shared_changes = -1  # ``league_member_changes`` then

    def _version(self) -> tuple[int, int]:
        """Changes since: another connection's commits (a ``league`` command's: SQLite's
        ``data_version``) and this connection's own (``total_changes``)."""
        return int(self.db.execute("PRAGMA data_version").fetchone()[0]), self.db.total_changes

    # --- members' names -------------------------------------------------------------
    def alias(self, comp: Competition, name: str, member: str, pub: str = "") -> None:
        why = name_fault(name)
        if why is not None:
            raise LeagueError(f"the name {why}")
        self.store.player(comp, member)
        with self.lock, self.db:
            self.db.execute("INSERT OR REPLACE INTO league_aliases(competition_id, pub, name, member) "
                            "VALUES (?, ?, ?, ?)", (comp.id, pub, name, member))

    def members(self) -> list[Members]:
        """Every competition's members; read again only when the file changed since (a match
        stored by ``take`` changes none of them and keeps them)."""
        with self.lock:
            version = self._version()
            if self._members is not None and self._members_at == version:
                return self._members
            out = _read_members(self.store)
            self._members, self._members_at = out, version
            self.members_read += 1
        return out

    def shared_members(self) -> tuple[int, list[Members]]:
        """(their generation, the members): what a checker process is sent, again only when
        the generation grew. Read on the second connection (``known``'s), never waiting for
        a commit, and read again whenever a member changed since (``league_member_changes``,
        counted by triggers: a ``league alias`` from another process as well as the service's
        own; asked only when the file changed, ``data_version``, and not by the matches the
        service stores); the generation grows only when the members read differ."""
        with self._reader_lock:
            reader = self._reading()
            version = int(reader.db.execute("PRAGMA data_version").fetchone()[0])
            if self._shared is not None and self._shared_at == version:
                return self._shared
            # read before the members: a change committed between the two reads them again next time
            changes = int(reader.db.execute("SELECT COALESCE((SELECT changes FROM league_member_changes), 0)")
                          .fetchone()[0])
            if self._shared is not None and self._shared_changes == changes:
                self._shared_at = version
                return self._shared  # matches stored, no member changed
            members = _read_members(reader)
            if self._shared is None or self._shared[1] != members:
                self._shared = (self._shared[0] + 1 if self._shared else 1, members)
            # noted once read: a read that failed half way is made again at the next call
            self._shared_at, self._shared_changes = version, changes
            return self._shared

    def _reading(self) -> LeagueStore:
        """The second connection (``_reader_lock`` held)."""
        if self._reader_store is None:
            self._reader_store = LeagueStore(self._path)
        return self._reader_store

    # --- received, not yet checked -------------------------------------------------
    def refuse_unread(self, pub: str, raw: bytes) -> Outcome | None:
        """A message too long to read, refused at once as it arrives (None: it is not)."""
        why = too_big(raw)
        if why is None:
            return None
        return self._refuse(pub, junk_key(pub, raw), f"{pub}:?", why)

    def kept(self) -> list[tuple[int, str, bytes]]:
        """What an earlier release kept in ``league_received`` and did not check: (row, pub,
        message), oldest first."""
        with self.lock:
            rows = self.db.execute("SELECT id, pub, payload FROM league_received ORDER BY id").fetchall()
        return [(int(r), str(p), bytes(m)) for r, p, m in rows]

    def waiting(self) -> int:
        """Messages kept by an earlier release and not checked yet."""
        with self.lock:
            return int(self.db.execute("SELECT COUNT(*) FROM league_received").fetchone()[0])

    # --- taking a match ---------------------------------------------------------------
    def take(self, pub: str, raw: bytes, *, should_stop: Callable[[], bool] | None = None,
             received: int | None = None, now: float | None = None) -> Outcome:
        """Check and store one match message from ``pub``'s topic (``prepare``, ``commit``)."""
        return self.commit([self.prepare(pub, raw, should_stop=should_stop, received=received, now=now)])[0]

    def prepare(self, pub: str, raw: bytes, *, should_stop: Callable[[], bool] | None = None,
                received: int | None = None, now: float | None = None) -> Prepared:
        """Check one match message from ``pub``'s topic: parsed, replayed, placed in its
        competition, without holding the lock (a duplicate found first is not replayed).
        Nothing is stored: ``commit`` does."""
        try:
            rec = parse(pub, raw, now)
        except Refused as exc:
            return Prepared(pub, junk_key(pub, raw), f"{pub}:?", received, why=str(exc))
        key = key_of(rec)
        known = self._known(rec.id, rec.revision, key)
        if known is not None:
            return Prepared(pub, key, rec.id, received, known=known)
        return self.prepared(pub, ingest.check_received(rec, self.members(), should_stop), received)

    def known(self, pub: str, raw: bytes, *, received: int | None = None,
              now: float | None = None) -> Prepared | None:
        """A duplicate found before its replay (the service's first look at a message; None:
        not one, or not a message that reads: ``ingest.check_message`` says which). Only the
        id and revision are read to ask, on a connection of its own (what is committed); a
        message that has a stored match's is then read whole, so that one that does not read
        is refused as ``prepare`` refuses it."""
        try:
            ids = _IDS.decode(raw) if too_big(raw) is None else None
        except (msgspec.DecodeError, RecursionError):
            return None
        if ids is None:
            return None
        with self._reader_lock:
            reader = self._reading().db
            found = reader.execute("SELECT revision FROM league_matches WHERE match_id=?",
                                         (ids.id,)).fetchone()
            if (found is None or found[0] < ids.revision) and not reader.execute(
                    "SELECT 1 FROM league_refused WHERE key=?", (f"{ids.id}#{ids.revision}",)).fetchone():
                return None
        return self.prepare(pub, raw, received=received, now=now)

    def close(self) -> None:
        with self._reader_lock:
            if self._reader_store is not None:
                self._reader_store.close()
                self._reader_store = None
        self.store.close()

    def prepared(self, pub: str, checked: Checked, received: int | None = None) -> Prepared:
        """What ``ingest.check_message`` found, to be stored by ``commit``."""
        return Prepared(pub, checked.key, checked.match_id, received, why=checked.why, entry=checked.entry)

    def unreadable(self, pub: str, exc: Exception | str, received: int | None = None, *,
                   raw: bytes | None = None, of: Prepared | None = None) -> Prepared:
        """A message the league's own code failed on (a bug; ``exc``: the exception or its
        account): refused with the fault, listed, not tried again and again. Each is listed
        under its own key: ``of``'s (what its check made of it), else the id and revision
        ``raw`` has (one of ``pub``'s), else its bytes' digest."""
        fault = exc if isinstance(exc, str) else f"{type(exc).__name__}: {str(exc)[:100]}"
        why = f"the league could not check it ({fault})"
        if of is not None:
            return Prepared(pub, of.key, of.match_id, received, why=why)
        if raw is None:
            return Prepared(pub, junk_key(pub, f"?\n{why}".encode()), "?", received, why=why)
        try:
            ids = _IDS.decode(raw) if too_big(raw) is None else None
        except (msgspec.DecodeError, RecursionError):
            ids = None
        if ids is not None and ids.id.startswith(f"{pub}:"):  # another pub's id is not this one's to refuse
            return Prepared(pub, f"{ids.id}#{ids.revision}", ids.id, received, why=why)
        return Prepared(pub, junk_key(pub, raw), f"{pub}:?", received, why=why)

    def commit(self, batch: list[Prepared]) -> list[Outcome]:
        """Store what came of each prepared message, in order, in one transaction (one sync
        to disk for them all); each ``received`` row leaves ``league_received`` in it."""
        with self.lock:
            before = self._version()
            with self.db:
                out = [self._store(p) for p in batch]
            if self._members_at == before:  # results and their rows: the members read still hold
                self._members_at = self._version()
        return out

    def _store(self, p: Prepared) -> Outcome:
        """One prepared message's rows (inside ``commit``'s transaction)."""
        if p.known is not None:
            self._forget(p.received)
            return p.known
        if p.why is not None:
            return self._refused_row(p.pub, p.key, p.match_id, p.why, p.received)
        e = p.entry
        assert e is not None
        stored = self.db.execute("SELECT revision, result_id, barrage FROM league_matches WHERE match_id=?",
                                 (e.id,)).fetchone()
        known = self._duplicate(e.id, e.revision, p.key, stored)  # another thread, or this batch, was quicker
        if known is not None:
            self._forget(p.received)
            return known
        had = stored[1:] if stored is not None else None
        same = self.db.execute("SELECT d.source, m.pub FROM match_digests d LEFT JOIN league_matches m "
                               "ON m.result_id = d.result_id WHERE d.digest=?", (e.digest,)).fetchone()
        if same is not None and same[0] != e.id:  # (the same id: a revision that changed nothing)
            sender = f" (sent by {same[1]})" if same[1] else " (entered by league import)"
            return self._refused_row(p.pub, p.key, e.id, f"the same match as {same[0]}{sender}: one log "
                                     "counts once, whatever its id or sender", p.received)
        data, barrage = e.data, e.barrage
        if had is not None and had[1] and not barrage:  # marked a barrage: its revisions stay one
            row = json.loads(data)
            row["barrage"] = barrage = True
            data = json.dumps(row)
        if had is not None:
            self.db.execute("DELETE FROM match_digests WHERE result_id=?", (had[0],))
            self.db.execute("DELETE FROM results WHERE id=?", (had[0],))
        cur = self.db.execute("INSERT INTO results (competition_id, data) VALUES (?, ?)",
                              (e.competition, data))
        self.db.execute("INSERT INTO match_digests(digest, result_id, source) VALUES (?, ?, ?)",
                        (e.digest, cur.lastrowid, e.id))
        self.db.execute("INSERT OR REPLACE INTO league_matches(match_id, pub, table_id, started, "
                        "revision, result_id, received, barrage) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (e.id, p.pub, e.table, e.started, e.revision, cur.lastrowid, time.time(),
                         int(barrage)))
        self._forget(p.received)
        return Outcome("replaced" if had else "stored", e.id, e.said)

    def _known(self, match_id: str, revision: int, key: str) -> Outcome | None:
        """A duplicate: this revision of the match (or a later one) is stored, or was refused."""
        with self.lock:
            had = self.db.execute("SELECT revision FROM league_matches WHERE match_id=?",
                                  (match_id,)).fetchone()
            return self._duplicate(match_id, revision, key, had)

    def _duplicate(self, match_id: str, revision: int, key: str,
                   had: tuple[int, ...] | None) -> Outcome | None:
        """``_known``, the match's ``league_matches`` row (revision first; None: not stored) read
        already; with ``lock`` held."""
        if had is not None and had[0] >= revision:
            return Outcome("duplicate", match_id)
        if self.db.execute("SELECT 1 FROM league_refused WHERE key=?", (key,)).fetchone():
            return Outcome("duplicate", match_id, "refused before")
        return None

    def mark_barrage(self, match_id: str) -> Result:
        """A match a pub sent was the barrage deciding a tie ("carom.league.barrage"): it then
        counts for the order at the top only (a later revision of it stays a barrage)."""
        with self.lock:
            row = self.db.execute("SELECT result_id FROM league_matches WHERE match_id=?",
                                  (match_id,)).fetchone()
            if row is None:
                raise LeagueError(f"no match {match_id!r} came from a pub")
            (data,) = self.db.execute("SELECT data FROM results WHERE id=?", (row[0],)).fetchone()
            result = replace(_result_from(json.loads(data)), barrage=True)
            with self.db:
                self.db.execute("UPDATE results SET data=? WHERE id=?",
                                (json.dumps(_result_dict(result)), row[0]))
                self.db.execute("UPDATE league_matches SET barrage=1 WHERE match_id=?", (match_id,))
        return result

    def refuse_other(self, pub: str, what: str, why: str) -> Outcome:
        """A message that is no match (a live state that does not read, a topic the league does
        not know): listed with the refused matches, once per what and why (a table's live
        state refused again at every change is listed once)."""
        what = cut(what, 120)
        return self._refuse(pub, junk_key(pub, f"{what}\n{why}".encode(), what), what, why)

    def _refuse(self, pub: str, key: str, match_id: str, why: str) -> Outcome:
        with self.lock, self.db:
            return self._refused_row(pub, key, match_id, why)

    def _refused_row(self, pub: str, key: str, match_id: str, why: str,
                     received: int | None = None) -> Outcome:
        why = cut(why, MAX_SAID)
        self.db.execute("INSERT OR IGNORE INTO league_refused(key, pub, match_id, reason, received) "
                        "VALUES (?, ?, ?, ?, ?)", (key, pub, cut(match_id, 200), why, time.time()))
        self._forget(received)
        return Outcome("refused", match_id, why)

    def _forget(self, received: int | None) -> None:
        if received is not None:
            self.db.execute("DELETE FROM league_received WHERE id=?", (received,))

    # --- reading --------------------------------------------------------------------
    def played(self, comp: Competition) -> dict[int, tuple[str, str, str, float]]:
        """result id -> (match id, pub, table, start) of the results that came from pubs."""
        with self.lock:
            rows = self.db.execute(
                "SELECT m.result_id, m.match_id, m.pub, m.table_id, m.started FROM league_matches m "
                "JOIN results r ON r.id = m.result_id WHERE r.competition_id=?", (comp.id,)).fetchall()
        return {r[0]: (r[1], r[2], r[3], r[4]) for r in rows}

    def refused(self, limit: int = 50) -> list[tuple[str, str, str, float]]:
        with self.lock:
            rows = self.db.execute("SELECT pub, match_id, reason, received FROM league_refused "
                                   "ORDER BY received DESC, rowid DESC LIMIT ?", (limit,)).fetchall()
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    def refused_count(self) -> int:
        with self.lock:
            return int(self.db.execute("SELECT COUNT(*) FROM league_refused").fetchone()[0])


def _read_members(store: LeagueStore) -> list[Members]:
    """Every competition's members, read on ``store``'s connection."""
    out = []
    for comp in store.competitions():
        players = store.players(comp)
        names = frozenset(p.name for p in players)
        rows = store.db.execute("SELECT pub, name, member FROM league_aliases WHERE competition_id=?",
                                (comp.id,)).fetchall()
        teams = {t.name: t for t in store.teams(comp)}
        out.append(Members(comp, names, {(p, n): m for p, n, m in rows}, {p.name: p for p in players},
                           teams, tuple(store.fixtures(comp)) if teams else ()))
    return out


def open_inbox(path: str) -> Inbox:
    try:
        return Inbox(LeagueStore(path))
    except sqlite3.Error as exc:
        raise LeagueError(f"cannot open the league database {path}: {exc}") from None
