// The referee panel (/ref/<table>?token=...): a phone in one hand, or a keyboard / presenter
// remote at the TV. Every call is a button in the player's words; nothing is typed but the
// players' names. Every change carries the table's token; the host refuses anything without it.
import { clockText, esc, eventText, gameTitle, live, loadLang, name, per, t, tableId } from "./common.js";

const TID = tableId();
const KEY = `tablesense.token.${TID}`;
const q = new URLSearchParams(location.search);
if (q.get("token")) {
  sessionStorage.setItem(KEY, q.get("token"));
  history.replaceState(null, "", location.pathname); // keep the token out of shared links and screenshots
}
const TOKEN = sessionStorage.getItem(KEY) || "";
const MAIN = { golf: ["frames_won", "frames"], kegle: ["points", "points"], carom: ["caroms", "caroms"] };
const SIDE = { golf: [["balls_left", "balls_left"]], kegle: [["remaining", "remaining"], ["series", "series"]],
  carom: [["targets", "target"], ["remaining", "remaining"], ["innings", "innings"], ["average", "moyenne_tonight"], ["high_run", "high_run"]] };
const SHARE = { carom: true }; // the share of the target made, beside the main figure
let skew = 0; // host clock - our clock, ms

let snap = null;
let panel = null; // /api/table/T/panel: the foul buttons, golf's table drawing
let panelKey = "";
let logVersion = -1;
let locked = !TOKEN; // a missing or refused token: one message, every control disabled

function status(text, kind) {
  const el = document.getElementById("status");
  el.textContent = text;
  el.className = "status " + kind;
  if (kind === "ok") setTimeout(() => { if (el.textContent === text) el.className = "status"; }, 2500);
}

function lock() {
  locked = true;
  document.body.classList.add("locked");
  status(t("panel.locked", { table: TID }), "error locked");
  applyLock();
}

function applyLock() {
  if (!locked) return;
  document.querySelectorAll("main button, main input, main select, header select").forEach((el) => { el.disabled = true; });
}

async function post(what, body, done) {
  if (locked) return false;
  const r = await fetch(`/api/table/${encodeURIComponent(TID)}/${what}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Tablesense-Token": TOKEN },
    body: JSON.stringify(body || {}),
  });
  const text = await r.text();
  let msg = text;
  try { msg = JSON.parse(text).error || ""; } catch (e) { /* plain text */ }
  if (r.status === 403 && /token/.test(msg)) { lock(); return false; }
  if (!r.ok) { status(`${t("refused")}: ${String(msg).replace(/^refused:\s*/i, "")}`, "error"); return false; }
  status(done || t("ok"), "ok");
  return true;
}

const call = (body, done) => post("call", body, done);

function ballDot(m, p) {
  const c = snap.view && snap.view.colours ? snap.view.colours[p] : null;
  return c ? `<span class="dot ${c}" aria-hidden="true"></span>` : "";
}

// --- the score: names, each figure with its label ------------------------------------------
function renderNow() {
  const m = snap.match, s = snap.state;
  document.getElementById("title").textContent = `${t("table")} ${TID} · ${t("referee")}`;
  const el = document.getElementById("now");
  if (!m) { el.innerHTML = `<h2>${t("no_match")}</h2>`; return; }
  const [key, label] = MAIN[m.game] || MAIN.carom;
  const over = s && s.finished;
  const cell = (p) => {
    const at = !over && s && s.at_table === p;
    const club = snap.view && snap.view.club && snap.view.club.players ? snap.view.club.players[p] : null;
    const side = (SIDE[m.game] || []).map(([k, l]) => {
      let v = club && k === "remaining" && m.game === "carom" ? club.remaining : per(s, k, p);
      if (typeof v === "number" && k === "average") v = v.toFixed(3);
      if (k === "average" && club && club.moyenne !== null) v = `${v} (${t("moyenne_registered", { m: club.moyenne.toFixed(3) })})`;
      return v === undefined ? "" : `<span class="fig" data-fig="${k}"><small>${t(l)}</small> ${esc(v)}</span>`;
    }).join("");
    const share = SHARE[m.game] && club && club.percent !== null && club.percent !== undefined
      ? ` <small class="share" data-fig="percent" title="${esc(t("percent_target"))}">· ${esc(club.percent)}%</small>` : "";
    return `<div class="who ${at ? "at" : ""} ${s && s.winner === p ? "won" : ""}" data-player="${p}">
      <div class="pname">${ballDot(m, p)}${esc(name(m, p))}${at ? ` <small class="atmark">${t("at_table")}</small>` : ""}</div>
      <div class="main"><b>${esc(per(s, key, p) ?? 0)}</b> <small>${t(label)}</small>${share}</div><div class="side">${side}</div></div>`;
  };
  let end = "";
  if (over) end = `<div class="final">${s.winner === "draw" ? t("draw") : t("winner_big", { name: esc(name(m, s.winner)) })}</div>`;
  const club = snap.view && snap.view.club;
  let match = "";
  if (club && club.best_of) match = `${esc(t("best_of", { n: club.best_of }))} · ${esc(t("frame_of", { n: club.frame ?? 1 }))}`;
  if (club && club.game === "carom") {
    match = esc(club.innings_limit ? t("inning_of", { n: club.inning, limit: club.innings_limit }) : t("inning_n", { n: club.inning }))
      + `${club.nastoot ? ` · <b>${esc(t("nastoot_for", { name: name(m, club.nastoot) }))}</b>` : ""}`;
  }
  // one line under the score: the match (best of 3, the inning) and the turn clock
  el.innerHTML = `<h2>${esc(gameTitle(m))}</h2><div class="score">${cell("p1")}${cell("p2")}</div>${end}
    <p class="matchline"><span>${match}</span> <span class="clock-line" id="panel-clock" aria-live="off"></span></p>
    ${snap.view && snap.view.last_shot ? `<p class="last" id="last-shot"><small>${t("last_shot")}</small> ${esc(snap.view.last_shot)}</p>` : ""}
    ${s ? "" : `<p>${t("no_engine")}</p>`}
    ${snap.errors.map((e) => `<div class="q">! ${esc(e.error)}</div>`).join("")}`;
}

// --- the engine's open questions: one button per answer, naming players or balls -------------
function optionLabel(m, o) {
  if (o === true) return t("yes");
  if (o === false) return t("no");
  if (o === "p1" || o === "p2") return name(m, o);
  if (typeof o === "string" && t("ball." + o) !== "ball." + o) return t("ball." + o);
  return String(o);
}

function renderQuestions() {
  const el = document.getElementById("questions");
  const qs = (snap.state && snap.state.questions) || [];
  if (!qs.length) { el.innerHTML = ""; return; }
  const m = snap.match;
  el.innerHTML = `<h2>${t("questions")}</h2>` + qs.map((x) => `<div class="q" data-question="${esc(x.id)}"><p>${esc(x.text)}</p>
    <div class="grid">${(x.options || [true, false]).map((o, i) =>
      `<button class="answer" data-q="${esc(x.id)}" data-i="${i}">${ballDot(m, o)}${esc(optionLabel(m, o))}</button>`).join("")}</div></div>`).join("");
  el.querySelectorAll("button[data-q]").forEach((b) => {
    b.onclick = () => {
      const question = qs.find((x) => x.id === b.dataset.q);
      const answer = (question.options || [true, false])[Number(b.dataset.i)];
      call({ call: "answer", question: question.id, answer }, `${t("ok")}: ${optionLabel(m, answer)}`);
    };
  });
}

// --- golf: a ball waits for its replacement spot, chosen on a drawing of the table ------------
function renderSpot() {
  const el = document.getElementById("spot");
  const s = snap.state, m = snap.match;
  const waiting = (s && Array.isArray(s.spots_waiting)) ? s.spots_waiting : [];
  if (!m || m.game !== "golf" || !waiting.length || !panel || !panel.table) { el.innerHTML = ""; el.dataset.key = ""; return; }
  const owner = waiting[0];
  const key = `${snap.version}`;
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  const d = panel.table, k = 100; // metres to centimetres
  const W = d.length * k, H = d.width * k, pad = 6;
  let svg = `<svg viewBox="${-pad} ${-pad} ${W + 2 * pad} ${H + 2 * pad}" class="bed" role="group" aria-label="${esc(t("spot"))}">
    <rect x="${-pad}" y="${-pad}" width="${W + 2 * pad}" height="${H + 2 * pad}" rx="4" class="rail"/>
    <rect x="0" y="0" width="${W}" height="${H}" class="cloth"/>`;
  for (const [g, [x, y, r]] of Object.entries(d.goals)) {
    svg += `<circle cx="${x * k}" cy="${y * k}" r="${r * k}" class="goal"/><text x="${x * k}" y="${y * k + 1.5}" class="goal-name">${g}</text>`;
  }
  for (const [x, y] of d.pegs) svg += `<circle cx="${x * k}" cy="${y * k}" r="${d.peg * k * 1.5}" class="peg"/>`;
  // the spots the rules allow now (rules/golf/spots.py: from the balls' positions when the table reports them)
  const told = snap.view && snap.view.spots && snap.view.spots.owner === owner ? snap.view.spots : null;
  const allowed = new Set(told ? told.allowed : [1, 2, 3, 4, 5]);
  for (const sp of d.spots[owner]) {
    const ok = allowed.has(sp.spot);
    svg += `<g class="spot ${sp.choice ? "choice" : "fallback"} ${ok ? "" : "taken"}" data-spot="${sp.spot}" ${ok ? 'tabindex="0" role="button"' : 'aria-disabled="true"'}
      aria-label="${esc(t("spot"))} ${sp.spot}"><circle cx="${sp.x * k}" cy="${sp.y * k}" r="${sp.choice ? 8 : 6}"/>
      <text x="${sp.x * k}" y="${sp.y * k + 2.5}">${sp.spot}</text></g>`;
  }
  svg += "</svg>";
  const hint = told && told.seen ? t("panel.spot_seen") : t("panel.spot_hint");
  el.innerHTML = `<h2>${t("panel.spot_title", { name: esc(name(m, owner)), chooser: esc(name(m, owner === "p1" ? "p2" : "p1")) })}</h2>
    ${svg}<p class="hint">${hint}</p>
    <div class="grid five">${d.spots[owner].map((sp) => `<button class="spot-button ${sp.choice ? "" : "secondary"}" data-spot="${sp.spot}" ${allowed.has(sp.spot) ? "" : "disabled"}>${sp.spot}</button>`).join("")}</div>`;
  const choose = (n) => call({ call: "spot", ball: owner, spot: n },
    `${t("ok")}: ${t("call.spot", { spot: n, name: name(m, owner) })}`);
  el.querySelectorAll("[data-spot]").forEach((b) => {
    if (!allowed.has(Number(b.dataset.spot))) return;
    b.onclick = () => choose(Number(b.dataset.spot));
    b.onkeydown = (e) => { if (e.key === "Enter") choose(Number(b.dataset.spot)); };
  });
}

// --- the calls: who starts, the big +1, the fouls, undo --------------------------------------
function noShotYet() {
  return !snap.ticker.some((e) => (e.source === "table" || e.by_hand === true) && e.type !== "setup");
}

function bigButton(m, s) {
  if (m.game === "carom") {
    const sensed = s && s.evidence && s.evidence.decided_by === "contacts";
    return `<button id="c-carom" class="big-call ${sensed ? "small" : ""}">${t("panel.carom_big")}</button>`;
  }
  // keglebillard: what the table took for a shot was the pin referee's hands (kegle.shot, 7.7, 6.4)
  // (beside the big call, in its height: the fouls and undo stay within the phone's screen)
  if (m.game === "kegle") return `<div class="big-row"><button id="c-carom" class="big-call">${t("panel.carambole_big")}</button>
    <button id="c-hands" class="secondary hands" title="kegle.shot">${t("panel.hands")}</button></div>`;
  return "";
}

function renderCalls() {
  const el = document.getElementById("calls");
  const m = snap.match, s = snap.state;
  if (!m || !s) { el.innerHTML = ""; el.dataset.key = ""; return; }
  const over = !!s.finished;
  const v = snap.view || {};
  const club = v.club || {};
  const timeouts = club.timeouts_left && !over && s.at_table ? club.timeouts_left[s.at_table] : null;
  const key = `${m.id}|${snap.lang}|${panelKey}|${noShotYet()}|${v.undo}|${s.evidence ? s.evidence.decided_by : ""}|${over}|${v.foul_on}|${timeouts}`;
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  const undo = v.undo || t("undo");
  const undoButton = `<button id="c-undo" class="danger undo" ${undo === t("undo.nothing") ? "disabled" : ""}>${esc(undo)}</button>`;
  if (over) {
    // the match is over; the call that ended it may have been a mis-tap: undo stays
    el.innerHTML = undoButton;
    el.querySelector("#c-undo").onclick = (e) => call({ call: "undo" }, `${t("ok")}: ${e.target.textContent}`);
    return;
  }
  const fouls = (panel && panel.fouls) || [];
  const on = v.foul_on ? name(m, v.foul_on) : null;
  const btn = (f) => `<button class="foul ${f.common ? "" : "rare"}" data-foul="${esc(f.call)}" title="${esc(f.rule)}">${esc(f.label)}</button>`;
  const starts = noShotYet() ? `<h2>${t("panel.who_starts")}</h2><div class="grid">
      <button class="start secondary" data-player="p1">${ballDot(m, "p1")}${esc(name(m, "p1"))}</button>
      <button class="start secondary" data-player="p2">${ballDot(m, "p2")}${esc(name(m, "p2"))}</button></div>` : "";
  const timeout = timeouts !== null && timeouts !== undefined
    ? `<button id="c-timeout" class="secondary" ${timeouts > 0 ? "" : "disabled"}>${esc(t("panel.timeout", { left: timeouts }))}</button>` : "";
  const more = el.querySelector("details.more"); // unfolded, the rarer fouls stay so after a shot
  el.innerHTML = `${starts}${bigButton(m, s)}${timeout}
    <h2 id="fouls-title">${on ? esc(t("fouls_on", { name: on })) : t("panel.fouls")}</h2><div class="grid">${fouls.filter((f) => f.common).map(btn).join("")}</div>
    <details class="more" ${more && more.open ? "open" : ""}><summary>${t("panel.more")}</summary><div class="grid">${fouls.filter((f) => !f.common).map(btn).join("")}</div></details>
    ${undoButton}`;
  const onTap = (sel, fn) => el.querySelectorAll(sel).forEach((b) => { b.onclick = () => fn(b); });
  onTap("#c-carom", (b) => call({ call: "carom" }, `${t("ok")}: ${b.textContent}`));
  onTap("#c-hands", (b) => call({ call: "hands" }, `${t("ok")}: ${b.textContent}`));
  onTap("#c-timeout", (b) => call({ call: "timeout" }, `${t("ok")}: ${b.textContent}`));
  onTap("#c-undo", (b) => call({ call: "undo" }, `${t("ok")}: ${b.textContent}`));
  onTap("button.foul", (b) => call({ call: "foul", foul: b.dataset.foul },
    on ? t("done_foul", { foul: b.textContent, name: on }) : `${t("ok")}: ${b.textContent}`));
  onTap("button.start", (b) => call({ call: "start", player: b.dataset.player }, `${t("ok")}: ${t("call.start", { name: name(m, b.dataset.player) })}`));
}

// --- the sensors are out: their events as buttons, and the questions where the board disagrees --
// While the board is silent the buttons stand above the calls; while it talks they wait, folded,
// below them (a sensor that misbehaves: the referee's choice). The host stamps each tap.
let handEvents = [];
let byHandOpen = false;

function handSection(m) {
  const b = panel && panel.by_hand;
  handEvents = [];
  if (!b || !b.rest) return "";
  const button = (x, cls) => {
    handEvents.push(x);
    return `<button class="hand ${cls || ""}" data-hand="${handEvents.length - 1}" aria-label="${esc(x.label)}">${x.ball ? ballDot(m, x.ball) : ""}${esc(x.text)}</button>`;
  };
  const groups = b.groups.map((g) => `<div class="hand-group"><h3>${esc(g.title)}</h3>
    <div class="grid ${g.small ? "six" : ""}">${g.buttons.map((x) => button(x)).join("")}</div></div>`).join("");
  return `${groups}${button(b.rest, "rest")}`;
}

function sensorQuestions() {
  const qs = (snap.view && snap.view.sensor_questions) || [];
  if (!qs.length) return "";
  return `<h2>${t("sensors.questions")}</h2>` + qs.map((x) => `<div class="q" data-sensor-question="${esc(x.id)}"><p>${esc(x.text)}</p>
    <div class="grid">${x.options.map((o, i) => `<button class="answer sensor-answer" data-sq="${esc(x.id)}" data-i="${i}">${esc(o.label)}</button>`).join("")}</div></div>`).join("");
}

function renderSensors() {
  const top = document.getElementById("sensors"), below = document.getElementById("by-hand");
  const m = snap.match, s = snap.state, sensors = snap.sensors || {};
  const playing = !!(m && s && !s.finished);
  const out = sensors.link === "out" || sensors.checking;
  const qs = (snap.view && snap.view.sensor_questions) || [];
  const key = `${snap.lang}|${panelKey}|${playing}|${sensors.link}|${sensors.checking}|${qs.map((q) => q.id).join(",")}`;
  if (top.dataset.key === key) return;
  top.dataset.key = key;
  const banner = sensors.link === "out" ? `<p class="sensors-out" role="status">${t("sensors.panel_out")}</p>`
    : sensors.checking ? `<p class="sensors-back" role="status">${t("sensors.checking")}</p>` : "";
  if (!playing) {
    top.innerHTML = banner + sensorQuestions();
    below.innerHTML = "";
  } else if (out) {
    top.innerHTML = `${banner}${sensorQuestions()}<p class="hint">${t("sensors.hint")}</p>${handSection(m)}`;
    below.innerHTML = "";
  } else {
    top.innerHTML = sensorQuestions();
    below.innerHTML = `<details id="by-hand-more" ${byHandOpen ? "open" : ""}><summary>${t("sensors.by_hand")}</summary>
      <p class="hint">${t("sensors.hint_up")}</p>${handSection(m)}</details>`;
    below.querySelector("details").ontoggle = (e) => { byHandOpen = e.target.open; };
  }
  for (const el of [top, below]) {
    el.querySelectorAll("button[data-hand]").forEach((b) => {
      const x = handEvents[Number(b.dataset.hand)];
      b.onclick = () => post("event", x.event, `${t("ok")}: ${x.label}`);
    });
    el.querySelectorAll("button[data-sq]").forEach((b) => {
      const q = qs.find((x) => x.id === b.dataset.sq);
      const o = q.options[Number(b.dataset.i)];
      b.onclick = () => post("sensors", { question: q.id, answer: o.value }, `${t("ok")}: ${o.label}`);
    });
  }
  applyLock();
}

// The turn clock, as the TV shows it: the referee sees it before calling "Over time".
function tickClock() {
  const el = document.getElementById("panel-clock");
  if (!el || !snap) return;
  const shown = clockText(snap, Date.now() + skew);
  const text = shown ? `${t("turn_clock")} ${shown.text}${snap.paused_at ? " · " + t("clock_paused") : ""}` : "";
  if (el.textContent !== text) el.textContent = text;
  const cls = "clock-line " + (shown ? shown.cls.replace("clock", "") : "");
  if (el.className !== cls) el.className = cls;
}
setInterval(tickClock, 250);

async function loadPanel() {
  const s = snap.state || {};
  const key = snap.match ? `${snap.match.id}|${snap.lang}|${s.zone_play}|${s.profile}|${s.format}` : "";
  if (key === panelKey) return;
  panelKey = key;
  panel = key ? await (await fetch(`/api/table/${encodeURIComponent(TID)}/panel`)).json() : null;
}

// --- the shots: each one's words, a correction (void) per shot -------------------------------
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
  // drawn again at each version of the table, the list stays open (or folded) as the referee
  // left it: a shot played meanwhile must not fold it under the referee's finger
  const was = el.querySelector("details");
  el.innerHTML = `<details ${was && was.open ? "open" : ""}><summary>${t("shots")}</summary>` + items.map((it) => {
    const label = it.kind === "shot" ? `${t("shot")} ${it.shot}` : it.kind === "incident" ? t("incident") : t("referee");
    const words = it.events.filter((e) => e.type !== "rest").map((e) => eventText(e, snap.match)).join(", ") || t("ev.rest");
    return `<div class="shot"><span><b>${esc(label)}</b> <small>${esc(words)}</small></span>
      <button class="secondary void" data-first="${it.first}" data-last="${it.last}" data-label="${esc(label)}">${t("void")}</button></div>`;
  }).join("") + "</details>";
  el.querySelectorAll("button.void").forEach((b) => {
    b.onclick = () => {
      if (confirm(`${b.dataset.label}: ${t("void_confirm")}`)) post("void", { from: Number(b.dataset.first), to: Number(b.dataset.last) });
    };
  });
  applyLock();
}

// --- start a match: game, profile, players, targets or moyennes ----------------------------
// Every input has its label (a <label for>); the games offered are the table's own (snap.games).
function field(label, html, id) { return `<div class="row"><label${id ? ` for="${id}"` : ""}>${label}</label>${html}</div>`; }

function numberInput(nm, label, attrs) {
  return `<label class="sub" for="f-${nm}"><span>${esc(label)}</span><input id="f-${nm}" name="${nm}" type="number" ${attrs}></label>`;
}

function renderSetup() {
  const d = document.getElementById("setup");
  document.getElementById("setup-title").textContent = t("start_match");
  if ((!snap.match || (snap.state && snap.state.finished)) && !d.dataset.shown) { d.open = true; d.dataset.shown = "1"; }
  const form = document.getElementById("setup-form");
  const games = Array.isArray(snap.games) && snap.games.length ? snap.games : ["golf", "kegle", "carom"];
  const formKey = `${snap.lang}|${games.join(",")}`;
  if (form.dataset.lang === formKey) return;
  form.dataset.lang = formKey;
  const last = JSON.parse(localStorage.getItem("tablesense.setup") || "{}");
  const choice = (nm, values, label, current, title) => `<div class="choice" role="radiogroup" aria-label="${esc(title)}">${values.map((v, i) =>
    `<label><input type="radio" name="${nm}" value="${v}" ${(values.includes(current) ? current === v : i === 0) ? "checked" : ""}><span>${label(v)}</span></label>`).join("")}</div>`;
  form.innerHTML = `<div id="night-pairs"></div>
    ${games.length > 1 ? field(t("game"), choice("game", games, (g) => t("game." + g), last.game, t("game")))
      : `<input type="hidden" name="game" value="${esc(games[0])}"><p class="only-game">${esc(t("game." + games[0]))}</p>`}
    <div data-for="golf">${field(t("format"), choice("format", ["", "duo"], (v) => (v ? t("duo") : t("single")), "", t("format")))}</div>
    <div data-for="carom">${field(t("discipline"), choice("discipline", ["libre", "bandstoten", "driebanden"], (x) => t("discipline." + x), last.discipline, t("discipline")))}
      ${field(t("profile"), choice("profile", ["kampioen", "liemers"], (x) => t("profile." + x), last.profile, t("profile")))}</div>
    ${field(t("player_n", { n: 1 }), `<input id="f-p1" name="p1" required value="${esc(last.p1 || "")}" autocomplete="off">`, "f-p1")}
    ${field(t("player_n", { n: 2 }), `<input id="f-p2" name="p2" required value="${esc(last.p2 || "")}" autocomplete="off">`, "f-p2")}
    <div data-for="carom">
      <div class="row pair">${numberInput("t1", t("target_n", { n: 1 }), 'min="1" inputmode="numeric"')}${numberInput("t2", t("target_n", { n: 2 }), 'min="1" inputmode="numeric"')}</div>
      <div class="row pair">${numberInput("m1", t("moyenne_n", { n: 1 }), 'step="0.001" min="0" inputmode="decimal"')}${numberInput("m2", t("moyenne_n", { n: 2 }), 'step="0.001" min="0" inputmode="decimal"')}</div>
      <div class="row pair">${numberInput("innings_limit", `${t("innings_limit")} (${t("optional")})`, `min="1" inputmode="numeric" placeholder="${esc(t("innings_none"))}"`)}</div>
      <div class="row pair" data-for-discipline="driebanden">${numberInput("shot_clock", `${t("shot_clock_s")} (${t("optional")})`, 'min="10" inputmode="numeric"')}${numberInput("timeouts", t("timeouts"), 'min="0" inputmode="numeric" value="1"')}</div>
      <p class="hint">${esc(t("optional"))}: ${esc(t("targets"))} / ${esc(t("moyennes"))}</p></div>
    <div data-for="kegle">${field(t("distance"), `<input id="f-distance" name="distance" type="number" min="1" inputmode="numeric" value="${esc(last.distance || 100)}">`, "f-distance")}</div>
    <button type="submit" id="start-match">${t("start")}</button>`;
  const game = () => (form.querySelector("input[name=game]:checked") || form.querySelector("input[name=game]") || {}).value;
  const discipline = () => (form.querySelector("input[name=discipline]:checked") || {}).value;
  const show = () => {
    form.querySelectorAll("[data-for]").forEach((x) => x.classList.toggle("hidden", x.dataset.for !== game()));
    form.querySelectorAll("[data-for-discipline]").forEach((x) => x.classList.toggle("hidden", x.dataset.forDiscipline !== discipline()));
  };
  form.querySelectorAll("input[name=game], input[name=discipline]").forEach((r) => { r.onchange = show; });
  show();
  form._show = show;
  nightPairs = ""; // the form was drawn anew: its night's matches too, at once
  nightAt = 0;
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
      if (f.innings_limit) body.innings_limit = Number(f.innings_limit);
      if (f.discipline === "driebanden" && f.shot_clock) {
        body.shot_clock = Number(f.shot_clock);
        body.timeouts = Number(f.timeouts || 0);
      }
    }
    localStorage.setItem("tablesense.setup", JSON.stringify({ game: f.game, p1: f.p1, p2: f.p2, profile: f.profile,
      discipline: f.discipline, distance: f.distance }));
    if (await post("setup", body)) document.getElementById("setup").open = false;
  };
  applyLock();
}

// Tonight's team night at this pub (/api/team-night, league/pub_nights.py): the matches still to
// play as buttons above the set-up; a tap fills in the game and both names as the league knows
// them (a golf duo by its two players). The host adds what the night's scheme fixes.
let nightPairs = "";
let nightAt = 0;

async function renderNightPairs() {
  const form = document.getElementById("setup-form");
  const el = document.getElementById("night-pairs");
  if (!el || !document.getElementById("setup").open || Date.now() - nightAt < 3000) return;
  nightAt = Date.now();
  let nights = [];
  try { nights = ((await (await fetch("/api/team-night")).json()).nights) || []; } catch (e) { return; }
  const games = Array.isArray(snap.games) && snap.games.length ? snap.games : ["golf", "kegle", "carom"];
  const pairs = [];
  for (const n of nights) {
    if (!games.includes(n.game)) continue;
    for (const [a, b] of n.to_play || []) pairs.push({ game: n.game, a, b, ma: (n.members || {})[a], mb: (n.members || {})[b] });
  }
  const html = pairs.length ? `<h3>${esc(t("night.pick"))}</h3><div class="grid">${pairs.map((x, i) =>
    `<button type="button" class="secondary night-pair" data-i="${i}">${esc(x.a)} - ${esc(x.b)}</button>`).join("")}</div>` : "";
  if (html === nightPairs) return;
  nightPairs = html;
  el.innerHTML = html;
  el.querySelectorAll("button.night-pair").forEach((btn) => {
    btn.onclick = () => {
      const x = pairs[Number(btn.dataset.i)];
      const radio = form.querySelector(`input[name=game][value="${x.game}"]`);
      if (radio) radio.checked = true;
      const duo = !!(x.ma && x.mb);
      const format = form.querySelector(`input[name=format][value="${duo ? "duo" : ""}"]`);
      if (format) format.checked = true;
      form.querySelector("input[name=p1]").value = duo ? x.ma.join(", ") : x.a;
      form.querySelector("input[name=p2]").value = duo ? x.mb.join(", ") : x.b;
      if (form._show) form._show();
    };
  });
  applyLock();
}

function renderLinks() {
  const m = snap.match;
  const tid = encodeURIComponent(TID);
  document.getElementById("links").innerHTML = `<a href="/table/${tid}">${t("tv")}</a><a href="/history/${tid}">${t("history")}</a>
    ${m ? `<a href="/match/${m.id}.jsonl">${t("export")}</a><a href="/sheet/${m.id}">${t("sheet")}</a><a href="/match/${m.id}/rulings">${t("rulings")}</a>` : ""}
    <span class="keys">${t("panel.keys")}</span>`;
}

// --- a keyboard or a presenter remote (Carambus tables are run so) ---------------------------
// Arrows move between the buttons, Enter (or a remote's "next" = Space on a focused button)
// calls the focused one; Space with nothing focused is the big +1; Backspace is undo.
function controls() {
  return [...document.querySelectorAll("main button:not(:disabled), main [data-spot][tabindex]")]
    .filter((b) => b.offsetParent !== null);
}

document.addEventListener("keydown", (e) => {
  if (locked || e.target.matches("input, select, textarea")) return;
  const list = controls();
  const i = list.indexOf(document.activeElement);
  const move = (d) => { e.preventDefault(); const n = list[(i < 0 ? (d > 0 ? 0 : list.length - 1) : (i + d + list.length) % list.length)]; if (n) n.focus(); };
  if (e.key === "ArrowRight" || e.key === "ArrowDown" || e.key === "PageDown") move(e.key === "ArrowDown" ? 2 : 1);
  else if (e.key === "ArrowLeft" || e.key === "ArrowUp" || e.key === "PageUp") move(e.key === "ArrowUp" ? -2 : -1);
  else if (e.key === "Backspace") { e.preventDefault(); const u = document.getElementById("c-undo"); if (u && !u.disabled) u.click(); }
  else if (e.key === " " && i < 0) { const b = document.getElementById("c-carom"); if (b) { e.preventDefault(); b.click(); } }
});

document.getElementById("setup").addEventListener("toggle", () => { nightAt = 0; renderNightPairs(); });
document.getElementById("lang").onchange = (e) => post("lang", { lang: e.target.value });
// the languages the pub has (its texts' folders, /api/tables): an option each, named in itself
fetch("/api/tables").then((r) => r.json()).then((info) => {
  const menu = document.getElementById("lang");
  menu.replaceChildren(...info.langs.map((code) => {
    const o = document.createElement("option");
    o.value = code; o.lang = code; o.textContent = (info.language_names || {})[code] || code;
    return o;
  }));
  if (snap) menu.value = snap.lang;
});

if (TOKEN) { // say at once when the token is wrong (an old QR code, another table's)
  fetch(`/api/table/${encodeURIComponent(TID)}/auth`, { method: "POST", headers: { "X-Tablesense-Token": TOKEN } })
    .then((r) => { if (!r.ok) lock(); });
}

live(`/ws/${encodeURIComponent(TID)}`, async (data) => {
  skew = data.now * 1000 - Date.now();
  if (await loadLang(data.lang)) {
    document.getElementById("calls").dataset.key = "";
    document.getElementById("spot").dataset.key = "";
    document.getElementById("setup-form").dataset.lang = "";
  }
  snap = data;
  document.getElementById("lang").value = data.lang;
  await loadPanel();
  renderNow();
  renderQuestions();
  renderSpot();
  renderSensors();
  renderCalls();
  renderSetup();
  renderNightPairs();
  renderLinks();
  renderShots();
  tickClock();
  if (locked) lock();
  document.body.dataset.ready = String(snap.version);
});
