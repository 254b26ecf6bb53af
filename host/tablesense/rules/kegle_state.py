"""The keglebillard match state: the score (``Score``) and the shot being refereed.

Kept small on purpose: the replay of a long match must run at 100,000 events/s, and
every sensor event of a shot makes a new state. The score changes once per shot
(at ``rest``) and lives in its own record; the top level holds the shot in progress
(its events, the referee's calls and answers, the state before it).

``evolve(state, **changes)`` is ``dataclasses.replace`` for ``KegleState`` without
its generic overhead: a copier generated once from the fields, the way dataclasses
generates ``__init__`` (measured about 4x faster than ``replace`` on this record).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from ..events import Call, Event, Rest
from ..shots import Cutter
from .base import BaseState

#: the distance when the setup names none (the common bodega match)
DEFAULT_DISTANCE = 100


@dataclass(frozen=True, slots=True)
class Score:
    """Everything the scoreboard shows. Per-player pairs are (p1, p2)."""

    distance: tuple[int, int] = (DEFAULT_DISTANCE, DEFAULT_DISTANCE)  # each player's own distance
    first: str = "p1"  # the player who shot first: the equal-series finish counts from them
    points: tuple[int, int] = (0, 0)
    series: tuple[int, int] = (0, 0)  # series started by each player
    run: int = 0  # points of the current (or last) series
    shots: int = 0  # shots of the current series so far (0: the next shot opens a series)
    no_pin_shots: int = 0  # shots in a row of this series that toppled no pin (three reds)
    no_cushion: int = 0  # pin set-ups in a row of this series without a cushion
    pins_down: frozenset[int] = frozenset()
    blocked: frozenset[int] = frozenset()  # pins that cannot stand because of a ball
    pin_ups: bool = False  # the source reports pins put up (a tilt switch): pins-not-up is decided
    cushions_seen: bool = False  # the source reports cushions: the every-other-set-up rule is decided
    outlay: str | None = "p1"  # who plays the next shot from a new outlay
    red_in_hand: str | None = None  # who plays the next shot with the red in hand
    last_series: bool = False
    announced: tuple[bool, bool] = (False, False)  # "N remaining" said for each player
    break_taken: bool = False
    break_due: bool = False
    announcements: tuple[str, ...] = ()  # what the referee announced after the last shot
    last: tuple[tuple[str, Any], ...] = ()  # what the last shot did


@dataclass(frozen=True, slots=True, kw_only=True)
class KegleState(BaseState):
    """A keglebillard match: the score and the current (or last) shot."""

    score: Score = Score()
    shooting: bool = False  # a shot is in progress (first sensor event seen, no rest yet)
    amendable: bool = False  # the last shot is over and calls may still amend it
    shot: tuple[Event, ...] = ()  # sensor events of the current / last shot
    calls: tuple[Call, ...] = ()  # carom and foul calls about it
    answers: tuple[tuple[int, str], ...] = ()  # (index of a pocket event in shot, ball)
    rest: Rest | None = None
    ups: frozenset[int] = frozenset()  # pins put up since the rest (a re-resolution keeps them up)
    post: tuple[Call, ...] = ()  # calls between shots (blocked, outlay): re-applied after a re-resolution
    before: KegleState | None = None  # the state before the current / last shot
    #: the shot cut (tablesense.shots): which events open, play, complete or settle a shot
    cut: Cutter = Cutter(game="kegle")  # noqa: RUF009 (an immutable value)
    late: tuple[Event, ...] = ()  # the last shot's late settles: pins and drops after its rest (7.8)
    hands: frozenset[int] = frozenset()  # pins the pin referee knocked over since the rest (6.4)
    #: the source reports a rest after the pin referee's hands (a tilt-switch table does): then a pin
    #: that falls after a pin is set up and before that rest is the referee's, not a shot (7.7)
    setup_rests: bool = False


T = TypeVar("T")


def _make_evolve(cls: type[T]) -> Callable[..., T]:
    """A copier ``evolve(obj, **changes)`` for the frozen slotted dataclass ``cls``."""
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    lines = [f"    _set(n, {x!r}, kw[{x!r}] if {x!r} in kw else s.{x})" for x in names]
    src = (
        "def evolve(s, **kw):\n"
        "    if not kw.keys() <= _names:\n"
        "        raise TypeError(f'{cls.__name__} has no field(s) {sorted(kw.keys() - _names)}')\n"
        "    n = _new(cls)\n" + "\n".join(lines) + "\n    return n\n"
    )
    ns: dict[str, Any] = {"_new": object.__new__, "_set": object.__setattr__, "cls": cls,
                          "_names": frozenset(names)}
    exec(src, ns)
    return ns["evolve"]  # type: ignore[no-any-return]


def _make_setter(cls: type[T], field: str) -> Callable[[T, Any], T]:
    """A copier ``set_<field>(obj, value)`` that changes one field: the hot path of a shot."""
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    lines = [f"    _set(n, {x!r}, {'value' if x == field else 's.' + x})" for x in names]
    src = "def setter(s, value):\n    n = _new(cls)\n" + "\n".join(lines) + "\n    return n\n"
    ns: dict[str, Any] = {"_new": object.__new__, "_set": object.__setattr__, "cls": cls}
    exec(src, ns)
    return ns["setter"]  # type: ignore[no-any-return]


#: ``evolve(state, **changes)``: ``state`` with ``changes``, like ``dataclasses.replace``
evolve: Callable[..., KegleState] = _make_evolve(KegleState)
#: ``with_shot(state, shot)``: ``state`` with its shot's events replaced (one more sensor event)
with_shot: Callable[[KegleState, tuple[Event, ...]], KegleState] = _make_setter(KegleState, "shot")
#: the same for the score
evolve_score: Callable[..., Score] = _make_evolve(Score)
