"""Golf billiards fouls: one ``Fault`` row each (``rules/fault.py``).

Every foul of seeds/golf.md is one row: its catalogue id, the seed paragraph(s) it comes
from (the catalogue's ``seed`` column: tests/rules/golf/test_golf_faults.py keeps them equal), what
it costs (``Cost``), the other names a referee may call it by (``rules.golf.names`` reads
them from here) and the referee panel's button for it (``web/fouls.py``).

What a foul costs (``Cost``): whether the balls moved by the shot are put back (so goals
of the shot do not count), what happens to the ball played (replacement spot always, only
in zone play, or never), whether in zone play the opponent points out a ball to be placed
on a replacement spot, and any ball the foul sends elsewhere (``touched``: the held-back
ball). Every foul costs the turn. The sentences are in ``texts/<lang>/golf.ftl``.
"""

from typing import NamedTuple

from ..fault import Button, Fault

# how the ball played is treated
ALWAYS = "always"
ZONE = "zone"
NEVER = "never"


class Cost(NamedTuple):
    """What a golf foul costs besides the turn."""

    back: bool  # all moved balls put back: goals and off-table balls of the shot do not count
    spot_played: str  # ALWAYS, ZONE or NEVER
    points_out: bool = False  # in zone play the opponent points out a ball for a replacement spot
    touched: str | None = None  # "spot": the touched own ball to a spot; "goal": opponent's ball into goal


#: touching a ball between shots: it stands alone (no shot to amend), no ball is played
NO_SHOT = "golf.foul.touch.no-shot"

#: the golf format that knows the duo fouls (``Button.profiles``)
DUO = ("duo",)

FAULTS: tuple[Fault[Cost], ...] = (
    Fault("golf.foul.foot", "Fouls", Cost(True, ZONE),
          ("foot", "no-foot-on-floor", "foot-off-floor", "feet", "no-foot"),
          Button("foot", True, place=7)),
    Fault("golf.foul.jump", "Fouls", Cost(True, ALWAYS),
          ("jump", "over", "over-pegs", "over-balls", "jumped"),
          Button("jump", True, place=6)),
    Fault("golf.foul.lift", "Fouls", Cost(True, ALWAYS),
          ("lift", "lifted", "over-cushion"),
          Button("lift")),
    Fault("golf.foul.hard-shot", "Direct attempt with a ball close to the goal", Cost(True, ALWAYS),
          ("hard-shot", "hard", "shot-line", "raised-cue"),
          Button("hard-shot")),
    Fault("golf.foul.aim-behind", "Aiming", Cost(False, NEVER, points_out=True),
          ("aim-behind", "aiming", "behind"),
          Button("aim-behind")),
    Fault("golf.foul.opponent-ball", "Aiming", Cost(True, NEVER, points_out=True),
          ("opponent-ball", "wrong-ball", "played-opponent-ball"),
          Button("opponent-ball")),
    Fault("golf.foul.not-at-rest", "Aiming", Cost(True, ZONE),
          ("not-at-rest", "moving", "early", "before-rest"),
          Button("not-at-rest")),
    Fault("golf.foul.touch", "Touch", Cost(True, ALWAYS),
          ("touch", "touched"),
          Button("touch", True, zone=False, place=1)),
    Fault("golf.foul.touch.no-shot", "Touch", Cost(True, NEVER),
          ("touch-no-shot", "touch-without-shot", "touch-between-shots", "touched-without-shot",
           "touched-between-shots", "touch-between", "no-shot-touch", "touch-without-playing"),
          Button("touch-no-shot", True, place=4)),
    Fault("golf.foul.touch.own-ball", "Touch", Cost(True, ALWAYS),
          ("touch-own", "touch-own-ball"),
          Button("touch-own", True, zone=True, place=2)),
    Fault("golf.foul.touch.opponent-ball", "Touch", Cost(True, NEVER, points_out=True),
          ("touch-opponent", "touch-opponent-ball"),
          Button("touch-opponent", True, zone=True, place=3)),
    Fault("golf.foul.hold.own-ball", "Touch", Cost(True, NEVER, touched="spot"),
          ("hold-own", "hold-own-ball", "nudge-own", "hold"),
          Button("hold-own")),
    Fault("golf.foul.hold.opponent-ball", "Touch", Cost(True, ALWAYS, touched="goal"),
          ("hold-opponent", "hold-opponent-ball", "nudge-opponent"),
          Button("hold-opponent")),
    Fault("golf.foul.push", "Push shot", Cost(True, ALWAYS),
          ("push", "push-shot", "double-hit", "double-touch"),
          Button("push", True, place=5)),
    Fault("golf.foul.touching-ball", "Push shot", Cost(True, ALWAYS),
          ("touching-ball", "touching", "frozen"),
          Button("touching-ball")),
    Fault("golf.foul.push-through", "Push shot", Cost(True, ALWAYS),
          ("push-through",),
          Button("push-through")),
    Fault("golf.foul.own-ball", "Playing on your own ball", Cost(True, ALWAYS),
          ("own-ball", "own", "onto-own-ball"),
          Button("own-ball")),
    Fault("golf.triangle.defensive", "Balls in the large defensive triangle", Cost(True, NEVER),
          ("defensive-triangle", "triangle-defensive", "triangle"),
          Button("defensive-triangle")),
    Fault("golf.triangle.defensive.several", "Balls in the large defensive triangle", Cost(True, NEVER),
          ("defensive-triangle-several", "triangle-several"),
          Button("triangle-several")),
    Fault("golf.triangle.attacking", "Fouls", Cost(False, NEVER),
          ("attacking-triangle", "triangle-attacking"),
          Button("attacking-triangle")),
    Fault("golf.zone.leave", "Zone play: Obligations", Cost(False, ALWAYS),
          ("zone", "zone-leave", "no-zone-change", "leave"),
          Button("zone-leave", zone=True)),
    Fault("golf.duo.opening", "Duo matches: The opening shot", Cost(False, ALWAYS),
          ("opening", "wrong-opener"),
          Button("opening", profiles=DUO)),
    Fault("golf.duo.order", "Duo matches: Order of play", Cost(True, ZONE),
          ("order", "out-of-order", "wrong-player"),
          Button("order", profiles=DUO)),
    Fault("golf.duo.consult", "Duo matches: Consulting each other", Cost(False, NEVER),
          ("consult", "coaching", "gesture"),
          Button("consult", profiles=DUO)),
    Fault("golf.own-goal", "How you win; Scoring", Cost(False, ALWAYS),
          ("own-goal", "owngoal", "own-goal-ball", "wrong-goal", "into-own-goal", "own-gate"),
          Button("own-goal", True, place=8)),
    Fault("golf.clock", "Duo matches: Length of a turn", Cost(False, NEVER, points_out=True),
          ("time", "clock", "too-slow"),
          Button("time", True, place=9)),
)

BY_ID: dict[str, Fault[Cost]] = {f.id: f for f in FAULTS}
#: the fouls of duo matches only (their buttons: the duo format's)
DUO_ONLY = frozenset(f.id for f in FAULTS if f.button is not None and f.button.profiles == DUO)


def known_fouls() -> str:
    """The foul names an unknown one is refused with: short ids, then the full form."""
    short = sorted({f.id.removeprefix("golf.").removeprefix("foul.") for f in FAULTS})
    return f"{', '.join(short)}, or their full ids golf.foul.*"
