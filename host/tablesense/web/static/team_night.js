// Tonight's team night on the overview (league/pub_nights.py): a bar above the tables with the
// two teams' points under the competition's scheme, the team points they give, the matches
// played, in play and still to play, in the overview's language (the pub's, or ?lang=). Fed by
// /api/team-night every 3 s; hidden when the pub has no night tonight. Its own element, apart
// from the tables' cards (each card shows its match's score).
import { esc, strings, tIn } from "./common.js";

const bar = document.getElementById("team-night");
let lang = "en";
const t = (key, vars) => tIn(lang, key, vars);

function night(n) {
  const tp = n.team_points
    ? ` <span class="tn-tp">${esc(t("night.team_points", { home: n.team_points[0], away: n.team_points[1] }))}</span>` : "";
  const matches = n.matches.map((m) => m.state === "played"
    ? `<li class="tn-played">${esc(m.p1)} ${m.points[0]}-${m.points[1]} ${esc(m.p2)}</li>`
    : `<li class="tn-playing">${esc(m.p1)} - ${esc(m.p2)} · ${esc(t("night.at_table", { table: m.table }))}</li>`).join("");
  const pairs = (n.to_play || []).map((p) => `${p[0]} - ${p[1]}`).join(", ");
  const later = pairs ? `<li class="tn-later">${esc(t("night.to_play", { pairs }))}</li>` : "";
  return `<div class="tn" data-fixture="${n.fixture}">
    <div class="tn-score"><span class="tn-team">${esc(n.home.team)}</span>
      <span class="tn-points" data-side="home">${n.home.points}</span><span class="tn-dash">-</span>
      <span class="tn-points" data-side="away">${n.away.points}</span>
      <span class="tn-team">${esc(n.away.team)}</span>${tp}</div>
    <div class="tn-sub">${esc(n.competition)} · ${esc(t("night.played", { played: n.played, expected: n.expected }))}</div>
    <ul class="tn-matches">${matches}${later}</ul></div>`;
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

async function start() {
  try { // the overview's language, as overview.js picks it
    const info = await (await fetch("/api/tables")).json();
    lang = (await strings(new URLSearchParams(location.search).get("lang") || info.lang || "en")).lang || "en";
  } catch (e) { /* English */ }
  bar.setAttribute("aria-label", t("night.title")); // a named section: a landmark of its own
  tick();
}
if (bar) start();
