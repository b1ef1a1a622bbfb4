// Customer tiles turned up by hand (at setup, or after a market day emptied waiting-line
// spaces): one choice per slot to fill, among the tiles not on the market now.
import { facts, fill, h, show, text } from "./dom.js";
import { send, showRefusal } from "./actions.js";

let formKey = "";

export function slotName(slot) {
  const n = Number(slot);
  return n < 5 ? `Stall ${n + 1}` : `Waiting line ${n - 4}`;
}

// What a tile shows face up: "1 plough + 1 scroll · 5 prestige".
export function tileText(id) {
  const c = (facts().customers || {})[id];
  if (!c) return "a tile this box does not list";
  const wants = Object.entries(c.goods || {}).filter(([, n]) => n).map(([g, n]) => `${n} ${g}`);
  if (c.grain) wants.push(`${c.grain} grain`);
  return `${wants.join(" + ") || "nothing"} · ${c.prestige} prestige`;
}

// Tiles that may still come out of the stack: every tile not on the market now. Which ones
// were served is hidden (face down on the farms), so those are listed too.
export function candidates(market) {
  const shown = new Set([...(market.stalls || []), ...(market.queue || [])].filter(Boolean));
  return Object.keys(facts().customers || {}).filter((id) => !shown.has(id))
    .sort((a, b) => tileText(a).localeCompare(tileText(b)) || a.localeCompare(b));
}

// Tiles alike on their face are one choice (a person cannot tell them apart, and their
// ids are printed nowhere): each select names a face; the picks take distinct tiles of it.
let faces = new Map();

function chosen() {
  const used = new Set();
  return [...document.querySelectorAll("#customers-slots select")].map((s) => {
    const id = (faces.get(s.value) || []).find((t) => !used.has(t)) || (s.value ? "twice" : "");
    used.add(id);
    return [s.dataset.slot, id];
  });
}

async function submit(ev) {
  ev.preventDefault();
  const picks = chosen();
  const missing = picks.filter(([, id]) => !id).map(([slot]) => slotName(slot));
  const ids = picks.map(([, id]) => id).filter(Boolean);
  if (missing.length) {
    showRefusal({ status: 400, body: { message: `choose the tile for ${missing.join(", ")}` } });
    return;
  }
  if (new Set(ids).size !== ids.length || ids.includes("twice")) {
    showRefusal({ status: 400, body: { message: "the same tile is chosen twice" } });
    return;
  }
  const res = await send({ type: "reveal_customers", tiles: Object.fromEntries(picks) });
  if (res.ok) formKey = "";
  else if (res.body && res.body.code === "not_in_stack") {
    text("customers-help", "One of these tiles is not in the stack: it was served earlier (face down on a farm) or is chosen twice. Check the tiles and choose again.");
  }
}

// Show the hand form when the game waits for customer tiles; hide it otherwise.
export function renderCustomers(st) {
  const p = st.pending || {};
  const waiting = p.kind === "reveal_customers";
  show("customers-panel", waiting);
  if (!waiting) { formKey = ""; return; }
  const slots = (p.slots || []).map(String);
  const key = `${st.game_id}:${st.seq}:${slots.join(",")}`;
  if (key === formKey) return;
  formKey = key;
  const ids = candidates(st.board.market);
  faces = new Map();
  for (const id of ids) faces.set(tileText(id), [...(faces.get(tileText(id)) || []), id]);
  text("customers-help", `Turn up ${slots.length} tile${slots.length === 1 ? "" : "s"} from the stack and choose what each shows (${ids.length} tiles are not on the market).`);
  fill("customers-slots", slots.map((slot) => h("label", { class: "slot-pick" },
    h("span", {}, slotName(slot)),
    h("select", { "data-slot": slot, name: `slot-${slot}`, "aria-label": `tile on ${slotName(slot)}` },
      h("option", { value: "" }, "— choose the tile —"),
      [...faces].map(([face, same]) => h("option", { value: face, "data-tiles": same.join(" ") },
        same.length > 1 ? `${face} (${same.length} alike)` : face))))));
}

document.getElementById("customers-form").addEventListener("submit", submit);
