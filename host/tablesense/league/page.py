"""The league web page: ``/`` (HTML, refreshed from ``/api/league`` every two seconds) and
``/api/league`` (the data, ``view.league_view``). Read-only: nothing on it changes anything.

The data never fails as a whole: a fault reading the league's file (locked past SQLite's
wait, damaged) answers with what could not be read in ``error`` -- said once on stderr, a
page that polls every two seconds writing no trace each time -- never with a 500.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from aiohttp import web

from .inbox import Inbox
from .limits import cut
from .view import PageCache, finite, league_json

PAGE = r"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>League</title>
<style>
body{font-family:system-ui,sans-serif;margin:1rem auto;max-width:60rem;padding:0 1rem;color:#111}
table{border-collapse:collapse;margin:.5rem 0 1rem}td,th{padding:.2rem .6rem;border-bottom:1px solid #ddd}
th{text-align:left}td.n{text-align:right}h2{margin-top:2rem}.live{background:#eef6ee}.bad{color:#900}
</style></head><body>
<h1>League</h1>
<section id="live"></section><main id="comps"></main><section id="years"></section>
<section id="refused"></section>
<script>
const el = (tag, text, cls) => { const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; };
function grid(head, rows) {
  const t = el('table'), h = t.insertRow();
  head.forEach(x => h.appendChild(el('th', x)));
  rows.forEach(r => { const tr = t.insertRow();
    r.forEach(v => tr.appendChild(el('td', String(v), /^[-\d./]+$/.test(String(v)) ? 'n' : ''))); });
  return t;
}
function standings(rows, cols) {
  return grid(['#', 'player', ...cols.map(c => c[0])],
    rows.map((r, i) => [i + 1, r.name, ...cols.map(([, k, d]) =>
      d ? (r[k] === null || r[k] === undefined ? '?' : r[k].toFixed(d)) : r[k])]));
}
function score(r) {
  const where = r.pub ? `${r.pub} table ${r.table}` : 'entered', id = r.match || '';
  return [...r.cells, `${r.points[0]}-${r.points[1]}`, where, id];
}
function fixtures(list) {  // the home team's pub: a team competition's (a club's players play at the club)
  if (!list.some(f => f.pub)) return grid(['date', 'home', 'away'], list.map(f => [f.date, f.home, f.away]));
  return grid(['date', 'home', 'away', 'pub'], list.map(f => [f.date, f.home, f.away, f.pub || '']));
}
function render(d) {
  const live = document.getElementById('live'); live.replaceChildren(el('h2', 'Live'));
  if (!d.live.length) live.appendChild(el('p', 'No match is being played.'));
  d.live.forEach(x => live.appendChild(el('p', `${x.pub} table ${x.table}: ` +
    (x.summary || Object.values(x.match.players).join(' - ')), 'live')));
  const comps = document.getElementById('comps'); comps.replaceChildren();
  d.competitions.forEach(c => {
    const when = [c.half, c.season].filter(Boolean).join(' ');  // golf, keglebillard: no half unless given
    comps.appendChild(el('h2', `${c.name} (${when ? when + ', ' : ''}${c.what})`));
    (c.groups || []).forEach(g => {
      if (g.group) comps.appendChild(el('h3', `group ${g.group}`));
      comps.appendChild(standings(g.standings, c.columns));
      if (g.winner) comps.appendChild(el('p', `winner: ${g.winner}`));
      else if (g.decider.length && c.decider)
        comps.appendChild(el('p', `a ${c.decider} decides between ${g.decider.join(' and ')}`, 'decider'));
      else if (g.decider.length) comps.appendChild(el('p', `shared: ${g.decider.join(' and ')}`));
    });
    if (c.teams) { comps.appendChild(el('h3', 'Teams'));
      comps.appendChild(grid(['#', 'team', 'home', 'nights', 'won', 'drawn', 'lost', 'team points', 'points'],
        c.teams.map((t, i) => [i + 1, t.name, t.pub, t.played, t.won, t.drawn, t.lost, t.team_points,
                               t.points_for]))); }
    if (c.nights && c.nights.length) { comps.appendChild(el('h3', 'Nights'));
      comps.appendChild(grid(['date', 'home', '', 'away', '', 'team points', 'matches'],
        c.nights.map(n => [n.date, n.home, n.points[0], n.away, n.points[1],
                           n.team_points ? n.team_points.join('-') : '', `${n.matches}/${n.expected}`]))); }
    const sch = c.schedule || {};
    if ((sch.next || []).length) { comps.appendChild(el('h3', `Next: ${sch.next[0].date}`, 'next'));
      comps.appendChild(fixtures(sch.next)); }
    if ((sch.overdue || []).length) { comps.appendChild(el('h3', 'Not played yet (overdue)'));
      comps.appendChild(fixtures(sch.overdue)); }
    const all = ['played', 'next', 'later', 'overdue'].reduce((n, k) => n + (sch[k] || []).length, 0);
    if ((sch.played || []).length) { comps.appendChild(el('h3', `Played: ${sch.played.length} of ${all}`,
      'played'));
      comps.appendChild(fixtures(sch.played)); }
    const head = c.heads;
    c.rounds.forEach(r => { comps.appendChild(el('h3', `Round ${r.round} (${r.date})`));
      comps.appendChild(grid(head, r.results.map(score))); });
    if (c.entered.length) { comps.appendChild(el('h3', 'Entered by hand'));
      comps.appendChild(grid(head, c.entered.map(score))); }
  });
  const years = document.getElementById('years'); years.replaceChildren();
  d.years.forEach(y => { years.appendChild(el('h2', `Year ${y.season}: ${y.halves.join(' + ')}`));
    years.appendChild(standings(y.standings, y.columns)); });
  const bad = document.getElementById('refused'); bad.replaceChildren();
  if (d.error) bad.appendChild(el('p', `the league's data cannot be read now: ${d.error}`, 'bad'));
  if (d.refused.length) { bad.appendChild(el('h2', 'Refused'));
    if (d.refused_total > d.refused.length)
      bad.appendChild(el('p', `the newest ${d.refused.length} of ${d.refused_total}`));
    bad.appendChild(grid(['pub', 'match', 'why'], d.refused.map(x => [x.pub, x.match, x.reason]))); }
  if ((d.unreadable || []).length) { bad.appendChild(el('h2', 'Stored results that do not read'));
    bad.appendChild(grid(['competition', 'result', 'why'],
      d.unreadable.map(x => [x.competition, x.result, x.why]))); }
}
async function tick() {
  try { const r = await fetch('api/league'); if (r.ok) render(await r.json()); } catch (e) {}
  setTimeout(tick, 2000);
}
tick();
</script></body></html>
"""


def make_app(inbox: Inbox, live: Callable[[], list[dict[str, Any]]]) -> web.Application:
    said: list[str] = []
    cache = PageCache()  # what the last poll read: a poll reads only what changed since

    async def page(request: web.Request) -> web.Response:
        return web.Response(text=PAGE, content_type="text/html")

    async def data(request: web.Request) -> web.Response:
        try:
            text = league_json(inbox, live(), cache)
        except Exception as exc:  # the page's edge: whatever it is, said once, answered with what it is
            why = cut(f"{type(exc).__name__}: {exc}", 200)
            if said != [why]:  # once per new fault, not once per poll
                said[:] = [why]
                print(f"tablesense league serve: the league page's data: {why}", file=sys.stderr, flush=True)
            cache.comps.clear()  # read whole again at the next poll
            body = {"competitions": [], "years": [], "live": finite(live()), "refused": [],
                    "refused_total": 0, "unreadable": [], "error": why}
            text = json.dumps(body, allow_nan=False)
        return web.Response(text=text, content_type="application/json")

    app = web.Application()
    app.router.add_get("/", page)
    app.router.add_get("/api/league", data)
    return app
