"""The rule checks of keglebillard: one named pure function each, citing its seed paragraph.

Each docstring starts with the seed paragraph(s) of the rule book (seeds/kegle.md's ``seed``
column) and the catalogue id of the rule it decides: grep the paragraph's number (``5.11``)
or the id (``kegle.fault.no-cushion``) to find where a rule is decided. They read the
score before the shot (``Score``) and the shot's facts (``ShotFacts``, ``shot.read_shot``)
and answer one question; ``verdict.settle`` applies their answers to the next state.
"""

from __future__ import annotations

from collections.abc import Iterable

from .shot import ShotFacts
from .state import NO_PINS, Score, pinset

#: seed 3.4: a pin toppled by a white
PIN_POINTS = 2
#: seed 3.5: the red hitting both whites
CARAMBOLE_POINTS = 4
#: seed 13.3: the referee announces the missing points the first time they are at or under this
ANNOUNCE_UNDER = 20

# --- faults the sensors show (seed paragraph 5) ----------------------------------------


def jumped_ball(facts: ShotFacts) -> bool:
    """Seed 5.1, 11.1, 11.2, kegle.fault.jumped-ball: a ball left the playing surface (an
    ``off_table`` event of any ball)."""
    return bool(facts.jumped)


def pins_not_up(before: Score) -> bool:
    """Seed 5.2, 7.9, kegle.fault.pins-not-up: the shot started while a pin was down that no
    ball keeps off its spot (seed 8.3, ``Score.blocked``). Decided only where the log reports
    pins put up (``settle`` takes every pin as standing otherwise)."""
    return bool(before.pins_down - before.blocked)


def touched_white(facts: ShotFacts) -> bool:
    """Seed 5.3, kegle.fault.touch: the cue struck a white (a ``strike`` naming a white), not
    the red, the only ball a player plays."""
    return facts.wrong_ball


def red_in_hole(pocketed: Iterable[tuple[int, str | None]]) -> bool:
    """Seed 5.7, 10.1, kegle.fault.red-in-hole: the red went in a hole (a pocket naming the
    red, or the referee's answer to "which ball fell in pocket N?")."""
    return any(ball == "red" for _, ball in pocketed)


def red_topples_pin(facts: ShotFacts) -> bool:
    """Seed 5.8, 8.1, kegle.fault.red-topples-pin: the red toppled a pin (the pin event names
    it, or, where the contacts are known, a pin fell before the red touched a white)."""
    return bool(facts.by_red)


def pin_by_cue(facts: ShotFacts) -> bool:
    """Seed 5.9, kegle.fault.pin-by-cue: the cue, a bridge, clothes or a body part toppled a
    pin (a pin event naming the cue)."""
    return bool(facts.by_cue)


def no_cushion_twice(before: Score, facts: ShotFacts) -> bool:
    """Seed 5.11, kegle.fault.no-cushion: every other time the pins are put up a ball must
    have touched a cushion. Our reading: the second shot in a row of a series that topples
    pins without a cushion is a fault; decided once the log has shown it reports cushions
    (``Score.cushions_seen``). The count before the shot is ``set_ups_without_cushion``'s."""
    return bool(facts.toppled) and facts.cushions == 0 and before.no_cushion >= 1 and before.cushions_seen


def three_reds(before: Score, facts: ShotFacts) -> bool:
    """Seed 5.12, kegle.fault.three-reds: three reds shot without a pin toppling. Our reading:
    the third shot in a row of a series that topples no pin (``shots_without_pin``'s count)."""
    return not facts.toppled and before.no_pin_shots >= 2


# --- what a clean shot counts ---------------------------------------------------------


def shot_points(facts: ShotFacts, carambole: bool) -> int:
    """Seed 3.4, 3.5, kegle.pin, kegle.carambole: 2 points a pin a white toppled, 4 for the red
    hitting both whites."""
    return PIN_POINTS * len(facts.toppled) + (CARAMBOLE_POINTS if carambole else 0)


def set_ups_without_cushion(before: Score, facts: ShotFacts) -> int:
    """Seed 5.11, kegle.fault.no-cushion: after a clean shot, the shots in a row of the series
    that toppled pins without a cushion (a shot that topples none counts as a cushion shot)."""
    if not facts.toppled:
        return 0
    return before.no_cushion + 1 if facts.cushions == 0 else 0


def shots_without_pin(before: Score, facts: ShotFacts) -> int:
    """Seed 5.12, kegle.fault.three-reds: after a clean shot, the shots in a row of the series
    that toppled no pin."""
    return 0 if facts.toppled else before.no_pin_shots + 1


def series_goes_on(points: int) -> bool:
    """Seed 3.6, 7.1, kegle.series: a player goes on while he scores."""
    return points > 0


def distance_reached(missing: int) -> bool:
    """Seed 3.3, 3.6, kegle.distance: the player's points are at or over his distance (``missing``:
    his distance less his points)."""
    return missing <= 0


def announces_remaining(missing: int, announced: bool) -> bool:
    """Seed 13.3, kegle.announce.remaining: the referee says "N remaining" the first time the
    missing points are at or under 20 (and above 0), once a player."""
    return 0 < missing <= ANNOUNCE_UNDER and not announced


# --- the end of a series --------------------------------------------------------------


def same_series_over(score: Score, player: str, reached: tuple[bool, bool]) -> bool:
    """Seed 7.4, kegle.same-series: a series of the player who shot second is over, both have
    had as many series, and one of them is at his distance: the match is over (a draw when
    both are, seed 7.6, kegle.draw)."""
    return player != score.first and score.series[0] == score.series[1] and any(reached)


def last_series_due(score: Score, player: str, reached: bool) -> bool:
    """Seed 7.5, kegle.last-series: the player who shot first reached his distance; the
    opponent plays a last series, from a new outlay (once)."""
    return player == score.first and reached and not score.last_series


def break_due(score: Score, i: int) -> bool:
    """Seed 4.1, 4.2, kegle.break: after a series, the first time a player's points reach half
    his distance (once a match)."""
    return not score.break_taken and 2 * score.points[i] >= score.distance[i]


def excused_pins(before: Score, down: frozenset[int], positions: bool) -> frozenset[int]:
    """Seed 8.3, kegle.pin-blocked: of the pins down after the shot, those still excused before
    the rest's positions are read: a pin a ball kept off its spot stays excused while no
    positions say otherwise, except where the red lay (the shot played the red off it)."""
    if not before.blocked or positions:
        return NO_PINS
    return pinset((before.blocked - before.blocked_red) & down)
