// The tags page: guided enrolment driven by taps from the readers (long poll on
// /api/tags/taps), skip/undo, enrol an unknown tag on the spot, the grid of pieces.
import { tableToken } from "./api.js";
import { h, fill } from "./dom.js";
import { showRefusal } from "./actions.js";
import { askToken, requireToken } from "./token.js";
import { startReaderPanel } from "./readers.js";

document.getElementById("live").hidden = true;
requireToken();
startReaderPanel();

let data = { pieces: [], enrolled: 0, total: 48 };
let run = null; // { pieces: [piece ids], i, history: [{ i, e }] }

async function call(method, url, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const token = tableToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    const res = await fetch(url, { method, headers, cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body) });
    let json = null;
    try { json = await res.json(); } catch { json = null; }
    return { ok: res.ok, status: res.status, body: json };
  } catch {
    return { ok: false, status: 0, body: { message: "The companion cannot be reached (Wi-Fi?)." } };
  }
}

const label = (piece) => (data.pieces.find((p) => p.piece === piece) || { label: piece }).label;

function say(text, warn = false) {
  const box = document.getElementById("enrol-said");
  box.textContent = text;
  box.classList.toggle("warn", warn);
  box.hidden = false;
  showRefusal(null);
}

async function load() {
  const res = await call("GET", "/api/tags");
  if (res.ok) data = res.body;
  drawGrid();
}

function drawGrid() {
  const current = run && run.pieces[run.i];
  document.getElementById("pieces-count").textContent = `${data.enrolled} of ${data.total} have a tag`;
  fill("pieces", data.pieces.map((p) => h("div", {
    class: `tag-cell${p.tagged ? "" : " missing"}${p.piece === current ? " current" : ""}`,
    "data-colour": p.colour, "data-piece": p.piece,
  }, h("strong", {}, p.piece), h("span", { class: "small" }, p.label), " ",
  p.uid ? h("code", {}, p.uid) : h("span", { class: "muted small" }, p.tagged ? "tagged" : "no tag"))));
  const select = document.getElementById("unknown-piece");
  if (!select.options.length) {
    select.replaceChildren(...data.pieces.map((p) => h("option", { value: p.piece }, `${p.piece} · ${p.label}`)));
  }
}

function ask() {
  const done = run.i >= run.pieces.length;
  document.getElementById("enrol-progress").textContent = done
    ? `Done: ${run.pieces.length} of ${run.pieces.length}`
    : `Piece ${run.i + 1} of ${run.pieces.length} · ${data.enrolled} of ${data.total} pieces have a tag`;
  const bar = document.getElementById("enrol-bar");
  bar.max = run.pieces.length;
  bar.value = run.i;
  const askEl = document.getElementById("enrol-ask");
  if (done) {
    askEl.textContent = "All asked pieces done.";
    askEl.removeAttribute("data-colour");
  } else {
    const piece = run.pieces[run.i];
    askEl.dataset.colour = piece.split("-")[0];
    askEl.replaceChildren(`Tap ${label(piece)} `, h("code", {}, `(${piece})`));
  }
  drawGrid();
}

function start(ev) {
  ev.preventDefault();
  const colour = document.getElementById("enrol-colour").value;
  const all = document.getElementById("enrol-all").checked;
  const pieces = data.pieces.filter((p) => (!colour || p.colour === colour) && (all || !p.tagged)).map((p) => p.piece);
  if (!pieces.length) {
    say("Every one of these pieces has a tag. Tick “every piece again” to replace tags.", true);
    return;
  }
  run = { pieces, i: 0, history: [] };
  document.getElementById("enrol-run").hidden = false;
  document.getElementById("enrol-setup").hidden = true;
  document.getElementById("unknown").hidden = true;
  say("Waiting for the first tap…");
  ask();
  document.getElementById("enrol").scrollIntoView({ block: "start" });
}

function stop() {
  run = null;
  document.getElementById("enrol-run").hidden = true;
  document.getElementById("enrol-setup").hidden = false;
  drawGrid();
}

async function enrolUid(uid) {
  if (!run || run.i >= run.pieces.length) return;
  const piece = run.pieces[run.i];
  const last = run.history.length ? run.history[run.history.length - 1].e : null;
  if (last && last.uid === uid) {
    say(`Tag ${uid} was just enrolled to ${last.piece}: tap the tag of ${label(piece)}.`, true);
    return;
  }
  const res = await call("POST", "/api/tags/enrol", { uid, piece });
  if (res.status === 401) { showRefusal(res); askToken(); return; }
  if (res.status === 409) { say(res.body.message, true); return; }
  if (!res.ok) { showRefusal(res); return; }
  const e = res.body;
  say(e.already ? `Tag ${uid} is already ${piece}.`
    : `${piece} = ${uid}${e.replaced ? ` (replaces ${e.replaced}, now retired)` : ""}`);
  run.history.push({ i: run.i, e });
  run.i += 1;
  await load();
  ask();
}

function skip() {
  if (!run || run.i >= run.pieces.length) return;
  say(`Skipped ${run.pieces[run.i]}.`, true);
  run.history.push({ i: run.i, e: null });
  run.i += 1;
  ask();
}

async function undo() {
  if (!run || !run.history.length) { say("Nothing to undo.", true); return; }
  const { i, e } = run.history.pop();
  if (e && !e.already) {
    const res = await call("POST", "/api/tags/undo", { uid: e.uid, piece: e.piece, replaced: e.replaced });
    if (!res.ok) { showRefusal(res); return; }
    say(`Undone: ${e.piece} no longer ${e.uid}.`);
  } else {
    say(`Back to ${run.pieces[i]}.`);
  }
  run.i = i;
  await load();
  ask();
}

function unknownTag(tap) {
  const box = document.getElementById("unknown");
  document.getElementById("unknown-uid").textContent = tap.uid;
  document.getElementById("unknown-reader").textContent = tap.reader;
  const missing = data.pieces.find((p) => !p.tagged);
  if (missing) document.getElementById("unknown-piece").value = missing.piece;
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
}

async function enrolUnknown(ev) {
  ev.preventDefault();
  const uid = document.getElementById("unknown-uid").textContent;
  const piece = document.getElementById("unknown-piece").value;
  const res = await call("POST", "/api/tags/enrol", { uid, piece });
  if (res.status === 401) { showRefusal(res); askToken(); return; }
  if (!res.ok) { say(res.body ? res.body.message : "refused", true); return; }
  say(`${piece} = ${uid}${res.body.replaced ? ` (replaces ${res.body.replaced}, now retired)` : ""}`);
  document.getElementById("unknown").hidden = true;
  await load();
}

async function onTap(tap) {
  if (run) return enrolUid(tap.uid);
  if (!tap.piece) { unknownTag(tap); return; }
  say(`Tag ${tap.uid} on ${tap.reader}: ${tap.piece} (${label(tap.piece)}).`);
}

// Taps arrive one by one, in order: a tap is handled before the next is looked at.
async function pollTaps() {
  let last = null;
  for (;;) {
    const url = last === null ? "/api/tags/taps" : `/api/tags/taps?after=${last}&wait=8`;
    const res = await call("GET", url);
    if (!res.ok) { await new Promise((r) => setTimeout(r, 2000)); continue; }
    if (last !== null) for (const tap of res.body.taps) await onTap(tap);
    last = res.body.last;
  }
}

document.getElementById("enrol-setup").addEventListener("submit", start);
document.getElementById("enrol-skip").addEventListener("click", skip);
document.getElementById("enrol-undo").addEventListener("click", undo);
document.getElementById("enrol-stop").addEventListener("click", stop);
document.getElementById("unknown-form").addEventListener("submit", enrolUnknown);
document.getElementById("enrol-manual").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const input = document.getElementById("enrol-uid");
  const uid = input.value.replace(/[\s:-]/g, "").toUpperCase();
  input.value = "";
  if (uid) enrolUid(uid);
});
load().then(pollTaps);
