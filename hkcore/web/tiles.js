// Tiles drawn as tiles, shared by the scoring page (app.js) and the table
// page (play.js): the names and faces of the codes of docs/rules.md
// (1m..9m, 1p..9p, 1s..9s, 1z..7z, bonus tiles 1f..4f and 1g..4g), and a
// small DOM builder. Loaded before the page's own script.
"use strict";

const SUITS = { m: ["Characters", "萬"], p: ["Dots", "筒"], s: ["Bamboo", "索"] };
// Honours 1z..7z. The faces are drawn (text and CSS), never Unicode tile code
// points: there the dragons run red, green, white, the reverse of 5z..7z.
const HONOURS = [
  ["1z", "東", "East wind", "wind"], ["2z", "南", "South wind", "wind"], ["3z", "西", "West wind", "wind"],
  ["4z", "北", "North wind", "wind"], ["5z", "", "White dragon", "white"], ["6z", "發", "Green dragon", "green"],
  ["7z", "中", "Red dragon", "red"],
];
// Hong Kong numbering of the bonus tiles (not the Unicode order of the flowers)
const FLOWERS = ["梅 plum", "蘭 orchid", "菊 chrysanthemum", "竹 bamboo"];
const SEASONS = ["春 spring", "夏 summer", "秋 autumn", "冬 winter"];
const SEATS = ["E", "S", "W", "N"];
const SEAT_NAMES = { E: "East", S: "South", W: "West", N: "North" };
const WIND_FACES = { E: "東", S: "南", W: "西", N: "北" };
const ORDER = "mpsz";

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function bonusName(code) {  // "1f" -> "flower 1 plum"
  const names = code[1] === "f" ? FLOWERS : SEASONS;
  return `${code[1] === "f" ? "flower" : "season"} ${code[0]} ${names[Number(code[0]) - 1].split(" ")[1]}`;
}

function tileName(code) {
  const suit = code[1];
  if (SUITS[suit]) return `${code[0]} of ${SUITS[suit][0]}`;
  if (suit === "f" || suit === "g") return bonusName(code);
  return HONOURS[Number(code[0]) - 1][2];
}

// A tile's face: a button unless ``tag`` says otherwise (a tile that is only shown is a span)
function tileFace(code, attrs, tag = "button") {
  const suit = code[1];
  const parts = [];
  let kind = suit;
  if (SUITS[suit]) {
    parts.push(el("span", { class: "rank", text: code[0] }), el("span", { class: "face", lang: "zh-Hant", text: SUITS[suit][1] }));
  } else if (suit === "f" || suit === "g") {
    kind = "bonus";
    const names = suit === "f" ? FLOWERS : SEASONS;
    parts.push(el("span", { class: "rank", text: code[0] }),
      el("span", { class: "face", lang: "zh-Hant", text: names[Number(code[0]) - 1].split(" ")[0] }));
  } else {
    const h = HONOURS[Number(code[0]) - 1];
    kind = h[3];
    parts.push(el("span", { class: "face", lang: "zh-Hant", text: h[1] }));
  }
  parts.push(el("span", { class: "code", text: code }));
  const base = tag === "button" ? { type: "button" } : { role: "img", "aria-label": tileName(code) };
  return el(tag, { ...base, class: `tile ${kind}`, ...attrs }, ...parts);
}

function sortKey(code) { return "mpszfg".indexOf(code[1]) * 10 + Number(code[0]); }

function tileString(codes) {
  const sorted = [...codes].sort((a, b) => sortKey(a) - sortKey(b));
  let out = "";
  for (const s of ORDER) {
    const digits = sorted.filter((c) => c[1] === s).map((c) => c[0]).join("");
    if (digits) out += digits + s;
  }
  return out;
}

function expand(text) {  // "234m55z" -> ["2m","3m","4m","5z","5z"]
  const out = [];
  let digits = "";
  for (const ch of text || "") {
    if (/[0-9]/.test(ch)) digits += ch;
    else if ("mpszfg".includes(ch)) { for (const d of digits) out.push(d + ch); digits = ""; }
  }
  return out;
}
