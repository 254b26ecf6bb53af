"""Checks on what a match log holds, made where it comes in: player names, numbers, times.

Pure functions (no I/O) shared by everything that takes a log from outside: the event
parser (``tablesense.events``, and through it ``tablesense replay``, the pub's match log
and the referee panel), the store and the league. Each refusal is a ``BadEvent`` whose
message is one short line that echoes at most ``MAX_ECHO`` characters of what it got.

- ``clip(text)``: text fit to echo in one line (newlines shown as ``\\n``, cut to a length).
- ``short(value)``: a value as a message may quote it (``repr``, clipped; a huge integer
  described by its digits).
- ``name_problem(value)`` / ``check_name(value, what)``: a player's name is a string,
  not empty once stripped, at most ``MAX_NAME`` characters, without control characters
  (nor line separators or bidirectional overrides).
- ``check_players(players)``: a set-up's ``players``: ``p1`` and ``p2``, each a name or a
  list of up to ``MAX_TEAM`` names.
- ``check_time(t, what)``: ``t`` is a finite number of seconds, ``0 <= t <= MAX_T``.
- ``check_int(value, lo, hi, what)``, ``check_number(value, lo, hi, what)``: an integer
  (``bool`` is not one) or a finite number within bounds.
- ``TimeOrder``: whether ``t`` runs backwards beyond what the format tolerates, said once
  a match (docs/events.md, "Times").
"""

from __future__ import annotations

import math
import reprlib
import unicodedata
from collections.abc import Mapping
from typing import Any

from .errors import BadEvent

#: the longest player's name, in characters
MAX_NAME = 64
#: the most names a side may have (a duo has two)
MAX_TEAM = 4
#: the most characters of what was received that a message repeats
MAX_ECHO = 80
#: the longest message of a refusal
MAX_MESSAGE = 300
#: the latest table time: 2^53 microseconds (285 years), the largest a double holds to
#: the microsecond
MAX_T = 2**53 / 1e6
#: how far back ``t`` may go before the ``rest`` or ``setup`` written before it, seconds
#: (the rounding of a microsecond clock written with six decimals)
TIME_SLACK = 1e-6

#: characters a name may not hold besides the control characters (category Cc) and
#: surrogates (bytes that were not UTF-8): line and paragraph separators, and the
#: bidirectional embeddings, overrides and isolates that turn the text around them
_FORBIDDEN = frozenset("\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clip(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` in one line (line breaks written ``\\n``), cut to ``limit`` characters."""
    if len(text) > limit + 1000:
        text = text[:limit + 1000]  # never scan megabytes for line breaks
    if "\n" in text or "\r" in text:
        text = text.replace("\r", "\\r").replace("\n", "\\n")
    return text if len(text) <= limit else text[:limit - 3] + "..."


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother = 3, MAX_ECHO, MAX_ECHO
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 6
_REPR.maxlong = 40


def short(value: Any, limit: int = MAX_ECHO) -> str:
    """``repr(value)`` fit to quote: at most ``limit`` characters (never more work than
    that either: a 50 MB string or a list nested 200,000 deep is not written out first),
    a huge integer described by its digits."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**60:
        digits = value.bit_length() * 0.30103
        return f"an integer of {len(str(abs(value)))} digits" if digits < 4000 else "a huge integer"
    try:
        text = _REPR.repr(value)
    except (RecursionError, ValueError):
        return f"a {type(value).__name__} too big to show"
    return clip(text, limit)


def name_problem(value: Any) -> str | None:
    """What is wrong with ``value`` as a player's name, or None when it is a good one."""
    if not isinstance(value, str):
        return f"a name is text, not {short(value)}"
    if len(value) > MAX_NAME:
        return f"a name has at most {MAX_NAME} characters, not {len(value)}"
    if not value:
        return "a name is empty"
    for ch in value:
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cs") or ch in _FORBIDDEN:
            return f"a name cannot hold the control character U+{ord(ch):04X} ({short(value)})"
    if not value.strip():
        return f"a name cannot be only spaces ({short(value)})"
    if all(unicodedata.category(ch) in ("Zs", "Cf", "Mn") for ch in value):
        return f"a name needs a visible character ({short(value)})"
    return None


def check_name(value: Any, what: str = "player") -> str:
    """``value`` if it is a good player's name; else ``BadEvent`` naming ``what``."""
    problem = name_problem(value)
    if problem is not None:
        raise BadEvent(f"{what}: {problem}")
    return value  # type: ignore[no-any-return]


def check_players(players: Any, what: str = "setup") -> dict[str, str | list[str]]:
    """A set-up's ``players``: exactly ``p1`` and ``p2``, each a name or a list of names."""
    if not isinstance(players, Mapping):
        raise BadEvent(f"{what}: 'players' must be an object with p1 and p2, not {short(players)}")
    for p in ("p1", "p2"):
        if p not in players:
            raise BadEvent(f"{what}: 'players' needs '{p}'")
    others = [k for k in players if k not in ("p1", "p2")]
    if others:
        raise BadEvent(f"{what}: 'players' holds p1 and p2 only, not {short(others[0])}")
    for p in ("p1", "p2"):
        names = players[p]
        if isinstance(names, list):
            if not 1 <= len(names) <= MAX_TEAM:
                raise BadEvent(f"{what}: player {p} is a name or a list of 1 to {MAX_TEAM} names, "
                               f"not {len(names)}")
            for name in names:
                check_name(name, f"{what}: player {p}")
        elif isinstance(names, str):
            check_name(names, f"{what}: player {p}")
        else:
            raise BadEvent(f"{what}: player {p} must be a name or a list of names, not {short(names)}")
    return {p: players[p] for p in ("p1", "p2")}


def is_number(value: Any) -> bool:
    """An int or float (not ``bool``) that is finite."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an integer beyond float's range
        return False


def check_time(t: Any, what: str = "event") -> float:
    """``t`` as seconds on the table's clock: a finite number from 0 to ``MAX_T``."""
    if not is_number(t):
        raise BadEvent(f"{what} needs a numeric 't' (seconds), not {short(t)}")
    if not 0 <= t <= MAX_T:
        raise BadEvent(f"{what}: 't' must be seconds from 0 to {int(MAX_T)}, not {short(t)}")
    return float(t)


def check_int(value: Any, lo: int, hi: int, what: str) -> int:
    """``value`` if it is an integer (not ``bool``) from ``lo`` to ``hi``."""
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise BadEvent(f"{what} must be a whole number from {lo} to {hi}, not {short(value)}")
    return value


def check_number(value: Any, lo: float, hi: float, what: str) -> float:
    """``value`` as a float if it is a finite number from ``lo`` to ``hi``."""
    if not is_number(value) or not lo <= value <= hi:
        raise BadEvent(f"{what} must be a number from {lo:g} to {hi:g}, not {short(value)}")
    return float(value)


class TimeOrder:
    """Whether the table's clock runs backwards in a log, beyond what the format tolerates.

    Events are applied in file order, and inside one shot ``t`` orders them, so the events
    of a shot may come in any order of time. What is not tolerated is an event earlier
    than the ``rest`` that ended the shot before it, or than its match's ``setup`` (by more
    than ``TIME_SLACK``): the clock went back. ``see`` says so once a match (a new
    ``setup`` starts over); the event is still applied, in file order."""

    __slots__ = ("floor", "said", "what")

    def __init__(self) -> None:
        self.floor: float | None = None  # the time no later event may be before
        self.what = ""  # what set it: "setup" or "rest"
        self.said = False

    def see(self, kind: str, t: float) -> str | None:
        """Take the next event applied; a sentence the first time a match's clock runs back."""
        if kind == "setup":
            self.floor, self.what, self.said = t, "setup", False
            return None
        floor = self.floor
        problem = None
        if floor is not None and t < floor - TIME_SLACK and not self.said:
            self.said = True
            before = "the match's setup" if self.what == "setup" else "the rest that ended the shot before"
            problem = (f"the time runs backwards: t {t:.6f} is before {floor:.6f}, {before} "
                       f"(said once a match; the event is applied in file order)")
        if kind == "rest":
            self.floor, self.what = t, "rest"
        return problem
