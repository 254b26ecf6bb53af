"""A competition result taken from a stored match log (JSONL), replayed by the real engine."""

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
