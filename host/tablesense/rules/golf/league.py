"""Golf billiards in a competition (``tablesense.league.part``): frames won and balls scored,
who opened each frame, points for a match or a frame won, duos; no strength (seed 000)."""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from ...errors import IllegalCall
from ...league.games import SIDES, pair, side_name
from ...league.limits import short
from ...league.matchlog import NotACompetitionMatch, ReplayedMatch
from ...league.scheme import Scheme, SchemeError
from ...league.standings import Player, Result, Standing
from ...league.store import Competition
from .geometry import BALLS_PER_PLAYER

SCHEME = "golf-frames"
ORDER_COLUMNS = ("points", "frames", "frames_won", "balls", "balls_won")
THEN = ("frames", "balls", "frames_won")
REPORTED = ("winner", "frames_won")
SCHEME_FIELDS = ("per_frame", "frames_to_win")
COUNTS = ("result",)
DISCIPLINES: tuple[str, ...] = ()
SEASON_HALVES = False
DUOS = True  # golf.duo.*
READ_UNFINISHED = False
ENTRY = ("frames", "balls")
COLUMNS = (("played", "played"), ("won", "won"), ("lost", "lost"), ("points", "points"),
           ("frames", "frames_won"), ("lost", "frames_lost"), ("balls", "balls_won"),
           ("against", "balls_lost"))
AVERAGE_DECIMALS = 2
STRENGTH = None

#: a result's first cells on the league page (then its points, where, the match)
RESULT_HEADS = ("", "frames", "", "balls")


# --- a replayed match ------------------------------------------------------------------------

def read(match: ReplayedMatch, scheme: Scheme | None, source: str, barrage: bool) -> Result:
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
                  (0, 0), barrage=barrage, source=source, game=match.game, frames=pair(out, "frames_won"),
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


def score(result: Result, scheme: Scheme, players: tuple[Player, Player] | None = None) -> Result:
    """Win or loss, and ``per_frame`` for each frame won."""
    return replace(result, points=scheme.result_points(result.winner, result.frames))


def check_entry(profile: str, scheme: Scheme, result: Result, p1: Player, p2: Player) -> None:
    """Any golf match of two entrants belongs."""


def by_hand(args: argparse.Namespace, comp: Competition, p1: Player, p2: Player) -> Result:
    """``league add-result ... --frames A B [--balls A B]``."""
    if args.frames is None:
        raise IllegalCall("a golf result needs --frames A B (frames each won)")
    return frames_by_hand(p1, p2, tuple(args.frames), tuple(args.balls) if args.balls else None, comp.record,
                          barrage=args.barrage)


def frames_by_hand(p1: Player, p2: Player, frames: tuple[int, int], balls: tuple[int, int] | None,
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
               game=scheme.game, frames=frames, balls=(balls[0], balls[1]))
    return score(r, scheme)


# --- standings --------------------------------------------------------------------------------

def count(row: Standing, r: Result, i: int) -> None:
    j = 1 - i
    row.frames_won += r.frames[i]
    row.frames_lost += r.frames[j]
    row.balls_won += r.balls[i]
    row.balls_lost += r.balls[j]


def average(row: Standing) -> float:
    """Golf keeps no average."""
    return 0.0


def row(s: Standing) -> dict[str, object]:
    return {"lost": s.lost, "points": s.points, "frames_won": s.frames_won, "frames_lost": s.frames_lost,
            "balls_won": s.balls_won, "balls_lost": s.balls_lost}


def next_half(players: list[Player], results: list[Result]) -> list[Player]:
    """As they were: a golf player has no strength."""
    return [replace(p, team="") for p in players]


def new_strengths(scheme: Scheme, players: list[Player], results: list[Result]) -> list[dict[str, Any]]:
    return []


# --- a scheme ----------------------------------------------------------------------------------

def check_scheme(s: Scheme) -> None:
    if s.count not in COUNTS:
        raise SchemeError(f"[match] count is for carom; a {s.game} match counts win, draw, loss and "
                          "per_frame")
    if s.frames_to_win != 2:
        raise SchemeError(f"[match] frames_to_win is 2: the rule engine plays golf to two winning frames "
                          f"(golf.match.won, seed 000 'How you win'), not {short(s.frames_to_win)}")


def scheme_lines(s: Scheme) -> list[str]:
    """"matches to 2 winning frames; 1 point a frame won" (a win and a loss said when they count)."""
    points = [f"a win {s.win}, a loss {s.loss}"] if s.win or s.loss or not s.per_frame else []
    if s.per_frame:
        points.append(f"{s.per_frame} {'point' if s.per_frame == 1 else 'points'} a frame won")
    return [f"matches to {s.frames_to_win} winning frames; {', '.join(points)}"]


# --- a competition and its players ------------------------------------------------------------

def profile(given: str) -> str:
    return ""


def strength(scheme: Scheme, p: Player) -> str:
    return ""


def needs_strength(scheme: Scheme) -> str | None:
    return None


def joins(scheme: Scheme, p: Player, comp: str, where: str) -> str:
    members = f"{p.name} ({' & '.join(p.members)})" if p.members else p.name
    return f"{members} joins {comp}{where}"


# --- a result as it is shown -------------------------------------------------------------------

def result_fields(r: Result) -> dict[str, Any]:
    return {"frames": list(r.frames), "balls": list(r.balls), "openers": list(r.openers)}


def result_cells(r: Result) -> list[Any]:
    return [r.p1, f"{r.frames[0]}-{r.frames[1]}", r.p2, f"{r.balls[0]}-{r.balls[1]}"]


def result_line(r: Result, kind: str, who: str, night: str) -> str:
    return (f"{kind}{r.p1} - {r.p2}: frames {r.frames[0]}-{r.frames[1]}, "
            f"balls {r.balls[0]}-{r.balls[1]}: {who}; points {r.points[0]}-{r.points[1]}{night}")


# --- a team night ----------------------------------------------------------------------------

def night_setup(setup: dict[str, Any], card: dict[str, Any], scheme: Scheme, night: str) -> dict[str, Any]:
    """Unchanged: a golf night's scheme fixes nothing of the set-up."""
    return setup
