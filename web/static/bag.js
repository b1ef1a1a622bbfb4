// Green bag: the virtual draw (commitment before, seed after) or a hand draw, and where to
// put each physical cube.
import { getState, live } from "./api.js";
import { facts, fill, h, show, text } from "./dom.js";
import { send } from "./actions.js";
import { drawNow, findDraw, offerFor, showSeed } from "./draws.js";
import { spaceName } from "./labels.js";
import { CUBE_ORDER, cube, cubes } from "./render.js";
import { requireToken } from "./token.js";

const SPACES = ["harvest", "family", "crafts", "market", "travel", "council", "church"];
let offer = null;
let lastFill = null; // {seq, action, draw, round, live}: the green-bag draw on show
let handCounts = {};
let handPlayers = 0;

function placement(spaces, title) {
  return [h("p", { class: "detail" }, title),
    h("div", { class: "placement" }, SPACES.map((s) => {
      const c = spaces[s] || {};
      const items = CUBE_ORDER.filter((k) => c[k]).map((k) => cube(k, c[k]));
      return h("div", { class: "place", "data-space": s }, h("h3", {}, spaceName(s)),
        items.length ? items : h("span", { class: "muted" }, "no cube"));
    }))];
}

function stepper(space, colour) {
  const out = h("output", { "data-space": space, "data-cube": colour }, handCounts[space][colour] || 0);
  const change = (d) => () => {
    const v = Math.max(0, (handCounts[space][colour] || 0) + d);
    handCounts[space][colour] = v;
    out.textContent = v;
    handTotals();
  };
  return h("div", { class: "stepper" }, cube(colour),
    h("button", { type: "button", class: "btn", "aria-label": `one ${colour} fewer on ${spaceName(space)}`, onclick: change(-1) }, "−"),
    out,
    h("button", { type: "button", class: "btn", "aria-label": `one ${colour} more on ${spaceName(space)}`, onclick: change(1) }, "+"));
}

function handTotals() {
  const card = (facts().setup_spaces || {})[String(handPlayers)] || {};
  const lines = SPACES.map((s) => {
    const n = Object.values(handCounts[s]).reduce((a, b) => a + b, 0);
    const want = card[s];
    const el = document.querySelector(`[data-hand-total="${s}"]`);
    if (el) el.textContent = want !== undefined ? `${n} of ${want}` : `${n}`;
    return n;
  });
  text("hand-total", `${lines.reduce((a, b) => a + b, 0)} cubes entered; the setup card says how many go on each space (unless the bag runs out).`);
}

function buildHandForm(players) {
  if (handPlayers === players) return;
  handPlayers = players;
  handCounts = Object.fromEntries(SPACES.map((s) => [s, {}]));
  fill("hand-grid", SPACES.map((s) => h("div", { class: "place" },
    h("h3", {}, spaceName(s), " ", h("small", { class: "muted", "data-hand-total": s }, "")),
    CUBE_ORDER.map((c) => stepper(s, c)))));
  handTotals();
}

async function submitHand(ev) {
  ev.preventDefault();
  const spaces = Object.fromEntries(SPACES.map((s) => [s,
    Object.fromEntries(Object.entries(handCounts[s]).filter(([, n]) => n > 0))]));
  const res = await send({ type: "fill_bag", spaces });
  if (res.ok) handPlayers = 0;
}

async function render(st) {
  const p = st.pending || {};
  offer = offerFor(st, "fill_bag");
  fill("bag-contents", cubes(st.board.green_bag, "the bag is empty"));
  const waiting = p.kind === "fill_bag";
  text("bag-status", waiting
    ? `Round ${st.round}: the setup card's cubes and every plague cube from the supply go into the green bag, then cubes are drawn onto the action spaces.`
    : `Round ${st.round}: the bag was drawn for this round. Next draw at the start of the next round.`);
  show("virtual-panel", Boolean(offer));
  if (offer) {
    text("commitment", offer.commitment);
    show("reveal-panel", false);
  }
  show("hand-panel", waiting);
  if (waiting) {
    requireToken();
    buildHandForm(Object.keys(st.players).length);
    fill("placement", placement(st.board.spaces, "Cubes left on the spaces now, before this round's draw:"));
    return;
  }
  // This round's draw: seen live on the event stream, or (fresh page) the last virtual one.
  if (lastFill && lastFill.round == null) lastFill.round = st.round;
  if (!lastFill || lastFill.round !== st.round) {
    const d = await findDraw(null, "fill_bag");
    lastFill = d ? { seq: d.seq, action: d.action, draw: d, round: st.round, live: false } : null;
  }
  if (lastFill) {
    const title = lastFill.live
      ? `This round's draw (#${lastFill.seq}${lastFill.draw ? ", virtual" : ", by hand"}): put these cubes on the action spaces.`
      : `The last virtual draw (#${lastFill.seq}): put these cubes on the action spaces.`;
    fill("placement", placement(lastFill.action.spaces, title),
      h("details", {}, h("summary", {}, "Cubes left on the spaces now"), placement(st.board.spaces, "")));
    if (lastFill.draw) showSeed(lastFill.draw); else show("reveal-panel", false);
  } else {
    fill("placement", placement(st.board.spaces, "Cubes on the action spaces now:"));
  }
}

async function refresh(event) {
  if (event && event.type === "fill_bag" && event.action) {
    lastFill = { seq: event.seq, action: event.action, draw: event.draw ? { ...event.draw, seq: event.seq } : null, round: event.state ? event.state.round : null, live: true };
  }
  const res = event && event.state ? { ok: true, body: event.state } : await getState();
  if (!res.ok) {
    text("bag-status", res.status === 404 ? "No game yet: start one on the New game page." : "The companion is not answering.");
    return;
  }
  await render(res.body);
}

document.getElementById("draw").addEventListener("click", async () => {
  if (!offer) return;
  const draw = await drawNow(offer);
  if (draw) {
    lastFill = { seq: draw.seq, action: draw.action, draw, round: null, live: true };
    await refresh(null);
  }
});
document.getElementById("hand-form").addEventListener("submit", submitHand);
live(refresh);
