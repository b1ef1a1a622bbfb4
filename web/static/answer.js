// A player's phone for a secret simultaneous choice (any game's: Colonia's family cards and
// votes): the question, one big button per option, the answer sealed and changeable until
// everyone has answered, who is still awaited; the materials this player drew by hand from
// the bag (Colonia's decree), reported sealed; and, for a game with screens, what stands
// behind this player's screen.
import { getState, live, onLive, postReport, refusalText } from "./api.js";
import { fill, h, text } from "./dom.js";
import { cap } from "./labels.js";
import { redraws } from "./redraws.js";

const colour = document.getElementById("main").querySelector("[data-colour]").dataset.colour;
const KEY = `village.playerToken.${colour}`;
const fromUrl = new URLSearchParams(location.search).get("token");
if (fromUrl) localStorage.setItem(KEY, fromUrl);
const token = fromUrl || localStorage.getItem(KEY);

const names = (list) => {
  const n = list.map(cap);
  return n.length < 2 ? n.join("") : `${n.slice(0, -1).join(", ")} and ${n[n.length - 1]}`;
};

async function answer(value) {
  const res = await fetch("/api/answer", {
    method: "POST", cache: "no-store",
    headers: { "Content-Type": "application/json", Accept: "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({ player: colour, answer: value }),
  });
  let body = null;
  try { body = await res.json(); } catch { body = null; }
  const box = document.getElementById("refusal");
  box.hidden = res.ok;
  if (!res.ok) box.textContent = refusalText({ ok: false, status: res.status, body });
  refresh();
}

function renderChoice(st) {
  const panel = document.getElementById("answer-panel");
  const mine = st.my_sealed;
  const sealed = st.sealed;
  panel.hidden = !mine;
  if (!mine) {
    text("answer-status", sealed
      ? `Waiting for ${names(sealed.waiting)} to answer: ${sealed.question}`
      : "Nothing to answer now. This page shows the next secret choice when it comes.");
    return;
  }
  text("answer-status", "A secret choice: tap your answer.");
  text("answer-question", mine.question);
  fill("answer-options", mine.options.map((o) => h("button", {
    type: "button", class: `big-option${o === mine.answer ? " chosen" : ""}`,
    "data-answer": String(o), "aria-pressed": String(o === mine.answer),
    onclick: () => answer(o),
  }, String(o))));
  text("answer-mine", mine.answer == null ? "You have not answered yet."
    : `Your answer: ${mine.answer} (sealed; tap another to change it).`);
  text("answer-waiting", sealed.waiting.length ? `Waiting for ${names(sealed.waiting)}.` : "");
}

// The decree's materials drawn by hand: one big button per pair (order aside); the report
// stays sealed (and changeable) until every player has reported (companion.colonia.hand_draw).
const MATERIALS = ["leather", "iron", "wood", "linen", "fur"];
const canonical = (list) => [...list].sort((a, b) => MATERIALS.indexOf(a) - MATERIALS.indexOf(b));

async function reportDraw(drawn) {
  const res = await postReport(colour, { type: "draw_materials", drawn: { [colour]: drawn } }, token);
  const box = document.getElementById("refusal");
  box.hidden = res.ok;
  if (!res.ok) box.textContent = refusalText(res);
  refresh();
}

function renderDraw(st) {
  const reports = (st.reports || []).filter((a) => a.type === "draw_materials");
  const panel = document.getElementById("draw-panel");
  panel.hidden = !reports.length;
  if (!reports.length) return;
  if (!st.my_sealed) text("answer-status", "The decree: tap the two materials you drew from the bag.");
  const seen = new Map();
  for (const a of reports) {
    const pair = canonical(a.drawn[colour]);
    seen.set(pair.join(","), pair);
  }
  const mine = st.my_report && st.my_report.sealed;
  fill("draw-options", [...seen].map(([key, pair]) => h("button", {
    type: "button", class: `big-option draw-option${key === mine ? " chosen" : ""}`,
    "data-draw": key, "aria-pressed": String(key === mine), onclick: () => reportDraw(pair),
  }, pair.map(cap).join(" + "))));
  const again = st.my_report && st.my_report.check_again;
  text("draw-mine", again || (mine ? `You reported ${mine.split(",").join(" and ")} (sealed; tap another to change it).`
    : "You have not reported yet."));
  const done = new Set(((st.hand_reports || {}).reported) || []);
  const waiting = (st.order && st.order.length ? st.order : (st.players || []).map((p) => p.color || p))
    .filter((c) => typeof c === "string" && !done.has(c));
  text("draw-waiting", waiting.length ? `Waiting for ${names(waiting)}.` : "");
}

function renderScreen(st) {
  const s = st.screen;
  document.getElementById("screen-panel").hidden = !s;
  if (!s) return;
  const list = (o) => Object.entries(o).filter(([, n]) => n).map(([k, n]) => `${n} ${k}`).join(", ") || "none";
  fill("screen",
    h("p", {}, `Materials: ${list(s.materials)}`),
    h("p", {}, `Goods: ${list(s.goods)}`),
    h("p", {}, `Money: ${list(s.money)}`),
    h("p", {}, `Relics: ${s.relics.map((r) => `${r.name} (${r.city}, ${r.kind === "relic" ? `${r.vp} VP` : "reliquary"})`).join(", ") || "none"}`),
    h("p", { "data-score": "total" }, `Your relics would score ${s.score.total} VP now.`));
}

// Overlapping refreshes (an event and an answer's notice together): only the latest draws.
const redraw = redraws();

async function refresh() {
  if (!token) {
    text("answer-status", "This page needs your player link (with ?token=…): ask the table for it.");
    return;
  }
  const mine = redraw.begin();
  const res = await getState(colour, token);
  if (!redraw.current(mine)) return;
  if (!res.ok) {
    text("answer-status", res.status === 401 ? "This link's token is not valid for the current game."
      : refusalText(res));
    return;
  }
  renderChoice(res.body);
  renderDraw(res.body);
  renderScreen(res.body);
  document.getElementById("answer-status").dataset.seq = String(res.body.seq);
}

onLive("sealed", () => refresh()); // someone answered: who is still awaited
onLive("reports", () => refresh()); // someone reported their materials (sealed)
live(refresh, token);
