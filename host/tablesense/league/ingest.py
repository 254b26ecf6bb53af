"""The league's check of a match a pub sent: pure, no I/O (the SQLite side is ``inbox``).

A match message (``messages.match_message``) is taken only if

1. it is at most ``limits.MAX_MESSAGE_BYTES`` long (checked before a byte is parsed), every
   field fits its type and bounds (``messages.decode_match``), and it says it comes from the
   pub whose topic it came on (the broker's ACL lets a pub write only under its own topic,
   so the topic is the sender), under the id its pub, table and start make;
2. its event log passes the league's checks (``logcheck``) and, replayed through the rule
   engine (``matchlog.replay_match``), is a finished match of the game the message names,
   between the players it names, and the result the pub reports is the one the engine
   computes from that log (caroms, innings, targets, winner) -- one that disagrees is refused;
3. both players are members of a competition of that game and discipline (directly by
   name, or by an alias: the name a pub's referee typed for a member), the competition
   named in the message if it names one (and it must fit), else the newest such competition;
4. the competition's rules take it (a kampioen target of at least 20).

Whether it is a match the league has already (the same log under another id or from
another pub: its digest) is the inbox's question.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import IllegalCall
from .limits import FUTURE_S, MAX_MESSAGE_BYTES, cut, short
from .matchlog import NotACompetitionMatch, ReplayedMatch, carom_result, replay_match
from .messages import BadMessage, decode_match, match_id
from .standings import Result, check_minimum
from .store import Competition


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


@dataclass(frozen=True, slots=True)
class Members:
    """A competition as the check needs it: its members and the aliases of their names."""

    comp: Competition
    names: frozenset[str]
    aliases: dict[tuple[str, str], str] = field(default_factory=dict)  # (pub or "", name) -> member

    def member(self, pub: str, name: str) -> str | None:
        if name in self.names:
            return name
        return self.aliases.get((pub, name)) or self.aliases.get(("", name))


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
                    msg.result.figures(), msg.game, players)


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


def check(rec: Received, match: ReplayedMatch | None = None) -> Result:
    """The result the engine computes from the log, if the pub reports the same; else ``Refused``."""
    match = replayed(rec) if match is None else match
    try:
        result = carom_result(match, source=rec.id)
    except NotACompetitionMatch as exc:
        raise Refused(str(exc)) from None
    own = {"winner": result.winner, "caroms": list(result.caroms), "innings": list(result.innings),
           "targets": list(result.targets)}
    told = {k: rec.reported.get(k) for k in own}
    if told != own:
        diff = ", ".join(f"{k} {told[k]} (log: {own[k]})" for k in own if told[k] != own[k])
        raise Refused(f"the reported result disagrees with its own log: {diff}")
    return result


def fits(comp: Competition, game: str, discipline: str) -> str | None:
    """Why a match of ``game`` (and ``discipline``) does not fit ``comp`` (None: it fits)."""
    if comp.game != game:
        return f"{comp.name!r} is a {comp.game} competition; this log is a {game} match"
    if comp.discipline != discipline:
        return f"{comp.name!r} is a {comp.discipline} competition; this log is a {discipline} match"
    return None


def place(rec: Received, result: Result, comps: list[Members], match: ReplayedMatch | None = None,
          ) -> tuple[Competition, Result]:
    """The competition the match belongs to and the result with the members' names."""
    game = match.game if match is not None else rec.game
    kind = (match.discipline if match is not None else None) or "libre"
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
        p1, p2 = m.member(rec.pub, result.p1), m.member(rec.pub, result.p2)
        if p1 is None or p2 is None or p1 == p2:
            continue
        try:
            check_minimum(m.comp.profile, p1, p2, result.targets)
        except IllegalCall as exc:
            raise Refused(f"{m.comp.name}: {exc}") from None
        return m.comp, replace(result, p1=p1, p2=p2)
    where = short(rec.competition) if rec.competition else f"any {kind} competition"
    raise Refused(f"{result.p1} and {result.p2} are not both members of {where} "  # names of 100 at most
                  f"(tablesense league alias maps a pub's name to a member)")


def _vs(players: dict[str, Any]) -> str:
    return cut(f"{players.get('p1')} - {players.get('p2')}", 120)
