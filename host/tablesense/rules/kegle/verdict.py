"""Resolving one keglebillard shot: its faults, its points, the end of a series.

``settle(before, shot)`` is the whole of it: pure, from the state before the shot and
the shot's record (its sensor events, rest, late settles, the referee's calls and
answers). It works on a ``Verdict``, the working copy of a shot's resolution (the
score's fields as a dict, the rulings made, who is at the table, the result), frozen
into the next state once. ``opened`` is the live view of a shot in progress. Rule ids
are those of seeds/kegle.md; rulings carry ids and parameters, their sentences are in
``texts/<lang>/kegle.ftl``.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ...events import Call, Pin, Pocket
from ..base import Ruling, other
from ..fault import Fault
from ..ruling_log import Trail
from ..shot_engine import ShotEngine, ShotRecord
from . import geometry as geo
from .fouls import (
    BY_ID,
    JUMPED_BALL,
    NO_CUSHION,
    PIN_BY_CUE,
    PINS_NOT_UP,
    RED_IN_HOLE,
    RED_TOPPLES_PIN,
    THREE_REDS,
    TOUCH,
    Cost,
)
from .names import POCKET_OPTIONS, pocket_ball
from .shot import ShotFacts, read_shot
from .state import NO_PINS, KegleState, LastShot, Score, pinset

replace = msgspec.structs.replace

PIN_POINTS = 2
CARAMBOLE_POINTS = 4
#: the referee announces the missing points the first time they are at or under this
ANNOUNCE_UNDER = 20
IDX = {"p1": 0, "p2": 1}


def pair(values: tuple[Any, Any], player: str, value: Any) -> tuple[Any, Any]:
    """``values`` (p1, p2) with ``player``'s one replaced."""
    return (value, values[1]) if player == "p1" else (values[0], value)


def opened(score: Score, player: str) -> Score:
    """The score as a shot of ``player`` starts: a new series counted, the last notices cleared."""
    if score.shots == 0:
        i = IDX[player]
        series = pair(score.series, player, score.series[i] + 1)
        starts = pair(score.series_starts, player, Trail.plus(score.series_starts[i], score.points[i]))
        return replace(score, series=series, series_starts=starts, run=0, break_due=False, announcements=(),
                       outlay=None, red_in_hand=None)
    return replace(score, break_due=False, announcements=(), outlay=None, red_in_hand=None)


class Changes(dict[str, Any]):
    """A shot's changes to a ``Score``, read through to the score for a field not changed:
    freezing them is one copy of the score with the changes (``replace``), not a dict of
    every field and a new record built from it."""

    __slots__ = ("base",)

    def __init__(self, base: Score) -> None:
        super().__init__()
        self.base = base

    def __missing__(self, key: str) -> Any:
        return getattr(self.base, key)

    def frozen(self) -> Score:
        return replace(self.base, **self) if self else self.base


def opened_changes(score: Score, player: str) -> Changes:
    """``opened(score, player)`` as a shot's changes to ``score``: the shot's resolution freezes
    them with its own in one copy of the score, not one for the opening and one for the shot."""
    c = Changes(score)
    if score.shots == 0:
        i = IDX[player]
        c["series"] = pair(score.series, player, score.series[i] + 1)
        c["series_starts"] = pair(score.series_starts, player,
                                  Trail.plus(score.series_starts[i], score.points[i]))
        c["run"] = 0
    c["break_due"] = False
    c["announcements"] = ()
    c["outlay"] = None
    c["red_in_hand"] = None
    return c


class Verdict:
    """The working copy of one shot's resolution: score changes and rulings, then frozen."""

    __slots__ = ("at_table", "finished", "rulings", "score", "winner")

    def __init__(self, score: Changes, at_table: str) -> None:
        self.score = score
        self.rulings: list[Ruling] = []
        self.at_table = at_table
        self.finished = False
        self.winner: str | None = None

    def rule(self, t: float, rule: str, player: str | None, **data: Any) -> None:
        self.rulings.append(Ruling(t=t, rule=rule, player=player, data=tuple(data.items())))

    def announce(self, key: str, **params: Any) -> None:
        self.score["announcements"] = (*self.score["announcements"], (key, tuple(params.items())))


def _unknown_pockets(shot: ShotRecord) -> list[tuple[int, Pocket]]:
    """The shot's pocket events that name no ball, with their index in ``shot.events``."""
    return [(i, e) for i, e in enumerate(shot.events) if type(e) is Pocket and e.ball is None]


def ask_pockets(state: KegleState, unknown: list[tuple[int, Pocket]], calls: tuple[Call, ...],
                player: str | None) -> KegleState:
    """``state`` (with no questions) asking about each pocket event of the shot that names no ball
    ("which ball fell in pocket N?"), numbered on from ``state.asked``; the answered ones left out."""
    if not unknown:
        return state
    for i, e in unknown:
        state = ShotEngine.ask(state, e.t, RED_IN_HOLE, options=POCKET_OPTIONS, player=player,
                               what="which-ball", pocket=e.pocket, index=i)
    answered = {c.question for c in calls if c.call == "answer"}
    if answered:
        state = replace(state, questions=tuple(q for q in state.questions if q.id not in answered))
    return state


def asked(before: KegleState, shot: ShotRecord) -> int:
    """The questions asked so far, counting those about ``shot``."""
    return before.asked + len(_unknown_pockets(shot))


def _answers(before: KegleState, unknown: list[tuple[int, Pocket]],
             calls: tuple[Call, ...]) -> dict[int, str]:
    """The referee's answers about the shot's pocket events: event index -> ball."""
    by_id = {c.question: c.answer for c in calls if c.call == "answer"} if unknown else None
    if not by_id:
        return {}
    out: dict[int, str] = {}
    for n, (i, _) in enumerate(unknown, start=before.asked + 1):
        answer = by_id.get(f"q{n}")
        if answer is not None:
            out[i] = pocket_ball(answer)
    return out


def live(before: KegleState, shot: ShotRecord) -> KegleState:
    """A shot in progress as the scoreboard shows it: the series counted, the notices cleared,
    the questions about its pockets asked; the rest waits for the rest."""
    p = shot.player or before.at_table or "p1"
    opened_state = replace(before, score=opened(before.score, p), questions=())
    return ask_pockets(opened_state, _unknown_pockets(shot), shot.calls, before.at_table)


def settle(before: KegleState, shot: ShotRecord) -> KegleState:
    """The state after the complete ``shot`` played from ``before`` (pure)."""
    rest = shot.rest
    assert rest is not None
    p = shot.player or before.at_table or "p1"
    t = rest.t
    positions = rest.positions or {}
    prior = before.score
    if not prior.pin_ups or not shot.events:
        # a log that never reports a pin put up (a referee's or a hand-written log): the pins
        # are taken to stand at every shot, as the pin referee puts them up after each rest
        prior = replace(prior, pins_down=NO_PINS, blocked=NO_PINS)
    late_pins = tuple(e for e in shot.late if isinstance(e, Pin))
    facts = read_shot(shot.events + late_pins if late_pins else shot.events, prior.pins_down)
    unknown = _unknown_pockets(shot) if facts.pockets else []
    answered = _answers(before, unknown, shot.calls)
    pocketed = [(pocket, answered.get(i) if ball is None else ball) for i, pocket, ball in facts.pockets]
    calls = shot.calls
    carambole = facts.carambole or any(c.call == "carom" for c in calls)
    faults = find_faults(prior, facts, pocketed, calls)

    v = Verdict(opened_changes(before.score, p), p)
    down = facts.pins_after
    v.score["pins_down"] = down
    # 8.3: a pin is excused while a ball keeps it off its spot, and must be up once the shot that
    # frees the spot is over. Where the balls lie now decides it (rest positions); without them,
    # a pin the red lay on is free (the shot played the red), one a white lay on stays excused
    # until the positions or the referee say otherwise
    if prior.blocked:
        kept = NO_PINS if positions else prior.blocked - prior.blocked_red
        v.score["blocked"] = pinset(kept & down)
    else:
        v.score["blocked"] = NO_PINS
    v.score["blocked_red"] = NO_PINS
    v.score["pin_ups"] = prior.pin_ups
    v.score["cushions_seen"] = prior.cushions_seen or facts.cushions > 0
    blocked_by_balls(v, t, positions, prior.blocked)
    for e in shot.late:
        if isinstance(e, Pocket):
            v.rule(e.t, "kegle.ball-falls", p, pocket=e.pocket, ball=e.ball)
        elif isinstance(e, Pin) and e.state == "down" and e.pin in facts.toppled:
            v.rule(e.t, "kegle.shot", p, what="late-pin", pin=e.pin)
    pins = len(facts.toppled)
    last = LastShot(player=p, pins=facts.toppled, carambole=carambole, cushions=facts.cushions, points=0,
                    faults=tuple(f.id for f in faults))
    if faults:
        for f in faults:
            v.rule(t, f.id, p)
        v.score["last"] = last
        end_series(v, t, p, faults)
    else:
        score_shot(v, t, p, pins, carambole, facts, last)
    for pocket, ball in pocketed:
        if ball == "white":
            v.rule(t, "kegle.white-in-hole", p, pocket=pocket, **white_spot(positions))
    settled = replace(before, score=v.score.frozen(), rulings=before.rulings + tuple(v.rulings),
                      at_table=v.at_table, questions=())
    if v.finished:  # the rule that ended it is the last one ruled (kegle.same-series, kegle.draw)
        settled = ShotEngine.end(settled, v.winner, v.rulings[-1].rule)
    return ask_pockets(settled, unknown, calls, p)


def find_faults(before: Score, facts: ShotFacts, pocketed: list[tuple[int, str | None]],
                calls: tuple[Call, ...]) -> list[Fault[Cost]]:
    """Every fault of the shot, sensors first, then the referee's, each once."""
    found: list[Fault[Cost]] = []
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
    found.extend(BY_ID[c.foul] for c in calls if c.call == "foul" and c.foul in BY_ID)
    if facts.toppled and facts.cushions == 0 and before.no_cushion >= 1 and before.cushions_seen:
        found.append(BY_ID[NO_CUSHION])
    if not facts.toppled and before.no_pin_shots >= 2:
        found.append(BY_ID[THREE_REDS])
    return list(dict.fromkeys(found))


def score_shot(v: Verdict, t: float, p: str, pins: int, carambole: bool, facts: ShotFacts,
               last: LastShot) -> None:
    """A clean shot: its points, the announcements, and whether the series goes on."""
    sc = v.score
    points = PIN_POINTS * pins + (CARAMBOLE_POINTS if carambole else 0)
    if pins:
        v.rule(t, "kegle.pin", p, pins=list(facts.toppled), points=PIN_POINTS * pins)
    if carambole:
        v.rule(t, "kegle.carambole", p, points=CARAMBOLE_POINTS)
    i = IDX[p]
    total = sc["points"][i] + points
    sc.update(
        points=pair(sc["points"], p, total), run=sc["run"] + points, shots=sc["shots"] + 1,
        no_pin_shots=0 if pins else sc["no_pin_shots"] + 1,
        no_cushion=(sc["no_cushion"] + 1 if facts.cushions == 0 else 0) if pins else 0,
        last=replace(last, points=points) if points else last,
    )
    missing = sc["distance"][i] - total
    if 0 < missing <= ANNOUNCE_UNDER and not sc["announced"][i]:
        v.rule(t, "kegle.announce.remaining", p, remaining=missing)
        sc["announced"] = pair(sc["announced"], p, True)
        v.announce("kegle.announce.remaining:announce", remaining=missing)
    if points == 0:
        v.rule(t, "kegle.series", p, run=sc["run"])
        end_series(v, t, p, [])
    elif missing <= 0:
        v.rule(t, "kegle.distance", p, points=total)
        v.announce("kegle.distance:announce")
        end_series(v, t, p, [])


def end_series(v: Verdict, t: float, p: str, faults: list[Fault[Cost]]) -> None:
    """The series of ``p`` is over: finish, last series, break, or the opponent's turn."""
    sc = v.score
    opp = other(p)
    sc.update(shots=0, no_pin_shots=0, no_cushion=0)
    v.at_table = opp
    if any(f.then.outlay for f in faults):
        v.rule(t, "kegle.outlay", opp)
        sc["outlay"] = opp
    if any(f.then.red_in_hand for f in faults):
        v.rule(t, "kegle.red-in-hand", opp)
        sc["red_in_hand"] = opp
    reached = tuple(pt >= d for pt, d in zip(sc["points"], sc["distance"], strict=True))
    series = sc["series"]
    if p != sc["first"] and series[0] == series[1] and any(reached):
        v.finished, v.at_table = True, p
        if all(reached):
            v.winner = "draw"
            v.rule(t, "kegle.draw", None)
        else:
            v.winner = "p1" if reached[0] else "p2"
            v.rule(t, "kegle.same-series", v.winner, series=series[0])
        return
    if p == sc["first"] and reached[IDX[p]] and not sc["last_series"]:
        v.rule(t, "kegle.last-series", opp)
        sc.update(last_series=True, outlay=opp, red_in_hand=None)
        v.announce("kegle.last-series:announce")
    if not sc["break_taken"] and 2 * sc["points"][IDX[p]] >= sc["distance"][IDX[p]]:
        v.rule(t, "kegle.break", p)
        sc.update(break_taken=True, break_due=True)
        v.announce("kegle.break:announce")


def _where(value: Any) -> list[tuple[float, float]]:
    """The points of a rest ``positions`` value: ``[x, y]``, ``[[x, y], ...]`` or ``[]``."""
    if not isinstance(value, list) or not value:
        return []
    points = value if isinstance(value[0], list) else [value]
    return [(float(p[0]), float(p[1])) for p in points if isinstance(p, list) and len(p) == 2]


def _balls(positions: dict[str, Any], prefix: str) -> list[tuple[float, float]]:
    """Where the balls named ``prefix`` lie (``white`` also finds ``white1``, ``white_2``...)."""
    return [xy for name, at in positions.items() if name.startswith(prefix) for xy in _where(at)]


def blocked_by_balls(v: Verdict, t: float, positions: dict[str, Any], was: frozenset[int] = NO_PINS) -> None:
    """Pins down at rest that a ball keeps off their spot (seed 8.3); a ruling for each that was
    not excused before the shot (``was``)."""
    sc = v.score
    if not positions or not sc["pins_down"]:
        return
    blocked = set(sc["blocked"])
    by_red: set[int] = set()
    balls = [(name, xy) for name, at in positions.items() for xy in _where(at)]
    for pin in sorted(sc["pins_down"] - blocked):
        on = [name for name, xy in balls if geo.blocks_pin(xy, pin)]
        if on:
            blocked.add(pin)
            if all(name.startswith("red") for name in on):
                by_red.add(pin)
            if pin not in was:
                v.rule(t, "kegle.pin-blocked", None, pin=pin)
    sc["blocked"] = pinset(blocked)
    sc["blocked_red"] = pinset(by_red)


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

