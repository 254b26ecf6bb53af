"""The names of golf as referees write them (``tablesense.vocabulary``): canonical id ->
the other spellings.

Fouls are named by their catalogue id (seeds/golf.md), the id without ``golf.`` /
``golf.foul.``, a synonym below, or a name built from the seed's words
(``no_foot_on_floor``, ``hold_back_opponent_ball``, ``touched_a_ball_without_playing``):
``GolfVocabulary.lookup`` tries the exact names first, then the word rules. Two ids
are not fouls but the off-table rules (``golf.off-table.own``, ``golf.off-table.opponent``):
a referee who calls "foul: off table" means a ball that left the table.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from msgspec import field

from ...vocabulary import Vocabulary
from .fouls import FAULTS

#: canonical foul id -> the other names a referee calls it by (each foul's ``Fault`` row)
FOULS: dict[str, tuple[str, ...]] = {f.id: f.aliases for f in FAULTS}

#: names of a ball that left the table, called as a foul (the ball played, or the opponent's)
OFF_TABLE: dict[str, tuple[str, ...]] = {
    "golf.off-table.own": ("offtable", "off", "ballofftable", "offthetable", "lefttable", "leftthetable",
                           "outoftable", "out", "outofplay", "jumpedoff", "jumpedofftable",
                           "offbed"),
    "golf.off-table.opponent": (),
}
#: parts of a name that mean a ball left the table (``ball_off_table``, ``off_table_opponent``)
OFF_TABLE_PARTS = ("offtable", "offthetable", "lefttable", "leftthetable", "outoftable", "offbed",
                   "jumpedoff")
#: with an off-table name: the opponent's ball
OPPONENT_PARTS = ("opponent", "opp", "other", "their", "enemy")

#: the calls of golf (docs/events.md) and their other spellings
CALLS: dict[str, tuple[str, ...]] = {
    "start": (), "foul": (), "time": (), "spot": (), "off_table": ("off",), "rail": (), "edge": (),
    "wedged": (), "answer": (), "undo": (),
    "carom": (),  # a carom game's call: understood, and refused with the reason
}

#: the match formats: two against two, or one against one (any other word)
FORMATS: dict[str, tuple[str, ...]] = {
    "duo": ("duos", "double", "doubles", "pair", "pairs", "team", "teams", "2v2", "2vs2", "twoagainsttwo"),
    "single": (),
}

#: words of the seed text a foul name may be built from, tried in this order when the name
#: is not a known id or synonym (``no_foot_on_floor``, ``lift_over_cushion``, ``hold_back``)
WORDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("order", "outofturn", "wrongplayer", "turnorder", "sequence"), "golf.duo.order"),
    (("opening", "opener", "break"), "golf.duo.opening"),
    (("consult", "coach", "gesture", "point", "advice"), "golf.duo.consult"),
    (("several", "multiple", "many"), "golf.triangle.defensive.several"),
    (("attackingtriangle", "triangleattack", "attacktriangle"), "golf.triangle.attacking"),
    (("triangle",), "golf.triangle.defensive"),
    (("zone",), "golf.zone.leave"),
    (("throughpush", "pushthrough", "pushedthrough"), "golf.foul.push-through"),
    (("touching", "frozen", "kissing"), "golf.foul.touching-ball"),
    (("time", "clock", "slow", "delay", "stall"), "golf.clock"),
    (("early", "moving", "rest", "premature", "before", "still"), "golf.foul.not-at-rest"),
    (("foot", "feet", "floor"), "golf.foul.foot"),
    (("lift", "cushion"), "golf.foul.lift"),
    (("jump", "over", "airborne"), "golf.foul.jump"),
    (("hard", "shotline", "line", "masse", "pique", "raisedcue", "fast", "force", "smash"),
     "golf.foul.hard-shot"),
    (("aim", "behind", "position", "stance"), "golf.foul.aim-behind"),
    (("holdopp", "nudgeopp", "deflectopp", "stopopp", "holdother", "nudgeother", "deflectother",
      "heldopp", "heldother", "nudgedopp", "nudgedother"),
     "golf.foul.hold.opponent-ball"),
    (("hold", "held", "nudge", "deflect", "stop", "redirect", "steer"), "golf.foul.hold.own-ball"),
    (("touchopp", "touchother", "touchedopp", "touchedother"), "golf.foul.touch.opponent-ball"),
    (("touchown", "touchedown"), "golf.foul.touch.own-ball"),
    (("touch", "brush", "hand"), "golf.foul.touch"),
    (("push", "double", "shove"), "golf.foul.push"),
    (("opponent", "opp", "wrong", "other", "enemy", "their"), "golf.foul.opponent-ball"),
    (("own", "mine", "self"), "golf.foul.own-ball"),
)
#: a hold or touch word and an opponent word anywhere in the name (``hold_back_opponent_ball``)
OPP_WORDS = ("opp", "other", "their", "enemy")
PAIRED: tuple[tuple[tuple[str, ...], str], ...] = (
    (("hold", "held", "nudge", "deflect", "redirect", "steer"), "golf.foul.hold.opponent-ball"),
    (("touch",), "golf.foul.touch.opponent-ball"),
)
#: with a touch word: a touch between shots (``touched_a_ball_without_playing``)
NO_SHOT_WORDS = ("noshot", "withoutshot", "withoutashot", "betweenshots", "withoutplaying", "notplaying",
                 "beforeshot", "beforetheshot", "betweenturns")


def foul_key(name: str) -> str:
    """How foul names compare: case, accents, every separator and the ``golf`` / ``foul``
    prefixes do not count."""
    k = unicodedata.normalize("NFKD", name.lower())
    k = re.sub(r"[^a-z0-9]", "", k)
    k = k.removeprefix("golf")
    return k.removeprefix("foul") or k


def _by_key(table: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for canonical, others in table.items():
        for name in (canonical, *others):
            out.setdefault(foul_key(name), canonical)
    return out


_FOUL_KEYS = _by_key(FOULS)
_OFF_KEYS = {k for k, v in _by_key(OFF_TABLE).items() if v == "golf.off-table.own"}


def off_table_foul(key: str) -> str | None:
    """The off-table rule a foul name (its ``foul_key``) means, or None."""
    if key not in _OFF_KEYS and not any(part in key for part in OFF_TABLE_PARTS):
        return None
    if any(part in key for part in OPPONENT_PARTS):
        return "golf.off-table.opponent"
    return "golf.off-table.own"


def foul_by_words(key: str) -> str | None:
    """The foul a name built from the seed's words means (its ``foul_key``), or None."""
    if "touch" in key and any(w in key for w in NO_SHOT_WORDS):
        return "golf.foul.touch.no-shot"
    if any(w in key for w in OPP_WORDS):
        for words, foul_id in PAIRED:
            if any(w in key for w in words):
                return foul_id
    for words, foul_id in WORDS:
        if any(w in key for w in words):
            return foul_id
    return None


class GolfVocabulary(Vocabulary, frozen=True):
    """Golf's names; a foul is looked up by ``foul_key`` and the word rules as well."""

    fouls: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: {**FOULS, **OFF_TABLE})
    formats: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: dict(FORMATS))

    def lookup(self, kind: str, name: str) -> str | None:
        if kind != "fouls":
            return super().lookup(kind, name)
        if type(name) is str:  # (a pure function of the name: ``_FOUND`` keeps what it gave)
            found = _FOUND.get(name, _UNKNOWN)
            if found is not _UNKNOWN:
                return found  # type: ignore[return-value]
        key = foul_key(name)
        found = (off_table_foul(key) or _FOUL_KEYS.get(key) or foul_by_words(key)) if key else None
        if type(name) is str:
            if len(_FOUND) >= _FOUND_MAX:
                _FOUND.clear()
            _FOUND[name] = found
        return found


#: ``GolfVocabulary.lookup``'s fouls by the name called (its word rules and ``foul_key``'s regular
#: expression run once a name: a referee calls a few names over and over); at most ``_FOUND_MAX``
_FOUND: dict[str, str | None] = {}
_FOUND_MAX = 4096
_UNKNOWN = object()


VOCABULARY = GolfVocabulary(calls=CALLS)
