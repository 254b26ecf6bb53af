"""A golf shot with no foul whose balls the sensors name (an own goal, the opponent's ball in a
goal or off the table, the shooter's own ball off, a double finish, the 1/1 rule), or that the
referee's answers to "whose ball?" and the opponent's ``spot`` calls complete, is counted in one
pass (``counted.counted_shot``) into the state the general way makes, over made-up states and
shots (hypothesis: cushions, goals and balls off of either ball or of none, a strike of the
shooter's ball or now and then the opponent's, a contact; answers naming either ball, nobody or
a question that is not there; spot calls for either ball; balls off the table the referee
calls, on a cushion or not; zone play, duos, a frame or the match
won, questions and balls waiting from the shot before, the shot stage's fields); a foul called
while the balls rolled that puts them back is ruled in one step (``amend.fouled_shot``) as the
general way rules it, every foul of the catalogue by its id, then the opponent's spot calls; and
every recorded golf match ends in the same states line by line with both turned off."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from paths import MATCHES
from test_golf_plain_shot import before_shot, shot_of

from tablesense.events import Call, Contact, Cushion, Goal, OffTable, Rest, Strike
from tablesense.replay import Replay
from tablesense.rules.golf import engine, resolve
from tablesense.rules.golf.amend import fouled_shot
from tablesense.rules.golf.counted import counted_shot
from tablesense.rules.golf.evidence import OFF_TABLE_FOULS
from tablesense.rules.golf.fouls import BY_ID
from tablesense.rules.golf.resolve import general
from tablesense.rules.golf.state import GolfState
from tablesense.rules.shot_engine import ShotRecord

BALL = st.sampled_from(["p1", "p2", None])


@st.composite
def counted_of(draw: Any) -> tuple[str | None, tuple[Any, ...], tuple[Call, ...]]:
    """A shooter, the shot's events (cushions, goals and balls off of any ball, at times in any
    order; a strike of the shooter's ball, now and then the opponent's; a contact now and then)
    and calls about it (answers, spots, balls off the table the referee calls)."""
    shooter = draw(st.sampled_from(["p1", "p2", None]))
    out: list[Any] = []
    for _ in range(draw(st.integers(1, 5))):
        t = draw(st.sampled_from([0.5, 1.0, 1.5, 2.0, 2.5]))  # the same t now and then
        kind = draw(st.integers(0, 19))
        if kind < 3:
            out.append(Cushion(t=t, cushion=draw(st.integers(1, 4))))
        elif kind < 12:
            out.append(Goal(t=t, goal=draw(st.sampled_from(["A", "B"])), ball=draw(BALL)))
        elif kind < 17:
            out.append(OffTable(t=t, ball=draw(BALL)))
        elif kind < 19:
            out.append(Strike(t=t, ball=draw(st.sampled_from([shooter or "p1", None, "p1", "p2"]))))
        else:
            out.append(Contact(t=t, balls=("p1", "p2")))
    calls: list[Call] = []
    for k in range(draw(st.integers(0, 3))):
        kind = draw(st.integers(0, 5))
        if kind < 2:
            calls.append(Call(t=4.5 + k, call="answer", question=f"q{draw(st.integers(1, 8))}",
                              answer=draw(BALL)))
        elif kind < 4:
            calls.append(Call(t=4.5 + k, call="spot", ball=draw(st.sampled_from(["p1", "p2"])),
                              spot=draw(st.integers(1, 5))))
        else:  # a ball off the table the referee calls, while the balls roll or after the rest
            t = draw(st.sampled_from([1.0, 2.0, 4.5 + k]))
            calls.append(Call(t=t, call="off_table", ball=draw(BALL)) if kind == 4 else
                         Call(t=t, call="foul", foul=draw(st.sampled_from(sorted(OFF_TABLE_FOULS))),
                              ball=draw(BALL)))
    return shooter, tuple(out), tuple(calls)


@settings(max_examples=800, deadline=None)
@given(before_shot(), counted_of(), st.booleans())
def test_a_shot_with_no_foul_is_counted_in_one_pass_as_the_general_way_counts_it(
    before: GolfState, played: tuple[str | None, tuple[Any, ...], tuple[Call, ...]], shares_stage: bool
) -> None:
    shooter, events, calls = played
    shot = ShotRecord(player=shooter, events=events, rest=Rest(t=4.0), calls=calls)
    stage = (before, shot, before.cut, False, before) if shares_stage else (None, None, None, True, None)
    pre = msgspec.structs.replace(before, questions=(), spot_wait=())  # the shot's start (``start_of``)
    quick = counted_shot(pre, shot, *stage)
    if quick is None:  # a foul, a contact, an answer naming no ball: the general way alone
        event("general way")
        return
    slow = general(before, shot, *stage)
    assert quick == slow
    assert list(quick.rulings) == list(slow.rulings)
    assert (quick.before, quick.shot, quick.cut, quick.in_shot, quick.checkpoint) == stage
    event("one pass: " + ("frame won" if quick.frame != before.frame or quick.ended else
                          "question asked" if quick.questions else
                          "ball waiting for its spot" if quick.spot_wait else
                          "spot named" if quick.placements else
                          "turn kept" if quick.at_table == (shooter or "p1") else "turn passes"))


#: a foul's canonical id: every foul of the catalogue, the touches most often, a ball off the table
FOULS = st.sampled_from(["golf.foul.touch"] * 6 + sorted(BY_ID) + sorted(OFF_TABLE_FOULS))


@st.composite
def fouled_of(draw: Any) -> tuple[str | None, tuple[Any, ...], tuple[Call, ...]]:
    """A shot of cushions and goals (``shot_of``), now and then one as ``counted_of`` makes them,
    its calls a foul called while the balls rolled (now and then with a count of balls), then
    spot calls, now and then a second foul."""
    shooter, events = draw(shot_of())
    if draw(st.integers(0, 3)) == 0:
        shooter, events, _ = draw(counted_of())
    foul = Call(t=0.7, call="foul", foul=draw(FOULS), extra={"balls": 2} if draw(st.booleans()) else {})
    calls = [foul]
    for k in range(draw(st.integers(0, 3))):
        if draw(st.integers(0, 5)) == 0:
            calls.append(Call(t=4.5 + k, call="foul", foul="golf.foul.push"))
        else:
            calls.append(Call(t=4.5 + k, call="spot", ball=draw(st.sampled_from(["p1", "p2"])),
                              spot=draw(st.integers(1, 5))))
    return shooter, events, tuple(calls)


@settings(max_examples=600, deadline=None)
@given(before_shot(), fouled_of(), st.booleans())
def test_a_foul_called_while_the_balls_roll_is_ruled_in_one_step_as_the_general_way_rules_it(
    before: GolfState, played: tuple[str | None, tuple[Any, ...], tuple[Call, ...]], shares_stage: bool
) -> None:
    shooter, events, calls = played
    shot = ShotRecord(player=shooter, events=events, rest=Rest(t=4.0), calls=calls)
    stage = (before, shot, before.cut, False, before) if shares_stage else (None, None, None, True, None)
    pre = msgspec.structs.replace(before, questions=(), spot_wait=())  # the shot's start (``start_of``)
    quick = fouled_shot(pre, shot, stage)
    if quick is None:  # a foul that counts a ball or adds spots, a shot not plain: the general way
        event("general way")
        return
    slow = general(before, shot, *stage)
    assert quick == slow
    assert list(quick.rulings) == list(slow.rulings)
    event("one step: " + ("spot named" if quick.placements else
                          "ball waiting for its spot" if quick.spot_wait else "no spot"))


def _states(lines: list[str]) -> list[Any]:
    """The state after each line, without the links to older states (``before``'s own fields
    kept) and with the rulings as a list."""
    rep = Replay(history=10**9)
    out = []
    for n, line in enumerate(lines, 1):
        rep.feed_line(line, n)
        state = rep.state
        if state is None:
            out.append(None)
            continue
        before = state.before
        out.append((_unlinked(state), list(state.rulings), None if before is None else _unlinked(before)))
    out.append([str(e) for e in rep.errors])
    return out


def _unlinked(state: Any) -> Any:
    return msgspec.structs.replace(state, before=None, checkpoint=None)


GOLF = sorted((MATCHES / "golf").glob("*.jsonl"))


@pytest.mark.parametrize("path", GOLF, ids=lambda p: p.stem)
def test_a_recorded_golf_match_passes_through_the_same_states_without_the_one_passes(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    fast = _states(lines)
    whole = Replay().feed_lines(lines).to_json()  # the shots taken whole (``GolfEngine.whole``)
    monkeypatch.setattr(resolve, "counted_shot", lambda *args: None)
    monkeypatch.setattr(engine, "counted_shot", lambda *args: None)
    monkeypatch.setattr(resolve, "fouled_shot", lambda *args: None)
    assert _states(lines) == fast
    assert Replay().feed_lines(lines).to_json() == whole
