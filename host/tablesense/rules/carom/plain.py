"""A plain carom shot decided in one pass: the state the general decision (``decide`` on a
``Draft``, ``CaromEngine._played``) gives, for the shots most of a match is made of.

A plain shot is one without a fault of any kind (no foul called, no wrong ball struck, no
ball off the table, an opening shot that is none or is played right, no carom of too few
cushions), without a note, with no call after its rest but the referee's ``carom`` (its
amendment's ruling), in a match not over: a carom (the last one too: the equalising inning,
the match won or drawn) or the end of an inning (the last one too: the equalising inning
played, the innings limit), libre's zones too (entering one, dedans, leaving one: ``_zone``; a
carom left in dedans is a fault). For it the new score is one ``Match`` made from the one
before (no ``Draft``), its rulings one node of the log. Anything else answers None,
and the shot goes the general way (``decide``): the faults, a frozen ball.

A shot that does not end the match hands the log what its rulings are made of (``made``: a carom,
``_carom_rulings``; an inning's end, ``_inning_rulings``), not the rulings: they are made when
read, the same rulings (tests/rules/carom/test_carom_rulings_made_when_read.py).

The rules applied are the same named checks as ``decide``'s (``resolve``), in the same
order, with the same rulings; tests/rules/carom/test_carom_plain_shot.py holds the two
equal over made-up matches.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from ...events import Call
from ..base import Ruling
from ..records import Ended
from ..ruling_log import RulingLog, Trail
from ..ruling_log import made as made_when_read
from ..shot_engine import ShotRecord
from .geometry import table as carom_table
from .match import CaromState, Match
from .profiles import CUE_BALL, CUSHIONS_NEEDED
from .resolve import (
    COUNTDOWN_RULE,
    IDX,
    INNINGS_LIMIT_RULE,
    OBJECTS,
    innings_limit_reached,
    limit_winner,
    opening_shot_ok,
    outlay,
    reste_dedans,
    zone_entered,
)
from .shot import NO_FACTS, Evidence, ShotFacts, read_events, read_shot
from .targets import match_points
from .zones import in_a_corner, object_balls_zone

replace = msgspec.structs.replace
#: the parameters of a ``carom`` call's amendment (``_call_ruling``)
_AMEND = (("call", "carom"),)


#: what ``plain_decision`` decides: the new ``Match``, who is at the table after the shot, the
#: ruling log with the shot's rulings after ``before``'s and how the match ended (None: it goes on)
Decision = tuple[Match, str | None, RulingLog, Ended | None]


def plain_shot(before: CaromState, shot: ShotRecord, rest: msgspec.Struct) -> CaromState | None:
    """The state after ``shot`` (its ``rest`` given) played from ``before``, decided in one
    pass; None when the shot is not plain (the general decision takes it)."""
    decision = plain_parts(before, shot, rest)
    if decision is None:
        return None
    m, after, log, ended = decision
    return replace(before, m=m, at_table=after, rulings=log, ended=ended)


def plain_parts(before: CaromState, shot: ShotRecord, rest: msgspec.Struct,
                facts: ShotFacts | None = None) -> Decision | None:
    """``plain_shot``'s state as its parts (``Decision``), for a caller that copies the state
    before the shot once with them and fields of its own (``CaromEngine.whole``); None when the
    shot is not plain. ``facts``: its events' facts (``read_events``) where the caller has them
    (a shot with no calls after its rest)."""
    if before.ended is not None:
        return None
    calls = shot.calls
    for call in calls:
        if call.call != "carom":  # a foul (a fault), a note, a frozen ball: the general way
            return None
    global _read_last
    cue = CUE_BALL[before.at_table or "p1"]
    events = shot.events
    if calls:
        events = events + calls
    if facts is None or calls:
        facts = read_events(events, cue) if events else NO_FACTS  # ``read_shot``
    _read_last = (shot, cue, facts)
    return plain_decision(before, facts, facts.carom_called is not None, rest, calls, shot.player)


#: the shot ``plain_shot`` read last, its cue ball and its facts: a referee's call after that
#: shot's rest amends it from them (``amend``) without reading its events again. Read by
#: identity (``shot_facts``): a value of the shot it names, whatever was read since
_read_last: tuple[ShotRecord | None, str, ShotFacts] = (None, "", NO_FACTS)


def shot_facts(shot: ShotRecord, cue: str) -> ShotFacts:
    """``read_shot(shot, cue)``, read once per shot where ``plain_shot`` read it last."""
    last = _read_last
    if last[0] is shot and last[1] == cue:
        return last[2]
    return read_shot(shot, cue)


def counted(caroms: tuple[int, int], high: tuple[int, int], i: int, made: int,
            run: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """A carom counted for player ``i`` (0: p1, 1: p2): the caroms with its ``made``, the high
    runs with its ``run`` where the run is the player's highest yet."""
    if i == 0:
        return (made, caroms[1]), ((run, high[1]) if run > high[0] else high)
    return (caroms[0], made), ((high[0], run) if run > high[1] else high)


def plain_decision(before: CaromState, facts: ShotFacts, called: bool, rest: msgspec.Struct,
                   calls: tuple[Call, ...], shot_player: str | None) -> Decision | None:
    """``plain_shot``'s decision once the shot's ``facts`` are read, as its parts; None when the
    shot is not plain. ``called``: the referee called its carom (``facts.carom_called``, or a
    call after the rest the facts were read without: ``amend``); ``calls``: the calls after its
    rest, ``carom`` calls only; ``before`` is not over (the callers make sure). The zones of libre
    (``update_zone``: entering one, dedans, leaving one) are decided here too, but a carom that
    leaves the balls in dedans (``reste_dedans``, a fault: the general decision)."""
    b = before.m
    at_table = before.at_table
    player = at_table or "p1"
    cue = CUE_BALL[player]
    if facts.fouls or facts.jumped or facts.notes:
        return None
    struck = facts.struck
    if struck is not None and struck != cue:  # ``struck_wrong_ball``
        return None
    discipline = b.discipline
    need = CUSHIONS_NEEDED[discipline]
    contacts = facts.contacts
    both = facts.both_touched
    decides = contacts > 0 and (need == 0 or facts.cushions_known)  # ``contacts_decide``
    sensor_carom = decides and both and facts.cushions_before_third >= need  # ``counts_as_carom``
    carom = sensor_carom or called
    if decides and both and not carom:  # the discipline's cushions missing: its own ruling
        return None
    if carom and b.from_outlay and contacts > 0 and both \
            and not opening_shot_ok(facts, b.profile.opening_direct):  # ``judges_opening_shot``
        return None
    t = rest.t  # type: ignore[attr-defined]
    positions = rest.positions  # type: ignore[attr-defined]
    zoned = positions is not None and discipline == "libre"
    was = b.zone  # the zone the shot was played from (None: none)
    if carom and was == "dedans" and zoned \
            and reste_dedans(discipline, was, b.zone_corner, positions, cue, carom_table(b.table)):
        return None  # ``reste_dedans``: a fault
    zone = corner = None  # the zone after the shot, and its rulings (``update_zone``)
    zone_rulings: list[Ruling] | None = None
    i = 0 if player == "p1" else 1
    caroms, innings, high, runs = b.caroms, b.innings, b.high_run, b.runs
    nastoot, from_outlay, points = b.nastoot, False, b.points
    announcement = ended = None
    after = at_table
    #: the rulings of a shot that leaves the match going on, made when read: their maker
    #: (``_carom_rulings``, ``_inning_rulings``) and the carom made or the run ended; else a list
    maker: Any = None
    rulings: list[Ruling] = []
    if carom:  # ``_carom``
        made = caroms[i] + 1
        target = b.targets[i]
        reached = made >= target  # ``reaches_target``: the last carom ends the inning
        if not reached and zoned and (was is not None or in_a_corner(positions, OBJECTS[player], b.table)):
            zone, corner, zone_rulings = _zone(positions, OBJECTS[player], b.table, was, b.zone_corner, t,
                                               player)
        run = b.run + 1
        caroms, high = counted(caroms, high, i, made, run)
        cushions = facts.cushions_before_third if contacts > 0 else facts.cushions
        if not reached:
            maker, value = _carom_rulings, made
        else:  # ``end_inning(announce=False, reached=True)``
            rulings.append(Ruling(t, "carom.carom", player, (("made", made), ("cushions", cushions))))
            rulings.append(Ruling(t, "carom.last-carom", player, (("target", target),)))
            innings, runs = _inning(innings, runs, i, run)  # (the last carom: once a match)
            if run >= 2:  # ``is_series``
                rulings.append(Ruling(t, "carom.series", player, (("run", run),)))
            breaker = b.breaker
            if player == breaker and not nastoot:  # ``equalising_inning_due``
                after = "p2" if breaker == "p1" else "p1"
                nastoot, from_outlay, positions = True, True, outlay(carom_table(b.table), after)
                rulings.append(Ruling(t, "carom.nastoot", after))
            elif nastoot:
                ended, points = _finish(rulings, b, "draw", caroms, t, "carom.draw")
            else:
                ended, points = _finish(rulings, b, player, caroms, t, "carom.match.won")
            run = 0
    else:  # ``end_inning``
        run = b.run
        cushions = None
        mine = runs[i]  # ``_inning``, inline: once an inning
        mine = Trail((run,), mine) if type(mine) is Trail else Trail(mine + (run,))  # ``Trail.plus``
        if i == 0:
            innings, runs = (innings[0] + 1, innings[1]), (mine, runs[1])
        else:
            innings, runs = (innings[0], innings[1] + 1), (runs[0], mine)
        if run == 0:  # ``is_poedel``
            announcement = "POEDEL"
        limit = b.innings_limit
        breaker = b.breaker
        if nastoot or (limit and innings_limit_reached(player, "p2" if breaker == "p1" else "p1", limit,
                                                        innings[i])):
            if run == 0:
                rulings.append(Ruling(t, "carom.poedel", player))
            else:
                rulings.append(Ruling(t, "carom.inning.end", player, (("run", run),)))
                if run >= 2:  # ``is_series``
                    rulings.append(Ruling(t, "carom.series", player, (("run", run),)))
            if nastoot:  # the equalising inning played: the breaker has won
                ended, points = _finish(rulings, b, breaker, caroms, t, "carom.match.won", "short")
            else:  # the innings limit
                won = limit_winner(caroms, b.targets)
                ended, points = _finish(rulings, b, won, caroms, t, INNINGS_LIMIT_RULE,
                                        "draw" if won == "draw" else None, innings[i])
        else:
            after = "p2" if player == "p1" else "p1"  # ``other(player)``
            maker, value = _inning_rulings, run
            if zoned and in_a_corner(positions, OBJECTS[after], b.table):
                zone, corner, zone_rulings = _zone(positions, OBJECTS[after], b.table, None, None, t, after)
        run = 0
    left = None
    if ended is None:  # ``countdown`` (``caroms_to_go``, inline)
        announce_from = b.profile.countdown_from
        if announce_from and after is not None:
            start = announce_from[discipline] if discipline in announce_from else None
            if start is not None:
                k = IDX[after]
                left = b.targets[k] - caroms[k]
                if not 0 < left <= start:
                    left = None
    if zone_rulings:  # the match goes on, a zone entered or left: its rulings made at once
        rulings = [*maker(t, player, value, cushions, after, None, (), shot_player), *zone_rulings]
        maker = None
    if maker is not None:  # the match goes on: its rulings made when read, the same
        count = 1 + len(calls)
        if left is not None:
            count += 1
        if maker is _inning_rulings and value >= 2:  # ``is_series``
            count += 1
        log = made_when_read(before.rulings, count, [maker, t, player, value, cushions, after, left, calls,
                                                     shot_player])
    else:
        if left is not None:
            rulings.append(Ruling(t, COUNTDOWN_RULE, after, (("left", left),)))
        for call in calls:  # the referee's ``carom`` after the rest: ``_call_ruling``'s amendment
            rulings.append(Ruling(call.t, "carom.referee.amend", shot_player, _AMEND))
        log = RulingLog(rulings, before.rulings)
    c = facts.cushions
    if contacts == 0 and 0 <= c < _SHARED and facts.cushions_before_last_contact == c:
        evidence = (_CALLED if called else _UNSEEN)[c]  # the cushion sensors alone: one of these
    else:
        evidence = Evidence(c, facts.cushions_before_last_contact, contacts,
                            "referee" if called else ("contacts" if decides else "none"))
    m = Match(discipline, b.profile, b.scheme, b.table, b.targets, caroms, innings, high, run, runs,
              b.innings_limit, b.shot_clock, b.timeouts, b.timeouts_used, b.breaker, b.shots + 1, True,
              nastoot, from_outlay, zone, corner, positions, announcement, evidence, points)
    return m, after, log, ended


def _zone(positions: dict[str, Any], objects: tuple[str, str], bed: str, was: str | None,
          was_corner: str | None, t: float, player: str) -> tuple[str | None, str | None, list[Ruling]]:
    """``update_zone`` for ``player``'s next shot, the balls at rest at ``positions`` (libre): the
    zone, its corner and the rulings (``was``: the zone of his shot before, where he plays on)."""
    corner, on_line = object_balls_zone(positions, objects, carom_table(bed))
    if corner is None:  # out of every zone: said where he was in one
        return None, None, [Ruling(t, "carom.zone", player)] if was is not None else []
    out = [Ruling(t, "carom.zone.line", player)] if on_line else []
    status = zone_entered(was, was_corner, corner)
    out.append(Ruling(t, "carom.zone.dedans" if status == "dedans" else "carom.zone.entree", player,
                      (("corner", corner),)))
    return status, corner, out


#: the evidence of a shot without contacts (the cushion sensors alone saw it) of ``c`` cushions,
#: ``c`` below ``_SHARED``: the referee's carom (``_CALLED[c]``) or nothing decided (``_UNSEEN[c]``);
#: immutable values, shared by the states that show them
_SHARED = 64
_CALLED = tuple(Evidence(c, c, 0, "referee") for c in range(_SHARED))
_UNSEEN = tuple(Evidence(c, c, 0, "none") for c in range(_SHARED))


def unseen_cushions(before: CaromState, shot: ShotRecord, facts: ShotFacts,
                    rest: msgspec.Struct) -> tuple[Match, str, RulingLog] | Literal[False] | None:
    """``plain_parts(before, shot, rest, facts)`` of a shot of cushion events alone with no call
    after its rest (``facts``: ``cushion_facts`` of them), where the inning's end leaves the
    match going on: its new ``Match``, the player then at the table and the ruling log. False
    where the balls lie in a corner's zone for the next player (``plain_parts`` answers None
    there: the shot is not plain); None anywhere else (the equalising inning played, the innings
    limit): ``plain_parts`` then. ``before`` is not over (the caller makes sure).

    The same decision with what such a shot cannot have left out: no contact decides a carom
    and the referee called none, so the inning ends (``end_inning``: the run on the player's
    score sheet, a poedel announced, the turn to the other player)."""
    global _read_last
    b = before.m
    at_table = before.at_table
    player = at_table or "p1"
    discipline = b.discipline
    if discipline not in CUSHIONS_NEEDED or b.nastoot or b.zone is not None:
        return None  # (refused by ``plain_decision``; the equalising inning's end; a zone: ``decide``)
    i = 0 if player == "p1" else 1
    innings, runs = b.innings, b.runs
    mine = runs[i]  # ``_inning``, inline
    mine = Trail((b.run,), mine) if type(mine) is Trail else Trail(mine + (b.run,))  # ``Trail.plus``
    if i == 0:
        innings, runs = (innings[0] + 1, innings[1]), (mine, runs[1])
        after = "p2"
    else:
        innings, runs = (innings[0], innings[1] + 1), (runs[0], mine)
        after = "p1"
    limit = b.innings_limit
    if limit and innings_limit_reached(player, "p2" if b.breaker == "p1" else "p1", limit, innings[i]):
        return None
    positions = rest.positions  # type: ignore[attr-defined]
    if positions is not None and discipline == "libre" and in_a_corner(positions, OBJECTS[after], b.table):
        _read_last = (shot, CUE_BALL[player], facts)
        return False  # ``update_zone``: not plain
    _read_last = (shot, CUE_BALL[player], facts)  # (``plain_parts``: a call after the rest reads them)
    run = b.run
    left = None
    announce_from = b.profile.countdown_from  # ``countdown``: of the other player, now at the table
    if announce_from:
        start = announce_from[discipline] if discipline in announce_from else None
        if start is not None:
            k = 1 - i
            left = b.targets[k] - b.caroms[k]
            if not 0 < left <= start:
                left = None
    count = 1 if run < 2 else 2  # the poedel or the run, and the series
    if left is not None:
        count += 1
    log = made_when_read(before.rulings, count, [_inning_rulings, rest.t, player, run, None, after, left,  # type: ignore[attr-defined]
                                                 shot.calls, shot.player])
    c = facts.cushions
    m = Match(discipline, b.profile, b.scheme, b.table, b.targets, b.caroms, innings, b.high_run, 0, runs,
              limit, b.shot_clock, b.timeouts, b.timeouts_used, b.breaker, b.shots + 1, True,
              False, False, None, None, positions, None if run else "POEDEL",
              _UNSEEN[c] if c < _SHARED else Evidence(c, c, 0, "none"), b.points)
    return m, after, log


def _carom_rulings(t: float, player: str, made: int, cushions: int, after: str | None, left: int | None,
                   calls: tuple[Call, ...], shot_player: str | None) -> tuple[Ruling, ...]:
    """A carom's rulings (``_carom``) that leave the match going on: the carom, the countdown
    (``left``, of ``after``) and the amendment of each ``carom`` the referee called after its rest."""
    if left is None and not calls:  # the carom alone
        return (Ruling(t, "carom.carom", player, (("made", made), ("cushions", cushions))),)
    out = [Ruling(t, "carom.carom", player, (("made", made), ("cushions", cushions)))]
    if left is not None:
        out.append(Ruling(t, COUNTDOWN_RULE, after, (("left", left),)))
    for call in calls:
        out.append(Ruling(call.t, "carom.referee.amend", shot_player, _AMEND))
    return tuple(out)


def _inning_rulings(t: float, player: str, run: int, cushions: None, after: str, left: int | None,
                    calls: tuple[Call, ...], shot_player: str | None) -> tuple[Ruling, ...]:
    """An inning's end (``end_inning``) that leaves the match going on, ``after`` at the table: the
    poedel or the run (and the series), the countdown (``left``), each amendment after the rest."""
    if run == 0:  # ``is_poedel``
        out = [Ruling(t, "carom.poedel", player)]
    else:
        out = [Ruling(t, "carom.inning.end", player, (("run", run),))]
        if run >= 2:  # ``is_series``
            out.append(Ruling(t, "carom.series", player, (("run", run),)))
    if left is not None:
        out.append(Ruling(t, COUNTDOWN_RULE, after, (("left", left),)))
    for call in calls:
        out.append(Ruling(call.t, "carom.referee.amend", shot_player, _AMEND))
    return tuple(out)


def _inning(innings: tuple[int, int], runs: tuple[Any, Any], i: int,
            run: int) -> tuple[tuple[int, int], tuple[Any, Any]]:
    """Player ``i``'s inning ended with ``run``: one more inning, the run on his score sheet
    (``Trail.plus``: shares the runs before it)."""
    mine = runs[i]
    mine = Trail((run,), mine) if type(mine) is Trail else Trail(mine + (run,))  # ``Trail.plus``
    if i == 0:
        return (innings[0] + 1, innings[1]), (mine, runs[1])
    return (innings[0], innings[1] + 1), (runs[0], mine)


def _finish(rulings: list[Ruling], b: Match, winner: str, caroms: tuple[int, int], t: float, rule: str,
            what: str | None = None, innings: int | None = None) -> tuple[Ended, tuple[int, int]]:
    """``resolve._finish``: the match over, ``winner`` ("draw": nobody) by ``rule``; its rulings
    added to ``rulings``; how it ended (``ShotEngine.end``) and the match points."""
    scheme, targets = b.scheme, b.targets
    pts = match_points(scheme, winner, caroms, targets)
    params = () if innings is None else (("innings", innings),)
    rulings.append(Ruling(t, rule, None if winner == "draw" else winner,
                          params if what is None else (("what", what), *params)))
    rulings.append(Ruling(t, "carom.match-points.de-bruijn", None,
                          (("p1", pts[0]), ("p2", pts[1]), ("scheme", scheme))))
    data = (("caroms", {"p1": caroms[0], "p2": caroms[1]}), ("targets", {"p1": targets[0], "p2": targets[1]}),
            ("match_points", {"p1": pts[0], "p2": pts[1]}))  # (the items of a dict, in its order)
    if what == "short":
        data += (("equalising_inning", "short"),)
    return Ended(rule, winner, data), pts
