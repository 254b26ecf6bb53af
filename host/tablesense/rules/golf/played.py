"""A golf shot taken at once in a played match (``GolfEngine.whole_played``: every undo kept, the
replay's default and the live table's).

``ShotEngine.whole_played`` makes the state after the shot (``whole``) and then a second copy of
it with the played links (the undo a ``Redo`` of the state before the shot, the shot's events and
rest added to the events since the state kept whole). ``whole_played`` here makes the same state,
but a shot of several events, a cushion first, gets its links in its one copy where it is
cushions alone (the turn passes: ``resolve.missed``, nearly half the shots of a long match) or
cushions and the shooter's valid goals that leave both players a ball (the turn kept: ``resolve.plain``'s
goals, a quarter of the long match's shots: ``_scored``); every other shot goes ``whole`` and gets them
after it as the base puts them.

tests/rules/golf/test_golf_played_shot_in_one_copy.py and test_golf_played_goal_shot_in_one_copy.py
hold it to the base's ``whole_played`` over made-up states and shots.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from ...events import Cushion, Event, Goal, OffTable, Rest
from ...shots import _OPEN, _SETTLING_PHASE, Cutter
from .. import shot_engine
from ..ruling_log import RulingLog, made
from ..shot_engine import Redo, ShotRecord, Trace, _cut_before, _shallow, shot_cut
from .counted import counted_shot
from .frame_end import end_frame
from .geometry import ATTACKS
from .resolve import _FIRST, _goals, _turn, missed
from .state import GolfState

replace = msgspec.structs.replace

#: a shot of cushions alone: the events' kinds (``_cushions``)
_CUSHION = frozenset({Cushion})


def whole_played(engine: Any, state: GolfState, events: Sequence[Event], rest: Rest) -> GolfState | None:
    """``GolfEngine.whole_played`` (this function is the method): the state ``ShotEngine.whole_played``
    gives, in its steps (inline here: one frame less a shot), but that a shot of several events, a
    cushion first, is made here with its links in one copy of the state where it is cushions alone
    (the turn passes: ``resolve.missed``, its common state inline) or cushions and the shooter's valid
    goals that leave both players a ball (``_scored``): ``GolfEngine.steps`` of it, no position at the
    rest, a table that reports no strike. Any other shot: ``whole``, then its links (``_stepped``)."""
    base, since = state.base, state.since
    if base is None:  # a match's first shot, at once where it can be (``_first_whole_played``)
        if state.before is None and not since and type(since) is tuple:
            return engine._first_whole_played(state, events, rest)  # type: ignore[no-any-return]
        return None
    if type(since) is not Trace:
        return None
    n = since._n
    count = n + len(events) + 1
    if count > shot_engine.KEEP_EVERY:  # (read at each shot, as the base reads it)
        return None
    # ``play`` cuts the states before the shot at its opening: as it does, first (``_shallow``)
    if shot_engine.BEFORE_DEPTH != 4:
        given = _shallow(state)
    else:  # (``_eight_deep``'s walk, inline: the chain cut where it is eight states deep or more)
        node = state.before
        given = state if node is None or (node := node.before) is None or (node := node.before) is None \
            or (node := node.before) is None or (node := node.before) is None \
            or (node := node.before) is None or (node := node.before) is None or node.before is None \
            else _cut_before(state)
    # several events, a cushion first, from a state with no shot open, nothing held, the match on
    if count <= n + 2 or type(events[0]) is not Cushion or given.in_shot or given.held \
            or given.ended is not None or rest.positions:
        return _stepped(engine, given, events, rest, base, since, count)
    goals: list[tuple[float, str]] | None = None
    counted = won = False  # counted: a ball ``plain`` does not take (``counted_shot``); won: the last ball
    if not _CUSHION.issuperset(map(type, events)):
        # (``resolve.plain``'s walk) cushions and the shooter's valid goals only, each one's (t, goal)
        s = given.at_table or "p1"
        aim = ATTACKS[s]
        goals = []
        for e in events:
            kind = type(e)
            if kind is Cushion:
                continue
            if kind is Goal and e.ball == s and e.goal == aim:  # type: ignore[attr-defined]
                goals.append((e.t, aim))
            elif kind is Goal or kind is OffTable:  # another ball, another goal, a ball off the table
                counted = True
            else:
                return _stepped(engine, given, events, rest, base, since, count)
        if counted:  # (``_admitted``'s checks: a ball no player's, or none left in play, the steps)
            if not _in_play(given.balls_left, events):
                return _stepped(engine, given, events, rest, base, since, count)
        else:
            bl = given.balls_left
            if s == "p1":
                left, theirs = bl[0] - len(goals), bl[1]
                bl = (left, theirs)
            else:
                left, theirs = bl[1] - len(goals), bl[0]
                bl = (theirs, left)
            if left < 0 or theirs == 0:  # more goals than balls, or the frame over: the steps
                return _stepped(engine, given, events, rest, base, since, count)
            won = left == 0  # the shooter's last ball: the frame is theirs (``resolve.plain``'s end)
    cut = given.cut
    t = rest.t
    if cut.phase != _OPEN and type(t) is float and not (cut.strikes or cut.strike_sensor):
        # (``shot_cut``'s common case, inline: a cushion first settles no shot and opens one)
        cut = Cutter(False, cut.window, cut.game, cut.shot + 1, _SETTLING_PHASE, t)
    else:
        cut = shot_cut(cut, events[0], rest)  # type: ignore[assignment]
        if cut is None or cut.strikes or cut.strike_sensor:
            return _stepped(engine, given, events, rest, base, since, count)
    before = given
    if given.shot is not None and (given.questions or given.spot_wait):  # ``close``, inline
        before = replace(given, questions=(), spot_wait=())
    seg = since._seg  # (``_grown``, inline) ``Trace.plus`` of each event and the rest
    items = seg[0]
    if items is not None and len(items) == n:
        items.extend(events)
        items.append(rest)
        grown = Trace(seg, count)
    else:
        grown = Trace([[*since, *events, rest], None], count)
    shot = ShotRecord(before.at_table, tuple(events), rest)
    if goals is None:  # the turn passes (``resolve.missed``)
        if before.duo or before.placements or before.positions is not None \
                or before.turn_positions is not None:
            return missed(before, before.at_table or "p1", t, before, shot, cut, False, Redo(base, since),
                          grown)
        # ``missed``'s common state (one against one, no positions, no ball placed), inline
        s = before.at_table or "p1"
        o = "p2" if s == "p1" else "p1"
        log = before.rulings  # the ruling made only when read
        log = made(log, 1, [_turn, t, s]) if type(log) is RulingLog else log + _turn(t, s)
        return replace(before, at_table=o, rulings=log, checkpoint=Redo(base, since), since=grown, cut=cut,
                       before=before, shot=shot, frame_units=before.frame_units + 1, clock=(o, t))
    if counted:  # ``steps``' ``counted_shot`` (``plain`` refuses the shot), its links in its one copy
        new = counted_shot(before, shot, before, shot, cut, False, Redo(base, since), grown)
        return _stepped(engine, given, events, rest, base, since, count) if new is None else new
    if won:  # (``resolve.plain``'s frame end)
        if len(goals) > 1:
            goals.sort(key=_FIRST)  # stable: the same t keeps the order of the log
        return end_frame(before, _goals(s, goals), before.asked, s, s, bl, t, (),
                         (before, shot, cut, False, Redo(base, since)), grown)
    return _scored(before, s, goals, bl, t, shot, cut, Redo(base, since), grown)


def _in_play(balls_left: tuple[int, int], events: Sequence[Event]) -> bool:
    """Whether ``_admitted`` takes the goals and balls off the table of a shot whose first event is a
    cushion: each names a player's ball or none, and no player's ball goes down or off more often
    than they have balls in play (``_admitted`` raises there, or refuses a ball no player's)."""
    down = [0, 0]
    for e in events:
        kind = type(e)
        if kind is Goal or kind is OffTable:
            ball = e.ball  # type: ignore[attr-defined]
            if ball is None:
                continue
            if ball == "p1":
                side = 0
            elif ball == "p2":
                side = 1
            else:
                return False
            if down[side] >= balls_left[side]:
                return False
            down[side] += 1
    return True


def _stepped(engine: Any, given: GolfState, events: Sequence[Event], rest: Rest, base: GolfState,
             since: Trace, count: int) -> GolfState | None:
    """``whole_played``'s shot that ``whole`` takes (``given``: the state before it, its chain of states
    before shots cut), then its links as the base puts them (``since`` grown to ``count``)."""
    new = engine.whole(given, events, rest)
    if new is None:
        return None
    before = new.before
    if before is None or before.before is not given.before:
        return None
    return replace(new, base=base, since=_grown(since, events, rest, count), checkpoint=Redo(base, since))


def _grown(since: Trace, events: Sequence[Event], rest: Rest, count: int) -> Trace:
    """``since`` with ``events`` and ``rest`` after it (``Trace.plus`` of each), ``count`` in all."""
    seg = since._seg
    items = seg[0]
    if items is not None and len(items) == since._n:
        items.extend(events)
        items.append(rest)
        return Trace(seg, count)
    return Trace([[*since, *events, rest], None], count)


def _scored(pre: GolfState, s: str, goals: list[tuple[float, str]], bl: tuple[int, int], t: float,
            shot: ShotRecord, cut: Any, undo: Redo, grown: Trace) -> GolfState:
    """``resolve.plain``'s shot of ``s``'s valid goals (``goals``: their times and the goal, in the
    log's order) from ``pre`` (no question open, no ball waiting: closed), ``bl`` the balls left after
    them (both players still have one), at rest at ``t``, the played links (``undo``, ``grown``) in its
    one copy: the turn kept, zone play starting where a player has one ball left."""
    if len(goals) > 1:
        goals.sort(key=_FIRST)  # stable: the same t keeps the order of the log
    log = pre.rulings  # (``plain``'s) the rulings made only when read
    if not pre.zone_play and 1 in bl:  # (``checks.zone_play``) zone play starts
        log = made(log, len(goals) + 1, [_goals, s, goals, t]) if type(log) is RulingLog \
            else log + _goals(s, goals, t)
        return replace(pre, at_table=s, rulings=log, checkpoint=undo, since=grown, cut=cut, before=pre,
                       shot=shot, balls_left=bl, zone_play=True, frame_units=pre.frame_units + 1,
                       clock=(s, t), positions=None, placements=())
    log = made(log, len(goals), [_goals, s, goals]) if type(log) is RulingLog else log + _goals(s, goals)
    if pre.positions is None and not pre.placements and pre.at_table is not None:
        # the common state: only the fields that change given, in the order of the fields
        return replace(pre, rulings=log, checkpoint=undo, since=grown, cut=cut, before=pre, shot=shot,
                       balls_left=bl, frame_units=pre.frame_units + 1, clock=(s, t))
    return replace(pre, at_table=s, rulings=log, checkpoint=undo, since=grown, cut=cut, before=pre,
                   shot=shot, balls_left=bl, frame_units=pre.frame_units + 1, clock=(s, t), positions=None,
                   placements=())
