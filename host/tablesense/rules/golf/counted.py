"""A golf shot with no foul, whose balls the sensors (or the referee's answers) name: counted
in one pass.

The general way (``resolve.staged``) reads a unit through ``Evidence`` and walks it through
every rule of seeds/golf.md in the order of the rule text; most of those rules are about what
only calls, positions or a late drop tell. For the shot a table reports without them (cushions,
goals and balls off the table, a strike of the shooter's ball; the only calls the referee's
answers to "whose ball?", the opponent's replacement spots and the balls off the table the
referee calls; no contact, no positions, no late drop) the rules left are the count
(``resolve``'s step 3), the 1/1 rule, the turn, the balls waiting for the opponent's spot and
the frame: ``counted_shot`` decides those in one pass and makes the state after the shot in one
copy. It takes what ``resolve.plain`` leaves (an own goal, the opponent's ball in a goal or off
the table, a ball no sensor named, a double finish) and answers None for anything else, which
goes the general way.

tests/rules/golf/test_golf_counted_shot.py holds it to the general way over made-up states and
shots and over every recorded match.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ...events import Cushion, Goal, OffTable, Strike
from ...shots import Cutter
from ..base import Question, Ruling
from ..ruling_log import RulingLog
from ..shot_engine import ShotRecord
from . import checks as rule
from .evidence import OFF_TABLE_FOULS
from .frame_end import end_frame
from .geometry import ATTACKS
from .state import GolfState

replace = msgspec.structs.replace

_WHOSE = ("p1", "p2")
_NO_ANSWERS: dict[str, Any] = {}


def counted_shot(pre: GolfState, shot: ShotRecord, stage_before: Any, stage_shot: ShotRecord | None,
                 cut: Cutter, in_shot: bool, checkpoint: Any, since: Any = None) -> GolfState | None:
    """The state after ``shot`` from ``pre`` (its start, ``resolve.start_of``) as the general way
    makes it, the shot stage's fields put in the same copy (``since``: None, or the events since
    the base of a played state, ``played.whole_played``'s); None where the shot is not this case."""
    rest = shot.rest
    if rest is None or rest.positions or shot.late or not shot.events:
        return None
    s = shot.player or "p1"
    answers = _NO_ANSWERS
    spot_calls: list[tuple[str, int]] = []
    called_offs: list[tuple[float, int, str, Any, bool]] = []  # (..., the ball stayed on the cushion)
    for c in shot.calls:
        name = c.call
        if name == "answer":
            if answers is _NO_ANSWERS:
                answers = {}
            answers[str(c.question)] = c.answer
        elif name == "spot":
            spot_calls.append((str(c.ball), int(c.spot or 0)))
        elif name == "off_table" or (name == "foul" and c.foul in OFF_TABLE_FOULS):
            if c.ball is not None and c.ball != "p1" and c.ball != "p2":
                return None
            called_offs.append((c.t, 1, "", c.ball, name == "off_table"))
        else:
            return None
    # the balls of the shot as ``Evidence`` lists them: goals, then balls off, each in the log's order
    goals: list[tuple[float, int, str, Any]] = []
    offs: list[tuple[float, int, str, Any]] = []
    unnamed = own_valid = False  # own_valid: a valid goal of the shooter's (``rule.valid_goal``)
    aim = ATTACKS[s]
    for e in shot.events:
        kind = type(e)
        if kind is Cushion:
            continue
        if kind is Goal or kind is OffTable:
            b = e.ball
            if b is None:
                unnamed = True
            elif b != "p1" and b != "p2":
                return None
            if kind is Goal:
                goals.append((e.t, 0, e.goal, b))
                if b == s and e.goal == aim:
                    own_valid = True
            else:
                offs.append((e.t, 1, "", b))
        elif kind is not Strike or e.ball not in (s, None):
            return None  # a contact, the opponent's ball struck (a foul): the general way
    new: list[Ruling] = []
    if called_offs:  # the referee's balls off the table after the sensors', by t where both
        offs, unnamed = _called(offs, called_offs, new), unnamed or any(o[3] is None for o in called_offs)
    asked = pre.asked
    questions: list[Question] = []
    if unnamed:  # one question per ball no sensor named, goals first (``resolve._Unit.ask``)
        found = _whose(goals, offs, answers, asked)
        if found is None:
            return None
        goals, offs, questions, asked = found
        own_valid = any(b == s and g == aim for _, _, g, b in goals)  # a ball an answer named too
    t_end = rest.t
    o = "p2" if s == "p1" else "p1"
    si = 0 if s == "p1" else 1
    counted = goals + offs
    if len(counted) > 2:
        counted.sort(key=_first)  # stable: the same t keeps the order of the log (goals before balls off)
    elif len(counted) == 2 and counted[1][0] < counted[0][0]:  # two: the sort's swap, or none
        counted.reverse()
    # the count, in order of t (``resolve``'s step 3)
    bl = [pre.balls_left[0], pre.balls_left[1]]
    zero_t: list[float | None] = [None, None]
    zero_k = [0, 0]
    own_goal = own_off = opp_off = valid_own = False
    lost = "goal-lost" if own_valid else None
    goal_rulings: list[int] = []
    spots: list[float] = []  # when each of the shooter's balls went to a replacement spot
    first_opp_off = None
    for k, (t, kind, g, b) in enumerate(counted):
        if kind == 0:
            if b == s:
                if g == aim:
                    valid_own = True
                    bl[si] -= 1
                    goal_rulings.append(len(new))
                    new.append(Ruling(t, "golf.goal", s, (("goal", g),)))
                else:
                    own_goal = True
                    new.append(Ruling(t, "golf.own-goal", s, (("goal", g), ("what", "count"))))
                    spots.append(t)
            else:
                bl[1 - si] -= 1
                new.append(Ruling(t, "golf.goal.opponent-ball", o, (("goal", g),)))
        elif b == s:
            own_off = True
            new.append(Ruling(t, "golf.off-table.own", s, (("what", lost),) if lost else ()))
            spots.append(t)
        else:
            opp_off = True
            if first_opp_off is None:
                first_opp_off = t
            bl[1 - si] -= 1
            new.append(Ruling(t, "golf.off-table.opponent", s, (("what", lost),) if lost else ()))
        bi = 0 if b == "p1" else 1
        if bl[bi] <= 0:
            bl[bi] = 0
            if zero_t[bi] is None:
                zero_t[bi] = t
                zero_k[bi] = k
    if first_opp_off is not None:
        spots.append(first_opp_off)
    one_one = opp_off and valid_own and pre.balls_left == (1, 1)  # ``rule.one_one_lost``, inline
    if one_one:
        new.append(Ruling(t_end, "golf.off-table.one-one", s))
    stays = valid_own and not (own_goal or own_off or opp_off)  # ``rule.keeps_turn``, inline (no foul)
    if not stays:
        for i in goal_rulings:
            r = new[i]
            new[i] = Ruling(r.t, r.rule, r.player, (*r.data, ("what", "turn-lost")))
        if not counted:
            new.append(Ruling(t_end, "golf.turn", s))
    # the replacement spots (no positions, no foul: none repeats, none falls back): the opponent
    # names each (a ``spot`` call for the first of that ball's still waiting), else it waits
    waiting: list[tuple[float, str, str]] = []
    placements: tuple[tuple[str, int], ...] = ()
    placed = pre.placed
    if spots:
        named: list[int | None] = [None] * len(spots)
        for ball, n in spot_calls:
            if ball == s:
                for j in range(len(spots)):
                    if named[j] is None:
                        named[j] = n
                        break
        for k, t in enumerate(spots):
            n = named[k]
            if n is None:
                waiting.append((t, s, f"spot{k}"))
                continue
            if n in (4, 5):
                new.append(Ruling(t, "golf.spot.fallback", o, (("ball", s), ("spot", n), ("what", "chosen"))))
            else:
                new.append(Ruling(t, "golf.spot.choice", o, (("ball", s), ("spot", n))))
            placed = (n, placed[1]) if si == 0 else (placed[0], n)
            placements = (*placements, (s, n))
    # the turn, the frame, the match
    at = s if stays else o
    members = pre.members if stays or not pre.duo else rule.members_after(pre.members, True, False, si)
    if one_one or bl[0] == 0 or bl[1] == 0:  # (``rule.frame_winner``: None while both have balls)
        winner, finish = rule.frame_winner(one_one, o, bl, zero_t, zero_k)
    else:
        winner = finish = None
    if finish is not None:
        new.append(Ruling(finish[0], "golf.frame.double-finish", winner, (("gap_us", finish[1]),)))
    if winner is not None:
        return end_frame(pre, new, asked, s, winner, (bl[0], bl[1]), t_end, placements,
                         (stage_before, stage_shot, cut, in_shot, checkpoint), since)
    zone = pre.zone_play
    now_zone = zone or 1 in bl  # (``rule.zone_play``, inline)
    if not zone and now_zone:
        new.append(Ruling(t_end, "golf.zone.play"))
    log = pre.rulings
    added = tuple(new)
    # (two copies: a call of 15 keywords or more is compiled through a dict, dearer than the copy; the
    # first only where one of its fields changes)
    if (questions or waiting or placements or asked != pre.asked or pre.positions is not None
            or pre.questions != () or pre.spot_wait != () or pre.placements != ()):
        pre = replace(pre, questions=tuple(questions), asked=asked, placements=placements,
                      spot_wait=tuple(waiting), positions=None)
    if since is not None:  # a played shot's links (``played.whole_played``)
        return _with_since(pre, added, bl, at, members, now_zone, t_end, stays, placed,
                           (stage_before, stage_shot, cut, in_shot, checkpoint), since)
    return replace(
        pre,
        rulings=RulingLog(added, log) if type(log) is RulingLog else log + added,
        frame_units=pre.frame_units + 1, balls_left=(bl[0], bl[1]), at_table=at, members=members,
        zone_play=now_zone, clock=(at, t_end),
        turn_positions=pre.turn_positions if stays else None, placed=placed,
        before=stage_before, shot=stage_shot, cut=cut, in_shot=in_shot, checkpoint=checkpoint,
    )


def _with_since(pre: GolfState, added: tuple[Ruling, ...], bl: list[int], at: str, members: tuple[int, int],
                now_zone: bool, t_end: float, stays: bool, placed: Any,
                stage: tuple[Any, ShotRecord | None, Cutter, bool, Any], since: Any) -> GolfState:
    """``counted_shot``'s last copy with ``since`` (a played state's events since its base) put in
    it: ``in_shot`` left as ``pre`` has it where it is the same (fourteen fields given; a call of 15
    keywords or more is compiled through a dict), else put in a copy before."""
    stage_before, stage_shot, cut, in_shot, checkpoint = stage
    if pre.in_shot != in_shot:
        pre = replace(pre, in_shot=in_shot)
    log = pre.rulings
    return replace(
        pre,
        rulings=RulingLog(added, log) if type(log) is RulingLog else log + added,
        frame_units=pre.frame_units + 1, balls_left=(bl[0], bl[1]), at_table=at, members=members,
        zone_play=now_zone, clock=(at, t_end),
        turn_positions=pre.turn_positions if stays else None, placed=placed,
        before=stage_before, shot=stage_shot, cut=cut, since=since, checkpoint=checkpoint,
    )


def _first(item: tuple[Any, ...]) -> Any:
    return item[0]


def _called(offs: list[tuple[float, int, str, Any]], called: list[tuple[float, int, str, Any, bool]],
            new: list[Ruling]) -> list[tuple[float, int, str, Any]]:
    """The shot's balls off the table as ``Evidence`` lists them: the sensors', then the referee's
    calls (sorted by ``t`` where both are there, the same ``t`` in that order); a ball an
    ``off_table`` call says stayed on a cushion, peg or cap is ruled so (``golf.off-table.on-cushion``,
    in that order, into ``new``)."""
    both = [(*o, False) for o in offs] + called
    if offs:
        both.sort(key=_first)
    for t, _, _, b, on_cushion in both:
        if on_cushion:  # ``rule.off_on_cushion`` of a call's ball
            new.append(Ruling(t, "golf.off-table.on-cushion", b))
    return [(t, kind, g, b) for t, kind, g, b, _ in both]


def _whose(goals: list[tuple[float, int, str, Any]], offs: list[tuple[float, int, str, Any]],
           answers: dict[str, Any], asked: int,
           ) -> tuple[list[Any], list[Any], list[Question], int] | None:
    """The balls no sensor named: each one question, numbered on from ``asked``, goals first in
    the log's order; answered, the ball the answer names (None: not counted), else not counted
    and the question open. None for an answer that names no ball (the general way says why)."""
    questions: list[Question] = []
    out: list[list[Any]] = []
    for items, what in ((goals, "goal"), (offs, "off")):
        kept = []
        for j, item in enumerate(items):
            t, kind, g, b = item
            if b is None:
                asked += 1
                qid = f"q{asked}"
                if qid in answers:
                    b = answers[qid]
                    if b is None:
                        continue
                    if b != "p1" and b != "p2":
                        return None
                    kept.append((t, kind, g, b))
                elif kind == 0:
                    questions.append(Question(id=qid, t=t, rule="golf.goal", options=_WHOSE,
                                              data=(("key", f"{what}{j}"), ("goal", g), ("what", "whose"))))
                else:
                    questions.append(Question(id=qid, t=t, rule="golf.off-table.own", options=_WHOSE,
                                              data=(("key", f"{what}{j}"), ("what", "whose"))))
                continue
            kept.append(item)
        out.append(kept)
    return out[0], out[1], questions, asked
