"""A ``start`` call (who opens a golf frame; in a duo, which member) is applied in one copy of the
state (``GolfEngine._start``, its undo point set with it): the state the general steps give (the
player at the table, the members, the turn's clock, the first frame's opener, then the base's
``rule`` of ``golf.frame.opening`` or, a duo's deciding frame, ``golf.duo.deciding``, then the
undo point), or the same refusal, over made-up states (hypothesis: one against one and duos,
frames 1 to 3, a frame under way, a shot open, members by number, by name, unknown, none)."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import event, given, settings
from hypothesis import strategies as st

from tablesense.errors import IllegalCall
from tablesense.events import parse_event
from tablesense.rules import find_engine
from tablesense.rules.golf import checks
from tablesense.rules.golf.engine import _member
from tablesense.rules.golf.state import IDX, GolfState, pair_set
from tablesense.rules.records import Ruling
from tablesense.rules.shot_engine import ShotEngine

ENGINE = find_engine("golf")
replace = msgspec.structs.replace


def _general(state: GolfState, player: str, member: Any, t: float) -> Any:
    """The state after the call as the steps before the one copy made it: three copies, the ruling
    by the base's ``rule``, the undo point last; or the refusal."""
    try:
        if player not in ("p1", "p2"):
            raise IllegalCall("a 'start' call needs 'player': p1 or p2")
        if state.frame_units or state.in_shot or state.finished:
            raise IllegalCall(f"'start' comes before the first shot of a frame; "
                              f"frame {state.frame} is under way")
        members = state.members
        if state.duo:
            members = pair_set(members, player, _member(state, player, member))
        new = replace(state, at_table=player, members=members, clock=(player, t))
        if state.frame == 1:
            new = replace(new, first_opener=player, first_members=members)
        rule = "golf.duo.deciding" if checks.deciding_start(state.duo, state.frame) else "golf.frame.opening"
        if state.duo:
            new = ShotEngine.rule(new, t, rule, player, frame=state.frame, member=members[IDX[player]])
        else:
            new = ShotEngine.rule(new, t, rule, player, frame=state.frame)
        return replace(new, checkpoint=state)
    except IllegalCall as e:
        return IllegalCall, str(e)


@settings(max_examples=400, deadline=None)
@given(st.booleans(), st.integers(1, 3), st.sampled_from([0, 0, 0, 0, 0, 2]),
       st.sampled_from([False] * 5 + [True]), st.tuples(st.integers(0, 1), st.integers(0, 1)),
       st.sampled_from(["p1", "p2"]),
       st.sampled_from([None, None, 0, 1, "Cor", "Dirk", "Ann", "Bob", 2, True]), st.integers(0, 2))
def test_a_start_call_in_one_copy_is_the_state_the_general_steps_give(
        duo: bool, frame: int, units: int, in_shot: bool, members: tuple[int, int], player: str,
        member: Any, old: int) -> None:
    players = (("p1", ("Ann", "Cor")), ("p2", ("Bob", "Dirk"))) if duo else (("p1", "Ann"), ("p2", "Bob"))
    logged = GolfState().rulings + tuple(Ruling(0.1 * k, "golf.turn", "p1") for k in range(old))
    won = ((0, 0), (1, 0), (1, 1))[frame - 1]
    state = GolfState(players=players, duo=duo, frame=frame, frame_units=units,
                      in_shot=in_shot and units == 0, members=members, frames_won=won, rulings=logged)
    obj: dict[str, Any] = {"t": 7.5, "type": "call", "call": "start", "player": player}
    if member is not None:
        obj["member"] = member
    try:
        quick: Any = ENGINE.apply(state, parse_event(obj))
    except IllegalCall as e:
        quick = IllegalCall, str(e)
    general = _general(state, player, member, 7.5)
    assert quick == general
    if isinstance(quick, tuple):
        event("refused")
        return
    assert quick.checkpoint is state
    assert list(quick.rulings) == list(general.rulings)
    assert ENGINE.to_json(quick) == ENGINE.to_json(general)
    event(("duo" if duo else "single") + f", frame {frame}")
