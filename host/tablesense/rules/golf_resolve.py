"""Resolve one golf unit (a shot, or a stand-alone call): the state after it as a pure
function of the state before it and its evidence.

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
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..geometry.golf import ATTACKS, BALLS_PER_PLAYER
from ..shots import Cutter
from .base import Question, Ruling, other
from .golf_fouls import ALWAYS, BY_ID, ZONE, Foul
from .golf_positions import attacking_triangle_broken, defensive_triangle_kept, free_spot, zone_left
from .golf_state import IDX, GolfState, Shot, evolve

TURN_LIMIT = 50.0  # seconds from the moment the balls rest to the referee's TIME
TIME_GRACE = 10.0  # seconds after TIME to play the shot
FRAMES_TO_WIN = 2


class _Unit:
    """Mutable scratch for one resolution; only the returned state escapes."""

    __slots__ = ("answers", "asked", "ids", "questions", "rulings", "spot_wait", "unit_q")

    def __init__(self, pre: GolfState, shot: Shot, prev: GolfState | None) -> None:
        self.rulings: list[Ruling] = list(pre.rulings)
        if prev is None:
            self.questions: list[Question] = list(pre.questions)
            self.ids: dict[str, str] = {}
            self.asked = pre.asked
        else:
            still_open = {q.id for q in prev.questions}
            self.questions = [q for q in pre.questions if q.id in still_open]
            self.ids = dict(prev.unit_questions)
            self.asked = prev.asked
        self.answers = dict(shot.answers)
        self.unit_q: list[tuple[str, str]] = []
        self.spot_wait: list[tuple[float, str, str]] = list(pre.spot_wait)

    def rule(self, t: float, rule: str, player: str | None, text: str, **data: Any) -> None:
        self.rulings.append(Ruling(t=t, rule=rule, player=player, text=text, data=tuple(data.items())))

    def ask(self, key: str, t: float, rule: str, text: str, options: tuple[Any, ...],
            player: str | None = None, **data: Any) -> Any:
        """The referee's answer for ``key`` if given, else ask (once) and return None."""
        if key in self.answers:
            return self.answers[key]
        qid = self.ids.get(key)
        if qid is None:
            self.asked += 1
            qid = f"q{self.asked}"
        self.unit_q.append((key, qid))
        self.questions.append(Question(id=qid, t=t, rule=rule, text=text, options=options, player=player,
                                       data=(("key", key), *data.items())))
        return None


def _foul(t: float, foul_id: str, **extra: Any) -> tuple[float, Foul, dict[str, Any]]:
    return t, BY_ID[foul_id], extra


NO_SHOT = "golf.foul.touch.no-shot"
_TOUCHES = frozenset({"golf.foul.touch", "golf.foul.touch.own-ball", "golf.foul.touch.opponent-ball"})


def _zone_touch(foul_id: str, zone: bool, standalone: bool = False) -> str:
    """Touching one's own or the opponent's ball is a zone-play rule; before zone play
    it is the plain touch. A touch that stands alone (no shot played) is the touch
    without a shot: "Touching a ball without playing a shot costs the turn as well,
    and all moved balls are put back" (no ball played, so none on a replacement spot)."""
    if standalone and foul_id in _TOUCHES:
        return NO_SHOT
    if not zone and foul_id in ("golf.foul.touch.own-ball", "golf.foul.touch.opponent-ball"):
        return "golf.foul.touch"
    return foul_id


def resolve(pre: GolfState, shot: Shot, prev: GolfState | None = None,
            cutter: Cutter | None = None) -> GolfState:
    """The state after ``shot`` played from ``pre``; ``prev`` is the state being amended
    (a late call or an answer), so that question ids stay stable. ``cutter``: the shot
    stage after the unit's last event (default: ``prev``'s, else ``pre``'s)."""
    if cutter is None:
        cutter = prev.cutter if prev is not None else pre.cutter
    if prev is None:
        quick = _plain(pre, shot, cutter)
        if quick is not None:
            return quick
    u = _Unit(pre, shot, prev)
    s = shot.shooter
    o = other(s)
    si, oi = IDX[s], IDX[o]
    zone = pre.zone_play
    t_end = shot.rest_t if shot.rest_t is not None else shot.t0
    attack = ATTACKS[s]

    # 1. the balls of the evidence
    goals: list[tuple[float, str, str]] = []
    for k, (t, g, b) in enumerate(shot.goals):
        if b is None:
            b = u.ask(f"goal{k}", t, "golf.goal", f"Whose ball dropped into goal {g}?", ("p1", "p2"), goal=g)
            if b is None:
                continue
        goals.append((t, g, b))
    offs: list[tuple[float, str]] = []
    for k, (t, b, src) in enumerate(shot.offs):
        if src == "call":
            u.rule(t, "golf.off-table.on-cushion", b,
                   "the ball stayed on the cushion, a goal peg or the goal cap: it counts as off the table")
        if b is None:
            b = u.ask(f"off{k}", t, "golf.off-table.own", "Whose ball left the table?", ("p1", "p2"))
            if b is None:
                continue
        offs.append((t, b))
    # "Ball on the edge of the goal: if it drops before it comes to rest, the goal counts
    # [...]. In all other cases it does not count: the ball is taken out of the table and
    # put back." A drop the cut places after the shot's rest came after the ball rested.
    late = list(shot.late)  # their rulings come after the shot's own (below)
    for t, b in shot.edges:
        if _drop_last(late, 2, b) or _drop_last(late, 2, None):
            continue  # the referee's call for a drop the cut already placed after the rest
        if _drop_last(goals, 2, b):
            u.rule(t, "golf.goal.edge", b, "the ball dropped after it had come to rest: it does "
                   "not count and is put back on the goal edge")
    for t, b in shot.rails:
        if _drop_last(offs, 1, b):
            u.rule(t, "golf.off-table.rail-return", b, "the ball came back onto the bed off the rail: "
                   "no penalty")
    spots: list[tuple[float, str]] = []
    own_wedged = False
    for t, b, where in shot.wedged:
        if where == "attacking":
            u.rule(t, "golf.wedged.attacking-goal", b, "wedged between the pegs of the goal it attacks, "
                   "clear of the bed: a valid goal")
            goals.append((t, ATTACKS[b], b))
        elif where == "defending":
            u.rule(t, "golf.wedged.defending-goal", b, "wedged between the pegs of its own goal: "
                   "on a replacement spot")
            spots.append((t, b))
            own_wedged = own_wedged or b == s
        else:
            u.rule(t, "golf.wedged.cushion", b,
                   "wedged between a peg and the short cushion: freed and laid loose")
    goals.sort(key=lambda x: x[0])  # stable: the same t keeps the order of the log

    # 2. fouls: called, and seen by the sensors or the positions
    fouls = [(t, BY_ID[_zone_touch(fid, zone, shot.standalone)], extra) for t, fid, extra in shot.fouls]
    called = {f.id for _, f, _ in fouls}
    if shot.strike == o and "golf.foul.opponent-ball" not in called:
        fouls.append(_foul(shot.t0, "golf.foul.opponent-ball", seen="strike"))
    if shot.first_contact == (s, s) and "golf.foul.own-ball" not in called:
        fouls.append(_foul(shot.t0, "golf.foul.own-ball", seen="contact"))
    own_valid = any(b == s and g == attack for _, g, b in goals)
    # positions mean nothing once a foul has put the balls back
    if not shot.standalone and shot.rest_t is not None and not any(f.back for _, f, _ in fouls):
        after = shot.positions
        if after is not None and pre.positions is not None:
            if zone and not goals and not offs and not fouls \
                    and not zone_left(pre.positions, after, s):
                fouls.append(_foul(t_end, "golf.zone.leave", seen="positions"))
            if "golf.triangle.attacking" not in called and attacking_triangle_broken(pre.positions, after, s):
                fouls.append(_foul(t_end, "golf.triangle.attacking", seen="positions"))
        if after is not None and pre.turn_positions is not None and not own_valid \
                and not called & {"golf.triangle.defensive", "golf.triangle.defensive.several"}:
            kept = defensive_triangle_kept(pre.turn_positions, after, s)
            if kept == 1:
                fouls.append(_foul(t_end, "golf.triangle.defensive", seen="positions"))
            elif kept > 1:
                fouls.append(_foul(t_end, "golf.triangle.defensive.several", seen="positions", balls=kept))
        # without positions the referee calls it: {"call": "foul", "foul": "zone"}; a shot
        # with no such call met the zone obligation (as a shot with no 'carom' call scored none)
    fouls.sort(key=lambda f: f[0])
    back = any(f.back for _, f, _ in fouls)

    # 3. the count, in order of t
    bl = list(pre.balls_left)
    zero_t: list[float | None] = [None, None]
    zero_k: list[int] = [0, 0]  # the order in the log of each side's last ball
    valid_own = own_goal = own_off = opp_off = False
    counted: list[tuple[float, int, str, str]] = []
    if not back:
        counted += [(t, 0, g, b) for t, g, b in goals]
        counted += [(t, 1, "", b) for t, b in offs]
    counted += [(t, 2, "", o) for t, f, _ in fouls if f.touched == "goal"]
    counted.sort(key=lambda c: c[0])  # stable: the same t keeps the order of the log
    first_opp_off = None
    goal_rulings: list[int] = []  # where the valid goals' rulings are, to word them once the turn is known
    for k, (t, kind, g, b) in enumerate(counted):
        bi = IDX[b]
        if kind == 0 and b == s and g == attack:
            valid_own = True
            bl[si] -= 1
            goal_rulings.append(len(u.rulings))
            u.rule(t, "golf.goal", s, f"valid goal in goal {g}: {s} stays at the table", goal=g)
        elif kind == 0 and b == s:
            own_goal = True
            u.rule(t, "golf.own-goal", s, f"own ball in own goal {g}: does not count, the ball goes on a "
                   "replacement spot, turn over", goal=g)
            spots.append((t, s))
        elif kind == 0:
            bl[oi] -= 1
            u.rule(t, "golf.goal.opponent-ball", o,
                   f"{o}'s ball into goal {g} counts for {o}; the turn passes", goal=g)
        elif kind == 1 and b == s:
            own_off = True
            u.rule(t, "golf.off-table.own", s, "own ball off the table: on a replacement spot"
                   + ("; the valid goal of this shot costs the turn" if own_valid else ""))
            spots.append((t, s))
        elif kind == 1:
            opp_off = True
            first_opp_off = t if first_opp_off is None else first_opp_off
            bl[oi] -= 1
            u.rule(t, "golf.off-table.opponent", s, f"{o}'s ball off the table goes into the goal; the ball "
                   "played goes on a replacement spot"
                   + ("; the valid goal of this shot costs the turn" if own_valid else ""))
        else:
            bl[oi] -= 1
        bl[bi] = max(bl[bi], 0)
        if bl[bi] == 0 and zero_t[bi] is None:
            zero_t[bi] = t
            zero_k[bi] = k
    if first_opp_off is not None:
        spots.append((first_opp_off, s))
    one_one = pre.balls_left == (1, 1) and opp_off and valid_own
    if one_one:
        u.rule(t_end, "golf.off-table.one-one", s, f"at 1/1 {s} sent {o}'s ball off the table and scored: "
               f"{s} loses the frame")

    # 4. the fouls' consequences
    played_spotted = False  # the ball played goes on a replacement spot once, however many fouls
    for t, f, extra in fouls:
        if f.id == "golf.own-goal" and own_goal:
            continue  # called, and seen by the goal sensor: one own goal
        text = f"{f.text}: turn lost"
        if f.back:
            text += ", the moved balls are put back"
        n_spots = 0
        if f.spot_played == ALWAYS or (f.spot_played == ZONE and zone):
            n_spots += 0 if played_spotted else 1
            played_spotted = True
            text += ", the ball played goes on a replacement spot"
        if f.points_out and zone:
            n_spots += 1
            text += f", {o} points out a ball to be placed on a replacement spot"
        if f.touched == "spot":
            n_spots += 1
            text += ", the touched ball goes on a replacement spot"
        elif f.touched == "goal":
            text += f", the touched ball goes into the goal and counts for {o}"
        if f.id in ("golf.triangle.defensive", "golf.triangle.attacking"):
            n_spots += 1
            text += ", the ball goes on a replacement spot"
        elif f.id == "golf.triangle.defensive.several":
            n = int(extra.get("balls", 2))
            n_spots += n
            text += f", all {n} balls go on replacement spots"
        u.rule(t, f.id, s, text, **{k: v for k, v in extra.items() if k in ("seen", "balls")})
        spots += [(t, s)] * n_spots

    stays = valid_own and not fouls and not own_goal and not own_off and not opp_off and not own_wedged
    if not stays:
        for i in goal_rulings:
            r = u.rulings[i]
            u.rulings[i] = replace(r, text=f"valid goal in goal {dict(r.data)['goal']}: it counts, "
                                   f"but this shot costs {s} the turn")
    if not stays and not own_goal and not fouls and not counted and not offs and not own_wedged:
        u.rule(t_end, "golf.turn", s, f"no valid goal of their own: the turn passes to {o}")

    for t, g, b in shot.late:
        u.rule(t, "golf.goal.edge", b, f"the ball dropped into goal {g} after the balls had come to rest: "
               "it does not count and is put back on the goal edge", goal=g)

    # 5. replacement spots
    placed = list(pre.placed)
    fouled = list(pre.fouled_from)
    placements: list[tuple[str, int]] = []
    repeated = False
    for k, (t, owner) in enumerate(spots):
        wi = IDX[owner]
        chooser = other(owner)
        n: int | None
        if zone and owner == s and fouls and pre.placed[si] is not None and pre.balls_left[si] == 1 \
                and not repeated:
            repeated = True
            from_spot = pre.placed[si]
            fouled[si] = fouled[si] if from_spot in fouled[si] else (*fouled[si], from_spot)
            n = next((x for x in range(1, 6) if x not in fouled[si]), 5)
            u.rule(t, "golf.spot.repeat", owner, f"fouled from replacement spot {from_spot}: the ball "
                   f"goes on replacement spot {n}", spot=n)
        elif shot.positions is not None and (n := free_spot(owner, shot.positions)) is not None:
            u.rule(t, "golf.spot.fallback", owner, f"replacement spots 1-3 are taken: the ball goes on "
                   f"replacement spot {n}", spot=n)
        else:
            # the opponent's choice: named by a ``spot`` call, not asked (the state lists the
            # balls waiting); until then the ball is simply back on the table
            n = u.answers.get(f"spot{k}")
            if n is None:
                u.spot_wait.append((t, owner, f"spot{k}"))
                continue
            if n in (4, 5):
                u.rule(t, "golf.spot.fallback", chooser, f"spots 1-3 unusable: {owner}'s ball on replacement "
                       f"spot {n}", ball=owner, spot=n)
            else:
                u.rule(t, "golf.spot.choice", chooser,
                       f"{chooser} chooses replacement spot {n} for {owner}'s ball", ball=owner, spot=n)
        placed[wi] = n
        placements.append((owner, n))

    # 6. turn, frame, match
    at = s if stays else o
    members = pre.members
    if not stays and pre.duo:
        members = (1 - members[0], members[1]) if s == "p1" else (members[0], 1 - members[1])
    positions = pre.positions if shot.standalone else shot.positions
    common: dict[str, Any] = {
        "rulings": tuple(u.rulings), "questions": tuple(u.questions), "asked": u.asked,
        "unit_questions": tuple(u.unit_q), "pre": pre, "shot": shot, "shot_open": False,
        "frame_units": pre.frame_units + 1, "placements": tuple(placements), "checkpoint": pre,
        "spot_wait": tuple(u.spot_wait), "cutter": cutter,
    }
    winner: str | None = None
    if one_one:
        winner = o
    elif bl[0] == 0 and bl[1] == 0:
        t1, t2 = zero_t
        assert t1 is not None and t2 is not None
        # the same t: the goal listed first in the log dropped first
        winner = "p1" if (t1, zero_k[0]) < (t2, zero_k[1]) else "p2"
        u.rule(min(t1, t2), "golf.frame.double-finish", winner, f"both last balls dropped in one shot; "
               f"{winner}'s dropped first, {abs(t1 - t2) * 1e6:.0f} µs earlier")
        common["rulings"] = tuple(u.rulings)
    elif 0 in bl:
        winner = "p1" if bl[0] == 0 else "p2"
    if winner is None:
        if not zone and 1 in bl:
            u.rule(t_end, "golf.zone.play", None, "a player has one ball left: zone play begins")
            common["rulings"] = tuple(u.rulings)
        return evolve(
            pre, **common, balls_left=(bl[0], bl[1]), at_table=at, members=members,
            zone_play=zone or 1 in bl, clock=(at, t_end), positions=positions,
            turn_positions=pre.turn_positions if stays else positions,
            placed=(placed[0], placed[1]), fouled_from=(fouled[0], fouled[1]),
        )
    return _end_frame(pre, u, common, winner, (bl[0], bl[1]), t_end)


def _plain(pre: GolfState, shot: Shot, cutter: Cutter) -> GolfState | None:
    """The common shot, resolved without the general machinery: before zone play, no
    call, no question, no positions to check, and either no goal at all (the turn passes)
    or only valid goals that neither end the frame nor start zone play. ``None`` for
    anything else. It gives exactly what the general path gives."""
    if (shot.rest_t is None or shot.standalone or shot.offs or shot.fouls or shot.rails or shot.edges
            or shot.late or shot.wedged or shot.answers or pre.zone_play or shot.positions is not None):
        return None
    s = shot.shooter
    if shot.strike not in (None, s) or shot.first_contact == (s, s):
        return None
    t_end = shot.rest_t
    si = IDX[s]
    if shot.goals:
        attack = ATTACKS[s]
        for _, g, b in shot.goals:
            if b != s or g != attack:
                return None
        left = pre.balls_left[si] - len(shot.goals)
        if left <= 1:
            return None
        rulings = pre.rulings + tuple(
            Ruling(t=t, rule="golf.goal", player=s, text=f"valid goal in goal {g}: {s} stays at the table",
                   data=(("goal", g),))
            for t, g, _ in sorted(shot.goals))
        bl = (left, pre.balls_left[1]) if si == 0 else (pre.balls_left[0], left)
        return evolve(pre, rulings=rulings, unit_questions=(), pre=pre, shot=shot, shot_open=False,
                      frame_units=pre.frame_units + 1, placements=(), checkpoint=pre, balls_left=bl,
                      at_table=s, clock=(s, t_end), positions=None, cutter=cutter)
    o = other(s)
    ruling = Ruling(t=t_end, rule="golf.turn", player=s,
                    text=f"no valid goal of their own: the turn passes to {o}")
    members = pre.members
    if pre.duo:
        members = (1 - members[0], members[1]) if s == "p1" else (members[0], 1 - members[1])
    return evolve(pre, rulings=(*pre.rulings, ruling), unit_questions=(), pre=pre, shot=shot, shot_open=False,
                  frame_units=pre.frame_units + 1, placements=(), checkpoint=pre, at_table=o, members=members,
                  clock=(o, t_end), positions=None, turn_positions=None, cutter=cutter)


def _end_frame(pre: GolfState, u: _Unit, common: dict[str, Any], winner: str, bl: tuple[int, int],
               t: float) -> GolfState:
    wi = IDX[winner]
    fw = list(pre.frames_won)
    fw[wi] += 1
    u.rule(t, "golf.frame.won", winner, f"frame {pre.frame} to {winner} ({fw[0]}-{fw[1]})", frame=pre.frame)
    if fw[wi] >= FRAMES_TO_WIN:
        # the match is over: at the table stays whoever played the deciding shot (the
        # winner, or the loser whose shot gave the winner the frame: docs/events.md's example)
        u.rule(t, "golf.match.won", winner, f"{winner} wins the match {fw[0]}-{fw[1]}")
        common.update(rulings=tuple(u.rulings), questions=(), unit_questions=(), spot_wait=())
        return evolve(pre, **common, frames_won=(fw[0], fw[1]), balls_left=bl, finished=True, winner=winner,
                       at_table=common["shot"].shooter, clock=None,
                       frame_winners=(*pre.frame_winners, winner))
    frame = pre.frame + 1
    if frame == 2:
        opener = other(pre.first_opener)
        members = (1 - pre.first_members[0], 1 - pre.first_members[1])
        how = "the other player opens the second frame"
    else:
        opener = pre.first_opener
        members = pre.first_members
        how = "deciding frame: the opening is decided again (a 'start' call), by default as in frame 1"
    u.rule(t, "golf.frame.opening", opener, f"frame {frame}: {opener} opens; {how}", frame=frame)
    # a new frame: balls waiting for a replacement spot are racked with the rest
    common.update(rulings=tuple(u.rulings), frame_units=0, questions=(), unit_questions=(), spot_wait=())
    return evolve(
        pre, **common, frame=frame, frames_won=(fw[0], fw[1]),
        balls_left=(BALLS_PER_PLAYER, BALLS_PER_PLAYER), zone_play=False, at_table=opener, members=members,
        clock=(opener, t), positions=None, turn_positions=None, placed=(None, None),
        fouled_from=((), ()), frame_winners=(*pre.frame_winners, winner),
    )


def _drop_last(items: list[Any], at: int, ball: str) -> bool:
    """Remove the last entry of ``items`` whose field ``at`` is ``ball``; True if one was."""
    for j in range(len(items) - 1, -1, -1):
        if items[j][at] == ball:
            del items[j]
            return True
    return False
