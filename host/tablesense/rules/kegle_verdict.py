"""Resolving one keglebillard shot: its faults, its points, the end of a series.

Pure functions over a ``Verdict``, the working copy of a shot's resolution (the
score's fields as a dict, the rulings made, who is at the table, the result), which
``KegleEngine`` freezes into the next state. Rule ids are those of seeds/kegle.md.
"""

from __future__ import annotations

from typing import Any

from ..events import Call
from ..geometry import kegle as geo
from .base import Ruling, other
from .kegle_faults import (
    BY_ID,
    JUMPED_BALL,
    NO_CUSHION,
    PIN_BY_CUE,
    PINS_NOT_UP,
    RED_IN_HOLE,
    RED_TOPPLES_PIN,
    THREE_REDS,
    TOUCH,
    Fault,
    find_fault,
)
from .kegle_shot import ShotFacts
from .kegle_state import Score

PIN_POINTS = 2
CARAMBOLE_POINTS = 4
#: the referee announces the missing points the first time they are at or under this
ANNOUNCE_UNDER = 20
IDX = {"p1": 0, "p2": 1}


def pair(values: tuple[Any, Any], player: str, value: Any) -> tuple[Any, Any]:
    """``values`` (p1, p2) with ``player``'s one replaced."""
    return (value, values[1]) if player == "p1" else (values[0], value)


class Verdict:
    """The working copy of one shot's resolution: score changes and rulings, then frozen."""

    __slots__ = ("at_table", "finished", "rulings", "score", "winner")

    def __init__(self, score: dict[str, Any], at_table: str) -> None:
        self.score = score
        self.rulings: list[Ruling] = []
        self.at_table = at_table
        self.finished = False
        self.winner: str | None = None

    def rule(self, t: float, rule: str, player: str | None, text: str, **data: Any) -> None:
        self.rulings.append(Ruling(t=t, rule=rule, player=player, text=text, data=tuple(data.items())))

    def announce(self, text: str) -> None:
        self.score["announcements"] = (*self.score["announcements"], text)


def find_faults(before: Score, facts: ShotFacts, pocketed: list[tuple[int, str | None]],
            calls: tuple[Call, ...]) -> list[Fault]:
    """Every fault of the shot, sensors first, then the referee's, each once."""
    found: list[Fault] = []
    if facts.jumped:
        found.append(BY_ID[JUMPED_BALL])
    if before.pins_down - before.blocked:
        found.append(BY_ID[PINS_NOT_UP])
    if any(ball == "red" for _, ball in pocketed):
        found.append(BY_ID[RED_IN_HOLE])
    if facts.by_red:
        found.append(BY_ID[RED_TOPPLES_PIN])
    if facts.by_cue:
        found.append(BY_ID[PIN_BY_CUE])
    if facts.wrong_ball:
        found.append(BY_ID[TOUCH])
    found.extend(find_fault(c.foul or "") for c in calls if c.call == "foul")
    if facts.toppled and facts.cushions == 0 and before.no_cushion >= 1 and before.cushions_seen:
        found.append(BY_ID[NO_CUSHION])
    if not facts.toppled and before.no_pin_shots >= 2:
        found.append(BY_ID[THREE_REDS])
    return list(dict.fromkeys(found))


def score_shot(v: Verdict, t: float, p: str, pins: int, carambole: bool, facts: ShotFacts,
                last: dict[str, Any]) -> None:
    """A clean shot: its points, the announcements, and whether the series goes on."""
    sc = v.score
    points = PIN_POINTS * pins + (CARAMBOLE_POINTS if carambole else 0)
    if pins:
        v.rule(t, "kegle.pin", p, f"{pins} pin{'s' if pins > 1 else ''}: {PIN_POINTS * pins}",
               pins=list(facts.toppled), points=PIN_POINTS * pins)
    if carambole:
        v.rule(t, "kegle.carambole", p, f"carambole: {CARAMBOLE_POINTS}", points=CARAMBOLE_POINTS)
    i = IDX[p]
    total = sc["points"][i] + points
    last["points"] = points
    sc.update(
        points=pair(sc["points"], p, total), run=sc["run"] + points, shots=sc["shots"] + 1,
        no_pin_shots=0 if pins else sc["no_pin_shots"] + 1,
        no_cushion=(sc["no_cushion"] + 1 if facts.cushions == 0 else 0) if pins else 0,
        last=tuple(last.items()),
    )
    missing = sc["distance"][i] - total
    if 0 < missing <= ANNOUNCE_UNDER and not sc["announced"][i]:
        v.rule(t, "kegle.announce.remaining", p, f"{missing} remaining", remaining=missing)
        sc["announced"] = pair(sc["announced"], p, True)
        v.announce(f"{missing} remaining")
    if points == 0:
        v.rule(t, "kegle.series", p, f"no points: series of {sc['run']} over")
        end_series(v, t, p, [])
    elif missing <= 0:
        v.rule(t, "kegle.distance", p, "distance reached", points=total)
        v.announce("distance reached")
        end_series(v, t, p, [])


def end_series(v: Verdict, t: float, p: str, faults: list[Fault]) -> None:
    """The series of ``p`` is over: finish, last series, break, or the opponent's turn."""
    sc = v.score
    opp = other(p)
    sc.update(shots=0, no_pin_shots=0, no_cushion=0)
    v.at_table = opp
    if any(f.outlay for f in faults):
        v.rule(t, "kegle.outlay", opp, "new outlay after a jumped ball")
        sc["outlay"] = opp
    if any(f.red_in_hand for f in faults):
        v.rule(t, "kegle.red-in-hand", opp, "the red goes between the lower cushion and the lower string")
        sc["red_in_hand"] = opp
    reached = tuple(pt >= d for pt, d in zip(sc["points"], sc["distance"]))
    series = sc["series"]
    if p != sc["first"] and series[0] == series[1] and any(reached):
        v.finished, v.at_table = True, p
        if all(reached):
            v.winner = "draw"
            v.rule(t, "kegle.draw", None, "both players reached the distance: a draw")
        else:
            v.winner = "p1" if reached[0] else "p2"
            v.rule(t, "kegle.same-series", v.winner,
                   f"{v.winner} wins: distance reached, both played {series[0]} series")
        return
    if p == sc["first"] and reached[IDX[p]] and not sc["last_series"]:
        v.rule(t, "kegle.last-series", opp, "last series, from a new outlay")
        sc.update(last_series=True, outlay=opp, red_in_hand=None)
        v.announce("last series")
    if not sc["break_taken"] and 2 * sc["points"][IDX[p]] >= sc["distance"][IDX[p]]:
        v.rule(t, "kegle.break", p, "half the distance: 5-minute break")
        sc.update(break_taken=True, break_due=True)
        v.announce("5-minute break")


def _where(value: Any) -> list[tuple[float, float]]:
    """The points of a rest ``positions`` value: ``[x, y]``, ``[[x, y], ...]`` or ``[]``."""
    if not isinstance(value, list) or not value:
        return []
    points = value if isinstance(value[0], list) else [value]
    return [(float(p[0]), float(p[1])) for p in points if isinstance(p, list) and len(p) == 2]


def _balls(positions: dict[str, Any], prefix: str) -> list[tuple[float, float]]:
    """Where the balls named ``prefix`` lie (``white`` also finds ``white1``, ``white_2``...)."""
    return [xy for name, at in positions.items() if name.startswith(prefix) for xy in _where(at)]


def blocked_by_balls(v: Verdict, t: float, positions: dict[str, Any]) -> None:
    """Pins down at rest that a ball keeps off their spot (seed 8.3)."""
    sc = v.score
    blocked = set(sc["blocked"])
    balls = [xy for at in positions.values() for xy in _where(at)]
    for pin in sorted(sc["pins_down"] - blocked):
        if any(geo.blocks_pin(xy, pin) for xy in balls):
            blocked.add(pin)
            v.rule(t, "kegle.pin-blocked", None, f"pin {pin} cannot stand because of a ball", pin=pin)
    sc["blocked"] = frozenset(blocked)


def white_spot(positions: dict[str, Any]) -> dict[str, Any]:
    """Where a pocketed white goes (seed 9.1, 9.3): the spot in the half the other white is not in."""
    whites = _balls(positions, "white")
    if len(whites) != 1:
        return {}
    reds = _balls(positions, "red")
    red = reds[0] if len(reds) == 1 else None
    side = geo.half(whites[0][0])
    if side == "middle":  # 9.3: the other white on the middle line: the spot in the half opposite the red
        if red is None or geo.half(red[0]) == "middle":
            return {}
        spot = geo.opposite(geo.half(red[0]))
    else:
        spot = geo.opposite(side)
    out: dict[str, Any] = {"spot": spot}
    if red is not None:
        sx, sy = geo.WHITE_SPOTS[spot]
        if (red[0] - sx) ** 2 + (red[1] - sy) ** 2 < geo.BALL_DIAMETER ** 2:
            out["spot_taken"] = True  # 9.1: the player may ask for a new outlay
    return out
