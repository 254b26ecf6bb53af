"""The evidence of one keglebillard shot, read from its sensor events.

A shot (``"kegle.shot"``, seed 7.7-7.8) is everything from the first sensor event
after a rest to the next ``rest``. ``read_shot`` turns its events into ``ShotFacts``:
which pins went down and which ball toppled each, the pockets, the cushions, the
balls that jumped, and whether the red hit both whites. Pure, no state.

Which ball toppled a pin (``"kegle.fault.red-topples-pin"``, seed 8.1):

1. a ``pin`` event may carry ``"ball": "red" | "white" | "pin" | "cue"`` (or ``"by"``;
   a full-information source such as the simulator knows it);
2. otherwise, when the shot comes from a full-information source (it has ``contact``
   events), a pin that falls before the red has touched a white was toppled by the
   red: the red is the only ball played, so nothing else moves until it hits a white.
   Rest ``positions`` alone do not make a shot full-information: a log may give where
   the balls lie without reporting the contacts, and then no contact is no evidence;
3. otherwise the pin counts as toppled by a white, and the referee calls the fault.

A ``strike`` naming a white means the player cued a white instead of the red: touching
a ball with the cue (``"kegle.fault.touch"``, seed 5.3).

The carambole (``"kegle.carambole"``): two ``contact`` events red-white. The seed's two
whites share one name in the event format; a contact may say which white with an
extra ``"white"`` key (any value), and then the two contacts must name different whites.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from ...events import Contact, Cushion, Event, OffTable, Pin, Pocket, Strike
from ...shots import in_time_order
from .state import pinset

_RED_WHITE = frozenset({"red", "white"})
_RED_THEN_WHITE = ("red", "white")
_WHITE_THEN_RED = ("white", "red")


class ShotFacts(msgspec.Struct, frozen=True, gc=False):
    toppled: tuple[int, ...]  # pins down when the shot is over that went down in it, first fall order
    by_red: tuple[int, ...]  # of those, toppled by the red
    by_cue: tuple[int, ...]  # of those, toppled by the cue, bridge, clothes or body
    pins_after: frozenset[int]  # pins down when the shot is over
    pockets: tuple[tuple[int, int, str | None], ...]  # (index in shot, pocket, ball)
    cushions: int
    jumped: tuple[str | None, ...]
    wrong_ball: bool  # a ``strike`` names a white: the player cued a white, not the red
    carambole: bool


def toppler(pin: Pin) -> str | None:
    """What a ``pin`` event says toppled it: its ``ball`` key, or ``by``."""
    extra = pin.extra
    return extra.get("ball", extra.get("by"))  # type: ignore[no-any-return]


def read_shot(events: Sequence[Event], pins_before: frozenset[int], full_info: bool = False) -> ShotFacts:
    """The facts of a shot from its sensor events (in ``t`` order; indices are file order)."""
    last = float("-inf")
    for e in events:
        if e.t < last:  # a line out of order: read in ``t`` order
            return _read(in_time_order(events), pins_before, full_info)
        last = e.t
    return _read(enumerate(events), pins_before, full_info)


def carambole(events: Sequence[Event]) -> bool:
    """``read_shot(events, ...).carambole`` without the rest of the facts: the red touched both
    whites (two red-white contacts; where every such contact names its white, two whites named).
    The order of the events does not change it (``KegleEngine._call_carom`` asks it of a shot
    a ``carom`` call may amend)."""
    red_white = 0
    whites: set[object] | None = None
    named_whites = True
    for e in events:
        if type(e) is Contact:
            balls = e.balls
            if balls == _RED_THEN_WHITE or balls == _WHITE_THEN_RED or frozenset(balls) == _RED_WHITE:
                red_white += 1
                if "white" in e.extra:
                    white = repr(e.extra["white"])
                    whites = {white} if whites is None else whites | {white}
                else:
                    named_whites = False
    return len(whites) >= 2 if named_whites and whites else red_white >= 2


def _read(ordered: Iterable[tuple[int, Event]], pins_before: frozenset[int], full_info: bool) -> ShotFacts:
    """``read_shot`` over the shot's ``(index, event)`` in ``t`` order: one pass."""
    toppled: list[int] = []
    by_red: set[int] = set()
    by_cue: list[int] = []
    #: pins that fell before the red touched a white, naming no toppler: the red's on a
    #: full-information source (the contacts known), decided once the whole shot is read
    unnamed_early: set[int] = set()
    down = set(pins_before)
    pockets: list[tuple[int, int, str | None]] = []
    cushions = 0
    jumped: list[str | None] = []
    wrong_ball = False
    contacts = False
    red_white = 0
    whites: set[object] = set()
    named_whites = True
    for i, e in ordered:
        kind = type(e)
        if kind is Pin:
            pin = e.pin
            if e.state == "down":
                if pin not in down and pin not in toppled:
                    toppled.append(pin)
                    who = toppler(e) if e.extra else None
                    if who is None:
                        if red_white == 0:
                            unnamed_early.add(pin)
                    elif who == "red":
                        by_red.add(pin)
                    elif who == "cue":
                        by_cue.append(pin)
                down.add(pin)
            else:
                down.discard(pin)
        elif kind is Cushion:
            cushions += 1
        elif kind is Contact:
            contacts = True
            balls = e.balls
            if balls == _RED_THEN_WHITE or balls == _WHITE_THEN_RED or frozenset(balls) == _RED_WHITE:
                red_white += 1
                if "white" in e.extra:
                    whites.add(repr(e.extra["white"]))
                else:
                    named_whites = False
        elif kind is Pocket:
            pockets.append((i, e.pocket, e.ball))
        elif kind is OffTable:
            jumped.append(e.ball)
        elif kind is Strike and e.ball == "white":
            wrong_ball = True
    carambole = len(whites) >= 2 if named_whites and whites else red_white >= 2
    if unnamed_early and (full_info or contacts):
        by_red |= unnamed_early
    # seed 8.2: a pin is toppled when it lies down (or off its spot, or leans on a ball) once
    # the shot is over; one that rocked and stands again on its spot (``up`` before the
    # rest) is not toppled: it neither scores nor is a fault of the red
    return ShotFacts(
        toppled=tuple([p for p in toppled if p in down]) if toppled else (),
        by_red=tuple([p for p in toppled if p in by_red and p in down]) if by_red else (),
        by_cue=tuple(by_cue), pins_after=pinset(down), pockets=tuple(pockets), cushions=cushions,
        jumped=tuple(jumped), wrong_ball=wrong_ball, carambole=carambole,
    )
