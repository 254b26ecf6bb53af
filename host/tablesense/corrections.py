"""Corrections of an earlier shot: the void record, kept in the log, applied by replay.

``{"t": T, "type": "call", "call": "void", "from": X, "to": Y}`` leaves out events
X..Y of its match, numbered from the match's ``setup`` (1), void records included. It
reaches back only (never itself or anything after it) and never voids the set-up: a
wrong set-up is a new match. The match log (``store``) and ``tablesense replay`` both
drop the voided events and the records themselves before the engine sees anything.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any


def void_record(t: float, first: int, last: int) -> dict[str, Any]:
    """The correction record that voids events ``first..last`` of a match."""
    return {"t": t, "type": "call", "call": "void", "from": first, "to": last}


def voided_range(line: str) -> tuple[int, int] | None:
    """``(first, last)`` if ``line`` is a void record, else None."""
    if '"void"' not in line:
        return None
    try:
        obj = json.loads(line)
    except json.JSONDecodeError:
        return None
    if not (isinstance(obj, dict) and obj.get("type") == "call" and obj.get("call") == "void"):
        return None
    first, last = obj.get("from"), obj.get("to")
    if not (isinstance(first, int) and isinstance(last, int)):
        return None
    return first, last


def dropped(match: Iterable[tuple[int, str]]) -> set[int]:
    """Of one match's ``(seq, line)`` pairs, the seqs that do not count: the events a
    void record voids and the void records themselves."""
    out: set[int] = set()
    for seq, line in match:
        rng = voided_range(line)
        if rng is not None:
            out.add(seq)
            out.update(range(max(rng[0], 2), min(rng[1], seq - 1) + 1))
    return out
