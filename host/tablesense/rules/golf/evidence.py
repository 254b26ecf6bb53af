"""The evidence of one golf unit, read from the shot stage's ``ShotRecord``.

A unit is a shot (sensor events up to ``rest``, late settles, the referee's calls about
it) or a call that stands alone (TIME, a touch between shots, a foul with no shot to
amend: a record with no events and no rest, the call in ``calls``). The calls are in
canonical form (``tablesense.rules.golf.names`` and ``GolfEngine.call``): a ``ball`` the
call left out is filled in, a foul named as the call itself is a ``foul`` call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ...events import Contact, Cushion, Goal, OffTable, Strike
from ...shots import in_time_order
from ..shot_engine import ShotRecord
from .state import Positions, norm_positions

#: the foul ids that mean "a ball left the table" (the off-table rules, not a foul)
OFF_TABLE_OWN = "golf.off-table.own"
OFF_TABLE_OPPONENT = "golf.off-table.opponent"
OFF_TABLE_FOULS = frozenset({OFF_TABLE_OWN, OFF_TABLE_OPPONENT})
#: a unit's answers when no call answers anything (read only: shared)
_NO_ANSWERS: Mapping[str, Any] = MappingProxyType({})


class Evidence:
    """What one unit shows. Items are tuples, ``t`` first; lists are this unit's own."""

    __slots__ = ("answers", "edges", "first_contact", "fouls", "goals", "late", "offs", "positions",
                 "rails", "rest_t", "shooter", "spot_calls", "standalone", "strike", "t0", "wedged")

    def __init__(self, shot: ShotRecord) -> None:
        self.shooter: str = shot.player or "p1"
        self.standalone = not shot.events and shot.rest is None
        self.goals: list[tuple[float, str, str | None]] = []  # (t, goal, ball)
        self.offs: list[tuple[float, str | None, str]] = []  # (t, ball, "sensor"|"call"|"referee")
        # what only the calls tell (``_calls``): shared empty values for a unit with none
        self.fouls: Sequence[tuple[float, str, dict[str, Any]]] = ()  # (t, foul id, extra)
        self.rails: Sequence[tuple[float, str]] = ()  # (t, ball) back on the bed off the rail
        self.edges: Sequence[tuple[float, str]] = ()  # (t, ball) dropped after coming to rest
        self.wedged: Sequence[tuple[float, str, str]] = ()  # (t, ball, where)
        self.answers: Mapping[str, Any] = _NO_ANSWERS  # question id -> answer
        self.spot_calls: Sequence[tuple[float, str, int]] = ()  # (t, ball, spot)
        #: the shot's first ball-to-ball contact in ``t`` order, when no cushion came before it (a
        #: ball played off a cushion onto another was not played directly onto it)
        self.first_contact: tuple[str, ...] | None = None
        self.strike: str | None = None
        #: goals the cut placed after the shot's ``rest`` (late settles): (t, goal, ball)
        self.late = [(e.t, e.goal, e.ball) for e in shot.late if type(e) is Goal]
        rest = shot.rest
        self.rest_t: float | None = rest.t if rest is not None else None
        self.positions: Positions | None = norm_positions(rest.positions) if rest is not None else None
        contacts = False
        t0 = None
        for e in shot.events:
            kind = type(e)
            if t0 is None or e.t < t0:
                t0 = e.t  # t orders a shot's events, not the log
            if kind is Goal:
                self.goals.append((e.t, e.goal, e.ball))
            elif kind is OffTable:
                self.offs.append((e.t, e.ball, "sensor"))
            elif kind is Strike:
                if self.strike is None and e.ball is not None:
                    self.strike = e.ball
            elif kind is Contact:
                contacts = True
        if contacts:
            self.first_contact = _direct_first_contact(shot.events)
        if t0 is not None:
            self.t0 = t0
        elif rest is not None:
            self.t0 = rest.t
        else:
            self.t0 = shot.calls[0].t if shot.calls else 0.0
        if shot.calls:
            self._calls(shot)

    def _calls(self, shot: ShotRecord) -> None:
        sensor_offs = bool(self.offs)
        called_offs = False
        fouls: list[tuple[float, str, dict[str, Any]]] = []
        rails: list[tuple[float, str]] = []
        edges: list[tuple[float, str]] = []
        wedged: list[tuple[float, str, str]] = []
        answers: dict[str, Any] = {}
        spot_calls: list[tuple[float, str, int]] = []
        self.fouls, self.rails, self.edges, self.wedged = fouls, rails, edges, wedged
        self.answers, self.spot_calls = answers, spot_calls
        for c in shot.calls:
            name = c.call
            if name == "foul":
                if c.foul in OFF_TABLE_FOULS:
                    self.offs.append((c.t, c.ball, "referee"))
                    called_offs = True
                else:
                    fouls.append((c.t, str(c.foul), _extra(c.extra)))
            elif name == "time":
                fouls.append((c.t, "golf.clock", _extra(c.extra)))
            elif name == "off_table":
                self.offs.append((c.t, c.ball, "call"))
                called_offs = True
            elif name == "rail":
                rails.append((c.t, str(c.ball)))
            elif name == "edge":
                edges.append((c.t, str(c.ball)))
            elif name == "wedged":
                wedged.append((c.t, str(c.ball), str(c.extra.get("where", ""))))
            elif name == "answer":
                answers[str(c.question)] = c.answer
            elif name == "spot":
                spot_calls.append((c.t, str(c.ball), int(c.spot or 0)))
        if sensor_offs and called_offs:
            self.offs.sort(key=lambda o: o[0])  # a call during the shot among the sensor's, by t


def _direct_first_contact(events: tuple[Any, ...]) -> tuple[str, ...] | None:
    """The balls of the shot's first contact (in ``t`` order, the log's order at the same ``t``),
    or None when a cushion came before it: "directly onto" no longer holds."""
    for _, e in in_time_order(events):
        kind = type(e)
        if kind is Cushion:
            return None
        if kind is Contact:
            return tuple(e.balls)
    return None


def _extra(extra: dict[str, Any]) -> dict[str, Any]:
    """What a foul call's extra fields tell the rules: how many balls (defensive triangle)."""
    if not extra:
        return {}
    return {k: v for k, v in extra.items() if k == "balls" and isinstance(v, int) and 1 <= v <= 5}
