"""Resolve one golf unit (a shot, or a call that stands alone): the state after it as a
pure function of the state before it and its record (``golf.evidence.Evidence``).

The order of work follows the rule text (seeds/golf.md):
1. whose ball (a goal or off-table sensor that could not tell asks the referee),
   balls that dropped after resting (``golf.goal.edge``: the cut's late settles and the
   referee's ``edge`` calls), back off the rail, wedged balls;
2. fouls: called by the referee, or seen by the sensors and positions (a strike on the
   opponent's ball, a first contact on one's own ball, zones, triangles);
3. the count, in order of ``t``: valid goals, own goals, the opponent's balls in a goal,
   balls off the table; the 1/1 rule;
4. each foul's consequence, the turn, the replacement spots, the end of the frame and
   of the match.

Rulings and questions are data: a rule id, the player, the parameters, and ``what``
when one rule says several things (the sentences: ``texts/<lang>/golf.ftl``).
Questions are numbered from the state before the unit, one number per ball a sensor
could not tell, so that an answer finds its question again when the unit is resolved
again.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import itemgetter
from typing import Any

import msgspec

from ...events import Cushion, Goal
from ...shots import Cutter
from ..base import Question, Ruling, other
from ..fault import Fault
from ..ruling_log import RulingLog, made
from ..shot_engine import ShotRecord
from . import checks as rule
from .amend import fouled_shot
from .counted import counted_shot
from .evidence import Evidence
from .fouls import ALWAYS, BY_ID, ZONE, Cost
from .frame_end import end_frame
from .game import GAME
from .geometry import ATTACKS
from .positions import (
    attacking_triangle_broken,
    defensive_triangle_kept,
    free_spot,
    repeat_spot,
    zone_left,
)
from .state import IDX, GolfState

replace = msgspec.structs.replace

TURN_LIMIT = 50.0  # seconds from the moment the balls rest to the referee's TIME
TIME_GRACE = 10.0  # seconds after TIME to play the shot
_FIRST = itemgetter(0)
_NONE_CALLED: frozenset[str] = frozenset()


def start_of(before: GolfState, shot: ShotRecord) -> GolfState:
    """The state a unit is resolved from: a shot begins with the questions still open
    taking their default (whose ball: not counted) and a ball still waiting for its
    replacement spot back on the table, its spot not recorded; a call that stands alone
    finds the state as it is (its caller closed the questions)."""
    if not shot.events and shot.rest is None:
        return before
    if before.questions or before.spot_wait:
        return replace(before, questions=(), spot_wait=())
    return before


def live(before: GolfState, shot: ShotRecord) -> GolfState:
    """A shot in progress as the scoreboard shows it: the state before it with the balls
    that went into a goal counted already (not an own goal); nothing decided yet."""
    start = start_of(before, shot)
    s = shot.player
    bl = start.balls_left
    for e in shot.events:
        if type(e) is not Goal:
            continue
        ball = e.ball
        if ball is not None and (ball != s or e.goal == ATTACKS[ball]):
            i = IDX[ball]
            bl = (max(bl[0] - 1, 0), bl[1]) if i == 0 else (bl[0], max(bl[1] - 1, 0))
    return start if bl is start.balls_left else replace(start, balls_left=bl)


def _logged(log: Any, new: tuple[Ruling, ...]) -> Any:
    """``log + new`` (a ``RulingLog`` made straight, without ``__add__``'s frame)."""
    return RulingLog(new, log) if type(log) is RulingLog else log + new


class _Unit:
    """Mutable scratch for one resolution; only the returned state escapes."""

    __slots__ = ("answers", "asked", "base", "new", "questions", "spot_wait")

    def __init__(self, start: GolfState, answers: Mapping[str, Any], new: list[Ruling] | None = None) -> None:
        self.new: list[Ruling] = [] if new is None else new
        self.questions: list[Question] = []
        self.base = start.asked  # questions of this unit are numbered from here
        self.asked = start.asked
        self.answers = answers
        self.spot_wait: list[tuple[float, str, str]] = list(start.spot_wait)

    def rule(self, t: float, rule: str, player: str | None, what: str | None = None, **data: Any) -> None:
        if what is not None:
            data["what"] = what
        self.new.append(Ruling(t=t, rule=rule, player=player, data=tuple(data.items())))

    def ask(self, key: str, t: float, rule: str, what: str, options: tuple[Any, ...], **data: Any) -> Any:
        """The referee's answer to this unit's next question if given, else ask it and
        return None. Every question has its number whether answered or not."""
        self.asked += 1
        qid = f"q{self.asked}"
        if qid in self.answers:
            return self.answers[qid]
        self.questions.append(Question(id=qid, t=t, rule=rule, options=options,
                                       data=(("key", key), *data.items(), ("what", what))))
        return None


def resolve(before: GolfState, shot: ShotRecord) -> GolfState:
    """The state after ``shot`` played from ``before``."""
    if shot.rest is None and shot.events:
        return live(before, shot)
    return staged(before, shot, before.before, before.shot, before.cut, before.in_shot, before.checkpoint)


def staged(before: GolfState, shot: ShotRecord, stage_before: Any, stage_shot: ShotRecord | None, cut: Cutter,
           in_shot: bool, checkpoint: Any) -> GolfState:
    """``resolve`` of a shot that came to rest (or a call that stands alone), the shot stage's
    fields of the state after it given (``before``, ``shot``, ``cut``, ``in_shot``,
    ``checkpoint``: ``GolfEngine.whole`` sets them in the same copy)."""
    if shot.calls:
        dropped = _dropped_after_rest(before, shot)
        if dropped is not None:
            return replace(dropped, before=stage_before, shot=stage_shot, cut=cut, in_shot=in_shot,
                           checkpoint=checkpoint)
    pre = before
    if (pre.questions or pre.spot_wait) and (shot.events or shot.rest is not None):  # ``start_of``, inline
        pre = replace(pre, questions=(), spot_wait=())
    quick = plain(pre, shot, stage_before, stage_shot, cut, in_shot, checkpoint) \
        or counted_shot(pre, shot, stage_before, stage_shot, cut, in_shot, checkpoint)
    if quick is not None:
        return quick
    if shot.calls:  # a foul that puts the balls back, called while the balls rolled (``amend``)
        quick = fouled_shot(pre, shot, (stage_before, stage_shot, cut, in_shot, checkpoint))
        if quick is not None:
            return quick
    return _general(pre, shot, stage_before, stage_shot, cut, in_shot, checkpoint)


def general(before: GolfState, shot: ShotRecord, stage_before: Any, stage_shot: ShotRecord | None,
            cut: Cutter, in_shot: bool, checkpoint: Any) -> GolfState:
    """``staged`` of a shot with no call that the one-pass ways (``plain``, ``counted_shot``) have
    already refused: the general way alone (``GolfEngine.whole``)."""
    pre = before
    if (pre.questions or pre.spot_wait) and (shot.events or shot.rest is not None):  # ``start_of``, inline
        pre = replace(pre, questions=(), spot_wait=())
    return _general(pre, shot, stage_before, stage_shot, cut, in_shot, checkpoint)


def _general(pre: GolfState, shot: ShotRecord, stage_before: Any, stage_shot: ShotRecord | None, cut: Cutter,
             in_shot: bool, checkpoint: Any) -> GolfState:
    """The general way of ``staged`` from ``pre``, the unit's start (``start_of``)."""
    ev = Evidence(shot)
    u = _Unit(pre, ev.answers)
    s = ev.shooter
    o = other(s)
    si, oi = IDX[s], IDX[o]
    zone = pre.zone_play
    t_end = ev.rest_t if ev.rest_t is not None else ev.t0

    # 1. the balls of the evidence
    goals: list[tuple[float, str, str]] = []
    for k, (t, g, b) in enumerate(ev.goals):
        if b is None:
            b = u.ask(f"goal{k}", t, "golf.goal", "whose", ("p1", "p2"), goal=g)
            if b is None:
                continue
        goals.append((t, g, b))
    offs: list[tuple[float, str]] = []
    for k, (t, b, src) in enumerate(ev.offs):
        if rule.off_on_cushion(src):
            u.rule(t, "golf.off-table.on-cushion", b)
        if b is None:
            b = u.ask(f"off{k}", t, "golf.off-table.own", "whose", ("p1", "p2"))
            if b is None:
                continue
        offs.append((t, b))
    # "Ball on the edge of the goal: if it drops before it comes to rest, the goal counts
    # [...]. In all other cases it does not count: the ball is taken out of the table and
    # put back." A drop the cut places after the shot's rest came after the ball rested.
    late = list(ev.late) if ev.edges else ev.late  # their rulings come after the shot's own (below)
    for t, b in ev.edges:
        annulled = rule.edge_annulled(late, goals, b)
        if annulled is None:
            continue
        where, j = annulled
        if where == "late":
            del late[j]  # the referee's call for a drop the cut already placed after the rest
        else:
            del goals[j]
            u.rule(t, "golf.goal.edge", b)
    for t, b in ev.rails:
        j = rule.rail_return(offs, b)
        if j is not None:
            del offs[j]
            u.rule(t, "golf.off-table.rail-return", b)
    spots: list[tuple[float, str]] = []
    own_wedged = False
    for t, b, where in ev.wedged:
        wedged = rule.wedged(where)
        if wedged == "golf.wedged.attacking-goal":
            u.rule(t, "golf.wedged.attacking-goal", b)
            goals.append((t, ATTACKS[b], b))
        elif wedged == "golf.wedged.defending-goal":
            u.rule(t, "golf.wedged.defending-goal", b)
            spots.append((t, b))
            own_wedged = own_wedged or b == s
        else:
            u.rule(t, "golf.wedged.cushion", b)
    if len(goals) > 1:
        goals.sort(key=_FIRST)  # stable: the same t keeps the order of the log

    # 2. fouls: called, and seen by the sensors or the positions
    fouls: list[tuple[float, Fault[Cost], dict[str, Any]]] = [
        (t, BY_ID[rule.touch_foul(fid, zone, ev.standalone)], extra) for t, fid, extra in ev.fouls]
    called = {f.id for _, f, _ in fouls} if fouls else _NONE_CALLED
    if rule.played_opponent_ball(ev.strike, s) and "golf.foul.opponent-ball" not in called:
        fouls.append((ev.t0, BY_ID["golf.foul.opponent-ball"], {"seen": "strike"}))
    if rule.played_onto_own_ball(ev.first_contact, s) and "golf.foul.own-ball" not in called:
        fouls.append((ev.t0, BY_ID["golf.foul.own-ball"], {"seen": "contact"}))
    own_valid = False
    for _, g, b in goals:
        if rule.valid_goal(b, g, s):
            own_valid = True
            break
    back = False
    for _, f, _ in fouls:
        if f.then.back:
            back = True
            break
    # positions mean nothing once a foul has put the balls back
    seen = len(fouls)
    if not back and not ev.standalone and ev.rest_t is not None and ev.positions is not None:
        after = ev.positions
        if after is not None and pre.positions is not None:
            if rule.zone_obligation_open(zone, bool(goals or offs), bool(fouls)) \
                    and not zone_left(pre.positions, after, s):
                fouls.append((t_end, BY_ID["golf.zone.leave"], {"seen": "positions"}))
            if "golf.triangle.attacking" not in called and attacking_triangle_broken(pre.positions, after, s):
                fouls.append((t_end, BY_ID["golf.triangle.attacking"], {"seen": "positions"}))
        if after is not None and pre.turn_positions is not None and not own_valid \
                and not called & {"golf.triangle.defensive", "golf.triangle.defensive.several"}:
            kept = defensive_triangle_kept(pre.turn_positions, after, s)
            if kept == 1:
                fouls.append((t_end, BY_ID["golf.triangle.defensive"], {"seen": "positions"}))
            elif kept > 1:
                fouls.append((t_end, BY_ID["golf.triangle.defensive.several"],
                              {"seen": "positions", "balls": kept}))
        # without positions the referee calls it: {"call": "foul", "foul": "zone"}; a shot
        # with no such call met the zone obligation
    for j in range(seen, len(fouls)):  # a foul the positions show (the defensive triangle puts them back)
        if fouls[j][1].then.back:
            back = True
    if len(fouls) > 1:
        fouls.sort(key=_FIRST)

    # 3. the count, in order of t
    bl = list(pre.balls_left)
    zero_t: list[float | None] = [None, None]
    zero_k: list[int] = [0, 0]  # the order in the log of each side's last ball
    own_goal = own_off = opp_off = valid_own = False
    counted: list[tuple[float, int, str, str]] = []
    if not back:
        counted += [(t, 0, g, b) for t, g, b in goals]
        counted += [(t, 1, "", b) for t, b in offs]
    counted += [(t, 2, "", o) for t, f, _ in fouls if f.then.touched == "goal"]
    if len(counted) > 1:
        counted.sort(key=_FIRST)  # stable: the same t keeps the order of the log
    first_opp_off = None
    goal_rulings: list[int] = []  # where the valid goals' rulings are, to word them once the turn is known
    lost = "goal-lost" if own_valid else None
    for k, (t, kind, g, b) in enumerate(counted):
        bi = IDX[b]
        if kind == 0 and rule.valid_goal(b, g, s):
            valid_own = True
            bl[si] -= 1
            goal_rulings.append(len(u.new))
            u.rule(t, "golf.goal", s, goal=g)
        elif kind == 0 and rule.own_goal(b, g, s):
            own_goal = True
            u.rule(t, "golf.own-goal", s, "count", goal=g)
            spots.append((t, s))
        elif kind == 0 and rule.opponent_ball_goal(b, s):
            bl[oi] -= 1
            u.rule(t, "golf.goal.opponent-ball", o, goal=g)
        elif kind == 1 and rule.own_ball_off(b, s):
            own_off = True
            u.rule(t, "golf.off-table.own", s, lost)
            spots.append((t, s))
        elif kind == 1 and rule.opponent_ball_off(b, s):
            opp_off = True
            first_opp_off = t if first_opp_off is None else first_opp_off
            bl[oi] -= 1
            u.rule(t, "golf.off-table.opponent", s, lost)
        else:
            bl[oi] -= 1
        bl[bi] = max(bl[bi], 0)
        if bl[bi] == 0 and zero_t[bi] is None:
            zero_t[bi] = t
            zero_k[bi] = k
    if first_opp_off is not None:
        spots.append((first_opp_off, s))
    one_one = rule.one_one_lost(pre.balls_left, opp_off, valid_own)
    if one_one:
        u.rule(t_end, "golf.off-table.one-one", s)

    # 4. the fouls' consequences
    played_spotted = False  # the ball played goes on a replacement spot once, however many fouls
    for t, f, extra in fouls:
        if f.id == "golf.own-goal" and own_goal:
            continue  # called, and seen by the goal sensor: one own goal
        n_spots = 0
        cost = f.then
        if cost.spot_played == ALWAYS or (cost.spot_played == ZONE and zone):
            n_spots += 0 if played_spotted else 1
            played_spotted = True
        if cost.points_out and zone:
            n_spots += 1
        if cost.touched == "spot":
            n_spots += 1
        if f.id in ("golf.triangle.defensive", "golf.triangle.attacking"):
            n_spots += 1
        elif f.id == "golf.triangle.defensive.several":
            n_spots += int(extra.get("balls", 2))
        u.rule(t, f.id, s, "zone" if zone else None,
               **{k: v for k, v in extra.items() if k in ("seen", "balls")})
        spots += [(t, s)] * n_spots

    stays = rule.keeps_turn(valid_own, bool(fouls), own_goal, own_off, opp_off, own_wedged)
    if not stays:
        for i in goal_rulings:
            r = u.new[i]
            u.new[i] = Ruling(t=r.t, rule=r.rule, player=r.player, data=(*r.data, ("what", "turn-lost")))
    if not stays and not own_goal and not fouls and not counted and not offs and not own_wedged:
        u.rule(t_end, "golf.turn", s)

    for t, g, b in ev.late:
        u.rule(t, "golf.goal.edge", b, "late", goal=g)

    # 5. replacement spots: the fall-backs and repeats first decided, then the opponent's
    # choices named by ``spot`` calls (each for the first of that ball's still waiting)
    placements: list[tuple[str, int]] = []
    placed_pair, fouled_pair = pre.placed, pre.fouled_from
    if spots:  # (no ball to place: nothing for a ``spot`` call to name either)
        placed = list(pre.placed)
        fouled = list(pre.fouled_from)
        plan: list[tuple[float, str, str, int | None, int | None]] = []  # (t, owner, how, spot, from)
        repeated = False
        for t, owner in spots:
            if not repeated and rule.spot_repeats(zone, owner, s, bool(fouls), pre.placed[si],
                                                  pre.balls_left[si]):
                repeated = True
                from_spot = pre.placed[si]
                fouled[si] = fouled[si] if from_spot in fouled[si] else (*fouled[si], from_spot)
                plan.append((t, owner, "repeat", repeat_spot(owner, fouled[si], ev.positions), from_spot))
            elif ev.positions is not None and (n := free_spot(owner, ev.positions)) is not None:
                plan.append((t, owner, "fallback", n, None))
            else:
                plan.append((t, owner, "choice", None, None))
        for _, ball, n in ev.spot_calls:
            for j, (t, owner, how, spot, _f) in enumerate(plan):
                if how == "choice" and spot is None and owner == ball:
                    plan[j] = (t, owner, how, n, None)
                    break
        for k, (t, owner, how, n, from_spot) in enumerate(plan):
            if how == "repeat":
                u.rule(t, "golf.spot.repeat", owner, spot=n, from_spot=from_spot)
            elif how == "fallback":
                u.rule(t, "golf.spot.fallback", owner, spot=n)
            elif n is None:
                # the opponent's choice: named by a ``spot`` call, not asked (the state lists the
                # balls waiting); until then the ball is simply back on the table
                u.spot_wait.append((t, owner, f"spot{k}"))
                continue
            elif n in (4, 5):
                u.rule(t, "golf.spot.fallback", other(owner), "chosen", ball=owner, spot=n)
            else:
                u.rule(t, "golf.spot.choice", other(owner), ball=owner, spot=n)
            assert n is not None
            placed[IDX[owner]] = n
            placements.append((owner, n))
        placed_pair, fouled_pair = (placed[0], placed[1]), (fouled[0], fouled[1])

    # 6. turn, frame, match
    at = s if stays else o
    members = rule.members_after(pre.members, pre.duo, stays, 0 if s == "p1" else 1)
    positions = pre.positions if ev.standalone else ev.positions
    winner, finish = rule.frame_winner(one_one, o, bl, zero_t, zero_k)
    if finish is not None:
        u.rule(finish[0], "golf.frame.double-finish", winner, gap_us=finish[1])
    if winner is None:
        now_zone = zone or rule.zone_play(bl)
        if not zone and now_zone:
            u.rule(t_end, "golf.zone.play", None)
        # (two copies: a call of 15 keywords or more is compiled through a dict, dearer than the copy)
        return replace(
            replace(pre, questions=tuple(u.questions), asked=u.asked, placements=tuple(placements),
                    spot_wait=tuple(u.spot_wait), placed=placed_pair, fouled_from=fouled_pair),
            rulings=_logged(pre.rulings, tuple(u.new)),
            frame_units=pre.frame_units + 1,
            balls_left=(bl[0], bl[1]), at_table=at, members=members,
            zone_play=now_zone, clock=(at, t_end), positions=positions,
            turn_positions=pre.turn_positions if stays else positions,
            before=stage_before, shot=stage_shot, cut=cut, in_shot=in_shot, checkpoint=checkpoint,
        )
    return end_frame(pre, u.new, u.asked, s, winner, (bl[0], bl[1]), t_end, tuple(placements),
                      (stage_before, stage_shot, cut, in_shot, checkpoint))


def _dropped_after_rest(before: GolfState, shot: ShotRecord) -> GolfState | None:
    """"Ball on the edge of the goal [...] In all other cases it does not count": a unit the cut
    took for a shot, made of goals alone that the referee's ``edge`` calls say dropped after
    resting, whose first drop came within the table's quiet time of the last shot's rest, was
    that shot's late drop, not a shot: no player strikes, rolls a ball to the goal and has it
    rest on the edge so soon after the balls stopped. (On a table without a strike sensor a
    drop later than the settle window cannot be told from the next shot's first event by the
    sensors; the call and the time tell it.) The drops become the last shot's late settles, as
    if they had come within the window: that shot is resolved again with them and with every
    call about this unit; the turn is as it left it. None for any other unit (an ``edge`` call
    then annuls the goal in the unit's own shot)."""
    if not shot.events or shot.rest is None or not shot.calls:
        return None
    for c in shot.calls:
        if c.call == "edge":
            break
    else:  # the common unit: no ``edge`` call
        return None
    edges = {c.ball for c in shot.calls if c.call == "edge"}
    for e in shot.events:
        if type(e) is not Goal or not (e.ball is None or e.ball in edges):
            return None
    last, prior = before.shot, before.before
    if last is None or prior is None or last.rest is None:
        return None
    settled = max((e.t for e in last.late), default=last.rest.t)
    first = min(e.t for e in shot.events)
    if not rule.late_drop_of_last_shot(first, max(last.rest.t, settled), GAME.quiet_s):
        return None
    named = next(iter(edges)) if len(edges) == 1 else None
    drops = tuple(e if e.ball is not None or named is None else replace(e, ball=named) for e in shot.events)
    return resolve(prior, replace(last, late=(*last.late, *drops), calls=(*last.calls, *shot.calls)))


def plain(pre: GolfState, shot: ShotRecord, stage_before: Any, stage_shot: ShotRecord | None, cut: Cutter,
           in_shot: bool, checkpoint: Any) -> GolfState | None:
    """The common shot, resolved without the general machinery: no call, no late settle,
    no positions, only cushions and valid goals (the player stays; zone play may start, or
    the last ball wins the frame), or no goal at all (the turn passes). ``None`` for
    anything else. It gives exactly what the general path gives
    (tests/rules/golf/test_golf_properties.py). The shot stage's fields of the state after
    the shot (``staged``) are put in the same copy."""
    rest = shot.rest
    if rest is None or rest.positions or shot.late or shot.calls:
        return None
    s = shot.player or "p1"
    aim = ATTACKS[s]
    goals: list[tuple[float, str]] | None = None
    for e in shot.events:
        kind = type(e)
        if kind is Cushion:
            continue
        if kind is Goal and e.ball == s and e.goal == aim:  # ``rule.valid_goal``, inline
            if goals is None:
                goals = [(e.t, e.goal)]
            else:
                goals.append((e.t, e.goal))
            continue
        return None
    t_end = rest.t
    if goals is None:  # no goal: the turn passes
        return missed(pre, s, t_end, stage_before, stage_shot, cut, in_shot, checkpoint, None)
    bl = pre.balls_left
    if s == "p1":
        left, theirs = bl[0] - len(goals), bl[1]
        bl = (left, theirs)
    else:
        left, theirs = bl[1] - len(goals), bl[0]
        bl = (theirs, left)
    if left < 0 or theirs == 0:
        return None  # more goals than balls, or the opponent out already: the general path
    if len(goals) > 1:
        goals.sort(key=_FIRST)
    if left == 0:  # the shooter's last ball: the frame is theirs
        return end_frame(pre, _goals(s, goals), pre.asked, s, s, bl, t_end, (),
                          (stage_before, stage_shot, cut, in_shot, checkpoint))
    log = pre.rulings  # ``_logged``, inline; the rulings made only when read (``ruling_log.made``)
    if not pre.zone_play and rule.zone_play(bl):
        return replace(pre, rulings=made(log, len(goals) + 1, [_goals, s, goals, t_end])
                       if type(log) is RulingLog else log + _goals(s, goals, t_end),
                       frame_units=pre.frame_units + 1, placements=(), balls_left=bl, at_table=s,
                       zone_play=True, clock=(s, t_end), positions=None, before=stage_before,
                       shot=stage_shot, cut=cut, in_shot=in_shot, checkpoint=checkpoint)
    log = made(log, len(goals), [_goals, s, goals]) if type(log) is RulingLog else log + _goals(s, goals)
    return replace(pre, rulings=log, frame_units=pre.frame_units + 1, placements=(), balls_left=bl,
                   at_table=s, clock=(s, t_end), positions=None, before=stage_before, shot=stage_shot,
                   cut=cut, in_shot=in_shot, checkpoint=checkpoint)


def missed(pre: GolfState, s: str, t_end: float, stage_before: Any, stage_shot: ShotRecord | None,
           cut: Cutter, in_shot: bool, checkpoint: Any, since: Any) -> GolfState:
    """``plain``'s shot with no goal (cushions alone, or nothing the sensors saw) of ``s``, at
    rest at ``t_end``: the turn passes. ``GolfEngine.whole`` asks it straight for a shot of
    cushions alone (``plain`` would find no goal in it, one event at a time). ``since``: None, or
    the events since the base of a played state (``played.whole_played``: put in the same copy)."""
    o = "p2" if s == "p1" else "p1"
    log = pre.rulings  # ``_logged``, inline; the ruling made only when read (``ruling_log.made``)
    log = made(log, 1, [_turn, t_end, s]) if type(log) is RulingLog else log + _turn(t_end, s)
    if not (pre.duo or pre.in_shot or in_shot or pre.placements) and pre.positions is None \
            and pre.turn_positions is None:
        # the common state (one against one, no positions, no ball placed): only the fields that change
        # given (each field ``replace`` is given costs the copy more), in the order of the fields
        if since is not None:
            return replace(pre, at_table=o, rulings=log, checkpoint=checkpoint, since=since, cut=cut,
                           before=stage_before, shot=stage_shot, frame_units=pre.frame_units + 1,
                           clock=(o, t_end))
        return replace(pre, at_table=o, rulings=log, checkpoint=checkpoint, cut=cut, before=stage_before,
                       shot=stage_shot, frame_units=pre.frame_units + 1, clock=(o, t_end))
    members = pre.members
    if pre.duo:
        members = (1 - members[0], members[1]) if s == "p1" else (members[0], 1 - members[1])
    return replace(pre, at_table=o, rulings=log, in_shot=in_shot, checkpoint=checkpoint,
                   since=pre.since if since is None else since, cut=cut, before=stage_before, shot=stage_shot,
                   members=members, frame_units=pre.frame_units + 1, clock=(o, t_end), positions=None,
                   turn_positions=None, placements=())


def _goals(s: str, goals: list[tuple[float, str]], zone_at: float | None = None) -> tuple[Ruling, ...]:
    """``plain``'s rulings: ``s``'s valid goals (their times and goals, in order), zone play
    starting at ``zone_at`` (the rest) if given (a ruling log's node makes them when read)."""
    new = [Ruling(t, "golf.goal", s, (("goal", g),)) for t, g in goals]
    if zone_at is not None:
        new.append(Ruling(zone_at, "golf.zone.play"))
    return tuple(new)


def _turn(t: float, s: str) -> tuple[Ruling, ...]:
    """``missed``'s ruling: the turn passes at the rest (a ruling log's node makes it when read)."""
    return (Ruling(t, "golf.turn", s),)
