"""The competition store: SQLite, the only I/O of the league (logic in ``standings``).

A database holds any number of competitions (one per half season: najaar or
voorjaar), each with its players (name, moyenne at the start) and results.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from ..errors import IllegalCall, TablesenseError
from ..rules.carom_profiles import resolve_profile
from ..rules.carom_targets import SCHEMES
from .limits import MAX_COMPETITION, MAX_MOYENNE, short
from .logcheck import name_fault
from .standings import Player, Result

SCHEMA = """
CREATE TABLE IF NOT EXISTS competitions (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    season     TEXT NOT NULL DEFAULT '',
    half       TEXT NOT NULL DEFAULT 'najaar',
    discipline TEXT NOT NULL DEFAULT 'libre',
    profile    TEXT NOT NULL DEFAULT 'kampioen',
    scheme     TEXT NOT NULL DEFAULT 'de-bruijn'
);
CREATE TABLE IF NOT EXISTS players (
    id             INTEGER PRIMARY KEY,
    competition_id INTEGER NOT NULL REFERENCES competitions(id),
    name           TEXT NOT NULL,
    moyenne        REAL NOT NULL,
    UNIQUE (competition_id, name)
);
CREATE TABLE IF NOT EXISTS results (
    id             INTEGER PRIMARY KEY,
    competition_id INTEGER NOT NULL REFERENCES competitions(id),
    data           TEXT NOT NULL
);
-- what each result taken from a match log is (digest.match_digest): one log, one result
CREATE TABLE IF NOT EXISTS match_digests (
    digest    TEXT PRIMARY KEY,
    result_id INTEGER NOT NULL UNIQUE REFERENCES results(id),
    source    TEXT NOT NULL
);
"""

HALVES = ("najaar", "voorjaar")
DISCIPLINES = ("libre", "bandstoten", "driebanden")


NEW_MEMBERS_RULE = "carom.league.new-members"


class LeagueError(TablesenseError):
    """A league command that cannot be done (unknown competition, player, duplicate...)."""


@dataclass(frozen=True, slots=True)
class Competition:
    id: int
    name: str
    season: str
    half: str
    discipline: str
    profile: str
    scheme: str

    @property
    def game(self) -> str:
        """The game its matches are: carom (the only competitions the league keeps today)."""
        return "carom"


class LeagueStore:
    def __init__(self, path: str) -> None:
        try:
            self.db = sqlite3.connect(path, check_same_thread=False)  # league serve: paho's thread
            self.db.executescript(SCHEMA)
        except sqlite3.Error as exc:
            raise LeagueError(f"cannot open the league database {path}: {exc}") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> LeagueStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- competitions ---------------------------------------------------------------
    def create(self, name: str, season: str = "", half: str = "najaar", discipline: str = "libre",
               profile: str = "club", scheme: str = "de-bruijn") -> Competition:
        if not name or not name.isprintable() or name != name.strip() or len(name) > MAX_COMPETITION:
            raise LeagueError(f"a competition's name is 1 to {MAX_COMPETITION} printable characters with no "
                              f"space at an end, not {short(name)}")
        if half not in HALVES:
            raise LeagueError(f"half must be one of {', '.join(HALVES)}, not {half!r}")
        if discipline not in DISCIPLINES:
            raise LeagueError(f"discipline must be one of {', '.join(DISCIPLINES)}, not {discipline!r}")
        if scheme not in SCHEMES:
            raise LeagueError(f"match-point scheme must be one of {', '.join(SCHEMES)}, not {scheme!r}")
        try:
            profile = resolve_profile(profile)
        except IllegalCall as exc:
            raise LeagueError(str(exc)) from None
        try:
            with self.db:
                self.db.execute("INSERT INTO competitions (name, season, half, discipline, profile, scheme) "
                                "VALUES (?, ?, ?, ?, ?, ?)",
                                (name, season, half, discipline, profile, scheme))
        except sqlite3.IntegrityError:
            raise LeagueError(f"a competition called {name!r} exists already") from None
        return self.competition(name)

    def competition(self, name: str) -> Competition:
        row = self.db.execute("SELECT id, name, season, half, discipline, profile, scheme FROM competitions "
                              "WHERE name = ?", (name,)).fetchone()
        if row is None:
            have = [r[0] for r in self.db.execute("SELECT name FROM competitions ORDER BY id")]
            raise LeagueError(f"no competition {name!r} (have: {', '.join(have) or 'none'})")
        return Competition(*row)

    def competitions(self) -> list[Competition]:
        rows = self.db.execute("SELECT id, name, season, half, discipline, profile, scheme FROM competitions "
                               "ORDER BY id").fetchall()
        return [Competition(*r) for r in rows]

    # --- players --------------------------------------------------------------------
    def add_player(self, comp: Competition, name: str, moyenne: float) -> Player:
        why = name_fault(name)
        if why is not None:
            raise LeagueError(f"a player's name {why}")
        if not 0 <= moyenne <= MAX_MOYENNE:  # NaN fails both
            raise LeagueError(f"a moyenne is a number from 0 to {MAX_MOYENNE:g}, not {moyenne}")
        if self.results(comp):
            raise LeagueError(f"{name} cannot join {comp.name}: it has begun, and new members play no "
                              f"matches in a running competition ({NEW_MEMBERS_RULE})")
        try:
            with self.db:
                self.db.execute("INSERT INTO players (competition_id, name, moyenne) VALUES (?, ?, ?)",
                                (comp.id, name, moyenne))
        except sqlite3.IntegrityError:
            raise LeagueError(f"{name} is already a player of {comp.name}") from None
        return Player(name, moyenne)

    def players(self, comp: Competition) -> list[Player]:
        rows = self.db.execute("SELECT name, moyenne FROM players WHERE competition_id = ? ORDER BY id",
                               (comp.id,)).fetchall()
        return [Player(n, m) for n, m in rows]

    def player(self, comp: Competition, name: str) -> Player:
        for p in self.players(comp):
            if p.name == name:
                return p
        have = ", ".join(p.name for p in self.players(comp)) or "none"
        raise LeagueError(f"{name!r} is not a player of {comp.name} (players: {have})")

    # --- results --------------------------------------------------------------------
    def add_result(self, comp: Competition, result: Result, digest: str | None = None) -> int:
        """Enter a result; one taken from a match log comes with its ``digest``, and a log
        entered once already is refused (``LeagueError`` naming where it came from)."""
        for name in (result.p1, result.p2):
            self.player(comp, name)
        if digest is not None:
            had = self.digest_source(digest)
            if had is not None:
                raise LeagueError(f"the same match as {had}, entered already: one log counts once")
        data = json.dumps(_result_dict(result))
        with self.db:
            cur = self.db.execute("INSERT INTO results (competition_id, data) VALUES (?, ?)", (comp.id, data))
            if digest is not None:
                self.db.execute("INSERT INTO match_digests(digest, result_id, source) VALUES (?, ?, ?)",
                                (digest, cur.lastrowid, result.source))
        return int(cur.lastrowid or 0)

    def digest_source(self, digest: str) -> str | None:
        """Where the match with this digest came from (a file, a pub's match id), if it is in."""
        row = self.db.execute("SELECT source FROM match_digests WHERE digest=?", (digest,)).fetchone()
        return None if row is None else str(row[0])

    def results(self, comp: Competition) -> list[Result]:
        rows = self.db.execute("SELECT data FROM results WHERE competition_id = ? ORDER BY id",
                               (comp.id,)).fetchall()
        return [_result_from(json.loads(d)) for (d,) in rows]


def _result_dict(r: Result) -> dict[str, Any]:
    return {"p1": r.p1, "p2": r.p2, "caroms": list(r.caroms), "innings": list(r.innings),
            "targets": list(r.targets), "winner": r.winner, "points": list(r.points),
            "high_run": list(r.high_run), "barrage": r.barrage, "source": r.source}


def _result_from(d: dict[str, Any]) -> Result:
    return Result(d["p1"], d["p2"], tuple(d["caroms"]), tuple(d["innings"]), tuple(d["targets"]),  # type: ignore[arg-type]
                  d["winner"], tuple(d["points"]), tuple(d["high_run"]), bool(d["barrage"]),  # type: ignore[arg-type]
                  d.get("source", ""))
