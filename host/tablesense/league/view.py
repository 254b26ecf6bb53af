"""What the league page shows, as data: standings, results per round, the year, live tables.

A round is an evening of play: the pubs' matches that started on one date (the league
host's local time), numbered in order. Results entered by hand have no date and are
listed apart.

Nothing stored can take the page down: a result row that does not read (written by hand,
by an older release, a file damaged) is left out of the standings and listed under
``unreadable`` with the reason; a start that is no date shows as ``?``; a number that is not
finite is sent as null (``finite``).
"""

from __future__ import annotations

import json
import math
import time
from typing import Any

from . import part
from .inbox import Inbox
from .limits import MAX_COUNT, MAX_FIXTURE, MAX_STARTED, MIN_STARTED, cut
from .report import report
from .scheme import GAMES
from .season import year_standings
from .standings import Result
from .store import GAME_PAIRS, Competition, _result_from

#: how many refusals the page lists (the newest; ``refused_total`` says how many there are)
REFUSED_SHOWN = 200


def league_view(inbox: Inbox, live: list[dict[str, Any]]) -> dict[str, Any]:
    store = inbox.store
    with inbox.lock:
        comps = store.competitions()
    out: list[dict[str, Any]] = []
    unreadable: list[dict[str, Any]] = []
    halves: dict[tuple[str, str], list[tuple[Competition, list[Result]]]] = {}
    for comp in comps:
        view, results = _competition(inbox, comp, unreadable)
        out.append(view)
        if comp.season:
            halves.setdefault((comp.season, comp.game), []).append((comp, results))
    years = []
    for (season, _), group in halves.items():
        if len(group) > 1:
            with inbox.lock:
                players = [store.players(c) for c, _ in group]
            first = group[0][0]
            rows = year_standings([(p, rs) for p, (_, rs) in zip(players, group)], first.record.order,
                                  first.game)
            years.append({"season": season, "halves": [c.name for c, _ in group], "game": first.game,
                          "columns": columns(first.game), "standings": [r.to_dict() for r in rows]})
    refused = [{"pub": p, "match": m, "reason": r, "at": at} for p, m, r, at in inbox.refused(REFUSED_SHOWN)]
    return finite({"competitions": out, "years": years, "live": live, "refused": refused,
                   "refused_total": inbox.refused_count(), "unreadable": unreadable, "now": time.time()})


def _competition(inbox: Inbox, comp: Competition, unreadable: list[dict[str, Any]],
                 ) -> tuple[dict[str, Any], list[Result]]:
    with inbox.lock:
        rows = inbox.db.execute("SELECT id, data FROM results WHERE competition_id=? ORDER BY id",
                                (comp.id,)).fetchall()
        players = inbox.store.players(comp)
        teams = inbox.store.teams(comp)
        fixtures = inbox.store.fixtures(comp)
    results: list[tuple[int, Result]] = []
    for rid, data in rows:
        try:
            results.append((rid, readable(json.loads(data))))
        except (ValueError, TypeError, KeyError, IndexError, RecursionError) as exc:
            why = cut(str(exc) or type(exc).__name__, 200)
            unreadable.append({"competition": comp.name, "result": rid, "why": why})
    tables = report(comp, players, results, teams, fixtures, time.strftime("%Y-%m-%d"))
    played = inbox.played(comp)
    by_date: dict[str, list[dict[str, Any]]] = {}
    entered = []
    for rid, r in sorted(results, key=lambda x: _when(played.get(x[0], ("", "", "", 0.0))[3])):
        item = _result(r)
        if rid in played:
            match, pub, tab, started = played[rid]
            item.update(match=match, pub=pub, table=tab, started=started)
            by_date.setdefault(_date(started), []).append(item)
        else:
            entered.append(item)
    rounds = [{"round": n, "date": day, "results": items}
              for n, (day, items) in enumerate(sorted(by_date.items()), start=1)]
    own = part.of(comp.game)
    view = {"name": comp.name, "season": comp.season, "half": comp.half, "discipline": comp.discipline,
            "profile": comp.profile, "game": comp.game, "scheme": comp.scheme,
            "what": comp.discipline if own.DISCIPLINES else f"{comp.game}, {comp.scheme}",
            "columns": columns(comp.game), "heads": [*own.RESULT_HEADS, "points", "where", "match"],
            "decider": comp.record.decider, "rounds": rounds, "entered": entered}
    view.update({k: v for k, v in tables.items() if k not in ("competition", "scheme")})
    return view, [r for _, r in results]


def columns(game: str) -> list[list[Any]]:
    """The standings' columns of ``game`` as the page draws them: heading, key, the decimals of
    a number shown with them (0: as it is)."""
    own = part.of(game)
    return [[head, key, own.AVERAGE_DECIMALS if key == "average" else 0] for head, key in own.COLUMNS]


def readable(d: Any) -> Result:
    """A stored result row, every field checked (``ValueError`` says which does not read)."""
    if not isinstance(d, dict):
        raise ValueError("not a result")
    r = _result_from(d)
    for name in ("p1", "p2"):
        if not isinstance(getattr(r, name), str):
            raise ValueError(f"{name} is no name")
    for name in ("caroms", "innings", "targets", "points", "high_run", *GAME_PAIRS):
        pair = getattr(r, name)
        if len(pair) != 2 or not all(type(v) is int and 0 <= v <= MAX_COUNT for v in pair):
            raise ValueError(f"{name} is no pair of counts")
    if r.winner not in ("p1", "p2", "draw"):
        raise ValueError("no winner")
    if r.game not in GAMES:
        raise ValueError("no game")
    if r.fixture is not None and not (type(r.fixture) is int and 0 < r.fixture <= MAX_FIXTURE):
        raise ValueError("fixture is no fixture's id")
    if not all(o in ("p1", "p2") for o in r.openers):
        raise ValueError("openers are no sides")
    return r


def _when(started: Any) -> float:
    return float(started) if isinstance(started, (int, float)) and math.isfinite(started) else 0.0


def _date(started: Any) -> str:
    if not isinstance(started, (int, float)) or not MIN_STARTED <= started <= MAX_STARTED:
        return "?"
    return time.strftime("%Y-%m-%d", time.localtime(started))


def _result(r: Result) -> dict[str, Any]:
    out: dict[str, Any] = {"p1": r.p1, "p2": r.p2, "game": r.game, "winner": r.winner,
                           "points": list(r.points), "barrage": r.barrage, "fixture": r.fixture}
    own = part.of(r.game)
    out.update(own.result_fields(r), cells=own.result_cells(r))
    return out


def finite(value: Any) -> Any:
    """``value`` with every number that is not finite made null (JSON has no NaN)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [finite(v) for v in value]
    return value
