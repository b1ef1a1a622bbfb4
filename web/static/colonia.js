// Colonia's table page: the week and the day, what the game waits for with its controls
// (a card turned up by hand, the box's question, a virtual draw or the decree's materials
// reported on the phones, the phones' secret choices, the day's options in words), what just happened, and the board in sight of all.
import { getLog, getTokens, live, onLive, postAction, refusalText, stateAndLegal, tableToken } from "./api.js";
import { fill, h, text } from "./dom.js";
import { cap } from "./labels.js";
import { redraws } from "./redraws.js";
import { coloniaBoard, names, weekStrip } from "./colonia-board.js";

const DECKS = { ship: "ship", relic: "relic", extra_relic: "relic", week: "week", decree: "decree" };
let tokens = null;

async function send(action) {
  const res = await postAction(action);
  const box = document.getElementById("refusal");
  box.hidden = res.ok;
  if (!res.ok) box.textContent = refusalText(res);
}

function revealForm(deck) {
  const input = h("input", { id: "col-card", type: "text", autocomplete: "off", "aria-label": `The ${deck} card's name` });
  return h("form", { class: "col-form", onsubmit: (e) => { e.preventDefault(); send({ type: "reveal", deck, card: input.value.trim() }); } },
    h("label", { for: "col-card" }, `Turn up the top ${deck} card and type the name printed on it: `), input,
    h("button", { type: "submit", id: "col-reveal" }, "Turned up"));
}

function questionForm(q) {
  const inputs = q.fields.map((f) => {
    const known = q.known[f.name];
    const el = f.kind === "choice"
      ? h("select", { name: f.name }, f.optional ? h("option", { value: "" }, "—") : null,
        f.choices.map((c) => h("option", { value: c, selected: c === known }, c)))
      : h("input", { name: f.name, type: f.kind === "int" ? "number" : "text", value: known ?? "" });
    return h("label", { class: "col-field" }, `${f.label}${f.optional ? " (if printed)" : ""} `, el);
  });
  const form = h("form", { class: "col-form", id: "col-question", onsubmit: (e) => {
    e.preventDefault();
    const values = {};
    for (const f of q.fields) {
      const v = form.elements[f.name].value.trim();
      values[f.name] = v === "" ? null : (f.kind === "int" ? Number(v) : v);
    }
    send({ type: "card_values", card_type: q.card_type, card: q.card, values });
  } }, h("p", {}, q.question, " The box keeps the answer for the next games."), inputs,
  h("button", { type: "submit" }, "That is what it says"));
  return form;
}

function controls(st, legal) {
  const p = st.pending;
  if (st.draw && p.kind === "private_materials") { // or drawn by hand: each reports on their phone
    const done = new Set(((st.hand_reports || {}).reported) || []);
    const again = ((st.hand_reports || {}).check_again) || [];
    const left = (st.order || []).filter((c) => !done.has(c));
    return [h("p", { id: "col-hand-draw" }, "Drawing from the real bag? Each player draws two materials behind their screen and taps them on their own phone; nobody else sees them. ",
      again.length ? `The reports did not fit the bag: ${names(again)}, please look again. ` : "",
      `Still to report: ${left.length ? names(left) : "nobody"}.`),
    tokens ? h("p", {}, (st.order || []).map((c) => h("a", { href: `/answer/${c}?token=${tokens[c]}`, class: "col-phone" }, `${cap(c)}'s phone`))) : null,
    h("button", { type: "button", id: "col-draw", class: "big", onclick: () => send({ type: "virtual_draw" }) }, "Or draw them all virtually")];
  }
  if (st.draw) { // a deck the box knows whole may still be turned up by hand
    return [h("p", {}, `A draw: ${st.draw.draw}. Commitment ${String(st.draw.commitment || "").slice(0, 16)}…`),
      h("button", { type: "button", id: "col-draw", class: "big", onclick: () => send({ type: "virtual_draw" }) }, "Draw virtually"),
      DECKS[p.kind] ? h("details", {}, h("summary", {}, "Or turn the card up by hand"), revealForm(DECKS[p.kind])) : null];
  }
  if (p.kind === "card_values") return [questionForm(p.question)];
  if (DECKS[p.kind]) return [revealForm(DECKS[p.kind])];
  if (p.kind === "sealed") {
    const s = st.sealed || { waiting: [] };
    return [h("p", { id: "col-waiting" }, `${s.question} Each answers on their phone; waiting for ${names(s.waiting)}.`),
      tokens ? h("p", {}, st.sealed.players.map((c) => h("a", { href: `/answer/${c}?token=${tokens[c]}`, class: "col-phone" }, `${cap(c)}'s phone`))) : null];
  }
  if (p.kind === "over") return [h("p", {}, "The game is over: every screen and score is below.")];
  return [h("div", { class: "col-options" }, legal.actions.map((a, i) => h("button", {
    type: "button", class: "col-option", "data-type": a.type, onclick: () => send(a),
  }, ((legal.choices[i] || {}).steps || [a.type])[0])))];
}

// Refreshes overlap (an event, then another, or a phone's answer, before the first is
// drawn): only the latest one draws, so an older answer never stamps the page last.
const redraw = redraws();

async function refresh(event) {
  const mine = redraw.begin();
  const [sres, lres] = await stateAndLegal(event);
  if (!redraw.current(mine)) return;
  if (!sres.ok) { text("col-status", refusalText(sres)); return; }
  const st = sres.body;
  if (st.game !== "colonia") { text("col-status", "The current game is not Colonia: start one on the new-game page (/new)."); return; }
  if (!tokens && tableToken()) {
    const t = await getTokens();
    if (!redraw.current(mine)) return;
    if (t.ok) tokens = Object.fromEntries(Object.entries(t.body.players || {}).map(([c, v]) => [c, typeof v === "string" ? v : v.token]));
  }
  text("col-status", st.week ? `Week ${st.week} of 6 · ${cap(st.day)}` : "Setting up");
  fill("col-controls", controls(st, lres));
  fill("col-week", weekStrip(st));
  coloniaBoard(st);
  const log = await getLog(6);
  if (!redraw.current(mine)) return;
  if (log.ok) {
    fill("col-log", h("ol", { class: "col-log" }, (log.body.entries || []).slice(-6).map((e) =>
      h("li", {}, (e.narration || []).join(" ")))));
  }
  document.getElementById("col-now").dataset.seq = String(st.seq);
}

onLive("sealed", () => refresh(null));
onLive("reports", () => refresh(null)); // a player reported their materials (sealed)
live(refresh);
