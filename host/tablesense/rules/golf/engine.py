"""The golf billiards engine: five balls each, goals at both ends, best of three frames.

The rules and their ids are in seeds/golf.md; docs/golf.md explains them to players.
The engine is a ``ShotEngine`` (``rules.shot_engine``): the base cuts the events into
shots and keeps the one being played or amended; this module says what a shot means
(``golf.resolve.resolve`` from the state before it and its ``ShotRecord``) and what each
referee call does. A ``goal`` the cut places after the shot's ``rest`` (a late settle: a
ball dropping off the goal edge within the settle window) amends that shot as a drop
after resting (``golf.goal.edge``).

At the input edge, before the base takes an event: a sensor event that cannot be (a ball
that is not p1's or p2's, a goal of a player with no ball left in play, a pin) is
refused, and a ``rest`` that only reports where the balls lie (nothing moved, or the
first report of a frame) is no shot: it records the positions.

Events and calls (docs/events.md), names in canonical form (``rules.golf.names``):
- ``goal`` / ``off_table`` with a known ball decide alone; with ``ball: null`` the
  engine asks the referee whose ball it was. ``strike`` (the ball the cue hit) and
  ``contact`` (first contact) decide "played with an opponent's ball" and "played onto
  one's own ball"; ``rest.positions`` decide zones and triangles.
- ``start`` (player, optionally ``member``: 0/1 or a name): who opens a frame, before
  its first shot.
- ``foul`` (a foul of seeds/golf.md), ``time`` (the turn clock ran out), ``spot`` (ball,
  spot 1..5: where a penalised ball goes), ``off_table`` (ball: it stayed on a cushion, a
  goal peg or the goal cap), ``rail`` (ball: back on the bed off the rail), ``edge``
  (ball: it dropped after resting on the goal edge), ``wedged`` (ball, ``where``:
  attacking | defending | cushion). A foul's name as the call itself is that foul.
- ``foul`` ``touch-no-shot`` (``golf.foul.touch.no-shot``): a touch between shots; it
  always stands alone against the player at the table.

A call about the last shot amends it (the base resolves it again); a call with no shot
to amend (TIME between shots, a touch between shots) stands alone: a unit of its own, an
empty ``ShotRecord`` holding the call, that later calls amend in the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any

import msgspec

from ...errors import IllegalCall
from ...events import Call, Contact, Cushion, Event, Goal, OffTable, Pin, Pocket, Rest, Setup, Strike
from ...shots import Cutter
from ...texts import phrase
from ...vocabulary import Vocabulary, for_game
from ..base import Question, Ruling, other, register
from ..first_states import FirstStates
from ..shot_engine import AMEND, Redo, Run, ShotEngine, ShotRecord, canonical, frozen, shot_cut
from . import amend, checks, played, single
from .counted import counted_shot
from .evidence import OFF_TABLE_FOULS, OFF_TABLE_OPPONENT, Evidence
from .fouls import BY_ID, DUO_ONLY, NO_SHOT, known_fouls
from .geometry import ATTACKS
from .positions import spot_refused
from .resolve import TIME_GRACE, TURN_LIMIT, general, live, missed, plain, resolve, staged, start_of
from .state import IDX, SIDES, GolfState, norm_positions, pair_set

replace = msgspec.structs.replace
CALLS = ("start", "foul", "time", "spot", "off_table", "rail", "edge", "wedged", "answer", "undo")
WEDGED = ("attacking", "defending", "cushion")
#: golf's vocabulary (``ShotEngine.vocabulary``: ``for_game`` keeps one a game, immutable, whatever the
#: state), kept at the first referee's call: ``_called`` reads it without two frames a call
_VOCABULARY: list[Vocabulary] = []


def _vocabulary_of(engine: GolfEngine, state: GolfState) -> Vocabulary:
    """``engine.vocabulary(state)``, kept in ``_VOCABULARY`` for every call after."""
    found = engine.vocabulary(state)
    _VOCABULARY.append(found)
    return found


@register
class GolfEngine(ShotEngine[GolfState]):
    game = "golf"

    # --- set-up -----------------------------------------------------------------
    def new_state(self, setup: Setup) -> GolfState:
        p1, p2 = setup.players["p1"], setup.players["p2"]
        if not setup.format and type(p1) is str and type(p2) is str:  # one against one, the common set-up
            key = (p1, p2)
            found = _FRESH.get(key)
            if found is None:  # a log of many matches of the same players: one state to start each from
                found = _FRESH.keep(key, GolfState(players=(("p1", p1), ("p2", p2))))
            return found
        if type(p1) is list and type(p2) is list:  # two names a side, the duo's common set-up
            found = _duo_first(p1, p2)
            if found is not None:
                return found
        # "duo" (and its plain synonyms) or two names a side; any other word is one against one
        duo = (bool(setup.format) and for_game("golf").lookup("formats", str(setup.format)) == "duo") \
            or isinstance(p1, list) or isinstance(p2, list)
        if not duo:
            return GolfState(players=(("p1", p1), ("p2", p2)))
        if not (isinstance(p1, list) and len(p1) == 2 and isinstance(p2, list) and len(p2) == 2):
            raise IllegalCall("a duo match needs two names per side: "
                              '"players": {"p1": ["Ann", "Cor"], "p2": ["Bob", "Dirk"]}')
        return GolfState(players=(("p1", tuple(p1)), ("p2", tuple(p2))), duo=True)

    # --- the input edge -----------------------------------------------------------
    def apply(self, state: GolfState, event: Event) -> GolfState:  # type: ignore[override]
        """The base's ``apply``, after the checks of a sensor event and the lay-out rest; a referee's
        call (nothing held) as the base's ``_call`` takes it, called from here (``_called``)."""
        kind = type(event)
        if kind is Call and not state.held:
            return self._called(state, event)  # type: ignore[arg-type]
        check = _CHECKS.get(kind)
        if check is not None:
            done = check(state, event)
            if done is not None:
                return done
        return ShotEngine.apply(self, state, event)

    def _called(self, state: GolfState, call: Call) -> GolfState:
        """The base's ``apply`` of ``call`` (``ShotEngine._call``: its names canonical, an ``undo`` (inline
        here) or an ``answer`` (``_answered``: in one copy) as the base takes them, any other ``call``,
        the shot amended on ``AMEND``, ``checkpoint`` set to ``state``) without the base's two frames,
        and without its copy of the state where the call's own step set ``checkpoint`` to ``state``
        already (a foul or a spot amending the shot at once, ``amend``; a call that stands alone):
        the same state."""
        # the input edge: canonical ids only (golf's vocabulary, the same for every state, kept)
        ev = canonical(_VOCABULARY[0] if _VOCABULARY else _vocabulary_of(self, state), call)
        name = ev.call
        if name == "foul":  # the common call: a foul after the rest of a plain shot, at once
            done = _foul_at_once(state, ev)
            if done is not None:
                return done
        elif name == "answer":
            return self._answered(state, ev)
        if name == "undo":  # (the base's ``_call`` of it, inline)
            back = state.checkpoint
            if back is None:
                raise IllegalCall("nothing to undo")
            if type(back) is Redo:
                return self.redo(back)  # type: ignore[no-any-return]
            return back  # type: ignore[no-any-return]
        new = self.call(state, ev)
        if new is AMEND:
            new = self._amended(state, ev, state)
        if new is state or new.checkpoint is state:
            return new  # type: ignore[no-any-return]
        return replace(new, checkpoint=state)

    def _answered(self, state: GolfState, ev: Call) -> GolfState:
        """The base's ``_answer`` of ``ev`` (canonical) and ``on_answer``'s ``amend`` in the one copy
        ``resolve.staged`` makes, ``checkpoint`` set to ``state`` in it (the base closes the question in
        a copy, amends the shot from that, whose fields ``amend`` reads are ``state``'s, and copies the
        state after it again for the undo point): the same state, or the same refusal."""
        q, answer = self.asked(state, ev)
        if not state.in_shot and state.shot is not None and state.before is not None:  # (``on_answer``)
            call = ev if ev.answer == answer else replace(ev, answer=answer)
            # a shot of one ball no sensor named, the ball named: the one-event step (``single.answered``)
            return single.answered(state, q, call) or self._amended(state, call, state)
        raise IllegalCall(f"question {q.id} was about a shot that is over; its default stands")

    def admit(self, state: GolfState, gathered: Sequence[Event], event: Event) -> Event:
        """``apply``'s checks of a sensor event in a shot in progress, the shot being its events
        so far and ``gathered`` (``ShotEngine.gather``)."""
        kind = type(event)
        if kind is Goal or kind is OffTable:
            _check_down(state, event, gathered)  # type: ignore[arg-type]
        else:
            check = _CHECKS.get(kind)
            if check is not None:
                check(state, event)
        return event

    #: ``ShotEngine.whole``: a shot of one event, the common one, in one step where it can be, else
    #: ``steps`` (``single.whole``: the function is the method, one frame a shot)
    whole = single.whole  # type: ignore[assignment]
    #: ``ShotEngine.whole_played``: a shot of several cushions alone in one copy (``played.whole_played``)
    whole_played = played.whole_played  # type: ignore[assignment]

    def steps(self, state: GolfState, events: Sequence[Event], rest: Rest) -> GolfState | None:
        """``whole``'s general steps: ``apply``'s checks of each event (the balls' names; a goal or a
        ball off the table of a player with none left in play raises; a pin or a pocket is
        refused: None, and ``apply`` says why), the cut, and the shot resolved with the shot
        stage's fields put in the same copy (``resolve.staged``). The rest ends a
        shot in progress: never the lay-out (``_layout``)."""
        if state.in_shot or state.held or state.ended is not None:
            return None
        first = events[0]
        kind = type(first)
        if kind is Goal or kind is OffTable or kind is Strike:  # ``_named``, inline
            if first.ball is not None and first.ball not in SIDES:  # type: ignore[attr-defined]
                return None
        elif kind is not Cushion and not _named(first):
            return None
        cut = shot_cut(state.cut, first, rest)  # type: ignore[assignment]  (the cutter after the rest)
        if cut is None:
            return None
        before = state
        if state.shot is not None and (state.questions or state.spot_wait):  # ``close``, inline
            before = replace(state, questions=(), spot_wait=())
        several = len(events) > 1
        if kind is Cushion and (not several or _CUSHION.issuperset(map(type, events))):
            # cushions alone: nothing to admit, no goal (``plain`` finds none), on a table that has
            # reported no strike (else ``_before_shot`` first): the turn passes (``resolve.missed``)
            shot = ShotRecord(before.at_table, tuple(events) if several else (first,), rest)
            if not (rest.positions or cut.strikes or cut.strike_sensor):
                return missed(before, before.at_table or "p1", rest.t, before, shot, cut, False, state, None)
        else:
            if several:
                cut = _admitted(before, events, cut)  # type: ignore[assignment]
                if cut is None:
                    return None
            shot = ShotRecord(before.at_table, tuple(events) if several else (first,), rest)
        if several and (cut.strikes or cut.strike_sensor):  # (one event: nothing came before it)
            before, shot = self._before_shot(before, shot, True)
        # the shot resolved with the shot stage's fields put in the same copy: in one pass where it
        # can be (``resolve.plain``, ``counted.counted_shot``; ``before`` has no question open:
        # closed above), else the general way (``resolve.general``: ``staged`` without those tries)
        return plain(before, shot, before, shot, cut, False, state) \
            or counted_shot(before, shot, before, shot, cut, False, state) \
            or general(before, shot, before, shot, cut, False, state)

    first_whole_played = True  # a match's first shot at once (``ShotEngine._first_whole_played``)

    # --- the shot stage -----------------------------------------------------------
    #: the state after a shot (``resolve.resolve``), called without a method's frame
    resolve = staticmethod(resolve)  # type: ignore[assignment]

    def incident(self, state: GolfState, event: Event) -> GolfState:
        """Between shots on a table that reports strikes (no strike before it): a ball that drops
        into a goal dropped after resting (``golf.goal.edge``: it does not count, it is put back),
        a late settle of the last shot however late it comes; a ``rest`` says where the balls lie."""
        if isinstance(event, Goal):
            shot, before = state.shot, state.before
            if shot is not None and before is not None and shot.rest is not None:
                return self._resolved(before, replace(shot, late=(*shot.late, event)), state)
            return self.rule(state, event.t, "golf.goal.edge", event.ball, what="late", goal=event.goal)
        if isinstance(event, Rest):
            positions = norm_positions(event.positions)
            if positions is None or positions == state.positions:
                return state
            return replace(state, positions=positions)
        return ShotEngine.incident(self, state, event)

    def close(self, state: GolfState) -> GolfState:
        """The next shot opens: a question still open takes its default (whose ball: not
        counted), a ball still waiting for its replacement spot is back on the table."""
        if state.questions or state.spot_wait:
            return replace(state, questions=(), spot_wait=())
        return state

    def asks_live(self, event: Event) -> bool:
        """A shot's live view asks nothing (``resolve.live``: the balls that went in counted;
        whose ball it was is asked at the rest)."""
        return False

    def live(self, state: GolfState) -> GolfState:
        if state.held:
            state = self.release(state)
        if state.in_shot and state.shot is not None and state.before is not None:
            return replace(live(state.before, state.shot), in_shot=True)
        return state

    # --- referee calls ------------------------------------------------------------
    def call(self, state: GolfState, call: Call) -> Any:
        ev = call
        name = ev.call
        if name not in CALLS:
            if name == "carom":
                raise IllegalCall("golf billiards has no caroms; a 'carom' call fits no golf state")
            foul_id = self.vocabulary(state).lookup("fouls", name)
            if foul_id is None:
                raise IllegalCall(f"unknown golf call {ev.call!r} (golf calls: {', '.join(CALLS)})")
            ev, name = _call_with(ev, call="foul", foul=foul_id), "foul"  # {"call": "push"}
        if name == "start":
            return self._start(state, ev)
        if name == "spot":
            return self._spot(state, ev)
        if name == "foul" and ev.foul in OFF_TABLE_FOULS:
            # a ball off the table called as a foul: the off-table rules; without a ball, the
            # ball played (the shooter's), or the opponent's when the name says so
            last = state.shot if state.shot is not None and (state.in_shot or state.frame_units) else None
            shooter = last.player if last is not None else state.at_table
            if ev.foul == OFF_TABLE_OPPONENT and shooter is not None:
                shooter = other(shooter)
            return self._off_table(state, _with_ball(ev, _ball(ev.ball or shooter, ev.call)), call)
        if name in ("foul", "time"):
            return self._foul(state, ev, call)
        ball = _ball(ev.ball or ev.player, ev.call)
        ev = _with_ball(ev, ball)
        if name == "off_table":
            return self._off_table(state, ev, call)
        if name == "wedged":
            where = str(ev.extra.get("where", "")).lower()
            if where not in WEDGED:
                raise IllegalCall(f"a 'wedged' call needs 'where': one of {', '.join(WEDGED)}")
            if where != ev.extra.get("where"):
                ev = _call_with(ev, extra={**ev.extra, "where": where})
            return self._amend(state, ev, call)
        shot = state.shot
        if shot is None:
            raise IllegalCall(f"'{ev.call}' call: no shot has been played yet")
        evidence = Evidence(shot)
        if name == "rail":
            if not any(b == ball for _, b, _ in evidence.offs):
                raise IllegalCall(f"'rail' call: no ball of {ball} left the table in the last shot")
            return self._amend(state, ev, call)
        if name == "edge":
            late = any(b in (ball, None) for _, _, b in evidence.late)  # placed after the rest by the cut
            if not late and not any(b in (ball, None) for _, _, b in evidence.goals):
                raise IllegalCall(f"'edge' call: no ball of {ball} dropped into a goal in the last shot")
            return self._amend(state, ev, call)
        raise IllegalCall(f"unknown golf call {ev.call!r} (golf calls: {', '.join(CALLS)})")

    def _foul(self, state: GolfState, ev: Call, as_called: Call) -> Any:
        if ev.call == "foul":
            if not ev.foul:
                raise IllegalCall("a 'foul' call needs 'foul' (a foul of seeds/golf.md, e.g. \"touch\")")
            if ev.foul not in BY_ID:
                raise IllegalCall(f"unknown golf foul {ev.foul!r} (known: {known_fouls()})")
            foul_id = ev.foul
        else:
            foul_id = "golf.clock"
        if foul_id in DUO_ONLY and not state.duo:
            raise IllegalCall(f"foul {foul_id} applies to duo matches only")
        if foul_id == NO_SHOT:
            # a touch between shots never amends the shot before (seed: "Touching a ball
            # without playing a shot costs the turn as well, and all moved balls are put back")
            if state.in_shot:
                raise IllegalCall("a touch between shots, but a shot is being played: call 'touch'")
            return self._standalone(state, ev)
        if foul_id == "golf.clock" and not state.in_shot:
            return self._standalone(state, ev)
        return self._amend(state, ev, as_called)

    def _off_table(self, state: GolfState, ev: Call, as_called: Call) -> Any:
        if state.in_shot and state.shot is not None and state.before is not None:
            _check_in_play(state.before, state.shot, str(ev.ball), "off_table call")
        return self._amend(state, ev, as_called)

    def _amend(self, state: GolfState, ev: Call, as_called: Call) -> Any:
        """A call during a shot joins its evidence; after ``rest`` it amends the unit just
        ended; with no unit to amend (or one of the other player) it stands alone against
        the player at the table."""
        last = state.shot
        if state.in_shot or (last is not None and state.before is not None
                             and (ev.player is None or ev.player == last.player)):
            if ev.call == "foul" and not state.in_shot:  # after the rest: a plain shot's foul at once
                done = amend.called_foul(state, ev)
                if done is not None:
                    return done
            return AMEND if ev is as_called else self._amended(state, ev, state)
        return self._standalone(state, ev)

    def _standalone(self, state: GolfState, ev: Call) -> GolfState:
        if state.finished:
            raise IllegalCall(f"the match is over ({self.result_text(state)}); '{ev.call}' fits no shot")
        if ev.player is not None and ev.player != state.at_table:
            raise IllegalCall(f"'{ev.call}' call for {ev.player}, but {state.at_table} is at the table and "
                              f"{ev.player} played no shot just now")
        before = replace(state, questions=()) if state.questions else state
        unit = ShotRecord(player=state.at_table or "p1", calls=(ev,))
        return amend.stood_alone(before, unit) or replace(resolve(before, unit), before=before, shot=unit)

    def _start(self, state: GolfState, ev: Call) -> GolfState:
        """Who opens the frame (and, in a duo, which member), its ruling, in one copy of the state with
        ``checkpoint`` set to ``state`` (``_called`` then makes no copy more: the state the base's
        ``rule`` after two copies, and ``_call``'s checkpoint, gave)."""
        player = ev.player
        if player not in SIDES:
            raise IllegalCall("a 'start' call needs 'player': p1 or p2")
        if state.frame_units or state.in_shot or state.finished:
            raise IllegalCall(f"'start' comes before the first shot of a frame; "
                              f"frame {state.frame} is under way")
        members = state.members
        frame = state.frame
        if state.duo:
            members = pair_set(members, player, _member(state, player, ev.extra.get("member")))
            data: tuple[tuple[str, Any], ...] = (("frame", frame), ("member", members[IDX[player]]))
        else:
            data = (("frame", frame),)
        rule = "golf.duo.deciding" if checks.deciding_start(state.duo, frame) else "golf.frame.opening"
        t = ev.t
        rulings = state.rulings + (Ruling(t=t, rule=rule, player=player, data=data),)
        if frame == 1:
            return replace(state, at_table=player, rulings=rulings, checkpoint=state, first_opener=player,
                           first_members=members, members=members, clock=(player, t))
        return replace(state, at_table=player, rulings=rulings, checkpoint=state, members=members,
                       clock=(player, t))

    def _spot(self, state: GolfState, ev: Call) -> Any:
        """The opponent names the replacement spot of a penalised ball (the first of that
        ball's owner still waiting)."""
        ball = _ball(ev.ball or ev.player, "spot")
        waiting = () if state.in_shot else state.spot_wait
        if ev.ball is None and not any(b == ball for _, b, _ in waiting):
            ball = other(ball)  # "player": the opponent who chooses the spot
        spot = ev.spot
        if isinstance(spot, bool) or not isinstance(spot, int) or not 1 <= spot <= 5:
            raise IllegalCall(f"'spot' call: spot must be 1..5, not {spot!r}")
        for item in waiting:
            if item[1] == ball:
                break
        else:
            raise IllegalCall(f"'spot' call: no ball of {ball} is waiting for a replacement spot")
        why = spot_refused(ball, state.positions, spot)
        if why is not None:
            raise IllegalCall(why)
        shot, before = state.shot, state.before
        if shot is not None and before is not None and item not in start_of(before, shot).spot_wait:
            ev = _with_ball(ev, ball)  # the spot of a ball the last shot's foul put there: amend it
            return amend.called_spot(state, ev) or amend.spot_counted(state, ev, item) \
                or self._amended(state, ev, state)
        new = replace(state, placed=pair_set(state.placed, ball, spot),
                      placements=(*state.placements, (ball, spot)),
                      spot_wait=tuple(x for x in state.spot_wait if x is not item))
        if spot in (4, 5):
            return self.rule(new, ev.t, "golf.spot.fallback", other(ball), what="named", ball=ball, spot=spot)
        return self.rule(new, ev.t, "golf.spot.choice", other(ball), ball=ball, spot=spot)

    def amend(self, state: GolfState, call: Call) -> GolfState:
        """``ShotEngine.amend``: ``state`` with the last shot resolved again with ``call`` about it
        (``_amended``: in one copy)."""
        return self._amended(state, call, state.checkpoint)

    def _amended(self, state: GolfState, call: Call, checkpoint: Any) -> GolfState:
        """``ShotEngine.amend`` of ``call`` with ``checkpoint`` as the undo point, the shot stage's
        fields put in the one copy ``resolve.staged`` makes (the base's ``_resolved`` copies the state
        ``resolve`` gives, and the call's ``apply`` copies it again for the undo point)."""
        shot, before = state.shot, state.before
        if shot is None or before is None:
            raise IllegalCall(f"no shot yet for the call {call.call!r}")
        shot = replace(shot, calls=(*shot.calls, call))
        if type(shot.events) is Run:  # a shot in progress (a call about it): a tuple to resolve
            shot = frozen(shot)
        if shot.rest is None and shot.events:  # (``resolve``) the live view of a shot in progress
            return replace(live(before, shot), before=before, shot=shot, cut=state.cut, in_shot=state.in_shot,
                           checkpoint=checkpoint)
        return staged(before, shot, before, shot, state.cut, state.in_shot, checkpoint)

    def on_answer(self, state: GolfState, question: Question, answer: Any, event: Call) -> GolfState:
        if not state.in_shot and state.shot is not None and state.before is not None:
            return self.amend(state, _call_with(event, answer=answer))
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
            "shot_in_progress": state.in_shot,
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

    def summary(self, state: GolfState, lang: str = "en") -> str:
        state = self.live(state)
        (left1, left2), (won1, won2) = state.balls_left, state.frames_won
        parts = [phrase("summary.golf", {"frame": state.frame, "left1": left1, "left2": left2,
                                         "won1": won1, "won2": won2}, lang)]
        if state.zone_play and not state.finished:  # zone play lasts to the end of the frame
            parts.append(phrase("summary.golf:zone-play", {}, lang))
        if not state.finished and state.at_table:
            parts.append(phrase("summary.golf:at-table",
                                {"name": _name(state, state.at_table), "side": state.at_table}, lang))
        if state.questions:
            parts.append(phrase("summary.golf:waiting", {"ids": ", ".join(q.id for q in state.questions)},
                                lang))
        if state.spot_wait:
            parts.append(phrase("summary.golf:spot", {"balls": ", ".join(b for _, b, _ in state.spot_wait)},
                                lang))
        return "; ".join(parts)


#: the first states of new one-against-one matches by their players (frozen: shared; their empty
#: ruling log links to nothing, ``RulingLog``)
_FRESH: FirstStates[tuple[str, str], GolfState] = FirstStates()
#: the first states of new duo matches of two names a side, by the four names (p1's, then p2's)
_FRESH_DUO: FirstStates[tuple[str, str, str, str], GolfState] = FirstStates()


def _duo_first(p1: list[Any], p2: list[Any]) -> GolfState | None:
    """``GolfEngine.new_state``'s state for a set-up of two names a side (whatever its format says: a
    side given as a list is a duo, and two names each are what it needs), kept in ``_FRESH_DUO`` for
    every such match of the same four names after it; None where a side is not two strings (the
    general way then says what it is)."""
    if len(p1) != 2 or len(p2) != 2:
        return None
    a, b = p1
    c, d = p2
    if type(a) is not str or type(b) is not str or type(c) is not str or type(d) is not str:
        return None
    names = (a, b, c, d)
    found = _FRESH_DUO.get(names)
    if found is None:
        found = _FRESH_DUO.keep(names, GolfState(players=(("p1", (a, b)), ("p2", (c, d))), duo=True))
    return found


#: the fouls ``_foul_at_once`` takes: ``call`` sends each to ``_foul`` and on to ``_amend`` (no ball off
#: the table, no duo's own foul, no touch between shots, not the clock's)
_AT_ONCE = frozenset(BY_ID) - OFF_TABLE_FOULS - DUO_ONLY - {NO_SHOT, "golf.clock"}


def _foul_at_once(state: GolfState, ev: Call) -> GolfState | None:
    """``GolfEngine.call`` of ``ev`` (a canonical ``foul``) where it is a foul of ``_AT_ONCE`` about the
    last shot (no other player's) and ``amend.called_foul`` takes it (after the rest: that checks):
    its state, made without the four frames between (``call``, ``_foul``, ``_amend``, ``called_foul``;
    ``checkpoint`` is ``state``); None for any other (the general way then)."""
    if ev.foul not in _AT_ONCE:
        return None
    player = ev.player
    if player is not None and (shot := state.shot) is not None and player != shot.player:
        return None
    return amend.called_foul(state, ev)


# --- the input edge: checks of sensor events, the lay-out rest -----------------------

def _no_pins(state: GolfState, event: Event) -> None:
    if state.finished:
        return  # the base refuses it: the match is over
    raise IllegalCall(f"{event.type} event: a golf billiards table has no {event.type}s")


def _check_goal(state: GolfState, event: Goal) -> None:
    _check_down(state, event)


def _check_off(state: GolfState, event: OffTable) -> None:
    _check_down(state, event)


def _check_down(state: GolfState, event: Goal | OffTable, gathered: Sequence[Event] = ()) -> None:
    """A goal or a ball off the table names a ball its owner still has in play in this shot
    (its events so far and ``gathered``, those not yet in ``state``: ``ShotEngine.gather``)."""
    goal = type(event) is Goal
    ball = _ball(event.ball, "goal" if goal else "off_table", nullable=True)
    if ball is not None and state.in_shot and state.shot is not None and state.before is not None:
        what = f"goal {event.goal}" if goal else "off_table event"  # type: ignore[union-attr]
        _check_in_play(state.before, state.shot, ball, what, gathered)


def _check_strike(state: GolfState, event: Strike) -> None:
    _ball(event.ball, "strike", nullable=True)


def _check_contact(state: GolfState, event: Contact) -> None:
    for b in event.balls:
        _ball(b, "contact")


def _admitted(before: GolfState, events: Sequence[Event], cut: Cutter) -> Cutter | None:
    """``admit`` of each event of a shot after its first (``GolfEngine.whole``; ``before``: the
    state before the shot): the cutter after them, None where one is refused as none; a goal
    or a ball off the table of a player with none left in play raises, as ``apply`` does."""
    # each ball's goals and balls off the table so far in the shot (``_check_in_play``'s count, kept
    # as the events go: it raises only where the count reaches the balls its owner has in play)
    first = events[0]
    down = [0, 0]
    if type(first) is Goal or type(first) is OffTable:
        ball = first.ball  # type: ignore[attr-defined]
        if ball is not None:
            down[IDX[ball]] = 1
    for i in range(1, len(events)):
        event = events[i]
        kind = type(event)
        if kind is Cushion:  # (``_named``'s answers inline: a cushion, the common event, first)
            continue
        if kind is Goal or kind is OffTable:
            ball = event.ball  # type: ignore[attr-defined]
            if ball is None:
                continue
            if ball not in SIDES:
                return None
            side = IDX[ball]
            if down[side] >= before.balls_left[side]:  # none left in play: ``_check_in_play`` says so
                what = f"goal {event.goal}" if kind is Goal else "off_table event"  # type: ignore[attr-defined]
                _check_in_play(before, ShotRecord(player=before.at_table, events=(first,)), ball, what,
                               events[1:i])
            down[side] += 1
        elif kind is Strike:
            ball = event.ball  # type: ignore[attr-defined]
            if ball is not None and ball not in SIDES:
                return None
            if not cut.strikes:  # the first strike: the table has a sensor
                cut = replace(cut, strikes=True)
        elif kind is not Contact or not _named(event):  # a pin, a pocket: none of golf's
            return None
    return cut


def _named(event: Event) -> bool:
    """A table event of a shot whose balls are golf balls (``_check_strike``, ``_check_contact``
    and ``_check_down``'s names): False for any other, a pin or a pocket too."""
    kind = type(event)
    if kind is Goal or kind is OffTable or kind is Strike:
        ball = event.ball  # type: ignore[attr-defined]
        return ball is None or ball in SIDES
    if kind is Contact:
        return all(b in SIDES for b in event.balls)  # type: ignore[attr-defined]
    return kind is Cushion


def _layout(state: GolfState, event: Rest) -> GolfState | None:
    """A ``rest`` between shots that reports the lay-out of the balls (nothing moved, or
    the first report of a frame): no shot, and for the cut nothing that a drop could
    settle. Every other ``rest`` goes to the base (one with nothing open is a shot that
    no sensor saw: a miss on a table without cushion sensors)."""
    if not event.positions or state.in_shot or state.cut.settle_open or state.finished or state.held:
        return None
    positions = norm_positions(event.positions)
    if positions is None or not (positions == state.positions
                                 or (state.positions is None and not state.frame_units)):
        return None
    return replace(state, positions=positions, turn_positions=state.turn_positions or positions,
                   checkpoint=state)


#: a shot of cushions alone has nothing for ``_admitted`` to check (``GolfEngine.whole``)
_CUSHION = frozenset({Cushion})
_CHECKS: dict[type, Any] = {Goal: _check_goal, OffTable: _check_off, Strike: _check_strike,
                            Contact: _check_contact, Pin: _no_pins, Pocket: _no_pins, Rest: _layout}


# --- helpers ----------------------------------------------------------------------

def _call_with(event: Call, **changes: Any) -> Call:
    """``call`` as the engine understood it (a default filled in); the same call if nothing changes."""
    if all(getattr(event, k) == v for k, v in changes.items()):
        return event
    return msgspec.structs.replace(event, **changes)


def _with_ball(event: Call, ball: Any) -> Call:
    """``_call_with(event, ball=ball)`` without its keywords and generator: the same call if its
    ball is ``ball`` already."""
    return event if event.ball == ball else replace(event, ball=ball)


def _ball(ball: Any, what: str, nullable: bool = False) -> Any:
    if ball is None and nullable:
        return None
    if ball not in SIDES:
        raise IllegalCall(f"{what}: ball must be p1 or p2 (a golf ball is named by its owner), not {ball!r}")
    return ball


def _check_in_play(before: GolfState, shot: ShotRecord, ball: str, what: str,
                   gathered: Sequence[Event] = ()) -> None:
    """A ball can go down or off only if its owner still has one in play (the shot's events:
    its own and ``gathered``)."""
    have = before.balls_left[IDX[ball]]
    if have > len(shot.events) + len(gathered) + len(shot.calls):
        return  # fewer events and calls so far than balls in play: none can be out yet
    down = sum(1 for e in chain(shot.events, gathered)
               if type(e) in (Goal, OffTable) and e.ball == ball)  # type: ignore[attr-defined]
    down += sum(1 for c in shot.calls
                if c.ball == ball and (c.call == "off_table" or c.foul in OFF_TABLE_FOULS))
    if down >= have:
        extra = f", {down} already down or off in this shot" if down else ""
        raise IllegalCall(f"{what} for {ball}, but {ball} has no balls left in play "
                          f"(frame {before.frame}: {have} left{extra})")


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
