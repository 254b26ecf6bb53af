"""The names of keglebillard as referees write them (``tablesense.vocabulary``): canonical
id -> the other spellings.

A fault (``foul``) is found by its full id (``kegle.fault.touch``), its short name
(``touch``), any case, with or without accents, ``_``, ``-``, spaces or none at all
(``off_table`` = ``off-table`` = ``offtable``), with or without the ``kegle.`` and
``fault.`` prefixes, and the synonyms below; a name in no table is read by the seed's
key words (``red_ball_pocketed``: the red in a hole). What none of that finds is passed on
as written, and the engine refuses it with the list of the faults it knows.

The answer to "which ball fell in pocket N?" (``POCKET_OPTIONS``) is ``white`` or
``red`` in any case, or ``true``/``false`` for "was it the red?".
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from ...vocabulary import Vocabulary

JUMPED_BALL = "kegle.fault.jumped-ball"
PINS_NOT_UP = "kegle.fault.pins-not-up"
BALLS_MOVING = "kegle.fault.balls-moving"
TOUCH = "kegle.fault.touch"
TOUCHE = "kegle.fault.touche"
PUSH = "kegle.fault.push"
FROZEN = "kegle.fault.frozen"
FOOT = "kegle.fault.foot"
MARKS = "kegle.fault.marks"
RED_IN_HOLE = "kegle.fault.red-in-hole"
RED_TOPPLES_PIN = "kegle.fault.red-topples-pin"
PIN_BY_CUE = "kegle.fault.pin-by-cue"
TOUCH_TOPPLED_PIN = "kegle.fault.touch-toppled-pin"
NO_CUSHION = "kegle.fault.no-cushion"
THREE_REDS = "kegle.fault.three-reds"

#: every keglebillard fault (seeds/kegle.md, seed paragraph 5) -> its synonyms
FAULT_NAMES: dict[str, tuple[str, ...]] = {
    JUMPED_BALL: ("jumped", "jump", "off-table", "off", "jump-ball", "jumped-off", "ball-off-table",
                  "ball-off", "off-the-table", "left-table", "red-off", "white-off"),
    PINS_NOT_UP: ("pins", "pin-not-up", "pins-down", "pin-down", "pins-not-set", "pins-not-standing"),
    BALLS_MOVING: ("not-still", "moving", "early", "before-rest", "too-early", "balls-not-still",
                   "moving-balls", "ball-moving", "shot-too-early"),
    TOUCH: ("hand", "touched", "wrong-ball", "touch-ball", "ball-touched", "cue-ball-touch", "hand-ball",
            "touched-ball"),
    TOUCHE: ("touché", "not-tip", "miscue", "not-cue-tip", "touche-a"),
    PUSH: ("cue-contact", "cue-in-contact", "double-hit", "push-shot", "pushed", "double-touch",
           "double-contact", "touche-b"),
    FROZEN: ("frozen-ball", "touching-ball", "frozen-balls", "touching-balls", "balls-touching", "touche-c"),
    FOOT: ("no-foot-on-floor", "foot-off-floor", "no-foot", "feet", "foot-on-floor", "feet-off-floor",
           "off-floor", "no-feet", "floor"),
    MARKS: ("rail-marks", "marking", "mark", "direction-marks", "marks-on-rail", "chalk-marks",
            "hold-points"),
    RED_IN_HOLE: ("red-pocketed", "red-in-pocket", "red-pocket", "red-hole", "red-potted", "pocketed-red",
                  "potted-red", "scratch", "cue-ball-pocketed", "cue-ball-in-pocket", "cue-ball-in-hole",
                  "cue-ball-potted"),
    RED_TOPPLES_PIN: ("red-pin", "red-toppled-pin", "red-topples", "red-pins", "red-hits-pin",
                      "red-knocks-pin", "pin-by-red", "red-topple"),
    PIN_BY_CUE: ("cue-topples-pin", "body", "clothes", "bridge", "pin-by-body", "cue-pin", "pin-cue",
                 "pin-by-bridge", "pin-by-clothes", "body-pin", "sleeve"),
    TOUCH_TOPPLED_PIN: ("touched-pin", "touch-pin", "toppled-pin", "touched-toppled-pin", "touch-fallen-pin",
                        "touch-toppled", "touched-toppled", "pin-touched"),
    NO_CUSHION: ("no-rail", "rail", "cushion", "no-rail-contact", "no-cushion-contact", "no-cushions",
                 "no-rails", "every-other"),
    THREE_REDS: ("3-reds", "three-red", "three-reds-no-pin", "3-reds-no-pin", "three-reds-without-pin",
                 "three-shots-no-pin", "three-shots-without-pin"),
}

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


def fault_key(name: str) -> str:
    """The comparison key of a fault name: no accents, case, prefixes or separators."""
    key = unicodedata.normalize("NFKD", name.strip().lower())
    key = "".join(c for c in key if not unicodedata.combining(c))
    for prefix in ("kegle.", "kegle-", "kegle_", "fault.", "foul."):
        if key.startswith(prefix):
            key = key[len(prefix):]
    return re.sub(r"[^a-z0-9]+", "", key)


def _fault_index() -> dict[str, str]:
    index: dict[str, str] = {}
    for fault, others in FAULT_NAMES.items():
        for name in (fault, fault.removeprefix("kegle.fault."), *others):
            if index.setdefault(fault_key(name), fault) != fault:
                raise RuntimeError(f"fault name {name!r} is ambiguous")  # a slip in the table above
    return index


_FAULT_INDEX = _fault_index()


def _by_key_words(key: str) -> str | None:
    key = key.replace("touched", "touch")  # "touched" is no "touche"
    for every, some, fault in KEY_WORDS:
        if all(w in key for w in every) and any(w in key for w in some):
            return fault
    return None


@dataclass(frozen=True)
class KegleVocabulary(Vocabulary):
    """Keglebillard's names: fault names are read more loosely than the others (``fault_key``,
    then the key words)."""

    def lookup(self, kind: str, name: str) -> str | None:
        if kind != "fouls":
            return super().lookup(kind, name)
        key = fault_key(name)
        return _FAULT_INDEX.get(key) or (_by_key_words(key) if key else None)


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
