"""What travels between the pubs and the league: topics, match ids, the messages.

Every pub writes under its own branch of the topic tree (the broker's ACL lets it write
nowhere else, ``broker_config``)::

    tablesense/pubs/PUB/live/TABLE   retained: the table's live match (JSON; empty: none)
    tablesense/pubs/PUB/matches      QoS 1: each finished match, its whole event log

A match's id is stable: ``PUB:TABLE:START`` (its start, milliseconds since the epoch).
The same match sent again (an outbox drained twice) has the same id and the same
``revision`` (its number of logged events); a referee correction after the end gives a
higher revision, which replaces the earlier one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

ROOT = "tablesense/pubs"
#: the match-message format; a league refuses versions it does not know
VERSION = 1
#: what a pub reports of a finished match (the keys its engine's ``to_json`` has)
REPORTED = ("winner", "caroms", "innings", "targets", "match_points", "high_run")


def live_topic(pub: str, table: str) -> str:
    return f"{ROOT}/{pub}/live/{table}"


def matches_topic(pub: str) -> str:
    return f"{ROOT}/{pub}/matches"


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
                  revision: int | None = None) -> dict[str, Any]:
    """``lines``: the match's effective events; ``revision``: how many events its log holds,
    corrections included (default: as many as ``lines``), so a correction only ever raises it."""
    return {"v": VERSION, "id": match_id(pub, table, started), "pub": pub, "table": table,
            "started": started, "game": game, "players": players, "competition": competition,
            "revision": len(lines) if revision is None else revision, "result": result, "log": lines}


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
