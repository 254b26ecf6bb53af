"""The end of a keglebillard series: who is at the table next, and what ends with it.

``Verdict`` is the working record of one shot's resolution (the score so far, the rulings
made, who is at the table, the result). ``end_series`` is what a series' end costs after a
fault (a new outlay, the red in hand) and ``series_over`` what it decides about the match
(``checks.same_series_over``: the match is over, a draw or won; ``checks.last_series_due``:
the opponent's last series; ``checks.break_due``: the break). Both decisions of a shot use
them: the general one (``verdict.settle_general``) and the one pass of a plain shot
(``plain.plain_shot``), which calls ``series_over`` only when one of those three is due.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ..base import Ruling, other
from ..fault import Fault
from . import checks
from .fouls import Cost
from .state import Score

replace = msgspec.structs.replace


class Verdict:
    """The working record of one shot's resolution: the score so far, the rulings, the result."""

    __slots__ = ("at_table", "finished", "rulings", "score", "winner")

    def __init__(self, score: Score, at_table: str, rulings: list[Ruling] | None = None) -> None:
        self.score = score
        self.rulings: list[Ruling] = [] if rulings is None else rulings
        self.at_table = at_table
        self.finished = False
        self.winner: str | None = None

    def rule(self, t: float, rule: str, player: str | None, **data: Any) -> None:
        self.rulings.append(Ruling(t=t, rule=rule, player=player, data=tuple(data.items()) if data else ()))

    def announce(self, key: str, **params: Any) -> None:
        said = (*self.score.announcements, (key, tuple(params.items())))
        self.score = replace(self.score, announcements=said)


def end_series(v: Verdict, t: float, p: str, faults: list[Fault[Cost]]) -> None:
    """The series of ``p`` is over: what its faults cost, then finish, last series, break, or the
    opponent's turn (``series_over``)."""
    opp = other(p)
    v.at_table = opp
    outlay = any(f.then.outlay for f in faults)
    red_in_hand = any(f.then.red_in_hand for f in faults)
    if outlay:
        v.rule(t, "kegle.outlay", opp)
    if red_in_hand:
        v.rule(t, "kegle.red-in-hand", opp)
    v.score = replace(v.score, shots=0, no_pin_shots=0, no_cushion=0,
                      outlay=opp if outlay else v.score.outlay,
                      red_in_hand=opp if red_in_hand else v.score.red_in_hand)
    series_over(v, t, p)


def series_over(v: Verdict, t: float, p: str) -> None:
    """The series of ``p`` is over (``v.score`` as it ends, ``v.at_table`` the opponent): the
    match over (seed 7.4, 7.6), the opponent's last series (7.5), the break (4.1, 4.2)."""
    sc = v.score
    opp = other(p)
    reached = (sc.points[0] >= sc.distance[0], sc.points[1] >= sc.distance[1])
    if checks.same_series_over(sc, p, reached):
        v.finished, v.at_table = True, p
        if all(reached):
            v.winner = "draw"
            v.rule(t, "kegle.draw", None)
        else:
            v.winner = "p1" if reached[0] else "p2"
            v.rule(t, "kegle.same-series", v.winner, series=sc.series[0])
        return
    i = 0 if p == "p1" else 1
    if checks.last_series_due(sc, p, reached[i]):
        v.rule(t, "kegle.last-series", opp)
        v.score = replace(sc, last_series=True, outlay=opp, red_in_hand=None)
        v.announce("kegle.last-series:announce")
    if checks.break_due(v.score, i):
        v.rule(t, "kegle.break", p)
        v.score = replace(v.score, break_taken=True, break_due=True)
        v.announce("kegle.break:announce")
