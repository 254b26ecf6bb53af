"""Keglebillard faults (seeds/kegle.md, seed paragraph 5): ids, words and synonyms.

Every fault ends the series and gives the table to the opponent; the points of the
faulty shot do not count (our reading, see seeds/kegle.md). A few faults also decide
how the opponent starts: a jumped ball gives a new outlay (``outlay``), the red in a
hole puts the red in hand (``red_in_hand``).

``find_fault(name)`` accepts the full id (``kegle.fault.touch``), the short name
(``touch``), any case, with or without accents, ``_``, ``-``, spaces or none at all
(``off_table`` = ``off-table`` = ``offtable``), with or without the ``kegle.`` and
``fault.`` prefixes, and the synonyms below; anything else is an ``IllegalCall``
listing the known names.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from ..errors import IllegalCall


class Fault(NamedTuple):
    id: str
    text: str
    aliases: tuple[str, ...] = ()
    outlay: bool = False  # the opponent starts from a new outlay
    red_in_hand: bool = False  # the opponent places the red behind the lower string


JUMPED_BALL = "kegle.fault.jumped-ball"
PINS_NOT_UP = "kegle.fault.pins-not-up"
RED_IN_HOLE = "kegle.fault.red-in-hole"
RED_TOPPLES_PIN = "kegle.fault.red-topples-pin"
PIN_BY_CUE = "kegle.fault.pin-by-cue"
NO_CUSHION = "kegle.fault.no-cushion"
THREE_REDS = "kegle.fault.three-reds"
TOUCH = "kegle.fault.touch"

FAULTS: tuple[Fault, ...] = (
    Fault("kegle.fault.jumped-ball", "a ball jumped off the table",
          ("jumped", "jump", "off-table", "off", "jump-ball", "jumped-off", "ball-off-table", "ball-off",
           "off-the-table", "left-table", "red-off", "white-off"),
          outlay=True),
    Fault("kegle.fault.pins-not-up", "played before the pins were put up",
          ("pins", "pin-not-up", "pins-down", "pin-down", "pins-not-set", "pins-not-standing")),
    Fault("kegle.fault.balls-moving", "played before the balls lay still",
          ("not-still", "moving", "early", "before-rest", "too-early", "balls-not-still", "moving-balls",
           "ball-moving", "shot-too-early")),
    Fault("kegle.fault.touch", "touched a ball with the hand, the cue or an object",
          ("hand", "touched", "wrong-ball", "touch-ball", "ball-touched", "cue-ball-touch", "hand-ball",
           "touched-ball")),
    Fault("kegle.fault.touche", "touche: touched a ball with something other than the cue tip",
          ("touché", "not-tip", "miscue", "not-cue-tip", "touche-a")),
    Fault("kegle.fault.push", "the cue was in contact with the red when it hit a ball or a cushion",
          ("cue-contact", "cue-in-contact", "double-hit", "push-shot", "pushed", "double-touch",
           "double-contact", "touche-b")),
    Fault("kegle.fault.frozen", "played directly on a ball touching another without freeing it",
          ("frozen-ball", "touching-ball", "frozen-balls", "touching-balls", "balls-touching",
           "touche-c")),
    Fault("kegle.fault.foot", "played without a foot on the floor",
          ("no-foot-on-floor", "foot-off-floor", "no-foot", "feet", "foot-on-floor", "feet-off-floor",
           "off-floor", "no-feet", "floor")),
    Fault("kegle.fault.marks", "made direction marks on the rail",
          ("rail-marks", "marking", "mark", "direction-marks", "marks-on-rail", "chalk-marks",
           "hold-points")),
    Fault("kegle.fault.red-in-hole", "the red went in a hole",
          ("red-pocketed", "red-in-pocket", "red-pocket", "red-hole", "red-potted", "pocketed-red",
           "potted-red", "scratch", "cue-ball-pocketed", "cue-ball-in-pocket", "cue-ball-in-hole",
           "cue-ball-potted"),
          red_in_hand=True),
    Fault("kegle.fault.red-topples-pin", "the red toppled a pin",
          ("red-pin", "red-toppled-pin", "red-topples", "red-pins", "red-hits-pin", "red-knocks-pin",
           "pin-by-red", "red-topple")),
    Fault("kegle.fault.pin-by-cue", "a pin was toppled by the cue, a bridge, clothes or the body",
          ("cue-topples-pin", "body", "clothes", "bridge", "pin-by-body", "cue-pin", "pin-cue",
           "pin-by-bridge", "pin-by-clothes", "body-pin", "sleeve")),
    Fault("kegle.fault.touch-toppled-pin", "touched a toppled pin",
          ("touched-pin", "touch-pin", "toppled-pin", "touched-toppled-pin", "touch-fallen-pin",
           "touch-toppled", "touched-toppled", "pin-touched")),
    Fault("kegle.fault.no-cushion", "no ball touched a cushion the second time in a row the pins were put up",
          ("no-rail", "rail", "cushion", "no-rail-contact", "no-cushion-contact", "no-cushions", "no-rails",
           "every-other")),
    Fault("kegle.fault.three-reds", "three reds in a row without a pin",
          ("3-reds", "three-red", "three-reds-no-pin", "3-reds-no-pin", "three-reds-without-pin",
           "three-shots-no-pin", "three-shots-without-pin")),
)

BY_ID: dict[str, Fault] = {f.id: f for f in FAULTS}


def _norm(name: str) -> str:
    """The comparison key of a fault name: no accents, case, prefixes or separators."""
    key = unicodedata.normalize("NFKD", name.strip().lower())
    key = "".join(c for c in key if not unicodedata.combining(c))
    for prefix in ("kegle.", "kegle-", "kegle_", "fault.", "foul."):
        if key.startswith(prefix):
            key = key[len(prefix):]
    return re.sub(r"[^a-z0-9]+", "", key)


_BY_NAME: dict[str, Fault] = {}
for _f in FAULTS:
    for _a in (_f.id, *_f.aliases):
        _k = _norm(_a)
        if _BY_NAME.setdefault(_k, _f) is not _f:
            raise RuntimeError(f"fault name {_a!r} is ambiguous")  # a slip in the table above


#: the last resort for a name not in the table: the seed's key words, most specific first
_KEY_WORDS: tuple[tuple[tuple[str, ...], tuple[str, ...], str], ...] = (
    # (all of these, and one of these) -> fault id
    (("three", "red"), ("",), THREE_REDS),
    (("three",), ("nopin", "withoutpin", "withoutapin", "withoutanypin", "pinless"), THREE_REDS),
    (("3", "red"), ("",), THREE_REDS),
    (("red",), ("hole", "pocket", "pot"), RED_IN_HOLE),
    (("cueball",), ("hole", "pocket", "pot"), RED_IN_HOLE),  # the red is the ball the cue plays
    (("red",), ("pin", "topple", "kegle"), RED_TOPPLES_PIN),
    ((), ("jump", "offtable", "offthetable"), JUMPED_BALL),
    ((), ("mark", "holdpoint"), "kegle.fault.marks"),
    ((), ("rail", "cushion", "band"), NO_CUSHION),
    ((), ("foot", "feet", "floor"), "kegle.fault.foot"),
    ((), ("touche",), "kegle.fault.touche"),
    ((), ("push", "double"), "kegle.fault.push"),
    ((), ("frozen", "freeze"), "kegle.fault.frozen"),
    (("pin",), ("cue", "body", "bridge", "cloth", "sleeve", "arm", "hand"), PIN_BY_CUE),
    (("pin",), ("touch",), "kegle.fault.touch-toppled-pin"),
    (("pin",), ("up", "place", "stand", "set"), PINS_NOT_UP),
    ((), ("still", "moving", "motion", "early"), "kegle.fault.balls-moving"),
    ((), ("touch", "hand", "wrongball"), "kegle.fault.touch"),
)


def _by_key_words(key: str) -> Fault | None:
    key = key.replace("touched", "touch")  # "touched" is no "touche"
    for every, some, fault_id in _KEY_WORDS:
        if all(w in key for w in every) and any(w in key for w in some):
            return BY_ID[fault_id]
    return None


def find_fault(name: str) -> Fault:
    """The fault a referee means by ``name``, or ``IllegalCall`` listing the known ones.

    A name that is not an id or a listed synonym is read by the seed's key words
    (``red_ball_pocketed``: the red in a hole; ``jumped_off_table``: a jumped ball...).
    """
    key = _norm(name)
    fault = _BY_NAME.get(key) or (_by_key_words(key) if key else None)
    if fault is None:
        known = ", ".join(f.id.removeprefix("kegle.fault.") for f in FAULTS)
        raise IllegalCall(f"unknown keglebillard fault {name!r} (known: {known})")
    return fault
