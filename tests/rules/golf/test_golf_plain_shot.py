"""A plain golf shot (cushions, the shooter's valid goals or none; no call, no late drop, no
positions) ruled in one pass (``resolve.plain``) gets the state the general resolution gives,
over made-up states and shots (hypothesis): the turn passing (a duo's member too), goals
keeping it, zone play starting, the last ball winning the frame, the second frame or the match,
the shot stage's fields put in the same copy, questions and balls waiting from the shot before."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import event, given, settings
from hypothesis import strategies as st

from tablesense.events import Call, Cushion, Goal, Rest
from tablesense.rules.golf.resolve import plain, staged
from tablesense.rules.golf.state import GolfState
from tablesense.rules.records import Question, Ruling
from tablesense.rules.shot_engine import ShotRecord

BALL = st.sampled_from(["p1", "p2"])
SHOOTER = st.sampled_from(["p1", "p2", None])  # None: a unit with no player names p1


@st.composite
def before_shot(draw: Any) -> GolfState:
    duo = draw(st.booleans())
    players = (("p1", ("Ann", "Cor")), ("p2", ("Bob", "Dirk"))) if duo else (("p1", "Ann"), ("p2", "Bob"))
    balls = (draw(st.integers(1, 5)), draw(st.integers(1, 5)))  # a frame with a side out is over
    frame = draw(st.integers(1, 3))
    won = {1: (0, 0), 2: draw(st.sampled_from([(1, 0), (0, 1)])), 3: (1, 1)}[frame]
    waiting = draw(st.booleans())
    return GolfState(
        players=players, duo=duo, balls_left=balls, frame=frame, frames_won=won,
        zone_play=draw(st.booleans()) or 1 in balls, at_table=draw(BALL),
        first_opener=draw(BALL), first_members=(draw(st.integers(0, 1)), draw(st.integers(0, 1))),
        members=(draw(st.integers(0, 1)), draw(st.integers(0, 1))), frame_units=draw(st.integers(0, 30)),
        asked=draw(st.integers(0, 3)), placed=(draw(st.sampled_from([None, 1, 4])), None),
        rulings=GolfState().rulings + tuple(Ruling(t=0.1 * k, rule="golf.turn", player="p1")
                                            for k in range(draw(st.integers(0, 3)))),
        questions=(Question(id="q1", t=0.5, rule="golf.goal", options=("p1", "p2")),) if waiting else (),
        spot_wait=((0.5, "p1", "spot0"),) if waiting and draw(st.booleans()) else (),
    )


@st.composite
def shot_of(draw: Any) -> tuple[str | None, tuple[Any, ...]]:
    """The shooter and the shot's cushions and goals at times in any order: the shooter's valid
    goals most often, now and then an own goal, the opponent's ball or a ball no sensor named
    (which the one pass leaves to the general way)."""
    shooter = draw(SHOOTER)
    attack = "A" if shooter == "p2" else "B"
    out: list[Any] = []
    for _ in range(draw(st.integers(0, 4))):
        t = draw(st.floats(0.0, 3.0))
        kind = draw(st.integers(0, 5))
        if kind < 2:
            out.append(Cushion(t=t, cushion=draw(st.integers(1, 4))))
        elif kind < 5:
            out.append(Goal(t=t, goal=attack, ball=shooter or "p1"))
        else:
            out.append(Goal(t=t, goal=draw(st.sampled_from(["A", "B"])),
                            ball=draw(st.sampled_from(["p1", "p2", None]))))
    return shooter, tuple(out) or (Cushion(t=0.5, cushion=1),)


@settings(max_examples=500, deadline=None)
@given(before_shot(), shot_of(), st.booleans())
def test_golf_plain_shot_is_ruled_as_the_general_way_rules_it(
    before: GolfState, played: tuple[str | None, tuple[Any, ...]], shares_stage: bool
) -> None:
    shooter, shot_events = played
    rest = Rest(t=4.0)
    shot = ShotRecord(player=shooter, events=shot_events, rest=rest)
    stage = (before, shot, before.cut, False, before) if shares_stage else (None, None, None, True, None)
    pre = msgspec.structs.replace(before, questions=(), spot_wait=())  # the shot's start (``start_of``)
    quick = plain(pre, shot, *stage)
    if quick is None:  # not a plain shot: the general way alone rules it
        return
    # the general way, made to take the shot: an answer to no question changes nothing else
    general = staged(before, ShotRecord(player=shooter, events=shot_events, rest=rest,
                                        calls=(Call(t=4.5, call="answer", question="q99"),)), *stage)
    assert quick == general
    assert list(quick.rulings) == list(general.rulings)
    assert (quick.before, quick.shot, quick.cut, quick.in_shot, quick.checkpoint) == stage
    event("plain: " + ("frame won" if quick.frame != before.frame or quick.ended else
                       "zone play starts" if quick.zone_play and not before.zone_play else
                       "goal" if quick.at_table == (shooter or "p1") else "turn passes"))
