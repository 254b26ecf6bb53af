"""The shot stage: a match's event stream cut into shots and between-shot incidents.

One cutter for every consumer (docs/events.md, "Shots and incidents"). Pure: no I/O,
no clock; it reads only the events' ``type``, ``t`` and, for pins, ``pin`` and
``state``. It takes parsed events (``tablesense.events``) or the JSON objects of a
log alike.

The cut:

- A **shot** opens, on a table without a strike sensor (every table profile today), at
  the first ball event after the last shot: ``strike``, ``cushion``, ``contact``,
  ``off_table``, ``goal``, ``pocket`` or a ``pin`` going down. A table that has reported a
  ``strike`` in this match has a strike sensor (``Cutter.strikes``; configured:
  ``strike_sensor``): there a shot opens at the strike, or at a ball seen rolling
  (``cushion``, ``contact``, ``off_table``: a shot whose strike the source missed, as a
  camera does when it cannot tell which ball moved first); a drop or a pin does not.
- It is complete at ``rest`` (balls and pins still). A ``rest`` with nothing open is a
  shot of its own with no sensor event (a shot that touched nothing).
- What **settles** after the ``rest`` and before the next shot belongs to that shot
  (a late settle): a ``pin`` that falls (or, having fallen so, rocks back up), a
  ``goal`` or ``pocket`` (a ball dropping off the goal edge or into a hole), each
  within the settle window of the shot's last event (its rest, or the settle before),
  with nothing else between; the ``rest`` the table reports after a late settle ends
  the settle. The window (``settle_window``) is half the table profile's quiet time
  (``rest_quiet_ms``, after which the table reports ``rest``), counted strictly.
- An **incident** is what happens between shots with no ball played: a ``pin`` set up
  (``up``: no ball stands a pin up), the ``rest`` the table reports after it; with a
  strike sensor, a drop or a pin before the next strike that does not settle (a ball
  that lay still dropping, a pin the pin referee knocks over), and every ``rest`` with
  nothing open. Once an incident has happened nothing more settles: the shot before is
  over. (The cut goes by the lines' order; ``t`` orders a shot's events, and the
  engines' base gives an event its place by ``t``: ``rules/shot_engine.py``, ``held``.)
- Referee **calls** are no part of a shot or an incident; each is placed after the
  shot it follows (``Role.CALL``), which it may amend. ``setup`` starts a new match
  (numbering from 1 again). A void record (``call: void``) is marked ``Role.VOID``:
  consumers drop it and what it voids before cutting (``tablesense.corrections``).

Without a strike sensor the sensors cannot tell a late settle from a new shot whose
first event is a drop or a pin: the cut takes a pin, goal or pocket within the
window for a settle and one after it for a new shot, and a pin knocked over while the
pin referee sets pins up (no ball moving) for a new shot too. Nor can they tell a
ball that lay still and drops from a shot that pots it at once. The engines and the
referee's calls decide those cases (``replay``, ``hands``, ``edge``, a ``foul``;
docs/events.md has the table); the cutter does not guess.

Two APIs:

- batch: ``cut(events, seqs)`` -> ``Cut``: every event's ``Role``, the ``shots``
  (each with its events, seqs, rest and late settles), the ``incidents``, and the
  stream as contiguous ``pieces`` for a list on screen.
- incremental: ``Cutter`` is an immutable value; ``role, cutter = cutter.feed(event)``
  says what ``event`` is: ``OPEN`` (starts a new shot), ``PLAY`` (part of the current
  one), ``REST`` (completes it), ``EMPTY`` (a rest that is a whole shot), ``SETTLE``
  (a late settle of the shot just completed), ``INCIDENT``, ``CALL``, ``SETUP``,
  ``VOID``. ``feed`` returns the same cutter when nothing changes (every ``PLAY`` and
  ``CALL``), so it costs no allocation inside a shot.

The engines use it through their base (``tablesense.rules.shot_engine``): the state keeps
the cutter and the state before the shot; ``PLAY`` events gather in the shot, the rest
resolves it (``resolve(before, shot)``), a ``SETTLE`` or a call about the shot resolves it
again from the same state before, an ``INCIDENT`` goes to the engine's ``incident``, and
the next ``OPEN`` closes the last shot for good. Undo is popping the state, cutter
included, since the cutter is a value.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import pairwise
from typing import Any, Final

import msgspec

replace = msgspec.structs.replace


class Role:
    """What one event is in the cut: its nine names, each a string compared by identity (``role
    is Role.REST``) or as a key. Plain strings rather than an ``enum``: an enum's class costs
    every replay's start-up 1.4M instructions, and nothing asks a role for more than its name."""

    SETUP: Final = "setup"
    VOID: Final = "void"
    CALL: Final = "call"
    OPEN: Final = "open"  # the first event of a new shot
    PLAY: Final = "play"  # in the current shot, before its rest
    REST: Final = "rest"  # completes the current shot
    EMPTY: Final = "empty"  # a rest with nothing open: a whole shot without sensor events
    SETTLE: Final = "settle"  # after the shot's rest, before the next shot: part of that shot
    INCIDENT: Final = "incident"  # between shots, no ball played


#: the roles by plain names, for the hot paths (the cut, the engines' ``apply``): ``Role.REST`` is
#: a lookup through the enum's class, about ten times a module global's on CPython 3.11
R_SETUP, R_VOID, R_CALL, R_OPEN, R_PLAY, R_REST, R_EMPTY, R_SETTLE, R_INCIDENT = (
    Role.SETUP, Role.VOID, Role.CALL, Role.OPEN, Role.PLAY, Role.REST, Role.EMPTY, Role.SETTLE, Role.INCIDENT)

#: the roles of the events that belong to a shot
SHOT_ROLES = frozenset({Role.OPEN, Role.PLAY, Role.REST, Role.EMPTY, Role.SETTLE})
#: table events (sensors, the simulator, the camera): everything but set-up and calls
TABLE_TYPES = frozenset({"strike", "cushion", "contact", "off_table", "goal", "pocket", "pin", "rest"})
#: what may still settle after the rest: a pin, a ball dropping
_SETTLING = frozenset({"pin", "goal", "pocket"})
#: on a table that reports strikes, what opens a shot: the strike, or a ball seen rolling
_ROLLING = frozenset({"strike", "cushion", "contact", "off_table"})
#: the settle window of a table whose game is not known
DEFAULT_SETTLE_S = 0.75

_IDLE, _OPEN, _SETTLING_PHASE, _CLOSED = "idle", "open", "settling", "closed"


@cache
def settle_window(game: str | None) -> float:
    """The settle window of ``game``: half its quiet time (``tablesense.games``). A drop or a
    pin falling sooner than this after the rest settles the shot before; later, it may be
    the next shot's first event (that player has had the quiet time and this window since
    the balls stopped)."""
    from . import games

    found = games.find(game)
    return found.settle_s if found is not None else DEFAULT_SETTLE_S


def is_table_event(event: Any) -> bool:
    """A sensor event or ``rest``: not a set-up, not a referee call."""
    return _kind(event) in TABLE_TYPES


def completes(event: Any) -> bool:
    """``rest``: balls and pins are still."""
    return _kind(event) == "rest"


def in_time_order(events: Sequence[Any]) -> Iterable[tuple[int, Any]]:
    """A shot's events as ``(index in the stream, event)`` in ``t`` order, stream order
    breaking ties (docs/events.md: ``t`` orders the events inside one shot)."""
    if any(b.t < a.t for a, b in pairwise(events)):
        return sorted(enumerate(events), key=lambda ie: ie[1].t)
    return enumerate(events)


def _kind(event: Any) -> Any:
    return event.get("type") if isinstance(event, dict) else event.type


def _get(event: Any, key: str) -> Any:
    return event.get(key) if isinstance(event, dict) else getattr(event, key, None)


def _time(event: Any) -> float | None:
    t = event.get("t") if isinstance(event, dict) else getattr(event, "t", None)
    if type(t) is float:  # a parsed event's time: the common case
        return t
    return float(t) if isinstance(t, (int, float)) and not isinstance(t, bool) else None


_NO_PINS: frozenset[int] = frozenset()


class Cutter(msgspec.Struct, frozen=True, gc=False):
    """The incremental cut: ``role, cutter = cutter.feed(event)``. Immutable (a frozen
    msgspec Struct: the engines make a new one a few times a shot, at a C call's cost)."""

    #: the table has a strike sensor (configured): see ``strikes``
    strike_sensor: bool = False
    #: the settle window in seconds; None: the game's (``settle_window``) from the ``setup``
    window: float | None = None
    game: str | None = None
    #: the number of the current (or last) shot of the match; 0 before the first
    shot: int = 0
    phase: str = _IDLE
    last_t: float | None = None  # the shot's last event: its rest or latest settle
    settle_open: bool = False  # a late settle with no rest after it yet
    incident_open: bool = False  # an incident with no rest after it yet
    settled_pins: frozenset[int] = _NO_PINS  # pins down in the settle
    #: the table has reported a ``strike`` in this match: it has a strike sensor, and from
    #: now on a drop or a pin with no strike before it opens no shot (``has_strike_sensor``)
    strikes: bool = False

    @property
    def settle_s(self) -> float:
        if self.window is not None:
            return self.window
        return settle_window(self.game)

    @property
    def in_shot(self) -> bool:
        """A shot is open (opened, not yet at rest)."""
        return self.phase == _OPEN

    @property
    def has_strike_sensor(self) -> bool:
        """The table reports strikes: configured so, or a ``strike`` seen in this match."""
        return self.strike_sensor or self.strikes

    def feed(self, event: Any) -> tuple[str, Cutter]:
        """What ``event`` is, and the cutter after it."""
        if isinstance(event, dict):
            return self._feed_object(event)
        # a parsed event (the engines, a replay): the same cut as ``_feed_object``'s, its common
        # cases (a shot's events and rest, the next shot opening, a drop settling) without a call
        kind = event.type
        phase = self.phase
        if kind == "call":
            return (R_VOID if getattr(event, "call", None) == "void" else R_CALL), self
        if kind == "setup":
            return self._feed_object(event)
        if phase == _OPEN:
            if kind == "rest":
                try:
                    t = event.t
                except AttributeError:
                    t = None
                return R_REST, Cutter(self.strike_sensor, self.window, self.game, self.shot, _SETTLING_PHASE,
                                      t if type(t) is float else _time(event), self.settle_open,
                                      self.incident_open, self.settled_pins, self.strikes)
            if kind == "strike" and not self.strikes:
                return R_PLAY, replace(self, strikes=True)  # the first strike seen: learnt
            return R_PLAY, self
        if kind == "rest":
            return self._rest_between(event)
        if phase == _SETTLING_PHASE and kind in _SETTLING:
            if kind == "pin":
                if self._settles(event, kind):
                    return self._settle(event, kind)
            else:  # a ball dropping: ``_settles``, inline
                try:
                    t = event.t
                except AttributeError:
                    t = None
                last = self.last_t
                if type(t) is not float:
                    t = _time(event)
                window = self.window
                if window is None:
                    window = settle_window(self.game)
                if t is not None and last is not None and t - last < window:
                    return R_SETTLE, Cutter(self.strike_sensor, self.window, self.game, self.shot, phase,
                                            t if t > last else last, True, self.incident_open,
                                            self.settled_pins, self.strikes)
        if self.strike_sensor or self.strikes:  # ``_opens``, inline
            opens = kind in _ROLLING
        elif kind == "pin":
            opens = getattr(event, "state", None) != "up"
        else:
            opens = kind in TABLE_TYPES
        if opens:
            return R_OPEN, Cutter(self.strike_sensor, self.window, self.game, self.shot + 1, _OPEN, None,
                                  False, False, _NO_PINS, True if kind == "strike" else self.strikes)
        return R_INCIDENT, Cutter(self.strike_sensor, self.window, self.game, self.shot, _CLOSED, self.last_t,
                                  False, True, self.settled_pins, self.strikes)

    def _feed_object(self, event: Any) -> tuple[str, Cutter]:
        """``feed`` of any event: a log's JSON object or a parsed event."""
        kind = event.get("type") if isinstance(event, dict) else event.type
        if kind == "call":
            return (R_VOID if _get(event, "call") == "void" else R_CALL), self
        if kind == "setup":
            game = _get(event, "game")
            return R_SETUP, Cutter(strike_sensor=self.strike_sensor, window=self.window,
                                      game=game if isinstance(game, str) else None)
        phase = self.phase
        if phase == _OPEN:
            if kind == "rest":
                return R_REST, Cutter(self.strike_sensor, self.window, self.game, self.shot, _SETTLING_PHASE,
                                      _time(event), self.settle_open, self.incident_open, self.settled_pins,
                                      self.strikes)
            if kind == "strike" and not self.strikes:
                return R_PLAY, replace(self, strikes=True)  # the first strike seen: learnt
            return R_PLAY, self
        if kind == "rest":
            return self._rest_between(event)
        if phase == _SETTLING_PHASE and kind in _SETTLING and self._settles(event, kind):
            return self._settle(event, kind)
        if self._opens(event, kind):
            opened = self._next(self.shot + 1, _OPEN, None, False, False, _NO_PINS)
            if kind == "strike" and not self.strikes:
                opened = replace(opened, strikes=True)  # the first strike seen: learnt
            return R_OPEN, opened
        return R_INCIDENT, self._next(self.shot, _CLOSED, self.last_t, False, True, self.settled_pins)

    def _settle(self, event: Any, kind: Any) -> tuple[str, Cutter]:
        """A late settle (``_settles``): the cutter after it."""
        pins = self.settled_pins
        if kind == "pin" and _get(event, "state") != "up":
            pins = pins | {_get(event, "pin")}
        return R_SETTLE, self._next(self.shot, self.phase, _later(self.last_t, _time(event)), True,
                                    self.incident_open, pins)

    def _rest_between(self, event: Any) -> tuple[str, Cutter]:
        if self.settle_open:
            return R_SETTLE, self._next(self.shot, self.phase, _later(self.last_t, _time(event)), False,
                                           self.incident_open, self.settled_pins)
        if self.incident_open or self.strike_sensor or self.strikes:
            return R_INCIDENT, self._next(self.shot, _CLOSED, self.last_t, self.settle_open, False,
                                             self.settled_pins)
        return R_EMPTY, self._next(self.shot + 1, _SETTLING_PHASE, _time(event), False, False, _NO_PINS)

    def _next(self, shot: int, phase: str, last_t: float | None, settle_open: bool, incident_open: bool,
              settled_pins: frozenset[int]) -> Cutter:
        """The cutter after an event: a plain constructor call."""
        return Cutter(self.strike_sensor, self.window, self.game, shot, phase, last_t, settle_open,
                      incident_open, settled_pins, self.strikes)

    def _settles(self, event: Any, kind: Any) -> bool:
        if kind not in _SETTLING:
            return False
        if kind == "pin" and _get(event, "state") == "up" and _get(event, "pin") not in self.settled_pins:
            return False  # set up by the pin referee, not rocking back
        t, last = _time(event), self.last_t
        return t is not None and last is not None and t - last < self.settle_s

    def _opens(self, event: Any, kind: Any) -> bool:
        if self.strike_sensor or self.strikes:
            # a drop or a pin needs the strike; a ball seen rolling (a cushion, a contact, a ball
            # off the table) is a shot whose strike the source missed: a camera says no strike
            # when it cannot tell which ball moved first (vision/shot_events.py)
            return kind in _ROLLING
        if kind == "pin":
            return _get(event, "state") != "up"
        return kind in TABLE_TYPES


def _later(a: float | None, b: float | None) -> float | None:
    if a is None:
        return b
    if b is None:
        return a
    return max(a, b)


class _Span:
    """The first and last event numbers of a run of the stream (``seqs``)."""

    __slots__ = ()
    seqs: tuple[int, ...]

    @property
    def first(self) -> int:
        return self.seqs[0]

    @property
    def last(self) -> int:
        return self.seqs[-1]


class Shot(_Span, msgspec.Struct, frozen=True):
    """One shot: its table events in stream order (play, rest, late settles)."""

    number: int
    events: tuple[Any, ...]
    seqs: tuple[int, ...]
    roles: tuple[str, ...]  # each a ``Role``


    @property
    def start_t(self) -> float | None:
        return _time(self.events[0])

    @property
    def complete(self) -> bool:
        """Its balls and pins have come to rest."""
        return any(r in (Role.REST, Role.EMPTY) for r in self.roles)

    @property
    def play(self) -> tuple[Any, ...]:
        """The events up to and including the rest that completed it."""
        return tuple(e for e, r in zip(self.events, self.roles, strict=True) if r is not Role.SETTLE)

    @property
    def settled(self) -> tuple[Any, ...]:
        """The late settles: what came to rest after the shot's rest."""
        return tuple(e for e, r in zip(self.events, self.roles, strict=True) if r is Role.SETTLE)


class Incident(msgspec.Struct, frozen=True):
    """Table events between shots with no ball played; ``after``: the shot before (0: none)."""

    after: int
    events: tuple[Any, ...]
    seqs: tuple[int, ...]


class Piece(_Span, msgspec.Struct, frozen=True):
    """A contiguous run of the stream of one kind: ``shot`` (events of shot number
    ``shot``), ``incident`` (after shot ``shot``), ``call``, ``void`` or ``setup`` (one
    event each). A shot split by a call is two pieces with the same number."""

    kind: str
    shot: int
    events: tuple[Any, ...]
    seqs: tuple[int, ...]



class Cut(msgspec.Struct, frozen=True):
    """A whole stream cut: each event's role and shot number, the shots, the incidents,
    the pieces. Shots of a later match (a second ``setup``) number from 1 again."""

    roles: tuple[str, ...]  # each a ``Role``
    numbers: tuple[int, ...]  # per event: the shot it belongs to, or follows
    shots: tuple[Shot, ...]
    incidents: tuple[Incident, ...]
    pieces: tuple[Piece, ...]


def cut(events: Iterable[Any], seqs: Sequence[int] | None = None, *, strike_sensor: bool = False,
        window: float | None = None, game: str | None = None) -> Cut:
    """Cut ``events`` (parsed events or log objects) into shots and incidents. ``seqs``
    numbers them (their match-log seqs or line numbers); by default 1, 2, 3, ..."""
    evs = list(events)
    nums = list(seqs) if seqs is not None else list(range(1, len(evs) + 1))
    if len(nums) != len(evs):
        raise ValueError(f"{len(evs)} events but {len(nums)} seqs")
    cutter = Cutter(strike_sensor=strike_sensor, window=window, game=game)
    roles: list[str] = []
    numbers: list[int] = []
    for e in evs:
        role, cutter = cutter.feed(e)
        roles.append(role)
        numbers.append(cutter.shot)
    shot_idx: dict[tuple[int, int], list[int]] = {}  # (match, shot number) -> event indices
    runs: list[tuple[str, int, list[int]]] = []  # the pieces: kind, shot number, event indices
    match = 0
    for i, (role, n) in enumerate(zip(roles, numbers, strict=True)):
        if role is Role.SETUP:
            match += 1
        if role in SHOT_ROLES:
            kind = "shot"
            shot_idx.setdefault((match, n), []).append(i)
        else:
            kind = role
        if runs and kind in ("shot", "incident") and runs[-1][0] == kind and runs[-1][1] == n:
            runs[-1][2].append(i)
        else:
            runs.append((kind, n, [i]))

    def pick(idx: list[int]) -> tuple[tuple[Any, ...], tuple[int, ...]]:
        return tuple(evs[j] for j in idx), tuple(nums[j] for j in idx)

    shots = tuple(Shot(n, *pick(idx), tuple(roles[j] for j in idx)) for (_, n), idx in shot_idx.items())
    incidents = tuple(Incident(n, *pick(idx)) for kind, n, idx in runs if kind == "incident")
    pieces = tuple(Piece(kind, n, *pick(idx)) for kind, n, idx in runs)
    return Cut(tuple(roles), tuple(numbers), shots, incidents, pieces)
