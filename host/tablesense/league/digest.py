"""What a match is, as one digest: the same log is the same match, whatever it is called.

The digest is SHA-256 over a canonical text of the events the league's replay applied
(docs/league.md "One match, one digest"):

- the set-up's ``game`` and ``players`` (``p1``, ``p2``: a name or a team's names) -- not
  its discipline, targets or profile: the same play with other rules is the same match;
- then every other event that counts, in the log's order: its ``type``, its ``t`` in whole
  microseconds of the table's clock, and its known fields (``events``' records: ``ball``,
  ``cushion``, ``call``, ``positions`` ...), numbers as numbers;
- not the match id, the pub, the table, the start, the competition, the revision or the
  reported result (what a message says about the log), not keys an event record does not
  know, not voided events or void records, not lines the rule engine refused (the pub's
  own replay skipped them too), and not how the JSON was written (spacing, key order,
  ``1.5`` or ``1.50``, ``"\\u0041"`` or ``"A"``).

Pure and game-neutral: any game's events in, one hex string out.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

from ..events import Event, Setup

#: the first line hashed: a later change of the canonical form is a new name, never a clash
FORM = "tablesense-match/1"


def canonical(event: Event) -> str:
    """One event as the digest reads it."""
    if isinstance(event, Setup):
        players = {side: event.players.get(side) for side in ("p1", "p2")}
        return _dump(["setup", event.game, players])
    fields: dict[str, Any] = {}
    for name in event.__struct_fields__:
        if name in ("t", "extra"):
            continue
        value = getattr(event, name)
        if value is not None:
            fields[name] = _number_as_number(value)
    return _dump([event.type, round(event.t * 1_000_000), fields])


def match_digest(events: Iterable[Event]) -> str:
    """The digest of a match from the events its replay applied (the set-up first)."""
    h = hashlib.sha256(FORM.encode())
    for event in events:
        h.update(b"\n")
        h.update(canonical(event).encode())
    return h.hexdigest()


def _number_as_number(value: Any) -> Any:
    """Numbers as floats (``1``, ``1.0`` and ``-0.0`` alike), tuples as lists, all the way down."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return float(value) + 0.0
    if isinstance(value, dict):
        return {str(k): _number_as_number(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_number_as_number(v) for v in value]
    return value


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
