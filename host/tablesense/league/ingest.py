"""The league's check of a match a pub sent: pure, no I/O (the SQLite side is ``inbox``).

A match message (``messages.match_message``) is taken only if

1. it is well formed and says it comes from the pub whose topic it came on (the broker's
   ACL lets a pub write only under its own topic, so the topic is the sender);
2. its event log, replayed through the rule engine (``result_from_lines``), is a finished
   carom match, and the result the pub reports is the one the engine computes from that
   log (caroms, innings, targets, winner) -- a result that disagrees is refused;
3. both players are members of a competition of that discipline (directly by name, or by
   an alias: the name a pub's referee typed for a member), the competition named in the
   message if it names one, else the newest such competition;
4. the competition's rules take it (a kampioen target of at least 20).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import IllegalCall
from .matchlog import NotACompetitionMatch, result_from_lines
from .messages import VERSION
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
    reported: dict[str, Any]


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


def parse(pub: str, raw: bytes) -> Received:
    """A match message from ``pub``'s topic, or ``Refused``."""
    try:
        obj = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise Refused("not a JSON match message") from None
    if not isinstance(obj, dict):
        raise Refused("not a JSON match message")
    if obj.get("v") != VERSION:
        raise Refused(f"message version {obj.get('v')!r} (this league reads {VERSION})")
    if obj.get("pub") != pub:
        raise Refused(f"the message says it is from {obj.get('pub')!r} but {pub} sent it")
    lines, rep = obj.get("log"), obj.get("result")
    if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines) or not lines:
        raise Refused("the message has no event log")
    if not isinstance(rep, dict):
        raise Refused("the message reports no result")
    try:
        table, started, rid = str(obj["table"]), float(obj["started"]), str(obj["id"])
    except (KeyError, TypeError, ValueError):
        raise Refused("the message has no table, start or id") from None
    if not rid.startswith(f"{pub}:"):
        raise Refused(f"match id {rid!r} is not one of {pub}'s")
    comp, revision = obj.get("competition"), obj.get("revision")
    if not isinstance(revision, int) or revision < len(lines):
        raise Refused("the message has no revision (its number of logged events)")
    return Received(rid, pub, table, started, revision, comp if isinstance(comp, str) else None, lines, rep)


def check(rec: Received) -> Result:
    """The result the engine computes from the log, if the pub reports the same; else ``Refused``."""
    try:
        result = result_from_lines(rec.lines, source=rec.id)
    except NotACompetitionMatch as exc:
        raise Refused(str(exc)) from None
    except Exception as exc:  # a log the engine cannot even read is no match of ours
        raise Refused(f"its log does not replay: {exc}") from None
    own = {"winner": result.winner, "caroms": list(result.caroms), "innings": list(result.innings),
           "targets": list(result.targets)}
    told = {k: _pair(rec.reported.get(k)) for k in own}
    if told != own:
        diff = ", ".join(f"{k} {told[k]} (log: {own[k]})" for k in own if told[k] != own[k])
        raise Refused(f"the reported result disagrees with its own log: {diff}")
    return result


def discipline(rec: Received) -> str:
    try:
        first = json.loads(rec.lines[0])
    except json.JSONDecodeError:
        return ""
    return str(first.get("discipline") or "libre") if isinstance(first, dict) else ""


def place(rec: Received, result: Result, comps: list[Members]) -> tuple[Competition, Result]:
    """The competition the match belongs to and the result with the members' names."""
    kind = discipline(rec)
    if rec.competition is not None:
        chosen = [m for m in comps if m.comp.name == rec.competition]
        if not chosen:
            raise Refused(f"no competition {rec.competition!r} in this league")
    else:
        chosen = sorted((m for m in comps if m.comp.discipline == kind), key=lambda m: -m.comp.id)
    for m in chosen:
        p1, p2 = m.member(rec.pub, result.p1), m.member(rec.pub, result.p2)
        if p1 is None or p2 is None or p1 == p2:
            continue
        try:
            check_minimum(m.comp.profile, p1, p2, result.targets)
        except IllegalCall as exc:
            raise Refused(f"{m.comp.name}: {exc}") from None
        return m.comp, replace(result, p1=p1, p2=p2)
    where = f"{rec.competition!r}" if rec.competition else f"any {kind} competition"
    raise Refused(f"{result.p1} and {result.p2} are not both members of {where} "
                  f"(tablesense league alias maps a pub's name to a member)")


def _pair(value: Any) -> Any:
    if isinstance(value, dict):  # the engine's {"p1": .., "p2": ..}
        return [value.get("p1"), value.get("p2")]
    return value
