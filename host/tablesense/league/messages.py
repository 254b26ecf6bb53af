"""What travels between the pubs and the league: topics, match ids, the messages.

Every pub writes under its own branch of the topic tree (the broker's ACL lets it write
nowhere else, ``broker_config``)::

    tablesense/pubs/PUB/live/TABLE   retained: the table's live match (JSON; empty: none)
    tablesense/pubs/PUB/matches      QoS 1: each finished match, its whole event log

and the league writes, retained, each pub's team nights (``nights``)::

    tablesense/league/nights/PUB

A match's id is stable: ``PUB:TABLE:START`` (its start, milliseconds since the epoch).
The same match sent again (an outbox drained twice) has the same id and the same
``revision`` (its number of logged events); a referee correction after the end gives a
higher revision, which replaces the earlier one.

Every field of a message is checked at the edge, as it is decoded (``MatchMessage``,
``LiveMessage``: msgspec types with their bounds from ``limits``): a message that does not
fit is refused with msgspec's account of the first field that does not (``decode_match``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import msgspec

from .limits import (
    MAX_COMPETITION,
    MAX_COUNT,
    MAX_FIXTURE,
    MAX_LINE_CHARS,
    MAX_LOG_LINES,
    MAX_NAME,
    MAX_REVISION,
    MAX_STARTED,
    MIN_STARTED,
)

ROOT = "tablesense/pubs"
#: where the league tells each pub its team nights (``nights``): outside the pubs' branch
NIGHTS_ROOT = "tablesense/league/nights"
#: the match-message format; a league refuses versions it does not know
VERSION = 1
#: what a pub reports of a finished match (the keys its engine's ``to_json`` has: carom's
#: caroms and innings, golf's frames won, keglebillard's points and series)
REPORTED = ("winner", "caroms", "innings", "targets", "match_points", "high_run", "frames_won", "points",
            "series")


def live_topic(pub: str, table: str) -> str:
    return f"{ROOT}/{pub}/live/{table}"


def matches_topic(pub: str) -> str:
    return f"{ROOT}/{pub}/matches"


def nights_topic(pub: str) -> str:
    return f"{NIGHTS_ROOT}/{pub}"


def match_id(pub: str, table: str, started: float) -> str:
    return f"{pub}:{table}:{round(started * 1000)}"


@dataclass(frozen=True, slots=True)
class Topic:
    pub: str
    kind: str  # "live" | "matches"
    table: str | None = None


def parse_topic(topic: str) -> Topic | None:
    """The pub and kind of a topic under ``ROOT`` (None: not ours)."""
    parts = topic.split("/")
    if parts[:2] != ROOT.split("/") or len(parts) < 4:
        return None
    if parts[3] == "matches" and len(parts) == 4:
        return Topic(parts[2], "matches")
    if parts[3] == "live" and len(parts) == 5:
        return Topic(parts[2], "live", parts[4])
    return None


def reported(state_json: dict[str, Any]) -> dict[str, Any]:
    """The result a pub reports: its engine's final figures."""
    return {k: state_json[k] for k in REPORTED if k in state_json}


def match_message(pub: str, table: str, started: float, game: str, players: dict[str, Any],
                  lines: list[str], result: dict[str, Any], competition: str | None = None,
                  revision: int | None = None, fixture: int | None = None) -> dict[str, Any]:
    """``lines``: the match's effective events; ``revision``: how many events its log holds,
    corrections included (default: as many as ``lines``), so a correction only ever raises it;
    ``fixture``: the team night it was played for (the league's fixture id), if any."""
    out = {"v": VERSION, "id": match_id(pub, table, started), "pub": pub, "table": table,
           "started": started, "game": game, "players": players, "competition": competition,
           "revision": len(lines) if revision is None else revision, "result": result, "log": lines}
    if fixture is not None:
        out["fixture"] = fixture
    return out


def live_message(pub: str, table: str, snapshot: dict[str, Any]) -> dict[str, Any]:
    """The live state of a table from the pub's snapshot: who plays what, the score line."""
    match = snapshot.get("match")
    state = snapshot.get("state") or {}
    if match is None:
        return {"pub": pub, "table": table, "match": None}
    return {"pub": pub, "table": table,
            "match": {"id": match_id(pub, table, match["started"]), "game": match["game"],
                      "players": match["players"], "started": match["started"]},
            "summary": snapshot.get("summary", ""), "finished": bool(state.get("finished")),
            "score": reported(state)}


def encode(obj: dict[str, Any]) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


# --- the messages as the league reads them -----------------------------------------------

#: a pub's name or a table's: one topic level
TopicLevel = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=r"^[^/+#\x00-\x1f\x7f]+$")]
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_NAME)]
Side = Name | Annotated[list[Name], msgspec.Meta(min_length=1, max_length=4)]
Count = Annotated[int, msgspec.Meta(ge=0, le=MAX_COUNT)]
Started = Annotated[float, msgspec.Meta(ge=MIN_STARTED, le=MAX_STARTED)]


class Players(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    p1: Side
    p2: Side


class Pair(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    p1: Count
    p2: Count


#: a figure for each player: ``{"p1": 20, "p2": 19}`` as the engines write it, or ``[20, 19]``
PairLike = Pair | tuple[Count, Count]


class Reported(msgspec.Struct, frozen=True):
    """The result a pub reports: the engine's final figures that it has (a game's own
    figures beyond these are not read; the league computes its own anyway)."""

    winner: Literal["p1", "p2", "draw"] | None = None
    caroms: PairLike | None = None
    innings: PairLike | None = None
    targets: PairLike | None = None
    match_points: PairLike | None = None
    high_run: PairLike | None = None
    frames_won: PairLike | None = None
    points: PairLike | None = None
    series: PairLike | None = None

    def figures(self) -> dict[str, Any]:
        """Each figure as ``[p1, p2]`` (the winner as it is; None: not reported)."""
        out: dict[str, Any] = {}
        for name in self.__struct_fields__:
            value = getattr(self, name)
            if isinstance(value, Pair):
                value = [value.p1, value.p2]
            elif isinstance(value, tuple):
                value = list(value)
            out[name] = value
        return out


class MatchMessage(msgspec.Struct, frozen=True):
    """A finished match, as the league reads it (``match_message`` writes it)."""

    v: int
    id: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
    pub: TopicLevel
    table: TopicLevel
    started: Started
    game: Literal["golf", "kegle", "carom"]
    players: Players
    revision: Annotated[int, msgspec.Meta(ge=1, le=MAX_REVISION)]
    result: Reported
    log: Annotated[list[Annotated[str, msgspec.Meta(max_length=MAX_LINE_CHARS)]],
                   msgspec.Meta(min_length=1, max_length=MAX_LOG_LINES)]
    competition: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_COMPETITION)] | None = None
    fixture: Annotated[int, msgspec.Meta(ge=1, le=MAX_FIXTURE)] | None = None


class LiveMatch(msgspec.Struct, frozen=True):
    id: Annotated[str, msgspec.Meta(max_length=200)]
    game: Literal["golf", "kegle", "carom"]
    players: Players
    started: Started


class LiveMessage(msgspec.Struct, frozen=True):
    """A table's live state as the league reads it (``live_message`` writes it)."""

    pub: TopicLevel
    table: TopicLevel
    match: LiveMatch | None = None
    summary: Annotated[str, msgspec.Meta(max_length=500)] = ""
    finished: bool = False


_MATCH = msgspec.json.Decoder(MatchMessage)
_LIVE = msgspec.json.Decoder(LiveMessage)


class BadMessage(ValueError):
    """A message that does not fit its format, and why (one line)."""


def decode_match(raw: bytes) -> MatchMessage:
    """A match message, every field checked, or ``BadMessage``; the version is said first."""
    msg = _decode(_MATCH, raw, "match")
    if msg.v != VERSION:
        raise BadMessage(f"message version {msg.v} (this league reads {VERSION})")
    return msg


def decode_live(raw: bytes) -> LiveMessage:
    return _decode(_LIVE, raw, "live")


def _decode(decoder: msgspec.json.Decoder[Any], raw: bytes, kind: str) -> Any:
    try:
        return decoder.decode(raw)
    except msgspec.ValidationError as exc:
        raise BadMessage(_field_fault(raw, str(exc), kind)) from None
    except msgspec.DecodeError as exc:
        raise BadMessage(f"not a JSON {kind} message ({str(exc)[:120]})") from None
    except RecursionError:
        raise BadMessage(f"not a {kind} message: nested too deeply") from None


def _field_fault(raw: bytes, text: str, kind: str) -> str:
    """msgspec's account of the first field that does not fit, in the league's words where a
    fault has words of its own (the version, a log too long)."""
    text = text.splitlines()[0][:200]
    if text.endswith("at `$.v`"):
        try:
            v = json.loads(raw).get("v")
        except (ValueError, RecursionError, AttributeError):
            v = "?"
        return f"message version {v!r} (this league reads {VERSION})"[:200]
    if text.endswith("at `$.log`") and ("length >= 1" in text or "got `null`" in text):
        return "the message has no event log"
    if text.startswith("Object missing required field `") and text.endswith("`"):
        return f"the message has no {text.split('`')[1]!r}" + (" (its event log)" if "`log`" in text else "")
    if text.startswith("Expected `array` of length <=") and text.endswith("at `$.log`"):
        return f"the log is too long: the league reads at most {MAX_LOG_LINES:,} lines"
    if "at `$.log[" in text and "length <=" in text:
        index = text.rsplit("$.log[", 1)[1].split("]")[0]
        line = int(index) + 1 if index.isdigit() else "?"
        return f"line {line} of the log is longer than {MAX_LINE_CHARS:,} characters"
    return f"not a {kind} message as the league reads it: {text}"
