"""A played golf shot of cushions and the shooter's valid goals (``played._scored``: the turn kept,
the played links in its one copy of the state) gives the state ``ShotEngine.whole_played`` gives,
links and all, over made-up played states and shots (hypothesis: one to three goals at times in
order or not, the same time too, now and then a goal of the other ball, into the other goal or of a
ball no sensor named; the shooter's last ball, more goals than balls in play, zone play starting or
on; one against one and duos, positions and balls placed before the shot, a rest with positions, a
table that reports strikes, a shot open, the states before the shots eight deep and more, the events
since the base shared or not, near ``KEEP_EVERY``)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from test_golf_one_event_shot import before_shot
from test_golf_played_shot_in_one_copy import _played, played_both

from tablesense.events import Cushion, Goal, Rest
from tablesense.rules.golf.engine import GolfEngine
from tablesense.rules.golf.geometry import ATTACKS
from tablesense.rules.golf.state import GolfState
from tablesense.rules.shot_engine import KEEP_EVERY


@st.composite
def a_goal_shot(draw: Any) -> tuple[GolfState, list[Any], Rest]:
    """A state before a shot, and a shot of one to three cushions then one to three goals of the
    shooter (the player at the table, or p1) into the goal it attacks, now and then another goal
    among them; the rest (with positions now and then)."""
    state = draw(before_shot())
    s = state.at_table or "p1"
    events: list[Any] = [Cushion(t=1.0 + 0.1 * k, cushion=draw(st.integers(1, 4)))
                         for k in range(draw(st.integers(1, 3)))]
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.sampled_from([1.5, 1.6, 1.7, 1.55]))
        odd = draw(st.integers(0, 9))
        if odd == 0:  # the other ball, or another goal, or a ball no sensor named
            ball = draw(st.sampled_from(["p1", "p2", None]))
            events.append(Goal(t=at, goal=draw(st.sampled_from(["A", "B"])), ball=ball))
        else:
            events.append(Goal(t=at, goal=ATTACKS[s], ball=s))
    rest = Rest(t=draw(st.sampled_from([4.0, 4.0, 4.0, 4])),
                positions={"p1": [[0.2, 0.3]], "p2": []} if draw(st.integers(0, 7)) == 0 else None)
    return state, events, rest


@settings(max_examples=1000, deadline=None)
@given(a_goal_shot(), st.sampled_from([0, 1, 5, KEEP_EVERY - 8, KEEP_EVERY - 5]), st.booleans(),
       st.sampled_from([0, 1, 4, 7, 8, 9]))
def test_a_played_shot_of_the_shooters_goals_in_one_copy_is_the_state_the_base_gives(
        shot: tuple[GolfState, list[Any], Rest], n: int, shared: bool, depth: int) -> None:
    state, events, rest = shot
    quick = played_both(state, events, rest, n, shared, depth)
    if quick is None:
        return
    s = state.at_table or "p1"
    kept = quick.at_table == s and quick.frame == state.frame and not quick.questions
    event("the turn kept, zone play starting" if kept and quick.zone_play and not state.zone_play
          else "the turn kept" if kept else "the frame won, or a goal not the shooter's")


def test_a_played_shot_of_the_shooters_goal_takes_the_one_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The common shot of a played match, two cushions and the shooter's goal, is made without
    ``whole``'s steps, and the ball is counted."""
    engine = GolfEngine()
    base = GolfState(players=(("p1", "Ann"), ("p2", "Bob")))
    state = _played(GolfState(players=base.players, at_table="p1"), base, 3, False, 0)

    def no_steps(*args: Any) -> None:
        raise AssertionError("whole's steps taken")

    monkeypatch.setattr(GolfEngine, "steps", no_steps)
    new = GolfEngine.whole_played(engine, state, [Cushion(t=1.0, cushion=1), Cushion(t=1.2, cushion=3),
                                                  Goal(t=1.5, goal=ATTACKS["p1"], ball="p1")], Rest(t=3.0))
    assert new is not None and new.at_table == "p1"
    assert new.balls_left == (state.balls_left[0] - 1, state.balls_left[1])
    assert [r.rule for r in new.rulings][-1] == "golf.goal"
    assert len(new.since) == 3 + 4
