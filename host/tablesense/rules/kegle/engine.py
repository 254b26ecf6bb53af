"""Keglebillard (Danish five-pin billiards) on the shot stage (``ShotEngine``).

The rules and their ids are in seeds/kegle.md. In short: the player always plays the
red; each pin a white topples scores 2 (``"kegle.pin"``), the red hitting both whites
4 (``"kegle.carambole"``); the series goes on while the player scores
(``"kegle.series"``); a fault ends it and the faulty shot scores nothing; the match
goes to an agreed ``distance`` with the same number of series for both players.

How a shot is refereed: the base (``shot_engine``) cuts the stream into shots and keeps
the state before the shot (``before``) and its record (``shot``: sensor events, rest,
late settles, the referee's calls about it). ``resolve(before, shot)`` is the whole
decision, pure (``verdict.settle``); before the rest it is the live view of the
shot in progress (``verdict.live``). A late pin scores for the shot (seed 7.8),
a ball dropping after the rest is put back without a fault (10.2); a ``carom``, a
``foul``, an answer, and the ``outlay``, ``blocked`` and ``disqualify`` calls after the
rest are about the last shot: the base resolves it again with them. The next shot
closes the last one for good: a fault must be noticed before the next shot
(``"kegle.fault.noticed"``, seed 6.1), and questions left open then are dropped with
their default answer standing.

Between shots (``incident``): pins set up, the rest the table reports after them, and a
pin knocked over while they are set up (7.7, 6.4) once the log has shown a rest after a
set-up (``setup_rests``); on a table that reports strikes, every pin and drop with no
strike before it (a ball that lay still falling is put back, 10.2). They are kept
(``after``) until the next shot, so that a call amending the last shot applies them again.
What the cut took for a shot is the pin referee's hands when the referee's ``hands`` call
says so, or (the match's first set-up on a table without a strike sensor) when it opened
with a pin falling while pins were set up and only pins moved, all standing at its rest.

Two shots have no sensor events: a ``rest`` right after the last one (or the setup),
a shot that touched nothing; and a ``foul`` called between shots on the player at the
table (or before the first shot), his faulty turn (seed 7.7: touching a ball is a shot).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from ...errors import BadEvent, IllegalCall
from ...events import Call, Contact, Cushion, Event, OffTable, Pin, Pocket, Rest, Setup, Strike
from ...shots import _CLOSED, _OPEN, _SETTLING_PHASE, Cutter
from ...texts import phrase, render
from .. import shot_engine
from ..base import Question, _as_option, other, register
from ..first_states import FirstStates
from ..records import Ruling, as_option
from ..shot_engine import (
    AMEND,
    SHOT_KINDS,
    Redo,
    ShotEngine,
    ShotRecord,
    Trace,
    _cut_before,
    _shallow,
    canonical,
    shot_cut,
)
from . import plain
from .fouls import BY_ID, fault
from .names import POCKET_OPTIONS, pocket_ball
from .plain import _TOPPLERS, LATE, common_facts, common_shot, plain_shot
from .shot import carambole, read_shot, toppler
from .state import DEFAULT_DISTANCE, Incidents, KegleState, Score, pins_up, pinset
from .verdict import IDX, asked, live, settle

replace = msgspec.structs.replace

BALLS = ("red", "white")
_BALL_NAMES = frozenset(BALLS)
#: the sensor events of a keglebillard table that may name a ball
_BALL_SENSORS = frozenset({Pocket, Cushion, OffTable, Strike})
#: what shows a ball played: no pin referee's hands
_ROLLING = frozenset({Strike, Cushion, Contact, OffTable})

__all__ = ["POCKET_OPTIONS", "KegleEngine", "KegleState", "Score"]


#: the kinds of event ``common_facts`` reads a common shot of (any other kind: a pocket, a ball off
#: the table, makes its facts ``()``, ``LATE`` or None, and ``whole`` declines an undo of the shot)
_COMMON_KINDS = frozenset((Cushion, Pin, Contact, Strike))


def _whole_shot(events: tuple[Event, ...]) -> bool:
    """``events`` (a rest last) are a shot the replay hands ``whole``: table events but a rest
    (``SHOT_KINDS``) before it, the first not a pin set up (it opens no shot)."""
    first = events[0]
    if type(first) is Pin and first.state == "up":
        return False
    for e in events[:-1]:
        if type(e) not in SHOT_KINDS:
            return False
    return True


def _pairs(values: tuple[Any, Any]) -> dict[str, Any]:
    return {"p1": values[0], "p2": values[1]}


def _amendable(state: KegleState) -> bool:
    """The last shot is over and a call may still amend it."""
    shot = state.shot
    return shot is not None and shot.rest is not None and not state.in_shot and not state.sealed


def _announcements(score: Score, lang: str = "en") -> list[str]:
    return [render(key.partition(":")[0], {**dict(params), "what": key.partition(":")[2]}, lang)
            for key, params in score.announcements]


@register
class KegleEngine(ShotEngine[KegleState]):
    """Danish keglebillard (DDBU rules): pins, carambole, series, distance."""

    game = "kegle"
    pins = True  # the pin referee sets them up between shots

    def new_state(self, setup: Setup) -> KegleState:
        last = _LAST.get(setup.distance)  # the last set-up of this distance's: a log of many short
        if last is not None:  # matches of the same players, a few distances taking turns
            was = last[0]
            if (setup.targets == was.targets and setup.players == was.players  # (the cheap tests first)
                    and tuple(setup.players) == last[1]):  # (in order)
                return last[2]
        agreed = setup.distance if setup.distance is not None else DEFAULT_DISTANCE
        own = setup.targets
        distance = (own.get("p1", agreed), own.get("p2", agreed)) if own else (agreed, agreed)
        players = tuple(setup.players.items())
        key = (players, distance)
        try:  # a log of many matches of the same players and distance: one state to start each from
            found = _FRESH.get(key)
        except TypeError:  # a name that is a list (a side of two)
            key = None
            found = None
        if found is None:
            found = KegleState(game="kegle", players=players, at_table="p1", score=Score(distance=distance))
            if key is None:
                return found
            _FRESH.keep(key, found)
        if len(_LAST) >= _LAST_KEPT:
            _LAST.clear()
        _LAST[setup.distance] = (setup, tuple(setup.players), found)
        return found

    # --- the shot stage -----------------------------------------------------------
    def check(self, event: Event) -> None:
        """Refuse sensor events a keglebillard table cannot produce (every sensor event comes
        here: the common ones are told apart by their type alone)."""
        kind = type(event)
        if kind in _BALL_SENSORS:
            ball = event.ball  # type: ignore[attr-defined]
            if ball is None or ball == "red" or ball == "white":
                return
            raise IllegalCall(f"keglebillard has no {ball!r} ball (balls: red, white)")
        if kind is Rest:
            return
        if kind is Pin:
            if event.extra and toppler(event) not in _TOPPLERS:  # type: ignore[arg-type]
                raise BadEvent(f"pin event: 'ball' (what toppled the pin) must be red, white, pin or cue, "
                               f"not {toppler(event)!r}")  # type: ignore[arg-type]
            return
        if kind is Contact:
            if not _BALL_NAMES.issuperset(event.balls):  # type: ignore[attr-defined]
                raise IllegalCall(f"keglebillard has no {'/'.join(event.balls)} contact "  # type: ignore[attr-defined]
                                  "(balls: red, white)")
            return
        raise IllegalCall(f"a keglebillard table has no {event.type!r} sensor")

    def check_all(self, events: Sequence[Event]) -> None:
        """``check`` of each of a whole shot's events, its common cases in one loop: a ball sensor
        naming red, white or no ball, a pin naming nothing, a contact of the two balls."""
        for event in events:
            kind = type(event)
            if kind in _BALL_SENSORS:
                ball = event.ball  # type: ignore[attr-defined]
                if ball is None or ball == "red" or ball == "white":
                    continue
            elif kind is Pin:
                if not event.extra:  # type: ignore[attr-defined]
                    continue
            elif kind is Contact and _BALL_NAMES.issuperset(event.balls):  # type: ignore[attr-defined]
                continue
            self.check(event)

    def whole(self, state: KegleState, events: Sequence[Event], rest: Rest,
              call: Call | None = None) -> KegleState | None:
        """``ShotEngine.whole`` of a common shot (``plain.common_facts``: its events checked and read
        in one pass, in ``t`` order, no pin set up among them, a strike only first; pockets naming a
        keglebillard ball or none: its facts read by ``plain_shot``, with the balls that fell)
        from a state between shots: nothing before its start to take out (``_before_shot``), the
        pins set up before its strike put up and the last shot closed in one copy of the state
        (``release`` and ``close``: the incidents ``release`` keeps are what ``close`` drops), and
        its plain decision made from the facts read (``staged``). Any other shot the base's way.

        ``call``: ``whole_called``'s step (a canonical ``carom``, ``foul`` or ``undo`` on the line
        after the rest): the state ``apply`` of the call gives after the shot, or None wherever that
        is not this common shot decided the plain way, or the call not one that amends it plainly.

        Its most common shot (``plain.common_shot``: no pocket, pins set up before a strike or none,
        a series going on or ending and no more, faulty or not), and that shot with ``call``, is
        decided in one function."""
        facts = common_facts(events)
        if facts and plain.QUICK:
            new = common_shot(state, events, rest, facts, call)
            if new is not None:
                return new
        held = state.held
        if facts is None or state.in_shot or state.ended is not None or type(rest) is not Rest \
                or (held and facts is LATE):
            return ShotEngine.whole(self, state, events, rest) if call is None else None
        if not facts and call is not None and call.call != "answer":
            return None  # (a shot with pockets: its call the slow way, but for an answer about them)
        first = events[0]
        if held:  # pins set up before the shot's first event (the others: the base's way)
            t = first.t
            for e in held:
                if type(e) is not Pin or e.state != "up" or e.t >= t:  # type: ignore[attr-defined]
                    return ShotEngine.whole(self, state, events, rest) if call is None else None
        was = state.cut
        cut = shot_cut(was, first, rest)
        if cut is None or (type(first) is Pin and was.incident_open and state.setup_rests):
            return None  # no shot's opening, or the pin referee's (``not_a_shot``: the pin is down)
        if facts is LATE and (cut.strikes or cut.strike_sensor):  # (``_before_shot`` may take its late
            return ShotEngine.whole(self, state, events, rest) if call is None else None  # drops out)
        if not held:  # (``close`` of the last shot, inline)
            before = state
            if state.shot is not None and (state.questions or state.after is not None or state.sealed):
                before = replace(state, questions=(), after=None, sealed=False)
        elif type(first) is not Strike:  # opened by a rolling ball (or a pin): the held pins join the
            # shot (``_opening``), the last shot closes, and they are taken out of it again as incidents
            # before its start (``_before_shot``): put up, each an ``Incidents`` after the close
            after = None if state.shot is not None else state.after
            for e in held:
                after = Incidents(e, after)
            if state.shot is not None:
                before = replace(state, score=pins_up(state.score, held), held=(), questions=(), after=after,
                                 sealed=False)
            else:
                before = replace(state, score=pins_up(state.score, held), held=(), after=after)
        elif state.shot is not None:  # the pins set up before the strike, and the last shot closed
            before = replace(state, score=pins_up(state.score, held), held=(), questions=(), after=None,
                             sealed=False)
        else:
            before = self.release(state)
        shot = ShotRecord(before.at_table, tuple(events), rest)  # (player, events, rest: positional)
        # (``staged``: the pin referee's hands are a shot of pins alone, while he sets pins up)
        if was.incident_open and facts and len(facts[0]) == len(events) and _by_hand(before, shot):
            return ShotEngine.staged(self, before, shot, cut, state) if call is None else None
        if call is not None:
            return self._called(state, before, shot, cut, facts, call)
        new = plain_shot(before, shot, (before, shot, cut, state), facts)
        if new is not None:
            return new
        return ShotEngine.staged(self, before, shot, cut, state)

    def held_pin(self, state: KegleState, pin: Pin) -> KegleState | None:
        """``ShotEngine.held_pin`` of a pin naming nothing (its ``extra``: what toppled it), the
        pin's ``check`` passed inline: the same state, one copy of it (a pin naming something: the
        base's, which checks it)."""
        if pin.extra or state.in_shot:
            return ShotEngine.held_pin(self, state, pin)
        cut = state.cut
        phase = cut.phase
        if phase == _OPEN or (phase == _SETTLING_PHASE and pin.pin in cut.settled_pins):
            return None
        if phase != _CLOSED or cut.settle_open or not cut.incident_open:
            cut = Cutter(cut.strike_sensor, cut.window, cut.game, cut.shot, _CLOSED, cut.last_t, False, True,
                         cut.settled_pins, cut.strikes)
        return replace(state, held=(*state.held, pin), cut=cut, checkpoint=state)

    def held_pin_played(self, state: KegleState, pin: Pin) -> KegleState | None:
        """``ShotEngine.held_pin_played`` of a pin naming nothing: ``held_pin``'s state with ``play``'s
        links (the pin added to the events since the base, the undo a ``Redo`` of ``state`` from it),
        the cut and ``check`` inline (``_pin_cut``): one frame and one copy of the state a pin the
        pin referee sets up in a match played (a pin naming something, or a shot open: the base's)."""
        base, since = state.base, state.since
        if pin.extra or state.in_shot or base is None or type(since) is not Trace:
            return ShotEngine.held_pin_played(self, state, pin)
        n = since._n
        if n >= shot_engine.KEEP_EVERY:  # (read where it is: a test keeps states whole more often)
            return None
        cut = state.cut
        phase = cut.phase
        if phase == _OPEN or (phase == _SETTLING_PHASE and pin.pin in cut.settled_pins):
            return None
        if phase != _CLOSED or cut.settle_open or not cut.incident_open:
            cut = Cutter(cut.strike_sensor, cut.window, cut.game, cut.shot, _CLOSED, cut.last_t, False, True,
                         cut.settled_pins, cut.strikes)
        seg = since._seg  # (``Trace.plus``, inline)
        items = seg[0]
        if items is not None and len(items) == n:
            items.append(pin)
            grown = Trace(seg, n + 1)
        else:
            grown = Trace([[*since, pin], None], n + 1)
        return replace(state, held=(*state.held, pin), cut=cut, checkpoint=Redo(base, since), since=grown)

    def whole_called(self, state: KegleState, events: Sequence[Event], rest: Rest,
                     call: Call) -> KegleState | None:
        """``ShotEngine.whole_called``: a common shot (``whole``'s one pass) and the referee's
        ``carom`` or ``foul`` about it, or his ``undo`` of it, on the line after its rest, in one
        step: the shot decided once, with the call, not at its rest and again at the call
        (``amend``). The state ``apply(whole(state, events, rest), call)`` gives but for its
        ``checkpoint`` (what an undo of the call goes back to: the state after the rest), a ``Redo``
        of ``state`` and the shot's lines (``Redo.applied``); an undo gives ``state`` (the
        shot's undo point). None anywhere else: the shot and the call the slow way."""
        call = canonical(self.vocabulary(state), call)  # (``_call``: the names as the engine knows them)
        kind = call.call
        if kind == "foul":
            at_table = state.at_table  # (the player at the table before the shot and after ``whole``'s close)
            if call.foul not in BY_ID or at_table is None or call.player not in (None, at_table):
                return None  # (``_call_foul``: unknown, or a fault between shots of the player at the table)
        elif kind == "undo":
            for e in events:
                if type(e) not in _COMMON_KINDS:
                    return None  # (``whole``: a shot with pockets or a ball off the table, ``common_facts``
                    # falsy or None, takes no undo: refused before its pass, as it would be after it)
        elif kind != "carom" and kind != "answer":
            return None
        return self.whole(state, events, rest, call)

    first_whole_played = True  # a match's first shot at once (``ShotEngine._first_whole_played``)

    def whole_played(self, state: KegleState, events: Sequence[Event], rest: Rest) -> KegleState | None:
        """``ShotEngine.whole_played`` of a common shot (``plain.common_shot``) from a played state
        with a base: the state before the shot cut as ``play`` cuts it (``_shallow``), the shot
        decided with ``play``'s links in the same copy (one frame and one copy of the state fewer
        than ``whole`` then the links). Any other shot, or a state with no base, the base's way."""
        base, since = state.base, state.since
        if base is not None and type(since) is Trace and plain.QUICK:
            count = since._n + len(events) + 1
            if count <= shot_engine.KEEP_EVERY:
                facts = common_facts(events)
                if facts:
                    # (``play`` cuts the states before the shot at its opening, as the base does, first:
                    # where the chain is eight deep, ``_eight_deep``'s walk inline)
                    node = state.before
                    if shot_engine.BEFORE_DEPTH != 4:
                        given = _shallow(state)
                    elif (node is None or (node := node.before) is None or (node := node.before) is None
                          or (node := node.before) is None or (node := node.before) is None
                          or (node := node.before) is None or (node := node.before) is None
                          or node.before is None):
                        given = state
                    else:
                        given = _cut_before(state)
                    new = common_shot(given, events, rest, facts, None, (base, since, count))
                    if new is not None:
                        return new
        return ShotEngine.whole_played(self, state, events, rest)

    def whole_called_played(self, state: KegleState, events: Sequence[Event], rest: Rest,
                            call: Call) -> KegleState | None:
        """``ShotEngine.whole_called_played``, and the first shot of a match just set up with the
        referee's call after its rest (``whole_played``'s case: the set-up's state the base, the
        shot's events, rest and call the events since it, the undo of the call back to the state
        after the rest as a ``Redo`` of them): ``play`` of the call after ``play`` of each event
        gives that state. An ``undo`` there (``whole_called`` gives the state undone to, no ``Redo``):
        the slow way, as ``play`` hands back the state undone to."""
        since = state.since
        if state.base is not None or state.before is not None or since or type(since) is not tuple:
            return ShotEngine.whole_called_played(self, state, events, rest, call)
        new = self.whole_called(state, events, rest, call)
        if new is None:
            return None
        checkpoint = new.checkpoint
        if type(checkpoint) is not Redo or checkpoint.base is not state:
            return None
        count = len(events) + 1
        seg: list[Any] = [[*events, rest, call], None]
        return replace(new, base=state, since=Trace(seg, count + 1),
                       checkpoint=Redo(state, Trace(seg, count)))

    def _called(self, state: KegleState, before: KegleState, shot: ShotRecord, cut: Cutter,
                facts: tuple[list[int], int, bool, list[str]], call: Call) -> KegleState | None:
        """``whole_called``'s state once ``whole`` made the state before the common ``shot`` and the
        cutter after it: ``apply`` of ``call`` to ``whole``'s state (``W``) as ``_call`` makes it,
        where ``W`` is the plain decision's and the call amends it (``_call_carom``,
        ``_call_foul``: ``AMEND``, the shot resolved again with the call, ``amend``: nothing
        between shots since its rest to apply again) or leaves it as it is (a ``carom`` the
        contacts counted already), or undoes it (``W``'s checkpoint: ``state``)."""
        if before.sealed or before.after is not None:
            return None  # (``_amendable``; ``amend`` applies the incidents since the rest again)
        kind = call.call
        if kind == "answer":  # "which ball fell in pocket N?", asked by the shot's decision: ``_answer``
            return self._answered(state, before, shot, cut, call, facts) if not facts else None
        if kind == "undo":  # where ``plain_shot`` decides this common shot (it answers None only there)
            sc = before.score
            return None if (sc.pins_down or sc.blocked) and sc.pin_ups else state
        if kind == "carom" and facts[2]:  # the carambole the contacts counted already: the call confirms it
            return plain_shot(before, shot, (before, shot, cut, state), facts)
        called = ShotRecord(player=shot.player, events=shot.events, rest=shot.rest, calls=(call,))
        return plain_shot(before, called, (before, called, cut, Redo(state, (*shot.events, shot.rest), True)),
                          facts)

    def _answered(self, state: KegleState, before: KegleState, shot: ShotRecord, cut: Cutter,
                  call: Call, facts: tuple[()] = ()) -> KegleState | None:
        """``_called`` of the referee's answer about a shot with pockets: the shot decided once, with
        the answer among its calls, where ``apply`` of the answer to ``whole``'s state (``W``) decides
        it at the rest and again at the answer (``_answer``, ``on_answer``, ``amend``). The
        question is one of those ``W`` asks (``holes.ask_pockets``: one a pocket naming no ball,
        numbered on from ``before.asked``, "which ball?"), the answer one of its options; None
        anywhere else (an unknown question, an answer it does not take: the slow way says why)."""
        if not _asked_by(call.question, before.asked + 1, shot.events):
            return None
        answer = call.answer
        if type(answer) is str and (answer == "red" or answer == "white"):
            ball = answer  # (``as_option`` and ``pocket_ball`` of an option as listed: itself)
        else:
            answer = as_option(answer, POCKET_OPTIONS)
            if answer not in POCKET_OPTIONS:
                return None
            ball = pocket_ball(answer)
        called = ShotRecord(player=shot.player, events=shot.events, rest=shot.rest,
                            calls=(_with_answer(call, ball),))
        return plain_shot(before, called, (before, called, cut, Redo(state, (*shot.events, shot.rest), True)),
                          facts)  # (``()``, or ``LATE``: its lines sorted before they are read)

    def staged(self, before: KegleState, shot: ShotRecord, cut: Cutter,
               checkpoint: KegleState) -> KegleState:
        """``ShotEngine.staged``: a plain shot (``plain.plain_shot``) with the shot stage's fields put
        in the same copy of the state; any other the base's way (``resolve``, then the fields)."""
        if not shot.calls and not (before.cut.incident_open and _by_hand(before, shot)):  # (``resolve``)
            new = plain_shot(before, shot, (before, shot, cut, checkpoint))
            if new is not None:
                return new
        return ShotEngine.staged(self, before, shot, cut, checkpoint)

    def redo(self, redo: Redo) -> KegleState:
        """``ShotEngine.redo``; a shot and its rest applied again from the state before it (the ``Redo``
        an undo of the referee's call after the rest goes back to: ``whole_called``'s, ``_called``'s,
        ``_answered``'s) taken at once by ``whole``, which gives the state ``apply`` of each gives, not
        event by event through ``apply`` (the shot opened, its events gathered, its rest settled and
        decided the general way). Any other ``Redo``, and a shot ``whole`` does not take, the base's way."""
        events = redo.events
        if redo.applied and type(events) is tuple and len(events) > 1 and type(rest := events[-1]) is Rest \
                and _whole_shot(events):
            try:
                new = self.whole(redo.base, events[:-1], rest)  # type: ignore[arg-type]
            except Exception:  # (``apply`` of each then says why, as ever)
                new = None
            if new is not None:
                return new
        return ShotEngine.redo(self, redo)

    def asks_live(self, event: Event) -> bool:
        """A shot's live view asks "which ball fell in pocket N?" at a pocket naming no ball
        (``verdict.live``), about nothing else."""
        return type(event) is Pocket and event.ball is None

    def not_a_shot(self, state: KegleState, event: Event) -> bool:
        """A pin that falls while the pin referee sets pins up, once the log has shown that the
        table reports a rest after his hands: his, not a shot (seed 7.7, 6.4)."""
        return (isinstance(event, Pin) and event.state == "down" and state.cut.incident_open
                and state.setup_rests)

    def resolve(self, before: KegleState, shot: ShotRecord) -> KegleState:
        calls = shot.calls
        if calls:
            if calls[0].call == "replay":
                return before  # the rest of a shot the referee took back (``_call_replay``): no shot
            if _by_hand(before, shot):
                return self._hands(before, shot)
        elif before.cut.incident_open and _by_hand(before, shot):  # (no call: only while pins are set up)
            return self._hands(before, shot)
        state = settle(before, shot) if shot.rest is not None else live(before, shot)
        for call in calls:  # what the referee did after the rest stands, where it still can
            after = _AFTER_REST.get(call.call)
            if after is not None:
                try:
                    state = after(self, state, call)
                except IllegalCall:
                    continue
        return state

    def _hands(self, before: KegleState, shot: ShotRecord) -> KegleState:
        """What the table took for a shot was the pin referee's hands (7.7, 6.4): no shot. Its pins
        and drops are incidents (a pin knocked over stays down until he puts it up; a ball that
        fell is put back), the turn stays; the referee's ``hands`` call says so in a ruling."""
        state = replace(before, questions=(), asked=asked(before, shot))
        for event in (*shot.events, *shot.late):
            if type(event) is Pin or type(event) is Pocket:
                state = self.incident(state, event)
        for call in shot.calls:
            if call.call == "hands":
                state = self.rule(state, call.t, "kegle.shot", None, what="hands")
                break
        return replace(state, setup_rests=True) if shot.rest is not None and not state.setup_rests else state

    def release(self, state: KegleState) -> KegleState:
        """``ShotEngine.release``: pins set up (the common held events) put up in one copy of the
        state, as ``incident`` puts up each."""
        held, after = state.held, state.after
        for event in held:
            if type(event) is not Pin or event.state != "up":
                return ShotEngine.release(self, state)
            after = Incidents(event, after)
        return replace(state, score=pins_up(state.score, held), after=after, held=())

    def incident(self, state: KegleState, event: Event) -> KegleState:
        after = Incidents(event, state.after)
        if type(event) is Pin and event.state == "up":  # the common one: one copy of the state
            return replace(state, score=_pin_up(state.score, event.pin), after=after)
        return replace(self._incident(state, event), after=after)

    def _incident(self, state: KegleState, event: Event) -> KegleState:
        sc = state.score
        if isinstance(event, Pin):
            if event.state == "up":  # the pin referee puts a pin up
                score = _pin_up(sc, event.pin)
                return state if score is sc else replace(state, score=score)
            # knocked over while the pins are set up (7.7: no ball touched, no shot; 6.4: what the
            # referee does is not held against the player). It is down until he puts it back up
            # (7.9: a shot before that is ``kegle.fault.pins-not-up``)
            s = self.rule(state, event.t, "kegle.shot", None, what="by-hand", pin=event.pin)
            return replace(s, score=replace(sc, pins_down=pinset(sc.pins_down | {event.pin})))
        if isinstance(event, Rest):  # the rest after the pin referee's hands (or a drop): not a shot
            if state.setup_rests or not state.cut.incident_open:
                return state  # a rest with nothing before it: a table that reports strikes says so
            return replace(state, setup_rests=True)
        if isinstance(event, Pocket):  # a ball that lay still drops between shots (a strike sensor tells)
            return self.rule(state, event.t, "kegle.ball-falls", None, pocket=event.pocket, ball=event.ball)
        raise IllegalCall(f"{event.type} between shots: no shot is being played")

    def close(self, state: KegleState) -> KegleState:
        if not state.questions and state.after is None and not state.sealed:
            return state
        return replace(state, questions=(), after=None, sealed=False)

    def amend(self, state: KegleState, call: Call) -> KegleState:
        """The base's amendment, and then what happened between shots since its rest, again."""
        new = super().amend(state, call)
        if state.after is None:
            return new
        for event in state.after.in_order():
            new = self._incident(new, event)
        return replace(new, after=state.after)

    # --- referee calls ----------------------------------------------------------------
    def call(self, state: KegleState, call: Call) -> Any:
        handler = _CALLS.get(call.call)
        if handler is None:
            raise IllegalCall(f"unknown keglebillard call {call.call!r} (known: {', '.join(sorted(_CALLS))})")
        return handler(self, state, call)

    def on_answer(self, state: KegleState, question: Question, answer: Any, event: Call) -> KegleState:
        call = _with_answer(event, pocket_ball(answer))
        if state.in_shot or _amendable(state):
            return self.amend(state, call)
        return state

    def _answer(self, state: KegleState, event: Call) -> KegleState:
        """The base's, and also an answer to a question about a shot still in progress (asked in
        its live view: "which ball fell in pocket N?" as the ball drops)."""
        if not state.in_shot:
            new = self._answered_after(state, event)
            return new if new is not None else super()._answer(state, event)
        shown = self.live(state).questions
        question = next((q for q in shown if q.id == event.question), None)
        if question is None:
            open_ids = ", ".join(q.id for q in shown) or "none"
            raise IllegalCall(f"no open question {event.question!r} (open: {open_ids})")
        answer = _as_option(event.answer, question.options)
        if answer not in question.options:
            raise IllegalCall(f"answer to {question.id} must be one of {list(question.options)!r}, "
                              f"not {event.answer!r}")
        return replace(self.amend(state, _with_answer(event, pocket_ball(answer))), checkpoint=state)

    def _answered_after(self, state: KegleState, event: Call) -> KegleState | None:
        """The base's ``_answer`` of an answer after the last shot's rest, the shot amended with it
        (``on_answer``, ``amend``, ``resolve``) in one step where it is plain: an open question, an
        answer among its options, a shot that may be amended with no call before and nothing
        between shots since its rest (``after``), decided by ``plain_shot`` (the state ``settle``
        gives) with the shot stage's fields and what an undo goes back to (``state``) in the same
        copy. None anywhere else (the base's way then, which says what is wrong)."""
        shot, before = state.shot, state.before
        if (shot is None or before is None or shot.calls or shot.rest is None or state.sealed
                or state.after is not None or type(shot.events) is not tuple):
            return None
        for q in state.questions:
            if q.id == event.question:
                break
        else:
            return None
        answer = as_option(event.answer, q.options)
        if q.options and answer not in q.options:
            return None
        called = ShotRecord(shot.player, shot.events, shot.rest, shot.late,
                            (_with_answer(event, pocket_ball(answer)),))
        return plain_shot(before, called, (before, called, state.cut, state))

    def _amendment(self, state: KegleState, call: Call) -> Any:
        if state.in_shot or _amendable(state):
            return AMEND
        raise IllegalCall(
            f"no shot to call {call.call!r} on: a fault is called during the shot or after its rest, "
            "before the next shot (kegle.fault.noticed)"
        )

    def _call(self, state: KegleState, event: Call) -> KegleState:
        """``ShotEngine._call``, and a ``start`` before the first shot (written as its canonical id)
        in one copy of the state: the lag's ruling, who shoots first and the undo point together
        (``_call_start``'s state, then ``checkpoint``: three copies); any other call the base's way."""
        if event.call == "start" and not state.in_shot:
            sc = state.score
            if sc.series == (0, 0):
                p = event.player or "p1"
                return replace(state, rulings=state.rulings + (Ruling(event.t, "kegle.lag", p),), at_table=p,
                               score=replace(sc, first=p, outlay=p), checkpoint=state)
        return super()._call(state, event)

    def _call_start(self, state: KegleState, call: Call) -> KegleState:
        sc = state.score
        if sc.series != (0, 0) or state.in_shot:
            raise IllegalCall("'start' decides who shoots first: only before the first shot (kegle.lag)")
        p = call.player or "p1"
        s = self.rule(state, call.t, "kegle.lag", p)
        return replace(s, at_table=p, score=replace(sc, first=p, outlay=p))

    def _call_carom(self, state: KegleState, call: Call) -> Any:
        shot = state.shot
        if shot is not None and (state.in_shot or _amendable(state)):
            if any(c.call == "carom" for c in shot.calls):
                raise IllegalCall("the carambole of this shot is already counted")
            if carambole(shot.events):  # (``read_shot``'s carambole, alone)
                return state  # the referee confirms what the contact events already counted
        return self._amendment(state, call)

    def _call_foul(self, state: KegleState, call: Call) -> Any:
        fault(call.foul)  # an unknown name fails here, with the list
        if state.in_shot or state.finished:
            return self._amendment(state, call)
        last = state.shot.player if _amendable(state) and state.shot is not None else None
        at_table = state.at_table or "p1"
        if last is not None and call.player in (None, last):
            return AMEND  # a late call: the shot that just ended
        if call.player is not None and call.player != at_table:
            raise IllegalCall(f"{call.player} is not at the table and played no shot just now: "
                              f"a fault between shots is {at_table}'s (kegle.fault.noticed)")
        # the player at the table faults before his shot (seed 7.7: touching a ball is a shot)
        before = self.close(state)
        shot = ShotRecord(player=at_table, rest=Rest(t=call.t), calls=(call,))
        return replace(self.resolve(before, shot), before=before, shot=shot, cut=state.cut, in_shot=False)

    def _call_outlay(self, state: KegleState, call: Call) -> Any:
        if state.in_shot:
            raise IllegalCall("a new outlay is asked for between shots, not during one")
        new = self._outlay(state, call)
        return new if state.shot is None else AMEND

    def _outlay(self, state: KegleState, call: Call) -> KegleState:
        if state.finished:
            raise IllegalCall("the match is over: no new outlay")
        p = state.at_table or "p1"
        s = self.rule(state, call.t, "kegle.outlay.request", p)
        return replace(s, score=replace(s.score, outlay=p, red_in_hand=None))

    def _call_blocked(self, state: KegleState, call: Call) -> Any:
        if state.in_shot:
            raise IllegalCall("a pin is called blocked between shots, once the balls lie still")
        new = self._blocked(state, call)
        return new if state.shot is None else AMEND

    def _blocked(self, state: KegleState, call: Call) -> KegleState:
        pin = call.extra.get("pin", call.spot)
        if isinstance(pin, bool) or not isinstance(pin, int) or not 1 <= pin <= 5:
            raise BadEvent(f"call 'blocked' needs 'pin' 1..5, not {pin!r}")
        sc = state.score
        if pin not in sc.pins_down:
            raise IllegalCall(f"pin {pin} is standing; only a toppled pin can be blocked by a ball")
        s = self.rule(state, call.t, "kegle.pin-blocked", None, pin=pin)
        return replace(s, score=replace(sc, blocked=pinset(sc.blocked | {pin})))

    def _call_replay(self, state: KegleState, call: Call) -> KegleState:
        b, shot = state.before, state.shot
        if b is None or shot is None or not (state.in_shot or _amendable(state)):
            raise IllegalCall("no shot to replay: 'replay' takes back the current shot or the one just ended")
        s = replace(b, questions=(), asked=asked(b, shot), cut=state.cut, setup_rests=state.setup_rests,
                    after=None, sealed=False, shot=None, before=None, in_shot=False)
        for e in shot.events:  # a pin the pin referee set up is up, whatever is taken back
            if type(e) is Pin and e.state == "up" and e.pin in b.score.pins_down:
                s = self._incident(s, e)
        s = self.rule(s, call.t, "kegle.ball-falls", b.at_table, what="replay")
        if state.in_shot:  # the balls go back; what rolls on until the rest is no shot (resolve)
            return replace(s, shot=ShotRecord(player=s.at_table, calls=(call,)), before=s, in_shot=True)
        return s

    def _call_hands(self, state: KegleState, call: Call) -> Any:
        """The referee: what the table took for the current or last shot was the pin referee's
        hands, no ball played (7.7, 6.4). A table without a strike sensor cannot tell a pin he
        knocks over from a shot that topples it."""
        shot = state.shot
        if not state.in_shot and state.after is not None and any(
                type(e) is Pin and e.state == "down" for e in state.after.in_order()):  # type: ignore[attr-defined]
            return state  # the table took it for his hands already: the call confirms it
        if shot is None or not (state.in_shot or _amendable(state)):
            raise IllegalCall("no shot to take for the pin referee's hands: 'hands' is called during a shot "
                              "or after its rest, before the next shot")
        if any(type(e) in _ROLLING for e in shot.events):
            raise IllegalCall("the last shot moved a ball (a strike, a cushion, a contact): it was played, "
                              "not the pin referee's hands ('replay' or 'undo' takes a shot back)")
        if any(c.call == "hands" for c in shot.calls):
            return state
        return AMEND

    def _call_disqualify(self, state: KegleState, call: Call) -> Any:
        if call.player is None:
            raise BadEvent("call 'disqualify' needs 'player'")
        new = self._disqualify(state, call)
        if state.shot is None:
            return new
        if not state.in_shot or state.before is None:
            return AMEND
        # during a shot: the shot ends here, as it stands (its live view), and the match with it;
        # what the table reports after that is the end of this shot or refused
        shot = replace(state.shot, calls=(*state.shot.calls, call))
        _, cut = state.cut.feed(Rest(t=call.t))
        return replace(self.resolve(state.before, shot), before=state.before, shot=shot, cut=cut,
                       in_shot=False)

    def _disqualify(self, state: KegleState, call: Call) -> KegleState:
        assert call.player is not None
        s = self.rule(state, call.t, "kegle.disqualified", call.player)
        ended = self.end(s, other(call.player), "kegle.disqualified", player=call.player)
        return replace(ended, sealed=True)

    def _call_spot(self, state: KegleState, call: Call) -> KegleState:
        raise IllegalCall("keglebillard has no 'spot' call: the referee places the balls (seeds/kegle.md)")

    # --- the replay state -------------------------------------------------------------
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
            "announcements": _announcements(sc),
            "last_shot": sc.last.to_dict() if sc.last is not None else {},
        }

    def to_json(self, state: KegleState, lang: str = "en") -> dict[str, Any]:
        out = super().to_json(state, lang)
        if lang != "en":
            out["announcements"] = _announcements(self.live(state).score, lang)
        return out

    def summary(self, state: KegleState, lang: str = "en") -> str:
        state = self.live(state)  # a shot in progress: as the scoreboard shows it
        sc = state.score
        names = dict(state.players)
        side = [phrase("summary.kegle:player", {"side": p, "name": _name(names.get(p)),
                                                "points": sc.points[i], "series": sc.series[i]}, lang)
                for p, i in IDX.items()]
        d1, d2 = sc.distance
        tail = phrase("summary.kegle:distance", {"distance": d1 if d1 == d2 else f"{d1}/{d2}"}, lang)
        if not state.finished:
            tail += "; " + phrase("summary.kegle:at-table", {"side": state.at_table, "run": sc.run}, lang)
        if sc.announcements:
            tail += "; " + ", ".join(_announcements(sc, lang))
        return " - ".join(side) + f" | {tail}"


#: the new matches' first states by players and distance (frozen: shared)
_FRESH: FirstStates[Any, KegleState] = FirstStates()
#: a distance -> the last set-up of it whose first state ``_FRESH`` holds, its players in order, and
#: that state: the next set-up of the same players (in the same order), distance and targets starts
#: from it without the key's tuples (a log whose matches take a few distances in turns, each its own)
_LAST: dict[int | None, tuple[Setup, tuple[str, ...], KegleState]] = {}
#: how many distances ``_LAST`` keeps; the lot let go when one more comes
_LAST_KEPT = 16

_Handler = Callable[[KegleEngine, KegleState, Call], Any]

_CALLS: dict[str, _Handler] = {
    "start": KegleEngine._call_start,
    "carom": KegleEngine._call_carom,
    "foul": KegleEngine._call_foul,
    "outlay": KegleEngine._call_outlay,
    "blocked": KegleEngine._call_blocked,
    "replay": KegleEngine._call_replay,
    "hands": KegleEngine._call_hands,
    "disqualify": KegleEngine._call_disqualify,
    "spot": KegleEngine._call_spot,
}
#: the calls about a shot that act once it is resolved (again): applied after its verdict
_AFTER_REST: dict[str, Callable[[KegleEngine, KegleState, Call], KegleState]] = {
    "outlay": KegleEngine._outlay,
    "blocked": KegleEngine._blocked,
    "disqualify": KegleEngine._disqualify,
}


def _pin_up(score: Score, pin: int) -> Score:
    """Seed 7.9, 8.3: the pin referee puts ``pin`` up; from now on the log reports it
    (``pin_ups``: a shot while a pin is down is ``kegle.fault.pins-not-up``)."""
    down, blocked = score.pins_down, score.blocked
    if pin in down:
        down = _without(down, pin)
    elif score.pin_ups and pin not in blocked:
        return score
    if pin in blocked:
        blocked = _without(blocked, pin)
    elif score.pin_ups:
        return replace(score, pins_down=down)  # the common one: a pin of the last shot's up again
    return replace(score, pins_down=down, blocked=blocked, pin_ups=True)


#: (pins, pin) -> the shared set of those pins but ``pin`` (``state.pinset``), as met
_WITHOUT: dict[tuple[frozenset[int], int], frozenset[int]] = {}


def _without(pins: frozenset[int], pin: int) -> frozenset[int]:
    found = _WITHOUT.get((pins, pin))
    if found is None:
        found = _WITHOUT[(pins, pin)] = pinset(pins - {pin})
    return found


def _by_hand(before: KegleState, shot: ShotRecord) -> bool:
    """The shot is the pin referee's hands, not a shot (7.7, 6.4): the referee's ``hands`` call says
    so; or, on a table without a strike sensor, it opened with a pin falling while he set pins up
    (no rest since he put one up), nothing but pins moved, and every pin stood again at its rest.
    A pin that stays down is a shot's (a log without the rest after the set-up: a shot that
    toppled it); once the table has shown it reports that rest, ``not_a_shot`` takes the pin
    for his at once."""
    calls = shot.calls
    if calls:
        return any(c.call == "hands" for c in calls)
    cut = before.cut
    if shot.rest is None or shot.late or not shot.events or not cut.incident_open or cut.strikes:
        return False
    if cut.strike_sensor or not all(type(e) is Pin for e in shot.events):
        return False
    return not read_shot(shot.events, before.score.pins_down).toppled


def _asked_by(question: Any, first: int, events: Sequence[Event]) -> bool:
    """``question`` is one of those a shot of ``events`` asks ("which ball fell in pocket N?", one a
    pocket naming no ball, numbered on from ``first``): ``question in {f"q{n}" ...}``, a question
    written as a string compared without the set (any other the set's way, an unhashable one raising
    as there)."""
    count = 0
    for e in events:
        if type(e) is Pocket and e.ball is None:  # type: ignore[attr-defined]  (``holes.unknown_pockets``)
            count += 1
    if type(question) is str:
        for n in range(first, first + count):
            if question == f"q{n}":
                return True
        return False
    return question in {f"q{n}" for n in range(first, first + count)}


def _with_answer(event: Call, answer: str) -> Call:
    return replace(event, answer=answer)  # (a ``Call`` is a msgspec Struct: no import, no type test a call)


def _name(name: Any) -> str:
    if isinstance(name, list):
        return "/".join(str(n) for n in name)
    return str(name) if name is not None else ""
