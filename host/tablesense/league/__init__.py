"""The club competition (seeds/carom.md, 003 Art. 11, 14-16): players with moyennes, results,
standings by match points, the barrage, new moyennes. Logic in ``standings``; SQLite in ``store``."""

from .matchlog import NotACompetitionMatch, lines_from_store, result_from_lines
from .standings import (
    Player,
    Result,
    Standing,
    check_minimum,
    check_visitor_breaks,
    decide,
    make_result,
    new_moyennes,
    standings,
    winner,
)
from .store import Competition, LeagueError, LeagueStore

__all__ = [
    "Competition", "LeagueError", "LeagueStore", "NotACompetitionMatch", "Player", "Result", "Standing",
    "check_minimum", "check_visitor_breaks", "decide", "lines_from_store", "make_result", "new_moyennes",
    "result_from_lines", "standings", "winner",
]
