// hkcore's table page (/play): a start screen that opens a table at the
// service (POST /tables), and the table as one seat sees it (docs/server.md,
// "Tables"). The seat's state comes over the WebSocket /tables/{id}/ws; when
// the socket closes the page asks GET /tables/{id} every second and tries the
// socket again. The seat's token is in the URL's fragment (never sent by the
// browser as part of the URL): /play?table=ID&seat=S#TOKEN.
"use strict";

const FALLBACK_BOTS = ["random", "simple", "efficiency", "value", "guard"];  // when the service lists no bots (GET /bots)
const POLL_MS = 1000;
const ACT_KEYS = { p: "pass", c: "chow", u: "pung", k: "kong", w: "win" };

const params = new URLSearchParams(location.search);
const here = { table: params.get("table"), seat: params.get("seat"), token: decodeURIComponent(location.hash.slice(1)) };
let current = null;       // the last State shown
let socket = null;
let pollTimer = null;
let retryTimer = null;
let retryMs = 1000;
let tickTimer = null;
let deadlineAt = null;    // Date.now() when this seat's claim window runs out
let selected = null;      // the picked tile: {code, drawn}
let pending = false;      // a decision sent, its answer not yet in
const dealChecks = new Map();  // a deal's commitment -> its check once the hand is over: {how, text}

function showProblem(p) {
  const box = $("problem");
  if (!p) { box.hidden = true; box.textContent = ""; return; }
  box.hidden = false;
  box.textContent = typeof p === "string" ? p : `${p.detail || p.title || "error"}${p.field ? ` (field ${p.field})` : ""}`;
}

function seatLabel(s) { return `${SEAT_NAMES[s]} ${WIND_FACES[s]}`; }

function shown(code, extra) { return tileFace(code, extra || {}, "span"); }

function tileRow(codes, cls) { return el("span", { class: `tiles ${cls || ""}` }, ...codes.map((c) => shown(c))); }

function back() { return el("span", { class: "tile back", "aria-hidden": "true" }); }

// replaceChildren would write a null child as the text "null"
function fill(node, ...kids) { node.replaceChildren(...kids.filter((k) => k !== null && k !== undefined)); }

function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

// ---------------------------------------------------------------- start screen

async function getJSON(path) {
  const r = await fetch(path);
  if (!r.ok) throw await r.json().catch(() => ({ detail: `${path}: ${r.status}` }));
  return r.json();
}

async function startScreen() {
  $("start").hidden = false;
  let bots = FALLBACK_BOTS.map((name) => ({ name, description: "" }));
  try {
    const listed = await getJSON("/bots");
    if (Array.isArray(listed) && listed.length) bots = listed;
  } catch (_) { /* the built-in names */ }
  const names = bots.map((b) => b.name);
  const usual = ["guard", "value", "efficiency"].find((n) => names.includes(n)) || names[0];  // the strongest built-in bot
  fill($("seat-choices"), ...SEATS.map((s) => {
    const options = [["human", "a person", ""], ...bots.map((b) => [b.name, `bot: ${b.name}`, b.description || ""])];
    return el("div", { class: "seat-choice" },
      el("label", { for: `seat-${s}`, text: seatLabel(s) }),
      el("select", { id: `seat-${s}`, "data-seat": s },
        ...options.map(([v, t, about]) => el("option", { value: v, text: t, title: about || null,
          selected: v === (s === "E" ? "human" : usual) }))));
  }));
  try {
    const presets = await getJSON("/presets");
    fill($("preset"), ...presets.map((p) => el("option", { value: p.id, text: `${p.id}: ${p.name}`,
      selected: p.id === "hk-classic" })));
  } catch (p) { showProblem(p.detail ? p : "cannot reach the hkcore service"); }
  $("start-form").addEventListener("submit", (e) => { e.preventDefault(); create(); });
}

async function create() {
  showProblem(null);
  const seats = Object.fromEntries(SEATS.map((s) => [s, $(`seat-${s}`).value]));
  const people = SEATS.filter((s) => seats[s] === "human");
  if (!people.length) { showProblem("choose a person for at least one seat: the page plays a person's seat"); return; }
  const toml = $("toml").value.trim();
  const seedText = $("seed").value.trim();
  if (seedText && !/^[0-9]+$/.test(seedText)) { showProblem("the seed is a whole number (or empty: any)"); return; }
  const body = { preset: toml || $("preset").value, seed: seedText ? Number(seedText) : null, seats, match: $("match").checked };
  $("create").disabled = true;
  try {
    const r = await fetch("/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const made = await r.json();
    if (!r.ok) throw made;
    if (people.length === 1) { location.assign(made.links[people[0]]); return; }
    $("links").hidden = false;
    fill($("link-list"), ...people.map((s) => {
      const href = new URL(made.links[s], location.href).href;
      return el("li", { "data-seat": s },
        el("span", { class: "who", text: seatLabel(s) }),
        el("a", { href, text: "open here", "data-link": s }),
        el("input", { readonly: true, value: href, "aria-label": `link for ${SEAT_NAMES[s]}`, onfocus: (e) => e.target.select() }),
        el("button", { type: "button", class: "secondary", text: "Copy",
          onclick: () => navigator.clipboard?.writeText(href).catch(() => {}) }));
    }));
  } catch (p) {
    showProblem(p && p.detail ? p : "cannot reach the hkcore service");
  } finally {
    $("create").disabled = false;
  }
}

// ---------------------------------------------------------------- connection

function tablePath(tail) { return `/tables/${encodeURIComponent(here.table)}${tail || ""}`; }

function connect() {
  clearTimeout(retryTimer);
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}${tablePath("/ws")}`);
  socket = ws;
  ws.addEventListener("open", () => ws.send(JSON.stringify({ type: "hello", seat: here.seat, token: here.token })));
  ws.addEventListener("message", (e) => {
    let m;
    try { m = JSON.parse(e.data); } catch (_) { return; }
    if (m.type === "state") {
      stopPolling();
      retryMs = 1000;
      setConnection("socket");
      show(m);
    } else if (m.type === "error") {
      pending = false;
      showProblem(m);
      if (current) render(current);
    }
  });
  ws.addEventListener("close", (e) => {
    if (socket !== ws) return;
    socket = null;
    if (e.code === 4403) { stop("this link's token is not this seat's (403): ask for the seat's link again"); return; }
    if (e.code === 4404) { stop("no such table here: it ended, expired, or the service restarted"); return; }
    setConnection("polling");
    startPolling();
    retryTimer = setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 8000);
  });
}

function stop(why) {
  stopPolling();
  clearTimeout(retryTimer);
  setConnection("closed");
  showProblem(why);
}

function setConnection(how) { $("table").dataset.connection = how; }

function startPolling() {
  if (pollTimer) return;
  const poll = async () => {
    try {
      const r = await fetch(`${tablePath()}?seat=${encodeURIComponent(here.seat)}`, { headers: auth() });
      if (r.status === 403 || r.status === 404) { stop((await r.json()).detail); return; }
      if (r.ok) show(await r.json());
    } catch (_) { /* the service is away: asked again */ }
  };
  poll();
  pollTimer = setInterval(poll, POLL_MS);
}

function stopPolling() { clearInterval(pollTimer); pollTimer = null; }

function auth() { return { Authorization: `Bearer ${here.token}` }; }

async function send(message, path, body) {  // over the socket, else by HTTP
  pending = true;
  showProblem(null);
  if (current) render(current);
  if (socket && socket.readyState === WebSocket.OPEN) { socket.send(JSON.stringify(message)); return; }
  try {
    const r = await fetch(tablePath(path), { method: "POST", headers: { ...auth(), "Content-Type": "application/json" },
      body: JSON.stringify(body) });
    const data = await r.json();
    if (!r.ok) throw data;
    show(data);
  } catch (p) {
    pending = false;
    showProblem(p && p.detail ? p : "cannot reach the hkcore service");
    if (current) render(current);
  }
}

function decide(action) {
  const p = current && current.prompt;
  if (!p || pending) return;
  const decision = { prompt: p.prompt, seat: p.seat, ...action };
  send({ type: "decision", decision }, "/decisions", decision);
}

function nextHand() { send({ type: "next" }, "/next", {}); }
function comeBack() {  // over the socket nothing waits for an answer: the state comes when the seat is ours again
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "back" }));
  else send({ type: "back" }, "/back", {});
}

// ---------------------------------------------------------------- the table

function show(state) {
  if (current && state.version < current.version) return;  // an older answer, overtaken
  pending = false;
  current = state;
  deadlineAt = state.deadline_ms == null ? null : Date.now() + state.deadline_ms;
  render(state);
}

function order(me) {  // the seats from one's own round the table: me, next, across, before
  const i = SEATS.indexOf(me);
  return [0, 1, 2, 3].map((k) => SEATS[(i + k) % 4]);
}

function meldTiles(m) {
  if (!m.tiles) return el("span", { class: "tiles meld hidden-kong", title: "a concealed kong, faces hidden" },
    back(), back(), back(), back());
  return el("span", { class: `tiles meld${m.kind === "kong" && !m.from && m.concealed !== false ? " concealed" : ""}`,
    title: `${m.kind}${m.from ? ` from ${SEAT_NAMES[m.from]}` : ""}` }, ...expand(m.tiles).map((c) => shown(c)));
}

function seatHead(state, s, me) {
  const v = state.view;
  const bits = [el("span", { class: "wind", lang: "zh-Hant", text: WIND_FACES[s] }),
    el("span", { class: "name", text: me ? `You (${SEAT_NAMES[s]})` : state.names[s] || SEAT_NAMES[s] })];
  if (!me && state.seats[s] !== "human") bits.push(el("span", { class: "badge bot", text: "bot" }));
  if (s === "E") bits.push(el("span", { class: "badge dealer", text: "dealer" }));
  if (v.points) bits.push(el("span", { class: "points", text: String(v.points[s]) }));
  if ((state.away || []).includes(s)) bits.push(el("span", { class: "badge away", title: "a bot plays this seat until its person is back", text: "away" }));
  if (state.waiting_for.includes(s)) bits.push(el("span", { class: "badge turn", text: me ? "you to play" : "to play" }));
  return bits;
}

function lastMove(state) {  // the last thing that happened, in words
  const seen = state.events.filter((e) => ["discard", "chow", "pung", "kong", "win", "exhausted"].includes(e.event));
  const e = seen.at(-1);
  if (!e) return "";
  const who = e.seat === state.seat ? "You" : SEAT_NAMES[e.seat];
  if (e.event === "discard") return `${who} discarded ${e.tile} (${tileName(e.tile)})`;
  if (e.event === "exhausted") return "The wall is used up";
  if (e.event === "win") return `${who} won`;
  return `${who} declared a ${e.event === "kong" ? `${e.kind} kong` : e.event}${e.tiles ? ` ${e.tiles}` : ""}`;
}

function render(state) {
  $("start").hidden = true;
  $("table").hidden = false;
  const v = state.view;
  const me = state.seat;
  const table = $("table");
  table.dataset.status = state.status;
  table.dataset.version = String(state.version);
  table.dataset.seat = me;
  table.dataset.events = String(state.events.length);
  const turnSeats = state.waiting_for.filter((s) => s !== me).map((s) => SEAT_NAMES[s]);
  fill($("info"),
    el("span", { class: "preset", title: state.preset.name, text: state.preset.id }),
    el("span", { text: `Hand ${state.hand}` }),
    el("span", {}, "Round ", el("b", { lang: "zh-Hant", text: WIND_FACES[state.round] }), ` ${SEAT_NAMES[state.round]}`),
    el("span", {}, "Your seat ", el("b", { lang: "zh-Hant", text: WIND_FACES[me] }), ` ${SEAT_NAMES[me]}`),
    el("span", { id: "wall", "data-wall": String(v.live_left), text: `Wall ${v.live_left}` }),
    el("span", { class: "last", id: "last-move", text: lastMove(state) }),
    turnSeats.length ? el("span", { class: "waiting", text: `waiting for ${turnSeats.join(", ")}` }) : null);

  const [, ...others] = order(me);
  const place = ["right", "across", "left"];
  fill($("others"), ...others.map((s, k) => el("section", {
    class: `seat ${place[k]}${state.waiting_for.includes(s) ? " on-turn" : ""}`, "data-seat": s, "aria-label": SEAT_NAMES[s] },
  el("h3", { class: "seat-head" }, ...seatHead(state, s, false)),
  el("div", { class: "held", "aria-label": `${v.held[s]} tiles in hand` },
    ...Array.from({ length: v.held[s] }, back), el("span", { class: "count", text: `${v.held[s]}` })),
  el("div", { class: "sets" }, ...v.melds[s].map(meldTiles), v.bonus[s] ? tileRow(expand(v.bonus[s]), "bonus-row") : null),
  el("div", { class: "pond", "aria-label": `${SEAT_NAMES[s]}'s discards` }, ...expand(v.ponds[s]).map((c) => shown(c))))));

  fill($("me-title"), ...seatHead(state, me, true));
  document.querySelector(".me").classList.toggle("on-turn", state.waiting_for.includes(me));
  fill($("my-sets"), ...v.melds[me].map(meldTiles), v.bonus[me] ? tileRow(expand(v.bonus[me]), "bonus-row") : null);
  fill($("my-pond"), ...expand(v.ponds[me]).map((c) => shown(c)));
  renderHand(state);
  renderActions(state);
  renderStatus(state);
  renderResult(state);
  renderDeal(state);
  $("away").hidden = !(state.away || []).includes(me);
  tick();
}

// ---------------------------------------------------------------- the deal's commitment (docs/server.md, "Deals")

function dealText(start) {  // the text a commitment is the SHA-256 of (docs/table.md, "The records of a log")
  const h = start.hands || {};
  return `hkcore-deal-1\nsalt ${start.salt}\nE ${h.E}\nS ${h.S}\nW ${h.W}\nN ${h.N}\nlive ${start.live}\ndead ${start.dead}\n`;
}

async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function checkDeal(commitment) {  // once the hand is over: the log's deal against the commitment shown
  const set = (how, text) => {
    dealChecks.set(commitment, { how, text });
    if (current && current.deal && current.deal.commitment === commitment) renderDeal(current);
  };
  if (!window.isSecureContext || !window.crypto || !crypto.subtle) {
    set("unavailable", "not checked here (this browser offers no SHA-256 on this page): download the log and run "
      + "hkscore replay on it");
    return;
  }
  set("pending", "checking…");
  try {
    const r = await fetch(tablePath("/log"));
    if (!r.ok) throw new Error(`the log was not served (${r.status})`);
    const records = (await r.text()).split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));
    const start = records.find((x) => x.event === "start" && x.commitment === commitment);
    if (!start) { set("mismatch", "warning: the log holds no deal with the commitment shown during the hand"); return; }
    if (await sha256Hex(dealText(start)) === commitment) set("checked", "deal checked: the wall played is the one sealed at the deal");
    else set("mismatch", "warning: the log's deal is not the one sealed at the deal (its SHA-256 differs)");
  } catch (e) {
    set("error", `not checked (${e && e.message ? e.message : e}): download the log and run hkscore replay on it`);
  }
}

function renderDeal(state) {
  const d = state.deal || {};
  const practice = $("practice");
  practice.hidden = d.practice_seed == null;
  practice.textContent = d.practice_seed == null ? ""
    : `Practice deal: seed ${d.practice_seed} was chosen when the table was made; whoever knows it knows the wall.`;
  const box = $("deal");
  box.hidden = !d.commitment;
  if (!d.commitment) return;
  box.dataset.commitment = d.commitment;
  $("deal-short").textContent = `${d.commitment.slice(0, 12)}…`;
  $("deal-short").title = d.commitment;
  $("deal-full").textContent = d.commitment;
  if (!dealChecks.has(d.commitment) && state.status !== "playing") checkDeal(d.commitment);
  const check = dealChecks.get(d.commitment);
  box.dataset.check = check ? check.how : "sealed";
  $("deal-check").textContent = check ? check.text : "(checked when the hand is over)";
}

function discards(state) {  // the tiles this seat may discard now
  const p = state.prompt;
  if (!p || (p.phase !== "turn" && p.phase !== "discard")) return new Set();
  return new Set(p.actions.filter((a) => a.act === "discard").map((a) => a.tile));
}

function renderHand(state) {
  const v = state.view;
  const can = discards(state);
  const tiles = expand(v.tiles);
  if (selected && !((selected.drawn ? [v.drawn] : tiles).includes(selected.code))) selected = null;
  if (!selected && can.size) selected = v.drawn ? { code: v.drawn, drawn: true } : { code: tiles.at(-1), drawn: false };
  if (!can.size) selected = null;
  let picked = false;
  const face = (code, i, drawn) => {
    const isPick = !picked && selected && selected.code === code && selected.drawn === drawn
      && (drawn || tiles.lastIndexOf(code) === i);
    if (isPick) picked = true;
    const ok = can.has(code) && !pending;
    return tileFace(code, {
      class: `tile ${SUITS[code[1]] ? code[1] : HONOURS[Number(code[0]) - 1][3]}${isPick ? " picked" : ""}${can.size && !can.has(code) ? " barred" : ""}`,
      "data-hand-tile": code, "data-index": String(i), "aria-pressed": can.size ? String(Boolean(isPick)) : null,
      "aria-label": `${tileName(code)} (${code})${drawn ? ", just drawn" : ""}${ok ? (isPick ? ": press again to discard" : "") : ""}`,
      tabindex: isPick || (!selected && i === 0 && !drawn) ? "0" : "-1",
      disabled: !can.size || pending ? true : null,
      onclick: () => { if (!ok) return; if (isPick) decide({ act: "discard", tile: code }); else { selected = { code, drawn }; render(current); focusPicked(); } },
    });
  };
  fill($("hand"), ...tiles.map((c, i) => face(c, i, false)));
  fill($("drawn"), ...(v.drawn ? [face(v.drawn, tiles.length, true)] : []));
  $("drawn").hidden = !v.drawn;
}

function focusPicked() {
  const t = document.querySelector(".hand-row .picked");
  if (t && document.activeElement && document.activeElement.closest && document.activeElement.closest(".hand-row")) t.focus();
}

function actionLabel(a, p) {
  const tiles = a.tiles ? ` ${a.tiles}` : "";
  if (a.act === "pass") return "Pass";
  if (a.act === "win") return `Win${a.faan != null ? ` (${a.faan} ${current.preset.unit})` : ""}${a.instant ? ": bonus tiles" : ""}${a.robbing ? ": robbing the kong" : ""}`;
  if (a.act === "kong") return `Kong${a.kind && a.kind !== "exposed" ? ` (${a.kind})` : ""}${tiles}`;
  if (a.act === "pung") return `Pung${tiles}${p.phase === "turn" ? " (face up)" : ""}`;
  return `${a.act[0].toUpperCase()}${a.act.slice(1)}${tiles}`;
}

function renderActions(state) {
  const p = state.prompt;
  const box = $("actions");
  if (!p) { fill(box); box.hidden = true; return; }
  box.hidden = false;
  const items = [];
  if (p.phase === "claim" || p.phase === "rob") {
    items.push(el("p", { class: "offer" }, `${SEAT_NAMES[p.from]} ${p.phase === "rob" ? "makes a kong with" : "discarded"} `,
      shown(p.tile, { class: "tile offered" }), p.phase === "rob" ? ": rob it?" : ": claim it?"));
  } else if (p.phase === "instant") {
    items.push(el("p", { class: "offer", text: "Your bonus tiles win at once, if you want:" }));
  }
  const buttons = p.actions.filter((a) => a.act !== "discard").map((a) => el("button", {
    type: "button", class: `act ${a.act === "pass" ? "secondary" : ""}${a.act === "win" ? " win" : ""}`,
    "data-act": a.act, "data-tiles": a.tiles || null, disabled: pending ? true : null, text: actionLabel(a, p),
    onclick: () => decide(a) }));
  const can = discards(state);
  if (can.size && selected) {
    buttons.push(el("button", { type: "button", class: "act discard", "data-act": "discard", disabled: pending ? true : null,
      text: `Discard ${selected.code}`, onclick: () => decide({ act: "discard", tile: selected.code }) }));
  }
  items.push(el("div", { class: "buttons" }, ...buttons));
  if (state.deadline_ms != null) {
    const turn = p.phase === "turn" || p.phase === "discard";
    const most = (turn ? state.turn_seconds : state.claim_seconds) * 1000;
    items.push(el("div", { class: "clock", "data-phase": turn ? "turn" : "window" },
      el("progress", { id: "clock-bar", max: String(most), value: String(state.deadline_ms) }),
      el("span", { id: "countdown", "aria-live": "off" })));
  }
  fill(box, ...items);
}

function tick() {  // the countdown of this seat's claim window or turn
  clearInterval(tickTimer);
  const out = $("countdown");
  if (deadlineAt == null || !out) return;
  const turn = out.parentElement && out.parentElement.dataset.phase === "turn";
  const step = () => {
    const left = Math.max(0, deadlineAt - Date.now());
    out.textContent = left > 0 ? `${Math.ceil(left / 1000)} s` : turn ? "time's up: a bot plays for you" : "time's up: a pass";
    out.dataset.ms = String(left);
    const bar = $("clock-bar");
    if (bar) bar.value = left;
    if (!left) clearInterval(tickTimer);
  };
  step();
  tickTimer = setInterval(step, 200);
}

function waitText(w, unit) {
  const onDiscard = `${w.value} ${unit}${w.winnable ? "" : " ✗"}`;
  const self = w.self_draw_value != null && w.self_draw_value !== w.value ? `, self-drawn ${w.self_draw_value}${w.self_draw_winnable ? "" : " ✗"}` : "";
  return `${w.tile} ${onDiscard}${self}`;
}

function waitsText(waits, unit) {
  return waits.map((w) => waitText(w, unit)).join(" · ");
}

function renderStatus(state) {
  const a = state.advice;
  const line = $("status");
  const unit = state.preset.unit;
  line.dataset.discards = a && !state.result ? (a.discards || []).map((x) => x.discard).join(" ") : "";
  if (!a || state.result) { fill(line); return; }
  const parts = [];
  if (a.tiles_away < 0) parts.push("complete");
  else if (a.tiles_away === 0 && a.waits.length) parts.push(`waiting on ${waitsText(a.waits, unit)}`);
  else if (a.tiles_away > 0) parts.push(`${plural(a.tiles_away, "tile")} away from waiting`);
  if (selected && a.discards && a.discards.length) {
    const d = a.discards.find((x) => x.discard === selected.code);
    if (d) parts.push(`discard ${d.discard}: waiting on ${waitsText(d.waits.waits || d.waits, unit)}`);
    else parts.push(`discards that leave you waiting: ${a.discards.map((x) => x.discard).join(" ")}`);
  }
  const bad = (a.waits || []).filter((w) => !w.winnable && !w.self_draw_winnable && w.reason);
  fill(line, el("span", { class: "advice", text: parts.join("; ") }),
    ...a.notes.map((n) => el("span", { class: "note", text: n })),
    ...bad.slice(0, 2).map((w) => el("span", { class: "note", text: `${w.tile}: ${w.reason}` })));
}

function who(state, s) {  // "You (East)", "Ann (South)", "West"
  const name = s === state.seat ? "You" : state.names[s];
  return name && name !== SEAT_NAMES[s] ? `${name} (${SEAT_NAMES[s]})` : SEAT_NAMES[s];
}

function renderResult(state) {
  const box = $("result");
  const r = state.result;
  $("log-link").href = tablePath("/log");
  $("next").hidden = state.status !== "hand_over";
  $("next").disabled = pending;
  if (!r) { box.hidden = true; return; }
  const first = box.hidden;
  box.hidden = false;
  box.dataset.result = r.result;
  const wins = r.wins && r.wins.length ? r.wins : r.result === "win" ? [{ ...r, winner: r.winner }] : [];
  $("result-title").textContent = r.result === "exhausted" ? "A draw: the wall is used up (nobody wins)"
    : wins.map((w) => `${w.winner === state.seat ? "You win" : `${SEAT_NAMES[w.winner]} wins`}: ${w.value} ${w.unit}`).join("; ");
  const body = wins.map((w) => {
    const h = w.hand || {};
    const how = w.from ? `on ${SEAT_NAMES[w.from]}'s ${w.robbing ? "kong" : "discard"} ${w.tile || ""}` : w.tile ? `by self-draw, ${w.tile}` : "on bonus tiles";
    return el("article", { class: "won", "data-winner": w.winner, "data-value": String(w.value) },
      el("p", { class: "how", text: `${who(state, w.winner)} won ${how}` }),
      el("div", { class: "win-hand" }, tileRow(expand(h.tiles || ""), "concealed-tiles"),
        ...(h.melds || []).map(meldTiles), h.win_tile ? el("span", { class: "win-tile" }, "won on ", shown(h.win_tile, { class: "tile win" })) : null),
      el("table", { class: "patterns" }, el("tbody", {}, ...w.patterns.map((p) => el("tr", { "data-pattern": p.id },
        el("td", { class: "n", text: String(p.value) }), el("td", { text: p.name }),
        el("td", { class: "zh", lang: "zh-Hant", text: p.chinese || "" }))),
      el("tr", { class: "sum" }, el("td", { class: "n", text: String(w.value) }), el("td", { text: `${w.unit} in all` }), el("td"))))
    );
  });
  const pays = r.delta || r.payments;
  if (pays) {
    body.push(el("div", { class: "pays", "aria-label": "payments" }, ...SEATS.map((s) => el("div", { "data-seat": s, "data-pay": String(pays[s]) },
      el("span", { text: `${SEAT_NAMES[s]}${s === state.seat ? " (you)" : ""}` }),
      el("b", { class: pays[s] > 0 ? "plus" : pays[s] < 0 ? "minus" : "", text: pays[s] > 0 ? `+${pays[s]}` : String(pays[s]) }),
      r.points ? el("small", { text: `${r.points[s]} after` }) : null))));
  } else if (r.result === "win") {
    body.push(el("p", { class: "note", text: "no payments at this table (a faan ledger)" }));
  }
  if (state.standings) {  // one rank each: a tie shares its place, marked "="
    const tied = (p) => state.standings.filter((x) => x.place === p).length > 1;
    const points = state.standings.some((x) => x.points != null);
    body.push(el("h3", { text: "The match" }), el("table", { class: "standings" },
      el("thead", {}, el("tr", {}, el("th", { text: "Place" }), el("th", { text: "Player" }),
        points ? el("th", { text: "Points" }) : null, el("th", { text: "Hands won" }), el("th", { text: "Faan" }))),
      el("tbody", {}, ...state.standings.map((x) => el("tr", { class: x.home === state.home ? "you" : null, "data-home": x.home, "data-place": String(x.place) },
        el("td", { class: "place", text: `${x.place}${tied(x.place) ? "=" : ""}` }),
        el("td", { text: x.home === state.home ? `${x.player} (you)` : x.player }),
        points ? el("td", { class: "n", text: String(x.points) }) : null,
        el("td", { class: "n", text: String(x.hands_won) }), el("td", { class: "n", text: String(x.faan) }))))));
  }
  fill($("result-body"), ...body);
  if (first) box.scrollIntoView({ block: "nearest" });
}

// ---------------------------------------------------------------- keyboard

function handButtons() { return [...document.querySelectorAll(".hand-row [data-hand-tile]")]; }

function onKey(e) {
  if (!current || e.ctrlKey || e.metaKey || e.altKey) return;
  const t = e.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
  const tiles = handButtons();
  const can = discards(current);
  const inHand = t && t.closest && t.closest(".hand-row");
  if (can.size && (e.key === "ArrowLeft" || e.key === "ArrowRight" || /^[0-9]$/.test(e.key))) {
    let i = tiles.findIndex((b) => b.classList.contains("picked"));
    if (e.key === "ArrowLeft") i = i <= 0 ? tiles.length - 1 : i - 1;
    else if (e.key === "ArrowRight") i = i < 0 || i >= tiles.length - 1 ? 0 : i + 1;
    else i = e.key === "0" ? 9 : Number(e.key) - 1;
    const b = tiles[i];
    if (!b) return;
    e.preventDefault();
    selected = { code: b.dataset.handTile, drawn: b.parentElement.id === "drawn" };
    render(current);
    const now = document.querySelector(".hand-row .picked");
    if (now) now.focus();
    return;
  }
  if (e.key === "Enter" && can.size && selected && (inHand || !t || t === document.body)) {
    e.preventDefault();
    if (can.has(selected.code)) decide({ act: "discard", tile: selected.code });
    return;
  }
  const act = ACT_KEYS[e.key.toLowerCase()];
  if (act && current.prompt) {
    const b = document.querySelector(`#actions [data-act="${act}"]`);
    if (b && !b.disabled) { e.preventDefault(); b.click(); }
  }
}

function setup() {
  $("next").addEventListener("click", nextHand);
  $("back").addEventListener("click", comeBack);
  document.addEventListener("keydown", onKey);
  if (here.table && here.seat && here.token) {
    $("table").hidden = false;
    setConnection("connecting");
    connect();
  } else {
    if (here.table) showProblem("this link has no seat token (the part after #): ask for the seat's link again");
    startScreen();
  }
}

document.addEventListener("DOMContentLoaded", setup);
