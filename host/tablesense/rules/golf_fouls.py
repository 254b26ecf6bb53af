"""Golf billiards fouls: what each costs, and the names a referee may call them by.

Every foul of seeds/golf.md is one ``Foul`` row: its catalogue id, whether the
balls moved by the shot are put back (so goals of the shot do not count), what
happens to the ball played (replacement spot always, only in zone play, or never),
whether in zone play the opponent points out a ball to be placed on a replacement
spot, and any ball the foul sends elsewhere (``touched``: the held-back ball).
Every foul costs the turn.

``find_foul(name)`` accepts the full id (``golf.foul.touch``), the short name
(``touch``), any case, ``_`` or ``-``, and the synonyms below; anything else is an
``IllegalCall`` listing the known names.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from ..errors import IllegalCall

# how the ball played is treated
ALWAYS = "always"
ZONE = "zone"
NEVER = "never"


class Foul(NamedTuple):
    id: str
    text: str
    back: bool  # all moved balls put back: goals and off-table balls of the shot do not count
    spot_played: str  # ALWAYS, ZONE or NEVER
    points_out: bool = False  # in zone play the opponent points out a ball for a replacement spot
    touched: str | None = None  # "spot": the touched own ball to a spot; "goal": opponent's ball into goal
    aliases: tuple[str, ...] = ()


FOULS: tuple[Foul, ...] = (
    Foul("golf.foul.foot", "played without a foot on the floor", True, ZONE,
         aliases=("foot", "no-foot-on-floor", "foot-off-floor", "feet", "no-foot")),
    Foul("golf.foul.jump", "played directly over pegs or balls", True, ALWAYS,
         aliases=("jump", "over", "over-pegs", "over-balls", "jumped")),
    Foul("golf.foul.lift", "lifted the ball over the nearest cushion from the long-cushion zone",
         True, ALWAYS,
         aliases=("lift", "lifted", "over-cushion")),
    Foul("golf.foul.hard-shot", "hard, fast shot at goal from below the shot line", True, ALWAYS,
         aliases=("hard-shot", "hard", "shot-line", "raised-cue")),
    Foul("golf.foul.aim-behind", "took up position behind an opponent's ball", False, NEVER, points_out=True,
         aliases=("aim-behind", "aiming", "behind")),
    Foul("golf.foul.opponent-ball", "played with an opponent's ball", True, NEVER, points_out=True,
         aliases=("opponent-ball", "wrong-ball", "played-opponent-ball")),
    Foul("golf.foul.not-at-rest", "aimed or played before the balls had come to rest", True, ZONE,
         aliases=("not-at-rest", "moving", "early", "before-rest")),
    Foul("golf.foul.touch", "touched a ball", True, ALWAYS, aliases=("touch", "touched")),
    Foul("golf.foul.touch.no-shot", "touched a ball without playing a shot", True, NEVER,
         aliases=("touch-no-shot", "touch-without-shot", "touch-between-shots", "touched-without-shot",
                  "touched-between-shots", "touch-between", "no-shot-touch", "touch-without-playing")),
    Foul("golf.foul.touch.own-ball", "touched one of their own balls during zone play", True, ALWAYS,
         aliases=("touch-own", "touch-own-ball")),
    Foul("golf.foul.touch.opponent-ball", "touched an opponent's ball during zone play", True, NEVER,
         points_out=True, aliases=("touch-opponent", "touch-opponent-ball")),
    Foul("golf.foul.hold.own-ball", "held back, nudged or deflected one of their own balls", True, NEVER,
         touched="spot", aliases=("hold-own", "hold-own-ball", "nudge-own", "hold")),
    Foul("golf.foul.hold.opponent-ball", "held back, nudged or deflected an opponent's ball", True, ALWAYS,
         touched="goal", aliases=("hold-opponent", "hold-opponent-ball", "nudge-opponent")),
    Foul("golf.foul.push", "kept the cue tip against the ball (push shot)", True, ALWAYS,
         aliases=("push", "push-shot", "double-hit", "double-touch")),
    Foul("golf.foul.touching-ball", "moved a touching ball when not playing away from it", True, ALWAYS,
         aliases=("touching-ball", "touching", "frozen")),
    Foul("golf.foul.push-through", "pushed through at a ball touching the front or outer side peg",
         True, ALWAYS,
         aliases=("push-through",)),
    Foul("golf.foul.own-ball", "played their own ball directly onto another of their own balls", True, ALWAYS,
         aliases=("own-ball", "own", "onto-own-ball")),
    Foul("golf.triangle.defensive", "left their ball in the large defensive triangle", True, NEVER,
         aliases=("defensive-triangle", "triangle-defensive", "triangle")),
    Foul("golf.triangle.defensive.several", "left none of several balls out of the large defensive triangle",
         True, NEVER, aliases=("defensive-triangle-several", "triangle-several")),
    Foul("golf.triangle.attacking", "ended in the large attacking triangle while the defender's ball lies "
         "in the small triangle", False, NEVER, aliases=("attacking-triangle", "triangle-attacking")),
    Foul("golf.zone.leave", "no ball left its zone in zone play", False, ALWAYS,
         aliases=("zone", "zone-leave", "no-zone-change", "leave")),
    Foul("golf.duo.opening", "the wrong player of the duo took the opening shot", False, ALWAYS,
         aliases=("opening", "wrong-opener")),
    Foul("golf.duo.order", "played out of the duo's order of play", True, ZONE,
         aliases=("order", "out-of-order", "wrong-player")),
    Foul("golf.duo.consult", "team-mate pointed, gestured or came within 1 metre", False, NEVER,
         aliases=("consult", "coaching", "gesture")),
    Foul("golf.own-goal", "played their own ball into their own goal (called by the referee)", False, ALWAYS,
         aliases=("own-goal", "owngoal", "own-goal-ball", "wrong-goal", "into-own-goal", "own-gate")),
    Foul("golf.clock", "did not play within the time (50 s, TIME, 10 s)", False, NEVER, points_out=True,
         aliases=("time", "clock", "too-slow")),
)

def _key(name: str) -> str:
    """Case, separators and the ``golf`` / ``foul`` prefixes do not matter."""
    k = unicodedata.normalize("NFKD", name.lower())
    k = re.sub(r"[^a-z0-9]", "", k)
    k = k.removeprefix("golf")
    return k.removeprefix("foul") or k


_BY_NAME: dict[str, Foul] = {}
for _f in FOULS:
    for _name in (_f.id, *_f.aliases):
        _BY_NAME.setdefault(_key(_name), _f)

BY_ID: dict[str, Foul] = {f.id: f for f in FOULS}


#: words of the seed text a name may be built from, tried in this order when the name is
#: not a known id or synonym (``no_foot_on_floor``, ``lift_over_cushion``, ``hold_back``)
_WORDS: tuple[tuple[tuple[str, ...], str], ...] = (
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
_OPP_WORDS = ("opp", "other", "their", "enemy")
_PAIRED: tuple[tuple[tuple[str, ...], str], ...] = (
    (("hold", "held", "nudge", "deflect", "redirect", "steer"), "golf.foul.hold.opponent-ball"),
    (("touch",), "golf.foul.touch.opponent-ball"),
)


#: with a touch word: a touch between shots (``touched_a_ball_without_playing``)
_NO_SHOT_WORDS = ("noshot", "withoutshot", "withoutashot", "betweenshots", "withoutplaying", "notplaying",
                  "beforeshot", "beforetheshot", "betweenturns")


def _by_words(key: str) -> Foul | None:
    if "touch" in key and any(w in key for w in _NO_SHOT_WORDS):
        return BY_ID["golf.foul.touch.no-shot"]
    if any(w in key for w in _OPP_WORDS):
        for words, foul_id in _PAIRED:
            if any(w in key for w in words):
                return BY_ID[foul_id]
    for words, foul_id in _WORDS:
        if any(w in key for w in words):
            return BY_ID[foul_id]
    return None


def find_foul(name: str) -> Foul:
    """The foul a referee means by ``name``; ``IllegalCall`` listing the known names."""
    key = _key(name)
    foul = _BY_NAME.get(key) or (_by_words(key) if key else None)
    if foul is None:
        known = ", ".join(sorted({f.id.removeprefix("golf.").removeprefix("foul.") for f in FOULS}))
        raise IllegalCall(f"unknown golf foul {name!r} (known: {known}, or their full ids golf.foul.*)")
    return foul
