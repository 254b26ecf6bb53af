"""A complete read of the league page over HTTP: every result of a competition, the newest
from ``/api/league`` and the rounds it does not carry whole from ``/api/league/round`` (as
the page fetches them when the user opens them)."""

from __future__ import annotations

import json
import urllib.request
from typing import Any


def get(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=10) as r:
        return dict(json.load(r))


def every_round(base: str, comp: dict[str, Any]) -> list[dict[str, Any]]:
    """Every round of ``comp`` (a competition of ``/api/league`` read from ``base``,
    ``http://host:port``) whole, in order; a round cut short or listed in ``earlier`` fetched."""
    carried = {r["round"]: r for r in comp["rounds"]}
    out = []
    for n in range(1, comp.get("rounds_total", len(comp["rounds"])) + 1):
        r = carried.get(n)
        if r is None or len(r["results"]) < r.get("total", len(r["results"])):
            one = get(f"{base}/api/league/round?competition={comp['id']}&round={n}")
            r = {"round": one["round"], "date": one["date"], "results": one["results"]}
        out.append(r)
    return out


def every_result(base: str, comp: dict[str, Any]) -> list[dict[str, Any]]:
    """Every result of ``comp`` in a round (not those entered by hand), checked against the
    count the data gives."""
    results = [x for r in every_round(base, comp) for x in r["results"]]
    assert len(results) == comp.get("results_total", len(results)), "a round changed while read"
    return results
