"""A keglebillard shot and the referee's call on the line after its rest, taken in one step
(``KegleEngine.whole_called``: a ``carom`` or a ``foul`` decided with the shot, not at its rest and
again at the call; an ``undo`` of it), end where the shot taken at once and the call applied after
it end (``apply(whole(...), call)``), over made-up matches (hypothesis): pins falling and put up
between shots, a strike sensor or none, lines out of order, holes, balls off the table, contacts
naming their white, the carambole counted by the contacts or not, fouls by name and by player, the
names as a referee may write them, calls the step does not take. What an undo of the call goes back
to (its ``checkpoint``) may be kept as a ``Redo`` of the state before the shot: redone, it is the
state after the rest."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_kegle_helpers import apply_after, outcome, pins_put_up
from test_kegle_plain_shot import shot as shots

from tablesense.events import Call, Event, Rest, parse_event
from tablesense.rules import find_engine
from tablesense.rules.shot_engine import SHOT_KINDS, Redo, ShotEngine, canonical

ENGINE = find_engine("kegle")

#: the call on the line after the rest: those the step takes, their other spellings, and others
called = st.sampled_from([
    {"call": "carom"},
    {"call": "carom", "player": "p2"},
    {"call": "foul", "foul": "touch"},
    {"call": "foul", "foul": "foot", "player": "p1"},
    {"call": "foul", "foul": "foot", "player": "p2"},
    {"call": "foul", "foul": "no_rail"},
    {"call": "foul", "foul": "red_pin"},
    {"call": "foul", "foul": "three-reds"},
    {"call": "foul", "foul": "no such foul"},
    {"call": "undo"},
    {"call": "undo", "player": "p2"},
    {"call": "hands"},
    {"call": "outlay"},
    {"call": "answer", "question": "q1", "answer": "red"},
    # "which ball fell in pocket N?" of the shot just played (its number: the questions the match
    # asked before it, and one); its options as a referee may write them, and one that is none
    {"call": "answer", "question": "q2", "answer": "white"},
    {"call": "answer", "question": "q2", "answer": "Red"},
    {"call": "answer", "question": "q3", "answer": True},
    {"call": "answer", "question": "q3", "answer": "white"},
    {"call": "answer", "question": "q4", "answer": "red"},
    {"call": "answer", "question": "q5", "answer": False},
    {"call": "answer", "question": "q1", "answer": "maybe"},
    {"call": "answer", "question": "q2", "answer": 3},
    {"call": "disqualify", "player": "p1"},
])


def _slow(state: Any, events: list[Event], rest: Rest, call: Call) -> Any:
    """The shot taken at once, then the call applied to the state after its rest."""
    after = ENGINE.whole(state, events, rest)
    if after is None or isinstance(after, type):
        return None
    return outcome(ENGINE.apply, after, call)


def shot_and_call(drawn: Any, call_obj: dict[str, Any], strikes: bool,
                  t: float) -> tuple[list[Event], Rest, Call, float]:
    """A shot drawn from ``test_kegle_plain_shot.shot`` and the call on the line after its rest: its
    table events (a strike first where the table logs strikes; the first two lines' times swapped
    where drawn so) timed 0.1 s apart on from ``t``, its rest, the call, and the rest's time."""
    struck, ball_struck, events, shuffled, where, _calls, _put_up = drawn
    objs: list[dict[str, Any]] = []
    if strikes and struck:
        objs.append({"type": "strike", "ball": ball_struck})
    objs.extend(events)
    times = [t + 0.1 * (i + 1) for i in range(len(objs))]
    if shuffled and len(times) > 1:
        times[0], times[1] = times[1], times[0]
    t = (times[-1] if times else t) + 0.1
    table = [parse_event({"t": round(x, 3), **o}) for x, o in zip(times, objs, strict=True)]
    rest = parse_event({"t": round(t, 3), "type": "rest", **({"positions": where} if where else {})})
    call = parse_event({"t": round(t + 0.05, 3), "type": "call", **call_obj})
    assert type(rest) is Rest and type(call) is Call
    return table, rest, call, t


def applied(state: Any, drawn: Any, call_obj: dict[str, Any], table: list[Event], rest: Rest,
            t: float) -> tuple[Any, float]:
    """``apply`` of the shot's lines, its rest, the call, the calls drawn after it and the pins put
    up (a refused line skipped, as a replay does): the state and the time after them."""
    events, calls, put_up = drawn[2], drawn[5], drawn[6]
    after: list[dict[str, Any]] = [call_obj, *calls]
    after.extend({"type": "pin", "pin": p, "state": "up"} for p in pins_put_up(events, put_up))
    return apply_after(state, table, rest, after, t)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(shots, called), min_size=1, max_size=20), st.integers(4, 40), st.booleans())
def test_a_shot_and_the_call_after_its_rest_in_one_step_end_where_they_end_apart(
        played: list[Any], distance: int, strikes: bool) -> None:
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": distance}))
    t = 0.0
    for drawn, call_obj in played:
        table, rest, call, t = shot_and_call(drawn, call_obj, strikes, t)
        if table and all(type(e) in SHOT_KINDS for e in table) and not state.in_shot:
            quick = outcome(ENGINE.whole_called, state, table, rest, call)
            if quick is not None and not isinstance(quick, type):
                slow = _slow(state, table, rest, call)
                back = quick.checkpoint
                if type(back) is Redo:  # the state after the rest, made again only if an undo asks
                    assert back.applied
                    assert ENGINE.redo(back) == ENGINE.whole(state, table, rest)
                    assert msgspec.structs.replace(quick, checkpoint=None) == \
                        msgspec.structs.replace(slow, checkpoint=None)
                else:
                    assert quick == slow
                assert tuple(quick.rulings) == tuple(slow.rulings)
        state, t = applied(state, drawn, call_obj, table, rest, t)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(shots, called, st.booleans()), min_size=1, max_size=20), st.integers(4, 40),
       st.booleans())
def test_a_call_refused_before_the_shots_pass_is_one_the_pass_would_refuse(
        played: list[Any], distance: int, strikes: bool) -> None:
    """``whole_called`` refuses an undo of a shot with pockets or a ball off the table before
    ``whole``'s pass: at every moment a call comes (after the rest, between shots, after the pins
    are put up, while a ball rolls: ``rolling``, the shot's first line applied alone), on a table
    with a strike sensor or none, with positions or none, it gives what ``whole`` of the shot
    and the call (as the engine names it) gives, or refuses where that refuses."""
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": distance}))
    t = 0.0
    for drawn, call_obj, rolling in played:
        table, rest, call, t = shot_and_call(drawn, call_obj, strikes, t)
        given_state = state
        if rolling and table:
            given_state = outcome(ENGINE.apply, state, table[0])
        if table and all(type(e) in SHOT_KINDS for e in table) and not isinstance(given_state, type):
            named = canonical(ENGINE.vocabulary(given_state), call)
            if named.call in ("undo", "carom", "answer"):
                assert outcome(ENGINE.whole_called, given_state, table, rest, call) == \
                    outcome(ENGINE.whole, given_state, table, rest, named)
        state, t = applied(state, drawn, call_obj, table, rest, t)


def test_a_carom_call_after_a_plain_shot_is_taken_with_it_and_undone_to_the_state_after_the_rest() -> None:
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": 40}))
    table = [parse_event({"t": 1.0, "type": "cushion", "cushion": 2, "ball": "red"}),
             parse_event({"t": 1.5, "type": "pin", "pin": 3, "state": "down"})]
    rest = parse_event({"t": 2.0, "type": "rest"})
    call = parse_event({"t": 2.5, "type": "call", "call": "carom"})
    assert type(rest) is Rest and type(call) is Call
    quick = ENGINE.whole_called(state, table, rest, call)
    assert quick is not None
    assert quick.score.points == (6, 0)  # the pin's 2 and the carambole's 4
    assert type(quick.checkpoint) is Redo
    undone = ENGINE.apply(quick, parse_event({"t": 3.0, "type": "call", "call": "undo"}))
    assert undone.score.points == (2, 0)
    assert undone == ENGINE.whole(state, table, rest)


def test_a_carom_call_the_contacts_counted_already_leaves_the_state_after_the_rest() -> None:
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": 40}))
    table = [parse_event({"t": 1.0, "type": "contact", "balls": ["red", "white"]}),
             parse_event({"t": 1.5, "type": "contact", "balls": ["white", "red"]})]
    rest = parse_event({"t": 2.0, "type": "rest"})
    assert type(rest) is Rest
    for raw in ({"call": "carom"}, {"call": "foul", "foul": "touch"}):
        call = parse_event({"t": 2.5, "type": "call", **raw})
        assert type(call) is Call
        quick = ENGINE.whole_called(state, table, rest, call)
        assert quick is not None
        assert msgspec.structs.replace(quick, checkpoint=None) == \
            msgspec.structs.replace(_slow(state, table, rest, call), checkpoint=None)
    carom = parse_event({"t": 2.5, "type": "call", "call": "carom"})
    assert ENGINE.whole_called(state, table, rest, carom) == ENGINE.whole(state, table, rest)


def test_an_answer_about_a_pocket_is_taken_with_its_shot_and_a_question_it_does_not_ask_is_not() -> None:
    """A shot with a ball in a pocket naming none asks "which ball?" (q1); the referee's answer on
    the line after the rest is decided with the shot, once: the red in a hole is the player's
    fault. Undone, the question is open again; an answer to a question not asked goes the slow way."""
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": 40}))
    table = [parse_event({"t": 1.0, "type": "cushion", "cushion": 2, "ball": "red"}),
             parse_event({"t": 1.2, "type": "pin", "pin": 3, "state": "down"}),
             parse_event({"t": 1.5, "type": "pocket", "pocket": 4})]
    rest = parse_event({"t": 2.0, "type": "rest"})
    assert type(rest) is Rest
    for raw, fault in (({"answer": "Red"}, True), ({"answer": "white"}, False)):
        call = parse_event({"t": 2.5, "type": "call", "call": "answer", "question": "q1", **raw})
        assert type(call) is Call
        quick = ENGINE.whole_called(state, table, rest, call)
        assert quick is not None and type(quick.checkpoint) is Redo
        slow = _slow(state, table, rest, call)
        assert msgspec.structs.replace(quick, checkpoint=None) == \
            msgspec.structs.replace(slow, checkpoint=None)
        assert quick.questions == () and (quick.score.last.faults != ()) is fault
        undone = ENGINE.apply(quick, parse_event({"t": 3.0, "type": "call", "call": "undo"}))
        assert undone == ENGINE.whole(state, table, rest) and [q.id for q in undone.questions] == ["q1"]
    for raw in ({"question": "q2", "answer": "red"}, {"question": "q1", "answer": "maybe"}):
        call = parse_event({"t": 2.5, "type": "call", "call": "answer", **raw})
        assert type(call) is Call
        assert ENGINE.whole_called(state, table, rest, call) is None


def test_a_shot_whose_pocket_line_is_logged_late_is_taken_in_one_pass_and_its_answer_with_it() -> None:
    """The recorded matches' shape: the pocket logged after the shot's later lines, with the earliest
    time. The one pass takes the shot (read in ``t`` order) where the base's way would, and the
    answer on the line after its rest with it, ending where the base's shot and the answer apart do.
    On a table that reports strikes the pocket before the ball rolled is no part of the shot (the
    base's ``_before_shot``): the one pass leaves it to the base."""
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": 100}))
    table = [parse_event({"t": 2.0, "type": "cushion", "cushion": 2, "ball": "red"}),
             parse_event({"t": 3.0, "type": "pin", "pin": 1, "state": "down"}),
             parse_event({"t": 1.0, "type": "pocket", "pocket": 2, "ball": None})]
    rest = parse_event({"t": 4.0, "type": "rest"})
    assert type(rest) is Rest
    base = ShotEngine.whole(ENGINE, state, table, rest)
    assert base is not None and [q.id for q in base.questions] == ["q1"]
    assert ENGINE.whole(state, table, rest) == base
    for answer, fault in ((True, True), ("red", True), ("White", False)):
        call = parse_event({"t": 5.0, "type": "call", "call": "answer", "question": "q1", "answer": answer})
        assert type(call) is Call
        quick = ENGINE.whole_called(state, table, rest, call)
        assert quick is not None and type(quick.checkpoint) is Redo and ENGINE.redo(quick.checkpoint) == base
        slow = ENGINE.apply(base, call)
        assert msgspec.structs.replace(quick, checkpoint=None) == \
            msgspec.structs.replace(slow, checkpoint=None)
        assert (quick.score.last.faults != ()) is fault
    struck = ENGINE.whole(state, [parse_event({"t": 0.5, "type": "strike", "ball": "red"}),
                                  parse_event({"t": 0.6, "type": "cushion", "cushion": 1, "ball": "red"})],
                          parse_event({"t": 0.8, "type": "rest"}))  # type: ignore[arg-type]
    assert struck is not None and struck.cut.strikes
    assert ENGINE.whole(struck, table, rest) == ShotEngine.whole(ENGINE, struck, table, rest)
    assert any(r.rule == "kegle.ball-falls" for r in ENGINE.whole(struck, table, rest).rulings)  # type: ignore[union-attr]
