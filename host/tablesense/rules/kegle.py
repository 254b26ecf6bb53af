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
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..errors import BadEvent, IllegalCall
from ..events import Call, Contact, Cushion, Event, OffTable, Pin, Pocket, Rest, Setup, Strike
from ..geometry import kegle as geo
from .base import BaseState, Engine, Question, other, register
from .kegle_faults import (
    BY_ID,
    JUMPED_BALL,
    NO_CUSHION,
    PIN_BY_CUE,
    PINS_NOT_UP,
    RED_IN_HOLE,
    RED_TOPPLES_PIN,
    THREE_REDS,
    Fault,
    find_fault,
)
from .kegle_shot import read_shot

#: the distance when the setup names none (the common bodega match)
DEFAULT_DISTANCE = 100
PIN_POINTS = 2
CARAMBOLE_POINTS = 4
#: the referee announces the missing points the first time they are at or under this
ANNOUNCE_UNDER = 20
BALLS = ("red", "white")
_IDX = {"p1": 0, "p2": 1}


@dataclass(frozen=True, slots=True, kw_only=True)
class KegleState(BaseState):
    """A keglebillard match. Per-player pairs are (p1, p2)."""

    distance: int = DEFAULT_DISTANCE
    first: str = "p1"  # the player who shot first (the equal-series finish counts from them)
    points: tuple[int, int] = (0, 0)
    series: tuple[int, int] = (0, 0)  # series started by each player
    run: int = 0  # points of the current (or last) series
    shots: int = 0  # shots of the current series so far
    no_pin_shots: int = 0  # shots in a row of this series that toppled no pin (three reds)
    no_cushion: int = 0  # pin set-ups in a row of this series without a cushion
    pins_down: frozenset[int] = frozenset()
    blocked: frozenset[int] = frozenset()  # pins that cannot stand because of a ball
    outlay: str | None = "p1"  # who plays the next shot from a new outlay
    red_in_hand: str | None = None  # who plays the next shot with the red in hand
    last_series: bool = False
    announced: tuple[bool, bool] = (False, False)  # "N remaining" said for each player
    break_taken: bool = False
    break_due: bool = False
    announcements: tuple[str, ...] = ()
    last: tuple[tuple[str, Any], ...] = ()  # what the last shot did, for the scoreboard
    # the current / last shot
    shooting: bool = False
    amendable: bool = False  # the last shot can still be amended by calls
    shot: tuple[Event, ...] = ()
    calls: tuple[Call, ...] = ()
    answers: tuple[tuple[int, str], ...] = ()  # (index of the pocket event in shot, ball)
    rest: Rest | None = None
    before: KegleState | None = None


def _pair(pair: tuple[Any, Any], player: str, value: Any) -> tuple[Any, Any]:
    return (value, pair[1]) if player == "p1" else (pair[0], value)


def _pairs(pair: tuple[Any, Any]) -> dict[str, Any]:
    return {"p1": pair[0], "p2": pair[1]}


@register
class KegleEngine(Engine[KegleState]):
    """Danish keglebillard (DDBU rules): pins, carambole, series, distance."""

    game = "kegle"

    # --- interface --------------------------------------------------------------
    def new_state(self, setup: Setup) -> KegleState:
        distance = setup.distance if setup.distance is not None else DEFAULT_DISTANCE
        return KegleState(
            game="kegle", players=tuple(setup.players.items()), distance=distance,
            at_table="p1", first="p1", outlay="p1",
        )

    def step(self, state: KegleState, event: Event) -> KegleState:
        if isinstance(event, Call):
            return self._call(state, event)
        if isinstance(event, Rest):
            if not state.shooting:
                return state  # balls still, nothing played: nothing to decide
            return self._settle(state.before or state, state.shot, state.calls, state.answers, event,
                                state)
        _check_sensor(event)
        if isinstance(event, Pin) and event.state == "up" and not state.shooting:
            # the pin referee puts a pin up between shots: not a shot
            return replace(state, pins_down=state.pins_down - {event.pin},
                           blocked=state.blocked - {event.pin})
        if not state.shooting:
            state = self._begin(state)
        state = replace(state, shot=state.shot + (event,))
        if isinstance(event, Pocket) and event.ball is None:
            state = self.ask(
                state, event.t, RED_IN_HOLE, f"Which ball fell in pocket {event.pocket}?",
                options=BALLS, player=state.at_table, pocket=event.pocket, index=len(state.shot) - 1,
            )
        return state

    def on_answer(self, state: KegleState, question: Question, answer: Any, event: Call) -> KegleState:
        index = question.get("index")
        if index is None:  # pragma: no cover - every kegle question names its event
            raise IllegalCall(f"question {question.id} cannot be answered here")
        state = replace(state, answers=state.answers + ((int(index), str(answer)),))
        if state.shooting or state.before is None:
            return state
        return self._resettle(state)

    def game_json(self, state: KegleState) -> dict[str, Any]:
        remaining = tuple(max(0, state.distance - p) for p in state.points)
        return {
            "distance": state.distance,
            "points": _pairs(state.points),
            "series": _pairs(state.series),
            "remaining": _pairs(remaining),
            "series_points": state.run,
            "first": state.first,
            "pins_down": sorted(state.pins_down),
            "outlay": state.outlay,
            "red_in_hand": state.red_in_hand,
            "last_series": state.last_series,
            "break_due": state.break_due,
            "announcements": list(state.announcements),
            "last_shot": dict(state.last),
        }

    def summary(self, state: KegleState) -> str:
        names = dict(state.players)
        side = [
            f"{p} {_name(names.get(p))} {state.points[i]} ({state.series[i]} series)"
            for p, i in _IDX.items()
        ]
        tail = f"to {state.distance}"
        if not state.finished:
            tail += f"; {state.at_table} at the table, this series {state.run}"
        if state.announcements:
            tail += "; " + ", ".join(state.announcements)
        return " - ".join(side) + f" | {tail}"

    # --- a shot -----------------------------------------------------------------
    def _begin(self, state: KegleState) -> KegleState:
        """The first event of a shot: close the last shot, open this one."""
        player = state.at_table or "p1"
        series, run = state.series, state.run
        if state.shots == 0:
            series = _pair(series, player, series[_IDX[player]] + 1)
            run = 0
        return replace(
            state, before=state, shooting=True, amendable=False, shot=(), calls=(), answers=(),
            rest=None, questions=(), series=series, run=run, break_due=False, announcements=(),
            outlay=None, red_in_hand=None,
        )

    def _resettle(self, state: KegleState) -> KegleState:
        assert state.before is not None and state.rest is not None
        return self._settle(state.before, state.shot, state.calls, state.answers, state.rest, state)

    def _settle(self, before: KegleState, shot: tuple[Event, ...], calls: tuple[Call, ...],
                answers: tuple[tuple[int, str], ...], rest: Rest, now: KegleState) -> KegleState:
        """Resolve a shot from the state before it and its evidence (pure)."""
        s = self._begin(before)
        s = replace(s, shooting=False, amendable=True, shot=shot, calls=calls, answers=answers,
                    rest=rest, questions=now.questions, asked=now.asked)
        p = s.at_table or "p1"
        t = rest.t
        positions = rest.positions or {}
        facts = read_shot(shot, before.pins_down, full_info=bool(positions))
        answered = dict(answers)
        pocketed = [(pocket, ball if ball is not None else answered.get(i))
                    for i, pocket, ball in facts.pockets]
        carambole = facts.carambole or any(c.call == "carom" for c in calls)

        faults: list[Fault] = []
        if facts.jumped:
            faults.append(BY_ID[JUMPED_BALL])
        if before.pins_down - before.blocked:
            faults.append(BY_ID[PINS_NOT_UP])
        if any(ball == "red" for _, ball in pocketed):
            faults.append(BY_ID[RED_IN_HOLE])
        if facts.by_red:
            faults.append(BY_ID[RED_TOPPLES_PIN])
        if facts.by_cue:
            faults.append(BY_ID[PIN_BY_CUE])
        faults.extend(find_fault(c.foul or "") for c in calls if c.call == "foul")
        if facts.toppled and facts.cushions == 0 and before.no_cushion >= 1:
            faults.append(BY_ID[NO_CUSHION])
        if not facts.toppled and before.no_pin_shots >= 2:
            faults.append(BY_ID[THREE_REDS])
        faults = list(dict.fromkeys(faults))

        pins = len(facts.toppled)
        points = PIN_POINTS * pins + (CARAMBOLE_POINTS if carambole else 0)
        s = replace(s, pins_down=facts.pins_after, blocked=before.blocked & facts.pins_after)
        s = self._blocked_by_balls(s, t, positions)
        for pocket, ball in pocketed:
            if ball == "white":
                s = self.rule(s, t, "kegle.white-in-hole", p,
                              f"a white in pocket {pocket}: it goes on the spot opposite the other white",
                              pocket=pocket)
        last = {"player": p, "pins": list(facts.toppled), "carambole": carambole,
                "cushions": facts.cushions, "points": 0, "faults": [f.id for f in faults]}
        if faults:
            for f in faults:
                s = self.rule(s, t, f.id, p, f"fault: {f.text}; the shot scores nothing")
            s = replace(s, last=tuple(last.items()))
            return self._end_series(s, t, p, faults)

        if pins:
            s = self.rule(s, t, "kegle.pin", p, f"{pins} pin{'s' if pins > 1 else ''}: {PIN_POINTS * pins}",
                          pins=list(facts.toppled), points=PIN_POINTS * pins)
        if carambole:
            s = self.rule(s, t, "kegle.carambole", p, f"carambole: {CARAMBOLE_POINTS}",
                          points=CARAMBOLE_POINTS)
        last["points"] = points
        i = _IDX[p]
        total = s.points[i] + points
        s = replace(
            s, points=_pair(s.points, p, total), run=s.run + points, shots=s.shots + 1,
            no_pin_shots=0 if pins else s.no_pin_shots + 1,
            no_cushion=(s.no_cushion + 1 if facts.cushions == 0 else 0) if pins else 0,
            last=tuple(last.items()),
        )
        missing = s.distance - total
        if 0 < missing <= ANNOUNCE_UNDER and not s.announced[i]:
            s = self.rule(s, t, "kegle.announce.remaining", p, f"{missing} remaining", remaining=missing)
            s = replace(s, announced=_pair(s.announced, p, True),
                        announcements=(*s.announcements, f"{missing} remaining"))
        if points == 0:
            s = self.rule(s, t, "kegle.series", p, f"no points: series of {s.run} over")
            return self._end_series(s, t, p, [])
        if missing <= 0:
            s = self.rule(s, t, "kegle.distance", p, "distance reached", points=total)
            s = replace(s, announcements=(*s.announcements, "distance reached"))
            return self._end_series(s, t, p, [])
        return s

    def _blocked_by_balls(self, s: KegleState, t: float, positions: dict[str, Any]) -> KegleState:
        """Pins down at rest that a ball keeps off their spot (seed 8.3)."""
        blocked = set(s.blocked)
        for pin in sorted(s.pins_down - s.blocked):
            for xy in positions.values():
                spots = xy if xy and isinstance(xy[0], list) else [xy]
                if any(geo.blocks_pin((float(b[0]), float(b[1])), pin) for b in spots):
                    blocked.add(pin)
                    s = self.rule(s, t, "kegle.pin-blocked", None,
                                  f"pin {pin} cannot stand because of a ball", pin=pin)
                    break
        return replace(s, blocked=frozenset(blocked))

    def _end_series(self, s: KegleState, t: float, p: str, faults: list[Fault]) -> KegleState:
        """The series of ``p`` is over: finish, last series, break, or the opponent's turn."""
        opp = other(p)
        s = replace(s, shots=0, no_pin_shots=0, no_cushion=0, at_table=opp)
        if any(f.outlay for f in faults):
            s = self.rule(s, t, "kegle.outlay", opp, "new outlay after a jumped ball")
            s = replace(s, outlay=opp)
        if any(f.red_in_hand for f in faults):
            s = self.rule(s, t, "kegle.red-in-hand", opp,
                          "the red is placed between the lower cushion and the lower string")
            s = replace(s, red_in_hand=opp)
        reached = tuple(pt >= s.distance for pt in s.points)
        if p != s.first and s.series[0] == s.series[1] and any(reached):
            if all(reached):
                s = self.rule(s, t, "kegle.draw", None, "both players reached the distance: a draw")
                return replace(s, finished=True, winner="draw", at_table=p)
            winner = "p1" if reached[0] else "p2"
            s = self.rule(s, t, "kegle.same-series", winner,
                          f"{winner} wins: distance reached, both played {s.series[0]} series")
            return replace(s, finished=True, winner=winner, at_table=p)
        if p == s.first and reached[_IDX[p]] and not s.last_series:
            s = self.rule(s, t, "kegle.last-series", opp, "last series, from a new outlay")
            s = replace(s, last_series=True, outlay=opp, red_in_hand=None,
                        announcements=(*s.announcements, "last series"))
        if not s.break_taken and 2 * s.points[_IDX[p]] >= s.distance:
            s = self.rule(s, t, "kegle.break", p, "half the distance: 5-minute break")
            s = replace(s, break_taken=True, break_due=True,
                        announcements=(*s.announcements, "5-minute break"))
        return s

    # --- referee calls ----------------------------------------------------------
    def _call(self, state: KegleState, call: Call) -> KegleState:
        handler = _CALLS.get(call.call)
        if handler is None:
            raise IllegalCall(f"unknown keglebillard call {call.call!r} (known: {', '.join(sorted(_CALLS))})")
        return handler(self, state, call)

    def _call_start(self, state: KegleState, call: Call) -> KegleState:
        if state.series != (0, 0) or state.shooting:
            raise IllegalCall("'start' decides who shoots first: only before the first shot (kegle.lag)")
        p = call.player or ""
        s = self.rule(state, call.t, "kegle.lag", p, f"{p} shoots first, from the outlay")
        return replace(s, at_table=p, first=p, outlay=p)

    def _amend(self, state: KegleState, call: Call) -> KegleState:
        if state.shooting:
            return replace(state, calls=state.calls + (call,))
        if not state.amendable:
            raise IllegalCall(
                f"no shot to call {call.call!r} on: a fault is called during the shot or after its rest, "
                "before the next shot (kegle.fault.noticed)"
            )
        return self._resettle(replace(state, calls=state.calls + (call,)))

    def _call_carom(self, state: KegleState, call: Call) -> KegleState:
        if state.shooting or state.amendable:
            pins_before = state.before.pins_down if state.before else frozenset()
            called = any(c.call == "carom" for c in state.calls)
            if called or read_shot(state.shot, pins_before).carambole:
                raise IllegalCall("the carambole of this shot is already counted")
        return self._amend(state, call)

    def _call_foul(self, state: KegleState, call: Call) -> KegleState:
        find_fault(call.foul or "")  # unknown names fail here, with the list
        return self._amend(state, call)

    def _call_outlay(self, state: KegleState, call: Call) -> KegleState:
        if state.shooting:
            raise IllegalCall("a new outlay is asked for between shots, not during one")
        p = state.at_table or "p1"
        s = self.rule(state, call.t, "kegle.outlay.request", p, f"new outlay for {p}")
        return replace(s, outlay=p, red_in_hand=None, amendable=False)

    def _call_blocked(self, state: KegleState, call: Call) -> KegleState:
        pin = call.extra.get("pin", call.spot)
        if isinstance(pin, bool) or not isinstance(pin, int) or not 1 <= pin <= 5:
            raise BadEvent(f"call 'blocked' needs 'pin' 1..5, not {pin!r}")
        if pin not in state.pins_down:
            raise IllegalCall(f"pin {pin} is standing; only a toppled pin can be blocked by a ball")
        s = self.rule(state, call.t, "kegle.pin-blocked", None, f"pin {pin} cannot stand because of a ball",
                      pin=pin)
        return replace(s, blocked=s.blocked | {pin})

    def _call_replay(self, state: KegleState, call: Call) -> KegleState:
        if state.before is None or not (state.shooting or state.amendable):
            raise IllegalCall("no shot to replay: 'replay' takes back the current shot or the one just ended")
        b = state.before
        s = replace(b, questions=(), asked=state.asked, amendable=False, shooting=False)
        return self.rule(s, call.t, "kegle.ball-falls", b.at_table,
                         "a ball fell after lying still: the shot is replayed")

    def _call_disqualify(self, state: KegleState, call: Call) -> KegleState:
        if call.player is None:
            raise BadEvent("call 'disqualify' needs 'player'")
        winner = other(call.player)
        s = self.rule(state, call.t, "kegle.disqualified", call.player,
                      f"{call.player} is designated the loser; {winner} wins")
        return replace(s, finished=True, winner=winner, shooting=False)

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


def _check_sensor(event: Event) -> None:
    """Refuse sensor events a keglebillard table cannot produce."""
    ball = getattr(event, "ball", None)
    if isinstance(event, (Pocket, Cushion, OffTable, Strike)) and ball is not None and ball not in BALLS:
        raise IllegalCall(f"keglebillard has no {ball!r} ball (balls: red, white)")
    if isinstance(event, Contact) and not all(b in BALLS for b in event.balls):
        raise IllegalCall(f"keglebillard has no {'/'.join(event.balls)} contact (balls: red, white)")
    if not isinstance(event, (Pocket, Cushion, OffTable, Strike, Contact, Pin)):
        raise IllegalCall(f"a keglebillard table has no {event.type!r} sensor")
    if isinstance(event, Pin) and event.extra.get("ball") not in (None, "red", "white", "cue"):
        raise BadEvent(f"pin event: 'ball' (what toppled the pin) must be red, white or cue, "
                       f"not {event.extra.get('ball')!r}")


def _name(name: Any) -> str:
    if isinstance(name, list):
        return "/".join(str(n) for n in name)
    return str(name) if name is not None else ""
