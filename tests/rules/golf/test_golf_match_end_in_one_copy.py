"""The shot that wins a golf match (``frame_end.end_frame``) makes the state after it in one copy
where nothing was open, asked, placed or waiting before it, and that state is the one its two copies
make (they close the questions, number the asked, clear the balls waiting and put the shot's balls
placed): the same state from the same state with a question open, a ball waiting or a ball placed
before it (hypothesis: either winner and shooter, the balls left, the frame, duos, positions, the
questions asked, the shot's rulings, a log of rulings or a tuple, the stage's fields)."""

from __future__ import annotations

import msgspec
from hypothesis import event, given, settings
from hypothesis import strategies as st
from test_golf_one_event_shot import before_shot

from tablesense.events import Cushion, Rest
from tablesense.rules.golf.frame_end import end_frame
from tablesense.rules.golf.state import GolfState
from tablesense.rules.records import Question, Ruling
from tablesense.rules.shot_engine import ShotRecord

replace = msgspec.structs.replace
SIDE = st.sampled_from(["p1", "p2"])
OPEN = Question(id="q1", t=0.5, rule="golf.goal", options=("p1", "p2"))


@settings(max_examples=600, deadline=None)
@given(before_shot(), SIDE, SIDE, st.integers(0, 2),
       st.sampled_from(["question", "waiting", "placed", "all"]), st.booleans(), st.booleans(),
       st.sampled_from([None, ("p1", 0.5), ("p2", 1.5)]))
def test_a_match_won_in_one_copy_is_the_state_the_two_copies_make(
        state: GolfState, winner: str, shooter: str, more: int, opened: str, tupled: bool, rolling: bool,
        clock: tuple[str, float] | None,
) -> None:
    won = (1, state.frames_won[1] % 2) if winner == "p1" else (state.frames_won[0] % 2, 1)  # one frame to win
    pre = replace(state, questions=(), spot_wait=(), placements=(), frames_won=won, clock=clock,
                  rulings=tuple(state.rulings) if tupled else state.rulings)
    bl = (0, 2) if winner == "p1" else (3, 0)
    shot = ShotRecord(player=shooter, events=(Cushion(t=1.0, cushion=1),), rest=Rest(t=2.0))
    stage = (pre, shot, pre.cut, rolling, pre)
    new = (Ruling(1.0, "golf.goal", shooter, (("goal", "B"),)),)
    asked = pre.asked + more
    quick = end_frame(pre, new, asked, shooter, winner, bl, 2.0, (), stage)
    other = replace(pre, questions=(OPEN,) if opened in ("question", "all") else (),
                    spot_wait=((0.5, "p1", "spot0"),) if opened in ("waiting", "all") else (),
                    placements=(("p2", 1),) if opened in ("placed", "all") else ())
    general = end_frame(other, new, asked, shooter, winner, bl, 2.0, (), stage)
    assert quick.ended is not None and quick.ended == general.ended
    assert quick == general
    assert list(quick.rulings) == list(general.rulings)
    event("one copy" if asked == pre.asked else "asked: two copies")
