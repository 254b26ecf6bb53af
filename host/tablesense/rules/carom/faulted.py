"""A carom shot that ends the inning without a counted carom, decided in one pass: the state the
general decision (``decide`` on a ``Draft``, ``CaromEngine._played``) gives, for the shots of a
recorded match that go that way most often.

Those are the faults (``_faults``: called during or after the shot, the wrong ball struck, an
opening shot played wrong; a carom left in dedans, ``reste_dedans``), each ruled, the carom
voided, the inning ended without its announcement (``end_inning(announce=False)``: the poedel
once, the series), and the shots of too few cushions for the discipline (its own ruling, then
the inning's end announced). The next player at the table, his zone (libre) and his countdown
follow, then the amendment of each ``carom`` or ``foul`` the referee called after the rest. A jump
(a ball off the table, a fault that counts as one) puts the balls in the starting position for
the next player, no zone judged.

Anything else answers None, and the shot goes the general way as before: no fault and a carom,
a blameless shot (``no-blame``), a jump where the jumped balls go to their spots and the others
stay (``spot_jumped_balls``: liemers' driebanden), a wrong ball's carom that stands, the match
over or ending (the equalising inning played, the innings limit), a note, a frozen ball.

tests/rules/carom/test_carom_fault_at_once.py holds it to the general decision over made-up
matches.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ..base import Ruling
from ..ruling_log import RulingLog, Trail
from ..shot_engine import ShotRecord
from .fouls import BY_NAME
from .geometry import table as carom_table
from .match import CaromState, Match
from .plain import _zone
from .profiles import CUE_BALL, CUSHIONS_NEEDED, DISCIPLINE_RULE
from .resolve import (
    COUNTDOWN_RULE,
    IDX,
    OBJECTS,
    _faults,
    counted_carom_stands,
    innings_limit_reached,
    outlay,
    reste_dedans,
)
from .shot import Evidence, ShotFacts

replace = msgspec.structs.replace
#: whether ``_played`` asks ``faulted_shot`` first (a test turns it off to compare the two ways)
ON = True


def faulted_shot(before: CaromState, shot: ShotRecord, rest: Any, facts: ShotFacts) -> CaromState | None:
    """The state after ``shot`` (at rest at ``rest``, its events' and calls' ``facts``) played from
    ``before`` where the inning ends without a counted carom and the match goes on, as
    ``CaromEngine._played`` makes it; None anywhere else (the general way then)."""
    if before.ended is not None or facts.notes:
        return None  # the match over; a note (ruled after the shot's rulings)
    b = before.m
    if b.nastoot:
        return None  # the equalising inning played: the match ends
    profile = b.profile
    for key, _ft in facts.fouls:
        if key == "no-blame" or key not in BY_NAME:
            return None  # a blameless shot (void); a name ``foul_rule`` does not know
    later = shot.calls
    for call in later:
        if call.call in ("note", "frozen"):
            return None  # a ruling of its own, a frozen ball's choice: ``_after_call``
    player = before.at_table or "p1"
    discipline = b.discipline
    need = CUSHIONS_NEEDED[discipline]  # ``decide``: the carom, contacts or the referee
    contacts = facts.contacts
    both = facts.both_touched
    decides = contacts > 0 and (need == 0 or facts.cushions_known)  # ``contacts_decide``
    sensor_carom = decides and both and facts.cushions_before_third >= need  # ``counts_as_carom``
    called = facts.carom_called is not None
    carom = sensor_carom or called
    t = rest.t
    positions = rest.positions
    faults = _faults(b, player, facts, carom, t)
    if (carom and not faults and b.zone == "dedans"
            and reste_dedans(discipline, b.zone, b.zone_corner, positions, CUE_BALL[player],
                             carom_table(b.table))):
        faults.append(("reste-dedans", t))
    if carom and (not faults or counted_carom_stands(profile, facts, faults)):
        return None  # the carom counts: ``_carom``
    jump = False  # a fault that puts the balls back: the starting position for the next player
    for key, _ft in faults:
        if profile.respots(key):
            if discipline in profile.spot_jumped_balls:
                return None  # the jumped balls to their spots, the others where they lie
            jump = True
    i = IDX[player]
    run = b.run
    innings = b.innings
    runs = b.runs
    mine = runs[i]  # ``end_inning``: the run on the player's score sheet
    mine = Trail((run,), mine) if type(mine) is Trail else Trail(mine + (run,))
    if i == 0:
        innings, runs = (innings[0] + 1, innings[1]), (mine, runs[1])
    else:
        innings, runs = (innings[0], innings[1] + 1), (runs[0], mine)
    limit = b.innings_limit
    if limit and innings_limit_reached(player, "p2" if b.breaker == "p1" else "p1", limit, innings[i]):
        return None  # the innings limit: the match ends
    rulings: list[Ruling] = []
    if decides and both and not sensor_carom and not called:  # the discipline's cushions missing
        rulings.append(Ruling(t, DISCIPLINE_RULE[discipline], player,
                              (("cushions", facts.cushions_before_third), ("need", need))))
    announcement = "POEDEL" if run == 0 else None  # ``is_poedel``
    if faults:  # ``_fault``: each fault, the carom void, the inning's end not announced
        for key, ft in faults:
            rulings.append(Ruling(ft, profile.foul_rule(key, discipline), player,
                                  (("what", "fault"), ("foul", key))))
        if carom:
            rulings.append(Ruling(t, "carom.foul.carom-void", player))
        if run == 0:
            for r in rulings:  # not twice for a `foul poedel`
                if r.rule == "carom.poedel":
                    break
            else:
                rulings.append(Ruling(t, "carom.poedel", player))
    elif run == 0:  # ``end_inning``, announced
        rulings.append(Ruling(t, "carom.poedel", player))
    else:
        rulings.append(Ruling(t, "carom.inning.end", player, (("run", run),)))
    if run >= 2:  # ``is_series``
        rulings.append(Ruling(t, "carom.series", player, (("run", run),)))
    after = "p2" if player == "p1" else "p1"
    zone = corner = None  # ``update_zone`` for the next player (libre)
    if jump:  # no zone judged where the balls lay: the starting position, the next player's (``_fault``)
        positions = outlay(carom_table(b.table), after)
        rulings.append(Ruling(t, "carom.outlay", after, (("what", "respot"),)))
    elif positions is not None and discipline == "libre":
        zone, corner, zone_rulings = _zone(positions, OBJECTS[after], b.table, None, None, t, after)
        rulings.extend(zone_rulings)
    announce_from = profile.countdown_from  # ``countdown``: of the next player
    if announce_from:
        start = announce_from[discipline] if discipline in announce_from else None
        if start is not None:
            k = IDX[after]
            left = b.targets[k] - b.caroms[k]
            if 0 < left <= start:
                rulings.append(Ruling(t, COUNTDOWN_RULE, after, (("left", left),)))
    for call in later:  # ``_call_ruling``: the amendment of a ``carom`` or ``foul`` after the rest
        kind = call.call
        if kind == "carom" or kind == "foul":
            rulings.append(Ruling(call.t, "carom.referee.amend", shot.player, (("call", kind),)))
    evidence = Evidence(facts.cushions, facts.cushions_before_last_contact, contacts,
                        "referee" if called else ("contacts" if decides else "none"))
    m = Match(discipline, profile, b.scheme, b.table, b.targets, b.caroms, innings, b.high_run, 0, runs,
              limit, b.shot_clock, b.timeouts, b.timeouts_used, b.breaker, b.shots + 1, True, False, jump,
              zone, corner, positions, announcement, evidence, b.points)
    return replace(before, m=m, at_table=after, rulings=RulingLog(rulings, before.rulings))
