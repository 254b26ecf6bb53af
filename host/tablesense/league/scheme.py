"""A competition's scheme: what a match gives, how strength sets a target or a distance, how
a team night counts and how a tie at the top is decided -- a record, not code (docs/league.md
"Schemes"). A club names a built-in one (``league create --scheme visite-25``) or writes its
own as a TOML or JSON file (``--scheme club.toml``); the competition keeps the record itself,
so a file changed later changes no running competition.

The file, every key optional but ``game``::

    name = "visite-25"
    game = "carom"                  # carom | golf | kegle (league.part.names())
    title = "..."                   # one line for people
    [match]
    count = "belgian"               # carom: de-bruijn | belgian | win-draw-loss | percentage
    win = 2                         # a won, drawn, lost match (win-draw-loss; golf; kegle)
    draw = 1
    loss = 0
    per_frame = 1                   # golf: points for each frame won
    frames_to_win = 2               # golf: the engine plays to two (golf.match.won)
    innings_cap = 25                # carom: the match is read at the end of this inning
    [bonus]                         # carom: beating one's moyenne in the match
    points = 1                      #   a player who did not win
    winner = 2                      #   the winner (or both in a draw)
    decimals = 2                    #   the match's moyenne is cut to this many decimals first
    [distance]                      # kegle
    fixed = 100                     #   everyone plays to this (no handicap) ...
    series = 15                     #   ... or the player's series average x this many series,
    minimum = 20                    #   rounded half up, kept within these bounds
    maximum = 800
    [team]
    points = [2, 1, 0]              # the team's sum of points above, equal, below the other's
    night = "twice"                 # ranks (1 v 1, 2 v 2 ...) | twice (each plays two) | all
    [standings]
    order = ["points"]              # the columns that order the table, in turn
    tie = "barrage"                 # level at the top on all of them: barrage | deciding-game |
                                    # shoot-out (a match decides) | shared

Pure: a record in, a record or points out; one-line ``SchemeError`` for a record that does
not read.
"""

from __future__ import annotations

import json
import math
import tomllib
from dataclasses import asdict, dataclass, replace
from decimal import ROUND_FLOOR, ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from ..errors import TablesenseError
from . import part
from .limits import cut, short

#: the games a scheme may be of: every game, each with its league part (``part``)
GAMES = part.names()
#: what decides players level on every ordering column at the top
TIES = ("barrage", "deciding-game", "shoot-out", "shared")
#: what the match deciding a tie is called
DECIDERS = {"barrage": "barrage", "deciding-game": "deciding game", "shoot-out": "shoot-out"}
#: who plays whom on a team night
NIGHTS = ("ranks", "twice", "all")
#: the most a field may say (points, caps, distances): far above any real scheme
MAX_FIELD = 10_000


class SchemeError(TablesenseError):
    """A scheme that does not read, and why (one line)."""


@dataclass(frozen=True, slots=True)
class Scheme:
    """A competition's scheme (module docstring: what each field means)."""

    name: str
    game: str
    title: str = ""
    count: str = "result"
    win: int = 2
    draw: int = 1
    loss: int = 0
    per_frame: int = 0
    frames_to_win: int = 2
    innings_cap: int | None = None
    bonus: int = 0
    bonus_winner: int = 0
    bonus_decimals: int = 2
    distance: int | None = None
    series: int = 15
    minimum: int = 20
    maximum: int = 800
    team_points: tuple[int, int, int] = (2, 1, 0)
    night: str = "ranks"
    order: tuple[str, ...] = ("points",)
    tie: str = "barrage"

    # --- what a match gives -------------------------------------------------------------
    def carom_points(self, winner: str, caroms: tuple[int, int], targets: tuple[int, int]) -> tuple[int, int]:
        """A carom match's points before any bonus (003 Art. 11.6 for de-bruijn)."""

        def share(i: int, scale: int) -> int:
            return math.floor(min(caroms[i], targets[i]) * scale / targets[i]) if targets[i] else 0

        sides = ("p1", "p2")
        if self.count == "de-bruijn":
            if winner == "draw":
                return (self.draw, self.draw)
            return (self.win if winner == "p1" else min(self.draw - 1, share(0, 10)),
                    self.win if winner == "p2" else min(self.draw - 1, share(1, 10)))
        if self.count == "belgian":
            return (share(0, 10), share(1, 10))
        if self.count == "percentage":
            return (share(0, 100), share(1, 100))
        return self._by_result(winner, sides)

    def carom_bonus(self, winner: str, caroms: tuple[int, int], innings: tuple[int, int],
                    moyennes: tuple[float, float]) -> tuple[int, int]:
        """Bonus points for a match moyenne above one's own (cut to ``bonus_decimals`` first)."""
        out = []
        for i, side in enumerate(("p1", "p2")):
            if not (self.bonus or self.bonus_winner) or not innings[i]:
                out.append(0)
                continue
            made = (Decimal(caroms[i]) / Decimal(innings[i])).quantize(
                Decimal(1).scaleb(-self.bonus_decimals), rounding=ROUND_FLOOR)
            above = made > Decimal(str(moyennes[i]))
            won = winner in (side, "draw")
            out.append((self.bonus_winner if won else self.bonus) if above else 0)
        return (out[0], out[1])

    def result_points(self, winner: str, frames: tuple[int, int] = (0, 0)) -> tuple[int, int]:
        """A golf or keglebillard match's points: win, draw or loss, and ``per_frame`` a frame."""
        base = self._by_result(winner, ("p1", "p2"))
        return (base[0] + self.per_frame * frames[0], base[1] + self.per_frame * frames[1])

    def _by_result(self, winner: str, sides: tuple[str, str]) -> tuple[int, int]:
        if winner == "draw":
            return (self.draw, self.draw)
        return (self.win if winner == sides[0] else self.loss, self.win if winner == sides[1] else self.loss)

    # --- strength -------------------------------------------------------------------------
    def kegle_distance(self, average: float) -> int:
        """A keglebillard player's distance: the fixed one, or his series average x ``series``
        series, rounded half up, within ``minimum`` .. ``maximum`` (docs/league.md)."""
        if self.distance is not None:
            return self.distance
        exact = (Decimal(str(average)) * self.series).quantize(Decimal(1), rounding=ROUND_HALF_UP)
        return max(self.minimum, min(self.maximum, int(exact)))

    # --- a team night -----------------------------------------------------------------------
    def team_result(self, home: int, away: int) -> tuple[int, int]:
        """The team points of a night whose players' points add up to ``home`` and ``away``."""
        above, level, below = self.team_points
        if home == away:
            return (level, level)
        return (above, below) if home > away else (below, above)

    @property
    def decider(self) -> str | None:
        """What the match deciding a tie is called (None: a tie is shared)."""
        return DECIDERS.get(self.tie)

    def to_dict(self) -> dict[str, Any]:
        """The record as the competition keeps it (and ``league show --json`` prints it)."""
        out = asdict(self)
        out["team_points"] = list(self.team_points)
        out["order"] = list(self.order)
        return out

    def lines(self) -> list[str]:
        """What the scheme says, one line each, for ``league show``."""
        out = [f"scheme {self.name}" + (f": {self.title}" if self.title else "")]
        out += part.of(self.game).scheme_lines(self)
        above, level, below = self.team_points
        out.append(f"team nights: {above}/{level}/{below} for the higher/equal/lower sum of points; "
                   f"who plays whom: {self.night}")
        tie = self.decider or "shared"
        out.append(f"standings by {', then '.join(self.order)}; level at the top: {tie}")
        return out


# --- the built-in schemes -----------------------------------------------------------------------

def _builtins() -> dict[str, Scheme]:
    carom = Scheme("de-bruijn", "carom", "club championship, seed 003 Art. 11.6", count="de-bruijn",
                   win=11, draw=10, loss=0, tie="barrage")
    out = {
        "de-bruijn": carom,
        "win-draw-loss": replace(carom, name="win-draw-loss", title="2, 1 or 0 a match",
                                 count="win-draw-loss", win=2, draw=1, loss=0),
        "percentage": replace(carom, name="percentage", title="the share of the target in per cent",
                              count="percentage"),
        "belgian": replace(carom, name="belgian", title="the Belgian count: caroms x 10 / target",
                           count="belgian"),
        "belgian-bonus": replace(carom, name="belgian-bonus", count="belgian", bonus=1, bonus_winner=2,
                                 title="the Belgian count, a bonus for beating one's moyenne"),
    }
    for cap in (20, 25, 30):
        out[f"visite-{cap}"] = replace(carom, name=f"visite-{cap}", count="belgian", innings_cap=cap,
                                       bonus=1, bonus_winner=2, night="twice",
                                       title=f"visitebiljart: the Belgian count, {cap} innings at most, "
                                             "a bonus above one's moyenne, every player twice")
    golf = Scheme("golf-frames", "golf", "a point for each frame won ('manches'), team points 2/1/0",
                  win=0, draw=0, loss=0, per_frame=1, order=("points", "frames", "balls"),
                  tie="deciding-game")
    out["golf-frames"] = golf
    out["golf-match"] = replace(golf, name="golf-match", title="2 for a match won, 0 for a loss",
                                win=2, loss=0, per_frame=0)
    kegle = Scheme("kegle-handicap", "kegle", "a distance from each player's series average (x 15 series)",
                   win=2, draw=1, loss=0, distance=None, order=("points",), tie="shoot-out")
    out["kegle-handicap"] = kegle
    out["kegle-100"] = replace(kegle, name="kegle-100", title="everyone to 100 (the bodega match)",
                               distance=100)
    return out


BUILTIN: dict[str, Scheme] = _builtins()


def default(game: str) -> Scheme:
    """The scheme a competition of ``game`` gets when none is named (its league part's ``SCHEME``)."""
    return BUILTIN[part.of(game).SCHEME]


def builtin(name: str, game: str | None = None) -> Scheme:
    """A built-in scheme by name (``SchemeError`` lists the ones of the game)."""
    found = BUILTIN.get(name)
    if found is None or (game is not None and found.game != game):
        have = ", ".join(n for n, s in BUILTIN.items() if game is None or s.game == game)
        what = f"{game} " if game else ""
        raise SchemeError(f"no built-in {what}scheme {short(name)} (have: {have}; or a TOML/JSON file)")
    return found


def resolve(name_or_file: str | None, game: str) -> Scheme:
    """The scheme ``league create --scheme`` names: a built-in one, or a TOML or JSON file."""
    if name_or_file is None:
        return default(game)
    if name_or_file in BUILTIN:
        return builtin(name_or_file, game)
    path = Path(name_or_file)
    if path.suffix.lower() not in (".toml", ".json") and not path.exists():
        return builtin(name_or_file, game)
    scheme = load(path)
    if scheme.game != game:
        raise SchemeError(f"{path} is a {scheme.game} scheme; this is a {game} competition")
    return scheme


def load(path: Path) -> Scheme:
    """A scheme file (TOML, or JSON when it ends .json)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SchemeError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise SchemeError(f"cannot read {path}: it is not UTF-8 text") from None
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    except (ValueError, RecursionError) as exc:
        raise SchemeError(f"{path} is no {'JSON' if path.suffix.lower() == '.json' else 'TOML'}: "
                          f"{str(exc).splitlines()[0][:120]}") from None
    try:
        return from_file(data, default_name=path.stem)
    except SchemeError as exc:
        raise SchemeError(f"{path}: {exc}") from None


#: the file's sections and their keys -> the record's fields
_SECTIONS: dict[str, dict[str, str]] = {
    "match": {"count": "count", "win": "win", "draw": "draw", "loss": "loss", "per_frame": "per_frame",
              "frames_to_win": "frames_to_win", "innings_cap": "innings_cap"},
    "bonus": {"points": "bonus", "winner": "bonus_winner", "decimals": "bonus_decimals"},
    "distance": {"fixed": "distance", "series": "series", "minimum": "minimum", "maximum": "maximum"},
    "team": {"points": "team_points", "night": "night"},
    "standings": {"order": "order", "tie": "tie"},
}


def _game_only() -> dict[str, str]:
    """The fields that belong to one game only (its league part's ``SCHEME_FIELDS``) -> that game."""
    return {name: game for game in GAMES for name in part.of(game).SCHEME_FIELDS}


def from_file(data: Any, default_name: str = "scheme") -> Scheme:
    """A scheme from a file's data (the layout of the module docstring)."""
    if not isinstance(data, dict):
        raise SchemeError("a scheme is a table of keys (name, game, [match], ...)")
    unknown = set(data) - {"name", "game", "title", *_SECTIONS}
    if unknown:
        raise SchemeError(f"unknown key {short(sorted(unknown)[0])} (keys: name, game, title, "
                          f"{', '.join(f'[{s}]' for s in _SECTIONS)})")
    game = data.get("game")
    if game not in GAMES:
        raise SchemeError(f"game must be one of {', '.join(GAMES)}, not {short(game)}")
    base = default(game)
    only = _game_only()
    fields: dict[str, Any] = {"name": _text(data.get("name", default_name), "name"),
                              "title": _text(data.get("title", ""), "title", empty=True)}
    for section, keys in _SECTIONS.items():
        given = data.get(section, {})
        if not isinstance(given, dict):
            raise SchemeError(f"[{section}] is a table of keys")
        bad = set(given) - set(keys)
        if bad:
            raise SchemeError(f"unknown key {short(sorted(bad)[0])} in [{section}] (keys: {', '.join(keys)})")
        for key, name in keys.items():
            if key in given:
                if name in only and only[name] != game:
                    raise SchemeError(f"[{section}] {key} is for {only[name]}, not {game}")
                fields[name] = given[key]
    if fields.get("count") == "de-bruijn" and "win" not in fields:  # the count's own win and draw
        fields.update(win=11, draw=10)
    try:
        return check(replace(base, game=game, **_typed(fields)))
    except TypeError as exc:  # a field of the wrong kind for a comparison (a list for a number ...)
        raise SchemeError(f"a value of the wrong kind: {cut(str(exc), 120)}") from None


def from_dict(data: dict[str, Any]) -> Scheme:
    """The record as ``to_dict`` wrote it (a competition's stored scheme)."""
    if not isinstance(data, dict):
        raise SchemeError("a scheme record is a table of fields")
    known = set(Scheme.__dataclass_fields__)
    fields = {k: v for k, v in data.items() if k in known}
    for name in ("team_points", "order"):
        if name in fields:
            if not isinstance(fields[name], (list, tuple)):
                raise SchemeError(f"{_key(name)} is a list, not {short(fields[name])}")
            fields[name] = tuple(fields[name])
    try:
        return check(Scheme(**fields))
    except TypeError as exc:  # a field of the wrong kind for a comparison (a list for a number ...)
        raise SchemeError(f"a scheme record that does not read: {cut(str(exc), 120)}") from None


def _text(value: Any, key: str, empty: bool = False) -> str:
    if not isinstance(value, str) or len(value) > 200 or not value.isprintable() or (not empty and not value):
        raise SchemeError(f"{key} is a line of text of at most 200 characters, not {short(value)}")
    return value


def _typed(fields: dict[str, Any]) -> dict[str, Any]:
    out = dict(fields)
    for name in ("team_points", "order"):
        if name in out:
            if not isinstance(out[name], list):
                raise SchemeError(f"{_key(name)} is a list, not {short(out[name])}")
            out[name] = tuple(out[name])
    return out


def _key(name: str) -> str:
    for section, keys in _SECTIONS.items():
        for key, field_name in keys.items():
            if field_name == name:
                return f"[{section}] {key}"
    return name


def check(s: Scheme) -> Scheme:
    """The scheme if every field fits its game, else ``SchemeError`` naming the first that does not."""
    if s.game not in GAMES:
        raise SchemeError(f"game must be one of {', '.join(GAMES)}, not {short(s.game)}")
    _text(s.name, "name")
    for name in ("win", "draw", "loss", "per_frame", "bonus", "bonus_winner", "series", "minimum", "maximum"):
        _count(s, name)
    own = part.of(s.game)
    own.check_scheme(s)  # its count, and what else the game's engine holds it to
    if s.count == "de-bruijn" and s.draw < 1:
        raise SchemeError("[match] draw of a de-bruijn scheme is at least 1 "
                          "(the loser gets at most draw - 1)")
    if s.innings_cap is not None and not (_is_count(s.innings_cap) and 1 <= s.innings_cap <= 1000):
        raise SchemeError(f"[match] innings_cap is a number of innings from 1 to 1000, "
                          f"not {short(s.innings_cap)}")
    if not _is_count(s.bonus_decimals) or s.bonus_decimals > 3:
        raise SchemeError(f"[bonus] decimals is 0 to 3, not {short(s.bonus_decimals)}")
    if s.distance is not None:
        _count(s, "distance")
        if s.distance < 1:
            raise SchemeError("[distance] fixed is at least 1")
    if len(s.team_points) != 3 or not all(_is_count(v) for v in s.team_points):
        raise SchemeError(f"[team] points is three counts (above, equal, below), "
                          f"not {short(list(s.team_points))}")
    if s.night not in NIGHTS:
        raise SchemeError(f"[team] night is one of {', '.join(NIGHTS)}, not {short(s.night)}")
    columns = own.ORDER_COLUMNS
    if not s.order or len(s.order) > len(columns) or any(c not in columns for c in s.order) \
            or len(set(s.order)) != len(s.order):
        raise SchemeError(f"[standings] order of a {s.game} scheme is a list of {', '.join(columns)}, each "
                          f"once, not {short(list(s.order))}")
    if s.tie not in TIES:
        raise SchemeError(f"[standings] tie is one of {', '.join(TIES)}, not {short(s.tie)}")
    return s


def _is_count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_FIELD


def _count(s: Scheme, name: str) -> None:
    value = getattr(s, name)
    if not _is_count(value):
        raise SchemeError(f"{_key(name)} is a whole number from 0 to {MAX_FIELD:,}, not {short(value)}")


__all__ = ["BUILTIN", "GAMES", "Scheme", "SchemeError", "builtin", "check", "default", "from_dict",
           "from_file", "load", "resolve"]
