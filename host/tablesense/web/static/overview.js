// All tables of the pub at a glance (/), live over one WebSocket: up to 8 tables on one
// 1080p screen, each readable from 3 m (names, score, who is at the table, the last shot).
import { esc, gameTitle, live, loadLang, marked, name, per, t } from "./common.js";

const snaps = {};
const MAIN = { golf: ["frames_won", "frames"], kegle: ["points", "points"], carom: ["caroms", "caroms"] };
const cards = {}; // table -> its element: one table's change repaints its card only

function card(s) {
  const m = s.match;
  if (!m) return `<h2>${t("table")} ${esc(s.table)}</h2><div class="idle">${t("no_match")}</div>`;
  const st = s.state || {};
  const [key, label] = MAIN[m.game] || MAIN.carom;
  const over = !!st.finished;
  const colours = (s.view && s.view.colours) || {};
  const row = (p) => {
    const at = !over && st.at_table === p;
    const left = m.game === "golf" ? per(st, "balls_left", p) : undefined;
    const balls = left === undefined ? "" : `<span class="left" title="${t("balls_left")}">${"●".repeat(left)}${"○".repeat(Math.max(0, 5 - left))}</span>`;
    const extra = m.game === "kegle" ? per(st, "remaining", p) : m.game === "carom" ? per(st, "targets", p) : undefined;
    const small = extra === undefined || extra === null ? "" : `<small>${m.game === "kegle" ? t("remaining") : t("target")} ${esc(extra)}</small>`;
    return `<div class="prow ${at ? "at" : ""} ${st.winner === p ? "won" : ""}" data-player="${p}">
      <span class="pname"><span class="dot ${colours[p] || "none"}"></span>${esc(name(m, p))}</span>
      <span class="n">${esc(per(st, key, p) ?? 0)}${balls}${small}</span></div>`;
  };
  const told = over ? (st.winner === "draw" ? t("draw") : t("winner_big", { name: name(m, st.winner) })) : (s.view && s.view.last_shot) || "";
  return `<h2>${t("table")} ${esc(s.table)} <small>${esc(gameTitle(m))} · ${t(label)}</small></h2>
    ${row("p1")}${row("p2")}<div class="told ${over ? "over" : ""}">${esc(told)}</div>`;
}

function render(table) {
  document.querySelector("header .table").textContent = t("overview");
  const grid = document.getElementById("tables");
  const ids = Object.keys(snaps).sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const n = ids.length;
  grid.dataset.count = String(n);
  grid.style.setProperty("--cols", String(n <= 1 ? 1 : n <= 4 ? 2 : n <= 6 ? 3 : 4));
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
  for (const id of table === undefined ? ids : [table]) {
    const html = card(snaps[id]);
    if (cards[id]._html !== html) { cards[id].innerHTML = html; cards[id]._html = html; }
  }
  for (const id of table === undefined ? ids : [table]) marked(snaps[id].ticker, snaps[id]._recv);
}

live("/ws", async (s, recv) => {
  const first = !Object.keys(snaps).length;
  s._recv = recv;
  if (await loadLang(s.lang) && !first) { snaps[s.table] = s; render(); return; }
  snaps[s.table] = s;
  render(first ? undefined : s.table);
});
