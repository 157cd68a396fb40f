// hkcore's scoring page: build a hand by clicks (or type its notation), and
// see it under every preset of the server (POST /compare), or, for a hand
// still waiting (13 - 3k tiles), its waits and their value (POST /analyse).
// Typed notation is read by the server (the Hand of /compare, or POST
// /position for a hand in play) and fills the builder, which then writes
// the notation back: the two stay in step.
"use strict";

// the tiles, their names and faces, SEATS, SEAT_NAMES, el and $: tiles.js
// a request names at most this many presets (hkcore.server.MOST_PRESETS): more are asked in groups
const MOST_PRESETS = 64;
// docs/rules.md's example hand: scored on first load, so the results panel is never blank
const EXAMPLE = "234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N";

const state = {
  tiles: [], melds: [], win: null, self: false, discarder: "", seat: "E", round: "E",
  flowers: [], seasons: [], lastTile: false, kongReplacement: 0, robbing: false, firstTurn: "",
};
let presets = [];
let asked = 0;
let timer = null;
let reading = 0;  // the ask of a typed hand the service is reading (0: none)
let readingText = "";  // that typed hand
let edits = [];   // the choices made on the form while it is read: made again on the hand it reads
// the preset of one's own table, shown first and marked; kept in the URL (?pin=ID)
let pinned = new URLSearchParams(location.search).get("pin") || "";

function used(code) {
  let n = state.tiles.filter((c) => c === code).length;
  for (const m of state.melds) n += expand(m.tiles).filter((c) => c === code).length;
  return n;
}

function pick(code) {
  const mode = document.querySelector('input[name="mode"]:checked').value;
  const need = { tile: [code], pung: [code, code, code], kong: [code, code, code, code], ckong: [code, code, code, code] };
  let tiles = need[mode];
  if (mode === "chow") {
    const n = Number(code[0]);
    if (!SUITS[code[1]] || n > 7) { say(`a chow runs up from its lowest tile: ${code} cannot start one`); return; }
    tiles = [code, `${n + 1}${code[1]}`, `${n + 2}${code[1]}`];
  }
  for (const t of new Set(tiles)) {
    if (used(t) + tiles.filter((x) => x === t).length > 4) { say(`only four ${t} in the set`); return; }
  }
  if (mode === "tile") {
    state.tiles.push(code);
    state.win = code;  // the last tile picked is the winning tile until another is chosen
  } else {
    const kind = mode === "ckong" ? "kong" : mode;
    state.melds.push({ kind, tiles: tileString(tiles), concealed: mode === "ckong", from: null });
    document.getElementById("mode-tile").checked = true;
  }
  render();
}

function say(text) { $("status").textContent = text; }

function handSize() { return state.tiles.length + 3 * state.melds.length; }

function notation() {  // as hkcore.notation.format_hand writes it
  const words = [];
  if (state.tiles.length) words.push(tileString(state.tiles));
  for (const m of state.melds) words.push(m.tiles + (m.concealed ? ":concealed" : m.from ? `:${m.from}` : ""));
  const won = handSize() === 14;
  if (won && state.win) words.push(`win:${state.win}`);
  if (won && state.self) words.push("self-draw");
  if (won && !state.self && state.discarder) words.push(`from:${state.discarder}`);
  if (state.seat !== "E") words.push(`seat:${state.seat}`);
  if (state.round !== "E") words.push(`round:${state.round}`);
  if (state.flowers.length) words.push(`flowers:${state.flowers.join("")}`);
  if (state.seasons.length) words.push(`seasons:${state.seasons.join("")}`);
  if (won && state.lastTile) words.push("last-tile");
  if (won && state.kongReplacement) words.push(`kong-replacement${state.kongReplacement === 2 ? ":2" : ""}`);
  if (won && state.robbing) words.push("robbing-kong");
  if (won && state.firstTurn) words.push(`first-turn:${state.firstTurn}`);
  return words.join(" ");
}

function handJSON() {
  const hand = {
    tiles: tileString(state.tiles),
    melds: state.melds.map((m) => ({ kind: m.kind, tiles: m.tiles, concealed: m.concealed, from: m.from })),
    seat_wind: state.seat, round_wind: state.round, flowers: state.flowers, seasons: state.seasons,
  };
  if (handSize() === 14) {
    Object.assign(hand, {
      win_tile: state.win, self_draw: state.self, discarder: state.self ? null : state.discarder || null,
      last_tile: state.lastTile, kong_replacement: state.kongReplacement, robbing_kong: state.robbing,
      first_turn: state.firstTurn || null,
    });
  }
  return hand;
}

function render(chosen = false) {  // chosen: a form choice (kept for a typed hand being read)
  const hand = $("hand");
  const winAt = state.tiles.lastIndexOf(state.win);  // one copy is the winning tile, not every copy of it
  hand.replaceChildren(...state.tiles.map((code, i) => tileFace(code, {
    class: `tile ${SUITS[code[1]] ? code[1] : HONOURS[Number(code[0]) - 1][3]}${i === winAt ? " win" : ""}`,
    "aria-label": `Remove ${tileName(code)} (${code}) from the hand`, "data-hand": code,
    onclick: () => { state.tiles.splice(i, 1); if (!state.tiles.includes(state.win)) state.win = state.tiles.at(-1) || null; render(); },
  })));
  const distinct = [...new Set(state.tiles)].sort((a, b) => sortKey(a) - sortKey(b));
  const none = !state.win || !distinct.length;  // a waiting hand has no winning tile yet
  $("win-tile").replaceChildren(
    ...(none ? [el("option", { value: "", text: distinct.length ? "(none yet)" : "(no tiles yet)", selected: true })] : []),
    ...distinct.map((c) => el("option", { value: c, text: `${c}: ${tileName(c)}`, selected: c === state.win })));
  $("count").textContent = `${handSize()} tiles (a kong as three)`;
  $("melds").replaceChildren(...state.melds.map((m, i) => {
    const label = m.concealed ? "concealed kong" : m.kind;
    const from = el("select", { class: "meld-from", id: `meld-from-${i}`, disabled: m.concealed,
      onchange: (e) => { m.from = e.target.value || null; render(); } },
      ...["", ...SEATS].map((s) => el("option", { value: s, text: s ? `from ${s}` : m.concealed ? "concealed" : "from (not said)", selected: (m.from || "") === s })));
    return el("li", { "data-meld": m.tiles },
      el("span", { class: "kind", text: label }),
      el("span", { class: "tiles" }, ...expand(m.tiles).map((c) => {
        const t = tileFace(c, { tabindex: "-1", "aria-hidden": "true" });
        t.disabled = true;
        return t;
      })),
      el("label", { for: `meld-from-${i}`, class: "visually-hidden", text: `${label} ${m.tiles} claimed from` }), from,
      el("button", { type: "button", class: "secondary", "aria-label": `Remove the ${label} ${m.tiles}`, text: "Remove",
        onclick: () => { state.melds.splice(i, 1); render(); } }));
  }));
  $("discarder").disabled = state.self;  // a self-draw has no discarder
  if (reading && chosen) return;  // the typed hand is not in the builder yet: it is scored when it is
  if (reading) { reading = 0; edits = []; ++asked; }  // tiles edited in the builder: its hand, not the typed one
  $("notation").value = notation();
  if (handSize()) dropExample();
  schedule();
}

function choose(change) {  // a choice on the form: on the hand in the builder, and again on a typed one being read
  change(state);
  if (reading) edits.push(change);
  render(true);
}

function loadTyped(hand) {  // the typed hand read, with the choices made while it was; true when they were
  const made = edits;
  reading = 0;
  edits = [];
  load(hand);
  if (!made.length) return false;
  for (const change of made) change(state);
  syncForm();
  render();  // scored again, with the choices
  return true;
}

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(ask, 120);
}

function groups(ids) {
  const out = [];
  for (let i = 0; i < ids.length; i += MOST_PRESETS) out.push(ids.slice(i, i + MOST_PRESETS));
  return out;
}

async function analyseAll(hand, ids) {  // one analysis per preset, in the order of ids
  const parts = await Promise.all(groups(ids).map((g) => post("/analyse", { hand, preset: g })));
  return parts.flat();
}

async function compareAll(hand, ids) {  // {hand, presets: one entry per preset, in the order of ids}
  const parts = await Promise.all(groups(ids).map((g) => post("/compare", { hand, presets: g })));
  return { ...parts[0], presets: parts.flatMap((p) => p.presets) };
}

async function post(path, body) {
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await response.json();
  if (!response.ok) throw data;
  return data;
}

function showProblem(p) {
  const box = $("problem");
  if (!p) { box.hidden = true; box.textContent = ""; return; }
  box.hidden = false;
  box.textContent = p.detail ? `${p.detail}${p.field ? ` (field ${p.field})` : ""}` : String(p);
}

function dropExample() {  // the example's cards go as soon as one's own hand begins, not when it is scored
  const results = $("results");
  if (results.classList.contains("example")) { results.classList.remove("example"); results.replaceChildren(); }
}

async function ask(typed, kept = []) {  // kept: the choices made on a typed hand read again
  const mine = ++asked;
  reading = 0;
  if (typed || handSize()) dropExample();
  const size = typed ? null : handSize();
  const hand = typed || handJSON();
  const ids = orderedIds();
  if (!ids.length) { say("reading the presets of the service..."); return; }  // asked again once they are in
  if (typed) { reading = mine; readingText = typed; edits = kept; }
  showProblem(null);
  try {
    if (typed ? !/(^|\s)win:/.test(typed) : size === 13) {
      const [entries, read] = await Promise.all([analyseAll(hand, ids),
        typed ? post("/position", { hand: typed }) : null]);
      if (mine !== asked) return;
      if (read && loadTyped(read)) return;
      $("results").replaceChildren();
      showWaits(entries);
      say(typed ? `hand in play: ${notation()}` : `${size} tiles: waiting hands show their waits`);
    } else if (typed || size === 14) {
      const cmp = await compareAll(hand, ids);
      if (mine !== asked) return;
      if (typed && loadTyped(cmp.hand)) return;
      $("waits-section").hidden = true;
      showResults(cmp);
      say(`scored: ${typed || notation()}`);
    } else if (!size) {  // nothing picked yet: the example hand, scored, until there is a hand of one's own
      const cmp = await compareAll(EXAMPLE, ids);
      if (mine !== asked) return;
      $("waits-section").hidden = true;
      showResults(cmp, true);
      say(`example hand (docs/rules.md): ${EXAMPLE}. Pick tiles or type a hand to score your own.`);
    } else {
      $("results").replaceChildren();
      $("waits-section").hidden = true;
      say(`${size} tiles: a finished hand has 14 (a kong counted as three), a waiting hand 13`);
    }
  } catch (problem) {
    if (mine !== asked) return;
    reading = 0;  // the choices made meanwhile stay on the hand in the builder
    edits = [];
    $("results").replaceChildren();
    $("waits-section").hidden = true;
    // the status must not go on naming the hand scored before this one
    say(typed ? "not read: the typed hand has an error (the tiles above are the hand before it)" : "not scored: the hand has an error");
    showProblem(problem);
  }
}

function load(hand) {  // a hand read by the server (a won Hand, or a Position: no win yet), into the builder
  state.tiles = expand(hand.tiles);
  state.melds = hand.melds.map((m) => ({ kind: m.kind, tiles: m.tiles, concealed: m.concealed, from: m.from || null }));
  Object.assign(state, {
    win: hand.win_tile || null, self: Boolean(hand.self_draw), discarder: hand.discarder || "", seat: hand.seat_wind,
    round: hand.round_wind, flowers: hand.flowers, seasons: hand.seasons, lastTile: Boolean(hand.last_tile),
    kongReplacement: hand.kong_replacement || 0, robbing: Boolean(hand.robbing_kong), firstTurn: hand.first_turn || "",
  });
  syncForm();
  const keep = asked;
  render();
  clearTimeout(timer);
  asked = keep;
}

function signed(v) { return v > 0 ? `+${v}` : `${v}`; }

function orderedIds() {  // every preset of the service, the pinned one first
  const ids = presets.map((p) => p.id);
  return ids.includes(pinned) ? [pinned, ...ids.filter((id) => id !== pinned)] : ids;
}

function pin(id) {
  pinned = id;
  const url = new URL(location.href);
  if (id) url.searchParams.set("pin", id); else url.searchParams.delete("pin");
  history.replaceState(null, "", url);
  if (!reading) { schedule(); return; }
  clearTimeout(timer);
  ask(readingText, edits);  // a typed hand being read: read again in the new order, not the hand before it
}

function payment(seat, v, hand) {  // one seat's net payment; the winner and the discarder marked
  const role = seat === hand.seat_wind ? "winner" : !hand.self_draw && seat === hand.discarder ? "discarder" : "";
  return el("div", { class: role || null, "data-seat": seat, title: `${SEAT_NAMES[seat]}${role ? `, the ${role}` : ""}` },
    el("span", { text: `${seat} ` }), el("span", { class: v > 0 ? "plus" : v < 0 ? "minus" : "", text: signed(v) }),
    role ? el("small", { class: "role", text: role }) : null);
}

function showResults(cmp, example) {
  const names = Object.fromEntries(presets.map((p) => [p.id, p.name]));
  $("results").classList.toggle("example", Boolean(example));
  $("results").replaceChildren(...cmp.presets.map((col) => {
    const mark = col.preset === pinned ? el("span", { class: "pin", text: "your table" }) : null;
    const head = el("h3", {}, col.preset, mark, el("small", { text: names[col.preset] || "" }));
    const pinnedClass = col.preset === pinned ? " pinned" : "";
    if (col.error) {
      return el("article", { class: `card error${pinnedClass}`, "data-preset": col.preset }, head,
        el("p", { class: "note", text: col.error }));
    }
    const r = col.result;
    const rows = r.patterns.map((p) => el("tr", {},
      el("td", { class: "n", text: String(p.faan) }),
      el("td", { text: p.name_en + (p.count > 1 ? ` ×${p.count}` : "") }),
      el("td", { class: "zh", lang: "zh-Hant", text: p.name_zh || "" })));
    const pays = r.payments
      ? el("div", { class: "pays", "aria-label": "payments" }, ...Object.entries(r.payments).map(([s, v]) =>
        payment(s, v, cmp.hand)))
      : el("p", { class: "note", text: r.payments_note || "no payment table at this table" });
    return el("article", { class: `card${pinnedClass}`, "data-preset": col.preset },
      head,
      el("div", { class: "total" },
        el("span", { class: "faan", "data-faan": String(r.faan), text: String(r.faan) }),
        el("span", { class: "unit", text: r.unit }),
        r.uncapped !== r.faan ? el("span", { class: "unit", text: `(counted ${r.uncapped})` }) : null,
        r.limit ? el("span", { class: "limit", text: "limit" }) : null),
      el("p", { class: `verdict ${r.winnable ? "yes" : "no"}`, text: r.winnable ? "can win" : `cannot win: ${r.reason}` }),
      el("table", {}, el("tbody", {}, ...rows)),
      pays,
      r.payments && r.payments_note ? el("p", { class: "note", text: r.payments_note }) : null);
  }));
}

function showWaits(entries) {
  const good = entries.filter((e) => e.result);
  const tiles = [...new Set(good.flatMap((e) => e.result.waits.map((w) => w.tile)))].sort((a, b) => sortKey(a) - sortKey(b));
  const section = $("waits-section");
  section.hidden = false;
  const head = el("tr", {}, el("th", { scope: "col", class: "wait-col", text: "wait" }),
    ...entries.map((e) => el("th", { scope: "col", class: e.preset === pinned ? "pinned" : null },
      ...e.preset.split("-").flatMap((part, i) => (i ? ["-", el("wbr"), part] : [part])))));  // narrow: break at hyphens
  const away = el("tr", {}, el("th", { scope: "row", text: "state" }),
    ...entries.map((e) => el("td", { text: e.error ? e.error : e.result.waiting ? "waiting"
      : e.result.tiles_away > 0 ? `${e.result.tiles_away} tiles away` : "complete" })));
  const rows = tiles.map((t) => {
    const unseen = good.map((e) => e.result.waits.find((w) => w.tile === t)).find(Boolean)?.unseen;
    const face = tileFace(t, { tabindex: "-1", "aria-hidden": "true" });
    face.disabled = true;
    return el("tr", { "data-wait": t },
      el("th", { scope: "row", "aria-label": `${t} ${tileName(t)}` }, face,
        el("small", { class: "unseen", text: `${unseen ?? "?"} unseen` })),
      ...entries.map((e) => {
        const w = e.result && e.result.waits.find((x) => x.tile === t);
        if (!w) return el("td", { text: "—" });
        // the value in bold; a way that cannot win says so, and why, in smaller type below
        // the reason short: its last clause, without the preset's id the column already names
        const why = (v) => (v.reason || "cannot win").split("; ").at(-1).replace(`${e.preset} `, "");
        const cell = (label, v) => el("div", { class: v.winnable ? "ok" : "bad", title: v.reason || "" },
          `${label} `, el("b", { text: `${v.faan} ${e.result.unit}` }), v.winnable ? null : " ✗",
          v.winnable ? null : el("small", { class: "why", text: why(v) }));
        return el("td", {}, cell("discard", w.on_discard), cell("self-draw", w.on_self_draw));
      }));
  });
  $("waits").replaceChildren(el("table", {}, el("thead", {}, head), el("tbody", {}, away, ...rows)));
}

function syncForm() {
  $("how").value = state.self ? "self" : "discard";
  $("discarder").value = state.discarder;
  $("seat").value = state.seat;
  $("round").value = state.round;
  $("kong-replacement").value = String(state.kongReplacement);
  $("first-turn").value = state.firstTurn;
  $("last-tile").checked = state.lastTile;
  $("robbing-kong").checked = state.robbing;
  for (const box of document.querySelectorAll("input[data-bonus]")) {
    box.checked = state[box.dataset.bonus].includes(Number(box.value));
  }
}

function bonusBoxes(target, kind, names, letter) {
  target.replaceChildren(...names.map((name, i) => el("label", {},
    el("input", { type: "checkbox", value: String(i + 1), "data-bonus": kind, id: `${kind}-${i + 1}`,
      onchange: (e) => {
        const n = i + 1;
        const on = e.target.checked;
        choose((s) => { s[kind] = on ? [...new Set([...s[kind], n])].sort() : s[kind].filter((x) => x !== n); });
      } }),
    `${i + 1}${letter} ${name}`)));
}

function setup() {
  const palette = $("palette");
  for (const s of "mps") {
    palette.append(el("div", { class: "suit-row", role: "group", "aria-label": SUITS[s][0] },
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => tileFace(`${n}${s}`, {
        "data-tile": `${n}${s}`, "aria-label": `${n} of ${SUITS[s][0]} (${n}${s})`, onclick: () => pick(`${n}${s}`) }))));
  }
  palette.append(el("div", { class: "suit-row", role: "group", "aria-label": "Honours" },
    ...HONOURS.map(([code, , name]) => tileFace(code, { "data-tile": code, "aria-label": `${name} (${code})`, onclick: () => pick(code) }))));
  bonusBoxes($("flowers"), "flowers", FLOWERS, "f");
  bonusBoxes($("seasons"), "seasons", SEASONS, "g");
  const bind = (id, key, read) => $(id).addEventListener("change", (e) => {
    const value = read(e.target);
    choose((s) => { s[key] = value; });
  });
  bind("how", "self", (t) => t.value === "self");
  bind("discarder", "discarder", (t) => t.value);
  bind("seat", "seat", (t) => t.value);
  bind("round", "round", (t) => t.value);
  bind("kong-replacement", "kongReplacement", (t) => Number(t.value));
  bind("first-turn", "firstTurn", (t) => t.value);
  bind("last-tile", "lastTile", (t) => t.checked);
  bind("robbing-kong", "robbing", (t) => t.checked);
  $("win-tile").addEventListener("change", (e) => {  // a tile of the hand it was chosen in: not on a typed
    const tile = e.target.value || null;             // hand read meanwhile that does not hold it
    choose((s) => { if (!tile || s.tiles.includes(tile)) s.win = tile; });
  });
  $("clear").addEventListener("click", () => { state.tiles = []; state.melds = []; state.win = null; render(); });
  $("notation-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("notation").value.trim();
    if (text) { clearTimeout(timer); ask(text); }
  });
  $("pin").addEventListener("change", (e) => pin(e.target.value));
  fetch("/presets").then((r) => r.json()).then((list) => {
    presets = list;
    if (pinned && !list.some((p) => p.id === pinned)) pin("");  // a pin the service does not have
    $("pin").replaceChildren(el("option", { value: "", text: "(none: every preset in order)" }),
      ...list.map((p) => el("option", { value: p.id, text: `${p.id}: ${p.name}`, selected: p.id === pinned })));
    render();
  }).catch(() => showProblem("cannot reach the hkcore service"));
}

document.addEventListener("DOMContentLoaded", setup);
