"""A competition result taken from a stored match log, replayed by the real engine.

The log is a JSONL file or a match in the pub's SQLite match log (``tablesense.store``;
voided events are left out as the pub's own replay does).
"""

from __future__ import annotations

from ..replay import Replay
from .standings import Result


class NotACompetitionMatch(ValueError):
    """The log is no finished carom match."""


def result_from_lines(lines: list[str], source: str = "", barrage: bool = False) -> Result:
    """Replay a carom match log and read its result (names from the setup, p1 = yellow)."""
    rep = Replay().feed_lines(lines)
    if rep.state is None or rep.engine is None:
        raise NotACompetitionMatch("the log has no setup event")
    if rep.state.game != "carom":
        raise NotACompetitionMatch(f"the log is a {rep.state.game} match, not carom")
    out = rep.engine.to_json(rep.state)
    if not out["finished"]:
        raise NotACompetitionMatch("the match in the log is not finished")
    names = dict(rep.state.players)
    for p in ("p1", "p2"):
        if not isinstance(names.get(p), str):
            raise NotACompetitionMatch("a competition match has one player a side")

    def pair(key: str) -> tuple[int, int]:
        return (out[key]["p1"], out[key]["p2"])

    return Result(names["p1"], names["p2"], pair("caroms"), pair("innings"), pair("targets"),
                  out["winner"], pair("match_points"), pair("high_run"), barrage, source)


def lines_from_store(path: str, match_id: int) -> list[str]:
    """The effective event lines of match ``match_id`` in the pub's match log at ``path``."""
    import os

    from ..store import Store, effective_lines

    if not os.path.exists(path):
        raise NotACompetitionMatch(f"no match log at {path}")
    store = Store(path)
    try:
        store.match(match_id)
        return [ev.line for ev in effective_lines(store.events(match_id))]
    except ValueError as exc:
        raise NotACompetitionMatch(f"{path}: {exc}") from None
    finally:
        store.close()
