"""What the league page shows, as data: standings, results per round, the year, live tables.

A round is an evening of play: the pubs' matches that started on one date (the league
host's local time), numbered in order. Results entered by hand have no date and are
listed apart.

Nothing stored can take the page down: a result row that does not read (written by hand,
by an older release, a file damaged) is left out of the standings and listed under
``unreadable`` with the reason; a start that is no date shows as ``?``; a number that is not
finite is sent as null (``finite``).

The page polls every two seconds and a league stores thousands of matches a season, so
the data it polls is bounded (``RESULTS_SHOWN``): a competition's newest results in their
rounds (a round cut short says how many it has, ``total``), an index of the rounds before
them (``earlier``) and how many there are in all (``rounds_total``, ``results_total``,
``entered_total``; ``revised``: how often a stored result was changed or deleted, so that a
round the page opened is fetched again when it changes); a round, or the results entered by
hand, is read whole on demand
(``round_json``, ``/api/league/round``). ``league_json(..., whole=True)`` is every result, as
the data was before it was bounded (for a complete read in process: tests, checks).

The data is kept between polls (``PageCache``): each result is read, checked and written
as JSON once, counted into its competition's tables as it comes (``report.Tally``), and
each round's results are written out again only when that round changed. A poll reads
only the results entered since the last one; a result changed or deleted (a revision, a
barrage; counted by triggers in ``league_changes``) or a competition's players, teams or
schedule changed has that competition read again whole.
"""

from __future__ import annotations

import bisect
import itertools
import json
import math
import time
from typing import Any

from . import part
from .inbox import Inbox
from .limits import MAX_COUNT, MAX_FIXTURE, MAX_STARTED, MIN_STARTED, cut
from .report import Tally
from .scheme import GAMES
from .season import year_standings
from .standings import Result
from .store import GAME_PAIRS, Competition, _result_from

#: how many refusals the page lists (the newest; ``refused_total`` says how many there are)
REFUSED_SHOWN = 200
#: how many of a competition's results the page's data carries in its rounds, and how many of
#: those entered by hand (the newest; the rest are read a round at a time, on demand)
RESULTS_SHOWN = 50
ENTERED_SHOWN = 20
#: a competition's results entered after a given one, with the match each came from (if a pub's)
NEW_RESULTS = ("SELECT r.id, r.data, m.match_id, m.pub, m.table_id, m.started FROM results r "
               "LEFT JOIN league_matches m ON m.result_id = r.id "
               "WHERE r.competition_id=? AND r.id>? ORDER BY r.id")
_SERIAL = itertools.count()


class CompetitionPage:
    """One competition's part of the page as last read: its results, tables and rounds."""

    def __init__(self, key: tuple[Any, ...]) -> None:
        comp, players, teams, fixtures = key
        self.key = key
        self.serial = next(_SERIAL)  # this reading of it (the year's standings keep theirs by it)
        self.comp: Competition = comp
        self.changes = -1  # ``league_changes`` when it was read
        self.last = 0  # the highest result id read
        self.tally = Tally(comp, list(players), list(teams), list(fixtures))
        self.results: list[Result] = []  # the readable ones, in the order they were entered
        self.unreadable: list[dict[str, Any]] = []
        self._days: dict[str, list[tuple[float, int, str]]] = {}  # date -> (start, id, its JSON), sorted
        self._day_json: dict[str, str] = {}  # date -> its results' JSON (dropped when the round changes)
        self._entered: list[str] = []

    def add(self, rid: int, data: Any, played: tuple[str, str, str, float] | None) -> None:
        try:
            r = readable(json.loads(data))
        except (ValueError, TypeError, KeyError, IndexError, RecursionError) as exc:
            why = cut(str(exc) or type(exc).__name__, 200)
            self.unreadable.append({"competition": self.comp.name, "result": rid, "why": why})
            return
        self.tally.add(rid, r)
        self.results.append(r)
        item = _result(r)
        if played is None:
            self._entered.append(_dumps(item))
            return
        match, pub, tab, started = played
        item.update(match=match, pub=pub, table=tab, started=started)
        day = _date(started)
        bisect.insort(self._days.setdefault(day, []), (_when(started), rid, _dumps(item)))
        self._day_json.pop(day, None)

    def rounds_json(self) -> str:
        """Every round whole, in order (the data before it was bounded)."""
        days = sorted(self._days)
        return f"[{', '.join(self.round_json(n) for n in range(1, len(days) + 1))}]"

    def round_json(self, n: int) -> str | None:
        """Round ``n`` (1: the first) with all its results; None if there is no such round."""
        days = sorted(self._days)
        if not 1 <= n <= len(days):
            return None
        day = days[n - 1]
        if day not in self._day_json:
            self._day_json[day] = ", ".join(x[2] for x in self._days[day])
        return f'{{"round": {n}, "date": {_dumps(day)}, "results": [{self._day_json[day]}]}}'

    def latest_json(self, bound: int = RESULTS_SHOWN) -> str:
        """The bounded part of the page's data: the newest ``bound`` results in their rounds (in
        order, each round's results in order; the oldest of them cut to its newest results if it
        has more, ``total`` saying how many it has), the rounds before them as an index, and the
        counts of all."""
        days = sorted(self._days)
        left, shown = bound, []
        for n in range(len(days), 0, -1):
            if left <= 0:
                break
            items = self._days[days[n - 1]]
            take = items[-left:]
            left -= len(take)
            body = ", ".join(x[2] for x in take)
            shown.append(f'{{"round": {n}, "date": {_dumps(days[n - 1])}, "results": [{body}], '
                         f'"total": {len(items)}}}')
        first = len(days) - len(shown)  # rounds 1 .. first are not in the data
        earlier = [{"round": n, "date": days[n - 1], "total": len(self._days[days[n - 1]])}
                   for n in range(1, first + 1)]
        total = sum(len(v) for v in self._days.values())
        return (f'"rounds": [{", ".join(reversed(shown))}], "earlier": {_dumps(earlier)}, '
                f'"rounds_total": {len(days)}, "results_total": {total}, '
                f'"entered": {self.entered_json(ENTERED_SHOWN)}, "entered_total": {len(self._entered)}')

    def entered_json(self, bound: int | None = None) -> str:
        """The results entered by hand, in order (``bound``: only the newest so many)."""
        items = self._entered if bound is None else self._entered[max(0, len(self._entered) - bound):]
        return f"[{', '.join(items)}]"


class PageCache:
    """The league page's data kept between polls, for one reader connection."""

    def __init__(self) -> None:
        self.comps: dict[int, CompetitionPage] = {}
        self._years: dict[tuple[Any, ...], list[dict[str, Any]]] = {}

    def refresh(self, inbox: Inbox) -> list[CompetitionPage]:
        """Every competition as it is now, reading what changed since the last call in one
        read transaction (one consistent view of the file)."""
        store, db = inbox.store, inbox.db
        with inbox.lock:
            db.execute("BEGIN")
            try:
                changes = dict(db.execute("SELECT competition_id, changes FROM league_changes").fetchall())
                pages = []
                for comp in store.competitions():
                    key = (comp, tuple(store.players(comp)), tuple(store.teams(comp)),
                           tuple(store.fixtures(comp)))
                    page = self.comps.get(comp.id)
                    if page is None or page.key != key or page.changes != changes.get(comp.id, 0):
                        page = CompetitionPage(key)
                        page.changes = changes.get(comp.id, 0)
                        self.comps[comp.id] = page
                    rows = db.execute(NEW_RESULTS, (comp.id, page.last)).fetchall()
                    for rid, data, match, pub, tab, started in rows:
                        page.add(rid, data, None if match is None else (match, pub, tab, started))
                        page.last = rid
                    pages.append(page)
            finally:
                db.rollback()
        ids = {p.comp.id for p in pages}
        for gone in set(self.comps) - ids:
            del self.comps[gone]
        return pages

    def years(self, pages: list[CompetitionPage]) -> list[dict[str, Any]]:
        """The year's standings of each season played in two halves (counted again only when
        one of its halves changed)."""
        halves: dict[tuple[str, str], list[CompetitionPage]] = {}
        for page in pages:
            if page.comp.season:
                halves.setdefault((page.comp.season, page.comp.game), []).append(page)
        out = []
        for (season, _), group in halves.items():
            if len(group) < 2:
                continue
            key = tuple((p.serial, p.last) for p in group)
            if key not in self._years:
                first = group[0].comp
                rows = year_standings([(list(p.key[1]), p.results) for p in group],
                                      first.record.order, first.game)
                self._years[key] = [{"season": season, "halves": [p.comp.name for p in group],
                                     "game": first.game, "columns": columns(first.game),
                                     "standings": [r.to_dict() for r in rows]}]
            out += self._years[key]
        live_keys = {tuple((p.serial, p.last) for p in g) for g in halves.values()}
        for old in set(self._years) - live_keys:
            del self._years[old]
        return out


def league_json(inbox: Inbox, live: list[dict[str, Any]], cache: PageCache | None = None,
                whole: bool = False) -> str:
    """The league page's data (``/api/league``) as JSON text; ``cache`` keeps what it read
    for the next call (None: everything read anew); ``whole``: every result in its round, as
    the data was before it was bounded."""
    cache = PageCache() if cache is None else cache
    pages = cache.refresh(inbox)
    today = time.strftime("%Y-%m-%d")
    comps, unreadable = [], []
    for page in pages:
        comps.append(_competition_json(page, today, whole))
        unreadable += page.unreadable
    refused = [{"pub": p, "match": m, "reason": r, "at": at} for p, m, r, at in inbox.refused(REFUSED_SHOWN)]
    rest = _dumps({"years": cache.years(pages), "live": live, "refused": refused,
                   "refused_total": inbox.refused_count(), "unreadable": unreadable, "now": time.time()})
    return f'{{"competitions": [{", ".join(comps)}], {rest[1:]}'


def league_view(inbox: Inbox, live: list[dict[str, Any]], cache: PageCache | None = None,
                whole: bool = False) -> dict[str, Any]:
    """The league page's data as a dict (``league_json``)."""
    out: dict[str, Any] = json.loads(league_json(inbox, live, cache, whole))
    return out


def round_json(inbox: Inbox, cache: PageCache, competition: int, round_no: int | None) -> str | None:
    """One round of a competition whole (``/api/league/round``) as JSON text: ``round_no`` 1
    is the first, None the results entered by hand; None if there is no such competition or
    round."""
    page = next((p for p in cache.refresh(inbox) if p.comp.id == competition), None)
    if page is None:
        return None
    head = f'"competition": {competition}, "name": {_dumps(page.comp.name)}'
    if round_no is None:
        return f'{{{head}, "entered": {page.entered_json()}}}'
    body = page.round_json(round_no)
    return None if body is None else f"{{{head}, {body[1:]}"


def _competition_json(page: CompetitionPage, today: str, whole: bool = False) -> str:
    comp = page.comp
    own = part.of(comp.game)
    view = {"id": comp.id, "name": comp.name, "season": comp.season, "half": comp.half,
            "discipline": comp.discipline, "profile": comp.profile, "game": comp.game, "scheme": comp.scheme,
            "what": comp.discipline if own.DISCIPLINES else f"{comp.game}, {comp.scheme}",
            "columns": columns(comp.game), "heads": [*own.RESULT_HEADS, "points", "where", "match"],
            "decider": comp.record.decider, "revised": page.changes}
    tables = page.tally.report(today)
    view.update({k: v for k, v in tables.items() if k not in ("competition", "scheme")})
    head = _dumps(view)
    if whole:
        return f'{head[:-1]}, "rounds": {page.rounds_json()}, "entered": {page.entered_json()}}}'
    return f'{head[:-1]}, {page.latest_json()}}}'


def _dumps(value: Any) -> str:
    return json.dumps(finite(value), allow_nan=False)


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
