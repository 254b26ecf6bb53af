"""What a competition reads of a match, game by game: pure, no I/O.

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
pub's engine computed, for comparing with what the pub reports.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..errors import IllegalCall
from ..rules.golf.geometry import BALLS_PER_PLAYER
from .matchlog import NotACompetitionMatch, ReplayedMatch
from .scheme import Scheme
from .standings import Player, Result, check_minimum

SIDES = ("p1", "p2")
#: the figures of the engine's final state a pub reports and the league compares, per game
REPORTED = {"carom": ("winner", "caroms", "innings", "targets"), "golf": ("winner", "frames_won"),
            "kegle": ("winner", "points", "series", "targets")}


def reported_by_engine(match: ReplayedMatch) -> dict[str, Any]:
    """The engine's own figures of the keys the game reports (each pair as ``[p1, p2]``)."""
    out: dict[str, Any] = {}
    for key in REPORTED.get(match.game, ("winner",)):
        value = match.final.get(key)
        if isinstance(value, dict):
            value = [value.get("p1"), value.get("p2")]
        out[key] = value
    return out


def side_name(value: Any) -> str:
    """A side of the log as one name (a duo's two names joined with " & ")."""
    return " & ".join(str(v) for v in value) if isinstance(value, (list, tuple)) else str(value)


def read(match: ReplayedMatch, scheme: Scheme | None = None, source: str = "",
         barrage: bool = False) -> Result:
    """The result of a replayed match, before its points (``score``); ``NotACompetitionMatch``
    says why a log is no result (not finished, one player a side in carom ...)."""
    reader = {"carom": _carom, "golf": _golf, "kegle": _kegle}.get(match.game)
    if reader is None:
        raise NotACompetitionMatch(f"the log is a {match.game} match; the league reads golf, kegle and carom")
    return reader(match, scheme, source, barrage)


def _pair(out: dict[str, Any], key: str) -> tuple[int, int]:
    value = out.get(key) or {}
    if isinstance(value, dict):
        return (int(value.get("p1", 0)), int(value.get("p2", 0)))
    return (int(value), int(value))


def _carom(match: ReplayedMatch, scheme: Scheme | None, source: str, barrage: bool) -> Result:
    out = match.final
    names = match.players
    for p in SIDES:
        if not isinstance(names.get(p), str):
            raise NotACompetitionMatch("a competition match has one player a side")
    cap = scheme.innings_cap if scheme is not None else None
    caroms, innings, targets, high = (_pair(out, k) for k in ("caroms", "innings", "targets", "high_run"))
    winner = out.get("winner")
    limit = out.get("innings_limit")
    if out["finished"] and limit is not None and cap is not None and limit < cap \
            and all(c < t for c, t in zip(caroms, targets, strict=True)):
        raise NotACompetitionMatch(f"the match ended at its innings limit of {limit} (carom.innings-limit); "
                                   f"this competition's matches are played to {cap} innings")
    if out["finished"] and (cap is None or max(innings) <= cap):
        pass
    elif cap is not None and min(innings) >= cap:
        caroms, high = _at_inning(match, cap)
        innings = (cap, cap)
        winner = _by_share(caroms, targets)
    else:
        said = f" (innings cap {cap}: {innings[0]} and {innings[1]} innings played)" if cap else ""
        raise NotACompetitionMatch(f"the match in the log is not finished{said}")
    return Result(names["p1"], names["p2"], caroms, innings, targets, str(winner), (0, 0), high, barrage,
                  source, game="carom")


def _at_inning(match: ReplayedMatch, cap: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """Each player's caroms after his inning ``cap`` and his high run up to it (the score sheet)."""
    figures = match.figures.carom if match.figures is not None else None
    if figures is None:
        raise NotACompetitionMatch("the log's innings cannot be read inning by inning")
    made, high = [], []
    for player in figures.players:
        innings = [i for i in player.innings if i.number <= cap and not i.playing]
        if not innings or innings[-1].number != cap:
            raise NotACompetitionMatch(f"{player.name}'s inning {cap} cannot be read from the log")
        made.append(innings[-1].total)
        high.append(max(i.run for i in innings))
    return (made[0], made[1]), (high[0], high[1])


def _by_share(caroms: tuple[int, int], targets: tuple[int, int]) -> str:
    """At an innings cap nobody reached his target: the higher share of it wins."""
    left, right = caroms[0] * targets[1], caroms[1] * targets[0]
    return "draw" if left == right else ("p1" if left > right else "p2")


def _golf(match: ReplayedMatch, scheme: Scheme | None, source: str, barrage: bool) -> Result:
    out = match.final
    if not out["finished"]:
        raise NotACompetitionMatch("the match in the log is not finished "
                                   "(golf.match.won: two winning frames)")
    figures = match.figures.golf if match.figures is not None else None
    balls = [0, 0]
    for frame in (figures.frames if figures is not None else ()):
        for i in range(2):
            balls[i] += BALLS_PER_PLAYER - frame.balls_left[i]
    names = match.players
    return Result(side_name(names["p1"]), side_name(names["p2"]), (0, 0), (0, 0), (0, 0), str(out["winner"]),
                  (0, 0), barrage=barrage, source=source, game="golf", frames=_pair(out, "frames_won"),
                  balls=(balls[0], balls[1]), openers=_openers(out))


def _openers(out: dict[str, Any]) -> tuple[str, ...]:
    """Who opened each frame: the seed's order (golf.frame.opening: the other player opens frame
    2; golf.duo.deciding / golf.frame.opening for a deciding frame), from the engine's rulings."""
    later = [r.get("player") for r in out.get("rulings", ())
             if r.get("rule") in ("golf.frame.opening", "golf.duo.opening", "golf.duo.deciding")
             and r.get("player") in SIDES]
    if not later:
        return ()
    first = "p2" if later[0] == "p1" else "p1"
    return (first, *later)


def _kegle(match: ReplayedMatch, scheme: Scheme | None, source: str, barrage: bool) -> Result:
    out = match.final
    if not out["finished"]:
        raise NotACompetitionMatch("the match in the log is not finished (kegle.same-series)")
    names = match.players
    for p in SIDES:
        if not isinstance(names.get(p), str):
            raise NotACompetitionMatch("a competition match has one player a side")
    figures = match.figures.kegle if match.figures is not None else None
    highest = (figures.players[0].highest, figures.players[1].highest) if figures is not None else (0, 0)
    return Result(names["p1"], names["p2"], (0, 0), (0, 0), _pair(out, "targets"), str(out["winner"]), (0, 0),
                  barrage=barrage, source=source, game="kegle", scored=_pair(out, "points"),
                  series=_pair(out, "series"), highest=highest)


def score(result: Result, scheme: Scheme, players: tuple[Player, Player] | None = None) -> Result:
    """The result with its points under ``scheme`` (carom: and the bonus for beating one's
    moyenne, ``players`` giving the moyennes)."""
    if result.game == "carom":
        points = scheme.carom_points(result.winner, result.caroms, result.targets)
        bonus = (0, 0)
        if players is not None:
            bonus = scheme.carom_bonus(result.winner, result.caroms, result.innings,
                                       (players[0].moyenne, players[1].moyenne))
        return replace(result, points=(points[0] + bonus[0], points[1] + bonus[1]), bonus=bonus)
    return replace(result, points=scheme.result_points(result.winner, result.frames))


def check_entry(profile: str, scheme: Scheme, result: Result, p1: Player, p2: Player) -> None:
    """Why ``result`` between the members ``p1`` and ``p2`` does not belong in the competition
    (``IllegalCall``, one line); nothing when it does."""
    if p1.group != p2.group:
        raise IllegalCall(f"{p1.name} plays in group {p1.group or '-'} and {p2.name} in {p2.group or '-'}: "
                          "a group's players play each other")
    if result.game == "carom":
        check_minimum(profile, p1.name, p2.name, result.targets)
        if scheme.innings_cap is not None and min(result.innings) > scheme.innings_cap:
            raise IllegalCall(f"{result.innings[0]} innings; this competition's matches end at "
                              f"{scheme.innings_cap}")
    elif result.game == "kegle":
        for player, distance in zip((p1, p2), result.targets, strict=True):
            own = scheme.kegle_distance(player.moyenne)
            if distance != own:
                how = (f"everyone plays to {scheme.distance}" if scheme.distance is not None else
                       f"series average {player.moyenne:g} x {scheme.series} series")
                raise IllegalCall(f"{player.name} played to {distance}, but his distance here is {own} "
                                  f"({how}; kegle.distance)")


def members_text(p: Player) -> str:
    return f"{p.name} ({' & '.join(p.members)})" if p.members else p.name


# --- results entered by hand (league add-result) ---------------------------------------------

def golf_by_hand(p1: Player, p2: Player, frames: tuple[int, int], balls: tuple[int, int] | None,
                 scheme: Scheme, source: str = "entered", barrage: bool = False) -> Result:
    """A golf match entered by hand: the frames each won (one side 2: golf.match.won) and the
    balls each scored (at most five a frame played)."""
    if p1.name == p2.name:
        raise IllegalCall("a player cannot play himself")
    need = scheme.frames_to_win
    if sorted(frames) not in ([f, need] for f in range(need)):
        raise IllegalCall(f"frames {frames[0]}-{frames[1]}: a match is played to {need} winning frames "
                          "(golf.match.won): one side has 2, the other 0 or 1")
    played = sum(frames)
    balls = balls if balls is not None else (BALLS_PER_PLAYER * frames[0], BALLS_PER_PLAYER * frames[1])
    for b in balls:
        if not 0 <= b <= BALLS_PER_PLAYER * played:
            raise IllegalCall(f"balls {balls[0]} and {balls[1]}: each side scores 0 to {BALLS_PER_PLAYER} "
                              f"a frame, at most {BALLS_PER_PLAYER * played} in {played} frames")
    for i in range(2):
        if balls[i] < BALLS_PER_PLAYER * frames[i]:
            raise IllegalCall(f"{(p1, p2)[i].name} won {frames[i]} frames and so scored at least "
                              f"{BALLS_PER_PLAYER * frames[i]} balls (golf.frame.won)")
    winner = "p1" if frames[0] == need else "p2"
    r = Result(p1.name, p2.name, (0, 0), (0, 0), (0, 0), winner, (0, 0), barrage=barrage, source=source,
               game="golf", frames=frames, balls=(balls[0], balls[1]))
    return score(r, scheme)


def kegle_by_hand(p1: Player, p2: Player, scored: tuple[int, int], series: int,
                  highest: tuple[int, int] | None, scheme: Scheme, source: str = "entered",
                  barrage: bool = False) -> Result:
    """A keglebillard match entered by hand: the points each scored in the same number of series
    (kegle.same-series), each to his distance (the scheme's); who reached it won, both: a tie."""
    if p1.name == p2.name:
        raise IllegalCall("a player cannot play himself")
    if series < 1 or min(scored) < 0:
        raise IllegalCall("series is at least 1 and points are not negative")
    distances = (scheme.kegle_distance(p1.moyenne), scheme.kegle_distance(p2.moyenne))
    done = (scored[0] >= distances[0], scored[1] >= distances[1])
    if done == (False, False):
        raise IllegalCall(f"neither player reached his distance ({scored[0]}/{distances[0]}, "
                          f"{scored[1]}/{distances[1]}): a match is played to the distance (kegle.distance)")
    winner = "draw" if all(done) else ("p1" if done[0] else "p2")
    highest = highest if highest is not None else (0, 0)
    for i in range(2):
        if not 0 <= highest[i] <= scored[i]:
            raise IllegalCall(f"a highest series of {highest[i]} in {scored[i]} points")
    r = Result(p1.name, p2.name, (0, 0), (0, 0), distances, winner, (0, 0), barrage=barrage, source=source,
               game="kegle", scored=scored, series=(series, series), highest=highest)
    return score(r, scheme)
