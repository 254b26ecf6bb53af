"""Golf's figures as a club's score sheet counts them (``tablesense.club_figures``, found by
``games.part(game, "figures")``): ``read`` the engine's state into its record, ``screens`` the
record as the screens' JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...club_figures import SIDES, Frame, GolfFigures
from .frame_end import FRAMES_TO_WIN


def read(state: Any, names: Mapping[str, str], moyennes: Mapping[str, Any]) -> GolfFigures:
    """Every frame's winner, the balls left and its turns, the frame in play; frames won."""
    frames = [Frame(n, winner, (left1, left2), turns)
              for n, (winner, (left1, left2, turns)) in enumerate(
                  zip(state.frame_winners, state.frame_ends, strict=True), start=1)]
    if not state.finished:  # the frame in play, as it stands
        frames.append(Frame(state.frame, None, (state.balls_left[0], state.balls_left[1]), state.frame_units))
    return GolfFigures(tuple(frames), (state.frames_won[0], state.frames_won[1]), 2 * FRAMES_TO_WIN - 1,
                       bool(state.duo), state.frame)


def screens(g: GolfFigures) -> dict[str, Any]:
    """The figures as the screens' JSON (``view.club``)."""
    return {"game": "golf", "best_of": g.best_of, "frames_to_win": g.frames_to_win, "frame": g.frame,
            "frames_won": dict(zip(SIDES, g.frames_won, strict=True))}
