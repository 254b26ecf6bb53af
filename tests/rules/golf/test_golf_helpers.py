"""Builders of golf match logs shared by the golf tests (no tests here): real JSON lines, real Replay,
and the skeleton of the made-up matches their property tests draw (``golf_matches``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from tablesense.errors import TablesenseError
from tablesense.replay import Replay, effective_lines
from tablesense.rules import find_engine

GOLF = find_engine("golf")
SINGLE = {"p1": "Ann", "p2": "Bob"}
DUO = {"p1": ["Ann", "Cor"], "p2": ["Bob", "Dirk"]}


def setup(players: dict[str, Any] | None = None, fmt: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"t": 0, "type": "setup", "game": "golf", "players": players or SINGLE}
    if fmt:
        out["format"] = fmt
    return out


def goal(t: float, g: str, ball: str | None) -> dict[str, Any]:
    return {"t": t, "type": "goal", "goal": g, "ball": ball}


def rest(t: float, positions: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"t": t, "type": "rest"}
    if positions is not None:
        out["positions"] = positions
    return out


def cushion(t: float) -> dict[str, Any]:
    return {"t": t, "type": "cushion", "cushion": 2, "ball": None}


def off(t: float, ball: str | None) -> dict[str, Any]:
    return {"t": t, "type": "off_table", "ball": ball}


def call(t: float, name: str, **kw: Any) -> dict[str, Any]:
    return {"t": t, "type": "call", "call": name, **kw}


def foul(t: float, name: str, **kw: Any) -> dict[str, Any]:
    return call(t, "foul", foul=name, **kw)


def miss(t: float) -> list[dict[str, Any]]:
    """A shot that scores nothing."""
    return [cushion(t), rest(t + 1)]


def scores(t: float, player: str, n: int) -> list[dict[str, Any]]:
    """``n`` shots by ``player``, each a valid goal (the player stays at the table)."""
    g = "B" if player == "p1" else "A"
    out: list[dict[str, Any]] = []
    for k in range(n):
        out += [goal(t + 2 * k, g, player), rest(t + 2 * k + 1)]
    return out


def one_one(t: float = 1.0, positions: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Both players down to one ball, p2 at the table (zone play); ``positions``: where the
    balls lie after the last shot."""
    return (scores(t, "p1", 4) + miss(t + 10) + scores(t + 20, "p2", 3)
            + [goal(t + 26, "A", "p2"), rest(t + 27, positions)])


def play(*events: dict[str, Any] | list[dict[str, Any]], players: dict[str, Any] | None = None,
         fmt: str | None = None) -> Replay:
    flat: list[dict[str, Any]] = []
    for e in events:
        flat += e if isinstance(e, list) else [e]
    lines = [json.dumps(setup(players, fmt))] + [json.dumps(e) for e in flat]
    return Replay().feed_lines(lines)


def state(rep: Replay) -> dict[str, Any]:
    return rep.to_json()


def rules(rep: Replay) -> list[str]:
    return [r["rule"] for r in rep.to_json()["rulings"]]


def lines(*events: dict[str, Any] | list[dict[str, Any]], players: dict[str, Any] | None = None,
          fmt: str | None = None) -> str:
    flat: list[dict[str, Any]] = []
    for e in events:
        flat += e if isinstance(e, list) else [e]
    return "\n".join(json.dumps(e) for e in [setup(players, fmt), *flat]) + "\n"


def seen(rep: Replay) -> tuple[Any, ...]:
    """What a replay ends with: its state, the errors it said and the events it read."""
    return rep.to_json(), [str(e) for e in rep.errors], rep.events


def replayed_and_played(lines: list[str]) -> list[tuple[Any, ...]]:
    """``lines`` replayed as a whole log (``apply``: history 10**6, fed counted as a file is) and
    played as a live table (``play``: every undo kept), each ``seen``."""
    whole = Replay(history=10**6).feed_counted(effective_lines(lines), guard=True)
    return [seen(whole), seen(Replay().feed_lines(lines))]


def applied(state: Any, call: Any) -> Any:
    """The golf engine's ``apply`` of ``call`` to ``state``: the state after it, or the error it
    refused it with (its type and text)."""
    try:
        return GOLF.apply(state, call)
    except TablesenseError as e:
        return type(e), str(e)


class MadeLog:
    """A made-up log's lines, each stamped with the log's clock ``t`` (seconds)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.t = 0.0

    def add(self, obj: dict[str, Any]) -> None:
        self.lines.append(json.dumps({"t": self.t, **obj}))


#: a table with a strike sensor one time in four
STRIKE_SENSOR_AT_TIMES = st.integers(0, 3).map(lambda n: n == 0)

#: one shot of a made-up match: ``(draw, log, match)`` writes its events, its rest and what follows
#: them; ``match`` is a dict kept through one match (what a shot needs of those before it)
Shot = Callable[[Any, MadeLog, dict[str, Any]], None]


def golf_matches(draw: Any, setups: list[dict[str, Any]], shot: Shot, *, shots: int = 14,
                 strike_sensor: st.SearchStrategy[bool] = STRIKE_SENSOR_AT_TIMES) -> list[str]:
    """The lines of one or two golf matches, each a set-up drawn from ``setups`` and 1 to ``shots``
    shots a second apart (written by ``shot``), each opened by a strike on a table with a strike
    sensor (``strike_sensor``: drawn a match), the matches ten seconds apart."""
    log = MadeLog()
    for _ in range(draw(st.integers(1, 2))):
        log.add(draw(st.sampled_from(setups)))
        strikes = draw(strike_sensor)
        match: dict[str, Any] = {}
        for _ in range(draw(st.integers(1, shots))):
            log.t += 1.0
            if strikes:
                log.add({"type": "strike", "ball": draw(st.sampled_from(["p1", "p2"]))})
                log.t += 0.25
            shot(draw, log, match)
        log.t += 10.0
    return log.lines
