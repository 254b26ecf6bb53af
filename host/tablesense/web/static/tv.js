// The TV scoreboard of one table (/table/<id>, overlay: ?overlay=1 or /overlay/<id>).
import { clockText, esc, eventText, fitText, gameTitle, live, loadLang, marked, name, per, t, tableId } from "./common.js";

const TID = tableId();
const params = new URLSearchParams(location.search);
const overlay = params.get("overlay") === "1" || location.pathname.startsWith("/overlay/");
const wantQr = !overlay && params.get("qr") !== "0";
let showQr = false; // the referee QR code is shown on a TV paired with the table only (pair() below)
document.body.classList.toggle("overlay", overlay);

let snap = null;
let skew = 0; // host clock - our clock, ms
let seenRulings = -1;
let bannerTimer = null;
let speech = localStorage.getItem("tablesense.speech") !== "off";

const SPEAKER = `<svg viewBox="0 0 24 24" width="1em" height="1em" fill="currentColor" aria-hidden="true">
  <path d="M3 9v6h4l5 5V4L7 9H3z"/><path class="waves" d="M16.5 12a4.5 4.5 0 0 0-2.5-4v8a4.5 4.5 0 0 0 2.5-4zM14 3.2v2.1a7 7 0 0 1 0 13.4v2.1a9 9 0 0 0 0-17.6z"/>
  <path class="cross" d="M15 9l6 6m0-6l-6 6" stroke="currentColor" stroke-width="2"/></svg>`;

function stat(label, value, cls = "") {
  if (value === undefined || value === null) return "";
  return `<div class="stat ${cls}"><span class="label">${esc(label)}</span><span class="value">${esc(value)}</span></div>`;
}

function flag(v, p) {
  if (v && typeof v === "object" && !Array.isArray(v)) return v[p];
  return v;
}

// the state's fields the game declares for the TV (games.Game.tv; the view's "extras"), nothing else
function extraLines(where) {
  const lines = (snap && snap.view && snap.view.extras && snap.view.extras[where]) || [];
  return lines.map(([k, v]) => stat(t(k) === k ? k.replace(/_/g, " ") : t(k), v === true ? "✔" : v === false ? "–" : v, "extra")).join("");
}

// --- golf: frames won of "best of 3", each player's balls left drawn as balls, zone play ------
function golf(s, m, club) {
  const players = {};
  for (const p of ["p1", "p2"]) {
    const left = per(s, "balls_left", p);
    let balls = "";
    if (left !== undefined) {
      for (let i = 0; i < 5; i++) balls += `<span class="ball ${p} ${i < left ? "on" : "off"}"></span>`;
    }
    const zone = flag(s && s.zone_play, p);
    players[p] = `<div class="big">${esc(per(s, "frames_won", p) ?? 0)}</div><div class="label">${t("frames")}</div>
      <div class="balls" title="${t("balls_left")}" data-left="${esc(left)}">${balls}</div><div class="label">${t("balls_left")} ${esc(left ?? "")}</div>
      ${zone && typeof s.zone_play === "object" ? `<div class="badge">${t("zone_play")}</div>` : ""}${extraLines(p)}`;
  }
  const best = club && club.best_of ? `<div class="bestof" data-best-of="${esc(club.best_of)}">${esc(t("best_of", { n: club.best_of }))}</div>` : "";
  const frame = s && s.frame !== undefined ? `<div class="framebox"><span class="label">${t("frame")}</span><b>${esc(s.frame)}</b></div>` : "";
  // zone play lasts to the end of a frame: a finished match shows no badge
  const zone = s && s.zone_play === true && !s.finished ? `<div class="badge zone">${t("zone_play")}</div>` : "";
  // a fouled ball waits for the opponent to choose its replacement spot
  const waiting = s && Array.isArray(s.spots_waiting) ? s.spots_waiting : [];
  const spot = waiting.length ? `<div class="badge spot">${t("spot_waiting")}: ${waiting.map((p) => esc(name(m, p))).join(", ")}</div>` : "";
  return { players, centre: best + frame + zone + spot };
}

// --- keglebillard: points, distance remaining, series, the five pins, the break notice ------
function pinsDown(s) {
  const v = s && (s.pins_down ?? s.pins);
  const down = new Set();
  if (Array.isArray(v)) v.forEach((x) => down.add(Number(x)));
  else if (v && typeof v === "object") Object.entries(v).forEach(([k, x]) => { if (x === "down" || x === true) down.add(Number(k)); });
  else if (snap) {
    // no state key: the pins that went down since the last rest, from the ticker
    for (const ev of snap.ticker) {
      if (ev.type === "rest") down.clear();
      if (ev.type === "pin") ev.state === "down" ? down.add(ev.pin) : down.delete(ev.pin);
    }
  }
  return down;
}

function kegle(s, m, club) {
  const players = {};
  const setupDistance = m.setup && m.setup.distance;
  for (const p of ["p1", "p2"]) {
    const pts = per(s, "points", p) ?? 0;
    const dist = per(s, "distance", p) ?? (typeof (s && s.distance) === "number" ? s.distance : setupDistance);
    const rem = per(s, "remaining", p) ?? (dist !== undefined ? Math.max(0, dist - pts) : undefined);
    const c = club && club.players ? club.players[p] : null;
    const list = c && c.series.length ? `<div class="runs" aria-label="${esc(t("series_sheet"))}"><span class="label">${t("series_sheet")}</span>
      <ol>${c.series.slice(-5).map((x) => `<li>${esc(x)}</li>`).join("")}</ol></div>` : `<div class="runs empty"></div>`;
    players[p] = `<div class="big">${esc(pts)}</div><div class="label">${t("points")}</div>
      <div class="stats three">${stat(t("distance"), dist)}${stat(t("remaining"), rem, "hi")}${stat(t("series"), per(s, "series", p))}
      ${stat(t("highest_series"), c ? c.highest : undefined)}${stat(t("average_series"), c ? c.average.toFixed(1) : undefined)}${extraLines(p)}</div>${list}`;
  }
  const down = pinsDown(s);
  // pin 1 the centre, 2 towards the head, 3 towards the foot, 4 and 5 across (rules/kegle/geometry.py)
  const spots = { 1: [50, 50], 2: [20, 50], 3: [80, 50], 4: [50, 20], 5: [50, 80] };
  let pins = `<div class="label">${t("pins_label")}</div><div class="pins" title="${t("pins")}">`;
  for (const [n, [x, y]] of Object.entries(spots)) {
    pins += `<span class="pin ${down.has(Number(n)) ? "down" : "up"}" data-pin="${n}" style="left:${x}%;top:${y}%">${n}</span>`;
  }
  pins += "</div>";
  const brk = s && (s.break_due === true || (s.break_due && typeof s.break_due === "object" && Object.values(s.break_due).some(Boolean)));
  const sp = s && !s.finished && typeof s.series_points === "number" ? stat(t("series_points"), s.series_points, "hi") : "";
  const told = snap.view && Array.isArray(snap.view.announcements) ? snap.view.announcements : s && s.announcements;
  const said = !s.finished && Array.isArray(told) && told.length ? told[told.length - 1] : null;
  const ann = said ? `<div class="announce">${esc(typeof said === "string" ? said : said.text)}</div>` : "";
  return { players, centre: pins + sp + ann + (brk ? `<div class="badge break">${t("break_due")}</div>` : "") };
}

// --- carom: caroms, target and remaining, innings, average, high run, run, entree/dedans ----
function carom(s, m, club) {
  const players = {};
  const over = !!(s && s.finished);
  for (const p of ["p1", "p2"]) {
    const c = club && club.players ? club.players[p] : null;
    const caroms = per(s, "caroms", p) ?? 0;
    const target = c ? c.target : per(s, "targets", p);
    const avg = c ? c.average.toFixed(3) : undefined;
    const reg = c && c.moyenne !== null ? `<small class="reg">${esc(t("moyenne_registered", { m: c.moyenne.toFixed(3) }))}</small>` : "";
    const mp = per(s, "match_points", p);
    // the last innings, and the run of the inning under way (the player at the table's)
    const past = c ? c.last.slice(over || c.run === null ? -5 : -4) : [];
    const now = !over && c && c.run !== null ? `<li class="now" title="${esc(t("current_run"))}">${esc(c.run)}</li>` : "";
    const last = past.map((x) => `<li>${esc(x)}</li>`).join("") + now;
    players[p] = `<div class="big">${esc(caroms)}</div><div class="label">${t("caroms")}</div>
      <div class="stats three">${stat(t("target"), target)}${stat(t("remaining"), c ? c.remaining : undefined, "hi")}
      ${stat(t("percent_target"), c && c.percent !== null ? c.percent + "%" : undefined)}
      ${stat(t("innings"), c ? c.innings : per(s, "innings", p))}
      <div class="stat avg"><span class="label">${t("moyenne_tonight")}</span><span class="value">${esc(avg)}</span>${reg}</div>
      ${over && mp !== undefined && mp !== null ? stat(t("match_points"), mp, "hi") : stat(t("high_run"), per(s, "high_run", p))}${extraLines(p)}</div>
      <div class="runs" aria-label="${esc(t("last_innings"))}"><span class="label">${t("last_innings")}${now ? " · " + t("current_run") : ""}</span><ol>${last}</ol></div>`;
  }
  let centre = "";
  if (club && club.innings_limit) {
    centre += `<div class="limit" data-limit="${esc(club.innings_limit)}"><span class="label">${t("innings_limit")}</span><b>${esc(t("inning_of", { n: club.inning, limit: club.innings_limit }))}</b></div>`;
  } else if (club) {
    centre += `<div class="limit"><b>${esc(t("inning_n", { n: club.inning }))}</b></div>`;
  }
  if (club && club.nastoot) centre += `<div class="badge nastoot">${esc(t("nastoot_for", { name: name(m, club.nastoot) }))}</div>`;
  if (club && club.timeouts_left && s && !over) {
    centre += `<div class="timeouts"><span class="label">${t("timeouts_left")}</span><b>${esc(name(m, "p1"))} ${esc(club.timeouts_left.p1)} · ${esc(name(m, "p2"))} ${esc(club.timeouts_left.p2)}</b></div>`;
  }
  let zoneShown = false;
  for (const k of ["entree", "dedans"]) {
    const v = s && s[k];
    if (v === undefined || v === null || v === false || v === "") continue;
    const detail = v === true ? (typeof s.zone === "string" ? s.zone : "") : typeof v === "object" ? (v[s.at_table] ?? "") : v;
    if (detail === false) continue;
    const word = typeof detail === "string" && t(`corner.${detail}`) !== `corner.${detail}` ? t(`corner.${detail}`) : detail;
    centre += `<div class="badge ${k}">${t(k).toUpperCase()} ${esc(word === true ? "" : word)}</div>`;
    zoneShown = true;
  }
  if (s && !over && typeof s.announcement === "string" && s.announcement) {
    const said = t("announce." + s.announcement);
    centre += `<div class="announce">${esc(said === "announce." + s.announcement ? s.announcement : said)}</div>`;
  }
  if (s && s.zone && !zoneShown) centre += `<div class="badge">${esc(typeof s.zone === "object" ? JSON.stringify(s.zone) : s.zone)}</div>`;
  if (s && s.countdown !== undefined && s.countdown !== null) {
    const cd = typeof s.countdown === "object" ? s.countdown[s.at_table] : s.countdown;
    if (cd !== undefined && cd !== null) centre += `<div class="countdown">${t("countdown")} <b>${esc(cd)}</b></div>`;
  }
  return { players, centre };
}

// --- the plan: the balls where the last rest put them (web/plan.py; only when the table reports positions)
const BALL_SCALE = 1.6; // balls drawn larger than to scale, to be seen from across the room
const num = (v) => typeof v === "number" && Number.isFinite(v);
const cm = (v) => Math.round(v * 1000) / 10; // metres to centimetres, to the millimetre

function planSvg(p, s) {
  if (!p || !num(p.length) || !num(p.width) || p.length <= 0 || p.width <= 0 || p.length > 10 || p.width > 10) return "";
  const balls = (Array.isArray(p.balls) ? p.balls : []).filter((b) => b && num(b.x) && num(b.y)).slice(0, 16);
  if (!balls.length) return "";
  const L = cm(p.length), W = cm(p.width), rail = 7;
  const pts = (ps) => (Array.isArray(ps) ? ps : []).filter((q) => Array.isArray(q) && num(q[0]) && num(q[1]))
    .map((q) => `${cm(q[0])},${cm(q[1])}`).join(" ");
  let svg = `<svg class="bed ${esc(p.game)}" viewBox="${-rail} ${-rail} ${L + 2 * rail} ${W + 2 * rail}" role="img" aria-label="${esc(t("plan.title"))}">
    <rect class="rail" x="${-rail}" y="${-rail}" width="${L + 2 * rail}" height="${W + 2 * rail}" rx="3"/>
    <rect class="cloth" x="0" y="0" width="${L}" height="${W}"/>`;
  for (const z of Array.isArray(p.zones) ? p.zones : []) {
    svg += `<polygon class="zone ${z && z.corner === p.zone ? "on" : ""}" data-corner="${esc(z && z.corner)}" points="${pts(z && z.points)}"/>`;
  }
  for (const tri of Array.isArray(p.triangles) ? p.triangles : []) svg += `<polygon class="triangle" points="${pts(tri)}"/>`;
  for (const g of Array.isArray(p.goals) ? p.goals : []) {
    if (Array.isArray(g) && num(g[0]) && num(g[1]) && num(g[2])) svg += `<circle class="goal" cx="${cm(g[0])}" cy="${cm(g[1])}" r="${cm(g[2])}"/>`;
  }
  for (const q of Array.isArray(p.pegs) ? p.pegs : []) {
    if (Array.isArray(q) && num(q[0]) && num(q[1])) svg += `<circle class="peg" cx="${cm(q[0])}" cy="${cm(q[1])}" r="1.2"/>`;
  }
  for (const q of Array.isArray(p.pockets) ? p.pockets : []) {
    if (Array.isArray(q) && num(q[0]) && num(q[1]) && num(q[2])) svg += `<circle class="pocket" cx="${cm(q[0])}" cy="${cm(q[1])}" r="${cm(q[2])}"/>`;
  }
  const down = p.pins ? pinsDown(s) : new Set();
  for (const q of Array.isArray(p.pins) ? p.pins : []) {
    if (Array.isArray(q) && num(q[1]) && num(q[2])) svg += `<circle class="kpin ${down.has(Number(q[0])) ? "down" : "up"}" cx="${cm(q[1])}" cy="${cm(q[2])}" r="1.6"/>`;
  }
  const r = cm(num(p.ball) && p.ball > 0 && p.ball < 0.1 ? p.ball : 0.03) * BALL_SCALE;
  for (const b of balls) {
    svg += `<circle class="b ball-${esc(b.colour)}" data-ball="${esc(b.ball)}" cx="${cm(b.x)}" cy="${cm(b.y)}" r="${r}"/>`;
  }
  return `<figure class="plan"><figcaption class="label">${esc(t("plan.title"))}</figcaption>${svg}</svg></figure>`;
}

const LAYOUTS = { golf, kegle, carom };

function optionWord(m, o) {
  if (o === true) return t("yes");
  if (o === false) return t("no");
  if (o === "p1" || o === "p2") return name(m, o);
  return t("ball." + o) !== "ball." + o ? t("ball." + o) : String(o);
}

// Only the parts whose HTML changed are rewritten: a new event repaints the ticker, not the board.
function region(id, html) {
  const el = document.getElementById(id);
  if (el._html === html) return false;
  el.innerHTML = html;
  el._html = html;
  return true;
}

function setClass(el, cls) {
  if (el.className === cls) return false;
  el.className = cls;
  return true;
}

// The board of a match in parts: its frame (two cards and the centre) is written once, then each
// part only when its own HTML changed, so a new turn moves a tag and a class, not the whole screen
// (no restyle of every element, no new fitting of the names). A part is `display: contents`: its
// pieces stand in the card as before. True when what the names are fitted to changed.
const CARD = (p) => `<section id="card-${p}" data-player="${p}"><div id="tag-${p}" class="part"></div><h2 id="name-${p}"></h2><div id="stats-${p}" class="part"></div></section>`;
function board(b) {
  let moved = false;
  if (!document.getElementById("board")) {
    const el = document.getElementById("body");
    el.innerHTML = `<main id="board">${CARD("p1")}<section id="centre"></section>${CARD("p2")}</main>`;
    el._html = null; // the idle page's HTML is not there any more
    moved = true;
  }
  moved = setClass(document.getElementById("board"), b.main) || moved;
  for (const p of ["p1", "p2"]) {
    const card = b.cards[p];
    setClass(document.getElementById(`card-${p}`), card.cls);
    region(`tag-${p}`, card.tag);
    const h2 = document.getElementById(`name-${p}`);
    if (h2.textContent !== card.name) { h2.textContent = card.name; moved = true; }
    region(`stats-${p}`, card.stats);
  }
  setClass(document.getElementById("centre"), b.centre.cls);
  return region("centre", b.centre.html) || moved; // the centre's width is the cards' too
}

function skeleton() {
  document.getElementById("app").innerHTML = `<header><h1 id="head" class="head"></h1>
    <span id="clock-box" class="clock-box"><small id="clock-label" class="label"></small><span id="clock" class="clock"></span></span>
    <button id="speech" class="speech"></button></header>
    <div id="body" class="body"></div><footer class="foot"><div id="notice"></div><div id="final"></div><div id="questions"></div>
    <div id="lastshot" class="lastshot" aria-live="polite"></div><ol id="ticker" class="ticker"></ol></footer>`;
  document.getElementById("speech").onclick = () => {
    speech = !speech;
    localStorage.setItem("tablesense.speech", speech ? "on" : "off");
    render();
  };
}

// A name shrinks to fit its card (down to 60 %), then wraps: a long name is never cut. Both
// names take the smaller size and the same height, so the two cards line up.
function fitNames() {
  const names = [...document.querySelectorAll(".player h2")];
  if (!names.length) return;
  names.forEach((h) => { h.style.minHeight = ""; });
  const sizes = names.map((h) => fitText(h));
  const wrap = names.some((h) => h.classList.contains("wrap"));
  const size = Math.min(...sizes);
  names.forEach((h) => { h.style.fontSize = `${size}px`; h.classList.toggle("wrap", wrap); });
  const high = Math.max(...names.map((h) => h.getBoundingClientRect().height));
  names.forEach((h) => { h.style.minHeight = `${high}px`; });
  fitLine();
}

function fitLine() {
  const line = document.getElementById("lastshot-text");
  if (line) fitText(line, 0.55);
}

function render() {
  const s = snap.state;
  const m = snap.match;
  if (!document.getElementById("ticker")) skeleton();
  region("head", `<span class="table">${t("table")} ${esc(TID)}</span><span class="game">${esc(gameTitle(m))}</span>`);
  const button = document.getElementById("speech");
  setClass(button, `speech ${speech ? "on" : "off"}`);
  const spoken = speech ? t("speech_on") : t("speech_off");
  if (button.title !== spoken) { button.title = spoken; button.setAttribute("aria-label", spoken); }
  region("speech", SPEAKER);
  const keys = m && m.game === "golf" ? t("tv_keys.golf") : t("panel.tv_keys");
  const qr = showQr
    ? `<aside class="qr"><img alt="${esc(t("scan"))}" src="/api/table/${encodeURIComponent(TID)}/qr.svg"><span>${t("scan")}</span>
      <span class="keys">${esc(keys)}</span></aside>` : "";
  let body = "", fin = "", questions = "", notice = "", parts = null;
  const over = !!(m && s && s.finished);
  // the board is silent: play goes on by the referee's hand (docs/scoreboard.md, "Sensors out")
  const sensors = snap.sensors || {};
  const sensorsOut = !over && sensors.link === "out", checking = !over && !!sensors.checking;
  if (!m) {
    body = `<main class="idle"><div class="nomatch">${t("no_match")}</div>${qr}</main>`;
  } else {
    const club = snap.view && snap.view.club;
    const lay = (LAYOUTS[m.game] || carom)(s || {}, m, club);
    const at = s && !over ? s.at_table : null; // after the end nobody is at the table
    const colours = (snap.view && snap.view.colours) || {};
    // every card has the same rows (a tag above the name: at the table, or the winner), so the two line up
    const tag = (p) => (s && s.winner === p ? `<div class="tag ribbon">${t("winner")}</div>`
      : at === p ? `<div class="tag atlabel"><span class="cue" aria-hidden="true">▶</span> ${t("at_table")}</div>` : `<div class="tag"></div>`);
    const card = (p) => ({ cls: `player ${p} ${at === p ? "at" : ""} ${s && s.winner === p ? "won" : ""} ${colours[p] ? "ball-" + colours[p] : "ball-none"}`,
      tag: tag(p), name: name(m, p), stats: lay.players[p] });
    const drawn = snap.view && !over ? planSvg(snap.view.plan, s) : "";
    parts = { main: `board ${m.game} ${over ? "over" : ""} ${sensorsOut || checking ? "squeezed" : ""}`,
      cards: { p1: card("p1"), p2: card("p2") },
      centre: { cls: `centre ${drawn ? "planned" : ""}`, html: `${drawn}${lay.centre}${extraLines("centre")}${qr}` } };
    if (!s) notice += `<div class="notice">${t("no_engine")}</div>`;
    if (over) {
      const w = s.winner === "draw" ? t("draw") : s.winner ? t("winner_big", { name: esc(name(m, s.winner)) }) : "";
      fin = `<div class="final">${w || t("finished")} <small>${t("finished")} · ${t("table_free")}</small></div>`;
    }
    if (s && s.questions && s.questions.length) {
      const opts = (q) => (showQr ? ` <small>(← ${esc(optionWord(m, (q.options || [true])[0]))} · ${esc(optionWord(m, (q.options || [true, false])[1]))} →)</small>` : "");
      questions = `<div class="questions">${t("question")}: ${s.questions.map((q) => esc(q.text) + opts(q)).join(" · ")}</div>`;
    }
  }
  if (document.body.dataset.pairing === "refused") notice += `<div class="notice pairing">${t("tv_code_wrong")}</div>`;
  if (sensorsOut) notice += `<div class="notice sensors-out" role="status"><span aria-hidden="true">⚠</span> ${t("sensors.out")}</div>`;
  else if (checking) notice += `<div class="notice sensors-back" role="status">${t("sensors.checking")}</div>`;
  const asked = (snap.view && snap.view.sensor_questions) || [];
  if (asked.length) questions += `<div class="questions sensors">${t("question")}: ${asked.map((q) => esc(q.text)).join(" · ")}</div>`;
  region("notice", notice);
  document.body.classList.toggle("over", over);
  let moved = parts ? board(parts) : region("body", body);
  moved = region("final", fin) || moved;
  moved = region("questions", questions) || moved;
  const told = snap.view && snap.view.last_shot;
  const line = region("lastshot", told && !over ? `<small>${t("last_shot")}</small><span id="lastshot-text">${esc(told)}</span>` : "");
  let ticker = "";
  for (const ev of snap.ticker.filter(matters).slice(-8).reverse()) {
    ticker += `<li data-seq="${esc(ev.seq)}" data-type="${esc(ev.type)}" class="${esc(ev.source)}">${esc(eventText(ev, m))}</li>`;
  }
  region("ticker", ticker);
  if (moved) fitNames(); // only when what it measures changed: a ticker line costs no layout
  else if (line) fitLine(); // a new last shot: its line alone
  marked(snap.ticker, snap._recv, snap.now);
  announce(s, m);
  tick();
  document.body.dataset.version = snap.version; // the snapshot on the screen (the tests wait for it)
}

// The ticker keeps what matters: goals, pockets, pins falling, balls off the table, the
// referee's calls and the table's errors (not every cushion and rest).
function matters(ev) {
  return ["goal", "pocket", "off_table", "call", "error", "note", "sensors"].includes(ev.type) || (ev.type === "pin" && ev.state === "down");
}

let lastTold = null;
// Said aloud, in the table's language and voice: each new last shot (keglebillard's
// "18 remaining" is part of it), and carom's countdown of caroms to go.
function announce(s, m) {
  const rulings = s ? s.rulings_count ?? (s.rulings || []).length : 0; // the message carries the newest only
  const told = snap.view ? snap.view.last_shot || "" : "";
  if (seenRulings >= 0 && told && (told !== lastTold || rulings !== seenRulings)) {
    showBanner();
    say(told);
  }
  lastTold = told;
  const cd = s && s.countdown !== undefined && s.countdown !== null
    ? (typeof s.countdown === "object" ? s.countdown[s.at_table] : s.countdown) : null;
  if (typeof cd === "number" && cd !== lastAnnouncement && seenRulings >= 0) say(t("ls.remaining", { n: cd }));
  lastAnnouncement = typeof cd === "number" ? cd : null;
  seenRulings = rulings;
}

let lastAnnouncement = null;
// A new last shot lights its strip up for a few seconds (in the page's flow: it covers nothing).
function showBanner() {
  const strip = document.getElementById("lastshot");
  strip.classList.add("fresh");
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => { bannerTimer = null; document.getElementById("lastshot").classList.remove("fresh"); }, 6000);
}

function say(text) {
  if (!speech || !text || !("speechSynthesis" in window)) return;
  const u = new SpeechSynthesisUtterance(text);
  u.lang = t("speech");
  speechSynthesis.speak(u);
}

// The turn clock starts by itself when the balls come to rest (a countdown where the rules set a
// limit); it stands still while the referee answers a question or picks a spot (snap.paused_at).
function tick() {
  const el = document.getElementById("clock");
  if (!el || !snap) return;
  const label = document.getElementById("clock-label");
  const shown = clockText(snap, Date.now() + skew);
  const text = shown ? shown.text : "", cls = shown ? shown.cls : "clock";
  if (el.textContent !== text) el.textContent = text;
  if (el.className !== cls) el.className = cls;
  const l = text ? t("turn_clock") + (snap.paused_at ? " · " + t("clock_paused") : "") : "";
  if (label.textContent !== l) label.textContent = l;
}
// Woken once a second, just after the clock's next second begins (it was four times a second,
// up to 250 ms late): the clock counts whole seconds from the rest, so nothing changes between.
function tickLater() {
  tick();
  let wait = 1000;
  if (snap && snap.rest_at) {
    const ms = Date.now() + skew - snap.rest_at * 1000;
    wait = 1000 - (((ms % 1000) + 1000) % 1000) + 5;
  }
  setTimeout(tickLater, wait);
}
tickLater();

// Pairing: the pub's TV opens /table/<id>?tv=CODE once (the code `tablesense run` prints); the host
// keeps a cookie for it and the code leaves the address bar. Only a paired TV gets the QR code.
async function pair() {
  const api = `/api/table/${encodeURIComponent(TID)}/tv`;
  const code = params.get("tv");
  if (code !== null) {
    params.delete("tv");
    const rest = params.toString();
    history.replaceState(null, "", location.pathname + (rest ? "?" + rest : ""));
    const r = await fetch(api, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code }) });
    if (!r.ok) document.body.dataset.pairing = "refused";
  }
  if (wantQr) {
    const r = await fetch(api, { cache: "no-store" });
    showQr = r.ok && (await r.json()).paired === true;
    document.body.dataset.pairing = showQr ? "paired" : (document.body.dataset.pairing || "none");
  }
  if (snap) render();
}
pair().catch(() => {});

// A keyboard or a presenter remote at a paired TV referees the table (as Carambus tables are
// run): Space counts a carom (carambole), Backspace undoes, ← → answer the open question,
// 1-5 put the waiting golf ball on that replacement spot.
async function tvCall(body) {
  const r = await fetch(`/api/table/${encodeURIComponent(TID)}/call`, { method: "POST",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (!r.ok) {
    let msg = await r.text();
    try { msg = JSON.parse(msg).error || msg; } catch (e) { /* plain text */ }
    flash(`${t("refused")}: ${String(msg).replace(/^refused:\s*/i, "")}`);
  }
}

function flash(text) {
  const strip = document.getElementById("lastshot");
  if (!strip) return;
  strip.innerHTML = `<span class="keymsg">${esc(text)}</span>`;
  strip._html = null;
  showBanner();
}

addEventListener("resize", () => { if (snap) fitNames(); });

document.addEventListener("keydown", (e) => {
  if (!showQr || !snap || !snap.match || !snap.state || snap.state.finished) return;
  const s = snap.state, m = snap.match;
  const qs = s.questions || [];
  const waiting = Array.isArray(s.spots_waiting) ? s.spots_waiting : [];
  if (e.key === " " && m.game !== "golf") { e.preventDefault(); tvCall({ call: "carom" }); }
  else if (e.key === "Backspace") {
    e.preventDefault();
    if (snap.view && snap.view.undo && snap.view.undo !== t("undo.nothing")) { flash(snap.view.undo); tvCall({ call: "undo" }); }
  } else if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && qs.length) {
    e.preventDefault();
    const opts = qs[0].options || [true, false];
    tvCall({ call: "answer", question: qs[0].id, answer: opts[e.key === "ArrowLeft" ? 0 : Math.min(1, opts.length - 1)] });
  } else if (/^[1-5]$/.test(e.key) && waiting.length) {
    tvCall({ call: "spot", ball: waiting[0], spot: Number(e.key) });
  }
});

live(`/ws/${encodeURIComponent(TID)}`, async (data, recv) => {
  skew = data.now * 1000 - Date.now();
  await loadLang(data.lang);
  data._recv = recv;
  snap = data;
  render();
}, (up) => document.body.classList.toggle("offline", !up));
