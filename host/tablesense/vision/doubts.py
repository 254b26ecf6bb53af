"""Which of a shot's unclear touches and cushions could change what its contacts decide (carom).

The carom engine takes a shot with contacts as the whole truth (``rules/carom/shot``). What
it decides from them is, for the cue ball, which balls it touched first and in which order
(the carom, the opening shot's first ball), and how many of its cushions came before each
(driebanden, bandstoten). ``judge`` weighs the camera's doubts against that:

- a touch the camera is unsure of matters if counting it or not (at its time, or ``ORDER``
  either side) changes which balls the cue ball touched first, or their order: then the
  shot's contacts are not said at all, and the referee is asked;
- otherwise the clear touches are said. A cue-ball cushion that is before a first touch in
  one reading and after it in another (a cushion within ``ORDER`` of the touch, or an
  unclear touch that would move the first touch across it) is said without its ball: the
  engine then leaves cushion counts to the referee (and libre, which counts none, plays on);
- a cushion the camera is unsure of at all (did the ball touch it?) matters only for a cue
  ball, before its touch of the third ball (``cushion_matters``).

The cue ball is the struck one; when the strike is unclear, any ball may be. Pure functions on
``(t, ball, ball)`` touches and ``(t, ball)`` cushions.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations, product

Touch = tuple[float, str, str]
BallCushion = tuple[float, str]

ORDER = 0.012  # s: a touch or cushion this close to another may be either side of it
MAX_UNCLEAR = 5  # more unclear touches than this are not tried one by one: they matter


def first_touches(touches: Iterable[Touch], cue: str) -> list[tuple[str, float]]:
    """The balls ``cue`` touched, in order, each with the time of its first touch."""
    out: list[tuple[str, float]] = []
    for t, a, b in sorted(touches):
        if cue in (a, b):
            other = b if a == cue else a
            if other != cue and all(other != o for o, _ in out):
                out.append((other, t))
    return out


def _readings(clear: Sequence[Touch], unclear: Sequence[Touch]) -> Iterator[list[Touch]]:
    """The clear touches with every choice of unclear ones, each at its time or ``ORDER`` off."""
    yield list(clear)
    for n in range(1, len(unclear) + 1):
        for chosen in combinations(unclear, n):
            shifts = [[(t + d, a, b) for d in (-ORDER, 0.0, ORDER)] for t, a, b in chosen]
            for variant in product(*shifts):
                yield [*clear, *variant]


def judge(
    clear: Sequence[Touch], unclear: Sequence[Touch], cues: Iterable[str], cushions: Sequence[BallCushion]
) -> tuple[bool, set[int]]:
    """(whether the ``unclear`` touches could change which balls a possible cue ball touched or
    their order; the indices of ``cushions`` whose place before or after a cue ball's first
    touch differs between the readings)."""
    cues = list(cues)
    if len(unclear) > MAX_UNCLEAR:
        return True, set()
    base = {cue: [o for o, _ in first_touches(clear, cue)] for cue in cues}
    places: dict[int, set[tuple[str, bool]]] = {}
    for touches in _readings(clear, unclear):
        for cue in cues:
            firsts = first_touches(touches, cue)
            if [o for o, _ in firsts] != base[cue]:
                return True, set()
            if len(firsts) < 2:  # no carom of this cue ball, whatever its cushions
                continue
            for i, (tc, ball) in enumerate(cushions):
                if ball != cue:
                    continue
                seen = places.setdefault(i, set())
                for other, t in firsts:
                    seen.add((other, tc - ORDER < t))
                    seen.add((other, tc + ORDER < t))
    unsure = {i for i, seen in places.items() if len({o for o, _ in seen}) < len(seen)}
    return False, unsure


def deciding_time(touches: Iterable[Touch], cue: str) -> float:
    """When ``cue`` first touched the last of the other balls it touched (the third ball, when it
    touched two); minus infinity when it touched fewer than two (no carom, whatever its cushions)."""
    firsts = first_touches(touches, cue)
    return firsts[-1][1] if len(firsts) >= 2 else -math.inf


def cushion_matters(t: float, ball: str, cues: Iterable[str], touches: Sequence[Touch]) -> bool:
    """Could an unclear cushion of ``ball`` at ``t`` change the count of a cue ball's cushions
    before its third ball?"""
    return ball in cues and t < deciding_time(touches, ball) + ORDER
