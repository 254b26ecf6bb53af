"""The league's check of a match a pub sent: pure, no I/O (the SQLite side is ``inbox``).

A match message (``messages.match_message``) is taken only if

1. it is at most ``limits.MAX_MESSAGE_BYTES`` long (checked before a byte is parsed), every
   field fits its type and bounds (``messages.decode_match``), and it says it comes from the
   pub whose topic it came on (the broker's ACL lets a pub write only under its own topic,
   so the topic is the sender), under the id its pub, table and start make;
2. its event log passes the league's checks (``logcheck``) and, replayed through the rule
   engine (``matchlog.replay_match``), is a match of the game the message names, between the
   players it names, and the result the pub reports is the one the engine computes from that
   log (carom: caroms, innings, targets, winner; golf: frames won, winner; keglebillard:
   points, series, distances, winner) -- one that disagrees is refused;
3. both sides are entrants of a competition of that game (and discipline): players by name
   or by an alias (the name a pub's referee typed for a member), golf duos by their two
   names; the competition named in the message if it names one (and it must fit), else the
   newest such competition;
4. the competition reads it (``games.read`` under its scheme: finished, or at its innings
   cap) and takes it (``games.check_entry``: a kampioen target of at least 20, each
   keglebillard player at his distance, both players of one group); in a team competition
   it belongs to a night between the players' teams at the home team's pub (the fixture the
   pub tagged it with, or the one of that date).

Whether it is a match the league has already (the same log under another id or from
another pub: its digest) is the inbox's question. What comes of the check is plain data
(``Checked``, ``Entry``: tuples, quick to pass between processes): the league service
checks messages in processes of its own (``checkers``) and stores what they found.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from ..errors import IllegalCall
from . import games, part
from .limits import FUTURE_S, MAX_MESSAGE_BYTES, cut, short
from .matchlog import NotACompetitionMatch, ReplayedMatch, replay_match
from .messages import BadMessage, decode_match, match_id
from .standings import Player, Result
from .store import Competition, Fixture, Team, _result_dict


class Refused(ValueError):
    """A match the league does not take, and why (one line)."""


@dataclass(frozen=True, slots=True)
class Received:
    id: str
    pub: str
    table: str
    started: float
    revision: int
    competition: str | None
    lines: list[str]
    reported: dict[str, Any]  # each figure as [p1, p2]; the winner as it is
    game: str = "carom"
    players: dict[str, Any] = field(default_factory=dict)
    fixture: int | None = None  # the team night the pub tagged it with


@dataclass(frozen=True, slots=True)
class Members:
    """A competition as the check needs it: its entrants, the aliases of their names, its
    teams and fixtures."""

    comp: Competition
    names: frozenset[str]
    aliases: dict[tuple[str, str], str] = field(default_factory=dict)  # (pub or "", name) -> member
    players: dict[str, Player] = field(default_factory=dict)
    teams: dict[str, Team] = field(default_factory=dict)
    fixtures: tuple[Fixture, ...] = ()

    def member(self, pub: str, name: str) -> str | None:
        if name in self.names:
            return name
        return self.aliases.get((pub, name)) or self.aliases.get(("", name))

    def entrant(self, pub: str, side: Any) -> str | None:
        """The entrant a side of the log is: a player (by name or alias), or the golf duo of
        these two players."""
        if isinstance(side, str):
            return self.member(pub, side)
        if isinstance(side, (list, tuple)):
            wanted = frozenset(side)
            for p in self.players.values():
                if p.members and frozenset(p.members) == wanted:
                    return p.name
        return None


class Entry(NamedTuple):
    """A match that passed every check, as the inbox stores it (its rows' fields)."""

    id: str
    table: str
    started: float
    revision: int
    digest: str  # ``digest.match_digest`` of its log
    competition: int  # the competition's id
    said: str  # what the league says of it: "COMPETITION: P1 - P2"
    data: str  # the result's row (``store._result_dict`` as JSON)
    barrage: bool


class Checked(NamedTuple):
    """What the check of one message found: a match to store (``entry``) or a refusal (``why``),
    under the refusal's ``key`` and the message's ``match_id``."""

    key: str
    match_id: str
    why: str | None = None
    entry: Entry | None = None


def junk_key(pub: str, raw: bytes, what: str = "?") -> str:
    """A refused message's key when it has no match id to go by: its bytes' digest."""
    return f"{pub}:{what}#{hashlib.sha256(raw).hexdigest()[:16]}"


def key_of(rec: Received) -> str:
    """A match message's key: its id and revision (a refusal is listed once under it)."""
    return f"{rec.id}#{rec.revision}"


def check_message(pub: str, raw: bytes, comps: Sequence[Members], now: float | None = None,
                  should_stop: Callable[[], bool] | None = None) -> Checked:
    """Parse, replay, check and place one match message from ``pub``'s topic (whether the
    league has it already is not asked here: ``inbox``)."""
    try:
        rec = parse(pub, raw, now)
    except Refused as exc:
        return Checked(junk_key(pub, raw), f"{pub}:?", str(exc))
    return check_received(rec, comps, should_stop)


def check_received(rec: Received, comps: Sequence[Members],
                   should_stop: Callable[[], bool] | None = None) -> Checked:
    """Replay, check and place a parsed match message."""
    key = key_of(rec)
    try:
        match = replayed(rec, should_stop)
        check(rec, match)
        comp, result = place(rec, comps, match)
    except Refused as exc:
        return Checked(key, rec.id, str(exc))
    return Checked(key, rec.id, entry=Entry(rec.id, rec.table, rec.started, rec.revision, match.digest,
                                            comp.id, f"{comp.name}: {result.p1} - {result.p2}",
                                            json.dumps(_result_dict(result)), result.barrage))


def too_big(raw: bytes) -> str | None:
    """Why a message is too long to read (None: it is not)."""
    if len(raw) <= MAX_MESSAGE_BYTES:
        return None
    return (f"the message is {len(raw) / 1e6:,.1f} MB; the league reads at most "
            f"{MAX_MESSAGE_BYTES / 1e6:.1f} MB (the broker's message_size_limit)")


def parse(pub: str, raw: bytes, now: float | None = None) -> Received:
    """A match message from ``pub``'s topic, or ``Refused``."""
    big = too_big(raw)
    if big is not None:
        raise Refused(big)
    try:
        msg = decode_match(raw)
    except BadMessage as exc:
        raise Refused(str(exc)) from None
    if msg.pub != pub:
        raise Refused(f"the message says it is from {short(msg.pub)} but {pub} sent it")
    if not msg.id.startswith(f"{pub}:"):
        raise Refused(f"match id {short(msg.id)} is not one of {pub}'s")
    own = match_id(pub, msg.table, msg.started)
    if msg.id != own:
        raise Refused(f"match id {short(msg.id)} is not its pub, table and start ({own})")
    now = time.time() if now is None else now
    if msg.started > now + FUTURE_S:
        raise Refused(f"the match starts {time.strftime('%Y-%m-%d %H:%M', time.gmtime(msg.started))} UTC, "
                      "in the future: the pub's clock is wrong")
    if msg.revision < len(msg.log):
        raise Refused(f"the revision {msg.revision} is below the {len(msg.log)} events of its log "
                      "(it counts every logged event)")
    players = {"p1": msg.players.p1, "p2": msg.players.p2}
    return Received(msg.id, pub, msg.table, msg.started, msg.revision, msg.competition, msg.log,
                    msg.result.figures(), msg.game, players, msg.fixture)


def replayed(rec: Received, should_stop: Callable[[], bool] | None = None) -> ReplayedMatch:
    """The league's own replay of the message's log: of the game and players it names."""
    try:
        match = replay_match(rec.lines, should_stop)
    except NotACompetitionMatch as exc:
        raise Refused(f"its log: {exc}") from None
    if match.game != rec.game:
        raise Refused(f"the message says {rec.game} but its log is a {match.game} match")
    if match.players != rec.players:
        raise Refused(f"the message names {_vs(rec.players)} but its log {_vs(match.players)}")
    return match


def check(rec: Received, match: ReplayedMatch | None = None) -> None:
    """``Refused`` unless the pub reports what the engine computes from the log."""
    match = replayed(rec) if match is None else match
    if not match.final.get("finished") and not part.of(match.game).READ_UNFINISHED:  # carom: an innings cap
        raise Refused("the match in the log is not finished")
    own = games.reported_by_engine(match)
    told = {k: rec.reported.get(k) for k in own}
    if told != own:
        diff = ", ".join(f"{k} {told[k]} (log: {own[k]})" for k in own if told[k] != own[k])
        raise Refused(f"the reported result disagrees with its own log: {diff}")


def fits(comp: Competition, game: str, discipline: str) -> str | None:
    """Why a match of ``game`` (and ``discipline``) does not fit ``comp`` (None: it fits)."""
    if comp.game != game:
        return f"{comp.name!r} is a {comp.game} competition; this log is a {game} match"
    if part.of(game).DISCIPLINES and comp.discipline != discipline:
        return f"{comp.name!r} is a {comp.discipline} competition; this log is a {discipline} match"
    return None


def discipline_of(match: ReplayedMatch) -> str:
    """The discipline a match was played in (its game's first when the set-up names none), for a
    game whose competitions have one; "" for any other."""
    own = part.of(match.game).DISCIPLINES
    return (match.discipline or own[0]) if own else ""


def place(rec: Received, comps: Sequence[Members], match: ReplayedMatch) -> tuple[Competition, Result]:
    """The competition the match belongs to and its result there (members' names, points)."""
    game = match.game
    kind = discipline_of(match)
    if rec.competition is not None:
        chosen = [m for m in comps if m.comp.name == rec.competition]
        if not chosen:
            raise Refused(f"no competition {short(rec.competition)} in this league")
        why = fits(chosen[0].comp, game, kind)
        if why is not None:
            raise Refused(why)
    else:
        chosen = sorted((m for m in comps if fits(m.comp, game, kind) is None), key=lambda m: -m.comp.id)
    for m in chosen:
        e1, e2 = m.entrant(rec.pub, match.players.get("p1")), m.entrant(rec.pub, match.players.get("p2"))
        if e1 is None or e2 is None or e1 == e2:
            continue
        try:
            return m.comp, enter(m, match, e1, e2, rec.id, pub=rec.pub, started=rec.started,
                                 fixture=rec.fixture)
        except (NotACompetitionMatch, IllegalCall) as exc:
            raise Refused(f"{m.comp.name}: {exc}") from None
    names = (games.side_name(match.players.get("p1")), games.side_name(match.players.get("p2")))
    where = short(rec.competition) if rec.competition else f"any {kind or game} competition"
    raise Refused(f"{cut(names[0], 100)} and {cut(names[1], 100)} are not both members of {where} "
                  f"(tablesense league alias maps a pub's name to a member)")


def enter(m: Members, match: ReplayedMatch, e1: str, e2: str, source: str, *, pub: str | None = None,
          started: float | None = None, fixture: int | None = None, barrage: bool = False) -> Result:
    """The result of ``match`` between the entrants ``e1`` and ``e2`` of ``m``'s competition,
    read and scored under its scheme; ``NotACompetitionMatch`` or ``IllegalCall`` say why it
    does not belong there. ``pub`` (None: entered by hand) and ``started`` place a team
    competition's match in its night."""
    scheme = m.comp.record
    result = games.read(match, scheme, source, barrage)
    p1, p2 = m.players[e1], m.players[e2]
    if (result.p1, result.p2) != (e1, e2):  # an alias, a duo: the members' names
        result = replace(result, p1=e1, p2=e2)
    games.check_entry(m.comp.profile, scheme, result, p1, p2)
    night = None
    if m.teams and not barrage:
        night = team_night(m, p1, p2, pub, started, fixture)
    scored = games.score(result, scheme, (p1, p2))
    # ``replace`` builds the result's 21 fields anew (4.5 us): only for a change
    return scored if scored.fixture == night else replace(scored, fixture=night)


def team_night(m: Members, p1: Player, p2: Player, pub: str | None, started: float | None,
               tagged: int | None) -> int:
    """The fixture a team competition's match was played for: the one the pub tagged it with,
    else the night of that date between the players' teams; at the home team's pub."""
    t1, t2 = p1.team, p2.team
    for p, t in ((p1, t1), (p2, t2)):
        if not t:
            raise IllegalCall(f"{p.name} plays for no team of {m.comp.name}")
    if t1 == t2:
        raise IllegalCall(f"{p1.name} and {p2.name} both play for {t1}: a night is between two teams")
    teams = {t1, t2}
    if tagged is not None:
        found = [f for f in m.fixtures if f.id == tagged]
        if not found:
            raise IllegalCall(f"it was played for night {tagged}, which is no fixture of {m.comp.name}")
        f = found[0]
        if {f.home, f.away} != teams:
            raise IllegalCall(f"night {f.id} is {f.home} - {f.away}; {p1.name} plays for {t1} and {p2.name} "
                              f"for {t2}")
    else:
        day = time.strftime("%Y-%m-%d", time.localtime(started)) if started is not None else None
        found = [f for f in m.fixtures if {f.home, f.away} == teams and (day is None or f.date == day)]
        if not found:
            when = f" on {day}" if day else ""
            raise IllegalCall(f"a match of a team competition belongs to a night: no fixture of {t1} and {t2}"
                              f"{when} (tablesense league schedule lists them)")
        f = found[0]
    home = m.teams.get(f.home)
    if pub is not None and home is not None and home.pub != pub:
        raise IllegalCall(f"night {f.id} ({f.home} - {f.away}) is played at {home.pub}, {f.home}'s home, "
                          f"not at {pub}")
    return f.id


def _vs(players: dict[str, Any]) -> str:
    return cut(f"{players.get('p1')} - {players.get('p2')}", 120)
