// Shared by the scoreboard, the overview and the referee panel: strings, live updates, event words.

let STR = {};
const TABLES = {}; // language -> its strings (the overview shows each table in its own)
const LOADED = {}; // language -> the promise of its strings

export function tableId() {
  return decodeURIComponent(location.pathname.split("/")[2] || "");
}

// The strings of ``lang``, fetched once.
export async function strings(lang) {
  const l = lang || "en";
  if (!LOADED[l]) LOADED[l] = fetch(`/i18n/${encodeURIComponent(l)}.json`).then((r) => r.json()).then((x) => (TABLES[l] = x));
  return LOADED[l];
}

// The page's language: its strings become t()'s (true when it changed).
export async function loadLang(lang) {
  if (STR.lang === lang) return false;
  STR = await strings(lang);
  document.documentElement.lang = STR.lang;
  return true;
}

function fill(s, vars) {
  return vars ? s.replace(/\{(\w+)\}/g, (_, k) => (vars[k] ?? "")) : s;
}

// A pair's name ("Ann & Cor") takes the string's plural form where it has one (``key.duo``).
function pick(table, key, vars) {
  const duo = vars && / &(amp;)? /.test(String(vars.name ?? "")) ? table[`${key}.duo`] : undefined; // escaped or not
  return duo ?? table[key] ?? key;
}

export function t(key, vars) {
  return fill(pick(STR, key, vars), vars);
}

// t() in another language whose strings are loaded (``strings``): the overview's cards.
export function tIn(lang, key, vars) {
  return fill(pick(TABLES[lang] || STR, key, vars), vars);
}

export function esc(v) {
  return String(v ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export function name(match, p) {
  const v = match && match.players ? match.players[p] : p;
  return Array.isArray(v) ? v.join(" & ") : (v ?? p);
}

export function gameTitle(match, tr = t) {
  if (!match) return "";
  let s = tr("game." + match.game);
  const d = match.setup && match.setup.discipline;
  if (d) s += " · " + tr("discipline." + d);
  return s;
}

// One short line for a table event (the ticker, the referee's shot list); one the referee entered
// by hand while the sensors were out says so.
export function eventText(ev, match) {
  const s = eventWords(ev, match);
  return ev.by_hand === true ? `${s} (${t("ev.by_hand")})` : s;
}

function eventWords(ev, match) {
  if (ev.type === "error") return "! " + ev.error;
  if (ev.type === "sensors") return t("ev.sensors", ev); // the board back: its record merged with the hand's
  const key = "ev." + ev.type;
  const word = (k, fallback) => (t(k) !== k ? t(k) : fallback);
  const game = match ? match.game : "";
  if (ev.type === "pin" && t(`ev.pin.${ev.state}`) !== `ev.pin.${ev.state}`) return t(`ev.pin.${ev.state}`, ev);
  if (ev.type === "call" && ["start", "foul", "spot"].includes(ev.call)) { // the call's words say it all
    const who = name(match, ["p1", "p2"].includes(ev.ball) ? ev.ball : ev.player);
    const foul = ev.foul && word(`foul.${game}.${ev.foul}`, ev.foul);
    const what = t("call." + ev.call, { name: who, spot: ev.spot, foul });
    return t("ev.call", { call: what }) + (ev.call === "foul" && ev.player ? ` (${name(match, ev.player)})` : "");
  }
  let s = t(key, ev.type === "call" ? { call: word(`call.${ev.call}.${game}`, word("call." + ev.call, ev.call)) } : ev);
  if (ev.type === "call") {
    const ball = ["p1", "p2"].includes(ev.ball) ? name(match, ev.ball) : ev.ball && word("ball." + ev.ball, ev.ball);
    const bits = [ev.foul && word(`foul.${game}.${ev.foul}`, ev.foul), ev.player && name(match, ev.player), ball,
      ev.spot, ev.answer === true ? t("yes") : ev.answer === false ? t("no") : ["p1", "p2"].includes(ev.answer) ? name(match, ev.answer) : ev.answer,
      ev.call === "void" ? `${ev.from}–${ev.to}` : null];
    s += " " + bits.filter((b) => b !== null && b !== undefined && b !== "").join(" ");
  }
  if (ev.ball && ev.type !== "call") s += " · " + (["p1", "p2"].includes(ev.ball) ? name(match, ev.ball) : word("ball." + ev.ball, ev.ball));
  return s.trim();
}

// Text as large as its box allows: the font shrinks (down to ``least`` of its own size) until the
// text fits; then it may wrap (class "wrap") and shrink on until it fits in height too. Returns
// the size used (px). A name or a line is never cut: it gets smaller, then takes two lines.
export function fitText(el, least = 0.6) {
  el.style.fontSize = "";
  el.classList.remove("wrap");
  const over = () => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
  if (!over()) return parseFloat(getComputedStyle(el).fontSize); // fits as it is: one layout
  const full = parseFloat(getComputedStyle(el).fontSize);
  // the largest size that fits, found by halving (a few layouts, not one per step)
  const largest = (low, high) => {
    el.style.fontSize = `${low}px`;
    if (over()) return null;
    for (let i = 0; i < 5; i++) {
      const mid = (low + high) / 2;
      el.style.fontSize = `${mid}px`;
      if (over()) high = mid; else low = mid;
    }
    el.style.fontSize = `${low}px`;
    return low;
  };
  const oneLine = largest(full * least, full);
  if (oneLine !== null) return oneLine;
  el.classList.add("wrap");
  // wrapped, it takes the smallest one-line size (larger would only take more lines), less if needed
  el.style.fontSize = `${full * least}px`;
  if (!over()) return full * least;
  const wrapped = largest(full * least * 0.75, full * least);
  if (wrapped !== null) return wrapped;
  el.style.fontSize = `${full * least * 0.75}px`; // the least it may be: as good as it gets
  return full * least * 0.75;
}

// A WebSocket that reconnects by itself; calls onMessage(JSON) for every snapshot. Each message
// is answered once the page has shown it (``?ack=1``): the host sends the next only then, the
// newest state of each table that changed meanwhile, so a busy browser skips states instead of
// falling behind a queue of them (host/tablesense/web/messages.py, ``Pace``).
export function live(path, onMessage, onState) {
  let delay = 250;
  function open() {
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}?ack=1`);
    ws.onopen = () => { delay = 250; onState && onState(true); };
    ws.onmessage = async (m) => {
      const recv = performance.timeOrigin + performance.now(); // before parsing: the page's own work follows
      try {
        await onMessage(JSON.parse(m.data), recv);
      } finally {
        if (ws.readyState === WebSocket.OPEN) ws.send("1"); // shown: the next, please
      }
    };
    ws.onclose = () => {
      onState && onState(false);
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 5000);
    };
  }
  open();
}

// Per-player values: {"p1": .., "p2": ..} -> value of p, else undefined.
export function per(state, key, p) {
  const v = state ? state[key] : undefined;
  if (v && typeof v === "object" && !Array.isArray(v) && (p in v)) return v[p];
  return undefined;
}

export function fmtClock(sec) {
  const s = Math.max(0, Math.floor(sec));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The turn clock of a snapshot at the host's time nowMs: its text and class (null: no clock).
export function clockText(sn, nowMs) {
  const s = sn.state;
  if (!sn.rest_at || !sn.match || (s && s.finished)) return null;
  const until = sn.paused_at ? Math.max(sn.paused_at, sn.rest_at) : nowMs / 1000;
  const elapsed = until - sn.rest_at;
  const limit = sn.turn_clock;
  if (limit) {
    const left = limit - elapsed;
    return { text: fmtClock(Math.ceil(left)), cls: "clock" + (sn.paused_at ? " paused" : left <= 10 ? " warn" : "") + (!sn.paused_at && left <= 0 ? " over" : "") };
  }
  return { text: fmtClock(elapsed), cls: "clock up" + (sn.paused_at ? " paused" : "") };
}


// bench/web_latency.py: each marked event of a snapshot's ticker, when the host sent its message
// (the snapshot's ``now``), when it arrived, when the DOM showed it (window.__marks) and when the
// frame that paints it began. Only a message that changed what the page shows waits for a frame:
// asking one for every event made each page paint a frame per event (8 TVs, 80 frames a second),
// which the pages never do for themselves; one that changed nothing is shown with its DOM.
window.__marks = window.__marks || {};
window.__timing = window.__timing || {};
let changes = null; // what the page changed on the screen since the last marked message
export function marked(ticker, recv, sent) {
  const now = performance.timeOrigin + performance.now();
  const fresh = [];
  for (const ev of ticker) {
    if (ev.mark === undefined || ev.mark in window.__marks) continue;
    window.__marks[ev.mark] = now;
    window.__timing[ev.mark] = { sent: sent === undefined ? recv ?? now : sent * 1000, recv: recv ?? now, dom: now };
    fresh.push(ev.mark);
  }
  if (!fresh.length) return;
  let changed = true;
  if (changes === null) { // the first marked message: watch the page from now on (a bench's page only)
    changes = new MutationObserver(() => {});
    changes.observe(document.documentElement, { subtree: true, childList: true, characterData: true,
      attributes: true, attributeFilter: ["class", "style", "hidden", "src", "title"] });
  } else {
    changed = changes.takeRecords().length > 0;
  }
  if (!changed) {
    for (const m of fresh) window.__timing[m].frame = now;
    return;
  }
  requestAnimationFrame(() => {
    const frame = performance.timeOrigin + performance.now();
    for (const m of fresh) window.__timing[m].frame = frame;
  });
}
