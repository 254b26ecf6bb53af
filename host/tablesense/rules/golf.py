"""The golf billiards engine: five balls each, goals at both ends, best of three frames.

The rules and their ids are in seeds/golf.md; docs/golf.md explains them to players.
This module turns events into units (a shot from its first sensor event to ``rest``,
or a call that stands alone) and hands each unit to ``golf_resolve.resolve``; a late
referee call or an answer amends the unit just ended and resolves it again. Where a
shot ends is the shot stage's (``tablesense.shots.Cutter``, kept in the state): a
``goal`` it places after the shot's ``rest`` (a late settle: a ball dropping off the
goal edge within the settle window) amends that shot as a drop after resting
(``golf.goal.edge``), and the ``rest`` reported after it is no new shot.

Events and calls (docs/events.md):
- ``goal`` / ``off_table`` with a known ball decide alone; with ``ball: null`` the
  engine asks the referee whose ball it was. ``strike`` (the ball the cue hit) and
  ``contact`` (first contact) decide "played with an opponent's ball" and "played onto
  one's own ball"; ``rest.positions`` decide zones and triangles.
- ``start`` (player, optionally ``member``: 0/1 or a name): who opens a frame, before
  its first shot.
- ``foul`` (a foul of seeds/golf.md, short names and synonyms accepted), ``time``
  (the turn clock ran out), ``spot`` (ball, spot 1..5: where a penalised ball goes),
  ``off_table`` (ball: it stayed on a cushion, a goal peg or the goal cap), ``rail``
  (ball: back on the bed off the rail), ``edge`` (ball: it dropped after resting on
  the goal edge), ``wedged`` (ball, ``where``: attacking | defending | cushion).
- ``foul`` ``touch-no-shot`` (``golf.foul.touch.no-shot``): a touch between shots; it
  always stands alone against the player at the table.
"""

from __future__ import annotations

from typing import Any

from ..errors import IllegalCall
from ..events import Call, Contact, Cushion, Event, Goal, OffTable, Pin, Pocket, Rest, Setup, Strike
from ..geometry.golf import ATTACKS
from ..shots import Cutter, Role
from .base import Engine, Question, other, register
from .golf_fouls import find_foul
from .golf_positions import fallback_refused
from .golf_resolve import NO_SHOT, TIME_GRACE, TURN_LIMIT, resolve
from .golf_state import IDX, SIDES, GolfState, Shot, at_rest, evolve, norm_positions, pair_set

_SHOT_EVENTS = frozenset({Cushion, Goal, OffTable, Strike, Contact})
CALLS = ("start", "foul", "time", "spot", "off_table", "rail", "edge", "wedged", "answer", "undo")
WEDGED = ("attacking", "defending", "cushion")
_CALL_NAMES = frozenset({*CALLS, "off", "carom"})
#: foul names that mean "a ball left the table" (handled as the ``off_table`` call)
OFF_TABLE_FOULS = frozenset({"offtable", "off", "ballofftable", "offthetable", "lefttable", "leftthetable",
                             "outoftable", "out", "outofplay", "jumpedoff", "jumpedofftable", "offbed"})
DUO_WORDS = frozenset({"duo", "duos", "double", "doubles", "pair", "pairs", "team", "teams", "2v2", "2vs2",
                       "twoagainsttwo"})
_DUO_ONLY = ("golf.duo.opening", "golf.duo.order", "golf.duo.consult")


@register
class GolfEngine(Engine[GolfState]):
    game = "golf"

    # --- set-up -----------------------------------------------------------------
    def new_state(self, setup: Setup) -> GolfState:
        fmt = str(setup.format or "").lower().replace("-", "").replace("_", "").replace(" ", "")
        names = setup.players
        # "duo" (and its plain synonyms) or two names a side; any other word is one against one
        duo = fmt in DUO_WORDS or any(isinstance(names[p], list) for p in SIDES)
        if duo and not all(isinstance(names[p], list) and len(names[p]) == 2 for p in SIDES):
            raise IllegalCall("a duo match needs two names per side: "
                              '"players": {"p1": ["Ann", "Cor"], "p2": ["Bob", "Dirk"]}')
        players = tuple((p, tuple(names[p]) if duo else names[p]) for p in SIDES)
        return GolfState(players=players, duo=duo)

    # --- events -----------------------------------------------------------------
    def apply(self, state: GolfState, event: Event) -> GolfState:
        """The base's ``apply`` with a fast path for sensor events and ``rest``.

        Same snapshots as the base: the state before a shot's first event is the
        checkpoint ``undo`` returns (also after the shot's ``rest``); calls and answers
        go through the base. The cutter sees every event that may open a shot and every
        ``rest`` (inside a shot it would only answer ``PLAY``): a ``goal`` it calls a late
        settle amends the shot before, even the one that ended the match, and is undone
        with the ``rest`` that follows it.
        """
        kind = type(event)
        if kind in _SHOT_EVENTS:
            if not state.shot_open:
                cutter = state.cutter
                if kind is Goal or cutter.settle_open or cutter.incident_open:
                    role, cutter = cutter.feed(event)
                    if role is Role.SETTLE and kind is Goal and _rested(state):
                        return self._late_drop(state, event, cutter)  # type: ignore[arg-type]
                # else the cut opens a shot here, and the value it would hold after the
                # shot's rest is the one it gives that rest unfed now (a rest with nothing
                # open): the feed of this event is left out (one copy less a shot;
                # tests/test_golf_issue13.py checks the cutter against ``shots.cut``)
                if not state.finished:
                    opened = self._open(state, event.t, snapshot=True, cutter=cutter)
                    return opened if kind is Cushion else self.step(opened, event)
            elif state.in_shot and not state.finished:
                return state if kind is Cushion else self.step(state, event)
        elif kind is Rest:
            if state.shot_open:
                if not state.finished:
                    return self._rest(state, event)  # type: ignore[arg-type]
            elif state.cutter.settle_open:
                # the rest the table reports after a late settle: part of the shot before
                return evolve(state, cutter=state.cutter.feed(event)[1])
        return super().apply(state, event)

    def _late_drop(self, state: GolfState, event: Goal, cutter: Cutter) -> GolfState:
        """A ball dropped into a goal after the shot's ``rest``, within the settle window:
        it belongs to that shot, and it dropped after it had come to rest, so it does not
        count and is put back on the goal edge (``golf.goal.edge``). Undo takes it back."""
        ball = _ball(event.ball, "goal", nullable=True)
        shot, pre = state.shot, state.pre
        assert shot is not None and pre is not None
        amended = shot._replace(late=(*shot.late, (event.t, event.goal, ball)))
        return evolve(resolve(pre, amended, prev=state, cutter=cutter), checkpoint=state, in_shot=False)

    def step(self, state: GolfState, event: Event) -> GolfState:
        if isinstance(event, Call):
            return self._call(state, event)
        if isinstance(event, Rest):
            return self._rest(state, event)
        if isinstance(event, (Pin, Pocket)):
            raise IllegalCall(f"{event.type} event: a golf billiards table has no {event.type}s")
        if isinstance(event, Cushion):
            return state if state.shot_open else self._open(state, event.t)
        if isinstance(event, Goal):
            return self._goal(state, event)
        if isinstance(event, OffTable):
            ball = _ball(event.ball, "off_table", nullable=True)
            st = state if state.shot_open else self._open(state, event.t)
            shot = st.shot
            assert shot is not None and st.pre is not None
            if ball is not None:
                _check_in_play(st.pre, shot, ball, "off_table event")
            return evolve(st, shot=shot._replace(offs=(*shot.offs, (event.t, ball, "sensor"))))
        if isinstance(event, Strike):
            ball = _ball(event.ball, "strike", nullable=True)
            st = state if state.shot_open else self._open(state, event.t)
            assert st.shot is not None
            if st.shot.strike is not None or ball is None:
                return st
            return evolve(st, shot=st.shot._replace(strike=ball))
        if isinstance(event, Contact):
            for b in event.balls:
                _ball(b, "contact")
            st = state if state.shot_open else self._open(state, event.t)
            assert st.shot is not None
            if st.shot.first_contact is not None:
                return st
            return evolve(st, shot=st.shot._replace(first_contact=tuple(event.balls)))
        raise IllegalCall(f"{event.type} event has no meaning in golf billiards")

    def _open(self, state: GolfState, t: float, snapshot: bool = False,
              cutter: Cutter | None = None) -> GolfState:
        """A shot begins: keep the state before it. Questions still open take their
        default (whose ball: not counted); a ball still waiting for its replacement spot
        is on the table again, its spot not recorded. ``snapshot``: also
        take the base's undo snapshot (the fast path of ``apply``); ``cutter``: the shot
        stage after the event that opens the shot."""
        pre = evolve(state, questions=(), spot_wait=()) if state.questions or state.spot_wait else state
        shooter = state.at_table or "p1"
        shot = Shot(t0=t, shooter=shooter, member=state.members[IDX[shooter]])
        cut = state.cutter if cutter is None else cutter
        if snapshot:
            return evolve(pre, pre=pre, shot=shot, shot_open=True, unit_questions=(), checkpoint=state,
                          in_shot=True, cutter=cut)
        return evolve(pre, pre=pre, shot=shot, shot_open=True, unit_questions=(), cutter=cut)

    def _goal(self, state: GolfState, event: Goal) -> GolfState:
        ball = _ball(event.ball, "goal", nullable=True)
        st = state if state.shot_open else self._open(state, event.t)
        shot, pre = st.shot, st.pre
        assert shot is not None and pre is not None
        bl = st.balls_left
        if ball is not None:
            _check_in_play(pre, shot, ball, f"goal {event.goal}")
            if ball != shot.shooter or event.goal == ATTACKS[ball]:
                bl = pair_set(bl, ball, max(bl[IDX[ball]] - 1, 0))  # live count for the scoreboard
        goals = (*shot.goals, (event.t, event.goal, ball))
        return evolve(st, shot=shot._replace(goals=goals), balls_left=bl)

    def _rest(self, state: GolfState, event: Rest) -> GolfState:
        positions = norm_positions(event.positions)
        _, cutter = state.cutter.feed(event)
        if state.shot_open:
            assert state.shot is not None and state.pre is not None
            return resolve(state.pre, at_rest(state.shot, event.t, positions), cutter=cutter)
        if positions is not None and (positions == state.positions
                                      or (state.positions is None and not state.frame_units)):
            # the lay-out of the balls (nothing moved, or the first report of a frame): no
            # shot, and for the cut nothing that a drop could settle
            return evolve(state, positions=positions, turn_positions=state.turn_positions or positions)
        # every other ``rest`` ends a shot, even one that no sensor saw (a miss on a table
        # without cushion sensors)
        shooter = state.at_table or "p1"
        pre = evolve(state, questions=(), unit_questions=(), spot_wait=())
        shot = Shot(t0=event.t, shooter=shooter, member=state.members[IDX[shooter]], rest_t=event.t,
                    positions=positions)
        return resolve(pre, shot, cutter=cutter)

    # --- referee calls ------------------------------------------------------------
    def _call(self, state: GolfState, ev: Call) -> GolfState:
        name = ev.call.lower().replace("-", "_")
        ball_of_call = ev.ball or ev.player
        foul_name = ev.foul
        if name not in _CALL_NAMES and _is_foul(ev.call):
            name, foul_name = "foul", ev.call  # a foul's name as the call itself: {"call": "push"}
        off_whose = _off_table_foul(foul_name) if name == "foul" and foul_name else None
        if off_whose is not None:
            # a ball off the table called as a foul: the off-table rules; without a ball, the
            # ball played (the shooter's), or the opponent's when the name says so
            name = "off_table"
            last = state.shot if state.shot is not None and (state.shot_open or state.frame_units) else None
            shooter = last.shooter if last is not None else state.at_table
            if off_whose == "opponent" and shooter is not None:
                shooter = other(shooter)
            ball_of_call = ev.ball or shooter
        if name == "start":
            return self._start(state, ev)
        if name in ("foul", "time"):
            if name == "foul" and not foul_name:
                raise IllegalCall("a 'foul' call needs 'foul' (a foul of seeds/golf.md, e.g. \"touch\")")
            foul = find_foul(foul_name if name == "foul" and foul_name else "time")
            if foul.id in _DUO_ONLY and not state.duo:
                raise IllegalCall(f"foul {foul.id} applies to duo matches only")
            extra = {k: v for k, v in ev.extra.items() if k == "balls" and isinstance(v, int) and 1 <= v <= 5}
            item = (ev.t, foul.id, extra)

            def add_foul(sh: Shot) -> Shot:
                return sh._replace(fouls=(*sh.fouls, item))

            if foul.id == NO_SHOT:
                # a touch between shots never amends the shot before (seed: "Touching a ball
                # without playing a shot costs the turn as well, and all moved balls are put back")
                if state.shot_open:
                    raise IllegalCall("a touch between shots, but a shot is being played: call 'touch'")
                return self._standalone(state, ev, add_foul)
            if foul.id == "golf.clock" and not state.shot_open:
                return self._standalone(state, ev, add_foul)
            return self._amend(state, ev, add_foul)
        if name == "spot":
            return self._spot(state, ev)
        if name in ("off_table", "off", "rail", "edge", "wedged"):
            ball = _ball(ball_of_call, ev.call)
            if name == "wedged":
                where = str(ev.extra.get("where", "")).lower()
                if where not in WEDGED:
                    raise IllegalCall(f"a 'wedged' call needs 'where': one of {', '.join(WEDGED)}")
                item_w = (ev.t, ball, where)
                return self._amend(state, ev, lambda sh: sh._replace(wedged=(*sh.wedged, item_w)))
            if name in ("off_table", "off"):
                target = state.shot if state.shot_open else None
                pre = state.pre if state.shot_open else state
                if target is not None and pre is not None:
                    _check_in_play(pre, target, ball, "off_table call")
                src = "referee" if ev.call.lower() == "foul" else "call"  # "call": stayed on a cushion
                return self._amend(state, ev, lambda sh: sh._replace(offs=(*sh.offs, (ev.t, ball, src))))
            shot = state.shot
            if shot is None:
                raise IllegalCall(f"'{ev.call}' call: no shot has been played yet")
            if name == "rail":
                if not any(b == ball for _, b, _ in shot.offs):
                    raise IllegalCall(f"'rail' call: no ball of {ball} left the table in the last shot")
                return self._amend(state, ev, lambda sh: sh._replace(rails=(*sh.rails, (ev.t, ball))))
            late = any(b in (ball, None) for _, _, b in shot.late)  # placed after the rest by the cut
            if not late and not any(b == ball for _, _, b in shot.goals):
                raise IllegalCall(f"'edge' call: no ball of {ball} dropped into a goal in the last shot")
            return self._amend(state, ev, lambda sh: sh._replace(edges=(*sh.edges, (ev.t, ball))))
        if name == "carom":
            raise IllegalCall("golf billiards has no caroms; a 'carom' call fits no golf state")
        raise IllegalCall(f"unknown golf call {ev.call!r} (golf calls: {', '.join(CALLS)})")

    def _amend(self, state: GolfState, ev: Call, add: Any) -> GolfState:
        """A call during a shot joins its evidence; after ``rest`` it amends the shot
        just ended; with no shot to amend it stands alone against the player at the table."""
        if state.shot_open:
            assert state.shot is not None
            return evolve(state, shot=add(state.shot))
        last = state.shot
        if last is not None and state.pre is not None and (ev.player is None or ev.player == last.shooter):
            return resolve(state.pre, add(last), prev=state)
        return self._standalone(state, ev, add)

    def _standalone(self, state: GolfState, ev: Call, add: Any) -> GolfState:
        if state.finished:
            raise IllegalCall(f"the match is over ({self.result_text(state)}); '{ev.call}' fits no shot")
        if ev.player is not None and ev.player != state.at_table:
            raise IllegalCall(f"'{ev.call}' call for {ev.player}, but {state.at_table} is at the table and "
                              f"{ev.player} played no shot just now")
        shooter = state.at_table or "p1"
        unit = Shot(t0=ev.t, shooter=shooter, member=state.members[IDX[shooter]], standalone=True)
        return resolve(evolve(state, questions=(), unit_questions=()), add(unit))

    def _start(self, state: GolfState, ev: Call) -> GolfState:
        player = ev.player
        if player not in SIDES:
            raise IllegalCall("a 'start' call needs 'player': p1 or p2")
        if state.frame_units or state.shot_open or state.finished:
            raise IllegalCall(f"'start' comes before the first shot of a frame; "
                              f"frame {state.frame} is under way")
        members = state.members
        if state.duo:
            members = pair_set(members, player, _member(state, player, ev.extra.get("member")))
        new = evolve(state, at_table=player, members=members, clock=(player, ev.t))
        if state.frame == 1:
            new = evolve(new, first_opener=player, first_members=members)
        rule = "golf.duo.deciding" if state.duo and state.frame == 3 else "golf.frame.opening"
        who = _name(new, player)
        return self.rule(new, ev.t, rule, player, f"{who} opens frame {state.frame}", frame=state.frame)

    def _spot(self, state: GolfState, ev: Call) -> GolfState:
        """The opponent names the replacement spot of a penalised ball (the first of that
        ball's owner still waiting)."""
        ball = _ball(ev.ball or ev.player, "spot")
        if ev.ball is None and not any(b == ball for _, b, _ in state.spot_wait):
            ball = other(ball)  # "player": the opponent who chooses the spot
        spot = ev.spot
        if isinstance(spot, bool) or not isinstance(spot, int) or not 1 <= spot <= 5:
            raise IllegalCall(f"'spot' call: spot must be 1..5, not {spot!r}")
        for item in state.spot_wait:
            if item[1] == ball:
                break
        else:
            raise IllegalCall(f"'spot' call: no ball of {ball} is waiting for a replacement spot")
        why = fallback_refused(ball, state.positions, spot)
        if why is not None:
            raise IllegalCall(why)
        _, _, key = item
        shot = state.shot
        mine = state.pre is not None and item not in state.pre.spot_wait
        if mine and shot is not None and state.pre is not None and not state.shot_open:
            return resolve(state.pre, shot._replace(answers=(*shot.answers, (key, spot))), prev=state)
        rule = "golf.spot.fallback" if spot in (4, 5) else "golf.spot.choice"
        new = evolve(state, placed=pair_set(state.placed, ball, spot),
                     placements=(*state.placements, (ball, spot)),
                     spot_wait=tuple(x for x in state.spot_wait if x is not item))
        return self.rule(new, ev.t, rule, other(ball), f"{other(ball)} chooses replacement spot "
                         f"{spot} for {ball}'s ball", ball=ball, spot=spot)

    def on_answer(self, state: GolfState, question: Question, answer: Any, event: Call) -> GolfState:
        key = question.get("key")
        shot = state.shot
        mine = any(qid == question.id for _, qid in state.unit_questions)
        if mine and shot is not None and state.pre is not None and not state.shot_open:
            return resolve(state.pre, shot._replace(answers=(*shot.answers, (key, answer))), prev=state)
        raise IllegalCall(f"question {question.id} was about a shot that is over; its default stands")

    # --- output -------------------------------------------------------------------
    def game_json(self, state: GolfState) -> dict[str, Any]:
        out: dict[str, Any] = {
            "frames_won": {"p1": state.frames_won[0], "p2": state.frames_won[1]},
            "balls_left": {"p1": state.balls_left[0], "p2": state.balls_left[1]},
            "zone_play": state.zone_play,
            "frame": state.frame,
            "frame_winners": list(state.frame_winners),
            "format": "duo" if state.duo else "single",
            "attacks": dict(ATTACKS),
            "shot_in_progress": state.shot_open,
            "clock": None,
            "replacements": [{"ball": b, "spot": n} for b, n in state.placements],
            "spots_waiting": [b for _, b, _ in state.spot_wait],
        }
        if state.clock is not None and not state.finished:
            player, start = state.clock
            out["clock"] = {"player": player, "start": start, "limit": TURN_LIMIT, "grace": TIME_GRACE,
                            "time_at": round(start + TURN_LIMIT, 6),
                            "deadline": round(start + TURN_LIMIT + TIME_GRACE, 6)}
        if state.duo:
            out["next_up"] = {p: _name(state, p) for p in SIDES}
        if state.at_table is not None:
            out["player_at_table"] = _name(state, state.at_table)
        return out

    def summary(self, state: GolfState) -> str:
        p1, p2 = state.balls_left
        f1, f2 = state.frames_won
        line = f"frame {state.frame}: balls left p1 {p1}, p2 {p2}; frames {f1}-{f2}"
        if state.zone_play:
            line += "; zone play"
        if not state.finished and state.at_table:
            line += f"; {_name(state, state.at_table)} ({state.at_table}) at the table"
        if state.questions:
            line += "; waiting for: " + ", ".join(q.id for q in state.questions)
        if state.spot_wait:
            line += "; replacement spot to name for: " + ", ".join(b for _, b, _ in state.spot_wait)
        return line


# --- helpers ----------------------------------------------------------------------

def _rested(state: GolfState) -> bool:
    """The last unit is a shot that came to rest (not a call standing alone): a drop the
    cut settles belongs to it."""
    shot = state.shot
    return (shot is not None and state.pre is not None and not state.shot_open and not shot.standalone
            and shot.rest_t is not None)


def _is_foul(name: str) -> bool:
    try:
        find_foul(name)
    except IllegalCall:
        return False
    return True


def _plain_key(name: str) -> str:
    return "".join(c for c in name.lower() if c.isalnum())


#: parts of a foul name that mean a ball left the table (``ball_off_table``, ``off_table_opponent``)
_OFF_TABLE_PARTS = ("offtable", "offthetable", "lefttable", "leftthetable", "outoftable", "offbed",
                    "jumpedoff")
_OPPONENT_PARTS = ("opponent", "opp", "other", "their", "enemy")


def _off_table_foul(name: str) -> str | None:
    """``None`` unless ``name`` is an off-table foul; then whose ball it names by default:
    ``"opponent"`` when the name says so, else ``"own"`` (the ball played)."""
    key = _plain_key(name)
    if key not in OFF_TABLE_FOULS and not any(part in key for part in _OFF_TABLE_PARTS):
        return None
    return "opponent" if any(part in key for part in _OPPONENT_PARTS) else "own"


def _ball(ball: Any, what: str, nullable: bool = False) -> Any:
    if ball is None and nullable:
        return None
    if ball not in SIDES:
        raise IllegalCall(f"{what}: ball must be p1 or p2 (a golf ball is named by its owner), not {ball!r}")
    return ball


def _check_in_play(pre: GolfState, shot: Shot, ball: str, what: str) -> None:
    """A ball can go down or off only if its owner still has one in play."""
    down = sum(1 for _, _, b in shot.goals if b == ball) + sum(1 for _, b, _ in shot.offs if b == ball)
    have = pre.balls_left[IDX[ball]]
    if down >= have:
        extra = f", {down} already down or off in this shot" if down else ""
        raise IllegalCall(f"{what} for {ball}, but {ball} has no balls left in play "
                          f"(frame {pre.frame}: {have} left{extra})")


def _member(state: GolfState, side: str, member: Any) -> int:
    names = dict(state.players)[side]
    if member is None:
        return state.members[IDX[side]]
    if isinstance(member, int) and not isinstance(member, bool) and member in (0, 1):
        return member
    if isinstance(member, str) and member in names:
        return list(names).index(member)
    raise IllegalCall(f"'start' call: member must be 0, 1 or a name of {side} ({', '.join(names)}), "
                      f"not {member!r}")


def _name(state: GolfState, side: str) -> str:
    names = dict(state.players).get(side, side)
    if state.duo:
        return str(names[state.members[IDX[side]]])
    return str(names)
