"""Golf billiards fouls: what each costs.

Every foul of seeds/golf.md is one ``Foul`` row: its catalogue id, whether the balls
moved by the shot are put back (so goals of the shot do not count), what happens to
the ball played (replacement spot always, only in zone play, or never), whether in
zone play the opponent points out a ball to be placed on a replacement spot, and any
ball the foul sends elsewhere (``touched``: the held-back ball). Every foul costs the
turn. The names a referee may call them by are in ``tablesense.rules.golf.names``; the
sentences in ``texts/<lang>/golf.ftl``.
"""

from __future__ import annotations

from typing import NamedTuple

# how the ball played is treated
ALWAYS = "always"
ZONE = "zone"
NEVER = "never"


class Foul(NamedTuple):
    id: str
    back: bool  # all moved balls put back: goals and off-table balls of the shot do not count
    spot_played: str  # ALWAYS, ZONE or NEVER
    points_out: bool = False  # in zone play the opponent points out a ball for a replacement spot
    touched: str | None = None  # "spot": the touched own ball to a spot; "goal": opponent's ball into goal


FOULS: tuple[Foul, ...] = (
    Foul('golf.foul.foot', True, ZONE),
    Foul('golf.foul.jump', True, ALWAYS),
    Foul('golf.foul.lift', True, ALWAYS),
    Foul('golf.foul.hard-shot', True, ALWAYS),
    Foul('golf.foul.aim-behind', False, NEVER, points_out=True),
    Foul('golf.foul.opponent-ball', True, NEVER, points_out=True),
    Foul('golf.foul.not-at-rest', True, ZONE),
    Foul('golf.foul.touch', True, ALWAYS),
    Foul('golf.foul.touch.no-shot', True, NEVER),
    Foul('golf.foul.touch.own-ball', True, ALWAYS),
    Foul('golf.foul.touch.opponent-ball', True, NEVER, points_out=True),
    Foul('golf.foul.hold.own-ball', True, NEVER, touched='spot'),
    Foul('golf.foul.hold.opponent-ball', True, ALWAYS, touched='goal'),
    Foul('golf.foul.push', True, ALWAYS),
    Foul('golf.foul.touching-ball', True, ALWAYS),
    Foul('golf.foul.push-through', True, ALWAYS),
    Foul('golf.foul.own-ball', True, ALWAYS),
    Foul('golf.triangle.defensive', True, NEVER),
    Foul('golf.triangle.defensive.several', True, NEVER),
    Foul('golf.triangle.attacking', False, NEVER),
    Foul('golf.zone.leave', False, ALWAYS),
    Foul('golf.duo.opening', False, ALWAYS),
    Foul('golf.duo.order', True, ZONE),
    Foul('golf.duo.consult', False, NEVER),
    Foul('golf.own-goal', False, ALWAYS),
    Foul('golf.clock', False, NEVER, points_out=True),
)

BY_ID: dict[str, Foul] = {f.id: f for f in FOULS}
#: the fouls of duo matches only
DUO_ONLY = frozenset({"golf.duo.opening", "golf.duo.order", "golf.duo.consult"})


def known_fouls() -> str:
    """The foul names an unknown one is refused with: short ids, then the full form."""
    short = sorted({f.id.removeprefix("golf.").removeprefix("foul.") for f in FOULS})
    return f"{', '.join(short)}, or their full ids golf.foul.*"
