"""English templates: kegle (keys: rule id, or "rule id:what"; see ``tablesense.texts``).

Besides the rulings and questions: the referee's announcements (the state's
``announcements``), keyed the same way (``"kegle.break:announce"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _count(value: Any) -> int:
    """How many items a rendered list parameter names ("1, 3" -> 2)."""
    return len(str(value).split(", ")) if value not in (None, "", "?") else 0


def _pins(p: Mapping[str, Any]) -> str:
    n = _count(p["pins"])
    return f"{n} pin{'s' if n > 1 else ''}: {p['points']}"


def _falls(p: Mapping[str, Any]) -> str:
    ball = p.get("ball") or "a ball"
    return f"{ball} fell in pocket {p['pocket']} after lying still: it is put back, no fault"


def _fault(what: str) -> str:
    return f"fault: {what}; the shot scores nothing"


TEMPLATES: dict[str, Any] = {
    "kegle.lag": "{player} shoots first, from the outlay",
    "kegle.outlay": "new outlay after a jumped ball",
    "kegle.outlay.request": "new outlay for {player}",
    "kegle.pin": _pins,
    "kegle.carambole": "carambole: {points}",
    "kegle.series": "no points: series of {run} over",
    "kegle.distance": "distance reached",
    "kegle.shot:late-pin": "pin {pin} fell after the balls stopped: it belongs to the shot, "
                           "which was over only once balls and pins were still",
    "kegle.shot:by-hand": "pin {pin} knocked over between shots, no ball touched: no shot; it is put back up",
    "kegle.shot:hands": "the referee: that was the pin referee's hands, no ball played: no shot, "
                        "the turn stays",
    "kegle.break": "half the distance: 5-minute break",
    "kegle.last-series": "last series, from a new outlay",
    "kegle.same-series": "{player} wins: distance reached, both played {series} series",
    "kegle.draw": "both players reached the distance: a draw",
    "kegle.announce.remaining": "{remaining} remaining",
    "kegle.pin-blocked": "pin {pin} cannot stand because of a ball",
    "kegle.white-in-hole": "a white in pocket {pocket}: it goes on the spot opposite the other white",
    "kegle.red-in-hand": "the red goes between the lower cushion and the lower string",
    "kegle.ball-falls": _falls,
    "kegle.ball-falls:replay": "a ball fell after lying still: the shot is replayed",
    "kegle.disqualified": "{player} is designated the loser; {opponent} wins",
    # the question about a pocket event that names no ball
    "kegle.fault.red-in-hole:which-ball": "Which ball fell in pocket {pocket}?",
    # the faults (a ruling against the player at the table)
    "kegle.fault.jumped-ball": _fault("a ball jumped off the table"),
    "kegle.fault.pins-not-up": _fault("played before the pins were put up"),
    "kegle.fault.balls-moving": _fault("played before the balls lay still"),
    "kegle.fault.touch": _fault("touched a ball with the hand, the cue or an object"),
    "kegle.fault.touche": _fault("touche: touched a ball with something other than the cue tip"),
    "kegle.fault.push": _fault("the cue was in contact with the red when it hit a ball or a cushion"),
    "kegle.fault.frozen": _fault("played directly on a ball touching another without freeing it"),
    "kegle.fault.foot": _fault("played without a foot on the floor"),
    "kegle.fault.marks": _fault("made direction marks on the rail"),
    "kegle.fault.red-in-hole": _fault("the red went in a hole"),
    "kegle.fault.red-topples-pin": _fault("the red toppled a pin"),
    "kegle.fault.pin-by-cue": _fault("a pin was toppled by the cue, a bridge, clothes or the body"),
    "kegle.fault.touch-toppled-pin": _fault("touched a toppled pin"),
    "kegle.fault.no-cushion": _fault("no ball touched a cushion the second time in a row "
                                     "the pins were put up"),
    "kegle.fault.three-reds": _fault("three reds in a row without a pin"),
    # the referee's announcements
    "kegle.announce.remaining:announce": "{remaining} remaining",
    "kegle.distance:announce": "distance reached",
    "kegle.last-series:announce": "last series",
    "kegle.break:announce": "5-minute break",
}
