"""A game's league: the piece of the game's package the league asks (``rules/<game>/league.py``,
found by ``games.part``), so no module of the league branches on a game's name.

Each game's ``league.py`` declares (``tests/test_games.py`` checks every game has them all):

- data: ``SCHEME`` (the built-in scheme a competition gets when none is named),
  ``ORDER_COLUMNS`` (what its standings can be ordered by), ``THEN`` (what orders the rest of
  the table after the scheme's order), ``REPORTED`` (the engine's figures a pub reports and
  the league compares), ``SCHEME_FIELDS`` (the scheme's fields only this game uses),
  ``COUNTS`` (how its matches' points may be counted), ``DISCIPLINES`` (the disciplines its
  competitions are played in, each with a club's rule profile; empty: none),
  ``SEASON_HALVES`` (its titles name the half season), ``DUOS`` (an entrant may be a duo),
  ``READ_UNFINISHED`` (a match not finished may still be read: an innings cap),
  ``ENTRY`` (what ``league add-result`` takes for it), ``COLUMNS`` (the standings table's
  columns: heading, key), ``AVERAGE_DECIMALS``, ``STRENGTH`` (``(json key, word, what it
  sets)`` of a player's strength, None: none), ``RESULT_HEADS`` (the league page's headings of a
  result's first cells);
- functions: ``read``, ``score``, ``check_entry`` (a replayed match to a result in a
  competition), ``by_hand`` (a result entered with ``league add-result``), ``count``,
  ``row`` and ``average`` (a standing), ``check_scheme`` and ``scheme_lines`` (its part of
  a scheme), ``profile`` (a competition's rule profile), ``next_half`` (the players of the
  next half season), ``new_strengths`` (``league moyennes``), ``strength``, ``needs_strength``
  and ``joins`` (a player's strength in words), ``result_fields``, ``result_cells`` and
  ``result_line`` (a result as the page and the command line show it), ``night_setup`` (a set-up of a team
  night's match with what the night's scheme fixes).

Found at call time, never imported here: the parts import the league's records.
"""

from __future__ import annotations

from functools import cache
from types import ModuleType

from .. import games


@cache
def of(game: str) -> ModuleType:
    """The league part of ``game`` (``games.UnknownGame`` if no game is called that)."""
    found = games.part(game, "league")
    if found is None:
        games.get(game)  # raises for an unknown game
        raise games.UnknownGame(f"the game {game!r} has no league (rules/{game}/league.py)")
    return found


def find(game: object) -> ModuleType | None:
    """The league part of ``game``; None when no game is called that (a set-up's field, a log's)."""
    return of(game) if isinstance(game, str) and game in games.names() else None


def names() -> tuple[str, ...]:
    """The games a competition may be of, as the league lists them (alphabetical: carom, golf, kegle)."""
    return tuple(sorted(games.names()))


__all__ = ["find", "names", "of"]
