"""Carom in a competition (``tablesense.league.part``): caroms, innings and targets, points
under a scheme's count (de-bruijn, belgian, ...) with a bonus for beating one's moyenne, an
innings cap, new moyennes for the next half season (seeds/carom.md, 003 Art. 11)."""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from ...errors import IllegalCall
from ...league.games import SIDES, pair
from ...league.limits import short
from ...league.matchlog import NotACompetitionMatch, ReplayedMatch
from ...league.nights import card_players
from ...league.scheme import Scheme, SchemeError
from ...league.standings import (
    Player,
    Result,
    Standing,
    check_minimum,
    check_visitor_breaks,
    make_result,
    new_moyennes,
)
from ...league.store import DISCIPLINES as _DISCIPLINES
from ...league.store import Competition
from ...texts import phrase
from .game import GAME
from .profiles import resolve_profile
from .targets import resolve_scheme

SCHEME = "de-bruijn"
ORDER_COLUMNS = ("points", "average", "high_run", "caroms")
THEN = ("average",)
REPORTED = ("winner", "caroms", "innings", "targets")
SCHEME_FIELDS = ("innings_cap", "bonus", "bonus_winner", "bonus_decimals")
#: how a carom match's points are counted (a scheme's ``count``)
COUNTS = ("de-bruijn", "belgian", "win-draw-loss", "percentage")
DISCIPLINES = _DISCIPLINES
SEASON_HALVES = True
DUOS = False
READ_UNFINISHED = True  # an innings cap reads a match not played out
ENTRY = ("caroms", "innings", "targets")
COLUMNS = (("played", "played"), ("won", "won"), ("drawn", "drawn"), ("lost", "lost"),
           ("points", "points"), ("caroms", "caroms"), ("innings", "innings"), ("average", "average"),
           ("high run", "high_run"))
AVERAGE_DECIMALS = 3
STRENGTH = ("moyennes", "moyenne", "target")

#: a result's first cells on the league page (then its points, where, the match)
RESULT_HEADS = ("yellow", "", "white", "", "innings")


# --- a replayed match ------------------------------------------------------------------------

def read(match: ReplayedMatch, scheme: Scheme | None, source: str, barrage: bool) -> Result:
    out = match.final
    names = match.players
    for p in SIDES:
        if not isinstance(names.get(p), str):
            raise NotACompetitionMatch("a competition match has one player a side")
    cap = scheme.innings_cap if scheme is not None else None
    caroms, innings, targets, high = (pair(out, k) for k in ("caroms", "innings", "targets", "high_run"))
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
                  source, game=match.game)


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


def score(result: Result, scheme: Scheme, players: tuple[Player, Player] | None = None) -> Result:
    """The points under the scheme's count, and the bonus for beating one's moyenne (``players``)."""
    points = scheme.carom_points(result.winner, result.caroms, result.targets)
    bonus = (0, 0)
    if players is not None:
        bonus = scheme.carom_bonus(result.winner, result.caroms, result.innings,
                                   (players[0].moyenne, players[1].moyenne))
    return replace(result, points=(points[0] + bonus[0], points[1] + bonus[1]), bonus=bonus)


def check_entry(profile: str, scheme: Scheme, result: Result, p1: Player, p2: Player) -> None:
    """A kampioen competition's targets of at least 20; no more innings than the cap."""
    check_minimum(profile, p1.name, p2.name, result.targets)
    if scheme.innings_cap is not None and min(result.innings) > scheme.innings_cap:
        raise IllegalCall(f"{result.innings[0]} innings; this competition's matches end at "
                          f"{scheme.innings_cap}")


def by_hand(args: argparse.Namespace, comp: Competition, p1: Player, p2: Player) -> Result:
    """``league add-result ... --caroms A B --innings N [--targets A B]``."""
    if args.caroms is None or args.innings is None:
        raise IllegalCall("a carom result needs --caroms A B and --innings N")
    if len(args.innings) > 2:
        raise IllegalCall("--innings takes one number or two")
    innings = (args.innings[0], args.innings[-1])
    if 0 in innings and min(innings) >= 0:  # (a negative count is refused as such below)
        raise IllegalCall("a match played has at least one inning: yellow breaks and white's last "
                          "inning makes them equal (carom.nastoot); give --innings 1 or more")
    check_visitor_breaks(comp.profile, args.p1, args.p2, args.visitor)
    targets = tuple(args.targets) if args.targets else None
    return make_result(p1, p2, tuple(args.caroms), innings, targets, comp.record, tuple(args.high_run),
                       args.barrage, "entered", profile=comp.profile)


# --- standings --------------------------------------------------------------------------------

def count(row: Standing, r: Result, i: int) -> None:
    row.caroms += r.caroms[i]
    row.innings += r.innings[i]
    row.high_run = max(row.high_run, r.high_run[i])


def average(row: Standing) -> float:
    """Caroms per inning, 3 decimals."""
    return round(row.caroms / row.innings, 3) if row.innings else 0.0


def row(s: Standing) -> dict[str, object]:
    return {"drawn": s.drawn, "lost": s.lost, "points": s.points, "caroms": s.caroms, "innings": s.innings,
            "average": s.average, "high_run": s.high_run}


def next_half(players: list[Player], results: list[Result]) -> list[Player]:
    """The moyennes the last half gave them (carom.league.moyenne)."""
    return [replace(p, moyenne=moyenne, team="")
            for p, moyenne, _ in new_moyennes(players, results, GAME.name)]


def new_strengths(scheme: Scheme, players: list[Player], results: list[Result]) -> list[dict[str, Any]]:
    return [{"name": p.name, "old": p.moyenne, "new": new, "target": target}
            for p, new, target in new_moyennes(players, results, GAME.name)]


# --- a scheme ----------------------------------------------------------------------------------

def check_scheme(s: Scheme) -> None:
    if s.count not in COUNTS:
        raise SchemeError(f"[match] count of a carom scheme is one of {', '.join(COUNTS)}, not "
                          + short(s.count))


def scheme_lines(s: Scheme) -> list[str]:
    count = {"de-bruijn": f"De Bruijn: the winner {s.win}, a draw {s.draw} each, the loser "
                          f"caroms x 10 / target (at most {s.draw - 1})",
             "belgian": "the Belgian count: caroms x 10 / target for each (10 at the target)",
             "percentage": "caroms x 100 / target for each",
             "win-draw-loss": f"a win {s.win}, a draw {s.draw}, a loss {s.loss}"}[s.count]
    out = [f"match points: {count}"]
    if s.innings_cap:
        out.append(f"innings cap: {s.innings_cap} (the match is read at the end of inning "
                   f"{s.innings_cap}, the higher share of the target wins)")
    if s.bonus or s.bonus_winner:
        out.append(f"bonus for a match moyenne above one's own (cut to {s.bonus_decimals} "
                   f"decimals): the winner {s.bonus_winner}, the other {s.bonus}")
    return out


# --- a competition and its players ------------------------------------------------------------

def profile(given: str) -> str:
    """The club's rule profile a competition is played under (kampioen, liemers; ``IllegalCall``)."""
    return resolve_profile(given)


def strength(scheme: Scheme, p: Player) -> str:
    return f", moyenne {p.moyenne:.3f}"


def needs_strength(scheme: Scheme) -> str | None:
    return "--moyenne X (caroms per inning)"


def joins(scheme: Scheme, p: Player, comp: str, where: str) -> str:
    return f"{p.name} joins {comp} with moyenne {p.moyenne:.3f}{where}"


# --- a result as it is shown -------------------------------------------------------------------

def result_fields(r: Result) -> dict[str, Any]:
    return {"caroms": list(r.caroms), "targets": list(r.targets), "innings": list(r.innings),
            "bonus": list(r.bonus)}


def result_cells(r: Result) -> list[Any]:
    return [r.p1, f"{r.caroms[0]}/{r.targets[0]}", r.p2, f"{r.caroms[1]}/{r.targets[1]}", r.innings[0]]


def result_line(r: Result, kind: str, who: str, night: str) -> str:
    bonus = f" (bonus {r.bonus[0]}-{r.bonus[1]})" if any(r.bonus) else ""
    return (f"{kind}{r.p1} {r.caroms[0]}/{r.targets[0]} - {r.p2} {r.caroms[1]}/{r.targets[1]} "
            f"in {r.innings[0]} innings: {who}; points {r.points[0]}-{r.points[1]}{bonus}{night}")


# --- a team night ----------------------------------------------------------------------------

def night_setup(setup: dict[str, Any], card: dict[str, Any], scheme: Scheme, night: str) -> dict[str, Any]:
    """The competition's discipline; the players' moyennes in it (their targets follow from them)
    unless the set-up gives targets or moyennes; marked as a competition match; the scheme's
    count as the match's ``points`` (``_points``); the scheme's innings cap as the match's
    ``innings_limit`` (carom.innings-limit)."""
    discipline = setup.get("discipline") or DISCIPLINES[0]
    if card.get("discipline") and discipline != card["discipline"]:
        raise IllegalCall(f"{night}, played {card['discipline']}, not {str(discipline)[:20]}")
    setup = _points(_targets(setup, card), scheme, night)
    cap = scheme.innings_cap
    if cap is None:
        return setup
    given = setup.get("innings_limit")
    if given is None or given == "":
        return {**setup, "innings_limit": cap}
    if given != cap:
        raise IllegalCall(f"{night}, played to {cap} innings (carom.innings-limit): leave the innings "
                          f"limit empty or make it {cap}, not {str(given)[:20]}")
    return setup


def engine_count(scheme: Scheme) -> str | None:
    """The engine's match-point scheme that counts a match as ``scheme`` does (before any bonus),
    or None: the engine's de Bruijn and win-draw-loss are 11/10 and 2/1/0."""
    if scheme.count in ("belgian", "percentage"):
        return scheme.count
    if scheme.count == "de-bruijn" and (scheme.win, scheme.draw) == (11, 10):
        return scheme.count
    if scheme.count == "win-draw-loss" and (scheme.win, scheme.draw, scheme.loss) == (2, 1, 0):
        return scheme.count
    return None


def _points(setup: dict[str, Any], scheme: Scheme, night: str) -> dict[str, Any]:
    """The night's count as the match's ``points``: the match points the TV, the score sheet and
    the engine's ruling show at the end are those the competition counts (a visitebiljart
    night's Belgian count, not the club championship's de Bruijn); a set-up naming other match
    points is refused."""
    count = engine_count(scheme)
    if count is None:
        return setup
    given = setup.get("points", setup.get("scheme"))
    if given is None or given == "":
        return {**setup, "points": count}
    try:
        named = resolve_scheme(given)
    except IllegalCall:
        named = None
    if named != count:
        raise IllegalCall(f"{night}, which counts match points by the {phrase(f'scheme:{count}', {})}: leave "
                          f"the match points out or make them {count}, not {str(given)[:20]}")
    return setup


def _targets(setup: dict[str, Any], card: dict[str, Any]) -> dict[str, Any]:
    """A carom night's set-up with the players' moyennes in the competition (their targets follow
    from them) unless it gives targets or moyennes, and marked as a competition match."""
    out = {**setup}
    out.setdefault("competition", card["competition"])
    players = card_players(card)
    names = [setup["players"].get(side) for side in SIDES]
    if "targets" not in setup and "moyennes" not in setup and all(isinstance(n, str) and n in players
                                                                     for n in names):
        out["moyennes"] = {side: players[str(n)].moyenne for side, n in zip(SIDES, names, strict=True)}
    return out
