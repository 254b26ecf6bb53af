"""A golf shot of one sensor event and its rest, the common shot of a recorded match: the
shooter's ball into the goal it attacks, or a cushion alone (the turn passes).

``whole`` is ``GolfEngine.whole`` itself (the replay's call of a shot opens this one frame): it
makes, in one step, the state that ``whole``'s general steps (``GolfEngine.steps``) make for such a
shot (the cut after the shot: ``shot_cut``; the shot's record; ``resolve.plain``, ``resolve.missed``
or ``counted.counted_shot``): the same state, its rulings made only when read (``ruling_log.made``:
a replay reads the last match's alone); a question still open or a ball still waiting for its spot
closes as the shot opens (``GolfEngine.close``). It also takes the opponent's ball into a goal (it
counts for the opponent), an own goal and a ball off the table (the turn passes; the shooter's
ball waits for the opponent's spot). Any other shot or state goes the general steps
(``one_event``, the one step alone, answers None for it): a shot of several events, a shot open,
events held, the match over, a table that reports strikes, a goal within the settle window of the
last shot's rest (the cut's settle), a rest with positions, a ball no sensor named, a time that
is not a float, a ruling log that is not a ``RulingLog``, a frame over or ending on the
opponent's last ball.

tests/rules/golf/test_golf_one_event_shot.py holds it to ``whole``'s general steps over made-up
states and shots, and every recorded golf match to its replay with the step turned off.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import msgspec

from ...events import Call, Cushion, Event, Goal, OffTable, Rest
from ...shots import _IDLE, _SETTLING_PHASE, Cutter
from ..base import Question, Ruling
from ..ruling_log import RulingLog, made
from ..shot_engine import ShotRecord
from .counted import counted_shot
from .frame_end import end_frame
from .geometry import ATTACKS, BALLS_PER_PLAYER
from .resolve import general, missed, plain
from .state import GolfState

replace = msgspec.structs.replace

_P1_AIM, _P2_AIM = ATTACKS["p1"], ATTACKS["p2"]  # the goal each player attacks
_WHOSE = ("p1", "p2")  # (``counted._WHOSE``) the answers a question of whose ball takes


def whole(engine: Steps, state: GolfState, events: Sequence[Event], rest: Rest) -> GolfState | None:
    """``GolfEngine.whole`` (this function is the method: the replay's call of a shot opens one frame,
    not two): a shot of one event and its rest in one step where it is the common case, the state
    after it from ``state``, the shot stage's fields put in; any other shot ``engine.steps`` of it
    (``whole``'s general steps)."""
    if len(events) != 1:
        return several(engine, state, events, rest)
    if state.in_shot or state.held or state.ended is not None:
        return engine.steps(state, events, rest)
    first = events[0]
    cut = state.cut
    t = rest.t
    at = first.t
    if type(t) is not float or cut.strikes or cut.strike_sensor or rest.positions:
        return engine.steps(state, events, rest)
    kind = type(first)
    phase = cut.phase
    if kind is Goal:
        if phase == _SETTLING_PHASE:  # (``shot_cut``: a drop within the window settles the last shot; the
            window, last = cut.window, cut.last_t  # drop's time read only here, as ``shot_cut`` reads it)
            if window is None or type(at) is not float or (last is not None and at - last < window):
                return engine.steps(state, events, rest)
        elif phase != _IDLE:
            return engine.steps(state, events, rest)
    elif (kind is not Cushion and kind is not OffTable) or (phase != _SETTLING_PHASE and phase != _IDLE):
        return engine.steps(state, events, rest)
    log = state.rulings
    if type(log) is not RulingLog:
        return engine.steps(state, events, rest)
    pre = state  # the state before the shot: the last shot closed (``GolfEngine.close``, as ``whole`` does)
    if (state.questions or state.spot_wait) and state.shot is not None:
        pre = replace(state, questions=(), spot_wait=())
    player = state.at_table
    s = player or "p1"
    # ``shot_cut``'s cutter after the shot's rest: a table with no strike sensor, nothing settling (the
    # fields after ``last_t`` left at their defaults, the values ``shot_cut`` gives: a shorter call)
    after = Cutter(False, cut.window, cut.game, cut.shot + 1, _SETTLING_PHASE, t)
    # the common state (one against one, no positions, no ball placed): only the fields that change are
    # given to ``replace`` (each one it is given costs the copy more), in the order of the fields
    if kind is Cushion:  # ``resolve.missed``: the turn passes
        o = "p2" if s == "p1" else "p1"
        if pre.positions is None and not pre.placements and not pre.duo and pre.turn_positions is None:
            return replace(pre, at_table=o, rulings=made(log, 1, [_turn, t, s]), checkpoint=state, cut=after,
                           before=pre, shot=ShotRecord(player, (first,), rest),
                           frame_units=pre.frame_units + 1, clock=(o, t))
        members = pre.members
        if pre.duo:
            members = (1 - members[0], members[1]) if s == "p1" else (members[0], 1 - members[1])
        return replace(pre, at_table=o, rulings=made(log, 1, [_turn, t, s]), checkpoint=state, cut=after,
                       before=pre, shot=ShotRecord(player, (first,), rest), members=members,
                       frame_units=pre.frame_units + 1, clock=(o, t), positions=None, turn_positions=None,
                       placements=())
    ball = first.ball  # type: ignore[attr-defined]
    if kind is OffTable:
        done = _turn_lost(state, pre, first, rest, after, s, ball, None, log, (first,))
        return engine.steps(state, events, rest) if done is None else done
    goal = first.goal  # type: ignore[attr-defined]
    # the balls left after the shooter's valid goal, looked up (``_AFTER_P1``, ``_AFTER_P2``)
    if s == "p1":
        if ball != "p1" or goal != _P1_AIM:
            done = _turn_lost(state, pre, first, rest, after, s, ball, goal, log, (first,))
            return engine.steps(state, events, rest) if done is None else done
        found = _AFTER_P1.get(pre.balls_left)
    else:
        if ball != s or goal != _P2_AIM:
            done = _turn_lost(state, pre, first, rest, after, s, ball, goal, log, (first,))
            return engine.steps(state, events, rest) if done is None else done
        found = _AFTER_P2.get(pre.balls_left)
    if found is None:  # (a side with no ball left: the frame is over on the score)
        return engine.steps(state, events, rest)
    bl, last, one = found
    shot = ShotRecord(player, (first,), rest)
    if last:  # the shooter's last ball: the frame is theirs (``resolve.plain``)
        return end_frame(pre, _goal(at, goal, s), pre.asked, s, s, bl, t, (),
                         (pre, shot, after, False, state))
    if one and not pre.zone_play:  # (``checks.zone_play``: a 1 in bl) zone play starts
        return replace(pre, at_table=s, rulings=made(log, 2, [_zone, at, goal, s, t]), checkpoint=state,
                       cut=after, before=pre, shot=shot, balls_left=bl, zone_play=True,
                       frame_units=pre.frame_units + 1, clock=(s, t), positions=None, placements=())
    if player is not None and pre.positions is None and not pre.placements:  # (``player``: ``s``)
        return replace(pre, rulings=made(log, 1, [_goal, at, goal, s]), checkpoint=state, cut=after,
                       before=pre, shot=shot, balls_left=bl, frame_units=pre.frame_units + 1, clock=(s, t))
    return replace(pre, at_table=s, rulings=made(log, 1, [_goal, at, goal, s]), checkpoint=state, cut=after,
                   before=pre, shot=shot, balls_left=bl, frame_units=pre.frame_units + 1, clock=(s, t),
                   positions=None, placements=())


def several(engine: Steps, state: GolfState, events: Sequence[Event], rest: Rest) -> GolfState | None:
    """``whole`` of a shot of two or three events: where they are cushions, goals and balls off the
    table of named balls, none down after its owner's last ball in play, on a table that reports no
    strike, no position at the rest, the shot's state as ``engine.steps`` makes it (the cut after
    the rest, the record, then ``resolve.missed`` for cushions alone, else ``resolve.plain``,
    ``counted.counted_shot`` and ``resolve.general`` in turn), without ``steps``' checks of each
    event (``_admitted``), the cut's call (``shot_cut``) and ``plain`` where it cannot take the shot
    (a ball not the shooter's valid goal); one ball among cushions that is not the shooter's valid
    goal counted as the one-event step counts it (``_turn_lost``: ``counted_shot``'s count, the
    cushions counting nothing). Any other shot or state ``engine.steps`` of it."""
    n = len(events)
    if n > 3 or state.in_shot or state.held or state.ended is not None:
        return engine.steps(state, events, rest)
    first = events[0]
    cut = state.cut
    t = rest.t
    at = first.t
    if type(t) is not float or type(at) is not float or cut.strikes or cut.strike_sensor or rest.positions:
        return engine.steps(state, events, rest)
    kind = type(first)
    phase = cut.phase
    if kind is Goal:  # (``shot_cut``: a drop within the window settles the last shot)
        if phase == _SETTLING_PHASE:
            window, last = cut.window, cut.last_t
            if window is None or (last is not None and at - last < window):
                return engine.steps(state, events, rest)
        elif phase != _IDLE:
            return engine.steps(state, events, rest)
    elif (kind is not Cushion and kind is not OffTable) or (phase != _SETTLING_PHASE and phase != _IDLE):
        return engine.steps(state, events, rest)
    player = state.at_table
    s = player or "p1"
    aim = _P1_AIM if s == "p1" else _P2_AIM
    left1, left2 = state.balls_left
    down1 = down2 = 0
    cushions = valid = True  # cushions: cushions alone; valid: cushions and the shooter's valid goals
    for e in events:
        kind = type(e)
        if kind is Cushion:
            continue
        cushions = False
        if kind is not Goal and kind is not OffTable:
            return engine.steps(state, events, rest)
        ball = e.ball  # type: ignore[attr-defined]
        if ball == "p1":
            down1 += 1
            if down1 > left1:
                return engine.steps(state, events, rest)
        elif ball == "p2":
            down2 += 1
            if down2 > left2:
                return engine.steps(state, events, rest)
        else:
            return engine.steps(state, events, rest)
        if valid and (kind is not Goal or ball != s or e.goal != aim):  # type: ignore[attr-defined]
            valid = False
        only = e
    before = state  # (``GolfEngine.close``, as ``steps`` closes it)
    if state.shot is not None and (state.questions or state.spot_wait):
        before = replace(state, questions=(), spot_wait=())
    after = Cutter(False, cut.window, cut.game, cut.shot + 1, _SETTLING_PHASE, t)
    named = tuple(events)
    log = state.rulings
    if down1 + down2 == 1 and not valid and type(log) is RulingLog:
        # one ball among cushions, not the shooter's valid goal: the one-event step's count of it (the
        # cushions count nothing), the shot's record holding them all
        goal = only.goal if type(only) is Goal else None  # type: ignore[attr-defined]
        done = _turn_lost(state, before, only, rest, after, s, only.ball, goal, log, named)  # type: ignore[attr-defined]
        if done is not None:
            return done
    shot = ShotRecord(player, named, rest)
    if cushions:
        return missed(before, before.at_table or "p1", t, before, shot, after, False, state, None)
    if valid:
        done = plain(before, shot, before, shot, after, False, state)
        if done is not None:
            return done
    return counted_shot(before, shot, before, shot, after, False, state) \
        or general(before, shot, before, shot, after, False, state)


def _after_goals(shooter: int) -> dict[tuple[int, int], tuple[tuple[int, int], bool, bool]]:
    """The balls left (p1's, p2's) before a valid goal of side ``shooter`` (0: p1, 1: p2) -> the balls
    left after it, whether it was the shooter's last (the frame theirs) and whether a side now has one
    (zone play starts, ``checks.zone_play``); only counts of 1 to 5 each (else the general steps)."""
    out: dict[tuple[int, int], tuple[tuple[int, int], bool, bool]] = {}
    for own in range(1, BALLS_PER_PLAYER + 1):
        for theirs in range(1, BALLS_PER_PLAYER + 1):
            left = own - 1
            if shooter == 0:
                out[own, theirs] = ((left, theirs), left == 0, left == 1 or theirs == 1)
            else:
                out[theirs, own] = ((theirs, left), left == 0, left == 1 or theirs == 1)
    return out


#: ``whole``'s valid goal of p1, of p2: the balls left before it -> after it, the frame won, zone play
_AFTER_P1, _AFTER_P2 = _after_goals(0), _after_goals(1)


def one_event(state: GolfState, first: Event, rest: Rest) -> GolfState | None:
    """``whole``'s one step alone: the state after the shot ``first`` then ``rest`` from ``state``
    where it is the common case; None where it is not (``whole``'s general steps then)."""
    return whole(_NO_STEPS, state, (first,), rest)


def answered(state: GolfState, question: Question, call: Call) -> GolfState | None:
    """The state after ``call``, the referee's answer (``question``, the open question it answers:
    ``GolfEngine._answered`` checked it; the answer one of its options) naming the ball of a shot of
    one event, a goal or a ball off the table that no sensor named (``_asked`` asked whose it was):
    the state ``GolfEngine._amended`` gives (the shot resolved again with the answer,
    ``resolve.staged``: ``counted.counted_shot``), made by the one-event step from the state before
    the shot, its question numbered, with the event's ball the one the answer names; the shot stage's
    fields ``_amended`` gives put in after it (the shot with the answer, the undo point ``state``).
    None for any other answer, shot or state (``_amended`` then): a shot of more events or calls, a
    late drop, an answer of no ball, another question, a shooter not the player at the table, a
    question or a ball waiting before the match's first shot."""
    shot, before = state.shot, state.before
    if shot is None or before is None or len(shot.events) != 1 or shot.calls or shot.late:
        return None
    first = shot.events[0]
    kind = type(first)
    rest = shot.rest
    ball = call.answer
    if (kind is not Goal and kind is not OffTable) or first.ball is not None or rest is None \
            or (ball != "p1" and ball != "p2") or shot.player != before.at_table:  # type: ignore[attr-defined]
        return None
    asked = before.asked + 1  # the shot's one question (``counted._whose``)
    if question.id != f"q{asked}" or ((before.questions or before.spot_wait) and before.shot is None):
        return None  # (the one-event step closes what is open only after a shot, ``resolve.start_of`` always)
    named = replace(first, ball=ball)
    new = whole(_NO_STEPS, replace(before, asked=asked), (named,), rest)
    if new is None:
        return None
    return replace(new, checkpoint=state, cut=state.cut, before=before, shot=replace(shot, calls=(call,)))


class _NoSteps:
    """``one_event``'s engine: no general steps (a shot ``whole`` does not take in one step: None)."""

    @staticmethod
    def steps(state: GolfState, events: Sequence[Event], rest: Rest) -> GolfState | None:
        return None


_NO_STEPS = _NoSteps()


class Steps(Protocol):
    """What ``whole`` asks of its engine: the general steps of a whole shot (``GolfEngine.steps``)."""

    def steps(self, state: GolfState, events: Sequence[Event], rest: Rest) -> GolfState | None: ...


def _turn_lost(state: GolfState, pre: GolfState, first: Event, rest: Rest, after: Cutter, s: str,
               ball: Any, goal: str | None, log: RulingLog, events: tuple[Event, ...]) -> GolfState | None:
    """``one_event``'s shot when its goal (``goal``; None: a ball off the table) is the opponent's
    ball into either goal (it counts for the opponent), the shooter's own goal (it does not count),
    a ball off the table (the opponent's counts for them), or a ball no sensor named (not counted:
    a question, ``_asked``): the turn passes and the shooter's ball waits for the opponent's
    replacement spot (but for the opponent's ball in a goal), as ``counted.counted_shot`` counts
    it; the opponent's last ball wins them the frame (``end_frame``); None for a ball no sensor
    names that is no player's, or where the frame is over. ``events``: the shot's events (``first``
    alone, or it among cushions: ``several``)."""
    o = "p2" if s == "p1" else "p1"
    bl = pre.balls_left
    mine, theirs = bl if s == "p1" else (bl[1], bl[0])
    if mine == 0 or theirs == 0:
        return None
    t = rest.t
    at = first.t
    if ball is None:
        return _asked(state, pre, first, rest, after, s, o, goal, log)
    waiting: tuple[tuple[float, str, str], ...] = ((at, s, "spot0"),)
    if ball == o:
        if theirs < 2:  # their last ball: the frame is theirs (``counted_shot``'s count, then ``end_frame``)
            won = Ruling(at, "golf.off-table.opponent", s, ()) if goal is None else \
                Ruling(at, "golf.goal.opponent-ball", o, (("goal", goal),))
            return end_frame(pre, (won,), pre.asked, s, o, (mine, 0) if s == "p1" else (0, mine), t, (),
                             (pre, ShotRecord(state.at_table, events, rest), after, False, state))
        bl = (mine, theirs - 1) if s == "p1" else (theirs - 1, mine)
        if goal is None:
            recipe = [_turned, "golf.off-table.opponent", at, s, ()]
        else:
            recipe, waiting = [_turned, "golf.goal.opponent-ball", at, o, (("goal", goal),)], ()
    elif ball == s:  # (a goal not into the goal it attacks: ``one_event`` took that) an own goal
        if goal is None:
            recipe = [_turned, "golf.off-table.own", at, s, ()]
        else:
            recipe = [_turned, "golf.own-goal", at, s, (("goal", goal), ("what", "count"))]
    else:
        return None
    members = pre.members
    if pre.duo:
        members = (1 - members[0], members[1]) if s == "p1" else (members[0], 1 - members[1])
    zone = pre.zone_play
    now_zone = zone or 1 in bl  # (``checks.zone_play``)
    if not zone and now_zone:
        recipe.append(t)
    shot = ShotRecord(state.at_table, events, rest)
    return replace(_laid(pre), at_table=o, rulings=made(log, len(recipe) - 4, recipe), questions=(),
                   checkpoint=state, cut=after, before=pre, shot=shot, balls_left=bl, zone_play=now_zone,
                   members=members, frame_units=pre.frame_units + 1, clock=(o, t), turn_positions=None,
                   spot_wait=waiting)


def _asked(state: GolfState, pre: GolfState, first: Event, rest: Rest, after: Cutter, s: str, o: str,
           goal: str | None, log: RulingLog) -> GolfState:
    """``_turn_lost``'s shot of a ball no sensor named into ``goal`` (None: off the table): the
    referee is asked whose it was (``counted._whose``: the question numbered on from ``asked``), the
    ball not counted till an answer says; the turn passes (``golf.turn``)."""
    asked = pre.asked + 1
    if goal is None:
        question = Question(id=f"q{asked}", t=first.t, rule="golf.off-table.own", options=_WHOSE,
                            data=(("key", "off0"), ("what", "whose")))
    else:
        question = Question(id=f"q{asked}", t=first.t, rule="golf.goal", options=_WHOSE,
                            data=(("key", "goal0"), ("goal", goal), ("what", "whose")))
    members = pre.members
    if pre.duo:
        members = (1 - members[0], members[1]) if s == "p1" else (members[0], 1 - members[1])
    t = rest.t
    zone = pre.zone_play
    if zone or 1 not in pre.balls_left:  # (``checks.zone_play``: zone play starts, or not, as before)
        rulings = made(log, 1, [_turn, t, s])
    else:
        rulings, zone = made(log, 2, [_turn_zone, t, s]), True
    return replace(_laid(pre), at_table=o, rulings=rulings, questions=(question,), asked=asked,
                   checkpoint=state, cut=after, before=pre, shot=ShotRecord(state.at_table, (first,), rest),
                   zone_play=zone, members=members, frame_units=pre.frame_units + 1, clock=(o, t),
                   turn_positions=None, spot_wait=())


def _laid(pre: GolfState) -> GolfState:
    """``pre`` with no positions and no ball placed (the state after a shot that passes the turn),
    copied only where it has them: the copy after it then takes 14 keywords at most (a call of 15 or
    more is compiled through a dict, dearer than a copy)."""
    if pre.positions is None and not pre.placements:
        return pre
    return replace(pre, positions=None, placements=())


def _turned(rule: str, t: float, player: str, data: tuple[tuple[str, Any], ...], zone_at: float | None = None,
            ) -> tuple[Ruling, ...]:
    """``_turn_lost``'s rulings: the ball's (``rule``, ``player``, ``data``), zone play starting at
    ``zone_at`` (the rest) if given."""
    if zone_at is None:
        return (Ruling(t, rule, player, data),)
    return (Ruling(t, rule, player, data), Ruling(zone_at, "golf.zone.play"))


def _goal(t: float, goal: str, s: str) -> tuple[Ruling, ...]:
    """The rulings of a valid goal that keeps the turn (``resolve.plain``'s)."""
    return (Ruling(t, "golf.goal", s, (("goal", goal),)),)


def _zone(t: float, goal: str, s: str, t_end: float) -> tuple[Ruling, ...]:
    """A valid goal's rulings, zone play starting at the rest (``t_end``)."""
    return (Ruling(t, "golf.goal", s, (("goal", goal),)), Ruling(t_end, "golf.zone.play"))


def _turn(t: float, s: str) -> tuple[Ruling, ...]:
    """The turn passing at the rest: a shot with no goal (``resolve.missed``)."""
    return (Ruling(t, "golf.turn", s),)


def _turn_zone(t: float, s: str) -> tuple[Ruling, ...]:
    """The turn passing at the rest, zone play starting there."""
    return (Ruling(t, "golf.turn", s), Ruling(t, "golf.zone.play"))

