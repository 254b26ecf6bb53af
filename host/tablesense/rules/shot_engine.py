"""The shot stage in the engines: the base cuts, the engine resolves.

``ShotEngine`` is the rule-engine interface of the shot stage (issue 13; docs/events.md,
"Shots and incidents"). The base owns where a shot begins and ends (the cutter of
``tablesense.shots``, kept in the state as ``cut``), gathers its events, and asks the
engine for one pure function of the whole shot:

    resolve(before, shot) -> state

``before`` is the state before the shot; ``shot`` (``ShotRecord``) its sensor events,
its ``rest``, what settled after the rest (``late``) and the referee's calls and
answers about it (``calls``). The base calls ``resolve`` at the rest, and again from the
same ``before`` when the shot is amended: a late settle (a pin that falls after the
balls stop, a ball that drops off the goal edge), a call about the shot (``call``
returns ``AMEND``), an answer to its question (``amend`` from ``on_answer``). The
last shot closes for good when the next one opens (``close``).

An engine implements:

- ``new_state(setup)``;
- ``resolve(before, shot)``: pure, from ``before`` and the whole shot (sensor events in
  ``shot.events``, at ``shot.rest`` or still open when ``rest`` is None: the live view
  of a shot in progress);
- ``incident(state, event)``: an event between shots with no ball played (pins set up,
  a ball that lay still dropping): the engine rules on it as such;
- ``call(state, call)``: a referee call that is not ``undo`` or ``answer``; it returns
  ``AMEND`` when the call is about the last shot (the base adds it to the shot and
  resolves the shot again), else the new state;
- ``on_answer(state, question, answer, call)`` (default: the question cannot be answered
  here), ``close(state)`` (default: nothing), ``game_json``, ``summary``;
- where it pays, for a whole shot taken at once (``whole``): ``check_all(events)`` (its events'
  ``check`` in one call) and ``staged(before, shot, cut, checkpoint)`` (its state with the shot
  stage's fields put in the same copy); the defaults call ``check`` and ``resolve``.

What the base does besides: undo (``checkpoint``: the state before each shot and each
call; undo pops it), questions (``_answer``), the match's end (``end``; ``ended`` is the
one record of it, ``finished`` and ``winner`` are read from it; after it a rest
changes nothing, a late settle still amends the deciding shot, an incident goes to the
engine, any other sensor event is refused), and the events' order: ``t``, not the line,
orders a shot's events, so a drop or a pin between shots that opens no shot (a pin set
up; on a table that reports strikes, any drop or pin with no strike before it) is held
(``held``) until the table's rest or a call makes it an incident or the next shot opens
and takes it, and at a shot's rest what came before its start is given back as incidents
before it (``_before_shot``; docs/events.md, "Line order").

The state is a ``MatchState``: a frozen msgspec Struct (copying one with changes is a
C call, no generated code). Between the shot's first event and its rest, ``apply`` of an
event costs one copy of the small ``ShotRecord`` and one of the state; a replay fed many
lines gathers a run of them (``admit`` each, then ``gather``: one copy for the run, the same
state); the engine does no work until the rest.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Sequence
from functools import cache, reduce
from itertools import islice
from typing import Any, ClassVar, Generic, TypeVar

import msgspec

from ..errors import IllegalCall
from ..events import Call, Contact, Cushion, Event, Goal, OffTable, Pin, Pocket, Rest, Setup, Strike
from ..shots import (
    _CLOSED,
    _NO_PINS,
    _OPEN,
    _SETTLING,
    _SETTLING_PHASE,
    R_EMPTY,
    R_INCIDENT,
    R_OPEN,
    R_PLAY,
    R_REST,
    R_SETTLE,
    TABLE_TYPES,
    Cutter,
)
from ..shots import (
    _ROLLING as _ROLLING_KINDS,
)
from ..texts import phrase
from ..vocabulary import Vocabulary, canonical_call, for_game
from .players import player_names
from .records import Ended, Question, Ruling, as_option
from .ruling_log import RulingLog

replace = msgspec.structs.replace


#: a shot in progress keeps its events in a tuple up to this many, then in a ``Run``
RUN_FROM = 48


class Run(Sequence[Event]):
    """The events of a shot in progress, growing by one per event in constant time.

    A state per event shares one list: a ``Run`` is its first ``n`` items, and ``plus`` appends
    to the list when this run is its newest (the common case: the next event of the live
    shot), else copies its own ``n`` first (a branch, e.g. an older state fed again). A tuple
    copy per event made a shot of n events cost n² (a 20,000-event shot: seconds). At the
    shot's rest (and wherever a shot is resolved) the run becomes a tuple (``frozen``); until
    then it reads like one."""

    __slots__ = ("_items", "_n")

    def __init__(self, items: list[Event], n: int) -> None:
        self._items = items
        self._n = n

    @staticmethod
    def plus(events: Sequence[Event], event: Event) -> Sequence[Event]:
        """``events`` (a tuple or a ``Run``) with ``event`` after them; ``events`` unchanged.
        A short shot's stay a tuple (a copy of a few is cheaper than a call)."""
        if type(events) is Run:
            items, n = events._items, events._n
            if len(items) != n:
                items = items[:n]
            items.append(event)
            return Run(items, n + 1)
        if len(events) < RUN_FROM:
            return (*events, event)
        return Run([*events, event], len(events) + 1)

    def __len__(self) -> int:
        return self._n

    def __iter__(self) -> Iterator[Event]:
        return islice(self._items, self._n)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            return tuple(self._items[: self._n][key])
        if key < 0:
            key += self._n
        if not 0 <= key < self._n:
            raise IndexError("event index out of range")
        return self._items[key]

    def __add__(self, other: Any) -> tuple[Event, ...]:
        return (*self, *other)

    def __radd__(self, other: Any) -> tuple[Event, ...]:
        return (*other, *self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Run, tuple, list)):
            return len(self) == len(other) and tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))


class Trace(msgspec.Struct, gc=False):
    """The events a played state had applied since its base (``MatchState.since``): a state per
    event shares one list (its first ``n``), as ``Run`` does; once the next state is kept whole
    the list is ``seal``ed into one bytes object (MessagePack, smaller than the log's lines:
    what an undo keeps is the log, not the events' objects), read back only by an undo that
    needs it.

    ``Trace(seg, n)`` is made once or twice per event or shot played (``play``, ``whole_played``,
    the engines' own): a msgspec Struct, whose ``__init__`` is C, costs ~1,000 fewer instructions
    a construction than a class with a Python ``__init__`` (docs/performance.md, branch ruling6).
    It reads as the ``Sequence`` it was (registered as one, its mixin methods), compares and
    hashes by identity as it did (not by its fields), and is left out of the cycle collector
    (``gc=False``: it holds a list of events and an int, never itself)."""

    #: [the events, or None once sealed; the sealed lines, or None]
    _seg: list[Any]
    _n: int

    __hash__ = object.__hash__
    __contains__ = Sequence.__contains__
    __reversed__ = Sequence.__reversed__
    index = Sequence.index
    count = Sequence.count

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other

    def __repr__(self) -> str:
        return object.__repr__(self)

    @staticmethod
    def start(event: Event) -> Trace:
        return Trace([[event], None], 1)

    def plus(self, event: Event) -> Trace:
        """These events and ``event``; this trace unchanged."""
        items = self._seg[0]
        if items is not None and len(items) == self._n:
            items.append(event)
            return Trace(self._seg, self._n + 1)
        return Trace([[*self, event], None], self._n + 1)

    def seal(self) -> None:
        """Keep the shared list as its events' log lines (all who share it read those)."""
        seg = self._seg
        items = seg[0]
        if items is not None:
            seg[1] = _PACK.encode(items)
            seg[0] = None

    def _items(self) -> list[Event]:
        items = self._seg[0]
        if items is None:
            try:
                items = _unpacker().decode(self._seg[1])
            except msgspec.ValidationError:  # an event made out of a log line's bounds (``Event.t``)
                items = _unpacked_as_made(self._seg[1])
        return items  # type: ignore[no-any-return]

    def __len__(self) -> int:
        return self._n

    def __iter__(self) -> Iterator[Event]:
        return islice(self._items(), self._n)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            return tuple(self._items()[: self._n][key])
        if key < 0:
            key += self._n
        if not 0 <= key < self._n:
            raise IndexError("event index out of range")
        return self._items()[key]


Sequence.register(Trace)

#: a sealed trace's events (an event's unknown keys, a read-only mapping, as a dict)
_PACK = msgspec.msgpack.Encoder(enc_hook=dict)


@cache
def _unpacker() -> msgspec.msgpack.Decoder[list[Event]]:
    """The decoder of a sealed trace: a list of any of the events (their ``type`` tags)."""
    kinds = reduce(operator.or_, _event_kinds())
    return msgspec.msgpack.Decoder(list[kinds])  # type: ignore[valid-type]


def _event_kinds() -> list[type[Event]]:
    """Every kind of event (``Event``'s subclasses, theirs, ...)."""
    found: list[type[Event]] = []
    todo: list[type[Event]] = [Event]
    while todo:
        for kind in todo.pop().__subclasses__():
            found.append(kind)
            todo.append(kind)
    return found


def _unpacked_as_made(blob: bytes) -> list[Event]:
    """A sealed trace's events made again from their fields, unchecked: the typed decode
    (``_unpacker``) refuses what a log line may not hold (a time out of range, a contact of
    other than two balls), which an event made by hand (not read from a log) may."""
    kinds = {kind.__struct_config__.tag: kind for kind in _event_kinds()}
    out: list[Event] = []
    for fields in msgspec.msgpack.decode(blob):
        kind = kinds[fields.pop("type")]
        if "balls" in fields:
            fields["balls"] = tuple(fields["balls"])
        if "~extra~" in fields:  # (as the typed decode gives it: a dict)
            fields["extra"] = fields.pop("~extra~")
        out.append(kind(**fields))
    return out


#: ``canonical``'s memory: (the vocabulary's id, the call's ``call``, ``foul``, ``ball``) -> the
#: vocabulary and the canonical names (None: the call is canonical already)
_CANONICAL: dict[tuple[int, str, Any, Any], tuple[Vocabulary, tuple[str, Any, Any] | None]] = {}
_CANONICAL_MAX = 4096


def canonical(vocab: Vocabulary, call: Call) -> Call:
    """``canonical_call(vocab, call)``, its names looked up once per vocabulary: a referee's
    calls are a few names written the same way over and over (a vocabulary is immutable,
    and the names it changes are ``call``, ``foul`` and ``ball`` only)."""
    key = (id(vocab), call.call, call.foul, call.ball)
    found = _CANONICAL.get(key)
    if found is None or found[0] is not vocab:
        new = canonical_call(vocab, call)
        names = None if new is call else (new.call, new.foul, new.ball)
        if len(_CANONICAL) >= _CANONICAL_MAX:
            _CANONICAL.clear()
        _CANONICAL[key] = (vocab, names)
        return new
    names = found[1]
    if names is None:
        return call
    return replace(call, call=names[0], foul=names[1], ball=names[2])


def _shallow(state: MatchState, slack: int | None = None) -> MatchState:
    """``state`` with its chain of states before shots (``before``) cut to ``BEFORE_DEPTH``
    once it is ``slack`` more than that (default: ``BEFORE_DEPTH``; copies of the states above
    the cut; ``state`` unchanged)."""
    # walked without a list (a shot of a played match asks it once: ``whole_played``); the
    # chain is gathered only where it is cut
    limit = BEFORE_DEPTH + (BEFORE_DEPTH if slack is None else slack)
    node, deep = state.before, 1
    while node is not None and deep < limit:
        deep += 1
        node = node.before
    if node is None:
        return state
    return _cut_before(state)


def _eight_deep(state: MatchState) -> bool:
    """Whether ``state``'s chain of states before shots (``before``, its ``before``, ...) is eight
    states deep or more: ``_shallow``'s walk at ``BEFORE_DEPTH`` 4 (cut at twice that), unrolled (a
    played shot taken at once asks it: ``whole_played``; ``play`` walks)."""
    node = state.before
    return not (node is None or (node := node.before) is None or (node := node.before) is None
                or (node := node.before) is None or (node := node.before) is None
                or (node := node.before) is None or (node := node.before) is None
                or node.before is None)


def _cut_before(state: MatchState) -> MatchState:
    """``state`` with its chain of states before shots cut to ``BEFORE_DEPTH`` (copies of the
    states above the cut)."""
    chain = [state]
    node = state.before
    while len(chain) < BEFORE_DEPTH:
        chain.append(node)  # type: ignore[arg-type]
        node = node.before  # type: ignore[union-attr]
    below = None
    for s in reversed(chain):
        below = replace(s, before=below)
    assert below is not None
    return below


def open_cut(cut: Cutter, first: Event) -> Cutter | None:
    """The cutter after ``first``, a table event (``SHOT_KINDS``) between shots, where it opens a
    shot (``cut.feed(first)`` gives ``R_OPEN``); None where it does not. ``Cutter.feed``'s cut,
    its common cases (no shot open, no drop that may settle the last one) made without its call:
    a whole shot (``ShotEngine.whole``) pays one small record for its opening, not a call."""
    phase = cut.phase
    kind = first.type
    if phase == _OPEN or (phase == _SETTLING_PHASE and kind in _SETTLING):
        role, opened = cut.feed(first)
        return opened if role is R_OPEN else None
    strikes = cut.strikes
    if not _opens(cut, first, kind):
        return None
    return Cutter(cut.strike_sensor, cut.window, cut.game, cut.shot + 1, _OPEN, None, False, False, _NO_PINS,
                  True if kind == "strike" else strikes)


def _opens(cut: Cutter, first: Event, kind: str) -> bool:
    """Whether ``first`` (of type ``kind``) opens a shot where none is open (``Cutter.feed``'s
    rule): a rolling event where a strike tells the shots, else a table event, a pin going down."""
    if cut.strike_sensor or cut.strikes:
        return kind in _ROLLING_KINDS
    if kind == "pin":
        return first.state != "up"  # type: ignore[attr-defined]
    return kind in TABLE_TYPES


def rest_cut(cut: Cutter, rest: Rest) -> Cutter:
    """The cutter after ``rest``, the rest of the open shot of ``cut`` (``cut.feed(rest)``:
    ``R_REST``), made without the call."""
    t = rest.t
    if type(t) is not float:
        return cut.feed(rest)[1]
    return Cutter(cut.strike_sensor, cut.window, cut.game, cut.shot, _SETTLING_PHASE, t, cut.settle_open,
                  cut.incident_open, cut.settled_pins, cut.strikes)


def shot_cut(cut: Cutter, first: Event, rest: Rest) -> Cutter | None:
    """The cutter after a whole shot whose first event is ``first`` and whose rest is ``rest``
    (``open_cut``, then ``rest_cut``: None where ``first`` opens no shot), made as one record; a
    strike among its other events is the caller's to add (``strikes``: a flag the rest keeps).

    Its common case (the last shot at rest or none yet, a first event that cannot settle it, a
    rest at a float time) is read from the cutter's fields in one pass, without a call; the others
    go through ``open_cut`` and ``rest_cut`` (``_fed_cut``)."""
    kind = first.type
    phase = cut.phase
    if phase == _SETTLING_PHASE:
        if kind in _SETTLING:  # a drop may settle the last shot within its window: ``Cutter.feed``'s way
            window, last, at = cut.window, cut.last_t, first.t
            if kind == "pin" or window is None or type(at) is not float \
                    or (last is not None and at - last < window):
                return _fed_cut(cut, first, rest)
    elif phase == _OPEN:
        return _fed_cut(cut, first, rest)
    t = rest.t
    if type(t) is not float:
        return _fed_cut(cut, first, rest)
    if cut.strikes or cut.strike_sensor:  # (``_opens``: a rolling ball opens a shot, a drop or a pin not)
        if kind not in _ROLLING_KINDS:
            return None
        return Cutter(cut.strike_sensor, cut.window, cut.game, cut.shot + 1, _SETTLING_PHASE, t, False, False,
                      _NO_PINS, True if kind == "strike" else cut.strikes)
    if kind == "pin":
        if first.state == "up":  # type: ignore[attr-defined]  (a pin set up opens none)
            return None
    elif kind not in TABLE_TYPES:
        return None
    return Cutter(False, cut.window, cut.game, cut.shot + 1, _SETTLING_PHASE, t, False, False, _NO_PINS,
                  kind == "strike")


def _fed_cut(cut: Cutter, first: Event, rest: Rest) -> Cutter | None:
    """``shot_cut`` where it is not its common case: ``open_cut``, then ``rest_cut``."""
    opened = open_cut(cut, first)
    return None if opened is None else rest_cut(opened, rest)


def frozen(shot: ShotRecord) -> ShotRecord:
    """``shot`` with its events as a tuple (a shot in progress grows them as a ``Run``)."""
    if type(shot.events) is Run:
        return replace(shot, events=tuple(shot.events))
    return shot


class ShotRecord(msgspec.Struct, frozen=True, gc=False):
    """One shot as the engine resolves it."""

    #: the player at the table when the shot opened
    player: str | None = None
    #: the sensor events from the shot's first to its rest (the rest not included)
    events: tuple[Event, ...] = ()
    #: the rest that completed it; None while the shot is in progress
    rest: Rest | None = None
    #: what settled after the rest: it belongs to this shot
    late: tuple[Event, ...] = ()
    #: the referee's calls about this shot, answers included, in order
    calls: tuple[Call, ...] = ()

    @property
    def complete(self) -> bool:
        return self.rest is not None

    @property
    def t(self) -> float:
        """When the shot began (its first event, or its rest for a shot with no events)."""
        if self.events:
            return self.events[0].t
        if self.rest is not None:
            return self.rest.t
        return 0.0


class MatchState(msgspec.Struct, frozen=True, kw_only=True):
    """What every game's state has."""

    game: str
    players: tuple[tuple[str, Any], ...] = ()
    #: how the match ended (None while it goes on): the one record of it (``finished`` and
    #: ``winner`` are read from it)
    ended: Ended | None = None
    at_table: str | None = "p1"
    #: shared persistent log: a new state's rulings cost no copy of the old ones
    rulings: RulingLog = msgspec.field(default_factory=RulingLog)
    questions: tuple[Question, ...] = ()
    asked: int = 0
    in_shot: bool = False
    #: what an ``undo`` goes back to: the state before the last step that set it (a shot's
    #: first event, a late settle, an incident, a call), whole or as a ``Redo`` (``play``)
    checkpoint: MatchState | Redo | None = None
    #: a state played (``play``): the state kept whole that it is rebuilt from (None: this one
    #: is kept whole, or it was not played) and the events applied to that since
    base: MatchState | None = None
    since: Sequence[Event] = ()
    #: the shot cut (``tablesense.shots.Cutter``): an immutable value
    cut: Cutter = Cutter()
    #: the state before ``shot``, from which it is resolved (again)
    before: MatchState | None = None
    #: the current shot, or the last one while it may still be amended
    shot: ShotRecord | None = None
    #: table events between shots that open no shot and that a shot opening next may still
    #: claim (``t`` orders a shot's events, whatever their order in the log): on a table that
    #: reports strikes, drops and pins with no strike before them; on one that does not, pins
    #: set up. The table's next rest or a call makes them incidents; a shot that opens first
    #: takes them, and gives back at its rest those that came before it (``_before_shot``)
    held: tuple[Event, ...] = ()

    @property
    def finished(self) -> bool:
        """Whether the match is over (``ended`` says how)."""
        return self.ended is not None

    @property
    def winner(self) -> str | None:
        """Who won (``"draw"``: nobody); None while the match goes on, or when it ended
        naming nobody."""
        ended = self.ended
        return None if ended is None else ended.winner


class Redo(msgspec.Struct, frozen=True):
    """A state an undo may go back to, not kept whole: the state kept whole that it is rebuilt
    from (``base``) and the events applied to that since (``ShotEngine.play``, ``redo``).
    ``applied``: the events are ``apply``'d again, not ``play``'d (a replay keeping a bounded
    history, ``ShotEngine.whole_called``: the state ``apply`` of each gave, links and all)."""

    base: MatchState
    events: Sequence[Event] = ()
    applied: bool = False


S = TypeVar("S", bound=MatchState)

#: a played match (``ShotEngine.play``) keeps a whole state once per this many events; an undo
#: replays at most this many from the one before it
KEEP_EVERY = 512
#: a played match keeps the states before its shots this many deep (``before``, its ``before``,
#: ...: an engine reads two or three back); deeper links are cut once they reach twice this
#: (a state kept whole: at once)
BEFORE_DEPTH = 4

#: ``call`` returns this for a call about the last shot: the base adds it and resolves again
AMEND: Any = object()
#: the events a shot in progress takes as one more of its own, with no other change (``apply``'s
#: hot path; ``gather``): every table event but the rest
SHOT_KINDS = frozenset({Strike, Cushion, Contact, Goal, Pocket, Pin, OffTable})
#: what a table that reports strikes holds between shots until its rest or the next shot: a
#: ball dropping, a pin
_HELD = frozenset({Pin, Pocket, Goal})
#: on such a table, a ball seen rolling: a shot whose strike the source missed
_ROLLING = frozenset({Cushion, Contact, OffTable})


class ShotEngine(Generic[S]):
    """Base of engines that resolve a whole shot at a time."""

    game: ClassVar[str] = ""
    #: the game's table has holes or goals, or pins: on a table that reports strikes a drop or a
    #: pin may come before a shot's start and be given back at its rest (``_before_shot``); a
    #: carom table has neither
    drops: ClassVar[bool] = True
    #: the game's pins are set up between shots: a pin set up may come before a shot's start on
    #: any table (keglebillard)
    pins: ClassVar[bool] = False

    # --- to implement -----------------------------------------------------------
    def new_state(self, setup: Setup) -> S:
        raise NotImplementedError

    def resolve(self, before: S, shot: ShotRecord) -> S:
        raise NotImplementedError

    def on_answer(self, state: S, question: Question, answer: Any, event: Call) -> S:
        """``state`` (the question closed) with the referee's ``answer`` to ``question``."""
        raise IllegalCall(f"question {question.id} cannot be answered here")

    def game_json(self, state: S) -> dict[str, Any]:
        """The game's own part of the replay state (docs/events.md)."""
        return {}

    def summary(self, state: S, lang: str = "en") -> str:
        """One line of score for the readable replay account and the pub's results, in ``lang``."""
        return ""

    def incident(self, state: S, event: Event) -> S:
        raise IllegalCall(f"{event.type} between shots: no shot is being played")

    def call(self, state: S, call: Call) -> S:
        raise IllegalCall(f"unknown call {call.call!r}")

    def close(self, state: S) -> S:
        """The last shot closes for good (the next one opens): drop what only it could use."""
        return state

    def check(self, event: Event) -> None:
        """Refuse a sensor event the game's table cannot produce (``IllegalCall``/``BadEvent``);
        called for every sensor event, before the cut (default: every event is fine)."""

    def not_a_shot(self, state: S, event: Event) -> bool:
        """True when ``event``, which the cut takes for the first of a new shot, is an incident
        by what the engine knows of the table (kegle: a pin the pin referee knocks over while
        he sets pins up). It goes to ``incident`` and the cut stays as it was. Default: never."""
        return False

    def vocabulary(self, state: S) -> Vocabulary:
        """The names the referee's calls may use (``tablesense.vocabulary``); a game whose
        profiles name things differently returns its profile's."""
        return for_game(self.game)

    def asks_live(self, event: Event) -> bool:
        """Whether the live view of a shot in progress (``live``) may ask a question at
        ``event``'s time because of it (kegle: a pocket naming no ball). ``tablesense
        replay``'s account resolves a shot's live view only at such an event (and at any
        event of the same time), not at every event of the shot: a long shot stays linear.
        Default: every event may (the live view at each)."""
        return True

    def live(self, state: S) -> S:
        """The state to show: a shot in progress resolved as if it stopped now, drops and pins
        waiting for the table's rest (``held``) taken as what they are so far, incidents."""
        if state.held:
            state = self.release(state)
        if state.in_shot and state.shot is not None and state.before is not None:
            return self._resolved(state.before, state.shot, state)  # type: ignore[arg-type]
        return state

    # --- a shot's events gathered ---------------------------------------------------
    def admit(self, state: S, gathered: Sequence[Event], event: Event) -> Event:
        """``event``, a table event other than a rest while a shot is in progress
        (``state.in_shot``), as the shot keeps it, after every check ``apply`` makes of it there
        (raising as ``apply`` would); ``gathered``: the events admitted since ``state`` and not yet
        in it (``gather``), which are part of the shot for the checks. Default: ``check``."""
        self.check(event)
        return event

    def gather(self, state: S, events: Sequence[Event], played: bool = False) -> S:
        """The state after ``events``, each admitted in turn (``admit``) to the shot in progress
        in ``state``, made at once: the same state as ``apply`` (``played``: ``play``) of each in
        turn gives, without a state per event. ``played`` needs ``room`` for them all."""
        shot = state.shot
        assert shot is not None and events
        old = shot.events
        total = len(old) + len(events)
        if type(old) is Run:  # ``Run.plus`` of each in turn
            items = old._items
            if len(items) != old._n:
                items = items[: old._n]
            items.extend(events)
            grown: Sequence[Event] = Run(items, total)
        elif total <= RUN_FROM:  # a tuple up to ``RUN_FROM`` events, as ``apply`` keeps it
            grown = (*old, *events)
        else:
            grown = Run([*old, *events], total)
        cut = state.cut
        if not cut.strikes:
            for e in events:
                if type(e) is Strike:  # the first strike: the table has a sensor
                    cut = replace(cut, strikes=True)
                    break
        if not played:
            return replace(state, shot=replace(shot, events=grown), cut=cut)
        since = state.since
        if type(since) is Trace:
            seg, n = since._seg, since._n
            items = seg[0]
            if items is not None and len(items) == n:
                items.extend(events)
                since = Trace(seg, n + len(events))
            else:
                since = Trace([[*since, *events], None], n + len(events))
        else:
            since = Trace([[*since, *events], None], len(since) + len(events))
        return replace(state, shot=replace(shot, events=grown), cut=cut, since=since)

    #: whether ``whole`` may take a shot at once (set for each engine class: the base's ``apply``
    #: or a ``whole`` of its own, as carom's and golf's); a replay asks no other engine
    takes_whole: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.takes_whole = cls.apply is ShotEngine.apply or cls.whole is not ShotEngine.whole
        cls.takes_called = cls.whole_called is not ShotEngine.whole_called
        cls.takes_held = cls.apply is ShotEngine.apply and (cls.drops or cls.pins)

    def whole(self, state: S, events: Sequence[Event], rest: Rest) -> S | None:
        """The state after a whole shot: ``events`` (table events but a rest, ``SHOT_KINDS``), the
        first opening it, and ``rest`` (the line after them) ending it; the same state as ``apply``
        of each in turn gives, made without the states between them (which nothing after the
        rest links to). None where it would not be that plain case (a shot already open, events
        held or the match over, the first event no shot's opening) or where the engine has checks
        of its own at its ``apply`` or ``admit`` (``apply`` of each then, unless the engine has a
        ``whole`` of its own: carom's); it may raise where ``apply`` would."""
        kind = type(self)
        if kind.apply is not ShotEngine.apply or (len(events) > 1 and kind.admit is not ShotEngine.admit):
            return None
        if state.in_shot or state.ended is not None:
            return None
        first = events[0]
        self.check_all(events)  # the first and each one more of the shot (``apply``'s hot path)
        cut = shot_cut(state.cut, first, rest)  # type: ignore[assignment]  (the cutter after the rest)
        if cut is None or self.not_a_shot(state, first):
            return None
        opened = self._opening(state, first) if state.held else None  # the held events join it
        if len(events) > 1 and not cut.strikes:
            for event in islice(events, 1, None):
                if type(event) is Strike:  # the first strike: the table has a sensor
                    cut = replace(cut, strikes=True)
                    break
        self.check(rest)
        if opened is None:
            return self._whole(state, tuple(events), rest, cut)
        before, held = opened
        return self._whole(state, (first, *held, *islice(events, 1, None)), rest, cut, before)

    #: whether ``held_pin`` may take a pin set up between shots (set for each engine class: the base's
    #: ``apply``, which holds it, on a table with drops or pins: keglebillard's); a replay asks no other
    takes_held: ClassVar[bool] = False

    def held_pin(self, state: S, pin: Pin) -> S | None:
        """The state ``apply(state, pin)`` gives for ``pin``, a pin set up (``state == "up"``) while no
        shot is open, where it is held (``held``: an incident, unless the next shot opens before
        its time) as the cut takes it (``Cutter.feed``: ``R_INCIDENT``, the cut closed with an incident
        open), made without the cut's call: one copy of the state. None where the cut may take it
        otherwise (a shot open; the pin one that fell in the last shot's settle and may rock back up),
        ``apply`` then; it raises where ``apply`` would (``check``)."""
        cut = self._pin_cut(state, pin)
        if cut is None:
            return None
        return replace(state, held=(*state.held, pin), cut=cut, checkpoint=state)

    def held_pin_played(self, state: S, pin: Pin) -> S | None:
        """``held_pin`` for a match played (``play``: every undo kept): the state ``play(state, pin)``
        gives, in one copy: ``held_pin``'s, with the pin added to the events since ``state``'s base
        and a ``Redo`` of ``state`` from that base as what an undo goes back to. None where it is not
        that case (``play`` then): ``held_pin`` makes none, or ``play`` keeps ``state`` whole (no base,
        ``KEEP_EVERY`` events since it); it raises where ``play`` would."""
        base, since = state.base, state.since
        if base is None or type(since) is not Trace:
            return None
        seg, n = since._seg, since._n
        if n >= KEEP_EVERY:
            return None
        cut = self._pin_cut(state, pin)
        if cut is None:
            return None
        items = seg[0]  # ``Trace.plus``, inline
        if items is not None and len(items) == n:
            items.append(pin)
            grown = Trace(seg, n + 1)
        else:
            grown = Trace([[*since, pin], None], n + 1)
        return replace(state, held=(*state.held, pin), cut=cut, checkpoint=Redo(base, since), since=grown)

    def _pin_cut(self, state: S, pin: Pin) -> Cutter | None:
        """``held_pin``'s cutter after ``pin`` (``check``ed), or None where it does not hold it."""
        if state.in_shot:
            return None
        cut = state.cut
        phase = cut.phase
        if phase == _OPEN or (phase == _SETTLING_PHASE and pin.pin in cut.settled_pins):
            return None
        self.check(pin)
        if phase != _CLOSED or cut.settle_open or not cut.incident_open:
            cut = Cutter(cut.strike_sensor, cut.window, cut.game, cut.shot, _CLOSED, cut.last_t, False, True,
                         cut.settled_pins, cut.strikes)
        return cut

    #: whether ``whole_called`` may take a shot and the call after its rest at once (an engine with
    #: a ``whole_called`` of its own: carom's); a replay looks for no such call for any other
    takes_called: ClassVar[bool] = False

    def whole_called(self, state: S, events: Sequence[Event], rest: Rest, call: Call) -> S | None:
        """``whole`` of a shot and ``apply`` of the referee's ``call`` on the line right after its
        rest, in one step: the state ``apply(whole(state, events, rest), call)`` gives, but for its
        ``checkpoint`` (what an undo of the call goes back to), which may be a ``Redo`` of ``state``
        and the shot's lines with ``applied`` set (the state after the rest, made again only if an
        undo asks for it). For a replay that ``apply``s (a bounded history), not for ``play``.
        None where the engine has no such step (the default) or it is not its plain case; it may
        raise where ``apply`` would."""
        return None

    #: whether ``whole_played`` takes the first shot of a match just set up at once (an engine
    #: whose ``whole`` keeps the set-up's state as the shot's ``checkpoint``: golf's, keglebillard's)
    first_whole_played: ClassVar[bool] = False

    def _first_whole_played(self, state: S, events: Sequence[Event], rest: Rest) -> S | None:
        """``whole_played`` of the first shot of a match just set up (the state ``new_state`` gave:
        kept whole by no ``play`` yet, no state before it): ``play`` of its first event keeps that
        state whole (the base of the played states after it, and what an undo of the shot goes back
        to) and the shot's events and rest are the events since it, so the state after the rest is
        ``whole``'s with those links. A recorded log sets a match up every ten to twenty lines: its
        first shot played event by event cost two states."""
        new = self.whole(state, events, rest)
        if new is None or new.checkpoint is not state:
            return None
        return replace(new, base=state, since=Trace([[*events, rest], None], len(events) + 1))

    def whole_played(self, state: S, events: Sequence[Event], rest: Rest) -> S | None:
        """``whole`` for a match played (``play``: every undo kept): the state ``play`` of each event
        in turn gives, where the shot is that plain case for ``play`` too: ``state``'s base takes
        the shot's events and rest in its ``since`` (no state kept whole inside the shot: ``room``),
        and the state before the shot is ``state`` closed (its own ``before`` kept; cut first as
        ``play`` cuts it at the shot's opening, ``_shallow``, where it is that deep). Then ``play``'s links
        are those of ``whole``'s state: the undo goes back to ``state`` (a ``Redo`` from its base),
        and the events since the base are ``state``'s and the shot's. None where it is not that
        case (``play`` of each then); it may raise where ``apply`` would."""
        base, since = state.base, state.since
        if base is None:
            if (self.first_whole_played and state.before is None and not since
                    and type(since) is tuple):
                return self._first_whole_played(state, events, rest)
            return None
        if type(since) is not Trace:
            return None
        n = since._n
        count = n + len(events) + 1
        if count > KEEP_EVERY:
            return None
        # ``play`` cuts the states before the shot at its opening: as it does, first (``_shallow``)
        if BEFORE_DEPTH != 4:
            given = _shallow(state)
        else:  # (``_eight_deep``'s walk, inline: the chain cut where it is eight states deep or more)
            node = state.before
            given = state if (node is None or (node := node.before) is None or (node := node.before) is None
                              or (node := node.before) is None or (node := node.before) is None
                              or (node := node.before) is None or (node := node.before) is None
                              or node.before is None) else _cut_before(state)
        new = self.whole(given, events, rest)
        if new is None:
            return None
        before = new.before
        if before is None or before.before is not given.before:
            return None
        seg = since._seg  # ``Trace.plus`` of each event and the rest
        items = seg[0]
        if items is not None and len(items) == n:
            items.extend(events)
            items.append(rest)
            grown = Trace(seg, count)
        else:
            grown = Trace([[*since, *events, rest], None], count)
        return replace(new, base=base, since=grown, checkpoint=Redo(base, since))

    def whole_called_played(self, state: S, events: Sequence[Event], rest: Rest, call: Call) -> S | None:
        """``whole_called`` for a match played (``play``: every undo kept): the state ``play`` of the
        call gives after ``whole_played`` of the shot, in one step (the shot decided once, with the
        call). ``play`` of the call keeps the state after the rest as a ``Redo`` from the base (the
        events since it through the rest: played again only if an undo asks for it), so the step
        keeps the same ``Redo`` and adds the call to the events since the base. None where it is not
        that case (``whole_played`` of the shot then, ``play`` of the call): the state after the
        rest one the call would keep whole (``KEEP_EVERY`` events since the base), or no such step
        (``whole_called``); it may raise where ``apply`` would."""
        base, since = state.base, state.since
        if base is None or type(since) is not Trace or since._n + len(events) + 2 > KEEP_EVERY:
            return None
        # ``play`` cuts the states before the shot at its opening: as it does, first (``_shallow``)
        if BEFORE_DEPTH != 4:
            given = _shallow(state)
        else:  # (``_eight_deep``'s walk, inline: the chain cut where it is eight states deep or more)
            node = state.before
            given = state if (node is None or (node := node.before) is None or (node := node.before) is None
                              or (node := node.before) is None or (node := node.before) is None
                              or (node := node.before) is None or (node := node.before) is None
                              or node.before is None) else _cut_before(state)
        new = self.whole_called(given, events, rest, call)
        if new is None:
            return None
        before = new.before
        if before is None or before.before is not given.before:
            return None
        seg, n = since._seg, since._n  # ``Trace.plus`` of each event, the rest and the call
        items = seg[0]
        count = n + len(events) + 1
        if items is not None and len(items) == n:
            items.extend(events)
            items.append(rest)
            items.append(call)
        else:
            seg = [[*since, *events, rest, call], None]
        return replace(new, base=base, since=Trace(seg, count + 1), checkpoint=Redo(base, Trace(seg, count)))

    def _whole(self, state: S, events: tuple[Event, ...], rest: Rest, cut: Cutter,
               before: S | None = None) -> S:
        """``whole`` once the events are checked and ``cut`` is the cutter after the shot's rest
        (``before``: the state before the shot, when it opened with events held: ``_open``)."""
        if before is None:
            before = self.close(state) if state.shot is not None else state
        shot = ShotRecord(player=before.at_table, events=events, rest=rest)
        if len(events) > 1:  # (a shot of one event: nothing came before its start)
            strikes = cut.strikes or cut.strike_sensor
            if self.pins or (strikes and self.drops):
                before, shot = self._before_shot(before, shot, strikes)
        return self.staged(before, shot, cut, state)

    def check_all(self, events: Sequence[Event]) -> None:
        """``check`` of each of ``events`` (a whole shot's: ``whole``); an engine may check them in
        one loop."""
        check = self.check
        for event in events:
            check(event)

    def staged(self, before: S, shot: ShotRecord, cut: Cutter, checkpoint: S) -> S:
        """The state after ``shot``, whole and at rest, played from ``before``, with the shot stage's
        fields (``before``, ``shot``, ``cut``, not in a shot, ``checkpoint``) put in (``whole``); an
        engine may put them in the same copy as its own."""
        return self._resolved(before, shot, checkpoint, cut=cut, in_shot=False, checkpoint=checkpoint)

    @staticmethod
    def room(state: MatchState, played: bool = False) -> int:
        """How many events ``gather`` may take into ``state`` (``played``: as ``play``, which
        keeps a whole state once per ``KEEP_EVERY`` events: up to the next such state)."""
        if not played:
            return KEEP_EVERY
        if state.base is None:
            return 0
        return KEEP_EVERY - len(state.since)

    # --- the shared interface ---------------------------------------------------
    def apply(self, state: S, event: Event) -> S:
        kind = type(event)
        if state.in_shot and kind is not Rest and kind is not Call and kind is not Setup:
            # the hot path: in a shot every event but its rest is one more of the shot
            # (``Cutter.feed``: ``Role.PLAY``, the cutter unchanged); ``in_shot`` is the
            # cutter's ``in_shot``, kept so (tests/rules/test_shot_engine.py)
            self.check(event)
            shot = state.shot
            events = shot.events  # type: ignore[union-attr]
            if type(events) is tuple and len(events) < RUN_FROM:
                events = (*events, event)
            else:
                events = Run.plus(events, event)
            if kind is Strike and not state.cut.strikes:  # the first strike: the table has a sensor
                return replace(state, shot=replace(shot, events=events),  # type: ignore[arg-type]
                               cut=replace(state.cut, strikes=True))
            return replace(state, shot=replace(shot, events=events))  # type: ignore[arg-type]
        if isinstance(event, Call):
            return self._call(self.release(state) if state.held else state, event)
        if isinstance(event, Setup):
            raise IllegalCall("a match is already set up; a new 'setup' starts a new match")
        self.check(event)
        role, cut = state.cut.feed(event)
        if role is R_INCIDENT and (self.drops or self.pins) and (
                kind in _HELD if cut.strikes or cut.strike_sensor else kind is Pin):
            # no shot's, unless a shot listed after it came before it (a table with no drops nor
            # pins, carom's, holds none: what its ``incident`` refuses is refused when it comes)
            return replace(state, held=(*state.held, event), cut=cut, checkpoint=state)
        hands = role is R_OPEN and self.not_a_shot(state, event)
        if state.held and (role is not R_OPEN or state.finished or hands):
            state = self.release(state)  # the rest, a call, the referee's hands: incidents
        if role is R_PLAY:
            shot = state.shot
            assert shot is not None
            return replace(state, shot=replace(shot, events=Run.plus(shot.events, event)), cut=cut)
        if state.finished:
            if role is R_SETTLE and state.shot is not None:
                return self._settle(state, event, cut)
            if role is R_INCIDENT:
                return replace(self.incident(state, event), cut=cut, checkpoint=state)
            if isinstance(event, Rest):
                return state
            raise IllegalCall(f"the match is over ({self.result_text(state)}); no more {event.type} events")
        if role is R_REST:
            shot = state.shot
            before = state.before
            assert shot is not None and before is not None
            shot = replace(shot, rest=event, events=tuple(shot.events))
            strikes = cut.strikes or cut.strike_sensor
            if self.pins or (strikes and self.drops):
                before, shot = self._before_shot(before, shot, strikes)
            return self._resolved(before, shot, state, cut=cut, in_shot=False)
        if role is R_OPEN:
            if hands:
                return replace(self.incident(state, event), checkpoint=state)
            if state.held:
                return self._open(state, event, cut)
            before = self.close(state) if state.shot is not None else state
            shot = ShotRecord(player=before.at_table, events=(event,))
            return replace(before, shot=shot, before=before, cut=cut, in_shot=True, checkpoint=state)
        if role is R_EMPTY:
            before = self.close(state) if state.shot is not None else state
            shot = ShotRecord(player=before.at_table, rest=event)  # type: ignore[arg-type]
            return self._resolved(before, shot, state, cut=cut, in_shot=False, checkpoint=state)
        if role is R_SETTLE:
            if state.shot is None:
                return replace(state, cut=cut)
            return self._settle(state, event, cut)
        # an incident between shots
        new = self.incident(state, event)
        if new is state and cut is state.cut:
            return state
        return replace(new, cut=cut, checkpoint=state)

    def amend(self, state: S, call: Call) -> S:
        """``state`` with the last shot resolved again with ``call`` about it."""
        shot, before = state.shot, state.before
        if shot is None or before is None:
            raise IllegalCall(f"no shot yet for the call {call.call!r}")
        return self._resolved(before, replace(shot, calls=(*shot.calls, call)), state)  # type: ignore[arg-type]

    def release(self, state: S) -> S:
        """``state`` with its held drops and pins (``held``) applied as incidents, in log order."""
        new = state
        for event in state.held:
            new = self.incident(new, event)
        return replace(new, held=(), checkpoint=state.checkpoint)

    def play(self, state: S, event: Event) -> S:
        """``apply`` for a match whose every undo stays possible (a live table): what an undo
        goes back to is kept as the events since a state kept whole, one every ``KEEP_EVERY``
        events (``Redo``), and rebuilt from those when an undo asks for it, instead of a whole
        state per step; the states before the shots are kept ``BEFORE_DEPTH`` deep. The states
        are the same as ``apply``'s, but for these links: a match is either played or applied,
        every event of it the same way (issue 27: memory, docs/design.md "Undo's chain")."""
        new = self.apply(state, event)
        if new is state:
            return state
        if type(event) is Call and canonical(self.vocabulary(state), event).call == "undo":
            return new  # the state undone to, with its own events since its base
        base, since = state.base, state.since
        checkpoint = new.checkpoint
        # (a ``Trace``'s length read without its ``__len__``'s frame: once per event)
        if base is None or (since._n if type(since) is Trace else len(since)) >= KEEP_EVERY:  # kept whole
            if type(since) is Trace:
                since.seal()
            kept = state
            if state.before is not None:  # kept with its states before shots no deeper than needed
                kept = replace(state, before=_shallow(state.before, 0))
            base, since = kept, Trace.start(event)
            if checkpoint is state:
                checkpoint = kept
        else:
            if checkpoint is state:
                checkpoint = Redo(base, since)
            if type(since) is Trace:  # ``Trace.plus``, inline: once per event
                seg, n = since._seg, since._n
                items = seg[0]
                if items is not None and len(items) == n:
                    items.append(event)
                    since = Trace(seg, n + 1)
                else:
                    since = since.plus(event)
            else:
                since = Trace([[*since, event], None], len(since) + 1)
        before = new.before
        if before is not None and before is not state.before:  # a shot opened: cut deep links
            before = _shallow(before)
        return replace(new, base=base, since=since, checkpoint=checkpoint, before=before)

    def redo(self, redo: Redo) -> S:
        """The state ``redo`` stands for: its events played again from its base."""
        state: S = redo.base  # type: ignore[assignment]
        step = self.apply if redo.applied else self.play
        for event in redo.events:
            state = step(state, event)
        return state

    # --- inside ---------------------------------------------------------------------
    def _open(self, state: S, event: Event, cut: Cutter) -> S:
        """A new shot opens with ``event``. The events held before it (``held``) go into it for
        now: at its rest, those that came before it are taken out again (``_before_shot``)."""
        before, held = self._opening(state, event)
        shot = ShotRecord(player=before.at_table, events=(event, *held))
        return replace(before, shot=shot, before=before, cut=cut, in_shot=True, checkpoint=state)

    def _opening(self, state: S, event: Event) -> tuple[S, tuple[Event, ...]]:
        """``_open``'s state before the shot (the held events that came before a strike released,
        the last shot closed) and the held events the shot takes after ``event``."""
        held = state.held
        if held:
            if type(event) is Strike:  # the shot's start is known: what came before it is no part of it
                t = event.t
                for e in held:
                    if e.t >= t:
                        state = self.release(replace(state, held=tuple([e for e in held if e.t < t])))
                        held = tuple([e for e in held if e.t >= t])
                        break
                else:  # the common case: the pins set up before the strike
                    state, held = self.release(state), ()
            else:
                state = replace(state, held=())
        return (self.close(state) if state.shot is not None else state), held

    def _before_shot(self, before: S, shot: ShotRecord, strikes: bool) -> tuple[S, ShotRecord]:
        """``t`` orders a shot's events, whatever their order in the log: what could not open it
        and came before its start is no part of it, but incidents before it. On a table that
        reports strikes, the start is the strike (or, without one, the first ball seen rolling)
        and the drops and pins before it are taken out; on one that does not, the start is its
        first event that could open it, and the pins set up before it are taken out."""
        events = shot.events
        start: float | None = None
        if strikes:
            first = events[0] if events else None
            if type(first) is Strike:  # the common shot: opened by its strike, nothing before it
                start = first.t  # type: ignore[union-attr]
                for e in events:
                    if e.t < start:
                        break
                else:
                    return before, shot
                start = None
            for e in events:
                if type(e) is Strike and (start is None or e.t < start):
                    start = e.t
            if start is None:
                start = min([e.t for e in events if type(e) in _ROLLING], default=None)
            if start is None:
                return before, shot
            early = [e for e in events if e.t < start and type(e) in _HELD]
        else:
            for e in events:
                if type(e) is Pin and e.state == "up":  # type: ignore[attr-defined]
                    break
            else:
                return before, shot  # the common shot: no pin set up, nothing it could give back
            for e in events:
                if (type(e) is not Pin or e.state != "up") and (start is None or e.t < start):  # type: ignore[attr-defined]
                    start = e.t
            if start is None:
                return before, shot
            early = [e for e in events if e.t < start and type(e) is Pin and e.state == "up"]  # type: ignore[attr-defined]
        if not early:
            return before, shot
        for e in early:
            before = self.incident(before, e)
        return before, replace(shot, events=tuple([e for e in events if e.t >= start or e not in early]))

    def _settle(self, state: S, event: Event, cut: Cutter) -> S:
        shot, before = state.shot, state.before
        assert shot is not None and before is not None
        if isinstance(event, Rest):
            return replace(state, cut=cut)  # the rest the table reports after a late settle
        shot = replace(shot, late=(*shot.late, event))
        return self._resolved(before, shot, state, cut=cut, checkpoint=state)  # type: ignore[arg-type]

    def _resolved(self, before: S, shot: ShotRecord, now: S, *, cut: Cutter | None = None,
                  in_shot: bool | None = None, checkpoint: Any = ...) -> S:
        """``resolve(before, shot)`` carrying the shot stage's own fields over from ``now``."""
        if type(shot.events) is Run:  # a shot in progress (live, a call about it): a tuple to resolve
            shot = frozen(shot)
        new = self.resolve(before, shot)
        return replace(new, before=before, shot=shot, cut=now.cut if cut is None else cut,
                       in_shot=now.in_shot if in_shot is None else in_shot,
                       checkpoint=now.checkpoint if checkpoint is ... else checkpoint)

    def _call(self, state: S, event: Call) -> S:
        event = canonical(self.vocabulary(state), event)  # the input edge: canonical ids only
        if event.call == "undo":
            back = state.checkpoint
            if back is None:
                raise IllegalCall("nothing to undo")
            if type(back) is Redo:
                return self.redo(back)
            return back  # type: ignore[return-value]
        if event.call == "answer":
            return self._answer(state, event)
        new = self.call(state, event)
        if new is AMEND:
            if type(self).amend is not ShotEngine.amend:
                return replace(self.amend(state, event), checkpoint=state)
            # the base's ``amend``, what an undo goes back to put in its copy (not one copy more)
            shot, before = state.shot, state.before
            if shot is None or before is None:
                raise IllegalCall(f"no shot yet for the call {event.call!r}")
            return self._resolved(before, replace(shot, calls=(*shot.calls, event)), state,  # type: ignore[arg-type]
                                  checkpoint=state)
        if new is state:
            return state
        return replace(new, checkpoint=state)

    def _answer(self, state: S, event: Call) -> S:
        """The referee's answer to an open question (``event.question``, its id; an unknown
        id is an ``IllegalCall``): the question closes and ``on_answer`` takes the answer."""
        q, answer = self.asked(state, event)
        rest = tuple(x for x in state.questions if x.id != q.id)
        closed = replace(state, questions=rest)
        new = self.on_answer(closed, q, answer, event)
        return replace(new, checkpoint=state)

    @staticmethod
    def asked(state: S, event: Call) -> tuple[Question, Any]:
        """The open question ``event`` answers and its answer as one of the question's options; an
        unknown id, or an answer that is none of them, is an ``IllegalCall``."""
        for q in state.questions:
            if q.id == event.question:
                break
        else:
            open_ids = ", ".join(q.id for q in state.questions) or "none"
            raise IllegalCall(f"no open question {event.question!r} (open: {open_ids})")
        answer = as_option(event.answer, q.options)
        if q.options and answer not in q.options:
            raise IllegalCall(
                f"answer to {q.id} must be one of {list(q.options)!r}, not {event.answer!r}"
            )
        return q, answer

    # --- helpers for engines --------------------------------------------------------
    @staticmethod
    def rule(state: S, t: float, rule: str, player: str | None = None, **data: Any) -> S:
        ruling = Ruling(t=t, rule=rule, player=player, data=tuple(data.items()))
        return replace(state, rulings=state.rulings + (ruling,))

    @staticmethod
    def ask(state: S, t: float, rule: str, options: tuple[Any, ...] = (True, False),
            player: str | None = None, **data: Any) -> S:
        n = state.asked + 1
        q = Question(id=f"q{n}", t=t, rule=rule, options=options, player=player,
                     data=tuple(data.items()))
        return replace(state, questions=(*state.questions, q), asked=n)

    @staticmethod
    def end(state: S, winner: str | None, rule: str, **data: Any) -> S:
        """``state`` with the match over: who won (``"draw"``: nobody), by which rule, why
        (``ended``, the one record of it). ``at_table`` stays who played last (docs/events.md)."""
        return replace(state, ended=Ended(rule=rule, winner=winner, data=tuple(data.items())))

    @staticmethod
    def result_text(state: Any, lang: str = "en") -> str:
        """How the match ended (or that it is in play), in ``lang``; the players by their ids,
        as the log names them (``web.pages.named`` puts the names in for the pub's pages)."""
        if not state.finished:
            return phrase("result:in-play", {"side": state.at_table}, lang)
        if state.winner == "draw":
            return phrase("result:draw", {}, lang)
        if state.winner:
            return phrase("result:won", {"winner": state.winner}, lang)
        return phrase("result:finished", {}, lang)

    # --- output ---------------------------------------------------------------------
    def to_json(self, state: S, lang: str = "en") -> dict[str, Any]:
        """The replay state of docs/events.md (sentences in ``lang``), a shot in progress
        shown as if it stopped now (``live``)."""
        return self.shown_json(self.live(state), lang)

    def shown_json(self, shown: S, lang: str = "en") -> dict[str, Any]:
        """``to_json`` of a state already as shown (``live``): a shot in progress is not
        resolved again."""
        names = player_names(shown)
        out: dict[str, Any] = {
            "game": shown.game,
            "finished": shown.finished,
            "winner": shown.winner,
            "at_table": shown.at_table,
            "rulings": [r.to_dict(names, lang) for r in shown.rulings],
            "questions": [q.to_dict(names, lang) for q in shown.questions],
        }
        out.update(self.game_json(shown))
        if shown.ended is not None:
            out["ended"] = shown.ended.to_dict()
        return out
