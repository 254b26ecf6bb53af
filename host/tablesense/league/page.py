"""The league web page: ``/`` (HTML, refreshed from ``/api/league`` every two seconds),
``/api/league`` (the data, ``view.league_view``: the standings and each competition's newest
results, bounded however many are stored) and ``/api/league/round?competition=ID&round=N``
(one round whole, ``round=entered``: the results entered by hand; the page fetches it when the
user opens an earlier round). Read-only: nothing on it changes anything.

The data never fails as a whole: a fault reading the league's file (locked past SQLite's
wait, damaged) answers with what could not be read in ``error`` -- said once on stderr, a
page that polls every two seconds writing no trace each time -- never with a 500. A round
asked for by a query that does not read answers 400, one that is not there 404, both with
``error`` saying why.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Mapping
from typing import Any

from aiohttp import web

from .inbox import Inbox
from .limits import cut
from .view import PageCache, finite, league_json, round_json

#: a competition's id or a round's number in a query: a positive whole number, ASCII digits
_NUMBER = re.compile(r"[1-9][0-9]{0,8}")

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
const opened = {};  // the rounds the user opened: 'competition/date' -> what was fetched of it
let last = null;  // the data last polled, drawn again when an opened round arrives
function fetchRound(c, which, key, total, date) {
  const o = opened[key] = {total, revised: c.revised, results: null, error: null};
  fetch(`api/league/round?competition=${c.id}&round=${which}`).then(r => r.json()).then(x => {
    if (opened[key] !== o) return;
    if (date !== undefined && x.date !== undefined && x.date !== date) {  // renumbered: again next poll
      o.total = -1; return; }
    if (x.error) o.error = x.error; else o.results = x.results || x.entered;
    if (last) render(last);
  }).catch(e => { o.error = String(e); });
}
function opener(c, which, key, total, label, date) {  // a round cut short or not in the data
  const o = opened[key];
  if (o && (o.total !== total || o.revised !== c.revised)) fetchRound(c, which, key, total, date);  // changed
  const b = el('button', opened[key] ? 'hide' : label, 'open');
  b.onclick = () => { if (opened[key]) delete opened[key]; else fetchRound(c, which, key, total, date);
                      if (last) render(last); };
  return b;
}
function roundOf(comps, c, head, r) {  // a round: whole, its newest results, or only its heading
  const key = `${c.id}/${r.date}`, total = r.total === undefined ? r.results.length : r.total;
  const h = el('h3', `Round ${r.round} (${r.date})`);
  comps.appendChild(h);
  const shown = r.results || [];
  if (shown.length >= total) { comps.appendChild(grid(head, shown.map(score))); return; }
  const label = shown.length ? `show all ${total} results` : `show its ${total} results`;
  h.append(' ', opener(c, r.round, key, total, label, r.date));
  const o = opened[key];
  if (o && o.results) comps.appendChild(grid(head, o.results.map(score)));
  else if (o && o.error) comps.appendChild(el('p', o.error, 'bad'));
  else if (shown.length) { comps.appendChild(el('p', `the newest ${shown.length} of ${total}`));
    comps.appendChild(grid(head, shown.map(score))); }
}
function render(d) {
  last = d;
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
    (c.earlier || []).forEach(r => roundOf(comps, c, head, {...r, results: []}));
    c.rounds.forEach(r => roundOf(comps, c, head, r));
    const hand = c.entered_total === undefined ? c.entered.length : c.entered_total;
    if (hand) { const h = el('h3', 'Entered by hand'); comps.appendChild(h);
      const key = `${c.id}/entered`, o = opened[key];
      if (hand > c.entered.length) h.append(' ', opener(c, 'entered', key, hand, `show all ${hand}`));
      if (o && o.results) comps.appendChild(grid(head, o.results.map(score)));
      else { if (hand > c.entered.length)
          comps.appendChild(el('p', `the newest ${c.entered.length} of ${hand}`));
        comps.appendChild(grid(head, c.entered.map(score))); } }
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

    async def one_round(request: web.Request) -> web.Response:
        try:
            competition, round_no = round_query(request.query)
        except ValueError as exc:
            return web.json_response({"error": str(exc)}, status=400)
        try:
            text = round_json(inbox, cache, competition, round_no)
        except Exception as exc:  # as the data's: said once, answered with what it is
            why = cut(f"{type(exc).__name__}: {exc}", 200)
            if said != [why]:
                said[:] = [why]
                print(f"tablesense league serve: a round of the league page: {why}", file=sys.stderr,
                      flush=True)
            cache.comps.clear()
            return web.json_response({"competition": competition, "results": [], "error": why})
        if text is None:
            what = "results entered by hand" if round_no is None else f"round {round_no}"
            return web.json_response({"error": f"no {what} in competition {competition}"}, status=404)
        return web.Response(text=text, content_type="application/json")

    app = web.Application()
    app.router.add_get("/", page)
    app.router.add_get("/api/league", data)
    app.router.add_get("/api/league/round", one_round)
    return app


def round_query(query: Mapping[str, str]) -> tuple[int, int | None]:
    """(competition id, round number or None for the results entered by hand) of a round's
    query; ``ValueError`` says what does not read."""
    getall = getattr(query, "getall", None)
    out: list[str] = []
    for name in ("competition", "round"):
        values = getall(name, []) if getall is not None else ([query[name]] if name in query else [])
        if len(values) != 1:
            raise ValueError(f"give {name}= once" + ("" if name == "competition" else
                                                     " (a round's number, 1 the first, or entered)"))
        out.append(values[0])
    comp, rnd = out
    if not _NUMBER.fullmatch(comp):
        raise ValueError(f"competition is a competition's id (a whole number from 1), not {cut(comp, 40)!r}")
    if rnd == "entered":
        return int(comp), None
    if not _NUMBER.fullmatch(rnd):
        raise ValueError(f"round is a round's number (1 the first) or entered, not {cut(rnd, 40)!r}")
    return int(comp), int(rnd)
