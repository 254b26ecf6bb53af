"""Replay a match log: table events in, the match state out.

``Replay`` feeds events one at a time to the engine chosen by the ``setup`` event.
A line that is malformed (``BadEvent``) or impossible in the current state
(``IllegalCall``) is recorded as an error naming the line, and replay goes on with
the next one: one bad line never loses the rest of the match.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec

from .corrections import dropped, voided_range
from .errors import BadEvent, TablesenseError
from .events import Event, Setup, parse_line
from .rules import Engine, MatchState, find_engine


@dataclass(frozen=True, slots=True)
class LineError:
    line: int
    error: str
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "error": self.error}

    def __str__(self) -> str:
        return f"line {self.line}: {self.error}"


@dataclass(slots=True)
class Replay:
    """A match being replayed (or played live): the engine, the state, the errors."""

    engine: Engine[Any] | None = None
    state: MatchState | None = None
    errors: list[LineError] = field(default_factory=list)
    events: int = 0
    #: how far back (in links between states) older states stay reachable; None: all
    #: the way (a live table, where the referee may undo any number of times). A whole
    #: log's replay knows how many undos it holds (``history_for``) and keeps no more
    #: than they could reach: memory stays flat.
    history: int | None = None

    def apply(self, event: Event) -> MatchState:
        """Apply one event; raises ``TablesenseError`` and leaves the state as it was."""
        if isinstance(event, Setup):
            engine = find_engine(event.game)
            state = engine.new_state(event)
            self.engine, self.state = engine, state
        else:
            if self.engine is None or self.state is None:
                raise BadEvent(f"{event.type} event before any 'setup' event")
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
            self.apply(parse_line(text))
        except TablesenseError as exc:
            self.errors.append(LineError(line, str(exc), text.strip()))
            return False
        return True

    def feed_lines(self, lines: Iterable[str]) -> Replay:
        """``feed_line`` over a whole log, its void records applied (``effective_lines``).

        The loop of a whole replay: the engine's ``apply`` is called straight for every
        event but a set-up, with the same errors and history trimming as ``apply``."""
        errors = self.errors
        for n, text in effective_lines(lines):
            try:
                event = parse_line(text)
                engine, state = self.engine, self.state
                if engine is None or state is None or type(event) is Setup:
                    self.apply(event)
                    continue
                self.state = engine.apply(state, event)
            except TablesenseError as exc:
                errors.append(LineError(n, str(exc), text.strip()))
                continue
            self.events += 1
            if self.history is not None and self.events % TRIM_EVERY == 0:
                trim_history(self.state, self.history)
        return self

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


#: the fields through which an engine state reaches older states (base, kegle/carom, golf)
HISTORY_LINKS = ("checkpoint", "before", "pre")
#: a replay with a bounded history lets go of old states once per this many events
TRIM_EVERY = 512


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
    level: list[MatchState] = [state]
    for _ in range(depth):
        nxt: list[MatchState] = []
        for s in level:
            for name in HISTORY_LINKS:
                older = getattr(s, name, None)
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


@dataclass(frozen=True, slots=True)
class LogScan:
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
                drops[match] = dropped(pairs)
            match, seq, pairs = match + 1, 0, []
        seq += 1
        if '"void"' in text and _voided_range(text) is not None:
            pairs.append((seq, text))
        elif '"undo"' in text:
            undos += 1
    if pairs:
        drops[match] = dropped(pairs)
    return LogScan(drops, undos)


def effective_stream(reopen: Callable[[], Iterable[str]], scan: LogScan | None = None,
                     ) -> Iterator[tuple[int, str]]:
    """``effective_lines`` over a log read twice and never held: ``reopen()`` gives the
    lines from the start each time (a file seeked back to 0). The first pass
    (``scan_log``, unless ``scan`` is given) finds the void records; the second yields
    what counts. Memory: the voided sequence numbers, never the lines."""
    drops = (scan or scan_log(reopen())).drops
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


def _voided_range(text: str) -> tuple[int, int] | None:
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
