"""The referee's decision on one carom shot, on a ``Draft`` (pure; seeds/carom.md).

``decide`` takes the score before the shot and the shot's facts (``shot``) and
rules: no blame, the carom (contacts or the referee), the faults, the inning's end,
the equalising inning, the match's end and its points, the zone for the next shot.
Every ruling is data: a rule id and its parameters (``texts/<lang>/carom.ftl``
says them). Whatever differs between the clubs is asked of the profile record.
"""

from __future__ import annotations

import math
from typing import Any

from ..base import other
from ..ruling_log import Trail
from .geometry import CaromTable, opening_positions
from .geometry import table as carom_table
from .match import Draft, Match
from .profiles import CUE_BALL, CUSHIONS_NEEDED, DISCIPLINE_RULE
from .shot import ShotFacts
from .targets import match_points
from .zones import ball_xy, object_balls_zone, still_in

IDX = {"p1": 0, "p2": 1}
COUNTDOWN_RULE = "carom.countdown"


def decide(d: Draft, b: Match, player: str, facts: ShotFacts, t: float) -> None:
    """Rule on the shot ``player`` played from the score ``b``; ``d`` starts as ``b``."""
    tab = carom_table(b.table)
    cue = CUE_BALL[player]
    fouls = list(facts.fouls)
    blameless = [ft for key, ft in fouls if key == "no-blame"]
    if blameless:
        d.positions, d.shots = b.positions, b.shots
        d.rule(blameless[0], "carom.foul.no-blame", player)
        return
    # a shot has been played: the balls no longer lie in the starting position unless a
    # rule puts them back (jump, equalising inning); the opponent's next shot is no break
    d.from_outlay = False
    # the carom: contacts decide; the referee's call counts it too (003 Art. 3)
    need = CUSHIONS_NEEDED[b.discipline]
    decides = facts.full_information and (need == 0 or facts.cushions_known)
    sensor_carom = decides and facts.both_touched and facts.cushions_before_third >= need
    carom = sensor_carom or facts.carom_called is not None
    decided_by = "referee" if facts.carom_called is not None else ("contacts" if decides else "none")
    d.evidence = facts.evidence(decided_by)
    if decides and facts.both_touched and not sensor_carom and facts.carom_called is None:
        d.rule(t, DISCIPLINE_RULE[b.discipline], player, cushions=facts.cushions_before_third, need=need)
    faults = _faults(b, player, facts, carom, fouls, t)
    if carom and not faults and b.discipline == "libre" and b.zone == "dedans" and b.zone_corner:
        if still_in(d.positions, objects(cue), b.zone_corner, tab):
            faults.append(("reste-dedans", t))
    if faults:
        _fault(d, b, player, facts, faults, carom, t, tab)
    elif carom:
        _carom(d, b, player, facts, t, tab)
    else:
        end_inning(d, player, t, tab)


def countdown(d: Draft, t: float) -> None:
    """COUNTDOWN_RULE (liemers): the caroms the player at the table still has to make."""
    b = d.base
    if not b.profile.countdown_from:
        return
    left = caroms_to_go(b.profile.countdown_from, b.discipline, d.finished, d.at_table, b.targets, d.caroms)
    if left is not None:
        d.rule(t, COUNTDOWN_RULE, d.at_table, left=left)


def caroms_to_go(announce_from: Any, discipline: str, finished: bool, at_table: str | None,
                 targets: tuple[int, int], caroms: tuple[int, int]) -> int | None:
    """The countdown a profile announces, from its ``countdown_from`` (liemers: 5,
    driebanden 3) down; None when the referee announces nothing."""
    start = announce_from.get(discipline)
    if start is None or finished or at_table is None:
        return None
    i = IDX[at_table]
    left = targets[i] - caroms[i]
    return left if 0 < left <= start else None


def _faults(b: Match, player: str, facts: ShotFacts, carom: bool, fouls: list[tuple[str, float]],
            t: float) -> list[tuple[str, float]]:
    out = list(fouls)
    keys = {k for k, _ in out}
    profile = b.profile
    if facts.struck is not None and facts.struck != CUE_BALL[player] and "wrong-ball" not in keys:
        out.append(("wrong-ball", t))
    # a ball off the table is a jump; a called woodwork fault stands for it only where touching
    # the woodwork is itself a jump (kampioen), not under liemers, where they differ
    if facts.jumped and not any(profile.respots(k) for k in keys):
        out.append(("jump", t))
    if carom and b.from_outlay and facts.full_information and facts.both_touched:
        ok = facts.first_object == "red"
        if profile.opening_direct:
            ok = ok and facts.cushions_before_first == 0
        elif facts.cushions_known:
            ok = ok and facts.cushions_before_third > facts.cushions_before_first
        if not ok and "opening-shot" not in keys:
            out.append(("opening-shot", t))
    return out


def _fault(d: Draft, b: Match, player: str, facts: ShotFacts, faults: list[tuple[str, float]],
           carom: bool, t: float, tab: CaromTable) -> None:
    profile = b.profile
    # 003 Art. 5.12: a carom the referee has counted stands though made with the wrong ball;
    # a wrong ball called before the count is a plain fault
    if (profile.counted_wrong_ball_stands and facts.carom_called is not None
            and not facts.wrong_ball_called_first and all(k == "wrong-ball" for k, _ in faults)):
        d.rule(facts.carom_called, "carom.wrong-ball.counted", player)
        _carom(d, b, player, facts, t, tab)
        return
    jump = False
    for key, ft in faults:
        jump = jump or profile.respots(key)
        d.rule(ft, profile.foul_rule(key, b.discipline), player, "fault", foul=key)
    if carom:
        d.rule(t, "carom.foul.carom-void", player)
    # after a jump the balls go to their spots (003 Art. 4): no zone is judged where they lay
    end_inning(d, player, t, tab, announce=False, zone=not jump)
    if jump and not d.finished:
        if b.discipline in profile.spot_jumped_balls:
            d.positions = _spot_jumped(d.positions, facts.jumped, CUE_BALL[player], tab)
            update_zone(d, None, d.at_table or other(player), tab, t, same_player=False)
        else:
            nxt = d.at_table or other(player)
            d.from_outlay, d.positions, d.zone, d.zone_corner = True, outlay(tab, nxt), None, None
            d.rule(t, "carom.outlay", nxt, "respot")


def _carom(d: Draft, b: Match, player: str, facts: ShotFacts, t: float, tab: CaromTable) -> None:
    i = IDX[player]
    made = b.caroms[i] + 1
    d.run = b.run + 1
    d.caroms = with_entry(b.caroms, i, made)
    d.high_run = with_entry(b.high_run, i, max(d.run, b.high_run[i]))
    d.from_outlay = False
    d.rule(t, "carom.carom", player, made=made,
           cushions=facts.cushions_before_third if facts.full_information else facts.cushions)
    if made >= b.targets[i]:
        d.rule(t, "carom.last-carom", player, target=b.targets[i])
        end_inning(d, player, t, tab, announce=False, reached=True)
        return
    update_zone(d, b, player, tab, t, same_player=True)


def end_inning(d: Draft, player: str, t: float, tab: CaromTable, announce: bool = True,
               reached: bool = False, zone: bool = True) -> None:
    i = IDX[player]
    run = d.run
    innings = d.innings
    d.innings = with_entry(innings, i, innings[i] + 1)
    d.runs = (Trail.plus(d.runs[0], run), d.runs[1]) if i == 0 else (d.runs[0], Trail.plus(d.runs[1], run))
    d.run = 0
    if announce:
        if run == 0:
            d.announcement = "POEDEL"
            d.rule(t, "carom.poedel", player)
        else:
            d.rule(t, "carom.inning.end", player, run=run)
    elif run == 0 and not reached:
        # a fault in the inning's first shot: no valid carom, NUL or POEDEL too (003 Art. 8)
        d.announcement = "POEDEL"
        if not any(r.rule == "carom.poedel" for r in d.rulings):  # not twice for a `foul poedel`
            d.rule(t, "carom.poedel", player)
    if run >= 2:
        d.rule(t, "carom.series", player, run=run)
    breaker = d.base.breaker
    second = other(breaker)
    if reached and player == breaker and not d.nastoot:
        d.at_table, d.nastoot, d.from_outlay = second, True, True
        d.positions, d.zone, d.zone_corner = outlay(tab, second), None, None
        d.rule(t, "carom.nastoot", second)
    elif reached and d.nastoot:
        _finish(d, "draw", t, "carom.draw")
    elif reached:
        _finish(d, player, t, "carom.match.won")
    elif d.nastoot:
        _finish(d, breaker, t, "carom.match.won", "short")
    elif player == second and d.base.innings_limit and d.innings[i] >= d.base.innings_limit:
        won = limit_winner(d.caroms, d.base.targets)
        _finish(d, won, t, INNINGS_LIMIT_RULE, "draw" if won == "draw" else None, innings=d.innings[i])
    else:
        d.at_table = other(player)
        if zone:
            update_zone(d, None, d.at_table, tab, t, same_player=False)


INNINGS_LIMIT_RULE = "carom.innings-limit"


def limit_winner(caroms: tuple[int, int], targets: tuple[int, int]) -> str:
    """INNINGS_LIMIT_RULE: the innings are up with neither target reached: the larger share
    of one's target wins (caroms / target), the same share is a draw."""
    a, b = caroms[0] * targets[1], caroms[1] * targets[0]  # caroms[0]/targets[0] vs caroms[1]/targets[1]
    return "p1" if a > b else "p2" if b > a else "draw"


def _finish(d: Draft, winner: str, t: float, rule: str, what: str | None = None, **params: Any) -> None:
    scheme, caroms, targets = d.base.scheme, d.caroms, d.base.targets
    pts = match_points(scheme, winner, caroms, targets)
    d.finished, d.winner, d.points, d.zone, d.zone_corner = True, winner, pts, None, None
    d.rule(t, rule, None if winner == "draw" else winner, what, **params)
    d.rule(t, "carom.match-points.de-bruijn", None, p1=pts[0], p2=pts[1], scheme=scheme)
    d.ended = (rule, {"caroms": {"p1": caroms[0], "p2": caroms[1]},
                      "targets": {"p1": targets[0], "p2": targets[1]},
                      "match_points": {"p1": pts[0], "p2": pts[1]},
                      **({"equalising_inning": "short"} if what == "short" else {})})


def update_zone(d: Draft, b: Match | None, player: str, tab: CaromTable, t: float,
                same_player: bool) -> None:
    """Zone status for ``player``'s next shot (libre only, from the rest positions)."""
    if d.base.discipline != "libre" or d.positions is None:
        d.zone = d.zone_corner = None
        return
    corner, on_line = object_balls_zone(d.positions, objects(CUE_BALL[player]), tab)
    was = b.zone if (same_player and b is not None) else None
    if corner is None:
        if was is not None:
            d.rule(t, "carom.zone", player)
        d.zone = d.zone_corner = None
        return
    if on_line:
        d.rule(t, "carom.zone.line", player)
    if was is not None and b is not None and b.zone_corner == corner:
        d.zone, d.zone_corner = "dedans", corner
        d.rule(t, "carom.zone.dedans", player, corner=corner)
    else:
        d.zone, d.zone_corner = "entree", corner
        d.rule(t, "carom.zone.entree", player, corner=corner)


def with_entry(pair: tuple[int, int], i: int, value: int) -> tuple[int, int]:
    """``pair`` with player ``i``'s entry (0: p1, 1: p2) set to ``value``."""
    return (value, pair[1]) if i == 0 else (pair[0], value)


# --- the table ----------------------------------------------------------------------------

def objects(cue: str) -> tuple[str, str]:
    return ("red", "white") if cue == "yellow" else ("red", "yellow")


def at_outlay(positions: dict[str, Any] | None, tab: CaromTable, breaker: str) -> bool:
    """Whether the given balls lie on their outlay spots (red boven, the other white beneden,
    the breaker's ball on links or rechts), within 3 cm."""
    cue = CUE_BALL[breaker]
    other_white = "white" if cue == "yellow" else "yellow"
    spots = {"red": ("boven",), cue: ("links", "rechts"), other_white: ("beneden",)}
    for ball, names in spots.items():
        xy = ball_xy(positions, ball)
        if xy is not None and not any(math.dist(xy, tab.spot(n)) <= 0.03 for n in names):
            return False
    return True


def outlay(tab: CaromTable, breaker: str) -> dict[str, Any]:
    cue = CUE_BALL[breaker]
    pos = opening_positions(tab, "rechts", cue=cue, other="white" if cue == "yellow" else "yellow")
    return {ball: [round(x, 4), round(y, 4)] for ball, (x, y) in pos.items()}


def _spot_jumped(positions: dict[str, Any] | None, jumped: tuple[str | None, ...], cue: str,
                 tab: CaromTable) -> dict[str, Any] | None:
    """"carom.jump.driebanden": jumped balls to their spots (red boven, cue beneden, other midden)."""
    if positions is None:
        return None
    spot_of = {"red": "boven", cue: "beneden"}
    out = dict(positions)
    for ball in jumped:
        if ball is not None:
            x, y = tab.spot(spot_of.get(ball, "midden"))
            out[ball] = [round(x, 4), round(y, 4)]
    return out
