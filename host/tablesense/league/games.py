"""What a competition reads of a match: pure, no I/O. Each game's own reading is its league
part (``rules/<game>/league.py``, ``part.of``); this module asks it.

The league replays a log itself (``matchlog.replay_match``: the engine's final state and the
score sheet's figures, inning by inning, series by series, frame by frame) and reads the
result from that replay, never from what a pub reports:

- carom: caroms, innings, targets, high runs, the winner; under a scheme with an innings cap
  the match as it stood at the end of that inning (the higher share of the target wins);
- golf: frames won, balls scored (five less the balls left, frame by frame), who opened each
  frame (golf.frame.opening, golf.duo.opening), the winner (golf.match.won);
- keglebillard: points scored, series played, the distances, the highest series, the
  winner or a tie (kegle.same-series, kegle.draw).

``score`` gives the result its points under the competition's scheme; ``check_entry`` says
why a result does not belong in a competition (a kampioen target below 20, a keglebillard
distance that is not the player's, players of two groups). ``reported_by_engine`` is what the
pub's engine computed, for comparing with what the pub reports. A result entered by hand is
the game's ``by_hand`` (golf: ``frames_by_hand``, keglebillard: ``points_by_hand``).
"""

from __future__ import annotations

from typing import Any

from .. import games
from ..errors import IllegalCall
from . import part
from .matchlog import NotACompetitionMatch, ReplayedMatch
from .part import of as _part
from .scheme import Scheme
from .standings import Player, Result

SIDES = ("p1", "p2")


def reported_by_engine(match: ReplayedMatch) -> dict[str, Any]:
    """The engine's own figures of the keys the game reports (each pair as ``[p1, p2]``)."""
    out: dict[str, Any] = {}
    for key in _part(match.game).REPORTED if _has_league(match.game) else ("winner",):
        value = match.final.get(key)
        if isinstance(value, dict):
            value = [value.get("p1"), value.get("p2")]
        out[key] = value
    return out


def _has_league(game: str) -> bool:
    return game in part.names()


def side_name(value: Any) -> str:
    """A side of the log as one name (a duo's two names joined with " & ")."""
    return " & ".join(str(v) for v in value) if isinstance(value, (list, tuple)) else str(value)


def read(match: ReplayedMatch, scheme: Scheme | None = None, source: str = "",
         barrage: bool = False) -> Result:
    """The result of a replayed match, before its points (``score``); ``NotACompetitionMatch``
    says why a log is no result (not finished, one player a side in carom ...)."""
    if not _has_league(match.game):
        *first, last = games.names()
        raise NotACompetitionMatch(f"the log is a {match.game} match; the league reads {', '.join(first)} "
                                   f"and {last}")
    result: Result = _part(match.game).read(match, scheme, source, barrage)
    return result


def pair(out: dict[str, Any], key: str) -> tuple[int, int]:
    """A figure of the engine's state as a pair (p1, p2); one number for both."""
    value = out.get(key) or {}
    if isinstance(value, dict):
        return (int(value.get("p1", 0)), int(value.get("p2", 0)))
    return (int(value), int(value))


def score(result: Result, scheme: Scheme, players: tuple[Player, Player] | None = None) -> Result:
    """The result with its points under ``scheme`` (carom: and the bonus for beating one's
    moyenne, ``players`` giving the moyennes)."""
    scored: Result = _part(result.game).score(result, scheme, players)
    return scored


def check_entry(profile: str, scheme: Scheme, result: Result, p1: Player, p2: Player) -> None:
    """Why ``result`` between the members ``p1`` and ``p2`` does not belong in the competition
    (``IllegalCall``, one line); nothing when it does."""
    if p1.group != p2.group:
        raise IllegalCall(f"{p1.name} plays in group {p1.group or '-'} and {p2.name} in {p2.group or '-'}: "
                          "a group's players play each other")
    _part(result.game).check_entry(profile, scheme, result, p1, p2)


def members_text(p: Player) -> str:
    return f"{p.name} ({' & '.join(p.members)})" if p.members else p.name
