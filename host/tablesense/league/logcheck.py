"""The league's check of a match log before it is replayed: pure, no I/O.

A log the league replays (a pub's message, a file ``league import`` reads) is taken only
if every line is a JSON object of bounded size and nesting with finite numbers in range,
every line that counts (void records applied, ``replay.effective_lines``) is a table event
(``events.parse_event``), the first is the match's set-up and no other is one, the
players' names are names, ``t`` is seconds on a table's clock (0 to ``MAX_T``, never
stepping back more than ``BACKWARDS_S``) and no shot has more than ``MAX_SHOT_EVENTS``
sensor events. The first fault found is the reason, one line
naming the line: ``line 7: t 1e+308 is beyond ...``.

The bounds are in ``limits``. The event records themselves come from ``events``; what this
module adds are the checks a league needs of a log it did not write (``events`` takes a
log of one's own table with more trust).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from ..errors import TablesenseError
from ..events import SENSOR_TYPES, Event, Rest, Setup, parse_event
from ..replay import effective_lines
from .limits import (
    BACKWARDS_S,
    MAX_LINE_CHARS,
    MAX_LINE_DEPTH,
    MAX_LOG_LINES,
    MAX_MOYENNE,
    MAX_NAME,
    MAX_NUMBER,
    MAX_SHOT_EVENTS,
    MAX_T,
    MAX_TARGET,
    short,
)

_JSON = msgspec.json.Decoder()  # strict JSON: no NaN or Infinity, numbers beyond a double refused
#: how many lines between two looks at ``should_stop`` (a service stopping mid-replay)
SLICE = 1000


class BadLog(TablesenseError):
    """A match log the league does not read, and why (one line)."""


class Stopped(Exception):
    """The check or replay was asked to stop (the service is stopping)."""


@dataclass(frozen=True, slots=True)
class CheckedLog:
    """A log that passed: its set-up and the events that count, with their line numbers."""

    setup: Setup
    events: list[tuple[int, Event]]  # the set-up first
    lines: int  # lines read (blank ones included)


def check_lines(lines: Sequence[str], should_stop: Callable[[], bool] | None = None) -> CheckedLog:
    """The checked events of a match log, or ``BadLog`` with the first fault."""
    if len(lines) > MAX_LOG_LINES:
        raise BadLog(f"the log has {len(lines):,} lines; the league reads at most {MAX_LOG_LINES:,}")
    parsed: dict[int, Event | str] = {}  # the event, or why the line is none (said if it counts)
    for n, text in enumerate(lines, start=1):
        if should_stop is not None and n % SLICE == 0 and should_stop():
            raise Stopped
        if not isinstance(text, str):
            raise BadLog(f"line {n} is no text")
        if not text or text.isspace():
            continue
        obj = _decode(n, text)
        try:
            parsed[n] = parse_event(obj)
        except TablesenseError as exc:
            parsed[n] = f"line {n}: {exc}"
        except (ValueError, OverflowError, RecursionError) as exc:
            parsed[n] = f"line {n}: not an event ({type(exc).__name__})"
    events: list[tuple[int, Event]] = []
    latest: tuple[int, float] | None = None
    shot = 0  # sensor events since the last rest
    for n, _ in effective_lines(lines):
        event = parsed[n]
        if isinstance(event, str):
            raise BadLog(event)
        if isinstance(event, Setup):
            if events:
                raise BadLog(f"line {n}: a second set-up: a log holds one match")
            _check_setup(n, event)
        elif not events:
            raise BadLog(f"line {n}: the log does not start with the match's set-up")
        t = event.t
        if latest is not None and t < latest[1] - BACKWARDS_S:
            raise BadLog(f"line {n}: t {t:g} is {latest[1] - t:,.1f} s before line {latest[0]}'s "
                         f"{latest[1]:g}: a table's clock does not run backwards")
        if latest is None or t > latest[1]:
            latest = (n, t)
        if isinstance(event, Rest):
            shot = 0
        elif event.type in SENSOR_TYPES:
            shot += 1
            if shot > MAX_SHOT_EVENTS:
                raise BadLog(f"line {n}: more than {MAX_SHOT_EVENTS:,} sensor events since the last rest: no "
                             "shot is this long (a chattering sensor? tablesense doctor finds it)")
        events.append((n, event))
    if not events:
        raise BadLog("the log has no set-up event")
    first = events[0][1]
    assert isinstance(first, Setup)
    return CheckedLog(first, events, len(lines))


def _decode(n: int, text: str) -> dict[str, Any]:
    if len(text) > MAX_LINE_CHARS:
        raise BadLog(f"line {n} is {len(text):,} characters long; an event line has at most "
                     f"{MAX_LINE_CHARS:,}")
    try:
        obj = _JSON.decode(text)
    except msgspec.ValidationError as exc:  # a number beyond a double
        raise BadLog(f"line {n}: {_first(exc)}") from None
    except msgspec.DecodeError as exc:
        if "NaN" in text or "Infinity" in text:
            raise BadLog(f"line {n}: NaN and Infinity are no numbers in JSON") from None
        raise BadLog(f"line {n} is not JSON ({_first(exc)})") from None
    except RecursionError:
        raise BadLog(f"line {n}: nested too deeply") from None
    if not isinstance(obj, dict):
        raise BadLog(f"line {n}: an event is a JSON object, not {type(obj).__name__}")
    t = obj.get("t")
    if isinstance(t, bool) or not isinstance(t, (int, float)):
        raise BadLog(f"line {n}: t must be a number (seconds on the table's clock), not {short(t)}")
    if not 0 <= t <= MAX_T:  # NaN cannot come from strict JSON; an int of any size compares
        said = short(t) if isinstance(t, int) else f"{t:g}"
        raise BadLog(f"line {n}: t {said} is not seconds on a table's clock (0 to {MAX_T:g})")
    for key, value in obj.items():
        if key != "t":
            _check_value(n, key, value, 1)
    return obj


def _check_value(n: int, key: str, value: Any, depth: int) -> None:
    if depth > MAX_LINE_DEPTH:
        raise BadLog(f"line {n}: {short(key)} is nested more than {MAX_LINE_DEPTH} deep")
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return
    if isinstance(value, (int, float)):
        if not (isinstance(value, int) or math.isfinite(value)) or abs(value) > MAX_NUMBER:
            raise BadLog(f"line {n}: {short(key)} is {short(value)}, beyond any count or measure "
                         f"(at most {MAX_NUMBER:g})")
        return
    if isinstance(value, dict):
        for v in value.values():
            _check_value(n, key, v, depth + 1)
        return
    if isinstance(value, list):
        for v in value:
            _check_value(n, key, v, depth + 1)


def _check_setup(n: int, setup: Setup) -> None:
    for side in ("p1", "p2"):
        value = setup.players.get(side)
        names = value if isinstance(value, list) else [value]
        if not 1 <= len(names) <= 4:
            raise BadLog(f"line {n}: {side} is a player or a team of at most 4, not {len(names)} names")
        for name in names:
            why = name_fault(name)
            if why is not None:
                raise BadLog(f"line {n}: {side}'s name {why}")
    for what, values in (("target", setup.targets), ("moyenne", setup.moyennes)):
        for side, v in (values or {}).items():
            top = MAX_TARGET if what == "target" else MAX_MOYENNE
            if not 0 <= v <= top:
                raise BadLog(f"line {n}: {side}'s {what} {short(v)} is out of range (0 to {top:g})")
    if setup.distance is not None and not 0 < setup.distance <= MAX_TARGET:
        raise BadLog(f"line {n}: the distance {short(setup.distance)} is out of range (1 to {MAX_TARGET})")


def name_fault(name: object) -> str | None:
    """What is wrong with a player's name (None: nothing): 1 to ``MAX_NAME`` printable
    characters, no space at either end."""
    if not isinstance(name, str):
        return f"is no text but {short(name)}"
    if not name or name.isspace():
        return "is empty"
    if len(name) > MAX_NAME:
        return f"{short(name, 20)} is longer than {MAX_NAME} characters"
    if not name.isprintable():
        return f"{short(name)} holds a control character (a newline, a tab...)"
    if name != name.strip():
        return f"{short(name)} has a space at an end"
    return None


def _first(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:120]
