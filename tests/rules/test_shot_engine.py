"""The shot stage's base (``tablesense.rules.shot_engine``) with a small engine of its own:
one point per cushion of a shot, resolved at the rest; a late pin adds one; a ``bonus``
call about the shot adds ten; undo goes back a shot or a call."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from paths import TESTS

from tablesense.errors import IllegalCall
from tablesense.events import Call, Cushion, Pin, Rest, Setup
from tablesense.rules.shot_engine import AMEND, MatchState, ShotEngine, ShotRecord
from tablesense.shots import Cutter


class CountState(MatchState, frozen=True, kw_only=True, gc=False):
    points: int = 0
    shots: int = 0
    closed: int = 0


class CountEngine(ShotEngine[CountState]):
    game = "count"

    def new_state(self, setup: Setup) -> CountState:
        return CountState(game="count", cut=Cutter(game="kegle"))

    def resolve(self, before: CountState, shot: ShotRecord) -> CountState:
        n = sum(isinstance(e, Cushion) for e in shot.events) + len(shot.late)
        n += 10 * sum(c.call == "bonus" for c in shot.calls)
        state = msgspec.structs.replace(before, points=before.points + n, shots=before.shots + 1)
        if before.points + n >= 30:
            state = self.end(state, "p1", "count.target", points=before.points + n)
        return self.rule(state, shot.t, "count.shot", "p1", points=n)

    def close(self, state: CountState) -> CountState:
        return msgspec.structs.replace(state, closed=state.closed + 1)

    def call(self, state: CountState, call: Call) -> Any:
        if call.call == "bonus":
            return AMEND
        return super().call(state, call)


def play(*events: Any) -> CountState:
    engine = CountEngine()
    state = engine.new_state(Setup(t=0.0, game="golf", players={"p1": "Ann", "p2": "Bob"}))
    for e in events:
        state = engine.apply(state, e)
    return state


def test_a_shot_is_resolved_at_its_rest_and_shown_live_before() -> None:
    engine = CountEngine()
    state = play(Cushion(t=1.0, cushion=1), Cushion(t=1.2, cushion=2))
    assert state.points == 0 and state.in_shot
    assert engine.live(state).points == 2
    state = engine.apply(state, Rest(t=2.0))
    assert (state.points, state.shots, state.in_shot) == (2, 1, False)
    assert [r.rule for r in state.rulings] == ["count.shot"]


def test_a_late_settle_and_a_call_resolve_the_shot_again_from_before() -> None:
    state = play(Cushion(t=1.0, cushion=1), Rest(t=2.0), Pin(t=2.1, pin=3, state="down"))
    assert state.points == 2 and state.shots == 1
    state = CountEngine().apply(state, Call(t=3.0, call="bonus"))
    assert state.points == 12 and state.shots == 1
    assert len(state.rulings) == 1  # the shot's ruling made again, not added to


def test_undo_takes_back_a_call_then_a_shot() -> None:
    engine = CountEngine()
    state = play(Cushion(t=1.0, cushion=1), Rest(t=2.0), Call(t=3.0, call="bonus"))
    state = engine.apply(state, Call(t=4.0, call="undo"))
    assert state.points == 1
    state = engine.apply(state, Call(t=4.5, call="undo"))
    assert state.points == 0 and state.shots == 0


def test_the_next_shot_closes_the_last_one() -> None:
    state = play(Cushion(t=1.0, cushion=1), Rest(t=2.0), Cushion(t=5.0, cushion=2), Rest(t=6.0))
    assert (state.points, state.shots, state.closed) == (2, 2, 1)


def test_the_end_says_why_and_refuses_more_shots() -> None:
    engine = CountEngine()
    state = play(Cushion(t=1.0, cushion=1), Rest(t=2.0), Call(t=2.5, call="bonus"),
                 Call(t=2.6, call="bonus"), Call(t=2.7, call="bonus"))
    assert state.finished and state.winner == "p1"
    assert engine.to_json(state)["ended"] == {"rule": "count.target", "winner": "p1", "points": 31}
    assert engine.apply(state, Rest(t=9.0)) is state
    with pytest.raises(IllegalCall, match="the match is over"):
        engine.apply(state, Cushion(t=10.0, cushion=1))


def test_an_unknown_call_is_refused() -> None:
    with pytest.raises(IllegalCall, match="unknown call"):
        play(Call(t=1.0, call="nonsense"))


def test_in_shot_is_the_cutters_in_shot_after_every_event_of_every_recorded_match() -> None:
    """The base's hot path trusts ``state.in_shot`` for the cut's ``Role.PLAY``."""

    from tablesense.replay import Replay

    logs = sorted((TESTS / "matches").glob("*/*.jsonl"))
    checked = 0
    for log in logs:
        rep = Replay()
        for line in log.read_text(encoding="utf-8").splitlines():
            if rep.feed_line(line, 0) and rep.state is not None:
                assert rep.state.in_shot == rep.state.cut.in_shot, (log.name, line)
                checked += 1
    assert checked > 1000
