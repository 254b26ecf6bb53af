"""Resolving one keglebillard shot: its faults, its points, the end of a series.

``settle(before, shot)`` is the whole of it: pure, from the state before the shot and
the shot's record (its sensor events, rest, late settles, the referee's calls and
answers). Each rule it applies is a named check in ``tablesense.rules.kegle.checks``,
citing its seed paragraph; ``settle`` reads the shot's facts once (``read_shot``), asks
the checks, and writes their answers into the next score with a few copies
(``msgspec.structs.replace``, one C call each) on a ``Verdict`` (``series``), the working
record of the shot's resolution (the score so far, the rulings made, who is at the table,
the result). Nearly every shot is decided instead in one pass (``plain.plain_shot``).
``live`` is the view of a shot in progress. Rule ids are those of seeds/kegle.md; rulings
carry ids and parameters, their sentences are in ``texts/<lang>/kegle.ftl``.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ...events import Call, Pin, Pocket
from ..fault import Fault
from ..ruling_log import Trail
from ..shot_engine import ShotEngine, ShotRecord
from . import checks
from . import geometry as geo
from .checks import CARAMBOLE_POINTS, PIN_POINTS
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
from .holes import answers, ask_pockets, unknown_pockets, white_spot
from .plain import plain_shot
from .series import Verdict, end_series
from .shot import ShotFacts, read_shot
from .state import NO_PINS, KegleState, LastShot, Score, pinset

replace = msgspec.structs.replace

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
    if not score.break_due and not score.announcements and score.outlay is None and score.red_in_hand is None:
        return score
    return replace(score, break_due=False, announcements=(), outlay=None, red_in_hand=None)


def asked(before: KegleState, shot: ShotRecord) -> int:
    """The questions asked so far, counting those about ``shot``."""
    return before.asked + len(unknown_pockets(shot))


def live(before: KegleState, shot: ShotRecord) -> KegleState:
    """A shot in progress as the scoreboard shows it: the series counted, the notices cleared,
    the questions about its pockets asked; the rest waits for the rest."""
    p = shot.player or before.at_table or "p1"
    opened_state = replace(before, score=opened(before.score, p), questions=())
    return ask_pockets(opened_state, unknown_pockets(shot), shot.calls, before.at_table)


def settle(before: KegleState, shot: ShotRecord) -> KegleState:
    """The state after the complete ``shot`` played from ``before`` (pure): a plain shot's in one
    pass (``plain.plain_shot``), any other's the general way (``settle_general``)."""
    settled = plain_shot(before, shot)
    return settle_general(before, shot) if settled is None else settled


def settle_general(before: KegleState, shot: ShotRecord) -> KegleState:
    """The state after the complete ``shot`` played from ``before``, every check asked (pure)."""
    rest = shot.rest
    assert rest is not None
    p = shot.player or before.at_table or "p1"
    t = rest.t
    positions = rest.positions or {}
    prior = before.score
    if not prior.pin_ups or not shot.events:
        # a log that never reports a pin put up (a referee's or a hand-written log): the pins
        # are taken to stand at every shot, as the pin referee puts them up after each rest
        if prior.pins_down or prior.blocked:
            prior = replace(prior, pins_down=NO_PINS, blocked=NO_PINS)
    late = shot.late
    late_pins = tuple(e for e in late if isinstance(e, Pin)) if late else ()
    facts = read_shot(shot.events + late_pins if late_pins else shot.events, prior.pins_down)
    calls = shot.calls
    unknown: list[tuple[int, Pocket]] = []
    pocketed: list[tuple[int, str | None]] = []
    if facts.pockets:
        unknown = unknown_pockets(shot)
        answered = answers(before, unknown, calls)
        pocketed = [(pocket, answered.get(i) if ball is None else ball) for i, pocket, ball in facts.pockets]
    carambole = facts.carambole or (bool(calls) and any(c.call == "carom" for c in calls))
    faults = find_faults(prior, facts, pocketed, calls)

    # 8.3: a pin is excused while a ball keeps it off its spot, and must be up once the shot that
    # frees the spot is over. Where the balls lie now decides it (rest positions)
    down = facts.pins_after
    v = Verdict(replace(opened(before.score, p), pins_down=down,
                        blocked=checks.excused_pins(prior, down, bool(positions)),
                        blocked_red=NO_PINS, cushions_seen=prior.cushions_seen or facts.cushions > 0), p)
    if positions and down:
        blocked_by_balls(v, t, positions, prior.blocked)
    for e in late:
        if isinstance(e, Pocket):
            v.rule(e.t, "kegle.ball-falls", p, pocket=e.pocket, ball=e.ball)
        elif isinstance(e, Pin) and e.state == "down" and e.pin in facts.toppled:
            v.rule(e.t, "kegle.shot", p, what="late-pin", pin=e.pin)
    last = LastShot(player=p, pins=facts.toppled, carambole=carambole, cushions=facts.cushions, points=0,
                    faults=tuple([f.id for f in faults]) if faults else ())
    if faults:
        for f in faults:
            v.rule(t, f.id, p)
        v.score = replace(v.score, last=last)
        end_series(v, t, p, faults)
    else:
        score_shot(v, t, p, carambole, facts, last)
    for pocket, ball in pocketed:
        if ball == "white":
            v.rule(t, "kegle.white-in-hole", p, pocket=pocket, **white_spot(positions))
    settled = replace(before, score=v.score, rulings=before.rulings + tuple(v.rulings),
                      at_table=v.at_table, questions=())
    if v.finished:  # the rule that ended it is the last one ruled (kegle.same-series, kegle.draw)
        settled = ShotEngine.end(settled, v.winner, v.rulings[-1].rule)
    return ask_pockets(settled, unknown, calls, p)


def find_faults(before: Score, facts: ShotFacts, pocketed: list[tuple[int, str | None]],
                calls: tuple[Call, ...]) -> list[Fault[Cost]]:
    """Every fault of the shot, sensors first, then the referee's, each once (``checks``)."""
    found: list[Fault[Cost]] = []
    if checks.jumped_ball(facts):
        found.append(BY_ID[JUMPED_BALL])
    if checks.pins_not_up(before):
        found.append(BY_ID[PINS_NOT_UP])
    if pocketed and checks.red_in_hole(pocketed):
        found.append(BY_ID[RED_IN_HOLE])
    if checks.red_topples_pin(facts):
        found.append(BY_ID[RED_TOPPLES_PIN])
    if checks.pin_by_cue(facts):
        found.append(BY_ID[PIN_BY_CUE])
    if checks.touched_white(facts):
        found.append(BY_ID[TOUCH])
    if calls:
        found.extend(BY_ID[c.foul] for c in calls if c.call == "foul" and c.foul in BY_ID)
    if checks.no_cushion_twice(before, facts):
        found.append(BY_ID[NO_CUSHION])
    if checks.three_reds(before, facts):
        found.append(BY_ID[THREE_REDS])
    return list(dict.fromkeys(found)) if len(found) > 1 else found


def score_shot(v: Verdict, t: float, p: str, carambole: bool, facts: ShotFacts, last: LastShot) -> None:
    """A clean shot: its points, the announcements, and whether the series goes on."""
    sc = v.score
    points = checks.shot_points(facts, carambole)
    if facts.toppled:
        v.rule(t, "kegle.pin", p, pins=list(facts.toppled), points=PIN_POINTS * len(facts.toppled))
    if carambole:
        v.rule(t, "kegle.carambole", p, points=CARAMBOLE_POINTS)
    i = IDX[p]
    total = sc.points[i] + points
    missing = sc.distance[i] - total
    announce = checks.announces_remaining(missing, sc.announced[i])
    v.score = replace(
        sc, points=pair(sc.points, p, total), run=sc.run + points, shots=sc.shots + 1,
        no_pin_shots=checks.shots_without_pin(sc, facts),
        no_cushion=checks.set_ups_without_cushion(sc, facts),
        last=replace(last, points=points) if points else last,
        announced=pair(sc.announced, p, True) if announce else sc.announced,
    )
    if announce:
        v.rule(t, "kegle.announce.remaining", p, remaining=missing)
        v.announce("kegle.announce.remaining:announce", remaining=missing)
    if not checks.series_goes_on(points):
        v.rule(t, "kegle.series", p, run=v.score.run)
        end_series(v, t, p, [])
    elif checks.distance_reached(missing):
        v.rule(t, "kegle.distance", p, points=total)
        v.announce("kegle.distance:announce")
        end_series(v, t, p, [])


def blocked_by_balls(v: Verdict, t: float, positions: dict[str, Any], was: frozenset[int] = NO_PINS) -> None:
    """Seed 8.3, kegle.pin-blocked: the pins down at rest that a ball keeps off their spot (rest
    ``positions``); a ruling for each that was not excused before the shot (``was``)."""
    sc = v.score
    if not positions or not sc.pins_down:
        return
    found, by_red = geo.blocked_pins(positions, sorted(sc.pins_down - sc.blocked))
    for pin in found:
        if pin not in was:
            v.rule(t, "kegle.pin-blocked", None, pin=pin)
    v.score = replace(sc, blocked=pinset(sc.blocked | set(found)), blocked_red=pinset(set(by_red)))
