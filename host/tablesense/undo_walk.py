"""What an ``undo`` takes back, followed over a match's log lines as the engines' undo does.

The engines' ``undo`` (docs/events.md) returns the state before the last step that set
their checkpoint (``rules/shot_engine.py``): a shot's first event (or a rest that is a
whole shot), a late settle, an incident between shots, a referee call. ``Walk`` follows
the same steps with the same cutter (``tablesense.shots.Cutter``), fed one effective log
line at a time, so the panel can say what the next undo takes back ("shot 12", "foul:
touch") and the TV which shot was the last one completed. A call made while the balls of
a shot still rolled is marked ``during``: the shot it was made in has its own unit before
it, and the pub takes such a call back by voiding its line (``Pub.call``), so that the
rest of the shot stands. Each unit keeps the walk as it was before it, and an ``undo``
puts that back, as the engines' undo puts back their cutter. The pub keeps a walk a table
for the whole match: a unit is kept as one small tuple and its line's text (the ``Unit``
is made when asked, ``last``), and only the last two rests are kept. Pure: no I/O.
"""

from __future__ import annotations

import json
import math
from typing import Any, NamedTuple

from .shots import Cutter, Role


class Unit(NamedTuple):
    """One step an undo takes back: ``kind`` ("shot", "settle", "incident", "call"), its
    data (a shot's number, the call's JSON object, the event), the log line number
    (``seq``, 0 when the lines came without one) and whether a call came during a shot."""

    kind: str
    data: dict[str, Any]
    seq: int = 0
    during: bool = False


#: a unit as the walk keeps it: its kind, what it was (a call's, a settle's or an incident's log
#: line; None for a shot, whose number is the walk's count before it plus one), its ``seq``,
#: whether a call came during a shot, and the walk before it (what its undo restores: the
#: cutter, the last two rests, the shots). One flat tuple a unit and the line text the caller
#: holds anyway: a live table keeps one a shot for the whole match.
_Kept = tuple[str, str | None, int, bool, Cutter, tuple[float, ...], int]


class Walk:
    """The undo walk over one match's effective log lines (after its set-up)."""

    __slots__ = ("cutter", "rests", "shots", "stack")

    def __init__(self, game: str | None = None) -> None:
        self.cutter = Cutter(game=game)
        self.stack: list[_Kept] = []
        #: the table times of the last two rests that completed a shot, older first (an
        #: incident's rest, a late settle's rest are not among them): all ``last_shot_since``
        #: reads. Every rest kept, in a tuple each unit held its own copy of, made a long
        #: match's walk grow with the square of its shots.
        self.rests: tuple[float, ...] = ()
        self.shots = 0

    def _push(self, kind: str, line: str | None, seq: int, during: bool = False) -> None:
        self.stack.append((kind, line, seq, during, self.cutter, self.rests, self.shots))

    def feed(self, line: str, seq: int = 0) -> None:
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            return
        if not isinstance(obj, dict):
            return
        kind = obj.get("type")
        if kind == "setup":
            game = obj.get("game")
            self.cutter = Cutter(game=game if isinstance(game, str) else None)
            self.stack, self.rests, self.shots = [], (), 0
            return
        if kind == "call":
            call = obj.get("call")
            if call == "void":
                return
            if call == "undo":
                if self.stack:
                    self.cutter, self.rests, self.shots = self.stack.pop()[4:]
                return
            self._push("call", line, seq, during=self.cutter.in_shot)
            return
        role, cutter = self.cutter.feed(obj)
        if role is Role.OPEN or role is Role.EMPTY:
            self._push("shot", None, seq)
            self.shots += 1
        elif role is Role.SETTLE and kind != "rest":
            self._push("settle", line, seq)
        elif role is Role.INCIDENT and (kind != "rest" or cutter != self.cutter):
            self._push("incident", line, seq)
        self.cutter = cutter
        if role is Role.REST or role is Role.EMPTY:
            t = obj.get("t")
            self.rests = (*self.rests[-1:], float(t) if isinstance(t, (int, float)) else -math.inf)

    def last(self) -> Unit | None:
        """The unit the next undo takes back; None when there is none (the set-up stays)."""
        if not self.stack:
            return None
        kind, line, seq, during, _cutter, _rests, shots = self.stack[-1]
        if line is None:
            return Unit(kind, {"n": shots + 1}, seq)
        obj = json.loads(line)
        if kind == "call":
            return Unit(kind, obj, seq, during)
        if kind == "settle":
            return Unit(kind, {"n": shots, "event": obj}, seq)
        return Unit(kind, {"event": obj}, seq)

    def last_shot_since(self) -> float:
        """The table time after which the last completed shot's rulings were made: the rest
        of the shot completed before it (-inf: the set-up's and the first shot's all count)."""
        return self.rests[-2] if len(self.rests) >= 2 else -math.inf
