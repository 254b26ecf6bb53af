"""What the league service received, in the league's SQLite file beside the competitions.

- ``league_matches``: one row per match id (``PUB:TABLE:START``), its revision and the
  result row it entered; the same match again is a duplicate (counted once), a higher
  revision replaces the result it entered before.
- ``league_refused``: every refused match with the reason (the league page lists them).
- ``league_aliases``: a name a pub's referee typed for a competition member.

Each received match is taken in one transaction: a service killed half-way stores
nothing of it, and since the broker's message is acknowledged only after the commit
(``mqtt.Subscriber``) it arrives again.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from dataclasses import dataclass, replace

from .ingest import Members, Refused, check, parse, place
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
"""


@dataclass(frozen=True, slots=True)
class Outcome:
    kind: str  # "stored" | "replaced" | "duplicate" | "refused"
    match_id: str
    text: str = ""


class Inbox:
    def __init__(self, store: LeagueStore) -> None:
        self.store = store
        self.db = store.db
        self.db.execute("PRAGMA journal_mode=WAL")  # the league page reads while matches come in
        self.db.executescript(SCHEMA)

    # --- members' names -------------------------------------------------------------
    def alias(self, comp: Competition, name: str, member: str, pub: str = "") -> None:
        self.store.player(comp, member)
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO league_aliases(competition_id, pub, name, member) "
                            "VALUES (?, ?, ?, ?)", (comp.id, pub, name, member))

    def members(self) -> list[Members]:
        out = []
        for comp in self.store.competitions():
            names = frozenset(p.name for p in self.store.players(comp))
            rows = self.db.execute("SELECT pub, name, member FROM league_aliases WHERE competition_id=?",
                                   (comp.id,)).fetchall()
            out.append(Members(comp, names, {(p, n): m for p, n, m in rows}))
        return out

    # --- taking a match ---------------------------------------------------------------
    def take(self, pub: str, raw: bytes) -> Outcome:
        """Check and store one match message from ``pub``'s topic."""
        try:
            rec = parse(pub, raw)
        except Refused as exc:
            return self._refuse(pub, f"{pub}:?#{hashlib.sha256(raw).hexdigest()[:16]}", f"{pub}:?", str(exc))
        key = f"{rec.id}#{rec.revision}"
        had = self.db.execute("SELECT revision, result_id, barrage FROM league_matches WHERE match_id=?",
                              (rec.id,)).fetchone()
        if had is not None and had[0] >= rec.revision:
            return Outcome("duplicate", rec.id)
        if self.db.execute("SELECT 1 FROM league_refused WHERE key=?", (key,)).fetchone():
            return Outcome("duplicate", rec.id, "refused before")
        try:
            result = check(rec)
            comp, result = place(rec, result, self.members())
        except Refused as exc:
            return self._refuse(pub, key, rec.id, str(exc))
        if had is not None and had[2]:
            result = replace(result, barrage=True)
        data = json.dumps(_result_dict(result))
        with self.db:
            if had is not None:
                self.db.execute("DELETE FROM results WHERE id=?", (had[1],))
            cur = self.db.execute("INSERT INTO results (competition_id, data) VALUES (?, ?)", (comp.id, data))
            self.db.execute("INSERT OR REPLACE INTO league_matches(match_id, pub, table_id, started, "
                            "revision, result_id, received, barrage) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                            (rec.id, pub, rec.table, rec.started, rec.revision, cur.lastrowid, time.time(),
                             int(result.barrage)))
        return Outcome("replaced" if had else "stored", rec.id, f"{comp.name}: {result.p1} - {result.p2}")

    def mark_barrage(self, match_id: str) -> Result:
        """A match a pub sent was the barrage deciding a tie ("carom.league.barrage"): it then
        counts for the order at the top only (a later revision of it stays a barrage)."""
        row = self.db.execute("SELECT result_id FROM league_matches WHERE match_id=?", (match_id,)).fetchone()
        if row is None:
            raise LeagueError(f"no match {match_id!r} came from a pub")
        (data,) = self.db.execute("SELECT data FROM results WHERE id=?", (row[0],)).fetchone()
        result = replace(_result_from(json.loads(data)), barrage=True)
        with self.db:
            self.db.execute("UPDATE results SET data=? WHERE id=?",
                            (json.dumps(_result_dict(result)), row[0]))
            self.db.execute("UPDATE league_matches SET barrage=1 WHERE match_id=?", (match_id,))
        return result

    def _refuse(self, pub: str, key: str, match_id: str, why: str) -> Outcome:
        with self.db:
            self.db.execute("INSERT OR IGNORE INTO league_refused(key, pub, match_id, reason, received) "
                            "VALUES (?, ?, ?, ?, ?)", (key, pub, match_id, why, time.time()))
        return Outcome("refused", match_id, why)

    # --- reading --------------------------------------------------------------------
    def played(self, comp: Competition) -> dict[int, tuple[str, str, str, float]]:
        """result id -> (match id, pub, table, start) of the results that came from pubs."""
        rows = self.db.execute(
            "SELECT m.result_id, m.match_id, m.pub, m.table_id, m.started FROM league_matches m "
            "JOIN results r ON r.id = m.result_id WHERE r.competition_id=?", (comp.id,)).fetchall()
        return {r[0]: (r[1], r[2], r[3], r[4]) for r in rows}

    def refused(self, limit: int = 50) -> list[tuple[str, str, str, float]]:
        rows = self.db.execute("SELECT pub, match_id, reason, received FROM league_refused "
                               "ORDER BY received DESC LIMIT ?", (limit,)).fetchall()
        return [(r[0], r[1], r[2], r[3]) for r in rows]


def open_inbox(path: str) -> Inbox:
    try:
        return Inbox(LeagueStore(path))
    except sqlite3.Error as exc:
        raise LeagueError(f"cannot open the league database {path}: {exc}") from None
