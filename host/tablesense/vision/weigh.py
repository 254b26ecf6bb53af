"""Which doubts of a shot's reading keep its contacts unsaid (the engines then ask the referee).

For a game played to a number of caroms (its set-up's ``targets``: carom) only a doubt that
could change the carom does that (``vision.doubts``): an unclear touch that decides nothing is
left out and the clear contacts are said; an unclear cushion that cannot change the cue ball's
count before its third ball is not said. In any other game every doubt cancels the contacts,
and so does a cushion of the struck ball within ``ORDER`` of its contact."""

from __future__ import annotations

import math
from collections.abc import Callable

from .. import games
from .camera_shot import owner
from .doubts import cushion_matters, judge

ORDER = 0.012  # s: a cue ball cushion this close to its contact leaves the order unclear

#: (contacts, unclear touches, cushions, unclear cushions, the cue balls, doubts) ->
#: (notes, unclear touches left unsaid, every unsure cushion); moves and adds in place
Weigh = Callable[
    [
        list[tuple[float, str, str]],
        list[tuple[float, str, str, str]],
        list[tuple[float, str, int]],
        list[tuple[float, str, int]],
        list[str],
        list[str],
    ],
    tuple[list[str], list[tuple[float, str, str]], list[tuple[float, str, int]]],
]


def weigh_for(game: str | None) -> Weigh:
    """``weigh_carom`` for a game played to caroms (``Game.played_to == "targets"``), else ``weigh_any``."""
    declared = games.find(game)
    return weigh_carom if declared is not None and declared.played_to == "targets" else weigh_any


def weigh_carom(
    contacts: list[tuple[float, str, str]],
    unclear: list[tuple[float, str, str, str]],
    cushions: list[tuple[float, str, int]],
    unclear_cushion: list[tuple[float, str, int]],
    cues: list[str],
    doubts: list[str],
) -> tuple[list[str], list[tuple[float, str, str]], list[tuple[float, str, int]]]:
    """A doubt cancels the contacts only where it could change the carom (vision/doubts.py).
    Moves order-unsure cushions to ``unclear_cushion`` and keeps there only those that matter;
    adds to ``doubts``; returns (notes, unclear touches left unsaid, every unsure cushion)."""
    notes: list[str] = []
    unsaid: list[tuple[float, str, str]] = []
    matters, unsure = judge(
        contacts, [(t, a, b) for t, a, b, _ in unclear], cues, [(t, b) for t, b, _n in cushions]
    )
    for t, a, b, why in unclear:
        if matters:
            doubts.append(why)
        else:
            notes.append(f"{why}; not said: it decides nothing")
            unsaid.append((t, owner(a), owner(b)))
    for i in sorted(unsure, reverse=True):
        t, b, n = cushions.pop(i)
        unclear_cushion.append((t, b, n))
        notes.append(f"{b}'s cushion at {t:.3f}: before or after its touch unclear")
    maybe = sorted(unclear_cushion)
    if not doubts:
        keep = [(t, b, n) for t, b, n in unclear_cushion if cushion_matters(t, b, cues, contacts)]
        notes += [
            f"{b}'s unclear cushion at {t:.3f} decides nothing"
            for t, b, n in unclear_cushion
            if (t, b, n) not in keep
        ]
        unclear_cushion[:] = keep
    return notes, unsaid, maybe

def weigh_any(
    contacts: list[tuple[float, str, str]],
    unclear: list[tuple[float, str, str, str]],
    cushions: list[tuple[float, str, int]],
    unclear_cushion: list[tuple[float, str, int]],
    cues: list[str],
    doubts: list[str],
) -> tuple[list[str], list[tuple[float, str, str]], list[tuple[float, str, int]]]:
    """Any game but carom: every doubt cancels the contacts, and so does a cushion of the
    struck ball within ``ORDER`` of its contact."""
    maybe = sorted(unclear_cushion)
    doubts += [why for _t, _a, _b, why in unclear]
    if len(cues) == 1:
        struck = cues[0]
        for t, a, b in contacts:
            if struck not in (a, b):
                continue
            for tc, bc, _n in cushions:
                if bc == struck and abs(tc - t) < ORDER:
                    doubts.append(f"order of {struck}'s cushion at {tc:.3f} and contact at {t:.3f}")
    if not doubts:  # after the last contact an unclear cushion can decide nothing
        last = max((t for t, _a, _b in contacts), default=math.inf)
        unclear_cushion[:] = [c for c in unclear_cushion if c[0] < last]
    return [], [], maybe
