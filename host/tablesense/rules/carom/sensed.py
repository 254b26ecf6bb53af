"""A shot the sensors saw whole (a strike, cushions, contacts: a full-information table), with
no call after its rest, read and decided in one pass: the decision ``plain_parts`` makes of it
(``read_events``, then ``plain_decision``), without the ``ShotFacts`` between the two.

Most shots of a long match are such: a carom that leaves the match going on, or the end of an
inning that hands the table to the other player. ``sensed_shot`` reads the events (named as the
engine names the balls, in time order) into the few numbers those two outcomes read, and makes the
new ``Match`` and the ruling log as ``plain_decision`` makes them. Anything else answers None and
the shot goes the way it went before (``plain_parts``, and the general decision where that says
no): a ball off the table, a call among the events, the wrong ball struck, a ball named otherwise,
events out of time order, a carom of too few cushions, an opening shot played wrong, the last
carom, the equalising inning, the innings limit, the balls at rest in a corner's zone. An opening
shot played right (a carom from the outlay: ``opening_shot_ok``) is a carom like another.

tests/rules/carom/test_carom_sensed_shot.py holds it to ``plain_parts`` over made-up matches.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ...events import Contact, Cushion, Event, Strike
from ...shots import _NO_PINS, _OPEN, _SETTLING_PHASE, Cutter
from ..ruling_log import Trail
from ..ruling_log import made as made_when_read
from ..shot_engine import ShotRecord
from .geometry import _REACH
from .match import CaromState, Match
from .plain import _SHARED, _UNSEEN, _carom_rulings, _inning_rulings
from .profiles import CUE_BALL, CUSHIONS_NEEDED
from .resolve import IDX, OBJECTS
from .shot import Evidence
from .zones import _BEDS, in_a_corner

#: ball names as the engine knows them (a cushion or strike event may name none)
_NAMED = frozenset({"yellow", "white", "red", None})
_NO_CALLS = ()
replace = msgspec.structs.replace


def sensed_shot(before: CaromState, events: tuple[Event, ...], rest: Any) -> CaromState | None:
    """The state ``CaromEngine.whole`` makes of a shot of sensor ``events`` (one at least, a contact
    among them or a strike) and its ``rest`` with no call after it, played from ``before`` (not
    over, no shot open nor held: the caller makes sure): ``plain_parts(before, ShotRecord(
    before.at_table, events, rest), rest)``'s decision where it is a carom leaving the match going on
    or an inning's end handing the table over, with the shot stage's fields (the shot, the state
    before it, the cut: ``whole_cut``'s common case, the rest's time a float and no shot open); None
    anywhere else (``whole`` then decides it the other way)."""
    cut = before.cut
    t_rest = rest.t
    if type(t_rest) is not float or cut.phase == _OPEN:  # (``whole_cut`` then)
        return None
    b = before.m
    discipline = b.discipline
    need = CUSHIONS_NEEDED.get(discipline)
    if need is None or b.zone is not None:
        return None
    at_table = before.at_table
    player = at_table or "p1"
    cue = CUE_BALL[player]
    contacts = cushions = cue_cushions = before_first = before_third = before_last = 0
    known = True
    first = second = None  # the object balls the cue ball touched, in turn
    struck = None
    strike = False
    last = -1e308
    for ev in events:  # ``read_events``, with ``whole``'s naming of each: the facts the decision reads
        t = ev.t
        if t < last:  # out of time order: ``read_events`` sorts them
            return None
        last = t
        kind = type(ev)
        if kind is Cushion:
            ball = ev.ball  # type: ignore[attr-defined]
            cushions += 1
            if ball is None:
                known = False
            elif ball == cue:
                cue_cushions += 1
            elif ball not in _NAMED:
                return None
        elif kind is Contact:
            balls = ev.balls  # type: ignore[attr-defined]
            if not _NAMED.issuperset(balls):
                return None
            contacts += 1
            before_last = cushions
            if cue in balls:
                hit = balls[1] if balls[0] == cue else balls[0]
                if hit != cue:
                    if first is None:
                        first, before_first = hit, cue_cushions
                    elif second is None and hit != first:
                        second, before_third = hit, cue_cushions
        elif kind is Strike:
            ball = ev.ball  # type: ignore[attr-defined]
            if ball not in _NAMED:
                return None
            strike = True
            if struck is None and ball is not None:
                struck = ball
                if ball != cue:  # ``struck_wrong_ball``: not plain
                    return None
        else:  # a ball off the table, a call: ``plain_parts``
            return None
    if contacts == 0:
        before_last = cushions
    both = second is not None
    decides = contacts > 0 and (need == 0 or known)  # ``contacts_decide``
    carom = decides and both and before_third >= need  # ``counts_as_carom``
    if decides and both and not carom:  # the discipline's cushions missing: its own ruling
        return None
    positions = rest.positions
    zoned = positions is not None and discipline == "libre"
    i = IDX[player]
    if carom:  # ``_carom``, the match going on
        if b.from_outlay:  # ``judges_opening_shot``: played wrong, a fault (``plain_decision`` says no)
            if first != "red":  # ``opening_shot_ok``, inline: the red first
                return None
            if b.profile.opening_direct:  # then no cushion before it (kampioen)
                if before_first:
                    return None
            elif known and before_third <= before_first:  # else more before the third ball than the red
                return None
        caroms = b.caroms
        made = caroms[i] + 1
        if made >= b.targets[i]:  # the last carom: ``plain_decision``
            return None
        run = b.run + 1
        high = b.high_run  # ``plain.counted``, inline (its call here: +0.8 % of a recorded replay)
        if i == 0:
            caroms = (made, caroms[1])
            if run > high[0]:
                high = (run, high[1])
        else:
            caroms = (caroms[0], made)
            if run > high[1]:
                high = (high[0], run)
        innings, runs = b.innings, b.runs
        after = at_table
        objects = OBJECTS[player]  # (the zone asked of: the player's next shot)
        maker, value, count, announcement = _carom_rulings, made, 1, None
        cushions_ruled: int | None = before_third
    else:  # ``end_inning``, the table to the other player
        if b.nastoot:  # the equalising inning played: ``plain_decision``
            return None
        innings = b.innings
        limit = b.innings_limit
        if limit and player == ("p2" if b.breaker == "p1" else "p1") and innings[i] + 1 >= limit:
            return None  # ``innings_limit_reached``: ``plain_decision``
        after = "p2" if player == "p1" else "p1"
        objects = OBJECTS[after]
        value = b.run
        runs = b.runs  # ``_inning``, inline
        mine = runs[i]
        mine = Trail((value,), mine) if type(mine) is Trail else Trail(mine + (value,))  # ``Trail.plus``
        if i == 0:
            innings, runs = (innings[0] + 1, innings[1]), (mine, runs[1])
        else:
            innings, runs = (innings[0], innings[1] + 1), (runs[0], mine)
        caroms, high, run = b.caroms, b.high_run, 0
        maker, count, cushions_ruled = _inning_rulings, 1, None
        announcement = None
        if value == 0:  # ``is_poedel``
            announcement = "POEDEL"
        elif value >= 2:  # ``is_series``
            count = 2
    if zoned:  # ``update_zone``: the object balls in a corner's zone, ``plain_decision``'s
        # (``in_a_corner``'s common case, inline: the first object ball given as two floats far
        # from every corner of a known bed, none of it looked at by a call; anything else asks it:
        # a ball or bed missing, a position of other than two values, or not numbers, refused here)
        try:
            x, y = positions[objects[0]]
            length, width = _BEDS[b.table]
            across, along = width - y, length - x
            far = type(x) is float and type(y) is float \
                and (x if x <= along else along) + (y if y <= across else across) > _REACH
        except (KeyError, TypeError, ValueError):
            far = False
        if not far and in_a_corner(positions, objects, b.table):
            return None
    left = None
    announce_from = b.profile.countdown_from  # ``countdown``, of the player then at the table
    if announce_from and after is not None:
        start = announce_from[discipline] if discipline in announce_from else None
        if start is not None:
            k = IDX[after]
            left = b.targets[k] - caroms[k]
            if 0 < left <= start:
                count += 1
            else:
                left = None
    log = made_when_read(before.rulings, count, [maker, t_rest, player, value, cushions_ruled, after, left,
                                                 _NO_CALLS, at_table])
    if contacts == 0 and cushions < _SHARED and before_last == cushions:
        evidence = _UNSEEN[cushions]  # (``plain_decision``'s shared evidence)
    else:
        evidence = Evidence(cushions, before_last, contacts, "contacts" if decides else "none")
    m = Match(discipline, b.profile, b.scheme, b.table, b.targets, caroms, innings, high, run, runs,
              b.innings_limit, b.shot_clock, b.timeouts, b.timeouts_used, b.breaker, b.shots + 1, True,
              b.nastoot, False, None, None, positions, announcement, evidence, b.points)
    # the shot stage's fields as ``whole`` sets them: the cut after the shot (``whole_cut``'s common
    # case: the next shot, at rest at ``t_rest``, a strike among its events if any), the shot and the
    # state before it, which an undo goes back to
    return replace(before, m=m, at_table=after, rulings=log, before=before,
                   shot=ShotRecord(at_table, events, rest),
                   cut=Cutter(cut.strike_sensor, cut.window, cut.game, cut.shot + 1, _SETTLING_PHASE, t_rest,
                              False, False, _NO_PINS, cut.strikes or strike),
                   checkpoint=before)

