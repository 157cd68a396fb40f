"use strict";
// A minimal local alternative to Swagger UI: every operation of /openapi.json,
// its request and answer schemas, and a form to try it. No CDN, no network.
function el(tag, attrs, ...kids) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") n.textContent = v; else if (k === "class") n.className = v; else n.setAttribute(k, v);
  }
  for (const k of kids) if (k) n.append(k);
  return n;
}
const EXAMPLE = "234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N";
const SAMPLES = {
  "/score": { hand: EXAMPLE, preset: "bga-old-style" },
  "/compare": { hand: EXAMPLE },
  "/analyse": { hand: "123m456p23s55z 789s:E seat:S", preset: "mistboard" },
  "/claims/legal": { hand: "123m456p23s55z 789s:E seat:S", discard: "1s", discarder: "E" },
  "/claims/resolve": { claims: [{ seat: "S", kind: "chow", tiles: "123s", discard: "1s" }], discarder: "E" },
  "/presets/check": 'extends = "mistboard"\nid = "our-club"\nminimum = 1\n',
  "/score/batch": EXAMPLE + "\n" + EXAMPLE + "\n",
};
fetch("/openapi.json").then((r) => r.json()).then((api) => {
  document.getElementById("info").textContent = `${api.info.title} ${api.info.version}: ${api.info.description || ""}`;
  const ops = document.getElementById("ops");
  for (const [path, methods] of Object.entries(api.paths)) {
    for (const [verb, op] of Object.entries(methods)) {
      const body = el("div", { class: "body" });
      body.append(el("p", { text: op.description || "" }));
      const content = op.requestBody && op.requestBody.content;
      if (content) {
        const [type, media] = Object.entries(content)[0];
        body.append(el("h3", { text: `Request (${type})` }), el("pre", { text: JSON.stringify(media.schema, null, 1) }));
      }
      for (const [status, answer] of Object.entries(op.responses || {})) {
        const media = answer.content ? Object.values(answer.content)[0] : null;
        body.append(el("h3", { text: `${status}: ${answer.description || ""}` }));
        if (media && media.schema) body.append(el("pre", { text: JSON.stringify(media.schema, null, 1) }));
      }
      const sample = SAMPLES[path];
      const label = `try-${verb}-${path}`;
      const input = el("textarea", { id: label, "aria-label": `request body for ${verb.toUpperCase()} ${path}` });
      input.value = typeof sample === "string" ? sample : sample ? JSON.stringify(sample, null, 1) : "";
      const out = el("pre", { "aria-live": "polite" });
      const send = el("button", { type: "button", text: `Send ${verb.toUpperCase()} ${path}` });
      const target = el("input", { value: path, "aria-label": "path", size: "30" });
      send.addEventListener("click", async () => {
        const init = { method: verb.toUpperCase() };
        if (verb !== "get") {
          init.body = input.value;
          init.headers = { "Content-Type": content ? Object.keys(content)[0] : "application/json" };
        }
        const r = await fetch(target.value, init);
        out.textContent = `${r.status} ${r.headers.get("content-type")}\n${await r.text()}`;
      });
      body.append(el("h3", { text: "Try it" }), target, verb !== "get" ? input : null, send, out);
      ops.append(el("details", { class: "op" },
        el("summary", {}, el("span", { class: `verb ${verb}`, text: verb.toUpperCase() }), `${path}  ${op.summary || ""}`), body));
    }
  }
});
