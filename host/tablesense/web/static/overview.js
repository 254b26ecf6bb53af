// All tables of the pub at a glance (/), live over one WebSocket.
import { esc, eventText, gameTitle, live, loadLang, name, per, t } from "./common.js";

const snaps = {};
const MAIN = { golf: "frames_won", kegle: "points", carom: "caroms" };

function card(s) {
  const m = s.match;
  let body = `<div class="last">${t("no_match")}</div>`;
  if (m) {
    const st = s.state || {};
    const key = MAIN[m.game];
    const figure = (p) => {
      const main = per(st, key, p) ?? "";
      const left = m.game === "golf" ? per(st, "balls_left", p) : undefined;
      return left === undefined ? esc(main) : `${esc(main)} <small>${"●".repeat(left)}${"○".repeat(Math.max(0, 5 - left))}</small>`;
    };
    const row = (p) => `<span class="${st.at_table === p ? "at" : ""}">${st.at_table === p ? "▶ " : ""}${esc(name(m, p))}</span>
      <span class="n">${figure(p)}</span>`;
    const last = s.ticker.length ? eventText(s.ticker[s.ticker.length - 1], m) : "";
    body = `<div class="score">${row("p1")}${row("p2")}</div><div class="last">${esc(s.summary || "")} ${st.finished ? "· " + t("finished") : ""}</div>
      <div class="last">${esc(last)}</div>`;
  }
  return `<a class="card" href="/table/${encodeURIComponent(s.table)}" data-table="${esc(s.table)}">
    <h2>${t("table")} ${esc(s.table)} <small>${esc(gameTitle(m))}</small></h2>${body}</a>`;
}

function render() {
  document.querySelector("header .table").textContent = t("overview");
  document.getElementById("tables").innerHTML = Object.keys(snaps).sort((a, b) => a.localeCompare(b, undefined, { numeric: true })).map((k) => card(snaps[k])).join("");
}

live("/ws", async (s) => {
  if (!Object.keys(snaps).length) await loadLang(s.lang);
  snaps[s.table] = s;
  render();
});
