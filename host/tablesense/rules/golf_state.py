"""The golf billiards match state and the evidence of one shot.

A shot (or a referee call that stands alone, such as TIME) is one *unit*: the state
before it (``pre``) plus its evidence (``Shot``). The state after it is a pure
function of the two (``golf_resolve.resolve``); a referee call that arrives after
the balls have come to rest adds to the evidence of the unit just ended and the unit
is resolved again from ``pre``.

Per-player values are pairs indexed 0 for p1 and 1 for p2 (``IDX``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from ..geometry.golf import BALLS_PER_PLAYER, Point
from ..shots import Cutter
from .base import BaseState

IDX = {"p1": 0, "p2": 1}
SIDES = ("p1", "p2")

#: ball positions at rest, per player: the points of the balls still on the bed
Positions = tuple[tuple[Point, ...], tuple[Point, ...]]
#: the cut of a golf table (no strike sensor; the settle window of golf)
GOLF_CUTTER = Cutter(game="golf")


class Shot(NamedTuple):
    """The evidence of one unit. Items are tuples, ``t`` first."""

    t0: float
    shooter: str
    member: int = 0
    standalone: bool = False
    goals: tuple[tuple[float, str, str | None], ...] = ()  # (t, goal, ball)
    offs: tuple[tuple[float, str | None, str], ...] = ()  # (t, ball, "sensor"|"call")
    fouls: tuple[tuple[float, str, Any], ...] = ()  # (t, foul id, extra)
    rails: tuple[tuple[float, str], ...] = ()  # (t, ball) back on the bed off the rail
    edges: tuple[tuple[float, str], ...] = ()  # (t, ball) dropped after coming to rest
    #: (t, goal, ball) goals the cut placed after the shot's ``rest`` (a late settle,
    #: ``shots.Role.SETTLE``): a ball that dropped off the goal edge after resting
    late: tuple[tuple[float, str, str | None], ...] = ()
    wedged: tuple[tuple[float, str, str], ...] = ()  # (t, ball, where)
    first_contact: tuple[str, ...] | None = None
    strike: str | None = None
    rest_t: float | None = None
    positions: Positions | None = None
    answers: tuple[tuple[str, Any], ...] = ()  # (question key, answer)


_REST = Shot._fields.index("rest_t")
assert Shot._fields[_REST:] == ("rest_t", "positions", "answers")


def at_rest(shot: Shot, t: float, positions: Positions | None) -> Shot:
    """``shot._replace(rest_t=t, positions=positions)``, a third of its cost (once a shot)."""
    return tuple.__new__(Shot, (*shot[:_REST], t, positions, shot.answers))  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True, kw_only=True)
class GolfState(BaseState):
    game: str = "golf"
    duo: bool = False
    frame: int = 1
    frames_won: tuple[int, int] = (0, 0)
    balls_left: tuple[int, int] = (BALLS_PER_PLAYER, BALLS_PER_PLAYER)
    zone_play: bool = False
    first_opener: str = "p1"
    first_members: tuple[int, int] = (0, 0)
    members: tuple[int, int] = (0, 0)  # duo: the member of each side who plays its next turn
    frame_units: int = 0  # shots and stand-alone calls in this frame
    shot_open: bool = False
    shot: Shot | None = None
    pre: GolfState | None = None
    unit_questions: tuple[str, ...] = ()
    clock: tuple[str, float] | None = None  # (player, start)
    positions: Positions | None = None
    turn_positions: Positions | None = None
    placed: tuple[int | None, int | None] = (None, None)  # spot of each side's last replaced ball
    fouled_from: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    placements: tuple[tuple[str, int], ...] = ()  # (ball, spot) decided by the last unit
    #: penalised balls whose replacement spot the opponent has not named yet (a ``spot``
    #: call names it): (t, ball, key of the unit's evidence)
    spot_wait: tuple[tuple[float, str, str], ...] = ()
    frame_winners: tuple[str, ...] = ()
    #: the shot stage (``tablesense.shots``): where the last shot's late settles end and
    #: the next shot begins; fed each event that opens a shot and each ``rest``
    cutter: Cutter = GOLF_CUTTER


_FIELDS = tuple(GolfState.__dataclass_fields__)


_EVOLVERS: dict[tuple[str, ...], Any] = {}


def _evolver(names: tuple[str, ...]) -> Any:
    """A straight-line copier for one set of changed fields, generated once (the way
    dataclasses makes ``__init__``): no loop, no per-field checks at run time."""
    fn = _EVOLVERS.get(names)
    if fn is None:
        unknown = [n for n in names if n not in GolfState.__dataclass_fields__]
        if unknown:
            raise TypeError(f"GolfState has no field {unknown[0]!r}")
        body = "".join(f"    _set(o, {n!r}, {'_v_' + n if n in names else 's.' + n})\n" for n in _FIELDS)
        args = "".join(f", _v_{n}" for n in names)
        src = f"def _evolve(s{args}):\n    o = _new(_cls)\n{body}    return o\n"
        scope: dict[str, Any] = {"_new": object.__new__, "_set": object.__setattr__, "_cls": GolfState}
        exec(src, scope)
        fn = _EVOLVERS[names] = scope["_evolve"]
    return fn


def evolve(state: GolfState, **changes: Any) -> GolfState:
    """``dataclasses.replace`` for ``GolfState``, several times faster (the replay of a
    long match makes a few per shot). Only field names are allowed."""
    return _evolver(tuple(changes))(state, *changes.values())  # type: ignore[no-any-return]


def pair_set(pair: tuple[Any, Any], player: str, value: Any) -> tuple[Any, Any]:
    return (value, pair[1]) if player == "p1" else (pair[0], value)


def norm_positions(raw: dict[str, Any] | None) -> Positions | None:
    """``rest.positions`` as points per side; ``None`` when absent or not golf balls."""
    if not raw:
        return None
    out: list[tuple[Point, ...]] = []
    for side in SIDES:
        v = raw.get(side, [])
        if v and isinstance(v[0], (int, float)):
            v = [v]
        out.append(tuple((float(p[0]), float(p[1])) for p in v))
    return out[0], out[1]
