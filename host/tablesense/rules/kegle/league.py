"""Danish keglebillard in a competition (``tablesense.league.part``): points scored in the same
number of series, each player to his distance (his series average's handicap, or a fixed one),
a tie when both reach it, the highest series (seeds/kegle.md)."""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from ...errors import IllegalCall
from ...league.games import SIDES, pair
from ...league.matchlog import NotACompetitionMatch, ReplayedMatch
from ...league.nights import card_players
from ...league.scheme import Scheme, SchemeError
from ...league.standings import Player, Result, Standing, standings
from ...league.store import Competition
from .game import GAME

SCHEME = "kegle-handicap"
ORDER_COLUMNS = ("points", "average", "highest", "scored")
THEN = ("average", "highest")
REPORTED = ("winner", "points", "series", "targets")
SCHEME_FIELDS = ("distance", "series", "minimum", "maximum")
COUNTS = ("result",)
DISCIPLINES: tuple[str, ...] = ()
SEASON_HALVES = False
DUOS = False
READ_UNFINISHED = False
ENTRY = ("scored", "series", "highest")
COLUMNS = (("played", "played"), ("won", "won"), ("tied", "drawn"), ("lost", "lost"), ("points", "points"),
           ("scored", "scored"), ("series", "series"), ("average", "average"), ("highest", "highest"))
AVERAGE_DECIMALS = 2
STRENGTH = ("averages", "average", "distance")

#: a result's first cells on the league page (then its points, where, the match)
RESULT_HEADS = ("", "", "", "", "series")


# --- a replayed match ------------------------------------------------------------------------

def read(match: ReplayedMatch, scheme: Scheme | None, source: str, barrage: bool) -> Result:
    out = match.final
    if not out["finished"]:
        raise NotACompetitionMatch("the match in the log is not finished (kegle.same-series)")
    names = match.players
    for p in SIDES:
        if not isinstance(names.get(p), str):
            raise NotACompetitionMatch("a competition match has one player a side")
    figures = match.figures.kegle if match.figures is not None else None
    highest = (figures.players[0].highest, figures.players[1].highest) if figures is not None else (0, 0)
    return Result(names["p1"], names["p2"], (0, 0), (0, 0), pair(out, "targets"), str(out["winner"]), (0, 0),
                  barrage=barrage, source=source, game=match.game, scored=pair(out, "points"),
                  series=pair(out, "series"), highest=highest)


def score(result: Result, scheme: Scheme, players: tuple[Player, Player] | None = None) -> Result:
    """Win, tie or loss."""
    return replace(result, points=scheme.result_points(result.winner, result.frames))


def check_entry(profile: str, scheme: Scheme, result: Result, p1: Player, p2: Player) -> None:
    """Each played to his own distance under the scheme (kegle.distance)."""
    for player, distance in zip((p1, p2), result.targets, strict=True):
        own = scheme.kegle_distance(player.moyenne)
        if distance != own:
            how = (f"everyone plays to {scheme.distance}" if scheme.distance is not None else
                   f"series average {player.moyenne:g} x {scheme.series} series")
            raise IllegalCall(f"{player.name} played to {distance}, but his distance here is {own} "
                              f"({how}; kegle.distance)")


def by_hand(args: argparse.Namespace, comp: Competition, p1: Player, p2: Player) -> Result:
    """``league add-result ... --scored A B --series N [--highest A B]``."""
    if args.scored is None or args.series is None:
        raise IllegalCall("a keglebillard result needs --scored A B and --series N")
    return points_by_hand(p1, p2, tuple(args.scored), args.series,
                          tuple(args.highest) if args.highest else None, comp.record, barrage=args.barrage)


def points_by_hand(p1: Player, p2: Player, scored: tuple[int, int], series: int,
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
               game=scheme.game, scored=scored, series=(series, series), highest=highest)
    return score(r, scheme)


# --- standings --------------------------------------------------------------------------------

def count(row: Standing, r: Result, i: int) -> None:
    row.scored += r.scored[i]
    row.series += r.series[i]
    row.highest = max(row.highest, r.highest[i])


def average(row: Standing) -> float:
    """Points per series, 2 decimals."""
    return round(row.scored / row.series, 2) if row.series else 0.0


def row(s: Standing) -> dict[str, object]:
    return {"drawn": s.drawn, "lost": s.lost, "points": s.points, "scored": s.scored, "series": s.series,
            "average": s.average, "highest": s.highest}


def _averages(players: list[Player], results: list[Result]) -> dict[str, float]:
    """Each player's series average over ``results`` (points / series; without series his own)."""
    rows = {r.name: r for r in standings(players, results, game=GAME.name)}
    return {p.name: rows[p.name].average if p.name in rows and rows[p.name].series else p.moyenne
            for p in players}


def next_half(players: list[Player], results: list[Result]) -> list[Player]:
    """Their series average over the last half."""
    new = _averages(players, results)
    return [replace(p, team="", moyenne=new[p.name]) for p in players]


def new_strengths(scheme: Scheme, players: list[Player], results: list[Result]) -> list[dict[str, Any]]:
    """Each player's series average over the competition and the distance it gives under the scheme."""
    new = _averages(players, results)
    return [{"name": p.name, "old": p.moyenne, "new": new[p.name],
             "distance": scheme.kegle_distance(new[p.name])} for p in players]


# --- a scheme ----------------------------------------------------------------------------------

def check_scheme(s: Scheme) -> None:
    if s.count not in COUNTS:
        raise SchemeError(f"[match] count is for carom; a {s.game} match counts win, draw, loss")
    if s.distance is None and not (1 <= s.series and 1 <= s.minimum <= s.maximum):
        raise SchemeError(f"[distance] wants series at least 1 and 1 <= minimum <= maximum, not "
                          f"{s.series}, {s.minimum}, {s.maximum}")


def scheme_lines(s: Scheme) -> list[str]:
    out = [f"a win {s.win}, a tie {s.draw}, a loss {s.loss}"]
    if s.distance is not None:
        out.append(f"distance {s.distance} for everyone")
    else:
        out.append(f"distance: series average x {s.series} series, rounded half up, "
                   f"{s.minimum} to {s.maximum}")
    return out


# --- a competition and its players ------------------------------------------------------------

def profile(given: str) -> str:
    return ""


def strength(scheme: Scheme, p: Player) -> str:
    return f", series average {p.moyenne:g}, distance {scheme.kegle_distance(p.moyenne)}"


def needs_strength(scheme: Scheme) -> str | None:
    """A handicap distance follows from the series average; a fixed one needs none."""
    if scheme.distance is not None:
        return None
    return "--average X (points per series: his distance follows from it)"


def joins(scheme: Scheme, p: Player, comp: str, where: str) -> str:
    return (f"{p.name} joins {comp}{where}: series average {p.moyenne:g}, distance "
            f"{scheme.kegle_distance(p.moyenne)}")


# --- a result as it is shown -------------------------------------------------------------------

def result_fields(r: Result) -> dict[str, Any]:
    return {"scored": list(r.scored), "targets": list(r.targets), "series": list(r.series),
            "highest": list(r.highest)}


def result_cells(r: Result) -> list[Any]:
    return [r.p1, f"{r.scored[0]}/{r.targets[0]}", r.p2, f"{r.scored[1]}/{r.targets[1]}", r.series[0]]


def result_line(r: Result, kind: str, who: str, night: str) -> str:
    who = who if r.winner != "draw" else "a tie"
    return (f"{kind}{r.p1} {r.scored[0]}/{r.targets[0]} - {r.p2} {r.scored[1]}/{r.targets[1]} in "
            f"{r.series[0]} series: {who}; points {r.points[0]}-{r.points[1]}{night}")


# --- a team night ----------------------------------------------------------------------------

def night_setup(setup: dict[str, Any], card: dict[str, Any], scheme: Scheme, night: str) -> dict[str, Any]:
    """Each player's distance under the scheme as the set-up's targets (kegle.distance), in place
    of the one distance the panel offers."""
    players = card_players(card)
    own: dict[str, int] = {}
    for side in SIDES:
        name = setup["players"][side]
        player = players.get(name) if isinstance(name, str) else None
        if player is None:
            return setup  # not one player a side: the league says why at the end, as for any match
        own[side] = scheme.kegle_distance(player.moyenne)
    given = setup.get("targets")
    if given and given != own:
        said = " and ".join(f"{setup['players'][p]} to {own[p]}" for p in SIDES)
        raise IllegalCall(f"{night}: {said} (kegle.distance), not {str(given)[:40]}")
    return {**setup, "targets": own}
