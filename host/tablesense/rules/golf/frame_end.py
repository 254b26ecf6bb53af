"""The state after a golf shot that won a frame: the frame's winner, the next frame racked and
its opener, or the match over (seeds/golf.md, "How you win"). Every way a shot is resolved
ends here when it wins a frame (``resolve.plain``, ``counted.counted``, ``resolve``'s general
path)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from ...shots import Cutter
from ..base import Ruling
from ..records import Ended
from ..ruling_log import RulingLog, made
from ..shot_engine import ShotRecord
from .geometry import BALLS_PER_PLAYER
from .state import GolfState

replace = msgspec.structs.replace

FRAMES_TO_WIN = 2
_RACKED = (BALLS_PER_PLAYER, BALLS_PER_PLAYER)  # a new frame's balls


def _logged(log: Any, new: Sequence[Ruling], t: float, winner: str, frame: int, score: str,
            opener: str | None) -> Any:
    """``log`` and the frame's rulings after it (``_ends``): made only when read (``made``) on a
    ``RulingLog``, else ``log + them``."""
    if type(log) is RulingLog:
        return made(log, len(new) + 2, [_ends, tuple(new), t, winner, frame, score, opener])
    return log + _ends(tuple(new), t, winner, frame, score, opener)


def _ends(new: tuple[Ruling, ...], t: float, winner: str, frame: int, score: str,
          opener: str | None) -> tuple[Ruling, ...]:
    """The rulings of a shot that won frame ``frame``: the shot's (``new``), the frame to ``winner``
    (the score ``score`` picks the sentence), then the match to them (``opener`` None) or the
    next frame's opening by ``opener``."""
    won = Ruling(t=t, rule="golf.frame.won", player=winner, data=(("frame", frame), ("what", score)))
    if opener is None:
        return (*new, won, Ruling(t=t, rule="golf.match.won", player=winner, data=(("what", score),)))
    return (*new, won, Ruling(t=t, rule="golf.frame.opening", player=opener,
                              data=(("frame", frame + 1), ("what", "second" if frame == 1 else "deciding"))))


def end_frame(pre: GolfState, new: Sequence[Ruling], asked: int, shooter: str, winner: str,
              bl: tuple[int, int], t: float, placements: tuple[tuple[str, int], ...],
              stage: tuple[Any, ShotRecord | None, Cutter, bool, Any], since: Any = None) -> GolfState:
    """The state after a shot that won a frame (``new``: the shot's rulings so far, handed over;
    ``asked``: the questions numbered; ``stage``: the shot stage's fields of the state after it;
    ``since``: None, or the events since the base of a played state, put in the same copy:
    ``played.whole_played``); its rulings made only when read (``_logged``)."""
    stage_before, stage_shot, cut, in_shot, checkpoint = stage
    fw = pre.frames_won
    fw = (fw[0] + 1, fw[1]) if winner == "p1" else (fw[0], fw[1] + 1)
    won = fw[0] if winner == "p1" else fw[1]
    score = f"{fw[0]}-{fw[1]}"
    frame = pre.frame
    frame_winners = (*pre.frame_winners, winner)
    frame_ends = (*pre.frame_ends, (bl[0], bl[1], pre.frame_units + 1))
    log = pre.rulings  # (``_logged``, inline where it is a ``RulingLog``: made only when read)
    if won >= FRAMES_TO_WIN:  # (``rule.match_won``, inline)
        # the match is over: at the table stays whoever played the deciding shot (the
        # winner, or the loser whose shot gave the winner the frame: docs/events.md's example)
        ended = Ended(rule="golf.match.won", winner=winner, data=(("score", score),))
        rulings = made(log, len(new) + 2, [_ends, tuple(new), t, winner, frame, score, None]) \
            if type(log) is RulingLog else _logged(log, new, t, winner, frame, score, None)
        if not pre.questions and asked == pre.asked and not placements and not pre.placements \
                and not pre.spot_wait:
            # nothing open, asked, placed or waiting before it: one copy (fourteen fields given)
            if since is None:
                return replace(pre, ended=ended, at_table=shooter, rulings=rulings, checkpoint=checkpoint,
                               in_shot=in_shot, cut=cut, before=stage_before, shot=stage_shot, balls_left=bl,
                               frames_won=fw, frame_units=pre.frame_units + 1, clock=None,
                               frame_winners=frame_winners, frame_ends=frame_ends)
            if pre.in_shot == in_shot:  # (a played shot's links: ``since`` given, ``in_shot`` as it was)
                return replace(pre, ended=ended, at_table=shooter, rulings=rulings, checkpoint=checkpoint,
                               since=since, cut=cut, before=stage_before, shot=stage_shot, balls_left=bl,
                               frames_won=fw, frame_units=pre.frame_units + 1, clock=None,
                               frame_winners=frame_winners, frame_ends=frame_ends)
        # (two copies: a call of 15 keywords or more is compiled through a dict, dearer than the copy)
        return replace(
            replace(pre, questions=(), asked=asked, placements=placements, spot_wait=(),
                    since=pre.since if since is None else since),
            ended=ended, rulings=rulings, frame_units=pre.frame_units + 1,
            frames_won=fw, balls_left=bl, at_table=shooter, clock=None,
            frame_winners=frame_winners, frame_ends=frame_ends,
            before=stage_before, shot=stage_shot, cut=cut, in_shot=in_shot, checkpoint=checkpoint,
        )
    opener = pre.first_opener  # (``rule.opener``, inline: frame 2 is opened by the other player)
    members = pre.first_members
    if frame == 1:
        opener = "p2" if opener == "p1" else "p1"
        members = (1 - members[0], 1 - members[1])
    # a new frame: balls waiting for a replacement spot are racked with the rest
    # (two copies: a call of 15 keywords or more is compiled through a dict, dearer than the copy)
    # (a played shot's links: ``since`` in the first copy; a new frame is rare, one keyword more is nothing)
    racked = replace(pre, questions=(), asked=asked, frame_units=0, placements=placements, spot_wait=(),
                     balls_left=_RACKED, zone_play=False, positions=None, turn_positions=None,
                     placed=(None, None), fouled_from=((), ()), since=pre.since if since is None else since)
    return replace(
        racked,
        rulings=made(log, len(new) + 2, [_ends, tuple(new), t, winner, frame, score, opener])
        if type(log) is RulingLog else _logged(log, new, t, winner, frame, score, opener),
        frame=frame + 1, frames_won=fw,
        at_table=opener, members=members,
        clock=(opener, t), frame_winners=frame_winners, frame_ends=frame_ends,
        before=stage_before, shot=stage_shot, cut=cut, in_shot=in_shot, checkpoint=checkpoint,
    )
