"""A match log written in a test, replayed: its events as dicts after a setup line, the state
and the errors the replay ends with, the rulings' ids."""

from __future__ import annotations

import json
from typing import Any

from tablesense.replay import Replay


def ev(t: float, type_: str, **kw: Any) -> dict[str, Any]:
    """An event of the log at ``t`` s (to the µs)."""
    return {"t": round(t, 6), "type": type_, **kw}


def replay_log(setup: dict[str, Any], lines: list[dict[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    """``setup`` and ``lines`` replayed, line by line: the state, and the errors the replay
    said (each naming its line)."""
    rep = Replay()
    for n, obj in enumerate([setup, *lines], 1):
        rep.feed_line(json.dumps(obj), n)
    return rep.to_json(), [str(e) for e in rep.errors]


def rules(state: dict[str, Any]) -> list[str]:
    """The rule id of each ruling of ``state``, in order."""
    return [r["rule"] for r in state["rulings"]]
