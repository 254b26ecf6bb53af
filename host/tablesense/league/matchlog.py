"""A competition result taken from a match log, replayed by the real engine.

``replay_match`` is game-neutral: a log checked (``logcheck``), replayed through the engine
its set-up names, with its digest (``digest``). ``carom_result`` reads a carom
competition's result from it. The log is a JSONL file, a pub's message, or a match in the
pub's SQLite match log (``tablesense.store``; voided events are left out as the pub's own
replay does).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..club_figures import Figures, figures
from ..errors import TablesenseError
from ..replay import Replay, history_for
from .digest import match_digest
from .logcheck import SLICE, BadLog, Stopped, check_lines
from .standings import Result


class NotACompetitionMatch(ValueError):
    """The log is no finished match of a competition (or no log the league reads)."""


@dataclass(frozen=True, slots=True)
class ReplayedMatch:
    """A match as the league's own replay of its log sees it."""

    game: str
    discipline: str | None
    players: dict[str, Any]
    final: dict[str, Any]  # the engine's ``to_json`` after the last event
    digest: str  # ``digest.match_digest`` of the events applied
    skipped: int  # lines the rule engine refused (the pub's own replay skipped them as well)
    #: the score sheet's figures: carom inning by inning, keglebillard series by series,
    #: golf frame by frame (``club_figures``: an innings cap, the highest series, the balls)
    figures: Figures | None = None


def replay_match(lines: Sequence[str], should_stop: Callable[[], bool] | None = None) -> ReplayedMatch:
    """Check and replay a match log; ``NotACompetitionMatch`` says why a log is not read.
    ``should_stop`` is asked every ``SLICE`` lines (``Stopped``)."""
    try:
        checked = check_lines(lines, should_stop)
    except BadLog as exc:
        raise NotACompetitionMatch(str(exc)) from None
    undos = sum(1 for _, ev in checked.events if getattr(ev, "call", None) == "undo")
    rep = Replay(history=history_for(undos))
    applied = []
    skipped = 0
    for k, (n, event) in enumerate(checked.events):
        if should_stop is not None and k % SLICE == SLICE - 1 and should_stop():
            raise Stopped
        try:
            rep.apply(event)
        except TablesenseError as exc:
            if k == 0:  # the set-up itself
                raise NotACompetitionMatch(f"line {n}: {exc}") from None
            skipped += 1  # impossible in the match's state: skipped, as the pub's replay did
            continue
        except Exception as exc:  # the pub's own replay skips what its engine fails on too
            if k == 0:
                raise NotACompetitionMatch(f"line {n}: the rule engine cannot start this match "
                                           f"({type(exc).__name__})") from None
            skipped += 1
            continue
        applied.append(event)
    if rep.engine is None or rep.state is None:
        raise NotACompetitionMatch("the log has no set-up the rule engine takes")
    setup = checked.setup
    return ReplayedMatch(setup.game, setup.discipline, dict(setup.players), rep.engine.to_json(rep.state),
                         match_digest(applied), skipped,
                         figures(rep.state, setup.moyennes))


def carom_result(match: ReplayedMatch, source: str = "", barrage: bool = False) -> Result:
    """A carom competition's result from a replayed match (names from the set-up, p1 = yellow)."""
    if "match_points" not in match.final:  # the engine's own match points: carom's alone
        raise NotACompetitionMatch(f"the log is a {match.game} match, not carom")
    out = match.final
    if not out["finished"]:
        raise NotACompetitionMatch("the match in the log is not finished")
    names = match.players
    for p in ("p1", "p2"):
        if not isinstance(names.get(p), str):
            raise NotACompetitionMatch("a competition match has one player a side")

    def pair(key: str) -> tuple[int, int]:
        return (out[key]["p1"], out[key]["p2"])

    return Result(names["p1"], names["p2"], pair("caroms"), pair("innings"), pair("targets"),
                  out["winner"], pair("match_points"), pair("high_run"), barrage, source)


def result_from_lines(lines: Sequence[str], source: str = "", barrage: bool = False) -> Result:
    """Replay a carom match log and read its result (names from the setup, p1 = yellow)."""
    return carom_result(replay_match(lines), source, barrage)


def lines_from_store(path: str, match_id: int) -> list[str]:
    """The effective event lines of match ``match_id`` in the pub's match log at ``path``."""
    import os
    import sqlite3

    from ..store import Store, effective_lines

    if not os.path.exists(path):
        raise NotACompetitionMatch(f"no match log at {path}")
    try:
        store = Store(path)
    except (sqlite3.Error, OSError, ValueError) as exc:
        raise NotACompetitionMatch(f"{path} is no match log: {exc}") from None
    try:
        store.match(match_id)
        return [ev.line for ev in effective_lines(store.events(match_id))]
    except (ValueError, sqlite3.Error) as exc:
        raise NotACompetitionMatch(f"{path}: {exc}") from None
    finally:
        store.close()


__all__ = ["NotACompetitionMatch", "ReplayedMatch", "Stopped", "carom_result", "lines_from_store",
           "replay_match", "result_from_lines"]
