// All tables of the pub at a glance (/), live over one WebSocket: up to 8 tables on one
// 1080p screen, each readable from 3 m (names, score, who is at the table, the last shot).
// Each card speaks its table's language (the last shot is told by the host in it); the page's
// own frame speaks the pub's language (/api/tables), or ?lang=.
import { esc, fitText, gameTitle, live, loadLang, marked, name, per, strings, tIn } from "./common.js";

const snaps = {};
const MAIN = { golf: ["frames_won", "frames"], kegle: ["points", "points"], carom: ["caroms", "caroms"] };
const cards = {}; // table -> its element: one table's change repaints its card only
const wanted = new URLSearchParams(location.search).get("lang");

function card(s) {
  const L = s.lang;
  const t = (key, vars) => tIn(L, key, vars);
  const m = s.match;
  if (!m) return { head: `<h2>${t("table")} ${esc(s.table)}</h2>`, told: `<div class="idle">${t("no_match")}</div>` };
  const st = s.state || {};
  const [key, label] = MAIN[m.game] || MAIN.carom;
  const over = !!st.finished;
  const colours = (s.view && s.view.colours) || {};
  const club = (s.view && s.view.club) || {};
  const row = (p) => {
    const at = !over && st.at_table === p;
    const left = m.game === "golf" ? per(st, "balls_left", p) : undefined;
    const colour = colours[p] || "none";
    let balls = "";
    if (left !== undefined) {
      for (let i = 0; i < 5; i++) balls += `<i class="pip ${colour} ${i < left ? "on" : "off"}"></i>`;
      balls = `<span class="left" title="${esc(t("balls_left"))}" data-left="${esc(left)}">${balls}</span>`;
    }
    const extra = m.game === "kegle" ? per(st, "remaining", p) : m.game === "carom" ? per(st, "targets", p) : undefined;
    const small = extra === undefined || extra === null ? "" : `<small>${m.game === "kegle" ? t("remaining") : t("target")} ${esc(extra)}</small>`;
    return { cls: `prow ${at ? "at" : ""} ${st.winner === p ? "won" : ""}`,
      html: `<span class="pname"><span class="dot ${colour}"></span>${esc(name(m, p))}</span>
      <span class="n">${esc(per(st, key, p) ?? 0)}${balls}${small}</span>` };
  };
  // the board is silent: the referee enters its events (the card's last line says so instead)
  const out = !over && s.sensors && s.sensors.link === "out";
  const told = over ? (st.winner === "draw" ? t("draw") : t("winner_big", { name: name(m, st.winner) }))
    : out ? `⚠ ${t("sensors.out")}` : (s.view && s.view.last_shot) || "";
  const sub = m.game === "golf" && club.best_of ? ` · ${t("best_of", { n: club.best_of })}` : "";
  return { head: `<h2>${t("table")} ${esc(s.table)} <small>${esc(gameTitle(m, t))} · ${t(label)}${esc(sub)}</small></h2>`,
    p1: row("p1"), p2: row("p2"), told: `<div class="told ${over ? "over" : ""} ${out ? "sensors-out" : ""}">${esc(told)}</div>` };
}

// A card in parts (its title, a row per player, the last shot), each rewritten only when its own
// HTML changed and fitted only then: a new turn moves a row's class and repaints the last shot.
const FRAME = {
  match: `<div class="part" data-part="head"></div><div class="prow" data-player="p1"></div>
    <div class="prow" data-player="p2"></div><div class="part" data-part="told"></div>`,
  idle: `<div class="part" data-part="head"></div><div class="part" data-part="told"></div>`,
};
function update(el, parts) {
  const shape = parts.p1 ? "match" : "idle";
  if (el._shape !== shape) {
    el.innerHTML = FRAME[shape];
    el._shape = shape;
    el._parts = {};
    for (const c of el.children) el._parts[c.dataset.part || c.dataset.player] = { el: c, html: null };
  }
  for (const [k, part] of Object.entries(el._parts)) {
    const want = parts[k];
    const html = typeof want === "string" ? want : want.html;
    if (typeof want !== "string" && part.el.className !== want.cls) part.el.className = want.cls;
    if (part.html === html) continue;
    part.el.innerHTML = html;
    part.html = html;
    fit(part.el, true);
  }
}

// A name or a title fitted before, beside the same text, takes the size it took then without a
// layout (the cards are all as wide; a resize or a new number of columns forgets them all).
const fitted = new Map();
function fit(el, remembered = false) {
  for (const n of el.querySelectorAll(".pname, h2 small, .told")) {
    const told = n.classList.contains("told");
    // a name's room is what its row's score leaves; the last shot's height is the card's: not kept
    const key = told ? null : `${n.textContent}|${n.parentElement.textContent}`;
    const hit = remembered && key !== null ? fitted.get(key) : undefined;
    if (hit) {
      n.style.fontSize = hit.size;
      n.classList.toggle("wrap", hit.wrap);
      continue;
    }
    const size = fitText(n, told ? 0.7 : 0.6);
    if (key !== null) fitted.set(key, { size: `${size}px`, wrap: n.classList.contains("wrap") });
  }
}

function render(table) {
  const grid = document.getElementById("tables");
  const ids = Object.keys(snaps).sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const n = ids.length;
  grid.dataset.count = String(n);
  const cols = String(n <= 1 ? 1 : n <= 4 ? 2 : n <= 6 ? 3 : 4);
  const refit = grid.style.getPropertyValue("--cols") !== cols; // the cards' width changed: fit them all again
  grid.style.setProperty("--cols", cols);
  for (const id of ids) {
    if (!cards[id]) {
      const a = document.createElement("a");
      a.className = "card";
      a.href = `/table/${encodeURIComponent(id)}`;
      a.dataset.table = id;
      cards[id] = a;
    }
  }
  if (grid.children.length !== n) ids.forEach((id) => grid.appendChild(cards[id]));
  if (refit) fitted.clear();
  for (const id of table === undefined ? ids : [table]) {
    cards[id].lang = snaps[id].lang;
    update(cards[id], card(snaps[id]));
  }
  if (refit) ids.forEach((id) => fit(cards[id]));
  for (const id of table === undefined ? ids : [table]) marked(snaps[id].ticker, snaps[id]._recv, snaps[id].now);
  document.body.dataset.shown = String(Object.values(snaps).reduce((a, x) => a + x.version, 0));
}

async function frame() {
  const info = await (await fetch("/api/tables")).json();
  await loadLang(wanted || info.lang || "en");
  document.getElementById("title").textContent = tIn(document.documentElement.lang, "overview");
  document.getElementById("title").title = tIn(document.documentElement.lang, "overview_lang");
}

const ready = frame();
let first = true;
live("/ws", async (s, recv) => {
  s._recv = recv;
  await ready;
  await strings(s.lang);
  snaps[s.table] = s;
  render(first ? undefined : s.table);
  first = false;
});
addEventListener("resize", () => { fitted.clear(); Object.values(cards).forEach((c) => fit(c)); });
