"""Keglebillard (Danish five-pin billiards) on the shared rule-engine interface.

The rules and their ids are in seeds/kegle.md. In short: the player always plays the
red; each pin a white topples scores 2 (``"kegle.pin"``), the red hitting both whites
4 (``"kegle.carambole"``); the series goes on while the player scores
(``"kegle.series"``); a fault ends it and the faulty shot scores nothing; the match
goes to an agreed ``distance`` with the same number of series for both players.

How a shot is refereed: the state keeps the state before the current (or last) shot
(``before``), the shot's sensor events (``shot``) and the referee's calls about it
(``calls``, ``answers``). At ``rest`` the shot is resolved as a pure function of those
(``_settle``); a call that arrives after the rest (a late ``carom`` or ``foul``, an
answer) re-resolves it from ``before``. The next shot closes the last one for good:
a fault must be noticed before the next shot (``"kegle.fault.noticed"``, seed 6.1),
and questions left open then are dropped with their default answer standing.

Where a shot begins and ends is the shot cut's (``tablesense.shots.Cutter``, kept in the
state as ``cut``): ``OPEN`` and ``PLAY`` events gather in ``shot``, ``REST`` resolves it,
``EMPTY`` is a shot that touched nothing. What settles after the rest (``SETTLE``) is
kept in ``late`` and the shot resolved again from ``before``: a late pin scores for it
(seed 7.8), a ball dropping is put back without a fault (10.2, ``"kegle.ball-falls"``).
An ``INCIDENT`` is no shot: pins set up, and a pin knocked over while they are set up
(7.7, 6.4; ``hands``), once the log has shown a rest after a set-up (``setup_rests``).

Two shots have no sensor events: a ``rest`` right after the last one (or the setup),
a shot that touched nothing; and a ``foul`` called between shots on the player at the
table (or before the first shot), his faulty turn (seed 7.7: touching a ball is a shot).
Both are resolved like any shot, by ``_settle``.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import msgspec

from ..errors import BadEvent, IllegalCall
from ..events import Call, Contact, Cushion, Event, OffTable, Pin, Pocket, Rest, Setup, Strike
from ..shots import Cutter, Role
from .base import Engine, Question, other, register
from .kegle_faults import RED_IN_HOLE, find_fault
from .kegle_shot import read_shot, toppler
from .kegle_state import DEFAULT_DISTANCE, KegleState, Score, evolve, evolve_score, with_shot
from .kegle_verdict import (
    IDX,
    Verdict,
    blocked_by_balls,
    end_series,
    find_faults,
    pair,
    score_shot,
    white_spot,
)

BALLS = ("red", "white")
#: what a pin event may name as its toppler (``pin``: another pin; seed 8.1)
_TOPPLERS = (None, "red", "white", "pin", "cue")


class _BallOptions(tuple[str, ...]):
    """The options of "which ball fell in pocket N?": ``white`` (the default, not a fault), ``red``.

    Also accepted, though not listed: any case (``"Red"``), and ``true`` / ``false`` for
    "was it the red?" (a referee's yes/no button, an answer written without the question).
    """

    __slots__ = ()

    def __contains__(self, value: object) -> bool:
        if isinstance(value, bool):
            return True
        return isinstance(value, str) and tuple.__contains__(self, value.lower())


_POCKET_OPTIONS = _BallOptions(("white", "red"))
_POCKET_BOOL = {True: "red", False: "white"}
_SCORE_FIELDS = tuple(f.name for f in fields(Score))

__all__ = ["KegleEngine", "KegleState", "Score"]


def _pairs(values: tuple[Any, Any]) -> dict[str, Any]:
    return {"p1": values[0], "p2": values[1]}


def _opened(score: Score, player: str) -> Score:
    """The score as a shot of ``player`` starts: a new series counted, the last notices cleared."""
    if score.shots == 0:
        series = pair(score.series, player, score.series[IDX[player]] + 1)
        return evolve_score(score, series=series, run=0, break_due=False, announcements=(),
                            outlay=None, red_in_hand=None)
    return evolve_score(score, break_due=False, announcements=(), outlay=None, red_in_hand=None)


def _open_shot(state: KegleState, shot: tuple[Event, ...], player: str | None = None,
               cut: Cutter | None = None) -> KegleState:
    """``state`` as a shot of ``player`` (the player at the table) starts with the events ``shot``."""
    p = player or state.at_table or "p1"
    return evolve(state, before=state, shooting=True, amendable=False, shot=shot, calls=(), answers=(),
                  rest=None, ups=frozenset(), post=(), questions=(), score=_opened(state.score, p),
                  late=(), hands=frozenset(), cut=state.cut if cut is None else cut,
                  checkpoint=state, in_shot=True)


def _by_hand(state: KegleState, pin: Pin) -> KegleState:
    """A pin knocked over while the pin referee sets pins up (seed 7.7: no ball touched, no shot;
    6.4: what an outsider or the referee does is not held against the player). The cutter is not
    advanced: the table is still in the referee's hands. The pin is down until he puts it back up
    (seed 7.9: a shot before that is ``kegle.fault.pins-not-up``)."""
    sc = state.score
    if pin.state != "down":
        return state
    s = KegleEngine.rule(state, pin.t, "kegle.shot", None,
                         f"pin {pin.pin} knocked over between shots, no ball touched: no shot; "
                         "it is put back up",
                         pin=pin.pin)
    return evolve(s, hands=state.hands | {pin.pin}, ups=state.ups - {pin.pin},
                  score=evolve_score(sc, pins_down=sc.pins_down | {pin.pin}))


def _falls_text(pocket: Pocket) -> str:
    ball = pocket.ball or "a ball"
    return f"{ball} fell in pocket {pocket.pocket} after lying still: it is put back, no fault"


@register
class KegleEngine(Engine[KegleState]):
    """Danish keglebillard (DDBU rules): pins, carambole, series, distance."""

    game = "kegle"
    #: a fault, a carambole or a replay may still amend the shot that ended the match
    _META_CALLS = frozenset({"undo", "answer", "foul", "carom", "replay"})

    # --- interface --------------------------------------------------------------
    def apply(self, state: KegleState, event: Event) -> KegleState:
        """The base's ``apply``; sensor events take a fast path with the same snapshots."""
        if isinstance(event, (Call, Setup)):
            return super().apply(state, event)
        if state.finished:
            if isinstance(event, Pin) and event.state == "up":
                return self.step(state, event)  # the pin referee puts the pins back after the last shot
            if state.cut.feed(event)[0] is not Role.SETTLE:
                return super().apply(state, event)
            # a pin or a ball settling after the last shot's rest still belongs to that shot (7.8)
        # as in Engine.apply: a snapshot before the first event of a shot; rest closes the unit
        new = self.step(state, event)
        if state.in_shot:
            return evolve(new, in_shot=False) if isinstance(event, Rest) and new.in_shot else new
        if new is state:
            return state
        in_shot = not isinstance(event, Rest)
        if new.checkpoint is state and new.in_shot is in_shot:
            return new  # _open_shot took the snapshot already: no second copy
        return evolve(new, checkpoint=state, in_shot=in_shot)

    def new_state(self, setup: Setup) -> KegleState:
        agreed = setup.distance if setup.distance is not None else DEFAULT_DISTANCE
        own = setup.targets or {}
        distance = (own.get("p1", agreed), own.get("p2", agreed))
        return KegleState(game="kegle", players=tuple(setup.players.items()), at_table="p1",
                          score=Score(distance=distance))

    def step(self, state: KegleState, event: Event) -> KegleState:
        if isinstance(event, Call):
            return self._call(state, event)
        if state.shooting:
            if isinstance(event, Rest):
                return self._settle(state, event, state.cut.feed(event)[1])
            # the hot path: one more sensor event of the shot in progress (for the cutter, in a
            # shot, every event but the rest is ``Role.PLAY``: it stays as it is)
            _check_sensor(event)
            state = with_shot(state, state.shot + (event,))
            if isinstance(event, Pocket) and event.ball is None:
                state = self._ask_pocket(state, event)
            return state
        cut = state.cut
        if cut.incident_open and isinstance(event, Pin) and event.state == "up":
            role = Role.INCIDENT  # one more pin set up in the same incident: the cutter stays as it is
        else:
            role, cut = cut.feed(event)
        if isinstance(event, Rest):
            if role is Role.INCIDENT:
                # the rest after the pin referee's hands: not a shot
                return evolve(state, cut=cut, setup_rests=True)
            if role is Role.SETTLE:
                return evolve(state, cut=cut)  # the rest after a late settle
            # a rest right after the last one (or the start): a shot that touched nothing, a miss
            return self._settle(_open_shot(state, (), cut=cut), event)
        _check_sensor(event)
        if role is Role.SETTLE and state.amendable and state.rest is not None:
            # seed 7.8: the shot is completed once all balls and pins are still
            return self._settle(evolve(state, late=state.late + (event,), cut=cut), state.rest)
        if isinstance(event, Pin) and event.state == "up":
            # the pin referee puts a pin up between shots: not a shot
            sc = state.score
            return evolve(state, ups=state.ups | {event.pin}, hands=state.hands - {event.pin}, cut=cut,
                          score=evolve_score(sc, pins_down=sc.pins_down - {event.pin},
                                             blocked=sc.blocked - {event.pin}, pin_ups=True))
        if isinstance(event, Pin) and state.cut.incident_open and state.setup_rests:
            return _by_hand(state, event)
        if role is Role.INCIDENT and isinstance(event, Pocket):
            # a ball that lay still drops between shots (a strike sensor tells): seed 10.2
            return evolve(self.rule(state, event.t, "kegle.ball-falls", None, _falls_text(event),
                                    pocket=event.pocket, ball=event.ball), cut=cut)
        state = _open_shot(state, (event,), cut=cut)
        if isinstance(event, Pocket) and event.ball is None:
            state = self._ask_pocket(state, event)
        return state

    def _ask_pocket(self, state: KegleState, event: Pocket) -> KegleState:
        return self.ask(
            state, event.t, RED_IN_HOLE, f"Which ball fell in pocket {event.pocket}?",
            options=_POCKET_OPTIONS, player=state.at_table, pocket=event.pocket,
            index=len(state.shot) - 1,
        )

    def on_answer(self, state: KegleState, question: Question, answer: Any, event: Call) -> KegleState:
        ball = _POCKET_BOOL.get(answer, answer) if isinstance(answer, bool) else str(answer).lower()
        state = evolve(state, answers=state.answers + ((int(question.get("index", -1)), ball),))
        if state.amendable and state.rest is not None:
            return self._settle(state, state.rest)
        return state

    def game_json(self, state: KegleState) -> dict[str, Any]:
        sc = state.score
        remaining = (max(0, sc.distance[0] - sc.points[0]), max(0, sc.distance[1] - sc.points[1]))
        return {
            "distance": sc.distance[0] if sc.distance[0] == sc.distance[1] else _pairs(sc.distance),
            "targets": _pairs(sc.distance),
            "points": _pairs(sc.points),
            "series": _pairs(sc.series),
            "remaining": _pairs(remaining),
            "series_points": sc.run,
            "first": sc.first,
            "pins_down": sorted(sc.pins_down),
            "outlay": sc.outlay,
            "red_in_hand": sc.red_in_hand,
            "last_series": sc.last_series,
            "break_due": sc.break_due,
            "announcements": list(sc.announcements),
            "last_shot": dict(sc.last),
        }

    def summary(self, state: KegleState) -> str:
        sc = state.score
        names = dict(state.players)
        side = [f"{p} {_name(names.get(p))} {sc.points[i]} ({sc.series[i]} series)" for p, i in IDX.items()]
        d1, d2 = sc.distance
        tail = f"to {d1}" if d1 == d2 else f"to {d1}/{d2}"
        if not state.finished:
            tail += f"; {state.at_table} at the table, this series {sc.run}"
        if sc.announcements:
            tail += "; " + ", ".join(sc.announcements)
        return " - ".join(side) + f" | {tail}"

    # --- resolving a shot -------------------------------------------------------
    def _settle(self, now: KegleState, rest: Rest, cut: Cutter | None = None) -> KegleState:
        """Resolve the shot of ``now`` from the state before it and its evidence (pure); ``cut``:
        the cutter after ``rest``, when it is the shot's rest."""
        before = now.before
        assert before is not None
        p = before.at_table or "p1"
        t = rest.t
        positions = rest.positions or {}
        score = _opened(before.score, p)
        prior = before.score
        if not prior.pin_ups or not now.shot:
            # a log that never reports a pin put up (a referee's or a hand-written log): the pins
            # are taken to stand at every shot, as the pin referee puts them up after each rest
            prior = evolve_score(prior, pins_down=frozenset(), blocked=frozenset())
        late_pins = tuple(e for e in now.late if isinstance(e, Pin))
        facts = read_shot(now.shot + late_pins if late_pins else now.shot, prior.pins_down)
        answered = dict(now.answers)
        pocketed = [(pocket, answered.get(i) if ball is None else ball) for i, pocket, ball in facts.pockets]
        carambole = facts.carambole or any(c.call == "carom" for c in now.calls)
        faults = find_faults(prior, facts, pocketed, now.calls)

        v = Verdict({f: getattr(score, f) for f in _SCORE_FIELDS}, p)
        down = (facts.pins_after - now.ups) | now.hands
        v.score["pins_down"] = down
        v.score["blocked"] = prior.blocked & down
        v.score["pin_ups"] = prior.pin_ups or bool(now.ups)
        v.score["cushions_seen"] = prior.cushions_seen or facts.cushions > 0
        blocked_by_balls(v, t, positions)
        for e in now.late:
            if isinstance(e, Pocket):
                v.rule(e.t, "kegle.ball-falls", p, _falls_text(e), pocket=e.pocket, ball=e.ball)
            elif isinstance(e, Pin) and e.state == "down" and e.pin in facts.toppled:
                v.rule(e.t, "kegle.shot", p, f"pin {e.pin} fell after the balls stopped: it belongs to "
                       "the shot, which was over only once balls and pins were still", pin=e.pin)
        pins = len(facts.toppled)
        last = {"player": p, "pins": list(facts.toppled), "carambole": carambole,
                "cushions": facts.cushions, "points": 0, "faults": [f.id for f in faults]}
        if faults:
            for f in faults:
                v.rule(t, f.id, p, f"fault: {f.text}; the shot scores nothing")
            v.score["last"] = tuple(last.items())
            end_series(v, t, p, faults)
        else:
            score_shot(v, t, p, pins, carambole, facts, last)
        for pocket, ball in pocketed:
            if ball == "white":
                v.rule(t, "kegle.white-in-hole", p,
                       f"a white in pocket {pocket}: it goes on the spot opposite the other white",
                       pocket=pocket, **white_spot(positions))
        settled = evolve(
            now, score=Score(**v.score), shooting=False, amendable=True, rest=rest,
            rulings=before.rulings + tuple(v.rulings), at_table=v.at_table, finished=v.finished,
            winner=v.winner, post=(), in_shot=False, cut=now.cut if cut is None else cut,
        )
        for call in now.post:  # what the referee did after the rest stands, where it still can
            try:
                settled = _CALLS[call.call](self, settled, call)
            except IllegalCall:
                continue
        return settled

    # --- referee calls ----------------------------------------------------------
    def _call(self, state: KegleState, call: Call) -> KegleState:
        alias = _CALL_ALIASES.get(call.call)
        if alias is not None:
            call = msgspec.structs.replace(call, call=alias)
        handler = _CALLS.get(call.call)
        if handler is None:
            raise IllegalCall(f"unknown keglebillard call {call.call!r} (known: {', '.join(sorted(_CALLS))})")
        return handler(self, state, call)

    def _call_start(self, state: KegleState, call: Call) -> KegleState:
        sc = state.score
        if sc.series != (0, 0) or state.shooting:
            raise IllegalCall("'start' decides who shoots first: only before the first shot (kegle.lag)")
        p = call.player or "p1"
        s = self.rule(state, call.t, "kegle.lag", p, f"{p} shoots first, from the outlay")
        return evolve(s, at_table=p, score=evolve_score(sc, first=p, outlay=p))

    def _amend(self, state: KegleState, call: Call) -> KegleState:
        if state.shooting:
            return evolve(state, calls=state.calls + (call,))
        if not state.amendable or state.rest is None:
            raise IllegalCall(
                f"no shot to call {call.call!r} on: a fault is called during the shot or after its rest, "
                "before the next shot (kegle.fault.noticed)"
            )
        return self._settle(evolve(state, calls=state.calls + (call,)), state.rest)

    def _call_carom(self, state: KegleState, call: Call) -> KegleState:
        if state.shooting or state.amendable:
            pins_before = state.before.score.pins_down if state.before else frozenset()
            if any(c.call == "carom" for c in state.calls):
                raise IllegalCall("the carambole of this shot is already counted")
            if read_shot(state.shot, pins_before).carambole:
                return state  # the referee confirms what the contact events already counted
        return self._amend(state, call)

    def _call_foul(self, state: KegleState, call: Call) -> KegleState:
        find_fault(call.foul or "")  # unknown names fail here, with the list
        if state.shooting or state.finished:
            return self._amend(state, call)
        last = state.before.at_table if state.amendable and state.before is not None else None
        at_table = state.at_table or "p1"
        if call.player is None and last is not None:
            return self._amend(state, call)  # a late call: the shot that just ended
        if call.player is not None and call.player == last:
            return self._amend(state, call)
        if call.player is not None and call.player != at_table:
            raise IllegalCall(f"{call.player} is not at the table and played no shot just now: "
                              f"a fault between shots is {at_table}'s (kegle.fault.noticed)")
        # the player at the table faults before his shot (seed 7.7: touching a ball is a shot)
        return self._faulty_turn(state, call, at_table)

    def _faulty_turn(self, state: KegleState, call: Call, player: str) -> KegleState:
        """A shot of ``player`` with no sensor events, made of the referee's foul call alone."""
        opened = evolve(_open_shot(state, (), player), calls=(call,))
        return self._settle(opened, Rest(t=call.t))

    def _call_outlay(self, state: KegleState, call: Call) -> KegleState:
        if state.shooting:
            raise IllegalCall("a new outlay is asked for between shots, not during one")
        if state.finished:
            raise IllegalCall("the match is over: no new outlay")
        p = state.at_table or "p1"
        s = self.rule(state, call.t, "kegle.outlay.request", p, f"new outlay for {p}")
        return evolve(s, post=s.post + (call,), score=evolve_score(s.score, outlay=p, red_in_hand=None))

    def _call_blocked(self, state: KegleState, call: Call) -> KegleState:
        pin = call.extra.get("pin", call.spot)
        if isinstance(pin, bool) or not isinstance(pin, int) or not 1 <= pin <= 5:
            raise BadEvent(f"call 'blocked' needs 'pin' 1..5, not {pin!r}")
        sc = state.score
        if state.shooting:
            raise IllegalCall("a pin is called blocked between shots, once the balls lie still")
        if pin not in sc.pins_down:
            raise IllegalCall(f"pin {pin} is standing; only a toppled pin can be blocked by a ball")
        s = self.rule(state, call.t, "kegle.pin-blocked", None, f"pin {pin} cannot stand because of a ball",
                      pin=pin)
        return evolve(s, post=s.post + (call,), score=evolve_score(sc, blocked=sc.blocked | {pin}))

    def _call_replay(self, state: KegleState, call: Call) -> KegleState:
        b = state.before
        if b is None or not (state.shooting or state.amendable):
            raise IllegalCall("no shot to replay: 'replay' takes back the current shot or the one just ended")
        s = evolve(b, questions=(), asked=state.asked, amendable=False, shooting=False, cut=state.cut,
                   setup_rests=state.setup_rests)
        return self.rule(s, call.t, "kegle.ball-falls", b.at_table,
                         "a ball fell after lying still: the shot is replayed")

    def _call_disqualify(self, state: KegleState, call: Call) -> KegleState:
        if call.player is None:
            raise BadEvent("call 'disqualify' needs 'player'")
        winner = other(call.player)
        s = self.rule(state, call.t, "kegle.disqualified", call.player,
                      f"{call.player} is designated the loser; {winner} wins")
        return evolve(s, finished=True, winner=winner, shooting=False, amendable=False)

    def _call_spot(self, state: KegleState, call: Call) -> KegleState:
        raise IllegalCall("keglebillard has no 'spot' call: the referee places the balls (seeds/kegle.md)")


_CALLS = {
    "start": KegleEngine._call_start,
    "carom": KegleEngine._call_carom,
    "foul": KegleEngine._call_foul,
    "outlay": KegleEngine._call_outlay,
    "blocked": KegleEngine._call_blocked,
    "replay": KegleEngine._call_replay,
    "disqualify": KegleEngine._call_disqualify,
    "spot": KegleEngine._call_spot,
}
#: other names a referee (or a log writer) may give the calls above
_CALL_ALIASES = {"carambole": "carom", "new_outlay": "outlay", "new-outlay": "outlay"}





def _check_sensor(event: Event) -> None:
    """Refuse sensor events a keglebillard table cannot produce."""
    if isinstance(event, Contact):
        if not all(b in BALLS for b in event.balls):
            raise IllegalCall(f"keglebillard has no {'/'.join(event.balls)} contact (balls: red, white)")
        return
    if isinstance(event, Pin):
        by = toppler(event)
        if by not in _TOPPLERS:
            raise BadEvent(f"pin event: 'ball' (what toppled the pin) must be red, white, pin or cue, "
                           f"not {by!r}")
        return
    if not isinstance(event, (Pocket, Cushion, OffTable, Strike)):
        raise IllegalCall(f"a keglebillard table has no {event.type!r} sensor")
    ball = event.ball
    if ball is not None and ball not in BALLS:
        raise IllegalCall(f"keglebillard has no {ball!r} ball (balls: red, white)")


def _name(name: Any) -> str:
    if isinstance(name, list):
        return "/".join(str(n) for n in name)
    return str(name) if name is not None else ""
