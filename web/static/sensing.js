// The sensing panel on the play page: what the sensors made of the table.
// "Here is what I think happened" (with undo), prompts as one-tap buttons (with "none of
// these" and, where the table may not have changed, "nothing happened"), a move seen half
// done ("waiting for …"), discrepancies with "I will fix the board", and the sensors' health. Fed by the page's live feed
// (/api/events, named events), which resends what is still open each time it (re)connects.
import { onLive, tableToken } from "./api.js";

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

// Said for a while after "none of these": what the players do next.
function hint(text) {
  panel.querySelectorAll(".sensing-hint").forEach((e) => e.remove());
  const box = el("p", "sensing-hint", text);
  panel.append(box);
  setTimeout(() => box.remove(), 10000);
}

function showPrompt(p) {
  const c = card("prompt", p.id);
  c.append(el("p", "sensing-title", p.question));
  if (p.changed && p.changed.length) {
    c.append(el("p", "sensing-changed", `Changed: ${p.changed.join(", ")}`));
  }
  // each button says only what differs (the server's choices: the one step the candidates
  // differ in, or the words of long sentences the others do not share, `shared` said once)
  const own = p.choices || p.words;
  if (p.shared) c.append(el("p", "sensing-shared", `All of them: ${p.shared}`));
  const row = el("div", "sensing-choices");
  p.words.forEach((w, k) => {
    const b = el("button", "btn sensing-choice", own[k] || w);
    b.type = "button";
    if ((own[k] || w) !== w) b.title = w; // the whole move, for who wants it
    b.addEventListener("click", () => post(`/api/sensing/prompts/${p.id}`, { choice: k }));
    row.append(b);
  });
  c.append(row);
  const other = el("div", "sensing-choices sensing-other");
  if (p.none_of_these) {
    const none = el("button", "btn btn-warn sensing-none", "None of these");
    none.type = "button";
    none.addEventListener("click", async () => {
      if (await post(`/api/sensing/prompts/${p.id}`, { choice: "none" })) {
        hint("Then put the board right, or enter what happened below.");
      }
    });
    other.append(none);
  }
  if (p.nothing_happened) {
    const nothing = el("button", "btn sensing-nothing", "Nothing happened");
    nothing.type = "button";
    nothing.addEventListener("click", () => post(`/api/sensing/prompts/${p.id}`, { choice: "nothing" }));
    other.append(nothing);
  }
  if (other.childElementCount) c.append(other);
  c.append(crops(p.regions || []));
  panel.append(c);
}

// A move seen half done, held for its second step: "… waiting for the good made there".
function showWaiting(w) {
  panel.querySelectorAll(".sensing-waiting").forEach((e) => e.remove());
  const c = card("waiting", w.id);
  c.append(el("span", "sensing-title", "Seen so far: "), el("span", "sensing-words", w.words));
  panel.prepend(c);
}

// What the camera saw at each place named (no camera: the pictures remove themselves).
function crops(regions) {
  const box = el("div", "sensing-crops");
  [...new Set(regions)].forEach((region) => {
    const img = el("img", "sensing-crop");
    img.alt = "What the camera sees there";
    img.addEventListener("error", () => img.remove());
    img.src = `/api/camera/crop.png?region=${encodeURIComponent(region)}`
      + `&token=${encodeURIComponent(tableToken() || "")}`;
    box.append(img);
  });
  return box;
}

function showDiscrepancy(d) {
  const c = card("discrepancy", d.id);
  c.append(el("p", "sensing-title", "The table does not match the game:"));
  const list = el("ul", "sensing-items");
  d.items.forEach((i) => list.append(el("li", "", i.what)));
  c.append(list);
  c.append(crops(d.items.map((i) => i.region)));
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

// What the sensors saw lately: the last reading of each place, newest first, the latest
// in the summary line (opened, the last few), so that it never pushes the decision away.
const SEEN_KEEP = 6;
let seenList = null;
let seenLatest = null;
function showSeen(s) {
  if (!seenList) {
    const box = el("details", "sensing-seen");
    box.id = "sensing-seen";
    const summary = el("summary", "", "What the sensors saw: ");
    seenLatest = el("span", "sensing-seen-latest", "");
    summary.append(seenLatest);
    seenList = el("ol", "sensing-seen-list");
    box.append(summary, seenList);
    panel.append(box);
  }
  seenList.querySelectorAll("li").forEach((li) => { if (li.dataset.place === (s.place || "")) li.remove(); });
  const line = el("li", "", s.words);
  line.dataset.place = s.place || "";
  seenList.prepend(line);
  seenLatest.textContent = s.words;
  while (seenList.children.length > SEEN_KEEP) seenList.lastChild.remove();
}

onLive("open", () => panel.querySelectorAll(".sensing-prompt, .sensing-discrepancy, .sensing-waiting").forEach((e) => e.remove()));
onLive("proposal", showProposal);
onLive("prompt", showPrompt);
onLive("discrepancy", showDiscrepancy);
onLive("waiting", showWaiting);
onLive("health", showHealth);
onLive("seen", showSeen);
onLive("closed", (c) => panel.querySelectorAll(`[data-id="${c.id}"]`).forEach((e) => e.remove()));
