// A player's phone for a secret simultaneous choice (any game's: Colonia's family cards and
// votes): the question, one big button per option, the answer sealed and changeable until
// everyone has answered, who is still awaited; and, for a game with screens, what stands
// behind this player's screen.
import { getState, live, onLive, refusalText } from "./api.js";
import { fill, h, text } from "./dom.js";
import { cap } from "./labels.js";

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
let drawing = 0;

async function refresh() {
  if (!token) {
    text("answer-status", "This page needs your player link (with ?token=…): ask the table for it.");
    return;
  }
  const mine = ++drawing;
  const res = await getState(colour, token);
  if (mine !== drawing) return;
  if (!res.ok) {
    text("answer-status", res.status === 401 ? "This link's token is not valid for the current game."
      : refusalText(res));
    return;
  }
  renderChoice(res.body);
  renderScreen(res.body);
  document.getElementById("answer-status").dataset.seq = String(res.body.seq);
}

onLive("sealed", () => refresh()); // someone answered: who is still awaited
live(refresh, token);
