"""The referee's foul after a golf shot's rest, and the opponent's spot for the ball it puts
on a replacement spot, amending that shot in one step.

A foul called after a shot's rest amends the shot (``GolfEngine._amend``): the general way
adds the call to the shot and the base resolves the whole shot again from the state before
it (``AMEND``: ``resolve.staged``'s general path, ~90k instructions). For the shot such a call
is nearly always about (a plain one: cushions, goals of known balls, a strike of the shooter's
ball; no contact or ball off the table seen, no positions, no late drop, no call before this
one) and a foul that puts the balls back (``Cost.back``: the shot's goals do not count), the
general path decides little: the foul's ruling, the turn to the opponent, the ball played (and
any ball the opponent points out or the held ball) waiting for the opponent's replacement
spot, zone play where the score now makes it; a foul that holds back the opponent's ball sends
that ball into the goal, counted for them (``Cost.touched``: "goal"; their last ball, the frame
theirs, goes the general way). ``called_foul`` makes that state in one copy,
and ``called_spot`` the state after the opponent's ``spot`` call that follows (the general
way: the shot resolved again with both calls). Anything else (a foul that counts the shot's balls, a
triangle foul, a ball that repeats its spot, a frame already over on the score) answers None,
and the call goes the general way. ``stood_alone`` makes the state after a foul or the
clock's ``time`` with no shot to amend (``GolfEngine._standalone``) the same way, and
``called_spot`` the spot after it.

tests/rules/golf/test_golf_foul_amends_at_once.py holds the two ways equal over made-up
states and shots; tests/cli/test_replay_fast_paths.py turns these off (``called_foul``,
``called_spot``, ``stood_alone``) for whole recorded matches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from ...events import Call, Cushion, Goal, OffTable, Strike
from ...shots import Cutter
from ..fault import Fault
from ..records import Ruling
from ..ruling_log import RulingLog, made
from ..shot_engine import ShotRecord
from . import checks as rule
from .checks import _ZONE_TOUCHES
from .evidence import _extra
from .fouls import ALWAYS, BY_ID, NO_SHOT, ZONE, Cost
from .state import GolfState, Positions

replace = msgspec.structs.replace

#: fouls whose cost adds spots of their own or counts a ball (the general way decides them)
_OWN_WAY = frozenset({NO_SHOT, "golf.triangle.defensive", "golf.triangle.defensive.several",
                      "golf.triangle.attacking", "golf.own-goal"})
_BALLS = frozenset({"p1", "p2"})
#: the keys of the balls a foul puts on replacement spots (``resolve``'s ``spot{k}``; at most three)
_SPOT_KEYS = ("spot0", "spot1", "spot2")


def called_foul(state: GolfState, call: Call) -> GolfState | None:
    """The state after ``call`` (a canonical ``foul`` call about ``state``'s last shot, after its
    rest: ``GolfEngine._amend``'s ``AMEND``), as the general way makes it: the shot resolved again
    from the state before it with the call (``resolve.staged``), the shot stage's fields as the
    base's ``amend`` and ``_call`` set them; None where that shot or foul is not the plain case."""
    shot = state.shot
    if shot is None or shot.calls:
        return None
    return _fouled(state, call, (), call)


def called_spot(state: GolfState, call: Call) -> GolfState | None:
    """The state after ``call``, the opponent's ``spot`` (its ball named, checked by
    ``GolfEngine._spot``) for a ball the last unit's foul put on a replacement spot: the unit
    resolved again with it as ``called_foul`` or ``stood_alone`` resolves it (its calls: the
    foul, then spots)."""
    shot, before = state.shot, state.before
    if shot is None or before is None or not shot.calls or state.in_shot:
        return None
    first, *spots = shot.calls
    if any(c.call != "spot" for c in spots):
        return None
    if not shot.events and shot.rest is None:  # a unit that stands alone (``ShotEngine.amend``'s stage)
        unit = replace(shot, calls=(*shot.calls, call))
        return _alone(before, unit, (*spots, call), (before, unit, state.cut, False, state))
    if first.call != "foul":
        return None
    return _fouled(state, first, (*spots, call), call)


def spot_counted(state: GolfState, call: Call, item: tuple[float, str, str]) -> GolfState | None:
    """The state after ``call``, the opponent's first ``spot`` (``GolfEngine._spot`` checked it and
    found ``item``, the first of the ball's waiting) for the shooter's ball that ``state``'s last shot
    put on a replacement spot, where that shot is one ``counted.counted_shot`` counts (cushions, goals
    and balls off the table of named balls, a strike of the shooter's ball; no call, no late drop, no
    positions, no question open) and it started no zone play and won no frame: ``state`` with the
    spot's ruling after the shot's, the ball placed, its wait over, the call in the shot, the undo
    point ``state``, as the shot resolved again with the call makes it (``counted_shot``'s spots:
    the first spot called goes to the first ball waiting; its ruling after the count's, before zone
    play's). None for any other call, shot or state (the general way then)."""
    shot, before = state.shot, state.before
    if shot is None or before is None or shot.calls or shot.late or state.in_shot or state.questions:
        return None
    rest = shot.rest
    s = shot.player or "p1"
    if rest is None or rest.positions or call.ball != s or item[1] != s or state.spot_wait[0] is not item \
            or state.zone_play != before.zone_play or state.frame != before.frame or state.ended is not None:
        return None
    for e in shot.events:  # (``counted_shot``'s shot)
        kind = type(e)
        if kind is Cushion:
            continue
        if kind is Goal or kind is OffTable:
            if e.ball in _BALLS:  # type: ignore[attr-defined]
                continue
        elif kind is Strike and e.ball in (s, None):  # type: ignore[attr-defined]
            continue
        return None
    n = int(call.spot or 0)
    o = "p2" if s == "p1" else "p1"
    log = state.rulings
    rulings = made(log, 1, [_spot_ruling, item[0], o, s, n]) if type(log) is RulingLog \
        else log + _spot_ruling(item[0], o, s, n)
    placed = state.placed
    return replace(state, rulings=rulings, checkpoint=state, shot=replace(shot, calls=(call,)),
                   placed=(n, placed[1]) if s == "p1" else (placed[0], n),
                   placements=(*state.placements, (s, n)), spot_wait=state.spot_wait[1:])


def _spot_ruling(t: float, o: str, s: str, n: int) -> tuple[Ruling, ...]:
    """``spot_counted``'s ruling: ``o`` names spot ``n`` for ``s``'s ball that went to a replacement spot
    at ``t`` (``counted_shot``'s: a spot of 4 or 5, the fall-back ones, chosen)."""
    if n in (4, 5):
        return (Ruling(t, "golf.spot.fallback", o, (("ball", s), ("spot", n), ("what", "chosen"))),)
    return (Ruling(t, "golf.spot.choice", o, (("ball", s), ("spot", n))),)


def stood_alone(before: GolfState, unit: ShotRecord) -> GolfState | None:
    """The state after ``unit``, a foul or the clock's ``time`` that stands alone (no shot to
    amend: ``GolfEngine._standalone``, its checks made, ``before`` its questions closed), as
    ``resolve`` of it from ``before`` with the unit's stage fields makes it; None where it is
    not the plain case (a foul that counts a ball or adds spots of its own, a ball that repeats
    its spot, a frame over on the score)."""
    return _alone(before, unit, (), (before, unit, before.cut, before.in_shot, before.checkpoint))


def _alone(before: GolfState, unit: ShotRecord, spot_calls: tuple[Call, ...],
           stage: tuple[Any, ShotRecord, Cutter, bool, Any]) -> GolfState | None:
    """``resolve`` of ``unit`` (no events, no rest: a call that stands alone, then the ``spot_calls``)
    from ``before``, with the shot stage's fields ``stage``, where it is the plain case."""
    call = unit.calls[0]
    foul_id = "golf.clock" if call.call == "time" else call.foul if call.call == "foul" else None
    if foul_id is None or foul_id not in BY_ID or (foul_id in _OWN_WAY and foul_id != NO_SHOT):
        return None
    s = unit.player or "p1"
    foul = BY_ID[rule.touch_foul(foul_id, before.zone_play, True)]
    return _decided(before, s, foul, call, spot_calls, call.t, before.spot_wait, before.positions, stage)


def fouled_shot(pre: GolfState, shot: ShotRecord, stage: tuple[Any, ShotRecord | None, Cutter, bool, Any],
                ) -> GolfState | None:
    """``resolve.staged`` of ``shot`` from ``pre`` (its start, ``resolve.start_of``) where its calls
    are one foul that puts the balls back and then the opponent's ``spot`` calls, the foul called
    while the balls rolled (after the rest, ``called_foul`` amends the shot at once), the shot
    stage's fields ``stage``; None where the shot or the foul is not the plain case."""
    calls = shot.calls
    first = calls[0]
    if first.call != "foul":
        return None
    for c in calls[1:]:
        if c.call != "spot":
            return None
    found = _plain_foul(shot, first, pre.zone_play)
    if found is None:
        return None
    return _decided(pre, found[0], found[1], first, calls[1:], shot.rest.t, (), None, stage)  # type: ignore[union-attr]


def _fouled(state: GolfState, call: Call, spot_calls: tuple[Call, ...], last: Call) -> GolfState | None:
    """The state after the last shot of ``state`` resolved again with the calls ``call`` (a foul)
    and ``spot_calls`` after its rest (``last``: the one just made), where it is the plain case;
    else None."""
    shot, before = state.shot, state.before
    if shot is None or before is None or state.in_shot:
        return None
    pre = before
    if pre.questions or pre.spot_wait:  # ``resolve.start_of``
        pre = replace(pre, questions=(), spot_wait=())
    found = _plain_foul(shot, call, pre.zone_play)
    if found is None:
        return None
    return _decided(pre, found[0], found[1], call, spot_calls, shot.rest.t, (), None,  # type: ignore[union-attr]
                    (before, replace(shot, calls=(*shot.calls, last)), state.cut, False, state))


def _plain_foul(shot: ShotRecord, call: Call, zone: bool) -> tuple[str, Fault[Cost]] | None:
    """The shooter of ``shot`` and the foul ``call`` names (``zone``: in zone play, the touches'
    own names), where the shot is plain (cushions, goals of known balls, a strike of the
    shooter's ball; a rest without positions, no late drop) and the foul puts the balls back
    (``Cost.back``: none of the shot's balls count) and adds no spot of its own; else None."""
    if shot.late:
        return None
    rest = shot.rest
    if rest is None or rest.positions or not shot.events:
        return None
    foul_id = call.foul
    found = BY_ID.get(foul_id) if type(foul_id) is str else None
    if found is None or foul_id in _OWN_WAY:
        return None
    s = shot.player or "p1"
    for e in shot.events:
        kind = type(e)
        if kind is Cushion or (kind is Goal and e.ball in _BALLS) or (kind is Strike and e.ball in (s, None)):
            continue
        return None  # the opponent's ball struck, a contact, a ball off the table, a goal of no ball
    if not zone and foul_id in _ZONE_TOUCHES:  # (``rule.touch_foul`` of a call after a shot, inline)
        foul_id = "golf.foul.touch"
    foul = BY_ID[foul_id]
    if not foul.then.back:
        return None  # the shot's balls count
    return s, foul


def _decided(pre: GolfState, s: str, foul: Fault[Cost], call: Call, spot_calls: Sequence[Call], t_end: float,
             waiting_before: tuple[tuple[float, str, str], ...], positions: Positions | None,
             stage: tuple[Any, ShotRecord, Cutter, bool, Any]) -> GolfState | None:
    """``resolve``'s general path for a unit whose one foul (``foul``, called by ``call``) puts
    back whatever moved (none of its balls count) from ``pre`` (the unit's start, ``start_of``),
    the shooter ``s``: the foul's ruling, the balls it puts on replacement spots waiting for the
    opponent (after ``waiting_before``) or named by ``spot_calls``, the turn, zone play; the
    state's positions ``positions``, its shot stage's fields ``stage``. None where more is to
    decide."""
    spots = _SPOTS.get(foul.id)
    if spots is None:
        return None  # spots of its own
    zone = pre.zone_play
    si = 0 if s == "p1" else 1
    bl = pre.balls_left
    if foul.then.touched == "goal":  # the opponent's ball held back goes into the goal: it counts for them
        if bl[1 - si] < 2 or bl[si] == 0:
            return None  # their last ball (the frame is theirs), or a frame over on the score
        bl = (bl[0], bl[1] - 1) if si == 0 else (bl[0] - 1, bl[1])
    n_spots = spots[1] if zone else spots[0]
    # (``rule.spot_repeats`` of the shooter's own ball, fouled, inline)
    if 0 in bl or (n_spots and zone and pre.placed[si] is not None and bl[si] == 1):
        return None  # a frame over on the score, or the ball played back on its fouled spot
    t = call.t
    extra = call.extra
    data = tuple(_extra(extra).items()) if extra else ()  # (``_extra`` keeps "balls" alone)
    if zone:
        data = (*data, ("what", "zone"))
    o = "p2" if s == "p1" else "p1"
    members = pre.members  # (``rule.members_after`` of a turn lost, and ``rule.zone_play``, inline)
    if pre.duo:
        members = (1 - members[0], members[1]) if si == 0 else (members[0], 1 - members[1])
    now_zone = zone or 1 in bl
    zone_at = t_end if not zone and now_zone else None  # zone play starts at the rest
    placed, placements = pre.placed, ()
    log = pre.rulings
    if spot_calls or type(log) is not RulingLog:
        new = [Ruling(t, foul.id, s, data)]
        waiting = [*waiting_before, *((t, s, key) for key in _SPOT_KEYS[:n_spots])]
        for c in spot_calls:  # the opponent's choice for the first of that ball's waiting (``resolve``'s 5.)
            for item in waiting[len(waiting_before):]:
                if item[1] == c.ball:
                    break
            else:
                continue
            waiting.remove(item)
            n = int(c.spot or 0)
            if n in (4, 5):
                chosen = (("ball", s), ("spot", n), ("what", "chosen"))
                new.append(Ruling(t=t, rule="golf.spot.fallback", player=o, data=chosen))
            else:
                new.append(Ruling(t=t, rule="golf.spot.choice", player=o, data=(("ball", s), ("spot", n))))
            placed = (n, placed[1]) if si == 0 else (placed[0], n)
            placements = (*placements, (s, n))
        new.extend(_zone_rulings(zone_at))
        added = tuple(new)
        rulings = RulingLog(added, log) if type(log) is RulingLog else log + added
        spot_wait = tuple(waiting)
    else:  # no spot named: the foul's ruling (and zone play's) made only when read (``ruling_log.made``)
        rulings = made(log, 1 if zone_at is None else 2, [_foul_rulings, t, foul.id, s, data, zone_at])
        spot_wait = waiting_before
        for key in _SPOT_KEYS[:n_spots]:
            spot_wait = (*spot_wait, (t, s, key))
    stage_before, stage_shot, cut, in_shot, checkpoint = stage
    if positions is None and placed is pre.placed and members is pre.members and bl is pre.balls_left \
            and not placements and not pre.placements and not pre.questions and pre.positions is None \
            and pre.turn_positions is None and in_shot is pre.in_shot:
        # the common state (one against one, no positions, no ball placed or named, none counted): only
        # the fields that change given, in one copy, in the order of the fields
        return replace(pre, at_table=o, rulings=rulings, checkpoint=checkpoint, cut=cut, before=stage_before,
                       shot=stage_shot, zone_play=now_zone, frame_units=pre.frame_units + 1, clock=(o, t_end),
                       spot_wait=spot_wait)
    # (two copies: a call of 15 keywords or more is compiled through a dict, dearer than the copy)
    return replace(
        replace(pre, questions=(), balls_left=bl, placements=placements, spot_wait=spot_wait),
        rulings=rulings, frame_units=pre.frame_units + 1,
        at_table=o, members=members, zone_play=now_zone, clock=(o, t_end), positions=positions,
        turn_positions=positions, placed=placed,
        before=stage_before, shot=stage_shot, cut=cut, in_shot=in_shot, checkpoint=checkpoint,
    )


def _spots_of(cost: Cost, zone: bool) -> int:
    """How many balls a foul of ``cost`` puts on replacement spots (in zone play: ``zone``): the
    ball played (always, or in zone play), a ball the opponent points out, the touched own ball."""
    n_spots = 1 if cost.spot_played == ALWAYS or (cost.spot_played == ZONE and zone) else 0
    if cost.points_out and zone:
        n_spots += 1
    if cost.touched == "spot":
        n_spots += 1
    return n_spots


#: ``_decided``'s fouls (not those of ``_OWN_WAY`` but the touch between shots) -> the balls each puts
#: on replacement spots out of zone play and in it (``_spots_of``)
_SPOTS = {foul_id: (_spots_of(foul.then, False), _spots_of(foul.then, True))
          for foul_id, foul in BY_ID.items() if foul_id not in _OWN_WAY or foul_id == NO_SHOT}


def _zone_rulings(zone_at: float | None) -> tuple[Ruling, ...]:
    """Zone play starting at ``zone_at`` (the unit's rest), or nothing (None)."""
    return () if zone_at is None else (Ruling(t=zone_at, rule="golf.zone.play", player=None, data=()),)


def _foul_rulings(t: float, foul_id: str, s: str, data: tuple[tuple[str, Any], ...],
                  zone_at: float | None) -> tuple[Ruling, ...]:
    """``_decided``'s rulings with no spot named: the foul, then zone play starting at ``zone_at``
    if it does (a ruling log's node makes them when read)."""
    return (Ruling(t, foul_id, s, data), *_zone_rulings(zone_at))
