"""The keglebillard match state: the score (``Score``) and what happened since the last rest.

Both are frozen msgspec Structs: a copy with changes (``msgspec.structs.replace``) is one C
call and shares every unchanged field, so the state before each shot (the undo chain)
costs what changed, not a whole copy. The score changes once per shot (at ``rest``) and
lives in its own record; the shot itself (its events, rest, late settles and the
referee's calls about it) is the shot stage's (``MatchState.shot``, ``before``).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import Any

import msgspec

from ...events import Event
from ...shots import Cutter
from ..shot_engine import MatchState

replace = msgspec.structs.replace

#: the distance when the setup names none (the common bodega match)
DEFAULT_DISTANCE = 100

_PINSETS: dict[frozenset[int], frozenset[int]] = {}


def pinset(pins: frozenset[int] | set[int]) -> frozenset[int]:
    """The one shared frozenset of these pins: there are only 32 sets of five pins, and the
    undo chain keeps a score per shot and per pin set up; each keeps a reference, not a set."""
    key = pins if isinstance(pins, frozenset) else frozenset(pins)
    found = _PINSETS.get(key)
    if found is None:
        found = _PINSETS[key] = key
    return found


NO_PINS = pinset(frozenset())
#: a pin event's pin
_PIN = attrgetter("pin")


class LastShot(msgspec.Struct, frozen=True, gc=False):
    """What the last shot did (the state's ``last_shot``)."""

    player: str
    pins: tuple[int, ...]
    carambole: bool
    cushions: int
    points: int
    faults: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "pins": list(self.pins), "carambole": self.carambole,
                "cushions": self.cushions, "points": self.points, "faults": list(self.faults)}


class Score(msgspec.Struct, frozen=True, gc=False):
    """Everything the scoreboard shows. Per-player pairs are (p1, p2). Made by name everywhere but
    ``plain.plain_shot``, which writes every field in order (a change of them here fails its import)."""

    distance: tuple[int, int] = (DEFAULT_DISTANCE, DEFAULT_DISTANCE)  # each player's own distance
    first: str = "p1"  # the player who shot first: the equal-series finish counts from them
    points: tuple[int, int] = (0, 0)
    series: tuple[int, int] = (0, 0)  # series started by each player
    #: each player's points as each of his series began (the score sheet's series by series)
    series_starts: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    run: int = 0  # points of the current (or last) series
    shots: int = 0  # shots of the current series so far (0: the next shot opens a series)
    no_pin_shots: int = 0  # shots in a row of this series that toppled no pin (three reds)
    no_cushion: int = 0  # pin set-ups in a row of this series without a cushion
    pins_down: frozenset[int] = NO_PINS
    blocked: frozenset[int] = NO_PINS  # pins that cannot stand because of a ball
    #: of those, the pins the red lay on (rest positions): the next shot plays the red off the
    #: spot, so their excuse ends with it (seed 8.3), also when its rest gives no positions
    blocked_red: frozenset[int] = NO_PINS
    pin_ups: bool = False  # the source reports pins put up (a tilt switch): pins-not-up is decided
    cushions_seen: bool = False  # the source reports cushions: the every-other-set-up rule is decided
    outlay: str | None = "p1"  # who plays the next shot from a new outlay
    red_in_hand: str | None = None  # who plays the next shot with the red in hand
    last_series: bool = False
    announced: tuple[bool, bool] = (False, False)  # "N remaining" said for each player
    break_taken: bool = False
    break_due: bool = False
    #: what the referee announced after the last shot: (template key, parameters) each
    announcements: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()
    last: LastShot | None = None  # what the last shot did


class Incidents(msgspec.Struct, frozen=True, gc=False):
    """The incidents since the last rest, newest first: a linked list, so that each one the undo
    chain keeps costs one small record, not a copy of those before it."""

    event: Event
    before: Incidents | None = None

    def in_order(self) -> list[Event]:
        out: list[Event] = []
        node: Incidents | None = self
        while node is not None:
            out.append(node.event)
            node = node.before
        out.reverse()
        return out


class KegleState(MatchState, frozen=True, kw_only=True):
    """A keglebillard match: the score, and what happened between the last shot and the next."""

    score: Score = Score()
    #: the incidents since the last shot's rest (pins set up, the referee's hands, the rest
    #: after them), in order: a call that amends that shot applies them again
    after: Incidents | None = None
    #: the source reports a rest after the pin referee's hands (a tilt-switch table does): then a pin
    #: that falls after a pin is set up and before that rest is the referee's, not a shot (7.7)
    setup_rests: bool = False
    #: the last shot can no longer be amended: it was replayed, or the match ended by a call
    sealed: bool = False
    cut: Cutter = Cutter(game="kegle")


def pins_up(score: Score, held: Sequence[Event]) -> Score:
    """``engine._pin_up`` of each pin set up (``held``: pin events, ``up``) in turn, in one copy of the score:
    they stand again and are no longer excused, and the log reports pins put up."""
    down, blocked = score.pins_down, score.blocked
    if down:
        left = down.difference(map(_PIN, held))
        down = pinset(left) if left else NO_PINS
    if blocked:
        left = blocked.difference(map(_PIN, held))
        blocked = pinset(left) if left else NO_PINS
    if score.pin_ups and blocked is score.blocked:
        return score if down is score.pins_down else replace(score, pins_down=down)
    return replace(score, pins_down=down, blocked=blocked, pin_ups=True)
