// The sensing panel on the play page: what the sensors made of the table.
// "Here is what I think happened" (with undo), prompts as one-tap buttons, discrepancies
// with "I will fix the board", and the sensors' health. Fed by the page's live feed
// (/api/events, named events), which resends what is still open each time it (re)connects.
import { onLive, tableToken } from "./api.js";
import { sharedAndOwn } from "./labels.js";

const panel = document.createElement("section");
panel.id = "sensing";
panel.className = "sensing";
panel.setAttribute("aria-label", "What the sensors saw");
panel.setAttribute("aria-live", "polite");
const anchor = document.getElementById("options");
if (anchor) anchor.before(panel); else document.body.append(panel);

const health = document.createElement("p");
health.className = "sensing-health";
panel.append(health);
const devices = new Map();

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

async function post(url, body) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${tableToken() || ""}` },
    body: JSON.stringify(body),
  });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const box = el("p", "sensing-error", (data && data.message) || `refused (${res.status})`);
    box.setAttribute("role", "alert");
    panel.append(box);
    setTimeout(() => box.remove(), 6000);
  }
  return res.ok;
}

function card(kind, id) {
  panel.querySelectorAll(`[data-id="${id}"]`).forEach((e) => e.remove());
  const c = el("div", `sensing-card sensing-${kind}`);
  c.dataset.id = String(id);
  c.dataset.kind = kind;
  return c;
}

function showProposal(p) {
  panel.querySelectorAll(".sensing-proposal").forEach((e) => e.remove());
  const c = card("proposal", p.id);
  c.append(el("span", "sensing-title", "Here is what I think happened: "), el("span", "sensing-words", p.words));
  const undo = el("button", "btn btn-warn sensing-undo", "Undo");
  undo.type = "button";
  undo.addEventListener("click", async () => {
    if (await post("/api/sensing/proposals/undo", { start: p.start, actions: p.actions })) c.remove();
  });
  c.append(undo);
  panel.prepend(c);
}

function showPrompt(p) {
  const c = card("prompt", p.id);
  c.append(el("p", "sensing-title", p.question));
  // long sentences differing by a word: the shared words once, each button its own words
  const { shared, own } = sharedAndOwn(p.words);
  if (shared) c.append(el("p", "sensing-shared", `All of them: ${shared}`));
  const row = el("div", "sensing-choices");
  own.forEach((w, k) => {
    const b = el("button", "btn sensing-choice", w);
    b.title = p.words[k];
    b.type = "button";
    b.addEventListener("click", () => post(`/api/sensing/prompts/${p.id}`, { choice: k }));
    row.append(b);
  });
  c.append(row);
  panel.append(c);
}

function showDiscrepancy(d) {
  const c = card("discrepancy", d.id);
  c.append(el("p", "sensing-title", "The table does not match the game:"));
  const list = el("ul", "sensing-items");
  d.items.forEach((i) => list.append(el("li", "", i.what)));
  c.append(list);
  // what the camera saw at each place that disagrees (no camera: the picture removes itself)
  const crops = el("div", "sensing-crops");
  [...new Set(d.items.map((i) => i.region))].forEach((region) => {
    const img = el("img", "sensing-crop");
    img.alt = "What the camera sees there";
    img.addEventListener("error", () => img.remove());
    img.src = `/api/camera/crop.png?region=${encodeURIComponent(region)}`
      + `&token=${encodeURIComponent(tableToken() || "")}`;
    crops.append(img);
  });
  c.append(crops);
  const fix = el("button", "btn sensing-fix", "I will fix the board");
  fix.type = "button";
  fix.addEventListener("click", () => post(`/api/sensing/discrepancies/${d.id}`, { fix: true }));
  c.append(fix);
  panel.append(c);
}

// A device and its state in words (the device ids are for the log: `camera:/dev/video0`,
// `hub:3`, `serial:/dev/ttyUSB0`, `pad`, `sim:hub+camera`).
const STATE_WORDS = {
  up: "working", connecting: "connecting…", degraded: "working, with read errors",
  down: "not answering, retrying",
};

function deviceWords(device) {
  const at = device.indexOf(":");
  const kind = at < 0 ? device : device.slice(0, at);
  const rest = at < 0 ? "" : device.slice(at + 1);
  if (kind === "camera") return "Camera";
  if (kind === "hub") return `Reader hub ${rest}`;
  if (kind === "serial") return "Reader hub";
  if (kind === "pad") return "Tag pad";
  if (kind === "sim") return `Simulated sensors (${rest.replace("+", " and ")})`;
  return device;
}

function showHealth(h) {
  devices.set(h.device, h.state);
  health.textContent = [...devices]
    .map(([d, s]) => `${deviceWords(d)}: ${STATE_WORDS[s] || s}`).join(" · ");
  health.title = [...devices.keys()].join(", "); // the ids, for whoever sets the sensors up
}

onLive("open", () => panel.querySelectorAll(".sensing-prompt, .sensing-discrepancy").forEach((e) => e.remove()));
onLive("proposal", showProposal);
onLive("prompt", showPrompt);
onLive("discrepancy", showDiscrepancy);
onLive("health", showHealth);
onLive("closed", (c) => panel.querySelectorAll(`[data-id="${c.id}"]`).forEach((e) => e.remove()));
