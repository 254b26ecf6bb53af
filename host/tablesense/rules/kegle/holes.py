"""A ball in a hole in a keglebillard shot: which ball fell, and where a pocketed white goes.

A pocket event that names no ball asks the referee "which ball fell in pocket N?"
(``ask_pockets``, kegle.fault.red-in-hole's question, numbered on from the state's
``asked``); his answers are read back by the pocket event's index in the shot
(``answers``). A white in a hole goes back on a spot (``white_spot``, seed 9.1, 9.3).
Both decisions of a shot use these (``verdict.settle_general``, ``plain.plain_shot``) and
the live view of a shot in progress (``verdict.live``).
"""

from __future__ import annotations

from typing import Any

import msgspec

from ...events import Call, Pocket
from ..records import Question
from ..shot_engine import ShotRecord
from . import geometry as geo
from .fouls import RED_IN_HOLE
from .names import POCKET_OPTIONS, pocket_ball
from .state import KegleState

replace = msgspec.structs.replace


def unknown_pockets(shot: ShotRecord) -> list[tuple[int, Pocket]]:
    """The shot's pocket events that name no ball, with their index in ``shot.events``."""
    return [(i, e) for i, e in enumerate(shot.events) if type(e) is Pocket and e.ball is None]


#: the questions a shot with no call answers
_NONE: frozenset[str] = frozenset()


def ask_pockets(state: KegleState, unknown: list[tuple[int, Pocket]], calls: tuple[Call, ...],
                player: str | None) -> KegleState:
    """``state`` (with no questions) asking about each pocket event of the shot that names no ball
    ("which ball fell in pocket N?"), numbered on from ``state.asked``; the answered ones left out
    (of the state's questions too). One copy of the state: ``ShotEngine.ask`` of each question, then
    the answered ones taken out again, written out (``tests/rules/kegle/test_kegle_ask_pockets.py``
    holds the two equal)."""
    if not unknown:
        return state
    answered = {c.question for c in calls if c.call == "answer"} if calls else _NONE
    n = state.asked
    asked: list[Question] = []
    for i, e in unknown:
        n += 1
        qid = f"q{n}"
        if qid not in answered:
            asked.append(Question(id=qid, t=e.t, rule=RED_IN_HOLE, options=POCKET_OPTIONS, player=player,
                                  data=(("what", "which-ball"), ("pocket", e.pocket), ("index", i))))
    questions = state.questions
    if answered and questions:
        questions = tuple(q for q in questions if q.id not in answered)
    return replace(state, questions=(*questions, *asked), asked=n)


def answers(before: KegleState, unknown: list[tuple[int, Pocket]],
             calls: tuple[Call, ...]) -> dict[int, str]:
    """The referee's answers about the shot's pocket events: event index -> ball."""
    by_id = {c.question: c.answer for c in calls if c.call == "answer"} if unknown else None
    if not by_id:
        return {}
    out: dict[int, str] = {}
    for n, (i, _) in enumerate(unknown, start=before.asked + 1):
        answer = by_id.get(f"q{n}")
        if answer is not None:
            out[i] = pocket_ball(answer)
    return out


def _balls(positions: dict[str, Any], prefix: str) -> list[tuple[float, float]]:
    """Where the balls named ``prefix`` lie (``white`` also finds ``white1``, ``white_2``...)."""
    return [xy for name, at in positions.items() if name.startswith(prefix) for xy in geo.ball_points(at)]


def white_spot(positions: dict[str, Any]) -> dict[str, Any]:
    """Seed 9.1, 9.3, kegle.white-in-hole: where a pocketed white goes, the spot in the half the
    other white is not in (on the middle line: the half opposite the red)."""
    whites = _balls(positions, "white")
    if len(whites) != 1:
        return {}
    reds = _balls(positions, "red")
    red = reds[0] if len(reds) == 1 else None
    side = geo.half(whites[0][0])
    if side == "middle":  # 9.3: the other white on the middle line: the spot in the half opposite the red
        if red is None or geo.half(red[0]) == "middle":
            return {}
        spot = geo.opposite(geo.half(red[0]))
    else:
        spot = geo.opposite(side)
    out: dict[str, Any] = {"spot": spot}
    if red is not None:
        sx, sy = geo.WHITE_SPOTS[spot]
        if (red[0] - sx) ** 2 + (red[1] - sy) ** 2 < geo.BALL_DIAMETER ** 2:
            out["spot_taken"] = True  # 9.1: the player may ask for a new outlay
    return out
