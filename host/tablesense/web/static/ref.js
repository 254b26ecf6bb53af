// The referee panel (/ref/<table>?token=...): start a match, answer, call, correct. Every change
// carries the table's token; the host refuses anything without it.
import { esc, eventText, gameTitle, live, loadLang, name, per, t, tableId } from "./common.js";

const TID = tableId();
const KEY = `tablesense.token.${TID}`;
const q = new URLSearchParams(location.search);
if (q.get("token")) {
  sessionStorage.setItem(KEY, q.get("token"));
  history.replaceState(null, "", location.pathname); // keep the token out of shared links and screenshots
}
const TOKEN = sessionStorage.getItem(KEY) || "";
const FOULS = {
  golf: ["touch", "foot", "push", "double-hit", "jump", "wrong-ball", "time"],
  kegle: ["touch", "foot", "push", "double-hit", "red-in-hole", "no-rail"],
  carom: ["touch", "foot", "push", "double-hit", "wrong-ball", "jump"],
};
const MAIN = { golf: "frames_won", kegle: "points", carom: "caroms" };

let snap = null;
let logVersion = -1;

function status(text, kind) {
  const el = document.getElementById("status");
  el.textContent = text;
  el.className = "status " + kind;
  if (kind === "ok") setTimeout(() => { if (el.textContent === text) el.className = "status"; }, 2500);
}

async function post(what, body) {
  const r = await fetch(`/api/table/${encodeURIComponent(TID)}/${what}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Tablesense-Token": TOKEN },
    body: JSON.stringify(body || {}),
  });
  const text = await r.text();
  let msg = text;
  try { msg = JSON.parse(text).error || t("ok"); } catch (e) { /* plain text */ }
  if (!r.ok) { status(`${t("refused")}: ${msg}`, "error"); return false; }
  status(t("ok"), "ok");
  return true;
}

function renderNow() {
  const m = snap.match, s = snap.state;
  document.getElementById("title").textContent = `${t("table")} ${TID} · ${t("referee")}`;
  const el = document.getElementById("now");
  if (!m) { el.innerHTML = `<h2>${t("no_match")}</h2>`; return; }
  const key = MAIN[m.game];
  const row = (p) => `<span class="${s && s.at_table === p ? "at" : ""}">${s && s.at_table === p ? "▶ " : ""}${esc(name(m, p))}</span>
    <span>${esc(per(s, key, p) ?? "")}</span>`;
  el.innerHTML = `<h2>${esc(gameTitle(m))} · #${m.id}</h2><div class="score">${row("p1")}${row("p2")}</div>
    <div>${esc(s ? snap.summary || "" : t("no_engine"))}${s && s.finished ? " · " + t("finished") : ""}</div>
    ${snap.errors.map((e) => `<div class="q">! ${esc(e.error)}</div>`).join("")}`;
}

function renderQuestions() {
  const el = document.getElementById("questions");
  const qs = (snap.state && snap.state.questions) || [];
  if (!qs.length) { el.innerHTML = ""; return; }
  el.innerHTML = `<h2>${t("questions")}</h2>` + qs.map((x) => `<div class="q" data-question="${esc(x.id)}"><p>${esc(x.text)}</p>
    <div class="grid">${(x.options || [true, false]).map((o, i) =>
      `<button data-q="${esc(x.id)}" data-i="${i}">${esc(o === true ? t("yes") : o === false ? t("no") : o)}</button>`).join("")}</div></div>`).join("");
  el.querySelectorAll("button[data-q]").forEach((b) => {
    b.onclick = () => {
      const question = qs.find((x) => x.id === b.dataset.q);
      post("call", { call: "answer", question: question.id, answer: (question.options || [true, false])[Number(b.dataset.i)] });
    };
  });
}

function renderCalls() {
  const el = document.getElementById("calls");
  const m = snap.match;
  if (!m) { el.innerHTML = ""; return; }
  const balls = m.game === "golf" ? ["p1", "p2"] : m.game === "kegle" ? ["red", "white"] : ["white", "yellow", "red"];
  if (el.dataset.game === m.game + m.id) return; // keep what the referee is typing
  el.dataset.game = m.game + m.id;
  el.innerHTML = `<h2>${t("calls")}</h2>
    <div class="grid">${m.game !== "golf" ? `<button id="c-carom">${t("carom_call")}</button>` : ""}
      <button id="c-undo" class="danger">${t("undo")}</button></div>
    <div class="row"><input id="c-foul" list="fouls" placeholder="${t("foul")}" autocomplete="off"><button id="c-foul-go">${t("foul")}</button></div>
    <datalist id="fouls">${(FOULS[m.game] || []).map((f) => `<option value="${f}">`).join("")}</datalist>
    <div class="row"><select id="c-ball">${balls.map((b) => `<option value="${b}">${esc(["p1", "p2"].includes(b) ? name(m, b) : b)}</option>`).join("")}</select>
      <input id="c-spot" type="number" min="1" max="9" value="1" inputmode="numeric" aria-label="${t("spot")}">
      <button id="c-spot-go">${t("spot")}</button></div>
    <div class="row"><label>${t("starts")}</label><button id="c-start-p1" class="secondary">${esc(name(m, "p1"))}</button>
      <button id="c-start-p2" class="secondary">${esc(name(m, "p2"))}</button></div>`;
  const on = (id, fn) => { const b = document.getElementById(id); if (b) b.onclick = fn; };
  on("c-carom", () => post("call", { call: "carom" }));
  on("c-undo", () => post("call", { call: "undo" }));
  on("c-foul-go", async () => {
    const f = document.getElementById("c-foul").value.trim();
    if (f && await post("call", { call: "foul", foul: f })) document.getElementById("c-foul").value = "";
  });
  on("c-spot-go", () => post("call", { call: "spot", ball: document.getElementById("c-ball").value,
    spot: Number(document.getElementById("c-spot").value) }));
  on("c-start-p1", () => post("call", { call: "start", player: "p1" }));
  on("c-start-p2", () => post("call", { call: "start", player: "p2" }));
}

let logBusy = false;
async function renderShots() {
  const el = document.getElementById("shots");
  if (!snap.match) { el.innerHTML = ""; return; }
  if (logVersion === snap.version || logBusy) return; // one fetch at a time; the newest version follows
  logVersion = snap.version;
  logBusy = true;
  try {
    await fetchShots(el);
  } finally {
    logBusy = false;
  }
  if (logVersion !== snap.version) renderShots();
}

async function fetchShots(el) {
  const r = await fetch(`/api/table/${encodeURIComponent(TID)}/log`);
  const items = (await r.json()).items.slice(-30).reverse();
  let shotNo = items.filter((i) => i.kind === "shot").length;
  el.innerHTML = `<h2>${t("shots")}</h2>` + items.map((it) => {
    // the shot's number in the match (host/tablesense/shots.py): a late settle is in its shot
    const no = it.shot !== undefined ? it.shot : shotNo--;
    const label = it.kind === "shot" ? `${t("shot")} ${no}` : it.kind === "incident" ? t("incident") : "";
    const words = it.events.filter((e) => e.type !== "rest").map((e) => eventText(e, snap.match)).join(", ") || t("ev.rest");
    return `<div class="shot" data-first="${it.first}" data-last="${it.last}"><span><b>${esc(label)}</b> ${esc(words)}
      <small>#${it.first}${it.last !== it.first ? "–" + it.last : ""}</small></span>
      <button class="secondary void" data-first="${it.first}" data-last="${it.last}">${t("void")}</button></div>`;
  }).join("");
  el.querySelectorAll("button.void").forEach((b) => {
    b.onclick = () => {
      if (confirm(t("void_confirm"))) post("void", { from: Number(b.dataset.first), to: Number(b.dataset.last) });
    };
  });
}

// --- start a match: game, profile, players, targets or moyennes ----------------------------
function field(label, html) { return `<div class="row"><label>${label}</label>${html}</div>`; }

function renderSetup() {
  const d = document.getElementById("setup");
  document.getElementById("setup-title").textContent = t("start_match");
  if (!snap.match || (snap.state && snap.state.finished)) d.open = true;
  const form = document.getElementById("setup-form");
  if (form.dataset.lang === snap.lang) return;
  form.dataset.lang = snap.lang;
  const last = JSON.parse(localStorage.getItem("tablesense.setup") || "{}");
  form.innerHTML = `
    ${field(t("game"), `<select name="game">${["golf", "kegle", "carom"].map((g) => `<option value="${g}" ${last.game === g ? "selected" : ""}>${t("game." + g)}</option>`).join("")}</select>`)}
    <div data-for="golf">${field(t("format"), `<select name="format"><option value="">${t("single")}</option><option value="duo">${t("duo")}</option></select>`)}</div>
    <div data-for="carom">${field(t("discipline"), `<select name="discipline">${["libre", "bandstoten", "driebanden"].map((x) => `<option value="${x}">${t("discipline." + x)}</option>`).join("")}</select>`)}
      ${field(t("profile"), `<input name="profile" list="profiles" value="${esc(last.profile || "")}" placeholder="kampioen"><datalist id="profiles"><option value="kampioen"><option value="liemers"></datalist>`)}</div>
    ${field(t("player") + " 1", `<input name="p1" required value="${esc(last.p1 || "")}" autocomplete="off">`)}
    ${field(t("player") + " 2", `<input name="p2" required value="${esc(last.p2 || "")}" autocomplete="off">`)}
    <div data-for="carom">${field(t("targets"), `<input name="t1" type="number" min="1" inputmode="numeric" placeholder="p1"><input name="t2" type="number" min="1" inputmode="numeric" placeholder="p2">`)}
      ${field(t("moyennes"), `<input name="m1" type="number" step="0.001" min="0" inputmode="decimal" placeholder="p1"><input name="m2" type="number" step="0.001" min="0" inputmode="decimal" placeholder="p2">`)}</div>
    <div data-for="kegle">${field(t("distance"), `<input name="distance" type="number" min="1" inputmode="numeric" value="${esc(last.distance || 100)}">`)}</div>
    <button type="submit" id="start-match">${t("start")}</button>`;
  const show = () => form.querySelectorAll("[data-for]").forEach((x) => x.classList.toggle("hidden", x.dataset.for !== form.game.value));
  form.game.onchange = show;
  show();
  form.onsubmit = async (e) => {
    e.preventDefault();
    const f = Object.fromEntries(new FormData(form).entries());
    const names = (v) => (f.format === "duo" && v.includes(",") ? v.split(",").map((x) => x.trim()).filter(Boolean) : v.trim());
    const body = { game: f.game, players: { p1: names(f.p1), p2: names(f.p2) } };
    if (f.game === "golf" && f.format) body.format = f.format;
    if (f.game === "kegle" && f.distance) body.distance = Number(f.distance);
    if (f.game === "carom") {
      body.discipline = f.discipline;
      if (f.profile) body.profile = f.profile;
      if (f.t1 && f.t2) body.targets = { p1: Number(f.t1), p2: Number(f.t2) };
      if (f.m1 && f.m2) body.moyennes = { p1: Number(f.m1), p2: Number(f.m2) };
    }
    localStorage.setItem("tablesense.setup", JSON.stringify({ game: f.game, p1: f.p1, p2: f.p2, profile: f.profile, distance: f.distance }));
    if (await post("setup", body)) document.getElementById("setup").open = false;
  };
}

function renderLinks() {
  const m = snap.match;
  const tid = encodeURIComponent(TID);
  document.getElementById("links").innerHTML = `<a href="/table/${tid}">${t("tv")}</a><a href="/history/${tid}">${t("history")}</a>
    ${m ? `<a href="/match/${m.id}.jsonl">${t("export")}</a><a href="/match/${m.id}/sheet">${t("sheet")}</a>` : ""}`;
}

document.getElementById("lang").onchange = (e) => post("lang", { lang: e.target.value });

if (TOKEN) { // say at once when the token is wrong (an old QR code, another table's)
  fetch(`/api/table/${encodeURIComponent(TID)}/auth`, { method: "POST", headers: { "X-Tablesense-Token": TOKEN } })
    .then(async (r) => { if (!r.ok) status(`${t("refused")}: ${await r.text()}`, "error"); });
}

live(`/ws/${encodeURIComponent(TID)}`, async (data) => {
  if (await loadLang(data.lang)) {
    document.getElementById("calls").dataset.game = "";
    document.getElementById("setup-form").dataset.lang = "";
  }
  snap = data;
  document.getElementById("lang").value = data.lang;
  if (!TOKEN) status(t("no_token"), "error");
  renderNow();
  renderQuestions();
  renderCalls();
  renderSetup();
  renderLinks();
  renderShots();
});
