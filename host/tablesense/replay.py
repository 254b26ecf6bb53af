"""Replay a match log: table events in, the match state out.

``Replay`` feeds events one at a time to the engine chosen by the ``setup`` event.
A line that is malformed (``BadEvent``) or impossible in the current state
(``IllegalCall``) is recorded as an error naming the line, and replay goes on with
the next one: one bad line never loses the rest of the match. One problem is one
error: a set-up that cannot be taken is named once, and the events of its match after
it are skipped without a line each (so are events before any set-up); a clock that runs
backwards (``log_checks.TimeOrder``) is named once a match, its events still applied.
Every error is one line of at most ``log_checks.MAX_MESSAGE`` characters.
"""

from __future__ import annotations

import codecs
import gc
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, islice, starmap
from operator import attrgetter, itemgetter, methodcaller
from typing import Any

import msgspec

from .errors import BadEvent, TablesenseError
from .events import SENSOR_KINDS, Call, Event, Pin, Rest, Setup, parse_batch, parse_line
from .frozen import Record
from .log_checks import MAX_ECHO, MAX_MESSAGE, TimeOrder, clip
from .rules import MatchState, ShotEngine, find_engine
from .rules.base import REGISTERED as _ENGINES
from .rules.shot_engine import KEEP_EVERY, SHOT_KINDS


class LineError(msgspec.Struct, frozen=True):
    line: int
    error: str
    text: str = ""

    @classmethod
    def of(cls, line: int, error: str, text: str = "") -> LineError:
        """An error fit to print in one line, quoting at most the start of the line."""
        return cls(line, clip(error, MAX_MESSAGE), clip(text.strip(), MAX_ECHO) if text else "")

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "error": clip(self.error, MAX_MESSAGE)}

    def __str__(self) -> str:
        return f"line {self.line}: {clip(self.error, MAX_MESSAGE)}"


class Replay(Record):
    """A match being replayed (or played live): the engine, the state, the errors. Written
    out (``frozen.Record``: compared and shown as a dataclass), not ``@dataclass``: that
    compiles its methods at every start-up."""

    __slots__ = _fields = ("engine", "state", "errors", "events", "history", "order", "skipping", "skipped")

    engine: ShotEngine[Any] | None
    state: MatchState | None
    errors: list[LineError]
    events: int
    #: how far back (in links between states) older states stay reachable; None: all
    #: the way (a live table, where the referee may undo any number of times: the engine
    #: ``play``s each event, keeping what an undo goes back to as the events since a state
    #: kept whole). A whole log's replay knows how many undos it holds (``history_for``),
    #: ``apply``s each event and keeps no more than they could reach: memory stays flat.
    history: int | None
    #: whether the table's clock ran backwards in this match (said once a match)
    order: TimeOrder
    #: the line whose error covers the events now skipped (a set-up that could not be
    #: taken, or the first event before any set-up); None when none are skipped
    skipping: int | None
    #: events skipped under that error, without a line each
    skipped: int

    def __init__(self, engine: ShotEngine[Any] | None = None, state: MatchState | None = None,
                 errors: list[LineError] | None = None, events: int = 0, history: int | None = None,
                 order: TimeOrder | None = None, skipping: int | None = None, skipped: int = 0) -> None:
        self.engine, self.state, self.events, self.history = engine, state, events, history
        self.errors = [] if errors is None else errors
        self.order = TimeOrder() if order is None else order
        self.skipping, self.skipped = skipping, skipped

    def apply(self, event: Event) -> MatchState:
        """Apply one event; raises ``TablesenseError`` and leaves the state as it was."""
        if isinstance(event, Setup):
            engine = find_engine(event.game)
            state = engine.new_state(event)
            self.engine, self.state = engine, state
            self.skipping = None
        else:
            if self.engine is None or self.state is None:
                raise NoSetup(f"{event.type} event before any 'setup' event")
            if self.history is None:  # a live table: every undo kept, as events (``play``)
                self.state = self.engine.play(self.state, event)
            else:
                self.state = self.engine.apply(self.state, event)
        self.events += 1
        if self.history is not None and self.events % TRIM_EVERY == 0:
            trim_history(self.state, self.history)
        return self.state

    def feed_line(self, text: str, line: int) -> bool:
        """Apply one JSONL line; a bad line is recorded in ``errors``. True if applied."""
        if not text.strip():
            return False
        try:
            event = parse_line(text)
            self.apply(event)
        except TablesenseError as exc:
            self.refused(line, text, str(exc), isinstance(exc, NoSetup))
            return False
        self.timed(event, line)
        return True

    def refused(self, line: int, text: str, problem: str, no_setup: bool = False) -> LineError | None:
        """Record that ``line`` could not be applied; the error, or None when an earlier
        error covers it (the match's set-up was refused, or no set-up came yet).

        A set-up refused leaves no match to apply the events after it to: they are skipped,
        under its error, until a set-up is taken (``replay`` reports the last match: a
        match that cannot be refereed, not the one before it)."""
        if no_setup and self.skipping is not None:
            self.skipped += 1
            return None
        if '"setup"' in text and _is_setup(text):
            self.engine = self.state = None
            self.skipping = line
            problem += "; its match's events are skipped until a set-up that can be taken"
        elif no_setup:
            self.skipping = line
            problem += " (the events until one are skipped, not named each)"
        err = LineError.of(line, problem, text)
        self.errors.append(err)
        return err

    def timed(self, event: Event, line: int) -> LineError | None:
        """Check an applied event's time against the shot before (``TimeOrder``); the error
        the first time in a match that the clock runs backwards."""
        problem = self.order.see(event.type, event.t)
        if problem is None:
            return None
        err = LineError.of(line, problem)
        self.errors.append(err)
        return err

    def feed_lines(self, lines: Iterable[str]) -> Replay:
        """``feed_line`` over a whole log, its void records applied (``effective_lines``).

        A log with no void record (no line names ``"void"``) and no blank line (nearly every
        one) is fed in batches of its own lines, numbered by a ``range``: what
        ``feed_counted(effective_lines(lines))`` does, without ``scan_log``'s Python step a line
        and a pair a line (two C passes over the lines instead)."""
        kept = lines if type(lines) is list else list(lines)
        if _lines_may_void(kept) or "" in kept or any(map(str.isspace, kept)):
            return self.feed_counted(effective_lines(kept))
        paused = gc.isenabled()
        if paused:  # (as ``feed_counted``)
            gc.disable()
        try:
            numbers = range(1, len(kept) + 1)
            at, size = 0, len(kept)
            while at < size:
                end = _batch_end(kept, at, size)
                self._feed_batch(numbers[at:end], kept[at:end], None, False)
                at = end
        finally:
            if paused:
                gc.enable()
        return self

    def feed_counted(self, lines: Iterable[tuple[int, str]],
                     on_error: Callable[[LineError], object] | None = None, guard: bool = False) -> Replay:
        """Apply the lines that count (``effective_lines``, ``effective_stream``: number, text).

        The loop of a whole replay: the engine's ``apply`` is called straight for every
        event but a set-up, with the same errors and history trimming as ``apply``. Each
        error recorded is also handed to ``on_error``. ``guard``: a line that is not UTF-8
        (kept as surrogates) is refused with its column, and an engine that fails on a line
        with anything but a ``TablesenseError`` costs that line only (``tablesense replay``)."""
        paused = gc.isenabled()
        if paused:  # a replay makes no reference cycles: the collector would only walk the states
            gc.disable()
        try:
            return self._feed_counted(lines, on_error, guard)
        finally:
            if paused:
                gc.enable()

    def feed_chunks(self, chunks: Iterable[bytes], on_error: Callable[[LineError], object] | None = None,
                    guard: bool = False) -> Replay:
        """``feed_counted(counted_lines(chunks), on_error, guard)``: a log with no void record read
        as bytes in chunks, its lines cut a chunk at a time (``chunk_lines``), not a pair a line."""
        paused = gc.isenabled()
        if paused:
            gc.disable()
        try:
            for numbers, texts, ascii in _chunk_parts(chunks):
                at, size = 0, len(texts)
                while at < size:
                    end = _batch_end(texts, at, size)
                    self._feed_batch(numbers[at:end], texts[at:end], on_error, guard, ascii, True)
                    at = end
        finally:
            if paused:
                gc.enable()
        return self

    def _feed_counted(self, lines: Iterable[tuple[int, str]], on_error: Callable[[LineError], object] | None,
                      guard: bool) -> Replay:
        stream = iter(lines)
        while chunk := list(islice(stream, BATCH)):
            self._feed_batch(list(map(_NUMBER, chunk)), list(map(_TEXT, chunk)), on_error, guard)
        return self

    def _feed_batch(self, numbers: Sequence[int], texts: list[str],
                    on_error: Callable[[LineError], object] | None, guard: bool, ascii: bool = False,
                    cut: bool = False) -> None:
        """One batch of lines (their numbers, their texts), decoded together (``parse_batch``, which
        gives each one's kind as a letter of ``codes`` too); ``ascii``: the lines are known to be ASCII,
        ``cut``: to hold no newline (cut from a chunk at its newlines: ``_chunk_parts``)."""
        # ``guard``: a line that is not ASCII may not be UTF-8 (``text_problem``); a batch of
        # ASCII lines (nearly every one) needs no test a line
        plain = not guard or ascii or "".join(texts).isascii()
        parsed, codes = parse_batch(texts, cut)
        self._feed_chunk(numbers, texts, parsed, codes, on_error, guard, self.order, self.history, plain)

    def _feed_chunk(self, numbers: Sequence[int], texts: list[str], parsed: list[Event | None], codes: str,
                    on_error: Callable[[LineError], object] | None, guard: bool, order: TimeOrder,
                    history: int | None, plain: bool) -> None:
        """The replay's loop over one batch of lines (their numbers and texts), their events decoded
        together (``parse_lines``: None where a line goes through ``parse_line`` alone) and each one's kind
        as a letter of ``codes`` (``events.kind_codes``); ``plain``: every line is ASCII, or ``guard`` is off
        (no line needs ``text_problem``).

        While a shot is in progress, its events that only add to it (every table event but its
        rest: ``SHOT_KINDS``) are checked one by one (the engine's ``admit``) and gathered, and
        the state after them is made once (``gather``) before anything else is applied, an
        error is recorded or the batch ends: the same state as one per event. A shot from its
        first event to its rest in this batch is taken at once where the engine can
        (``ShotEngine.whole``; a match played, every undo kept: ``whole_played``), the lines
        between them not visited one by one; with the referee's call on the line after its rest
        where the engine can (``ShotEngine.whole_called``; played: ``whole_called_played``); and a
        pin set up between shots held in one step (``ShotEngine.held_pin``; played:
        ``held_pin_played``).

        The engine's steps are looked up once and again only where the engine changes (a set-up,
        an error: ``_steps``), and the events' count is checked against the next one at which the
        history is trimmed (``trim_at``), not divided at every step."""
        played = history is None
        every = TRIM_EVERY
        gathered: list[Event] = []
        engine, room = self.engine, self._room(played)  # room: how many more may be gathered (0: no shot)
        # the engine's whole shot (``whole``, ``whole_played``), its shot and the call after its rest
        # (``whole_called``, ``whole_called_played``: the engine having the step) and its pin set up
        # between shots (``held_pin``, ``held_pin_played``), each None where the engine has no such step
        take, called, hold = _steps(engine, played)
        if called is not None and "x" not in codes:  # no call in the batch (a long match's, mostly): no
            called = None  # line after a rest to look at for one
        # the count of events at which the history is trimmed next (``TRIM_EVERY``; never when played)
        trim_at = _NEVER if played else (self.events // every + 1) * every
        count = len(texts)
        k = -1
        while k + 1 < count:
            k += 1
            pre = parsed[k]
            kind = type(pre)
            if kind in SHOT_KINDS:
                if room > 0 and (plain or texts[k].isascii()):
                    try:
                        gathered.append(engine.admit(self.state, gathered, pre))  # type: ignore[union-attr, arg-type]
                    except Exception:  # refused: the slow way below says why, as ever
                        room = 0
                    else:
                        room -= 1
                        floor = order.floor
                        if floor is not None and pre.t < floor:  # type: ignore[union-attr]
                            self.state = engine.gather(self.state, gathered, played)  # type: ignore[union-attr, arg-type]
                            gathered = []
                            late = self.timed(pre, numbers[k])  # type: ignore[arg-type]
                            if late is not None and on_error is not None:
                                on_error(late)
                        self.events = now = self.events + 1
                        if now >= trim_at:
                            if gathered:
                                self.state = engine.gather(self.state, gathered, played)  # type: ignore[union-attr, arg-type]
                                gathered = []
                            trim_history(self.state, history)  # type: ignore[arg-type]
                            trim_at = (now // every + 1) * every
                        continue
                if gathered:
                    self.state = engine.gather(self.state, gathered, played)  # type: ignore[union-attr, arg-type]
                    gathered = []
                if room == 0 and take is not None:
                    # a shot from its first event to its rest, at once (``ShotEngine.whole``): where
                    # it comes to rest in this batch (``_shot_end``; its common case inline: one
                    # event and its rest)
                    floor = order.floor
                    end = 0
                    if kind is not Pin or pre.state != "up":  # type: ignore[union-attr]  (a pin set up opens none)
                        j = k + 1
                        if j < count and type(parsed[j]) is Rest:
                            if (floor is None or pre.t >= floor) \
                                    and (plain or (texts[k].isascii() and texts[j].isascii())):  # type: ignore[union-attr]
                                end = j
                        elif j + 1 < count and type(parsed[j + 1]) is Rest \
                                and type(second := parsed[j]) in SHOT_KINDS:
                            # (``_shot_end`` of a shot of two events and its rest, inline)
                            if (floor is None or (pre.t >= floor and second.t >= floor)) \
                                    and (plain or "".join(texts[k:j + 1]).isascii()):  # type: ignore[union-attr]
                                end = j + 1
                        else:
                            end = _shot_end(texts, parsed, codes, k, not plain, floor)
                    elif hold is not None and (floor is None or pre.t >= floor) \
                            and (plain or texts[k].isascii()):  # type: ignore[union-attr]
                        # a pin set up between shots, held in one step (``ShotEngine.held_pin``)
                        try:
                            new = hold(self.state, pre)  # type: ignore[arg-type]
                        except Exception:  # refused: the slow way below says why, as ever
                            new = None
                        if new is not None:
                            self.state = new
                            self.events = now = self.events + 1
                            if now >= trim_at:
                                trim_history(new, history)  # type: ignore[arg-type]
                                trim_at = (now // every + 1) * every
                            continue
                    if end:
                        rest = parsed[end]
                        if called is not None and end + 1 < count and type(call := parsed[end + 1]) is Call:
                            # the referee's call on the line after the rest, with the shot in one step
                            # (``ShotEngine.whole_called``) where no clock check can say anything of
                            # either line (``TimeOrder``: the rest not before the floor, the call not
                            # before the rest) and both are plain; else the shot alone, the call after
                            t, j = rest.t, end + 1  # type: ignore[union-attr]
                            if (floor is None or t >= floor) and call.t >= t \
                                    and (plain or (texts[end].isascii() and texts[j].isascii())):
                                try:
                                    new = called(self.state, parsed[k:end], rest, call)  # type: ignore[arg-type]
                                except Exception:  # refused: the shot alone, as below
                                    new = None
                                if new is not None:
                                    self.state = new
                                    order.floor, order.what = t, "rest"  # (``TimeOrder.see`` of both)
                                    self.events = now = self.events + j - k + 1
                                    if now >= trim_at:
                                        trim_history(new, history)  # type: ignore[arg-type]
                                        trim_at = (now // every + 1) * every
                                    k = j
                                    continue
                        try:
                            new = take(self.state, parsed[k:end], rest)  # type: ignore[arg-type]
                        except Exception:  # refused: the slow way below says why, as ever
                            new = None
                        if new is not None:
                            self.state = new
                            t = rest.t  # type: ignore[union-attr]
                            if floor is not None and t < floor:  # (``timed``) the clock may have run back
                                problem = order.see("rest", t)
                                if problem is not None:
                                    late = LineError.of(numbers[end], problem)
                                    self.errors.append(late)
                                    if on_error is not None:
                                        on_error(late)
                            else:  # ``TimeOrder.see`` of a rest in time: it sets the floor
                                order.floor, order.what = t, "rest"
                            self.events = now = self.events + end - k + 1
                            if now >= trim_at:
                                trim_history(new, history)  # type: ignore[arg-type]
                                trim_at = (now // every + 1) * every
                            k = end
                            continue
            else:
                if gathered:
                    self.state = engine.gather(self.state, gathered, played)  # type: ignore[union-attr, arg-type]
                    gathered = []
                if pre is None and texts[k].isspace():  # a blank line (``counted_lines`` lets them by)
                    continue
            n, text = numbers[k], texts[k]
            try:
                if not plain and not text.isascii() and (bad := text_problem(text)) is not None:
                    raise BadEvent(bad)
                event = parse_line(text) if pre is None else pre
                if type(event) is Setup:  # a new match: ``apply`` and ``timed`` of a set-up, inline
                    game = event.game  # type: ignore[attr-defined]
                    if engine is None or type(engine) is not _ENGINES.get(game):
                        engine = find_engine(game)
                        take, called, hold = _steps(engine, played)
                    # (else the engine of the last match, the one ``find_engine`` makes again: an engine
                    # is stateless, and its steps stay bound)
                    self.state = engine.new_state(event)
                    self.engine, self.skipping = engine, None
                    order.floor, order.what, order.said = event.t, "setup", False  # (``TimeOrder.see``)
                    room = 0
                    self.events = now = self.events + 1
                    if now >= trim_at:
                        trim_history(self.state, history)  # type: ignore[arg-type]
                        trim_at = (now // every + 1) * every
                    continue
                engine, state = self.engine, self.state
                if engine is None or state is None:
                    self.apply(event)
                    late = self.timed(event, n)
                    if late is not None and on_error is not None:
                        on_error(late)
                    room = 0
                    engine = self.engine
                    take, called, hold = _steps(engine, played)
                    if not played:
                        trim_at = (self.events // every + 1) * every
                    continue
                self.state = state = engine.play(state, event) if played else engine.apply(state, event)
            except TablesenseError as exc:
                err = self.refused(n, text, str(exc), isinstance(exc, NoSetup))
                if err is not None and on_error is not None:
                    on_error(err)
                engine, room = self.engine, self._room(played)
                take, called, hold = _steps(engine, played)
                continue
            except Exception as exc:
                if not guard:
                    raise
                err = self.refused(n, text, f"internal error of the rule engine: {exc!r}"[:300])
                if err is not None and on_error is not None:
                    on_error(err)
                engine, room = self.engine, self._room(played)
                take, called, hold = _steps(engine, played)
                continue
            if state.in_shot:
                room = engine.room(state, True) if played else KEEP_EVERY
            else:
                room = 0
            floor = order.floor
            if (floor is not None and event.t < floor) or type(event) is Rest:
                late = self.timed(event, n)  # the clock ran back, or a shot ended: the slow way
                if late is not None and on_error is not None:
                    on_error(late)
            self.events = now = self.events + 1
            if now >= trim_at:
                trim_history(self.state, history)  # type: ignore[arg-type]
                trim_at = (now // every + 1) * every
        if gathered:
            self.state = engine.gather(self.state, gathered, played)  # type: ignore[union-attr, arg-type]

    def _room(self, played: bool) -> int:
        """How many events of a shot in progress ``_feed_chunk`` may gather (``ShotEngine.room``)."""
        engine, state = self.engine, self.state
        if engine is None or state is None or not state.in_shot:
            return 0
        return engine.room(state, played)

    def to_json(self) -> dict[str, Any]:
        if self.engine is None or self.state is None:
            out: dict[str, Any] = {
                "game": None, "finished": False, "winner": None, "at_table": None,
                "rulings": [], "questions": [],
            }
        else:
            out = self.engine.to_json(self.state)
        if self.errors:
            out["errors"] = [e.to_dict() for e in self.errors]
        return out


def _shot_end(texts: list[str], parsed: list[Event | None], codes: str, k: int, guard: bool,
              floor: float | None) -> int:
    """Where the shot whose first event is ``parsed[k]`` comes to rest in this batch: the index
    of its ``rest`` after table events only (``SHOT_KINDS``, at most ``WHOLE_MAX``), none of
    them before the clock's ``floor`` (``TimeOrder``: said the slow way) nor, with ``guard``,
    a line that is not ASCII (``text_problem``); 0 when it does not. Its one caller
    (``Replay._feed_chunk``) has already turned away a pin set up (it opens no shot) and taken
    the common short shot (one event and its rest) itself. The kinds are read from ``codes``
    (a letter an event: ``events.kind_codes``), the times and the lines in one call each."""
    end = codes.find("r", k + 1, k + WHOLE_MAX)
    if end < 0 or codes.find("x", k + 1, end) >= 0:
        return 0
    if floor is not None and min(map(_T, parsed[k:end])) < floor:
        return 0
    if guard and not "".join(texts[k:end]).isascii():
        return 0
    return end


def _batch_end(texts: list[str], at: int, size: int) -> int:
    """Where the batch of ``texts`` from ``at`` ends (``BATCH`` lines, or the last ones): after a line
    naming ``"rest"`` not followed by one naming ``"call"``, or before a set-up, found among the batch's
    last ``BATCH_SLACK`` lines, where there is one; else at ``BATCH`` lines. A shot then seldom runs
    from one batch into the next, where ``Replay._feed_chunk`` could not take it at once (nor the call
    after its rest with it). Where the batches end changes nothing but that."""
    end = at + BATCH
    if end >= size:
        return size
    for j in range(end, end - BATCH_SLACK, -1):
        line = texts[j]
        if '"setup"' in line or ('"rest"' in texts[j - 1] and '"call"' not in line):
            return j
    return end


def _steps(engine: ShotEngine[Any] | None, played: bool) -> tuple[Any, Any, Any]:
    """``Replay._feed_chunk``'s steps of ``engine``, bound once a match: its whole shot (``whole``;
    played, ``whole_played``), its shot and the call after its rest (``whole_called``; played,
    ``whole_called_played``) and its pin set up between shots (``held_pin``; played,
    ``held_pin_played``); each None
    where the engine does not take it (``takes_whole``, ``takes_called``, ``takes_held``) or there is
    no engine."""
    if engine is None:
        return None, None, None
    take = (engine.whole_played if played else engine.whole) if engine.takes_whole else None
    if played:
        return (take, engine.whole_called_played if engine.takes_called else None,
                engine.held_pin_played if engine.takes_held else None)
    return (take, engine.whole_called if engine.takes_called else None,
            engine.held_pin if engine.takes_held else None)


class NoSetup(BadEvent):
    """An event came before any set-up (or after one that was refused)."""


#: the fields through which an engine state reaches older states (base, kegle/carom, golf)
HISTORY_LINKS = ("checkpoint", "before", "pre")
#: a replay with a bounded history lets go of old states once per this many events (each time a
#: walk over the states an undo may reach: fewer walks, more states held between them)
TRIM_EVERY = 2048
#: a replay decodes this many lines in one call (``events.parse_lines``)
BATCH = 256
#: a batch ends early (``_batch_end``) by at most this many lines
BATCH_SLACK = 64
#: a shot of at most this many table events before its rest is taken at once (``ShotEngine.whole``)
WHOLE_MAX = 64
#: ``_feed_chunk``'s count of events at which a played match (no trimming) trims its history: never
_NEVER = sys.maxsize
_NUMBER = itemgetter(0)
_TEXT = itemgetter(1)
_T = attrgetter("t")
#: each decoded line's kind is a letter of ``codes`` (``events.kind_codes``, found by ``parse_batch``):
#: "s" a table event a shot takes as one more of its own (``SHOT_KINDS``: the sensor events,
#: ``events.SENSOR_KINDS``), "r" a rest; any other ("x": a call, a set-up, a line not decoded) is no
#: part of a shot
if SHOT_KINDS != SENSOR_KINDS:  # pragma: no cover (the letters would not say what a shot takes)
    raise ImportError("rules.shot_engine.SHOT_KINDS differs from events.SENSOR_KINDS")


def history_for(undos: int) -> int:
    """The history a log with at most ``undos`` undo calls needs, generously: an undo steps
    one link back (``checkpoint``), an engine resolving or amending a shot looks one or two
    links back (``before``, ``pre`` and theirs); four links per undo and 64 more."""
    return 64 + 4 * undos


def trim_history(state: MatchState, depth: int) -> int:
    """Cut the links to older states (``HISTORY_LINKS``) of every state ``depth`` links
    from ``state`` (breadth first over all those links): what lies beyond is garbage.
    Engine states are frozen for the engines; these are ones no undo and no engine can
    reach any more, so cutting them changes nothing the replay shows. Returns how many
    states were cut."""
    seen = {id(state)}
    level: list[Any] = [state]
    links = _LINKS
    for _ in range(depth):
        nxt: list[Any] = []
        for s in level:
            get = links.get(type(s))
            if get is None:
                get = _links_of(type(s))
            for older in get(s):
                if older is not None and id(older) not in seen:
                    seen.add(id(older))
                    nxt.append(older)
        if not nxt:
            return 0
        level = nxt
    cut = 0
    for s in level:
        for name in HISTORY_LINKS:
            if getattr(s, name, None) is not None:
                _cut_link(s, name)
                cut += 1
    return cut


#: per kind of state, a function giving its links to older states (``HISTORY_LINKS``) as a tuple
_LINKS: dict[type, Callable[[Any], tuple[Any, ...]]] = {}


def _links_of(kind: type) -> Callable[[Any], tuple[Any, ...]]:
    """``_LINKS``' function for states of ``kind`` (made the first time it is asked for)."""
    fields = getattr(kind, "__struct_fields__", None)
    if fields is None:  # not a msgspec Struct: any attribute of that name, as it comes
        get: Callable[[Any], tuple[Any, ...]] = _any_links
        _LINKS[kind] = get
        return get
    names = [name for name in HISTORY_LINKS if name in fields]
    if not names:
        get = _no_links
    elif len(names) == 1:
        one = attrgetter(names[0])
        get = lambda s: (one(s),)  # noqa: E731
    else:
        get = attrgetter(*names)
    _LINKS[kind] = get
    return get


def _no_links(state: Any) -> tuple[Any, ...]:
    return ()


def _any_links(state: Any) -> tuple[Any, ...]:
    return tuple(getattr(state, name, None) for name in HISTORY_LINKS)


def _cut_link(state: Any, name: str) -> None:
    """Set a frozen state's link ``name`` to None: a msgspec Struct or a dataclass."""
    if isinstance(state, msgspec.Struct):
        msgspec.structs.force_setattr(state, name, None)
    else:
        object.__setattr__(state, name, None)


def effective_lines(lines: Iterable[str]) -> list[tuple[int, str]]:
    """The non-blank lines that count, with their line numbers: the referee panel's void
    records (``tablesense.corrections``, docs/events.md) leave out what they void. A
    ``setup`` starts a new match and its numbering."""
    kept = list(lines)
    scan = scan_log(kept)
    if not scan.drops:  # no void record (nearly every log): every line that is not blank
        return [(n, text) for n, text in enumerate(kept, start=1) if text and not text.isspace()]
    return list(effective_stream(lambda: kept, scan))


class LogScan(msgspec.Struct, frozen=True):
    """What a first pass over a log finds: the voided sequence numbers per match (0: the
    lines before any setup) and how many lines may be undo calls (an upper bound)."""

    drops: dict[int, set[int]]
    undos: int


def scan_log(lines: Iterable[str]) -> LogScan:
    """One pass over a log's lines, holding none of them: cheap substring tests, JSON
    decoded only for what may be a setup or a void record."""
    drops: dict[int, set[int]] = {}
    match = seq = undos = 0
    pairs: list[tuple[int, str]] = []
    for text in lines:
        if not text.strip():
            continue
        if '"setup"' in text and _is_setup(text):
            if pairs:
                from .corrections import dropped  # a log with a void record only (the start-up)

                drops[match] = dropped(pairs)
            match, seq, pairs = match + 1, 0, []
        seq += 1
        if '"void"' in text and _voided_range(text) is not None:
            pairs.append((seq, text))
        elif '"undo"' in text:
            undos += 1
    if pairs:
        from .corrections import dropped  # a log with a void record only (the start-up)

        drops[match] = dropped(pairs)
    return LogScan(drops, undos)


def scan_chunks(chunks: Iterable[bytes]) -> LogScan | None:
    """``scan_log`` of a log read as bytes in chunks, with no Python step a line: when the log
    holds no void record (no ``"void"`` anywhere: nearly every log) its scan, the lines that may
    be undo calls counted by substring search; None when it may hold one (then
    ``scan_log`` reads it line by line)."""
    undos = 0
    tail = b""
    for chunk in chunks:
        data = tail + chunk if tail else chunk
        cut = data.rfind(b"\n") + 1
        whole, tail = data[:cut], data[cut:]
        if _may_void(whole):
            return None
        undos += _undo_lines(whole)
    if _may_void(tail):
        return None
    return LogScan({}, undos + _undo_lines(tail))


def _may_void(data: bytes) -> bool:
    """Whether ``data`` holds ``"void"``: a letter few logs hold first (one ``memchr``), each of the
    first ``VOID_LOOKS`` of them looked at where it stands (a search for that letter alone is a
    ``memchr``; one for the word goes over every byte: keglebillard's answers name
    ``"balls_moving"``), then, past them, the word without its quotes (a needle ending in a letter:
    the search skips ahead faster than on one ending in a quote, which JSON holds everywhere), then
    with them."""
    at = data.find(b"v")
    looks = VOID_LOOKS
    while at >= 0:
        if data[at - 1:at + 5] == b'"void"':
            return True
        looks -= 1
        if not looks:
            return b"void" in data and b'"void"' in data
        at = data.find(b"v", at + 1)
    return False


#: how many of a chunk's letters "v" ``_may_void`` looks at one by one before it searches for the word
VOID_LOOKS = 64


def _lines_may_void(lines: list[str]) -> bool:
    """Whether a line of ``lines`` holds ``"void"``: ``VOID_LINES`` of them at a time joined by
    newlines (a word without one cannot run from one line into the next) and searched as
    ``_may_void`` searches bytes (``_text_may_void``), not a call of ``str.__contains__`` a line
    (~1k instructions each)."""
    for at in range(0, len(lines), VOID_LINES):
        if _text_may_void("\n".join(lines[at:at + VOID_LINES])):
            return True
    return False


def _text_may_void(text: str) -> bool:
    """``_may_void`` of text: the first ``VOID_LOOKS`` letters "v" looked at where they stand, past
    them the word searched."""
    at = text.find("v")
    looks = VOID_LOOKS
    while at >= 0:
        if text[at - 1:at + 5] == '"void"':
            return True
        looks -= 1
        if not looks:
            return '"void"' in text
        at = text.find("v", at + 1)
    return False


#: how many lines ``_lines_may_void`` joins at a time (a copy of them, not of the whole log)
VOID_LINES = 8192


def _undo_lines(data: bytes) -> int:
    """How many lines of ``data`` hold ``"undo"`` (a line that holds it twice counts once), found in
    one pass (it was a count, then a second pass): ``undo"`` searched (five bytes, found faster than the
    six of ``"undo"``), each with the quote before it counted and the search gone on past its line."""
    if b"d" not in data:  # (one ``memchr``: a log of sensor events alone holds no "d" at all)
        return 0
    lines, at = 0, data.find(b'undo"')
    while at >= 0:
        if at and data[at - 1] == _QUOTE:  # ``"undo"``: its line counted, the rest of it skipped
            lines += 1
            at = data.find(b"\n", at)
            if at < 0:
                break
        at = data.find(b'undo"', at + 1)
    return lines


_QUOTE = ord('"')


def counted_lines(chunks: Iterable[bytes]) -> Iterator[tuple[int, str]]:
    """A log's lines as ``effective_stream`` gives those of a log with no void record (numbered
    from 1, ended at ``\\n``, ``\\r`` and ``\\n`` stripped from their ends, bytes that are not UTF-8
    kept as surrogates), read in chunks and cut with no Python step a line (a Python call a
    chunk, the lines through C iterators); lines holding only spaces may come through
    (``feed_counted`` skips them)."""
    return chain.from_iterable(starmap(zip, chunk_lines(chunks)))


def chunk_lines(chunks: Iterable[bytes]) -> Iterator[tuple[Sequence[int], list[str]]]:
    """``counted_lines`` a chunk at a time: the numbers of its lines and their texts, in two
    sequences (a ``range`` of numbers where no line is blank: nearly every chunk), one Python
    step a chunk; a line cut between two chunks comes with the second."""
    return ((numbers, texts) for numbers, texts, _ in _chunk_parts(chunks))


def _chunk_parts(chunks: Iterable[bytes]) -> Iterator[tuple[Sequence[int], list[str], bool]]:
    """``chunk_lines``, with whether the chunk's text is all ASCII (``str.isascii``: a flag the
    decoded text carries, read in no time), which its lines then are."""
    decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
    first, tail = 1, ""
    for chunk in chain(chunks, (None,)):
        text = tail + decoder.decode(chunk or b"", final=chunk is None)
        parts = text.split("\n")
        tail = parts.pop() if chunk is not None else ""
        size = len(parts)
        if "\r" in text:
            parts = list(map(_STRIP_CR, parts))
        if "" in parts:  # blank lines: not counted, their numbers skipped
            kept = [(n, line) for n, line in enumerate(parts, first) if line]
            yield [n for n, _ in kept], [line for _, line in kept], text.isascii()
        elif parts:
            yield range(first, first + size), parts, text.isascii()
        first += size


_STRIP_CR = methodcaller("rstrip", "\r")


def effective_stream(reopen: Callable[[], Iterable[str]], scan: LogScan | None = None,
                     ) -> Iterator[tuple[int, str]]:
    """``effective_lines`` over a log read twice and never held: ``reopen()`` gives the
    lines from the start each time (a file seeked back to 0). The first pass
    (``scan_log``, unless ``scan`` is given) finds the void records; the second yields
    what counts. Memory: the voided sequence numbers, never the lines."""
    drops = (scan or scan_log(reopen())).drops
    if not drops:  # no void record (nearly every log): every line that is not blank
        return ((n, text) for n, text in enumerate(reopen(), start=1) if text and not text.isspace())
    return _undropped(reopen, drops)


def _undropped(reopen: Callable[[], Iterable[str]], drops: dict[int, set[int]]) -> Iterator[tuple[int, str]]:
    match = seq = 0
    for n, text in enumerate(reopen(), start=1):
        if not text.strip():
            continue
        if '"setup"' in text and _is_setup(text):
            match, seq = match + 1, 0
        seq += 1
        drop = drops.get(match)
        if drop and seq in drop:
            continue
        yield n, text


def text_problem(text: str) -> str | None:
    """Why a line read with ``surrogateescape`` is not UTF-8 text (its first bad byte and
    column), or None."""
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        byte = ord(text[exc.start]) - 0xDC00
        return f"not UTF-8 text: byte 0x{byte:02x} at column {exc.start + 1}"
    return None


def _voided_range(text: str) -> tuple[int, int] | None:
    from .corrections import voided_range  # a line naming "void" only (the start-up)

    try:
        return voided_range(text)
    except (ValueError, RecursionError):  # a huge number, nesting too deep: not a void record
        return None


def _is_setup(text: str) -> bool:
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, a huge number, nesting too deep
        return False
    return isinstance(obj, dict) and obj.get("type") == "setup"


def replay_file(path: str) -> Replay:
    """Replay a JSONL file; unreadable files raise ``OSError``."""
    with open(path, encoding="utf-8") as fh:
        return Replay().feed_lines(fh)
