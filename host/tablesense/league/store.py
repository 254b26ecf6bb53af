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
from . import part
from .broker_url import PUB_NAME
from .limits import MAX_COMPETITION, MAX_MOYENNE, short
from .logcheck import name_fault
from .scheme import GAMES, Scheme, SchemeError, builtin, default, from_dict
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
-- a competition's results in the order they were entered (the league page reads the new ones)
CREATE INDEX IF NOT EXISTS results_competition ON results(competition_id, id);
-- what each result taken from a match log is (digest.match_digest): one log, one result
CREATE TABLE IF NOT EXISTS match_digests (
    digest    TEXT PRIMARY KEY,
    result_id INTEGER NOT NULL UNIQUE REFERENCES results(id),
    source    TEXT NOT NULL
);
-- a team competition's teams, each with its home pub (where its nights are played)
CREATE TABLE IF NOT EXISTS teams (
    id             INTEGER PRIMARY KEY,
    competition_id INTEGER NOT NULL REFERENCES competitions(id),
    name           TEXT NOT NULL,
    pub            TEXT NOT NULL,
    grp            TEXT NOT NULL DEFAULT '',
    UNIQUE (competition_id, name)
);
-- the season's schedule (league schedule): who plays whom, at whose home, on which date
CREATE TABLE IF NOT EXISTS fixtures (
    id             INTEGER PRIMARY KEY,
    competition_id INTEGER NOT NULL REFERENCES competitions(id),
    grp            TEXT NOT NULL DEFAULT '',
    round          INTEGER NOT NULL,
    date           TEXT NOT NULL,
    home           TEXT NOT NULL,
    away           TEXT NOT NULL
);
"""
#: columns added since the first release: (table, column, its definition)
MIGRATIONS = (
    ("competitions", "game", "TEXT NOT NULL DEFAULT 'carom'"),
    ("competitions", "rules", "TEXT"),
    ("players", "grp", "TEXT NOT NULL DEFAULT ''"),
    ("players", "members", "TEXT"),
    ("players", "team", "TEXT NOT NULL DEFAULT ''"),
)
COMPETITION_COLUMNS = "id, name, season, half, discipline, profile, scheme, game, rules"

HALVES = ("najaar", "voorjaar")
#: the league's first game: the competitions and results stored before it had others name none
FIRST_GAME = "carom"
DISCIPLINES = ("libre", "bandstoten", "driebanden")
#: a group of a competition (a café's A or B series): a short label
MAX_GROUP = 20


NEW_MEMBERS_RULE = "carom.league.new-members"


class LeagueError(TablesenseError):
    """A league command that cannot be done (unknown competition, player, duplicate...)."""


def _check_group(group: str) -> None:
    if group and (len(group) > MAX_GROUP or not group.isprintable() or group != group.strip()):
        raise LeagueError(f"a group is a label of 1 to {MAX_GROUP} printable characters (A, B ...), "
                          f"not {short(group)}")


@dataclass(frozen=True, slots=True)
class Competition:
    id: int
    name: str
    season: str
    half: str
    discipline: str
    profile: str
    scheme: str  # the scheme's name
    game: str = "carom"
    rules: Scheme | None = None  # the scheme's record (None: the built-in ``scheme``)

    @property
    def record(self) -> Scheme:
        """The competition's scheme: what a match gives, how a tie is decided (``scheme``); a
        stored record that no longer reads: the built-in of its name, else its game's."""
        if self.rules is not None:
            return self.rules
        try:
            return builtin(self.scheme, self.game)
        except SchemeError:
            return default(self.game if self.game in GAMES else FIRST_GAME)


@dataclass(frozen=True, slots=True)
class Team:
    name: str
    pub: str  # its home: the pub whose tables its nights are played on
    group: str = ""


@dataclass(frozen=True, slots=True)
class Fixture:
    """One scheduled match or team night: ``home`` plays ``away`` at home's pub on ``date``."""

    id: int
    group: str
    round: int
    date: str  # YYYY-MM-DD
    home: str
    away: str


def _competition(row: tuple[Any, ...]) -> Competition:
    rules = None
    if row[8]:
        try:
            rules = from_dict(json.loads(row[8]))
        except (ValueError, TypeError, SchemeError):
            rules = None  # a damaged record: the built-in of its name
    return Competition(*row[:8], rules=rules)


class LeagueStore:
    def __init__(self, path: str) -> None:
        try:
            self.db = sqlite3.connect(path, check_same_thread=False)  # league serve: paho's thread
            self.db.executescript(SCHEMA)
            self._migrate()
        except sqlite3.Error as exc:
            raise LeagueError(f"cannot open the league database {path}: {exc}") from None

    def _migrate(self) -> None:
        """Add the columns a file made by an earlier release lacks."""
        for table, column, definition in MIGRATIONS:
            have = {r[1] for r in self.db.execute(f"PRAGMA table_info({table})")}
            if column not in have:
                with self.db:
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> LeagueStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- competitions ---------------------------------------------------------------
    def create(self, name: str, season: str = "", half: str | None = None, discipline: str = "libre",
               profile: str = "club", scheme: str | Scheme | None = None, game: str = "carom") -> Competition:
        """A competition of ``game`` under ``scheme`` (a built-in's name, or a record: a club's
        own, kept with the competition; default: the game's, ``scheme.default``); ``half``: none
        given, carom's najaar, and no half ("") for a game not played in halves (golf,
        keglebillard: the league part's ``SEASON_HALVES``)."""
        if not name or not name.isprintable() or name != name.strip() or len(name) > MAX_COMPETITION:
            raise LeagueError(f"a competition's name is 1 to {MAX_COMPETITION} printable characters with no "
                              f"space at an end, not {short(name)}")
        if game not in GAMES:
            raise LeagueError(f"game must be one of {', '.join(GAMES)}, not {game!r}")
        own = part.of(game)
        if half is None:
            half = HALVES[0] if own.SEASON_HALVES else ""
        if half not in HALVES and (half or own.SEASON_HALVES):
            raise LeagueError(f"half must be one of {', '.join(HALVES)}, not {half!r}")
        if own.DISCIPLINES and discipline not in own.DISCIPLINES:
            raise LeagueError(f"discipline must be one of {', '.join(own.DISCIPLINES)}, not {discipline!r}")
        try:
            record = default(game) if scheme is None else builtin(scheme, game) if isinstance(scheme, str) \
                else scheme
        except SchemeError as exc:
            raise LeagueError(str(exc)) from None
        if record.game != game:
            raise LeagueError(f"scheme {record.name!r} is for {record.game}; this is a {game} competition")
        try:
            profile = own.profile(profile)  # the club's rule profile ("" for a game without one)
        except IllegalCall as exc:
            raise LeagueError(str(exc)) from None
        if not own.DISCIPLINES:
            discipline = ""
        stored = json.dumps(record.to_dict())  # kept: a later release's built-ins change no competition
        try:
            with self.db:
                self.db.execute("INSERT INTO competitions (name, season, half, discipline, profile, scheme, "
                                "game, rules) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                (name, season, half, discipline, profile, record.name, game, stored))
        except sqlite3.IntegrityError:
            raise LeagueError(f"a competition called {name!r} exists already") from None
        return self.competition(name)

    def competition(self, name: str) -> Competition:
        row = self.db.execute(f"SELECT {COMPETITION_COLUMNS} FROM competitions WHERE name = ?",
                              (name,)).fetchone()
        if row is None:
            have = [r[0] for r in self.db.execute("SELECT name FROM competitions ORDER BY id")]
            raise LeagueError(f"no competition {name!r} (have: {', '.join(have) or 'none'})")
        return _competition(row)

    def competitions(self) -> list[Competition]:
        rows = self.db.execute(f"SELECT {COMPETITION_COLUMNS} FROM competitions ORDER BY id").fetchall()
        return [_competition(r) for r in rows]

    # --- teams ----------------------------------------------------------------------
    def add_team(self, comp: Competition, name: str, pub: str, group: str = "") -> Team:
        why = name_fault(name)
        if why is not None:
            raise LeagueError(f"a team's name {why}")
        if not PUB_NAME.match(pub):
            raise LeagueError(f"a team's home is a pub's name (1-64 letters, digits, '-' or '_', as its "
                              f"broker user), not {short(pub)}")
        _check_group(group)
        if self.results(comp):
            raise LeagueError(f"{name} cannot join {comp.name}: it has begun ({NEW_MEMBERS_RULE})")
        try:
            with self.db:
                self.db.execute("INSERT INTO teams (competition_id, name, pub, grp) VALUES (?, ?, ?, ?)",
                                (comp.id, name, pub, group))
        except sqlite3.IntegrityError:
            raise LeagueError(f"{name} is already a team of {comp.name}") from None
        return Team(name, pub, group)

    def teams(self, comp: Competition) -> list[Team]:
        rows = self.db.execute("SELECT name, pub, grp FROM teams WHERE competition_id=? ORDER BY id",
                               (comp.id,)).fetchall()
        return [Team(n, p, g) for n, p, g in rows]

    def team(self, comp: Competition, name: str) -> Team:
        for t in self.teams(comp):
            if t.name == name:
                return t
        have = ", ".join(t.name for t in self.teams(comp)) or "none (league add-team)"
        raise LeagueError(f"{name!r} is not a team of {comp.name} (teams: {have})")

    # --- the schedule ---------------------------------------------------------------
    def set_schedule(self, comp: Competition, fixtures: list[Fixture]) -> list[Fixture]:
        """Replace the competition's schedule."""
        with self.db:
            self.db.execute("DELETE FROM fixtures WHERE competition_id=?", (comp.id,))
            for f in fixtures:
                self.db.execute("INSERT INTO fixtures (competition_id, grp, round, date, home, away) "
                                "VALUES (?, ?, ?, ?, ?, ?)",
                                (comp.id, f.group, f.round, f.date, f.home, f.away))
        return self.fixtures(comp)

    def fixtures(self, comp: Competition) -> list[Fixture]:
        rows = self.db.execute("SELECT id, grp, round, date, home, away FROM fixtures WHERE competition_id=? "
                               "ORDER BY date, grp, id", (comp.id,)).fetchall()
        return [Fixture(*r) for r in rows]

    def fixture(self, fixture_id: int) -> tuple[Competition, Fixture] | None:
        row = self.db.execute("SELECT competition_id FROM fixtures WHERE id=?", (fixture_id,)).fetchone()
        if row is None:
            return None
        for comp in self.competitions():
            if comp.id == row[0]:
                return comp, next(f for f in self.fixtures(comp) if f.id == fixture_id)
        return None

    # --- players --------------------------------------------------------------------
    def add_player(self, comp: Competition, name: str, moyenne: float = 0.0, group: str = "",
                   members: tuple[str, ...] = (), team: str = "") -> Player:
        """An entrant: a player with his strength (carom: moyenne; keglebillard: series average),
        or a golf duo of two ``members``; in ``group`` (A, B) and ``team`` if given (a team's
        players are in its group)."""
        why = name_fault(name)
        if why is not None:
            raise LeagueError(f"a player's name {why}")
        if not 0 <= moyenne <= MAX_MOYENNE:  # NaN fails both
            raise LeagueError(f"a moyenne is a number from 0 to {MAX_MOYENNE:g}, not {moyenne}")
        if members:
            if not part.of(comp.game).DUOS or len(members) != 2 or members[0] == members[1]:
                raise LeagueError("a duo is two players of a golf competition (golf.duo.*)")
            for m in members:
                why = name_fault(m)
                if why is not None:
                    raise LeagueError(f"a duo member's name {why}")
        if team:
            t = self.team(comp, team)
            if group and group != t.group:
                raise LeagueError(f"{team} plays in group {t.group or '-'}, not {group}")
            group = t.group
        _check_group(group)
        if self.results(comp):
            raise LeagueError(f"{name} cannot join {comp.name}: it has begun, and new members play no "
                              f"matches in a running competition ({NEW_MEMBERS_RULE})")
        try:
            with self.db:
                self.db.execute("INSERT INTO players (competition_id, name, moyenne, grp, members, team) "
                                "VALUES (?, ?, ?, ?, ?, ?)",
                                (comp.id, name, moyenne, group,
                                 json.dumps(list(members)) if members else None, team))
        except sqlite3.IntegrityError:
            raise LeagueError(f"{name} is already a player of {comp.name}") from None
        return Player(name, moyenne, group, tuple(members), team)

    def players(self, comp: Competition) -> list[Player]:
        rows = self.db.execute("SELECT name, moyenne, grp, members, team FROM players "
                               "WHERE competition_id = ? ORDER BY id", (comp.id,)).fetchall()
        return [Player(n, m, g or "", tuple(json.loads(ms)) if ms else (), t or "")
                for n, m, g, ms, t in rows]

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
    out: dict[str, Any] = {"p1": r.p1, "p2": r.p2, "caroms": list(r.caroms), "innings": list(r.innings),
                           "targets": list(r.targets), "winner": r.winner, "points": list(r.points),
                           "high_run": list(r.high_run), "barrage": r.barrage, "source": r.source}
    if r.game != FIRST_GAME:  # a row without one is of the league's first game
        out["game"] = r.game
    for name in GAME_PAIRS:
        value = getattr(r, name)
        if value != (0, 0):
            out[name] = list(value)
    if r.openers:
        out["openers"] = list(r.openers)
    if r.fixture is not None:
        out["fixture"] = r.fixture
    return out


#: a result's figures of one game or another, each a pair (stored only when not 0, 0)
GAME_PAIRS = ("frames", "balls", "scored", "series", "highest", "bonus")


def _result_from(d: dict[str, Any]) -> Result:
    extra: dict[str, Any] = {name: tuple(d[name]) for name in GAME_PAIRS if name in d}
    if "openers" in d:
        extra["openers"] = tuple(d["openers"])
    return Result(d["p1"], d["p2"], tuple(d["caroms"]), tuple(d["innings"]), tuple(d["targets"]),  # type: ignore[arg-type]
                  d["winner"], tuple(d["points"]), tuple(d["high_run"]), bool(d["barrage"]),  # type: ignore[arg-type]
                  d.get("source", ""), game=d.get("game", FIRST_GAME), fixture=d.get("fixture"), **extra)
