"""What the league page shows, as data: standings, results per round, the year, live tables.

A round is an evening of play: the pubs' matches that started on one date (the league
host's local time), numbered in order. Results entered by hand have no date and are
listed apart.
"""

from __future__ import annotations

import json
import time
from typing import Any

from .inbox import Inbox
from .season import year_standings
from .standings import Result, standings, winner
from .store import Competition, _result_from


def league_view(inbox: Inbox, live: list[dict[str, Any]]) -> dict[str, Any]:
    store = inbox.store
    comps = store.competitions()
    out: list[dict[str, Any]] = []
    halves: dict[str, list[Competition]] = {}
    for comp in comps:
        out.append(_competition(inbox, comp))
        if comp.season:
            halves.setdefault(comp.season, []).append(comp)
    years = []
    for season, group in halves.items():
        if len(group) > 1:
            rows = year_standings([(store.players(c), store.results(c)) for c in group])
            years.append({"season": season, "halves": [c.name for c in group],
                          "standings": [r.to_dict() for r in rows]})
    refused = [{"pub": p, "match": m, "reason": r, "at": at} for p, m, r, at in inbox.refused()]
    return {"competitions": out, "years": years, "live": live, "refused": refused, "now": time.time()}


def _competition(inbox: Inbox, comp: Competition) -> dict[str, Any]:
    rows = inbox.db.execute("SELECT id, data FROM results WHERE competition_id=? ORDER BY id",
                            (comp.id,)).fetchall()
    results = [(rid, _result_from(json.loads(d))) for rid, d in rows]
    table = standings(inbox.store.players(comp), [r for _, r in results])
    champ, barrage = winner(table)
    played = inbox.played(comp)
    by_date: dict[str, list[dict[str, Any]]] = {}
    entered = []
    for rid, r in sorted(results, key=lambda x: played.get(x[0], ("", "", "", 0.0))[3]):
        item = _result(r)
        if rid in played:
            match, pub, tab, started = played[rid]
            item.update(match=match, pub=pub, table=tab, started=started)
            by_date.setdefault(time.strftime("%Y-%m-%d", time.localtime(started)), []).append(item)
        else:
            entered.append(item)
    rounds = [{"round": n, "date": day, "results": items}
              for n, (day, items) in enumerate(sorted(by_date.items()), start=1)]
    return {"name": comp.name, "season": comp.season, "half": comp.half, "discipline": comp.discipline,
            "profile": comp.profile, "scheme": comp.scheme, "standings": [s.to_dict() for s in table],
            "winner": champ, "barrage": barrage, "rounds": rounds, "entered": entered}


def _result(r: Result) -> dict[str, Any]:
    return {"p1": r.p1, "p2": r.p2, "caroms": list(r.caroms), "targets": list(r.targets),
            "innings": list(r.innings), "winner": r.winner, "points": list(r.points), "barrage": r.barrage}
