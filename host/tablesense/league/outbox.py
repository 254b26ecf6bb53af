"""The pub's outbox: finished matches waiting for the broker, in the pub's own SQLite file.

A match enters the outbox when its result is final (``publisher``: the referee has moved on
to the next match at its table, or has let the grace period pass without amending it), its
whole message, so that a later change of the match log cannot change what was sent, and
leaves it only when the broker has acknowledged it (QoS 1 PUBACK). A change after that (a
void, a late call) is a new version of the match, under a higher revision (its number of
logged events), which replaces the one the league has. A host restarted, a broker down for
a day: the outbox is drained when the broker is back. A match sent twice is the same
message with the same id; the league counts it once.

A disk that refuses a write of the outbox (full) raises ``StoreUnavailable`` with nothing
written and the write-ahead log truncated (``store.make_room``), as the match log does; the
publisher tries again later.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from ..store import Store as MatchLog
from ..store import StoreUnavailable, disk_refused, effective_lines, make_room
from .messages import match_message
from .nights import BadNights, decode_nights, tag

SCHEMA = """
CREATE TABLE IF NOT EXISTS league_outbox (
    key      TEXT PRIMARY KEY,       -- match id and revision: one row per version of a match
    match_id INTEGER NOT NULL,
    payload  TEXT NOT NULL,
    queued   REAL NOT NULL,
    sent     REAL,                   -- the broker's PUBACK
    refused  TEXT                    -- the broker refused it (ACL): why
);
-- matches that ended before the pub joined the league are not sent
CREATE TABLE IF NOT EXISTS league_joined (pub TEXT PRIMARY KEY, since REAL NOT NULL);
-- the team nights the league told this pub (league/nights.py): its newest message
CREATE TABLE IF NOT EXISTS league_nights (
    pub      TEXT PRIMARY KEY,
    payload  TEXT NOT NULL,
    received REAL NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class Pending:
    key: str
    payload: bytes


class Outbox:
    def __init__(self, path: str, pub: str) -> None:
        self.pub = pub
        self.log = MatchLog(path)  # its own connection: WAL, beside the pub's writer
        self.db = self.log.db
        try:
            self._write(SCHEMA)
            self._write("INSERT OR IGNORE INTO league_joined(pub, since) VALUES (?, ?)", (pub, time.time()))
        except StoreUnavailable:
            self.log.close()
            raise
        row = self.db.execute("SELECT since FROM league_joined WHERE pub=?", (pub,)).fetchone()
        self.since = float(row[0])

    def close(self) -> None:
        self.log.close()

    def _write(self, sql: str, args: tuple[Any, ...] | None = None) -> None:
        """One statement (``args`` None: a script), committed; ``StoreUnavailable`` when the disk
        (or a lock) refuses it, nothing of it written."""
        try:
            if args is None:
                self.db.executescript(sql)
            else:
                self.db.execute(sql, args)
        except sqlite3.Error as exc:
            if disk_refused(exc):
                make_room(self.db)
            raise StoreUnavailable(f"the league's outbox cannot be written: {exc}") from None

    def sweep(self, results: dict[int, dict[str, Any]] | None = None,
              nights: list[dict[str, Any]] | None = None,
              complete: set[int] | frozenset[int] = frozenset(), hold: Collection[int] = ()) -> int:
        """Put every finished match of this pub's log not yet in the outbox into it; how many.

        ``results``: the engine's final figures per match id (the pub's live replay); a match
        without them is replayed here. ``nights``: the team nights the league told this pub; a
        match of one is tagged with its fixture and competition (``nights.tag``). ``complete``:
        matches not ended that a night's scheme reads as done (an innings cap reached).
        ``hold``: matches whose result is not final yet (left for a later sweep)."""
        marks = ",".join("?" * len(complete))
        rows = self.db.execute(
            "SELECT m.id, (SELECT COUNT(*) FROM events e WHERE e.match_id = m.id) FROM matches m "
            f"WHERE (m.ended IS NOT NULL OR m.id IN ({marks})) AND m.started >= ? ORDER BY m.id",
            (*complete, self.since)
        ).fetchall()
        queued = {k for (k,) in self.db.execute("SELECT key FROM league_outbox")}
        added = 0
        for mid, count in rows:
            key = f"{mid}#{count}"
            if key in queued or mid in hold:
                continue
            events = self.log.events(mid)
            count = max(count, len(events))  # a correction logged meanwhile
            key = f"{mid}#{count}"
            match = self.log.match(mid)
            lines = [e.line for e in effective_lines(events)]
            result = (results or {}).get(mid)
            if result is None:
                result = _replayed(lines)
            card = tag(nights or [], match.game, match.players, match.started)
            msg = match_message(self.pub, match.table_id, match.started, match.game, match.players, lines,
                                result, revision=count, competition=card["competition"] if card else None,
                                fixture=card["fixture"] if card else None)
            self._write("INSERT OR IGNORE INTO league_outbox(key, match_id, payload, queued) "
                        "VALUES (?, ?, ?, ?)", (key, mid, json.dumps(msg, ensure_ascii=False), time.time()))
            added += 1
        return added

    def pending(self, limit: int = 100) -> list[Pending]:
        rows = self.db.execute("SELECT key, payload FROM league_outbox WHERE sent IS NULL "
                               "AND refused IS NULL ORDER BY queued, key LIMIT ?", (limit,)).fetchall()
        return [Pending(k, p.encode()) for k, p in rows]

    def sent(self, key: str) -> None:
        self._write("UPDATE league_outbox SET sent=? WHERE key=?", (time.time(), key))

    def refused(self, key: str, why: str) -> None:
        self._write("UPDATE league_outbox SET refused=? WHERE key=?", (why, key))

    # --- the team nights the league told this pub ---------------------------------------
    def save_nights(self, payload: bytes) -> None:
        self._write("INSERT OR REPLACE INTO league_nights(pub, payload, received) VALUES (?, ?, ?)",
                    (self.pub, payload.decode("utf-8", "replace"), time.time()))

    def nights(self) -> list[dict[str, Any]]:
        """The nights last told (none: an empty list); a stored message that no longer reads: none."""
        row = self.db.execute("SELECT payload FROM league_nights WHERE pub=?", (self.pub,)).fetchone()
        if row is None:
            return []
        try:
            return decode_nights(row[0].encode(), self.pub)
        except BadNights:
            return []

    def counts(self) -> dict[str, int]:
        row = self.db.execute("SELECT COUNT(*) - COUNT(sent) - COUNT(refused), COUNT(sent), COUNT(refused) "
                              "FROM league_outbox").fetchone()
        return {"waiting": row[0], "sent": row[1], "refused": row[2]}


def _replayed(lines: list[str]) -> dict[str, Any]:
    from ..replay import Replay
    from .messages import reported

    rep = Replay().feed_lines(lines)
    if rep.engine is None or rep.state is None:
        return {}
    return reported(rep.engine.to_json(rep.state))
