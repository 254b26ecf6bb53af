"""The names of keglebillard as referees write them (``tablesense.vocabulary``): canonical
id -> the other spellings.

A fault (``foul``) is found by its full id (``kegle.fault.touch``), its short name
(``touch``), any case, with or without accents, ``_``, ``-``, spaces or none at all
(``off_table`` = ``off-table`` = ``offtable``), with or without the ``kegle.`` and
``fault.`` prefixes, and the synonyms of its row in ``fouls.FAULTS`` (its ``aliases``); a
name in no table is read by the seed's key words (``red_ball_pocketed``: the red in a hole).
What none of that finds is passed on as written, and the engine refuses it with the list
of the faults it knows.

The answer to "which ball fell in pocket N?" (``POCKET_OPTIONS``) is ``white`` or
``red`` in any case, or ``true``/``false`` for "was it the red?".
"""

from __future__ import annotations

import unicodedata
from functools import cache
from typing import Any

from ...vocabulary import Vocabulary
from .fouls import (
    BALLS_MOVING,
    FAULTS,
    FOOT,
    FROZEN,
    JUMPED_BALL,
    MARKS,
    NO_CUSHION,
    PIN_BY_CUE,
    PINS_NOT_UP,
    PUSH,
    RED_IN_HOLE,
    RED_TOPPLES_PIN,
    THREE_REDS,
    TOUCH,
    TOUCH_TOPPLED_PIN,
    TOUCHE,
)

#: every keglebillard fault (seeds/kegle.md, seed paragraph 5) -> its synonyms: the ``aliases``
#: of its row in ``tablesense.rules.kegle.fouls.FAULTS``, where each fault is written once
FAULT_NAMES: dict[str, tuple[str, ...]] = {f.id: f.aliases for f in FAULTS}

#: the last resort for a fault name in no table: the seed's key words, most specific first
KEY_WORDS: tuple[tuple[tuple[str, ...], tuple[str, ...], str], ...] = (
    # (all of these, and one of these) -> fault id
    (("three", "red"), ("",), THREE_REDS),
    (("three",), ("nopin", "withoutpin", "withoutapin", "withoutanypin", "pinless"), THREE_REDS),
    (("3", "red"), ("",), THREE_REDS),
    (("red",), ("hole", "pocket", "pot"), RED_IN_HOLE),
    (("cueball",), ("hole", "pocket", "pot"), RED_IN_HOLE),  # the red is the ball the cue plays
    (("red",), ("pin", "topple", "kegle"), RED_TOPPLES_PIN),
    ((), ("jump", "offtable", "offthetable"), JUMPED_BALL),
    ((), ("mark", "holdpoint"), MARKS),
    ((), ("rail", "cushion", "band"), NO_CUSHION),
    ((), ("foot", "feet", "floor"), FOOT),
    ((), ("touche",), TOUCHE),
    ((), ("push", "double"), PUSH),
    ((), ("frozen", "freeze"), FROZEN),
    (("pin",), ("cue", "body", "bridge", "cloth", "sleeve", "arm", "hand"), PIN_BY_CUE),
    (("pin",), ("touch",), TOUCH_TOPPLED_PIN),
    (("pin",), ("up", "place", "stand", "set"), PINS_NOT_UP),
    ((), ("still", "moving", "motion", "early"), BALLS_MOVING),
    ((), ("touch", "hand", "wrongball"), TOUCH),
)


#: what a fault name's key keeps: ASCII lower-case letters and digits (``[a-z0-9]``)
_KEY_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


def fault_key(name: str) -> str:
    """The comparison key of a fault name: no accents, case, prefixes or separators (every
    character but ``[a-z0-9]`` dropped: a set's look-up a character, not a regular expression's
    call through ``re``'s cache, which cost 2.1M instructions of the start-up for the index)."""
    key = name.strip().lower()
    if not key.isascii():  # (ASCII is its own NFKD form, with no combining marks)
        key = unicodedata.normalize("NFKD", key)
        key = "".join(c for c in key if not unicodedata.combining(c))
    for prefix in ("kegle.", "kegle-", "kegle_", "fault.", "foul."):
        if key.startswith(prefix):
            key = key[len(prefix):]
    return "".join(filter(_KEY_CHARACTERS.__contains__, key))


@cache
def _fault_index() -> dict[str, str]:
    """Each fault's names by their key (``fault_key``) -> its id; made when the first name not read
    before is looked up (154 keys: a replay whose log names no fault does without them)."""
    index: dict[str, str] = {}
    for fault, others in FAULT_NAMES.items():
        for name in (fault, fault.removeprefix("kegle.fault."), *others):
            if index.setdefault(fault_key(name), fault) != fault:
                raise RuntimeError(f"fault name {name!r} is ambiguous")  # a slip in the table above
    return index


def _by_key_words(key: str) -> str | None:
    key = key.replace("touched", "touch")  # "touched" is no "touche"
    for every, some, fault in KEY_WORDS:
        if all(w in key for w in every) and any(w in key for w in some):
            return fault
    return None


class KegleVocabulary(Vocabulary, frozen=True):
    """Keglebillard's names: fault names are read more loosely than the others (``fault_key``,
    then the key words)."""

    def lookup(self, kind: str, name: str) -> str | None:
        if kind != "fouls":
            return super().lookup(kind, name)
        try:
            return _FOUND[name]  # a name read before (a match's referee writes a few, often)
        except KeyError:
            pass
        key = fault_key(name)
        found = _fault_index().get(key) or (_by_key_words(key) if key else None)
        if len(_FOUND) < _FOUND_MAX:
            _FOUND[name] = found
        return found


#: fault names as written -> their id (or None), read once: ``fault_key`` normalises Unicode
#: and runs a regular expression, and every call is read twice (``play`` looks for an undo)
_FOUND: dict[str, str | None] = {}
_FOUND_MAX = 4096


VOCABULARY = KegleVocabulary(
    fouls=FAULT_NAMES,
    balls={},
    calls={"carom": ("carambole",), "outlay": ("new_outlay", "new-outlay"),
           # 7.7, 6.4: what the table took for a shot was the pin referee's hands
           "hands": ("pin-referee", "by-hand", "referee-hands", "no-shot", "not-a-shot")},
)


class _BallOptions(tuple[str, ...]):
    """The options of "which ball fell in pocket N?": ``white`` (the default, not a fault), ``red``.

    Also accepted, though not listed: any case (``"Red"``), and ``true`` / ``false`` for
    "was it the red?" (a referee's yes/no button, an answer written without the question).
    """

    __slots__ = ()

    def __contains__(self, value: object) -> bool:
        if isinstance(value, bool):
            return True
        return isinstance(value, str) and tuple.__contains__(self, value.lower())


POCKET_OPTIONS = _BallOptions(("white", "red"))


def pocket_ball(answer: Any) -> str:
    """The ball an answer to "which ball fell in pocket N?" names: ``white`` or ``red``."""
    if isinstance(answer, bool):
        return "red" if answer else "white"
    return str(answer).lower()
