// Tonight's team night on the overview (league/pub_nights.py): a bar above the tables with the
// two teams' points under the competition's scheme, the matches played and in play. Fed by
// /api/team-night every 3 s; hidden when the pub has no night tonight. Its own element, apart
// from the tables' cards.
const bar = document.getElementById("team-night");
const esc = (v) => String(v ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

function night(n) {
  const tp = n.team_points ? ` <span class="tn-tp">(${n.team_points[0]}-${n.team_points[1]})</span>` : "";
  const matches = n.matches.map((m) => m.state === "played"
    ? `<li class="tn-played">${esc(m.p1)} ${m.points[0]}-${m.points[1]} ${esc(m.p2)}</li>`
    : `<li class="tn-playing">${esc(m.p1)} - ${esc(m.p2)}: ${esc(m.summary)}</li>`).join("");
  return `<div class="tn" data-fixture="${n.fixture}">
    <div class="tn-score"><span class="tn-team">${esc(n.home.team)}</span>
      <span class="tn-points" data-side="home">${n.home.points}</span><span class="tn-dash">-</span>
      <span class="tn-points" data-side="away">${n.away.points}</span>
      <span class="tn-team">${esc(n.away.team)}</span>${tp}</div>
    <div class="tn-sub">${esc(n.competition)} · ${n.played}/${n.expected}</div>
    <ul class="tn-matches">${matches}</ul></div>`;
}

async function tick() {
  try {
    const r = await fetch("/api/team-night");
    if (r.ok) {
      const d = await r.json();
      const html = (d.nights || []).map(night).join("");
      if (bar._html !== html) { bar.innerHTML = html; bar._html = html; }
      bar.hidden = !(d.nights || []).length;
    }
  } catch (e) { /* the host restarting: the next tick */ }
  setTimeout(tick, 3000);
}
if (bar) tick();
